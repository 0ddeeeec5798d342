/* `mcdyn sweep` run as a program (docs/scale-out.md): summaries that do
 * not depend on --jobs, a grid checked against the closed form of a ball
 * sliding then rolling, a reproducible random sweep, a failing case as a
 * row, resume after the process was killed midway, each case's CPU time,
 * the order of --costs, and bad input. */
#include <check.h>
#include <hdf5.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/check_main.h"
#include "../cli/cli_fixture.h"
#include "sweep_fixture.h"

/* Row i's value of column name (a number). */
static double value(const summary *s, int row, const char *name)
{
    const char *field = summary_field(s, row, name);
    ck_assert_msg(field && *field, "row %d has no %s", row, name);
    return atof(field);
}

START_TEST(grid_same_with_one_and_two_threads)
{
    char out1[4096], out2[4096];
    temp_path(out1, "grid1.csv");
    temp_path(out2, "grid2.csv");
    sweep_ok(data_path("grid.yaml"), out1, "--jobs", "1");
    sweep_ok(data_path("grid.yaml"), out2, "--jobs", "2");
    summary a = summary_read(out1), b = summary_read(out2);
    summary_assert_same(&a, &b);
    ck_assert_int_eq(a.nrow, 6);
    /* Case i: mu = mus[i / 2], v0 = v0s[i % 2] (the first axis slowest).
     * The ball (r = 1 m) launched at v0 on the ground slides with
     * vx = v0 - mu g t until t_sr = 2 v0 / (7 mu g), then rolls at
     * 5 v0 / 7 (sphere_plane.yaml). Tolerance: the transition falls inside
     * one step, whose friction impulse changes vx by at most mu g dt =
     * 4.9e-3 m/s (mu 0.5, dt 1 ms). */
    const double mus[] = {0.1, 0.3, 0.5}, v0s[] = {1, 2}, g = 9.81, T = 0.1;
    for (int i = 0; i < 6; i++) {
        const double mu = mus[i / 2], v0 = v0s[i % 2];
        ck_assert_double_eq(value(&a, i, "case"), i);
        ck_assert_double_eq(value(&a, i, "contact.mu"), mu);
        ck_assert_double_eq(value(&a, i, "robots[0].qd.ball[0]"), v0);
        ck_assert_str_eq(summary_field(&a, i, "completed"), "1");
        ck_assert_str_eq(summary_field(&a, i, "status"), "ok");
        ck_assert_double_eq(value(&a, i, "steps"), 100);
        const double expected = fmax(v0 - mu * g * T, 5.0 * v0 / 7.0);
        ck_assert_double_eq_tol(value(&a, i, "ball.vx.final"), expected, 5e-3);
        ck_assert_double_eq_tol(value(&a, i, "ball.vx.max"), v0, 1e-12);
        ck_assert_double_eq_tol(value(&a, i, "ball.vx.min"), value(&a, i, "ball.vx.final"), 1e-12);
        ck_assert_double_eq(value(&a, i, "ncontacts.final"), 1);
    }
    summary_free(&a);
    summary_free(&b);
}
END_TEST

START_TEST(random_sweep_reproducible)
{
    char out1[4096], out2[4096], other[4096], out3[4096];
    temp_path(out1, "random1.csv");
    temp_path(out2, "random2.csv");
    temp_path(out3, "random3.csv");
    sweep_ok(data_path("random.yaml"), out1, "--jobs", "2");
    sweep_ok(data_path("random.yaml"), out2, "--jobs", "1");
    summary a = summary_read(out1), b = summary_read(out2);
    summary_assert_same(&a, &b);
    ck_assert_int_eq(a.nrow, 8);
    for (int i = 0; i < 8; i++) {
        const double mu = value(&a, i, "contact.mu"), z = value(&a, i, "robots[0].position[2]");
        ck_assert(mu >= 0.2 && mu < 1.0);
        ck_assert(fabs(z - 1.05) < 0.06); /* 6 standard deviations */
        /* Sample j draws the same values at both step methods. */
        ck_assert_str_eq(summary_field(&a, i, "contact.mu"),
                         summary_field(&a, i % 4, "contact.mu"));
        ck_assert_str_eq(summary_field(&a, i, "solver.name"), i < 4 ? "mncp-plm" : "ccp-pgs");
        ck_assert_str_eq(summary_field(&a, i, "completed"), "1");
    }
    ck_assert_str_ne(summary_field(&a, 0, "contact.mu"), summary_field(&a, 1, "contact.mu"));
    /* Another seed, other values. */
    write_sweep(other, "random_seed8.yaml",
                "scenario: %s\nset: {duration: 0.05}\nrandom:\n  seed: 8\n  samples: 4\n"
                "  vary: {contact.mu: {uniform: [0.2, 1.0]}}\n",
                model_path("sphere_plane.yaml"));
    sweep_ok(other, out3, "--jobs", "1");
    summary c = summary_read(out3);
    ck_assert_str_ne(summary_field(&c, 0, "contact.mu"), summary_field(&a, 0, "contact.mu"));
    summary_free(&a);
    summary_free(&b);
    summary_free(&c);
}
END_TEST

START_TEST(failing_case_is_a_row)
{
    char out[4096];
    temp_path(out, "failing.csv");
    const char *said = sweep_ok(data_path("failing.yaml"), out, "--jobs", "2");
    ck_assert_msg(strstr(said, "failed            1 of those run now"), "%s", said);
    /* The throughput line: rate x seconds is the 3 cases run now, up to
     * the rounding of the printed figures (seconds to 0.0005, the rate to
     * 0.05). */
    const char *running = strstr(said, "running           ");
    double seconds = -1, rate = -1;
    ck_assert_msg(running &&
                      sscanf(running + 18, "%lf s, %lf cases per second", &seconds, &rate) == 2,
                  "%s", said);
    ck_assert_msg(seconds > 0 && rate > 0 &&
                      fabs(rate * seconds - 3) <= 0.05 * seconds + 0.0005 * rate + 1e-9,
                  "%s", said);
    summary a = summary_read(out);
    ck_assert_int_eq(a.nrow, 3);
    ck_assert_str_eq(summary_field(&a, 0, "completed"), "1");
    ck_assert_str_eq(summary_field(&a, 1, "completed"), "0");
    ck_assert_str_eq(summary_field(&a, 2, "completed"), "1");
    ck_assert_str_ne(summary_field(&a, 1, "status"), "ok");
    ck_assert_msg(strstr(summary_field(&a, 1, "message"), "solver.name"), "%s",
                  summary_field(&a, 1, "message"));
    ck_assert_str_eq(summary_field(&a, 1, "steps"), "0");
    summary_free(&a);
}
END_TEST

START_TEST(resume_after_kill)
{
    char out[4096], part[4200];
    temp_path(out, "slow.csv");
    snprintf(part, sizeof part, "%s.part", out);
    const char *exe = env_or_fail("MCDYN_EXE");
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        execl(exe, exe, "sweep", data_path("slow.yaml"), "--out", out, (char *)NULL);
        _exit(127);
    }
    /* Kill it (as a node failure would) once two cases are in the journal. */
    int status = 0;
    while (journal_rows(part) < 2 && waitpid(pid, &status, WNOHANG) == 0)
        nanosleep(&(struct timespec){0, 20000000}, NULL);
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    const int kept = journal_rows(part);
    ck_assert_msg(WIFSIGNALED(status), "the sweep ended before it was killed: make it longer");
    /* Killed inside a later case: at least two rows, not all eight. */
    ck_assert_msg(kept >= 2 && kept < 8, "kept %d", kept);
    ck_assert_int_ne(access(out, F_OK), 0); /* no summary of an unfinished sweep */
    summary before = summary_read(part);
    const char *said = sweep_ok(data_path("slow.yaml"), out, "--resume");
    char expect[128];
    snprintf(expect, sizeof expect, "(%d run now, %d kept from an earlier run)", 8 - kept, kept);
    ck_assert_msg(strstr(said, expect), "expected '%s' in:\n%s", expect, said);
    ck_assert_int_ne(access(part, F_OK), 0); /* the journal is gone */
    summary after = summary_read(out);
    ck_assert_int_eq(after.nrow, 8);
    /* The kept rows are the killed run's, timings included: not run again. */
    for (int i = 0; i < before.nrow; i++) {
        int c = atoi(summary_field(&before, i, "case"));
        ck_assert_str_eq(after.line[c], before.line[i]);
    }
    for (int i = 0; i < 8; i++) ck_assert_str_eq(summary_field(&after, i, "completed"), "1");
    summary_free(&before);
    summary_free(&after);
}
END_TEST

/* The last value of column name in the CSV file at path. */
static double last_value(const char *path, const char *name)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "no trajectory %s", path);
    char *line = NULL, *header = NULL;
    size_t cap = 0, hcap = 0;
    ck_assert_int_gt(getline(&header, &hcap, f), 0);
    char last[65536] = "";
    while (getline(&line, &cap, f) > 0) snprintf(last, sizeof last, "%s", line);
    fclose(f);
    int col = 0;
    for (char *p = strtok(header, ",\n"); p && strcmp(p, name); p = strtok(NULL, ",\n")) col++;
    const char *v = last;
    for (int c = 0; c < col; c++) v = strchr(v, ',') + 1;
    free(line);
    free(header);
    return atof(v);
}

/* Dataset /summary/<name> of the HDF5 file: its values (n of them). */
static void read_h5(hid_t file, const char *name, double *v, int n, int rank)
{
    char path[256];
    snprintf(path, sizeof path, "/summary/%s", name);
    hid_t d = H5Dopen2(file, path, H5P_DEFAULT);
    ck_assert_msg(d >= 0, "no dataset %s", path);
    hid_t space = H5Dget_space(d);
    hsize_t dims[2] = {0, 0};
    ck_assert_int_eq(H5Sget_simple_extent_ndims(space), rank);
    H5Sget_simple_extent_dims(space, dims, NULL);
    ck_assert_int_eq((int)(dims[0] * (rank == 2 ? dims[1] : 1)), n);
    ck_assert(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    H5Sclose(space);
    H5Dclose(d);
}

START_TEST(trajectories_and_hdf5_summary)
{
    char sweep[4096], out[4096], h5[4096], dir[4096], traj[4200];
    temp_path(dir, "traj");
    temp_path(out, "traj.csv");
    temp_path(h5, "traj.h5");
    write_sweep(sweep, "traj.yaml",
                "scenario: %s\nset: {duration: 0.02}\ngrid: {contact.mu: [0.1, 0.5]}\n"
                "record: {columns: [ball.vx], trajectories: %s}\n",
                model_path("sphere_plane.yaml"), dir);
    sweep_ok(sweep, out, "--h5", h5, "--jobs", "2");
    summary s = summary_read(out);
    /* Each case's trajectory ends where the summary says. */
    for (int i = 0; i < 2; i++) {
        snprintf(traj, sizeof traj, "%s/case_%06d.csv", dir, i);
        ck_assert(last_value(traj, "ball.vx") == value(&s, i, "ball.vx.final"));
    }
    /* The HDF5 summary holds the CSV's numbers (both exact: 17 digits). */
    hid_t file = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_msg(file >= 0, "cannot open %s", h5);
    double mu[2], vx[2], q[14];
    read_h5(file, "contact.mu", mu, 2, 1);
    read_h5(file, "ball.vx.final", vx, 2, 1);
    read_h5(file, "q_final", q, 14, 2); /* 2 cases x nq = 7 (a free joint) */
    H5Fclose(file);
    for (int i = 0; i < 2; i++) {
        ck_assert(mu[i] == value(&s, i, "contact.mu"));
        ck_assert(vx[i] == value(&s, i, "ball.vx.final"));
        ck_assert(q[7 * i] == atof(summary_field(&s, i, "q_final")));
    }
    summary_free(&s);
    /* HDF5 trajectories (the log of log.h), written under a lock. */
    write_sweep(sweep, "traj_h5.yaml",
                "scenario: %s\nset: {duration: 0.02}\ngrid: {contact.mu: [0.1, 0.5]}\n"
                "record: {trajectories: %s, format: h5}\n",
                model_path("sphere_plane.yaml"), dir);
    sweep_ok(sweep, out, "--jobs", "2");
    for (int i = 0; i < 2; i++) {
        snprintf(traj, sizeof traj, "%s/case_%06d.h5", dir, i);
        ck_assert_msg(H5Fis_hdf5(traj) > 0, "no HDF5 trajectory %s", traj);
    }
}
END_TEST

/* User + system CPU seconds of this process's waited-for children. */
static double children_cpu_seconds(void)
{
    struct rusage u;
    ck_assert_int_eq(getrusage(RUSAGE_CHILDREN, &u), 0);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/* The cpu column is the CPU time of the thread that ran the case, checked
 * against clocks it is not computed from: the case's wall time and the
 * whole process's CPU time (getrusage on the finished mcdyn). Two threads
 * run the cases at once, so a process CPU clock read around each case
 * would count both threads' work, and the cases' sum would exceed the
 * process's. */
START_TEST(cpu_is_the_case_thread_cpu)
{
    char sweep[4096], out[4096], h5[4096];
    temp_path(out, "cpu.csv");
    temp_path(h5, "cpu.h5");
    write_sweep(sweep, "cpu.yaml",
                "scenario: %s\nset: {duration: 0.6}\ngrid: {contact.mu: [0.3, 0.6, 0.9, 1.2]}\n",
                model_path("a1_drop_upright.yaml"));
    const double before = children_cpu_seconds();
    sweep_ok(sweep, out, "--h5", h5, "--jobs", "2");
    const double process = children_cpu_seconds() - before;
    summary s = summary_read(out);
    ck_assert_int_eq(s.nrow, 4);
    double sum = 0, cpu_h5[4];
    hid_t file = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_msg(file >= 0, "cannot open %s", h5);
    read_h5(file, "cpu", cpu_h5, 4, 1);
    H5Fclose(file);
    for (int i = 0; i < 4; i++) {
        const double cpu = value(&s, i, "cpu"), wall = value(&s, i, "wall");
        /* One thread cannot use more CPU than the time that passed: the
         * two clocks are read inside each other's span, each printed to
         * 1e-6 s; 1 ms covers the scheduler's clock against the
         * monotonic clock (both read to the nanosecond, no tick). */
        ck_assert_msg(cpu > 0 && cpu <= wall + 1e-3, "case %d: cpu %g, wall %g", i, cpu, wall);
        ck_assert(cpu_h5[i] == cpu);
        sum += cpu;
    }
    /* The cases ran inside the process: their CPU at most its CPU (4
     * figures printed to 1e-6 s; getrusage to 1e-6 s), and most of it
     * (0.8 of it in a release build, 2026-11-26: the rest reads the sweep,
     * checks case 0 and writes the summaries), so a quarter is a safe
     * floor that a clock of another thread would not reach. */
    ck_assert_msg(sum <= process + 1e-4 && sum >= 0.25 * process,
                  "cases %g s of CPU, the process %g s", sum, process);
    summary_free(&s);
}
END_TEST

/* Writes a costs file for a sweep of ncase cases: the identity line of
 * the summary at like (same sweep), then the rows given. */
static void write_costs(char *path, const char *name, const char *like, int ncase, const char *rows)
{
    char identity[256];
    FILE *f = fopen(like, "rb");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(identity, sizeof identity, f));
    fclose(f);
    char *cases = strstr(identity, " cases ");
    ck_assert_ptr_nonnull(cases);
    sprintf(cases, " cases %d\n", ncase);
    temp_path(path, name);
    f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "%s%s", identity, rows);
    fclose(f);
}

/* --costs hands the cases out costliest first (unknown ones before them):
 * with one thread they finish in that order (--progress); the summary is
 * the same as without. */
START_TEST(costs_order_the_cases)
{
    char plain[4096], ordered[4096], costs[4096];
    temp_path(plain, "plain.csv");
    temp_path(ordered, "ordered.csv");
    sweep_ok(data_path("grid.yaml"), plain, "--jobs", "1");
    /* Case 2 unknown, then 1 (3 s), 3 (2 s), 5 (1 s), 0 (0.5 s), 4 (0.1 s);
     * a cpu column and a wall column: cpu is the cost. */
    write_costs(costs, "costs.csv", plain, 6,
                "case,wall,cpu\n0,9,0.5\n1,0,3\n3,0,2\n4,9,0.1\n5,0,1\n");
    command_result r = mcdyn((const char *[]){"sweep", data_path("grid.yaml"), "--out", ordered,
                                              "--jobs", "1", "--progress", "--costs", costs, NULL});
    ck_assert_msg(r.exit_code == 0, "%s", r.err);
    const int expect[] = {2, 1, 3, 5, 0, 4};
    const char *p = r.err;
    for (int k = 0; k < 6; k++) {
        ck_assert_msg((p = strstr(p, "mcdyn sweep: case ")) != NULL, "%s", r.err);
        p += 18;
        ck_assert_msg(atoi(p) == expect[k], "finished %d at place %d, expected %d:\n%s", atoi(p), k,
                      expect[k], r.err);
    }
    command_result_free(&r);
    summary a = summary_read(plain), b = summary_read(ordered);
    summary_assert_same(&a, &b);
    summary_free(&a);
    summary_free(&b);
    /* Files that cannot give the costs of this sweep's cases. */
    write_costs(costs, "costs7.csv", plain, 7, "case,cpu\n0,1\n");
    sweep_fails(data_path("grid.yaml"), ordered, "a summary of 7 cases, this sweep has 6",
                "--costs", costs);
    write_costs(costs, "costs_none.csv", plain, 6, "case,steps\n0,1\n");
    sweep_fails(data_path("grid.yaml"), ordered, "no cpu or wall column", "--costs", costs);
    sweep_fails(data_path("grid.yaml"), ordered, "not the summary of an mcdyn sweep", "--costs",
                data_path("grid.yaml"));
    sweep_fails(data_path("grid.yaml"), ordered, "cannot read", "--costs", "/nonexistent.csv");
}
END_TEST

START_TEST(resume_refuses_another_sweep)
{
    char out[4096], text[4096];
    temp_path(out, "another.csv");
    sweep_ok(data_path("failing.yaml"), out, "--jobs", "1");
    sweep_fails(data_path("grid.yaml"), out, "another sweep", "--resume");
    temp_path(text, "not_a_summary.csv");
    FILE *f = fopen(text, "wb");
    ck_assert_ptr_nonnull(f);
    fputs("a,b\n1,2\n", f);
    fclose(f);
    sweep_fails(data_path("grid.yaml"), text, "not the summary of an mcdyn sweep", "--resume");
    /* The same sweep's summary from an mcdyn of other columns (before the
     * cpu column: the header and rows without it) would mix two row
     * widths. */
    char old[4096], line[8192];
    temp_path(old, "old_columns.csv");
    sweep_ok(data_path("failing.yaml"), old, "--jobs", "1");
    f = fopen(old, "rb");
    ck_assert_ptr_nonnull(f);
    char *kept = NULL;
    size_t len = 0;
    FILE *w = open_memstream(&kept, &len);
    while (fgets(line, sizeof line, f)) {
        char *last = strrchr(line, ',');
        if (line[0] != '#' && last) strcpy(last, "\n");
        fputs(line, w);
    }
    fclose(f);
    fclose(w);
    f = fopen(old, "wb");
    fputs(kept, f);
    fclose(f);
    free(kept);
    sweep_fails(data_path("failing.yaml"), old, "other columns than this mcdyn writes", "--resume");
}
END_TEST

/* A sweep file of the given body (the base scenario prepended) must fail
 * with a message holding fragment, and write no summary. */
static void bad_sweep(const char *body, const char *fragment)
{
    char path[4096], out[4096];
    write_sweep(path, "bad.yaml", "scenario: %s\n%s", model_path("sphere_plane.yaml"), body);
    temp_path(out, "bad.csv");
    unlink(out);
    sweep_fails(path, out, fragment, NULL);
    ck_assert_int_ne(access(out, F_OK), 0);
}

START_TEST(bad_sweep_files)
{
    bad_sweep("grid: {contact.muu: [0.1, 0.2]}\n", "key 'contact.muu': unknown key");
    bad_sweep("grid:\n  robots[2].q.x: [1]\n", "override 'robots[2].q.x'");
    bad_sweep("grid: {contact.mu: []}\n", "key 'contact.mu': expected a nonempty list");
    bad_sweep("random: {seed: 1, samples: 2, vary: {dt: {uniform: [0.01, 0.001]}}}\n",
              "empty range");
    bad_sweep("random: {seed: 1, samples: 2, vary: {dt: {uniform: [0.01, 0.01]}}}\n",
              "empty range");
    bad_sweep("random: {seed: 1, samples: 2, vary: {dt: {normal: [0.01, 0]}}}\n",
              "standard deviation must be positive");
    bad_sweep("random: {samples: 2, vary: {dt: {uniform: [0.001, 0.002]}}}\n", "needs a seed");
    bad_sweep("random: {seed: 1, samples: 0, vary: {dt: {uniform: [0.001, 0.002]}}}\n",
              "random.samples");
    bad_sweep("random: {seed: -1, samples: 2, vary: {dt: {uniform: [0.001, 0.002]}}}\n",
              "random.seed");
    bad_sweep("random: {seed: 1, samples: 2, vary: {dt: {gauss: [0.001, 0.002]}}}\n",
              "key 'gauss': unknown key");
    bad_sweep("set: {dt: 0.001}\ngrid: {dt: [0.001]}\n", "already set or varied");
    bad_sweep("grids: {dt: [0.001]}\n", "key 'grids': unknown key");
    bad_sweep("record: {columns: [ball.q]}\n", "no CSV column 'ball.q'");
    bad_sweep("record: {format: png}\n", "expected csv or h5");
    bad_sweep("grid: {contact.mu: [0.1, [0.2]]}\n", "expected a value");
    char path[4096], out[4096];
    write_sweep(path, "noscenario.yaml", "%s", "grid: {dt: [0.001]}\n");
    temp_path(out, "bad.csv");
    sweep_fails(path, out, "key 'scenario': missing key", NULL);
    write_sweep(path, "missing.yaml", "%s", "scenario: /nonexistent/base.yaml\n");
    sweep_fails(path, out, "/nonexistent/base.yaml: cannot read", NULL);
}
END_TEST

START_TEST(plot_of_a_sweep)
{
    char out[4096], png[4096];
    temp_path(out, "plot.csv");
    temp_path(png, "plot.png");
    sweep_ok(data_path("grid.yaml"), out, "--plot", png, "--plot-y", "ball.vx.final");
    FILE *f = fopen(png, "rb");
    unsigned char magic[8] = {0};
    ck_assert_msg(f != NULL, "no picture %s", png);
    ck_assert_int_eq(fread(magic, 1, 8, f), 8);
    fclose(f);
    ck_assert(!memcmp(magic, "\x89PNG\r\n\x1a\n", 8));
    /* A column that is not in the summary is refused before any case runs. */
    unlink(out);
    sweep_fails(data_path("grid.yaml"), out, "--plot-y: no summary column 'ball.q'", "--plot", png,
                "--plot-y", "ball.q");
    ck_assert_int_ne(access(out, F_OK), 0);
    /* A first axis of names cannot be an x axis. */
    sweep_fails(data_path("failing.yaml"), out, "not a number", "--plot", png, "--plot-y", "steps");
}
END_TEST

START_TEST(bad_usage)
{
    const char *no_out[] = {"sweep", data_path("grid.yaml"), NULL};
    const char *zero_jobs[] = {"sweep", data_path("grid.yaml"), "--out", "x.csv", "--jobs", "0",
                               NULL};
    const char *unknown[] = {"sweep", data_path("grid.yaml"), "--out", "x.csv", "--fast", NULL};
    const char *plot_alone[] = {
        "sweep", data_path("grid.yaml"), "--out", "x.csv", "--plot", "x.png", NULL};
    const char *const *cases[] = {no_out, zero_jobs, unknown, plot_alone};
    for (int i = 0; i < 4; i++) {
        command_result r = mcdyn(cases[i]);
        ck_assert_int_eq(r.exit_code, 2);
        command_result_free(&r);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sweep-cli");
    TCase *tc = tcase_create("sweep");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, grid_same_with_one_and_two_threads);
    tcase_add_test(tc, random_sweep_reproducible);
    tcase_add_test(tc, failing_case_is_a_row);
    tcase_add_test(tc, resume_after_kill);
    tcase_add_test(tc, trajectories_and_hdf5_summary);
    tcase_add_test(tc, cpu_is_the_case_thread_cpu);
    tcase_add_test(tc, costs_order_the_cases);
    tcase_add_test(tc, resume_refuses_another_sweep);
    tcase_add_test(tc, bad_sweep_files);
    tcase_add_test(tc, plot_of_a_sweep);
    tcase_add_test(tc, bad_usage);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

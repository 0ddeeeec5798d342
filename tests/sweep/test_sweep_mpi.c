/* `mpirun -n 2 mcdyn sweep` (docs/scale-out.md): rank 0 hands out the
 * cases, rank 1 and rank 0's threads run them; the summary must equal the
 * one of a single process with one thread, field by field (timings
 * aside), for a grid and for a random sweep, with one and two threads per
 * rank, and a failing case is a row. A sweep whose rank 0 is killed midway
 * resumes under mpirun and runs only the cases missing from the journal.
 * As root, mpirun needs --allow-run-as-root; --oversubscribe lets two
 * ranks share fewer cores. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/check_main.h"
#include "../cli/cli_fixture.h"
#include "sweep_fixture.h"

/* The argument vector of mpirun -n 2 [--bind-to none] mcdyn sweep SWEEP
 * --out OUT ARGS... into argv (24 entries). */
static void mpi_argv(char **argv, const char *sweep, const char *out, const char *const *args)
{
    /* Two threads per rank want the whole machine: mpirun binds each of
     * two ranks to one core by default. */
    int unbound = *args && !strcmp(*args, "--jobs");
    char *head[] = {(char *)env_or_fail("MPIRUN"),
                    "--allow-run-as-root",
                    "--oversubscribe",
                    "-n",
                    "2",
                    (char *)env_or_fail("MCDYN_EXE"),
                    "sweep",
                    (char *)sweep,
                    "--out",
                    (char *)out};
    int n = 0;
    for (size_t k = 0; k < sizeof head / sizeof *head; k++) {
        argv[n++] = head[k];
        if (k == 4 && unbound) argv[n++] = "--bind-to", argv[n++] = "none";
    }
    for (; *args && n < 23; args++) argv[n++] = (char *)*args;
    argv[n] = NULL;
}

/* mpirun -n 2 mcdyn sweep SWEEP --out OUT ARGS... must succeed; its
 * output in r. */
static void mpi_sweep_args(const char *sweep, const char *out, const char *const *args,
                           command_result *r)
{
    char *argv[24];
    mpi_argv(argv, sweep, out, args);
    /* In the sanitizer build, no leak detection inside mpirun's processes:
     * OpenMPI leaks in its plugins, which it unloads before the report (so
     * the report names no module a suppression could match). Our code's
     * leaks are checked by the same sweeps in one process (sweep-cli). */
    const char *asan = getenv("ASAN_OPTIONS");
    char *saved = asan ? strdup(asan) : NULL, options[1024];
    snprintf(options, sizeof options, "%s%sdetect_leaks=0", asan ? asan : "", asan ? ":" : "");
    setenv("ASAN_OPTIONS", options, 1);
    int ran = run_command(argv, r);
    if (saved)
        setenv("ASAN_OPTIONS", saved, 1);
    else
        unsetenv("ASAN_OPTIONS");
    free(saved);
    ck_assert_msg(ran == 0, "cannot run mpirun");
    ck_assert_msg(r->exit_code == 0, "mpirun: exit %d\n%.2000s", r->exit_code, r->err);
    ck_assert_msg(strstr(r->out, "summary"), "%s", r->out);
}
#define mpi_sweep(sweep, out, r, ...)                                                              \
    mpi_sweep_args(sweep, out, (const char *[]){__VA_ARGS__, NULL}, r)

/* The sweep file in one process with one thread, and under mpirun -n 2
 * with ARGS (NULL-terminated), give the same summary. */
static void check_same(const char *file, const char *const *args)
{
    char one[4096], two[4096];
    command_result r;
    temp_path(one, "one.csv");
    temp_path(two, "two_ranks.csv");
    sweep_ok(data_path(file), one, "--jobs", "1");
    mpi_sweep_args(data_path(file), two, args, &r);
    command_result_free(&r);
    summary a = summary_read(one), b = summary_read(two);
    summary_assert_same(&a, &b);
    ck_assert_int_gt(a.nrow, 0);
    summary_free(&a);
    summary_free(&b);
}

START_TEST(grid_on_two_ranks)
{
    check_same("grid.yaml", (const char *[]){NULL});
}
END_TEST

/* Every rank runs two threads (the other ranks included): same summary. */
START_TEST(grid_on_two_ranks_two_threads)
{
    check_same("grid.yaml", (const char *[]){"--jobs", "2", NULL});
}
END_TEST

START_TEST(random_on_two_ranks)
{
    check_same("random.yaml", (const char *[]){NULL});
}
END_TEST

/* Handed out by the costs of the one-process run check_same makes first
 * (--costs; chunks bounded by cost): same summary. */
START_TEST(random_on_two_ranks_with_costs)
{
    char costs[4096];
    temp_path(costs, "one.csv");
    check_same("random.yaml", (const char *[]){"--costs", costs, NULL});
}
END_TEST

START_TEST(failing_case_on_two_ranks)
{
    check_same("failing.yaml", (const char *[]){"--jobs", "2", NULL});
}
END_TEST

/* The process of mpirun's (pid parent) rank 0, found by its environment;
 * 0 when none is running (yet). */
static pid_t rank0_of(pid_t parent)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    pid_t found = 0;
    ck_assert(d != NULL);
    while (!found && (e = readdir(d))) {
        char path[512], buf[8192];
        int pid = atoi(e->d_name), ppid = 0;
        snprintf(path, sizeof path, "/proc/%d/stat", pid);
        FILE *f = pid > 0 ? fopen(path, "rb") : NULL;
        if (!f) continue;
        /* pid (comm) state ppid: comm may hold spaces, so after the last ')'. */
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        char *close = strrchr(buf, ')');
        if (!close || sscanf(close + 1, " %*c %d", &ppid) != 1 || ppid != parent) continue;
        snprintf(path, sizeof path, "/proc/%d/environ", pid);
        if (!(f = fopen(path, "rb"))) continue;
        n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        for (size_t k = 0; k < n; k += strlen(buf + k) + 1)
            if (!strcmp(buf + k, "OMPI_COMM_WORLD_RANK=0")) found = pid;
    }
    closedir(d);
    return found;
}

/* Starts mpirun -n 2 mcdyn sweep killed.yaml --out out and kills its
 * rank 0 (as a node failure would) once three rows are in the journal.
 * Returns mpirun's wait status. */
static int run_and_kill_rank0(const char *out, const char *part)
{
    char *argv[24];
    mpi_argv(argv, data_path("killed.yaml"), out, (const char *[]){NULL});
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO), dup2(null, STDERR_FILENO);
        setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    pid_t rank0 = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (!rank0) rank0 = rank0_of(pid);
        if (rank0 && journal_rows(part) >= 3) {
            kill(rank0, SIGKILL);
            waitpid(pid, &status, 0);
            return status;
        }
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    return status;
}

START_TEST(resume_after_killing_rank0)
{
    char out[4096], part[4200], whole[4096];
    temp_path(out, "killed.csv");
    temp_path(whole, "killed_whole.csv");
    snprintf(part, sizeof part, "%s.part", out);
    const int status = run_and_kill_rank0(out, part);
    const int kept = journal_rows(part);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) != 0,
                  "mpirun ended well (status %d): the sweep ended before rank 0 was killed",
                  status);
    ck_assert_int_ge(kept, 3);
    ck_assert_int_lt(kept, 12);
    ck_assert_int_ne(access(out, F_OK), 0); /* no summary of an unfinished sweep */
    summary before = summary_read(part);
    command_result r;
    mpi_sweep(data_path("killed.yaml"), out, &r, "--resume", "--progress");
    char expect[128];
    snprintf(expect, sizeof expect, "(%d run now, %d kept from an earlier run)", 12 - kept, kept);
    ck_assert_msg(strstr(r.out, expect), "expected '%s' in:\n%s", expect, r.out);
    /* Count the cases run now (a --progress line each): the missing ones
     * only, none of those kept. */
    int ran = 0;
    for (const char *p = r.err; (p = strstr(p, "mcdyn sweep: case ")); ran++) {
        int c = atoi(p += 18);
        for (int i = 0; i < before.nrow; i++)
            ck_assert_int_ne(c, atoi(summary_field(&before, i, "case")));
    }
    ck_assert_int_eq(ran, 12 - kept);
    command_result_free(&r);
    ck_assert_int_ne(access(part, F_OK), 0); /* the journal is gone */
    /* The summary equals an uninterrupted run's; the kept rows are the
     * killed run's, timings included. */
    sweep_ok(data_path("killed.yaml"), whole, "--jobs", "1");
    summary after = summary_read(out), reference = summary_read(whole);
    summary_assert_same(&after, &reference);
    for (int i = 0; i < before.nrow; i++) {
        int c = atoi(summary_field(&before, i, "case"));
        ck_assert_str_eq(after.line[c], before.line[i]);
    }
    summary_free(&before);
    summary_free(&after);
    summary_free(&reference);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sweep-mpi");
    TCase *tc = tcase_create("mpi");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, grid_on_two_ranks);
    tcase_add_test(tc, grid_on_two_ranks_two_threads);
    tcase_add_test(tc, random_on_two_ranks);
    tcase_add_test(tc, random_on_two_ranks_with_costs);
    tcase_add_test(tc, failing_case_on_two_ranks);
    tcase_add_test(tc, resume_after_killing_rank0);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

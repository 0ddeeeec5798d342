/* The reliability guarantees of the `mcdyn` command (docs/reliability.md),
 * each checked by running the built program:
 *  - no input text is run as a command: a scenario name, link (column)
 *    names and output paths full of gnuplot and shell syntax (newline,
 *    quotes, backslash, ';', '`', system(, @) reach the plot, which still
 *    comes out, and a marker file that any of them would create is absent;
 *  - bounds: step counts over the limit, non-numbers and out-of-range
 *    numbers on the command line, and a query too large to print are
 *    refused with a message;
 *  - writes: a full file system (a small tmpfs, mounted when the test runs
 *    as root, else /dev/full), a read-only directory and a full standard
 *    output end with a message and exit code 1, and leave a previous file
 *    byte for byte intact with no temporary file beside it;
 *  - the divergence guard stops a diverging run with its message, and a
 *    failed run leaves the previous CSV intact;
 *  - the default impact law creates no energy; the main job names newton
 *    and prints the energy change. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/check_main.h"
#include "cli_fixture.h"

/* Every piece of syntax a gnuplot script or a shell could act on, each
 * trying to create the marker file. */
#define MARKER "mcdyn_injected"
#define EVIL   "x'\n system(\"touch " MARKER "\") \\ ; `touch " MARKER "` \" @x !touch " MARKER

static char dir[256];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/mcdyn_cli_rel_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    /* gnuplot and any shell it might start run in this directory, so the
     * marker would appear here */
    ck_assert_int_eq(chdir(dir), 0);
}

static const char *in_dir(const char *name)
{
    static char path[4][1024];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* The whole file (malloc'd), NULL if it cannot be read. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = calloc(1, 1 << 20);
    size_t n = fread(text, 1, (1 << 20) - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

static int is_png(const char *path)
{
    char *t = read_text(path);
    int ok = t && !memcmp(t, "\x89PNG", 4);
    free(t);
    return ok;
}

/* Files in d whose name starts with a dot (temporary outputs). */
static int hidden_files(const char *d)
{
    DIR *h = opendir(d);
    ck_assert_ptr_nonnull(h);
    int n = 0;
    for (struct dirent *e; (e = readdir(h));)
        n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(h);
    return n;
}

static void no_marker(void)
{
    struct stat st;
    ck_assert_msg(stat(in_dir(MARKER), &st) != 0, "an input was run as a command");
    ck_assert_msg(stat("/tmp/" MARKER, &st) != 0, "an input was run as a command");
}

static void expect(const char *const *args, int code, const char *fragment)
{
    command_result r = mcdyn(args);
    ck_assert_msg(r.exit_code == code, "exit %d (expected %d): %s", r.exit_code, code, r.err);
    ck_assert_msg(strstr(r.err, fragment) != NULL, "stderr lacks '%s': %s", fragment, r.err);
    command_result_free(&r);
}

/* A one-link URDF whose link is called name (XML-escaped here). */
static void write_sphere_urdf(const char *path, const char *name)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("<robot name=\"r\"><link name=\"", f);
    for (const char *c = name; *c; c++) {
        if (*c == '\n')
            fputs("&#10;", f);
        else if (*c == '"')
            fputs("&quot;", f);
        else if (*c == '<')
            fputs("&lt;", f);
        else if (*c == '&')
            fputs("&amp;", f);
        else
            fputc(*c, f);
    }
    fputs("\"><inertial><mass value=\"1\"/><inertia ixx=\"0.4\" iyy=\"0.4\" izz=\"0.4\" ixy=\"0\" "
          "ixz=\"0\" iyz=\"0\"/></inertial><collision><geometry><sphere radius=\"1\"/></geometry>"
          "</collision></link></robot>\n",
          f);
    ck_assert_int_eq(fclose(f), 0);
}

START_TEST(no_input_is_run_as_a_command)
{
    make_dir();
    /* a sub-directory with the same syntax in its name holds the outputs */
    char sub[1024];
    snprintf(sub, sizeof sub, "%s", in_dir("out " EVIL));
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    write_sphere_urdf(in_dir("evil.urdf"), EVIL);
    write_text(in_dir("evil.yaml"),
               "name: \"x'\\n system(\\\"touch " MARKER "\\\") \\\\ ; `touch " MARKER
               "` \\\" @x !touch " MARKER "\\n\"\n"
               "robots:\n  - {urdf: evil.urdf, base: floating, position: [0, 0, 1.5]}\n"
               "environment:\n  - {name: ground, type: plane, xyz: [0, 0, 0]}\n"
               "dt: 0.002\nduration: 0.1\n");
    char csv[2048], png[2048], column[256], title[512];
    snprintf(csv, sizeof csv, "%s/t " EVIL ".csv", sub);
    snprintf(png, sizeof png, "%s/p " EVIL ".png", sub);
    snprintf(column, sizeof column, "%s.z", EVIL);
    const char *args[] = {"sim", in_dir("evil.yaml"), "--out", csv,       "--plot",
                          png,   "--plot-columns",    column,  "--quiet", NULL};
    command_result r = mcdyn(args);
    ck_assert_msg(r.exit_code == 0, "exit %d: %s", r.exit_code, r.err);
    command_result_free(&r);
    no_marker();
    ck_assert_msg(is_png(png), "no picture at %s", png);
    /* draw: the same names in the title and the output path */
    snprintf(title, sizeof title, "%s", EVIL);
    snprintf(png, sizeof png, "%s/d " EVIL ".png", sub);
    const char *draw[] = {"draw", in_dir("evil.yaml"), "--out", png, "--title", title, NULL};
    r = mcdyn(draw);
    ck_assert_msg(r.exit_code == 0, "exit %d: %s", r.exit_code, r.err);
    command_result_free(&r);
    no_marker();
    ck_assert_msg(is_png(png), "no picture at %s", png);
}
END_TEST

START_TEST(bounds_are_refused_with_a_message)
{
    const char *sphere = model_path("sphere_plane.yaml");
    const char *tiny[] = {"sim", sphere, "--dt", "1e-300", NULL};
    expect(tiny, 1, "needs 6e+299 steps, more than the limit of 1000000000");
    const char *small[] = {"sim", sphere, "--dt", "1e-12", NULL};
    expect(small, 1, "needs 6e+11 steps");
    const char *long_run[] = {"sim", sphere, "--duration", "2e31", NULL};
    expect(long_run, 1, "needs 2e+34 steps");
    static const char *const bad_numbers[] = {"1e-3x", "inf", "nan", " 1", "1e999", "", "0x", NULL};
    for (int i = 0; bad_numbers[i]; i++) {
        const char *dt[] = {"sim", sphere, "--dt", bad_numbers[i], NULL};
        expect(dt, 2, "--dt");
    }
    const char *slots[] = {"sim", sphere, "--contact-slots", "99999999999", NULL};
    expect(slots, 2, "--contact-slots");
    const char *size[] = {"draw", sphere, "--out", "/tmp/x.png", "--size", "99999999999x600", NULL};
    expect(size, 2, "--size");
    const char *trailing[] = {"query", model_path("arm3.urdf"), "--tau", "1,2,3,", NULL};
    expect(trailing, 1, "ends with a comma");
    /* a scenario file asking for too many steps */
    make_dir();
    char *yaml = read_text(sphere);
    ck_assert_ptr_nonnull(yaml);
    char *dt_line = strstr(yaml, "dt: 0.001");
    ck_assert_ptr_nonnull(dt_line);
    memcpy(dt_line, "dt: 1e-15", 9);
    write_text(in_dir("long.yaml"), yaml);
    free(yaml);
    const char *file[] = {"sim", in_dir("long.yaml"), NULL};
    expect(file, 1, "more than the limit of 1000000000");
}
END_TEST

/* A chain of n unit links as a URDF, to make a query too large to print. */
START_TEST(query_output_is_bounded)
{
    make_dir();
    const int n = 2100;
    FILE *f = fopen(in_dir("chain.urdf"), "w");
    ck_assert_ptr_nonnull(f);
    fputs("<robot name=\"chain\"><link name=\"l0\"/>\n", f);
    for (int k = 1; k <= n; k++)
        fprintf(f,
                "<link name=\"l%d\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" "
                "izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
                "<joint name=\"j%d\" type=\"continuous\"><parent link=\"l%d\"/><child "
                "link=\"l%d\"/><origin xyz=\"0 0 -1\"/><axis xyz=\"1 0 0\"/></joint>\n",
                k, k, k - 1, k);
    fputs("</robot>\n", f);
    ck_assert_int_eq(fclose(f), 0);
    const char *args[] = {"query", in_dir("chain.urdf"), NULL};
    expect(args, 1, "more than the limit of 4000000");
}
END_TEST

/* Runs mcdyn args with standard output to /dev/full; returns the exit code
 * and puts standard error in err. */
static int run_to_full_stdout(const char *const *args, char *err, size_t errlen)
{
    int pipe_fd[2];
    ck_assert_int_eq(pipe(pipe_fd), 0);
    pid_t pid = fork();
    if (pid == 0) {
        int full = open("/dev/full", O_WRONLY);
        dup2(full, STDOUT_FILENO);
        dup2(pipe_fd[1], STDERR_FILENO);
        close(pipe_fd[0]);
        char *argv[16];
        int n = 0;
        argv[n++] = getenv("MCDYN_EXE");
        for (; args[n - 1] && n < 15; n++) argv[n] = (char *)args[n - 1];
        argv[n] = NULL;
        execv(argv[0], argv);
        _exit(127);
    }
    close(pipe_fd[1]);
    size_t got = 0;
    ssize_t k;
    while (got + 1 < errlen && (k = read(pipe_fd[0], err + got, errlen - 1 - got)) > 0)
        got += (size_t)k;
    err[got] = '\0';
    close(pipe_fd[0]);
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

START_TEST(full_standard_output_is_an_error)
{
    char err[4096];
    const char *query[] = {"query", model_path("arm3.urdf"), NULL};
    ck_assert_int_eq(run_to_full_stdout(query, err, sizeof err), 1);
    ck_assert_msg(strstr(err, "cannot write standard output"), "%s", err);
    const char *sim[] = {"sim", model_path("sphere_plane.yaml"), "--duration", "0.01", NULL};
    ck_assert_int_eq(run_to_full_stdout(sim, err, sizeof err), 1);
    ck_assert_msg(strstr(err, "cannot write standard output"), "%s", err);
    char solve_file[4096];
    snprintf(solve_file, sizeof solve_file, "%s/data/lcp/lcp_trivial.dat",
             env_or_fail("MCDYN_SHARED"));
    const char *solve[] = {"solve", solve_file, NULL};
    ck_assert_int_eq(run_to_full_stdout(solve, err, sizeof err), 1);
    ck_assert_msg(strstr(err, "cannot write standard output"), "%s", err);
}
END_TEST

/* A directory where writes fail: a 64 KiB tmpfs (full after a few rows of
 * the pendulum's CSV) or a read-only one when running as root; NULL
 * otherwise (the caller then uses /dev/full). */
static const char *special_dir(const char *name, unsigned long flags)
{
    const char *d = in_dir(name);
    ck_assert_int_eq(mkdir(d, 0755), 0);
    if (geteuid() != 0 || mount("tmpfs", d, "tmpfs", 0, "size=64k") != 0) return NULL;
    write_text(in_dir(name[0] == 'f' ? "full/old.csv" : "ro/old.csv"), "previous\n");
    if (flags && mount("tmpfs", d, "tmpfs", MS_REMOUNT | flags, "size=64k") != 0) {
        umount(d);
        return NULL;
    }
    return d;
}

static void expect_previous_intact(const char *path)
{
    char *t = read_text(path);
    ck_assert_msg(t && !strcmp(t, "previous\n"), "%s changed: '%s'", path, t ? t : "(gone)");
    free(t);
}

START_TEST(failed_writes_leave_previous_files_intact)
{
    make_dir();
    const char *full = special_dir("full", 0);
    if (!full) { /* not root: the same checks through /dev/full */
        fprintf(stderr, "test_cli_reliability: no tmpfs (not root), using /dev/full\n");
        const char *dev[] = {"sim", model_path("sphere_plane.yaml"), "--out", "/dev/full", NULL};
        expect(dev, 1, "cannot write /dev/full");
        return;
    }
    char out[1024], png[1024], json[1024];
    snprintf(out, sizeof out, "%s/old.csv", full);
    const char *sim[] = {
        "sim", model_path("pendulum12.yaml"), "--duration", "1", "--out", out, "--quiet", NULL};
    expect(sim, 1, "No space left on device");
    expect_previous_intact(out);
    ck_assert_int_eq(hidden_files(full), 0);
    /* solve --json: the 0-byte file of old is gone */
    snprintf(json, sizeof json, "%s/old.csv", full);
    char problem[4096];
    snprintf(problem, sizeof problem, "%s/data/fc3d/Rover4396.dat", env_or_fail("MCDYN_SHARED"));
    const char *solve[] = {"solve", problem, "--json", json, NULL};
    command_result r = mcdyn(solve);
    if (r.exit_code != 0) expect_previous_intact(json); /* the JSON did not fit */
    command_result_free(&r);
    ck_assert_int_eq(hidden_files(full), 0);
    umount(full);
    /* a read-only directory */
    const char *ro = special_dir("ro", MS_RDONLY);
    ck_assert_ptr_nonnull(ro);
    snprintf(out, sizeof out, "%s/old.csv", ro);
    snprintf(png, sizeof png, "%s/p.png", ro);
    const char *ro_sim[] = {
        "sim", model_path("sphere_plane.yaml"), "--duration", "0.01", "--out", out, NULL};
    expect(ro_sim, 1, "Read-only file system");
    expect_previous_intact(out);
    const char *ro_draw[] = {"draw", model_path("sphere_plane.yaml"), "--out", png, NULL};
    expect(ro_draw, 1, "Read-only file system");
    umount(ro);
}
END_TEST

/* A failed drawing (gnuplot failing) and a run that fails midway (the
 * divergence guard) keep the previous picture and CSV. */
START_TEST(failed_runs_keep_previous_outputs)
{
    make_dir();
    write_text(in_dir("old.png"), "previous\n");
    write_text(in_dir("old.csv"), "previous\n");
    setenv("MCDYN_GNUPLOT", "false", 1);
    const char *draw[] = {"draw", model_path("sphere_plane.yaml"), "--out", in_dir("old.png"),
                          NULL};
    expect(draw, 1, "false failed");
    unsetenv("MCDYN_GNUPLOT");
    expect_previous_intact(in_dir("old.png"));
    const char *sim[] = {
        "sim", model_path("pendulum12.yaml"), "--dt", "0.05", "--out", in_dir("old.csv"), NULL};
    expect(sim, 1, "diverging at t = ");
    expect_previous_intact(in_dir("old.csv"));
    ck_assert_int_eq(hidden_files(dir), 0);
}
END_TEST

/* A chain of 7 links whose masses go from 1e-6 to 1e6 kg (x 100 per link)
 * diverges in free fall with semi-implicit Euler at 1 ms: the guard stops
 * it within a few steps, naming the energies, where the simulator used to
 * write rows up to 1e301 J before the first non-finite number. */
START_TEST(divergence_guard_stops_runs)
{
    make_dir();
    FILE *f = fopen(in_dir("chain.urdf"), "w");
    ck_assert_ptr_nonnull(f);
    fputs("<robot name=\"chain\"><link name=\"base\"/>\n", f);
    double mass = 1e-6;
    for (int k = 0; k < 7; k++, mass *= 100) {
        char parent[16];
        snprintf(parent, sizeof parent, k ? "l%d" : "base", k - 1);
        fprintf(f,
                "<link name=\"l%d\"><inertial><origin xyz=\"0 0 -1\"/><mass value=\"%g\"/>"
                "<inertia ixx=\"%g\" iyy=\"%g\" izz=\"%g\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>"
                "</inertial></link>\n<joint name=\"j%d\" type=\"continuous\"><parent "
                "link=\"%s\"/><child link=\"l%d\"/><origin xyz=\"0 0 %d\"/><axis xyz=\"1 0 "
                "0\"/></joint>\n",
                k, mass, 0.004 * mass, 0.004 * mass, 0.004 * mass, k, parent, k, k ? -1 : 0);
    }
    fputs("</robot>\n", f);
    ck_assert_int_eq(fclose(f), 0);
    write_text(in_dir("chain.yaml"), "name: chain\nrobots:\n  - {urdf: chain.urdf, base: fixed, "
                                     "position: [0, 0, 8], q: {j0: -0.7}}\ndt: 0.001\nduration: "
                                     "1\n");
    const char *args[] = {"sim", in_dir("chain.yaml"), "--out", in_dir("chain.csv"), NULL};
    command_result r = mcdyn(args);
    ck_assert_int_eq(r.exit_code, 1);
    /* stopped by the drift rule (mechanical energy) or the per-step rule */
    ck_assert_msg(strstr(r.err, "diverging at t = ") && (strstr(r.err, "kinetic energy grew") ||
                                                         strstr(r.err, "mechanical energy rose")),
                  "%s", r.err);
    command_result_free(&r);
    struct stat st;
    ck_assert_msg(stat(in_dir("chain.csv"), &st) != 0, "a failed run left a CSV");
    /* a normal run is unaffected (the whole suite runs with the guard) */
    const char *fine[] = {"sim", model_path("sphere_plane.yaml"), "--duration", "0.05", NULL};
    r = mcdyn(fine);
    ck_assert_msg(r.exit_code == 0, "%s", r.err);
    command_result_free(&r);
}
END_TEST

/* Energy of the summary line "energy  E0 J -> E1 J ...". */
static void summary_energy(const char *out, double *E0, double *E1)
{
    const char *line = strstr(out, "energy ");
    ck_assert_msg(line && sscanf(line, "energy %lf J -> %lf J", E0, E1) == 2, "%s", out);
}

/* The pendulum of the main job without its impact_law line gets the
 * default law, which never creates energy (no actuation, so E1 <= E0 up to
 * the semi-implicit Euler drift in free swing, +1.5e-5 relative over the
 * 0.15 s before the first impact, bounded here by 1e-4); with newton (the file as committed) the
 * first floor impact gains energy (Kane's paradox) and the summary says so. */
START_TEST(default_impact_law_creates_no_energy)
{
    make_dir();
    char *yaml = read_text(model_path("pendulum12.yaml"));
    ck_assert_ptr_nonnull(yaml);
    char *law = strstr(yaml, "\n  impact_law: newton\n");
    ck_assert_ptr_nonnull(law);
    memset(law + 1, ' ', strlen("  impact_law: newton"));
    write_text(in_dir("pendulum12.yaml"), yaml);
    free(yaml);
    char urdf[4096];
    snprintf(urdf, sizeof urdf, "cp %s %s", model_path("pendulum12.urdf"), dir);
    ck_assert_int_eq(system(urdf), 0);
    double E0, E1, N0, N1;
    const char *plain[] = {"sim", in_dir("pendulum12.yaml"), "--duration", "0.3", NULL};
    command_result r = mcdyn(plain);
    ck_assert_msg(r.exit_code == 0, "%s", r.err);
    summary_energy(r.out, &E0, &E1);
    command_result_free(&r);
    ck_assert_msg(E1 <= E0 * (1 + 1e-4), "default law: %g J -> %g J", E0, E1);
    const char *newton[] = {"sim", model_path("pendulum12.yaml"), "--duration", "0.3", NULL};
    r = mcdyn(newton);
    ck_assert_msg(r.exit_code == 0, "%s", r.err);
    summary_energy(r.out, &N0, &N1);
    command_result_free(&r);
    ck_assert_msg(N1 > 1.2 * N0, "newton: %g J -> %g J (Kane's paradox expected)", N0, N1);
}
END_TEST

Suite *cli_reliability_suite(void)
{
    Suite *s = suite_create("cli-reliability");
    TCase *tc = tcase_create("reliability");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, no_input_is_run_as_a_command);
    tcase_add_test(tc, bounds_are_refused_with_a_message);
    tcase_add_test(tc, query_output_is_bounded);
    tcase_add_test(tc, full_standard_output_is_an_error);
    tcase_add_test(tc, failed_writes_leave_previous_files_intact);
    tcase_add_test(tc, failed_runs_keep_previous_outputs);
    tcase_add_test(tc, divergence_guard_stops_runs);
    tcase_add_test(tc, default_impact_law_creates_no_energy);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(cli_reliability_suite());
}

/* Tests of `mcdyn solve` ($MCDYN_EXE): its help, its JSON object on LCP,
 * MLCP, frictional-contact and FCLIB files, its options, and its exit codes
 * and messages on bad input (reusing tests/cli's runner and JSON reader);
 * and a functional run of `mcdyn bench solve` (its output, not its times). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check_main.h"
#include "json_scan.h"
#include "problem_list.h"
#include "run_command.h"

#define MAX_ARGS 16

static const char *shared_path(const char *name)
{
    static char path[4096];
    const char *root = getenv("MCDYN_SHARED");
    ck_assert_msg(root && *root, "MCDYN_SHARED is not set");
    snprintf(path, sizeof path, "%s/data/%s", root, name);
    return path;
}

/* Runs `mcdyn words... args...` (both NULL-terminated). */
static command_result mcdyn(const char *const *words, const char *const *args)
{
    char *argv[MAX_ARGS + 4];
    int n = 0;
    argv[n++] = getenv("MCDYN_EXE");
    ck_assert_msg(argv[0] && *argv[0], "MCDYN_EXE is not set");
    for (; *words; words++) argv[n++] = (char *)*words;
    for (; *args; args++) {
        ck_assert_int_lt(n, MAX_ARGS + 3);
        argv[n++] = (char *)*args;
    }
    argv[n] = NULL;
    command_result r;
    ck_assert_msg(run_command(argv, &r) == 0, "cannot run %s", argv[0]);
    return r;
}

static command_result solve(const char *const *args)
{
    static const char *const words[] = {"solve", NULL};
    return mcdyn(words, args);
}

static command_result bench_solve(const char *const *args)
{
    static const char *const words[] = {"bench", "solve", NULL};
    return mcdyn(words, args);
}

/* The string member key of obj equals want. */
static void assert_string_member(const char *obj, const char *key, const char *want)
{
    const char *v = json_member(obj, key);
    ck_assert_msg(v, "no member %s in %s", key, obj);
    size_t n = strlen(want);
    ck_assert_msg(v[0] == '"' && !strncmp(v + 1, want, n) && v[n + 1] == '"',
                  "member %s is not \"%s\": %.60s", key, want, v);
}

static double number_member(const char *obj, const char *key)
{
    double x;
    const char *v = json_member(obj, key);
    ck_assert_msg(v && json_numbers(v, &x, 1) == 1, "member %s is not a number", key);
    return x;
}

static void assert_array_member(const char *obj, const char *key, int length)
{
    const char *v = json_member(obj, key);
    ck_assert_msg(v, "no member %s", key);
    ck_assert_int_eq(json_length(v), length);
}

START_TEST(test_help_names_every_option)
{
    static const char *const args[] = {"--help", NULL};
    static const char *const words[] = {"--solver", "--tol",       "--max-iter", "--json",
                                        "--kind",   "--help",      "mlcp-lemke", "mncp-plm",
                                        "FCLIB",    "exit status", NULL};
    command_result r = solve(args);
    ck_assert_int_eq(r.exit_code, 0);
    for (const char *const *w = words; *w; w++)
        ck_assert_msg(strstr(r.out, *w), "help lacks '%s':\n%s", *w, r.out);
    command_result_free(&r);
}
END_TEST

START_TEST(test_lcp_default_solver)
{
    const char *args[] = {shared_path("lcp/lcp_CPS_1.dat"), NULL};
    command_result r = solve(args);
    ck_assert_msg(r.exit_code == 0, "exit %d: %s", r.exit_code, r.err);
    ck_assert_msg(json_valid(r.out), "not JSON: %s", r.out);
    assert_string_member(r.out, "kind", "lcp");
    assert_string_member(r.out, "solver", "mlcp-lemke");
    assert_string_member(r.out, "status", "ok");
    ck_assert(number_member(r.out, "size") == 2);
    ck_assert(number_member(r.out, "error") <= 1e-8);
    ck_assert(number_member(r.out, "iterations") >= 1);
    ck_assert(number_member(r.out, "seconds") >= 0);
    assert_array_member(r.out, "z", 2);
    command_result_free(&r);
}
END_TEST

START_TEST(test_fc3d_default_solver)
{
    const char *args[] = {shared_path("fc3d/FC3D_Example1.dat"), NULL};
    command_result r = solve(args);
    ck_assert_msg(r.exit_code == 0, "exit %d: %s", r.exit_code, r.err);
    ck_assert(json_valid(r.out));
    assert_string_member(r.out, "kind", "fc3d");
    assert_string_member(r.out, "solver", "mncp-plm");
    ck_assert(number_member(r.out, "contacts") == 3);
    ck_assert(number_member(r.out, "bilateral_rows") == 0);
    ck_assert(number_member(r.out, "dimension") == 3);
    assert_array_member(r.out, "r", 9);
    assert_array_member(r.out, "u", 9);
    ck_assert_ptr_null(json_member(r.out, "z"));
    command_result_free(&r);
}
END_TEST

/* --solver, --tol, --max-iter and --json. */
START_TEST(test_options_and_json_file)
{
    char out[] = "/tmp/mcdyn-solve-XXXXXX";
    int fd = mkstemp(out);
    ck_assert_int_ge(fd, 0);
    close(fd);
    const char *args[] = {shared_path("mlcp/Buck2_mlcp.dat"),
                          "--solver",
                          "mlcp-pfb-plm",
                          "--tol",
                          "1e-9",
                          "--max-iter",
                          "50",
                          "--json",
                          out,
                          NULL};
    command_result r = solve(args);
    ck_assert_msg(r.exit_code == 0, "exit %d: %s", r.exit_code, r.err);
    ck_assert_str_eq(r.out, "");
    FILE *in = fopen(out, "r");
    ck_assert_ptr_nonnull(in);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, in);
    text[n] = '\0';
    fclose(in);
    unlink(out);
    ck_assert_msg(json_valid(text), "not JSON: %s", text);
    assert_string_member(text, "kind", "mlcp");
    assert_string_member(text, "solver", "mlcp-pfb-plm");
    ck_assert(number_member(text, "tol") == 1e-9);
    ck_assert(number_member(text, "max_iter") == 50);
    ck_assert(number_member(text, "equality_rows") == 20);
    ck_assert(number_member(text, "error") <= 1e-8);
    assert_array_member(text, "z", 32);
    command_result_free(&r);
}
END_TEST

/* A solve that stops early still prints its JSON; the exit code is 1. */
START_TEST(test_not_solved_prints_json_and_fails)
{
    const char *args[] = {shared_path("lcp/lcp_CPS_3.dat"), NULL};
    command_result r = solve(args);
    ck_assert_int_eq(r.exit_code, 1);
    ck_assert(json_valid(r.out));
    assert_string_member(r.out, "status", "infeasible");
    ck_assert_ptr_nonnull(json_member(r.out, "message"));
    ck_assert_ptr_nonnull(strstr(r.err, "infeasible"));
    command_result_free(&r);
}
END_TEST

START_TEST(test_fclib_file)
{
    const char *args[] = {shared_path("fc3d/fclib_local_problem_test.hdf5"),
                          "--solver",
                          "mncp-rlm",
                          "--max-iter",
                          "2",
                          NULL}; /* RLM: no fallback chain after the 2 */
    command_result r = solve(args);
    ck_assert_int_eq(r.exit_code, 1);
    ck_assert_msg(json_valid(r.out), "not JSON: %s", r.err);
    assert_string_member(r.out, "status", "not converged");
    ck_assert(number_member(r.out, "contacts") == 48);
    ck_assert(number_member(r.out, "iterations") == 2);
    command_result_free(&r);
}
END_TEST

/* Bad input: exit code and words of the message on standard error. */
typedef struct bad_run {
    const char *args[6]; /* "@x" is shared file x, "%x" our fixture x */
    int exit_code;
    const char *words[2];
} bad_run;

static const bad_run bad_runs[] = {
    {{"/nonexistent/p.dat", NULL}, 1, {"/nonexistent/p.dat", "cannot open"}},
    {{"%bad_lcp_nan.dat", NULL}, 1, {"bad_lcp_nan.dat:6:", "M(1,0)"}},
    {{"%bad_fc3d_negative_mu.dat", NULL}, 1, {"bad_fc3d_negative_mu.dat:11:", "negative"}},
    {{"@fc3d/FC3D_Example1.dat", "--solver", "mlcp-lemke", NULL}, 1, {"unsupported", ""}},
    {{"@lcp/lcp_CPS_1.dat", "--solver", "simplex", NULL}, 2, {"simplex", "mncp-plm"}},
    {{"@lcp/lcp_CPS_1.dat", "--tol", "abc", NULL}, 2, {"--tol", "abc"}},
    {{"@lcp/lcp_CPS_1.dat", "--tol", "-1", NULL}, 2, {"--tol", "positive"}},
    {{"@lcp/lcp_CPS_1.dat", "--max-iter", "0", NULL}, 2, {"--max-iter", "0"}},
    {{"@lcp/lcp_CPS_1.dat", "--kind", "qp", NULL}, 2, {"--kind", "qp"}},
    {{"@lcp/lcp_CPS_1.dat", "--frobnicate", NULL}, 2, {"unknown option", "--frobnicate"}},
    {{"@lcp/lcp_CPS_1.dat", "--json", NULL}, 2, {"--json", "needs a value"}},
    {{"@lcp/lcp_CPS_1.dat", "@lcp/lcp_CPS_2.dat", NULL}, 2, {"more than one FILE", ""}},
    {{NULL}, 2, {"no FILE", ""}},
};

static const char *resolve(const char *arg)
{
    static char buf[4][4096];
    static int next;
    char *b = buf[next++ % 4];
    if (arg[0] == '@')
        snprintf(b, 4096, "%s", shared_path(arg + 1));
    else if (arg[0] == '%')
        snprintf(b, 4096, "%s", fixture_path(arg + 1));
    else
        return arg;
    return b;
}

START_TEST(test_bad_run)
{
    const bad_run *c = &bad_runs[_i];
    const char *args[6];
    int n = 0;
    for (; c->args[n]; n++) args[n] = resolve(c->args[n]);
    args[n] = NULL;
    command_result r = solve(args);
    ck_assert_msg(r.exit_code == c->exit_code, "case %d: exit %d, expected %d: %s", _i, r.exit_code,
                  c->exit_code, r.err);
    for (int k = 0; k < 2; k++)
        ck_assert_msg(strstr(r.err, c->words[k]), "case %d: stderr lacks '%s': %s", _i, c->words[k],
                      r.err);
    if (c->exit_code == 2) ck_assert_str_eq(r.out, "");
    command_result_free(&r);
}
END_TEST

START_TEST(test_bench_help)
{
    static const char *const args[] = {"--help", NULL};
    command_result r = bench_solve(args);
    ck_assert_int_eq(r.exit_code, 0);
    ck_assert(strstr(r.out, "--reps") && strstr(r.out, "NSGS") && strstr(r.out, "median"));
    command_result_free(&r);
}
END_TEST

/* Sanitizer builds: Siconos' solver_options_delete does not free all that
 * solver_options_create allocated; that leak is Siconos' own. Writes the
 * suppression to rules (a mkstemp template; the caller removes it). */
static void ignore_siconos_leaks(char *rules)
{
    int fd = mkstemp(rules);
    ck_assert_int_ge(fd, 0);
    static const char text[] = "leak:libsiconos_numerics\n";
    ck_assert_int_eq(write(fd, text, sizeof text - 1), (int)(sizeof text - 1));
    close(fd);
    char options[128];
    snprintf(options, sizeof options, "suppressions=%s:print_suppressions=0", rules);
    setenv("LSAN_OPTIONS", options, 1);
}

/* One cold solve per solver on every LCP file: header, one table per file,
 * a row per solver (Siconos' Lemke too when built in). */
START_TEST(test_bench_lcp_folder)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/data/lcp", getenv("MCDYN_SHARED"));
    const char *args[] = {dir, "--reps", "1", NULL};
    char rules[] = "/tmp/mcdyn-lsan-XXXXXX";
    ignore_siconos_leaks(rules);
    command_result r = bench_solve(args);
    unlink(rules);
    ck_assert_msg(r.exit_code == 0, "exit %d: %s", r.exit_code, r.err);
    static const char *const words[] = {"CPU:",
                                        "date:",
                                        "lcp_CPS_1.dat: lcp, 2 unknowns",
                                        "mlcp-pfb-rlm",
                                        "mlcp-pfb-plm",
                                        "mlcp-lemke",
                                        "median us",
                                        NULL};
    for (const char *const *w = words; *w; w++)
        ck_assert_msg(strstr(r.out, *w), "bench output lacks '%s':\n%s", *w, r.out);
#ifdef MCDYN_HAVE_SICONOS
    ck_assert_ptr_nonnull(strstr(r.out, "siconos-lemke"));
#endif
    problem_list l = problem_list_read("lcp");
    for (int i = 0; i < l.count; i++)
        ck_assert_msg(strstr(r.out, strchr(l.names[i], '/') + 1), "no table for %s", l.names[i]);
    problem_list_free(&l);
    command_result_free(&r);
}
END_TEST

START_TEST(test_bench_bad_arguments)
{
    static const char *const no_dir[] = {NULL}, *const bad_reps[] = {".", "--reps", "0", NULL},
                             *const missing[] = {"/nonexistent/dir", NULL};
    command_result r = bench_solve(no_dir);
    ck_assert_int_eq(r.exit_code, 2);
    command_result_free(&r);
    r = bench_solve(bad_reps);
    ck_assert_int_eq(r.exit_code, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--reps"));
    command_result_free(&r);
    r = bench_solve(missing);
    ck_assert_int_eq(r.exit_code, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "/nonexistent/dir"));
    command_result_free(&r);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cmd-solve-and-bench");
    TCase *t = tcase_create("solve");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_help_names_every_option);
    tcase_add_test(t, test_lcp_default_solver);
    tcase_add_test(t, test_fc3d_default_solver);
    tcase_add_test(t, test_options_and_json_file);
    tcase_add_test(t, test_not_solved_prints_json_and_fails);
    tcase_add_test(t, test_fclib_file);
    tcase_add_loop_test(t, test_bad_run, 0, sizeof bad_runs / sizeof *bad_runs);
    tcase_add_test(t, test_bench_help);
    tcase_add_test(t, test_bench_lcp_folder);
    tcase_add_test(t, test_bench_bad_arguments);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(suite());
}

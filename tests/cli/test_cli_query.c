/* Tests of the `mcdyn` command line: help texts, `mcdyn query` on the
 * bundled arm (valid JSON, expected members, symmetric M, a consistent
 * forward dynamics) and its handling of bad input (non-zero exit code and a
 * message on standard error naming the problem). The executable is
 * $MCDYN_EXE; the bundled models are under $MCDYN_SOURCE/models. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check_main.h"
#include "json_scan.h"
#include "cli_fixture.h"

static const char *arm3_path(void)
{
    return model_path("arm3.urdf");
}

START_TEST(test_main_help)
{
    static const char *const args[] = {"--help", NULL};
    static const char *const commands[] = {"query", "solve", "bench", NULL};
    command_result r = mcdyn(args);
    ck_assert_int_eq(r.exit_code, 0);
    assert_mentions(r.out, commands, "mcdyn --help");
    command_result_free(&r);
}
END_TEST

START_TEST(test_query_help_names_every_option)
{
    static const char *const args[] = {"query", "--help", NULL};
    static const char *const options[] = {
        "--floating-base",   "--q ",    "--qd",   "--tau",  "--node",
        "--balance-inertia", "--quiet", "--help", "lambda", NULL};
    command_result r = mcdyn(args);
    ck_assert_int_eq(r.exit_code, 0);
    assert_mentions(r.out, options, "mcdyn query --help");
    command_result_free(&r);
}
END_TEST

START_TEST(test_bench_dynamics_help)
{
    static const char *const args[] = {"bench", "dynamics", "--help", NULL};
    static const char *const options[] = {"--reps", "--models-dir", "--help", NULL};
    command_result r = mcdyn(args);
    ck_assert_int_eq(r.exit_code, 0);
    assert_mentions(r.out, options, "mcdyn bench dynamics --help");
    command_result_free(&r);
}
END_TEST

static const char *member(const char *json, const char *key)
{
    const char *v = json_member(json, key);
    ck_assert_msg(v != NULL, "no member '%s' in %s", key, json);
    return v;
}

static int integer_member(const char *json, const char *key)
{
    double v;
    ck_assert_int_eq(json_numbers(member(json, key), &v, 1), 1);
    return (int)v;
}

/* Reads exactly n numbers of member key into v. */
static void numbers_member(const char *json, const char *key, double *v, int n)
{
    ck_assert_msg(json_numbers(member(json, key), v, n) == n, "'%s' has not %d numbers", key, n);
}

static void assert_symmetric(const double *M, int n)
{
    for (int i = 0; i < n; i++) {
        ck_assert_double_gt(M[i * n + i], 0.0);
        for (int j = 0; j < i; j++)
            ck_assert_double_eq_tol(M[i * n + j], M[j * n + i], 1e-12 * fabs(M[i * n + i]));
    }
}

/* M qdd + C = tau, up to rounding. */
static void assert_equation_of_motion(const char *json, int nv)
{
    double M[9], C[3], qdd[3], tau[3];
    numbers_member(json, "M", M, nv * nv);
    numbers_member(json, "C", C, nv);
    numbers_member(json, "qdd", qdd, nv);
    numbers_member(json, "tau", tau, nv);
    assert_symmetric(M, nv);
    for (int i = 0; i < nv; i++) {
        double r = C[i] - tau[i];
        for (int j = 0; j < nv; j++) r += M[i * nv + j] * qdd[j];
        ck_assert_double_eq_tol(r, 0.0, 1e-9 * (1 + fabs(tau[i] - C[i])));
    }
}

static void assert_node(const char *json, int nv)
{
    const char *nodes = member(json, "nodes");
    ck_assert_int_eq(json_length(nodes), 1);
    const char *node = json_element(nodes, 0);
    double position[3], rotation[9], J[6 * 3];
    numbers_member(node, "position", position, 3);
    numbers_member(node, "rotation", rotation, 9);
    numbers_member(node, "jacobian", J, 6 * nv);
    ck_assert_int_eq(json_length(member(node, "jacobian")), 6);
}

/* lambda (6x6 for one node) equals J M^{-1} J^T from the printed M and J,
 * to 1e-10 relative: an independent check of the O(N) recursion's output. */
static void assert_lambda(const char *json, int nv)
{
    double M[9], J[18], L[36], X[18];
    numbers_member(json, "M", M, nv * nv);
    numbers_member(json_element(member(json, "nodes"), 0), "jacobian", J, 6 * nv);
    numbers_member(json, "lambda", L, 36);
    for (int r = 0; r < 6; r++) { /* X row r = M^{-1} J row r (3x3 by Cramer's rule) */
        double det = M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) +
                     M[2] * (M[3] * M[7] - M[4] * M[6]);
        for (int c = 0; c < 3; c++) {
            double A[9];
            memcpy(A, M, sizeof A);
            for (int i = 0; i < 3; i++) A[3 * i + c] = J[r * nv + i];
            X[r * 3 + c] =
                (A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
                 A[2] * (A[3] * A[7] - A[4] * A[6])) /
                det;
        }
    }
    double scale = 1.0;
    for (int i = 0; i < 36; i++) scale = fmax(scale, fabs(L[i]));
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double ref = 0.0;
            for (int k = 0; k < 3; k++) ref += J[i * nv + k] * X[j * 3 + k];
            ck_assert_double_eq_tol(L[6 * i + j], ref, 1e-10 * scale);
        }
}

START_TEST(test_query_arm3)
{
    const char *const args[] = {"query",  arm3_path(),        "--q",   "0.1,-0.4,0.7",
                                "--qd",   "0.5,1,-2",         "--tau", "1,-2,0.5",
                                "--node", "tool:0.05,0,0.01", NULL};
    command_result r = mcdyn(args);
    ck_assert_msg(r.exit_code == 0, "exit code %d, stderr: %s", r.exit_code, r.err);
    ck_assert_msg(json_valid(r.out), "not valid JSON: %s", r.out);
    ck_assert_int_eq(integer_member(r.out, "nq"), 3);
    ck_assert_int_eq(integer_member(r.out, "nv"), 3);
    ck_assert_int_eq(json_length(member(r.out, "joint_names")), 3);
    ck_assert_int_eq(json_length(member(r.out, "body_names")), 3);
    assert_equation_of_motion(r.out, 3);
    assert_node(r.out, 3);
    assert_lambda(r.out, 3);
    command_result_free(&r);
}
END_TEST

START_TEST(test_query_defaults_to_neutral_state)
{
    const char *const args[] = {"query", arm3_path(), NULL};
    command_result r = mcdyn(args);
    ck_assert_int_eq(r.exit_code, 0);
    ck_assert(json_valid(r.out));
    double q[3], qd[3];
    numbers_member(r.out, "q", q, 3);
    numbers_member(r.out, "qd", qd, 3);
    for (int i = 0; i < 3; i++) ck_assert(q[i] == 0.0 && qd[i] == 0.0);
    ck_assert_int_eq(json_length(member(r.out, "nodes")), 0);
    command_result_free(&r);
}
END_TEST

/* `mcdyn query` with bad input: exit code and the words stderr must hold. */
typedef struct bad_input {
    const char *args[6]; /* after "query MODEL" */
    int exit_code;
    const char *words[3];
} bad_input;

static const bad_input bad_inputs[] = {
    {{"--q", "nan,0,0"}, 1, {"--q", "nan", "not a finite number"}},
    {{"--qd", "0,inf,0"}, 1, {"--qd", "inf"}},
    {{"--q", "0.1,0.2"}, 1, {"--q", "expected 3", "got 2"}},
    {{"--tau", "1,2,3,4"}, 1, {"--tau", "expected 3", "got 4"}},
    {{"--node", "no_such_link"}, 1, {"no_such_link"}},
    {{"--node", "tool:1,2"}, 1, {"tool:1,2", "offset"}},
    {{"--bogus-option"}, 2, {"unknown option", "--bogus-option"}},
    {{"--q"}, 2, {"--q", "needs a value"}},
    {{"--floating-base", "--q", "0,0,0,1,1,0,0,0,0,0"}, 1, {"--q", "quaternion"}},
};

START_TEST(test_query_rejects_bad_input)
{
    const bad_input *b = &bad_inputs[_i];
    const char *args[16] = {"query", arm3_path()};
    for (int i = 0; i < 6 && b->args[i]; i++) args[2 + i] = b->args[i];
    command_result r = mcdyn(args);
    ck_assert_int_eq(r.exit_code, b->exit_code);
    for (int i = 0; i < 3 && b->words[i]; i++)
        ck_assert_msg(strstr(r.err, b->words[i]), "case %d: stderr does not name '%s': %s", _i,
                      b->words[i], r.err);
    command_result_free(&r);
}
END_TEST

START_TEST(test_query_missing_file)
{
    const char *const args[] = {"query", "/nonexistent/robot.urdf", NULL};
    command_result r = mcdyn(args);
    ck_assert_int_eq(r.exit_code, 1);
    ck_assert_msg(strstr(r.err, "/nonexistent/robot.urdf"), "stderr: %s", r.err);
    command_result_free(&r);
}
END_TEST

START_TEST(test_query_missing_model_argument)
{
    const char *const args[] = {"query", NULL};
    command_result r = mcdyn(args);
    ck_assert_int_eq(r.exit_code, 2);
    ck_assert_msg(strstr(r.err, "model"), "stderr: %s", r.err);
    command_result_free(&r);
}
END_TEST

/* The first half of arm3.urdf, in a temporary file (path receives its name). */
static void write_truncated_urdf(char *path, size_t len)
{
    FILE *in = fopen(arm3_path(), "rb");
    ck_assert_ptr_nonnull(in);
    char text[65536];
    size_t n = fread(text, 1, sizeof text, in);
    fclose(in);
    const char *dir = getenv("TMPDIR");
    snprintf(path, len, "%s/mcdyn_truncated_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert(write(fd, text, n / 2) == (ssize_t)(n / 2));
    close(fd);
}

START_TEST(test_query_truncated_urdf)
{
    char path[4096];
    write_truncated_urdf(path, sizeof path);
    const char *const args[] = {"query", path, NULL};
    command_result r = mcdyn(args);
    unlink(path);
    ck_assert_int_eq(r.exit_code, 1);
    ck_assert_msg(strstr(r.err, path), "stderr does not name the file: %s", r.err);
    ck_assert_str_eq(r.out, "");
    command_result_free(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli-query");
    TCase *help = tcase_create("help");
    tcase_add_test(help, test_main_help);
    tcase_add_test(help, test_query_help_names_every_option);
    tcase_add_test(help, test_bench_dynamics_help);
    suite_add_tcase(s, help);
    TCase *query = tcase_create("query");
    tcase_add_test(query, test_query_arm3);
    tcase_add_test(query, test_query_defaults_to_neutral_state);
    suite_add_tcase(s, query);
    TCase *bad = tcase_create("bad-input");
    tcase_add_loop_test(bad, test_query_rejects_bad_input, 0,
                        (int)(sizeof bad_inputs / sizeof *bad_inputs));
    tcase_add_test(bad, test_query_missing_file);
    tcase_add_test(bad, test_query_missing_model_argument);
    tcase_add_test(bad, test_query_truncated_urdf);
    suite_add_tcase(s, bad);
    return run_suite(s);
}

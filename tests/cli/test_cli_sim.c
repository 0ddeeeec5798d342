/* `mcdyn sim` from the command line: help, a short run writing the CSV and
 * the PNG with its summary, overrides, and bad input reported with a message
 * and a non-zero exit code. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_fixture.h"

static char tmpdir[256];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mcdyn_cli_sim_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static const char *tmp_file(const char *name)
{
    static char path[2][512];
    static int next;
    char *p = path[next++ % 2];
    snprintf(p, sizeof path[0], "%s/%s", tmpdir, name);
    return p;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

START_TEST(help_names_every_option)
{
    static const char *const args[] = {"sim", "--help", NULL};
    static const char *const words[] = {
        "--solver",        "--dt",    "--duration", "--out",      "--plot", "--plot-columns",
        "--contact-slots", "--quiet", "mncp-plm",   "mlcp-lemke", NULL};
    command_result r = mcdyn(args);
    ck_assert_int_eq(r.exit_code, 0);
    assert_mentions(r.out, words, "mcdyn sim --help");
    command_result_free(&r);
    static const char *const top[] = {"--help", NULL};
    static const char *const cmds[] = {"sim", "draw", NULL};
    r = mcdyn(top);
    assert_mentions(r.out, cmds, "mcdyn --help");
    command_result_free(&r);
}
END_TEST

/* 0.3 s of the sphere with an overridden solver and step: the summary, a
 * CSV with the contract's header and 1 + 150 rows, and a PNG. */
START_TEST(short_run_writes_csv_and_plot)
{
    make_tmpdir();
    const char *csv = tmp_file("sphere.csv"), *png = tmp_file("sphere.png");
    const char *args[] = {"sim",
                          model_path("sphere_plane.yaml"),
                          "--solver",
                          "mlcp-lemke",
                          "--dt",
                          "0.002",
                          "--duration",
                          "0.3",
                          "--out",
                          csv,
                          "--plot",
                          png,
                          "--plot-columns",
                          "ball.vx,ball.wy",
                          NULL};
    command_result r = mcdyn(args);
    ck_assert_msg(r.exit_code == 0, "exit %d: %s", r.exit_code, r.err);
    static const char *const words[] = {"mlcp-lemke", "steps             150", "real-time factor",
                                        "time split", NULL};
    assert_mentions(r.out, words, "summary");
    command_result_free(&r);
    FILE *f = fopen(csv, "r");
    ck_assert_ptr_nonnull(f);
    char line[8192];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_int_eq(strncmp(line, "t,ball.x,ball.y,ball.z,ball.qw", 30), 0);
    ck_assert_ptr_nonnull(strstr(line, ",ncontacts,iters,residual,c0.Fn,c0.Ff,c0.Fo"));
    int rows = 0;
    while (fgets(line, sizeof line, f)) rows++;
    fclose(f);
    ck_assert_int_eq(rows, 151);
    ck_assert_int_gt(file_size(png), 1000);
    remove(csv), remove(png), rmdir(tmpdir);
}
END_TEST

static void expect_failure(const char *const *args, int code, const char *fragment)
{
    command_result r = mcdyn(args);
    ck_assert_msg(r.exit_code == code, "exit %d (expected %d): %s", r.exit_code, code, r.err);
    ck_assert_msg(strstr(r.err, fragment) != NULL, "stderr lacks '%s': %s", fragment, r.err);
    command_result_free(&r);
}

START_TEST(bad_input_is_reported)
{
    make_tmpdir();
    const char *bad = tmp_file("bad.yaml");
    FILE *f = fopen(bad, "w");
    ck_assert_ptr_nonnull(f);
    fputs("robots:\n  - {urdf: nowhere.urdf, base: sideways}\ndt: [\n", f);
    fclose(f);
    const char *missing[] = {"sim", "/nonexistent/scene.yaml", NULL};
    expect_failure(missing, 1, "/nonexistent/scene.yaml");
    const char *malformed[] = {"sim", bad, NULL};
    expect_failure(malformed, 1, "bad.yaml:");
    const char *solver[] = {
        "sim", model_path("sphere_plane.yaml"), "--solver", "mncp-typo", "--duration", "0.01",
        NULL};
    expect_failure(solver, 1, "mncp-typo");
    const char *dt[] = {"sim", model_path("sphere_plane.yaml"), "--dt", "nan", NULL};
    expect_failure(dt, 2, "--dt");
    const char *option[] = {"sim", model_path("sphere_plane.yaml"), "--frobnicate", NULL};
    expect_failure(option, 2, "--frobnicate");
    const char *none[] = {"sim", NULL};
    expect_failure(none, 2, "no scenario");
    const char *column[] = {"sim",
                            model_path("sphere_plane.yaml"),
                            "--duration",
                            "0.01",
                            "--plot",
                            tmp_file("x.png"),
                            "--plot-columns",
                            "ball.nope",
                            NULL};
    expect_failure(column, 1, "ball.nope");
    remove(bad), rmdir(tmpdir);
}
END_TEST

Suite *cli_sim_suite(void)
{
    Suite *s = suite_create("cli-sim");
    TCase *tc = tcase_create("sim");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, help_names_every_option);
    tcase_add_test(tc, short_run_writes_csv_and_plot);
    tcase_add_test(tc, bad_input_is_reported);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cli_sim_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* `mcdyn sim` from the command line: help, a short run writing the CSV and
 * the PNG with its summary, overrides, and bad input reported with a message
 * and a non-zero exit code. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/check_main.h"
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

/* Index of a column in a CSV header line, -1 if absent. */
static int column(const char *header, const char *name)
{
    size_t len = strlen(name);
    int k = 0;
    for (const char *p = header; *p; k++) {
        if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\n')) return k;
        p = strchr(p, ',');
        if (!p) break;
        p++;
    }
    return -1;
}

/* Splits a CSV row into at most max numbers (an empty field: NaN);
 * returns how many. */
static int parse_row(const char *line, double *v, int max)
{
    int n = 0;
    for (const char *p = line; n < max; p++) {
        char *end;
        double x = strtod(p, &end);
        v[n++] = end == p ? NAN : x;
        p = strchr(end, ',');
        if (!p) break;
    }
    return n;
}

/* 0.3 s of the sphere with an overridden solver and step: the summary, a
 * CSV with the contract's header and 1 + 150 rows, and a PNG. The values
 * are the sliding sphere's closed form (models/sphere_plane.yaml): t = k h;
 * the centre stays at z = 1 (contact with zero gap, no penetration
 * correction: rounding only, 1e-9); the normal force carries the weight,
 * F_n = m g = 9.81 N, to the solver tolerance (1e-10 on impulses of ~2e-2
 * N s, so 1e-6 N); after t_sr = 2 v0 / (7 mu g) = 0.291 s it rolls at v_x =
 * 5 v0 / 7 (the discrete stick-slip transition makes the last sliding step
 * end exactly on the rolling condition, so 1e-6 m/s). */
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
    const int ct = column(line, "t"), cz = column(line, "ball.z"), cvx = column(line, "ball.vx");
    const int cn = column(line, "ncontacts"), cf = column(line, "c0.Fn");
    ck_assert(ct == 0 && cz > 0 && cvx > 0 && cn > 0 && cf > 0);
    int rows = 0;
    double v[512], vx_end = 0;
    while (fgets(line, sizeof line, f)) {
        int n = parse_row(line, v, 512);
        ck_assert_int_gt(n, cf);
        ck_assert_msg(fabs(v[ct] - 0.002 * rows) < 1e-12, "row %d: t = %.17g", rows, v[ct]);
        ck_assert_msg(fabs(v[cz] - 1.0) < 1e-9, "row %d: z = %.17g", rows, v[cz]);
        if (rows > 0) {
            ck_assert_msg(v[cn] == 1, "row %d: %g contacts", rows, v[cn]);
            ck_assert_msg(fabs(v[cf] - 9.81) < 1e-6, "row %d: F_n = %.12g", rows, v[cf]);
        }
        vx_end = v[cvx];
        rows++;
    }
    fclose(f);
    ck_assert_int_eq(rows, 151);
    ck_assert_msg(fabs(vx_end - 5.0 * 2.0 / 7.0) < 1e-6, "rolling v_x %.12g", vx_end);
    unsigned char magic[8] = {0};
    f = fopen(png, "rb");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fread(magic, 1, 8, f), 8);
    fclose(f);
    ck_assert_msg(memcmp(magic, "\x89PNG\r\n\x1a\n", 8) == 0, "%s is not a PNG", png);
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
    return run_suite(cli_sim_suite());
}

/* Tests of `mcdyn draw` ($MCDYN_EXE) on the models of models/: it writes a
 * non-empty PNG for each scenario (and for a URDF, a view, a simulated
 * time), and refuses bad input with a message and a non-zero exit code,
 * writing no picture. gnuplot is a test dependency (tools/install-deps.sh). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/check_main.h"
#include "run_command.h"

#define MAX_ARGS 16

static char tmpdir[4096];

static void make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/mcdyn_draw_XXXXXX", base && *base ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

/* Removes the files the tests wrote, then the directory. */
static void remove_tmpdir(void)
{
    static const char *const names[] = {"four_bar.png",   "slider_crank.png", "delta.png",
                                        "closed_leg.png", "leg_urdf.png",     "delta_iso.png",
                                        "missing.png",    "view.png",         "q.png"};
    char path[4200];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        unlink(path);
    }
    rmdir(tmpdir);
}

static const char *model_path(const char *file)
{
    static char path[4][4096];
    static int next;
    const char *root = getenv("MCDYN_SOURCE");
    ck_assert_msg(root && *root, "MCDYN_SOURCE is not set");
    char *p = path[next++ % 4];
    snprintf(p, 4096, "%s/models/%s", root, file);
    return p;
}

static const char *out_path(const char *file)
{
    static char path[4][4200];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 4200, "%s/%s", tmpdir, file);
    return p;
}

/* Runs `mcdyn draw args...` (NULL-terminated). */
static command_result draw(const char *const *args)
{
    char *argv[MAX_ARGS + 3];
    int n = 0;
    argv[n++] = getenv("MCDYN_EXE");
    ck_assert_msg(argv[0] && *argv[0], "MCDYN_EXE is not set");
    argv[n++] = "draw";
    for (; *args; args++) {
        ck_assert_int_lt(n, MAX_ARGS + 2);
        argv[n++] = (char *)*args;
    }
    argv[n] = NULL;
    command_result r;
    ck_assert_msg(run_command(argv, &r) == 0, "cannot run %s", argv[0]);
    return r;
}

/* path is a PNG file of more than 1 kB. */
static void assert_png(const char *path)
{
    unsigned char magic[8] = {0};
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s was not written", path);
    size_t n = fread(magic, 1, sizeof magic, f);
    fclose(f);
    ck_assert_int_eq(n, 8);
    ck_assert_msg(!memcmp(magic, "\x89PNG\r\n\x1a\n", 8), "%s is not a PNG file", path);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_msg(st.st_size > 1000, "%s has only %ld bytes", path, (long)st.st_size);
}

static void assert_absent(const char *path)
{
    struct stat st;
    ck_assert_msg(stat(path, &st) != 0, "%s was written", path);
}

static const char *const model_names[] = {"four_bar", "slider_crank", "delta", "closed_leg"};

START_TEST(draws_each_model)
{
    char yaml[64], png[64];
    snprintf(yaml, sizeof yaml, "%s.yaml", model_names[_i]);
    snprintf(png, sizeof png, "%s.png", model_names[_i]);
    const char *out = out_path(png);
    const char *args[] = {model_path(yaml), "--out", out, NULL};
    command_result r = draw(args);
    ck_assert_msg(r.exit_code == 0, "exit %d: %s", r.exit_code, r.err);
    assert_png(out);
    /* the planar loops closed by a ball report their redundant row */
    int planar = strcmp(model_names[_i], "delta") != 0;
    ck_assert_int_eq(strstr(r.err, "redundant") != NULL, planar);
    command_result_free(&r);
}
END_TEST

START_TEST(draws_urdf_view_and_time)
{
    const char *leg = out_path("leg_urdf.png");
    const char *a1[] = {model_path("closed_leg.urdf"), "--out", leg, "--view", "yz", NULL};
    command_result r = draw(a1);
    ck_assert_msg(r.exit_code == 0, "exit %d: %s", r.exit_code, r.err);
    assert_png(leg);
    command_result_free(&r);
    const char *iso = out_path("delta_iso.png");
    const char *a2[] = {model_path("delta.yaml"),
                        "--out",
                        iso,
                        "--view",
                        "iso",
                        "--time",
                        "0.2",
                        "--size",
                        "640x640",
                        NULL};
    r = draw(a2);
    ck_assert_msg(r.exit_code == 0, "exit %d: %s", r.exit_code, r.err);
    assert_png(iso);
    command_result_free(&r);
    const char *q = out_path("q.png");
    const char *a3[] = {
        model_path("four_bar.yaml"), "--out", q, "--q", "0.5,-0.4,-1.5", "--view", "xy", NULL};
    r = draw(a3);
    ck_assert_msg(r.exit_code == 0, "exit %d: %s", r.exit_code, r.err);
    assert_png(q);
    command_result_free(&r);
}
END_TEST

START_TEST(refuses_bad_input)
{
    const char *out = out_path("missing.png");
    const char *missing[] = {model_path("no_such_model.yaml"), "--out", out, NULL};
    command_result r = draw(missing);
    ck_assert_int_eq(r.exit_code, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "no_such_model.yaml"));
    assert_absent(out);
    command_result_free(&r);

    const char *view_out = out_path("view.png");
    const char *view[] = {model_path("four_bar.yaml"), "--out", view_out, "--view", "front", NULL};
    r = draw(view);
    ck_assert_int_eq(r.exit_code, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "unknown view 'front'"));
    assert_absent(view_out);
    command_result_free(&r);

    const char *no_out[] = {model_path("four_bar.yaml"), NULL};
    r = draw(no_out);
    ck_assert_int_eq(r.exit_code, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--out"));
    command_result_free(&r);

    const char *time[] = {model_path("four_bar.yaml"), "--out", view_out, "--time", "-1", NULL};
    r = draw(time);
    ck_assert_int_eq(r.exit_code, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--time"));
    command_result_free(&r);

    const char *q[] = {model_path("four_bar.yaml"), "--out", view_out, "--q", "0.1,0.2", NULL};
    r = draw(q);
    ck_assert_int_eq(r.exit_code, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "expected 3 numbers"));
    assert_absent(view_out);
    command_result_free(&r);

    const char *dir[] = {model_path("four_bar.yaml"), "--out", "/nonexistent-mcdyn-dir/x.png",
                         NULL};
    r = draw(dir);
    ck_assert_int_eq(r.exit_code, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "cannot write /nonexistent-mcdyn-dir/x.png"));
    ck_assert_str_eq(r.out, "");
    command_result_free(&r);

    const char *help[] = {"--help", NULL};
    r = draw(help);
    ck_assert_int_eq(r.exit_code, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "usage: mcdyn draw"));
    command_result_free(&r);
}
END_TEST

static Suite *draw_suite(void)
{
    Suite *s = suite_create("draw");
    TCase *tc = tcase_create("draw");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, make_tmpdir, remove_tmpdir);
    tcase_add_loop_test(tc, draws_each_model, 0, (int)(sizeof model_names / sizeof *model_names));
    tcase_add_test(tc, draws_urdf_view_and_time);
    tcase_add_test(tc, refuses_bad_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(draw_suite());
}

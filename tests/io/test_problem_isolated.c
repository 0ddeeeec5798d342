/* Tests of the isolated FCLIB reader (src/io/problem_isolated.c): on every
 * shared FCLIB file and every file of the fclib fuzz seeds it gives the
 * in-process reader's problem bit for bit; the reader's errors come back
 * with the same status and message; the inputs that crash libhdf5 itself
 * (tests/fuzz/thirdparty/fclib, listed at run time) give an error naming
 * the crash instead of taking this process down; problem kinds are checked
 * as mcd_problem_read_file does, and Siconos files are read in-process. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check_main.h"
#include "mcdyn/problem_isolated.h"

#define MAX_FILES 64

/* The regular files of a folder, in name order; at least one. */
typedef struct file_list {
    int count;
    char path[MAX_FILES][4096];
} file_list;

static int by_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

static void list_files(const char *root_var, const char *folder, const char *suffix, file_list *l)
{
    const char *root = getenv(root_var);
    ck_assert_msg(root && *root, "%s is not set", root_var);
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/%s", root, folder);
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot list %s", dir);
    l->count = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name), k = strlen(suffix);
        if (e->d_name[0] == '.' || n < k || strcmp(e->d_name + n - k, suffix) != 0) continue;
        ck_assert_int_lt(l->count, MAX_FILES);
        snprintf(l->path[l->count++], sizeof l->path[0], "%s/%s", dir, e->d_name);
    }
    closedir(d);
    ck_assert_msg(l->count > 0, "no %s file in %s", suffix, dir);
    qsort(l->path, (size_t)l->count, sizeof l->path[0], by_name);
}

static void assert_same_problem(const mcd_problem_file *a, const mcd_problem_file *b,
                                const char *path)
{
    ck_assert_msg(a->kind == b->kind && a->dimension == b->dimension && a->fc3d.nc == b->fc3d.nc &&
                      a->fc3d.nb == b->fc3d.nb,
                  "%s: kind or sizes differ", path);
    size_t n = (size_t)mcd_fc3d_size(&a->fc3d);
    ck_assert_msg(memcmp(a->fc3d.W, b->fc3d.W, sizeof(double) * n * n) == 0, "%s: W differs", path);
    ck_assert_msg(memcmp(a->fc3d.q, b->fc3d.q, sizeof(double) * n) == 0, "%s: q differs", path);
    ck_assert_msg(memcmp(a->fc3d.mu, b->fc3d.mu, sizeof(double) * (size_t)a->fc3d.nc) == 0,
                  "%s: mu differs", path);
}

static void assert_isolated_equals_in_process(const file_list *l)
{
    for (int i = 0; i < l->count; i++) {
        mcd_problem_file in, iso;
        mcd_error err = {0};
        ck_assert_msg(mcd_problem_read_fclib(l->path[i], &in, &err) == MCD_OK, "%s", err.msg);
        ck_assert_msg(mcd_problem_read_fclib_isolated(l->path[i], &iso, &err) == MCD_OK, "%s",
                      err.msg);
        assert_same_problem(&in, &iso, l->path[i]);
        mcd_problem_file_free(&in);
        mcd_problem_file_free(&iso);
    }
}

START_TEST(shared_files_read_bit_for_bit)
{
    file_list l;
    list_files("MCDYN_SHARED", "data/fc3d", ".hdf5", &l);
    assert_isolated_equals_in_process(&l);
}
END_TEST

START_TEST(fuzz_seeds_read_bit_for_bit)
{
    /* Compressed column, compressed row, triplet, the mixed part and a 2D
     * problem, all written by libfclib. */
    file_list l;
    list_files("MCDYN_SOURCE", "tests/fuzz/corpus/fclib", ".hdf5", &l);
    ck_assert_int_ge(l.count, 5);
    assert_isolated_equals_in_process(&l);
}
END_TEST

/* Both readers on path must fail alike. */
static void assert_same_error(const char *path)
{
    mcd_problem_file in, iso;
    mcd_error e_in = {0}, e_iso = {0};
    mcd_status s_in = mcd_problem_read_fclib(path, &in, &e_in);
    mcd_status s_iso = mcd_problem_read_fclib_isolated(path, &iso, &e_iso);
    ck_assert_int_ne(s_in, MCD_OK);
    ck_assert_int_eq(s_iso, s_in);
    ck_assert_str_eq(e_iso.msg, e_in.msg);
    ck_assert_ptr_null(iso.fc3d.W);
}

START_TEST(reader_errors_pass_through)
{
    char dir[] = "/tmp/mcdyn-isolated-XXXXXX", path[600];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/missing.hdf5", dir);
    assert_same_error(path);
    snprintf(path, sizeof path, "%s/text.hdf5", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("not an HDF5 file\n", f);
    fclose(f);
    assert_same_error(path);
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(libhdf5_crashes_become_errors)
{
    file_list l;
    list_files("MCDYN_SOURCE", "tests/fuzz/thirdparty/fclib", ".hdf5", &l);
    for (int i = 0; i < l.count; i++) {
        mcd_problem_file f;
        mcd_error err = {0};
        mcd_status s = mcd_problem_read_fclib_isolated(l.path[i], &f, &err);
        ck_assert_msg(s == MCD_ERR_PARSE, "%s: status %d (%s)", l.path[i], s, err.msg);
        /* Release: SIGSEGV (signal 11). Under AddressSanitizer, which
         * reports the bad memcpy of one of them: exit status 1 (seen with
         * and without abort_on_error=1). Any signal or status is the
         * child's crash: a child that returns writes its result first. */
        ck_assert_msg(strstr(err.msg, l.path[i]) == err.msg &&
                          strstr(err.msg, ": the FCLIB reader (libhdf5) crashed on this file (") &&
                          (strstr(err.msg, "(signal ") || strstr(err.msg, "(exit status ")) &&
                          strstr(err.msg, "FCLIB files must come from a trusted source"),
                      "message: %s", err.msg);
        ck_assert_ptr_null(f.fc3d.W);
    }
}
END_TEST

START_TEST(kinds_and_siconos_files)
{
    const char *source = getenv("MCDYN_SOURCE");
    ck_assert_ptr_nonnull(source);
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fuzz/corpus/fclib/csc.hdf5", source);
    mcd_problem_file f;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_problem_read_file_isolated(path, MCD_PROBLEM_LCP, &f, &err), MCD_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(err.msg, "frictional-contact problem, not lcp"));
    ck_assert_int_eq(mcd_problem_read_file_isolated(path, MCD_PROBLEM_FC3D, &f, &err), MCD_OK);
    mcd_problem_file_free(&f);
    ck_assert_int_eq(mcd_problem_read_file_isolated(NULL, MCD_PROBLEM_AUTO, &f, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_problem_read_fclib_isolated(path, NULL, &err), MCD_ERR_ARG);
    /* A Siconos file: the same problem as mcd_problem_read_file's. */
    file_list l;
    list_files("MCDYN_SHARED", "data/fc3d", ".dat", &l);
    mcd_problem_file in;
    ck_assert_int_eq(mcd_problem_read_file(l.path[0], MCD_PROBLEM_AUTO, &in, &err), MCD_OK);
    ck_assert_int_eq(mcd_problem_read_file_isolated(l.path[0], MCD_PROBLEM_AUTO, &f, &err), MCD_OK);
    assert_same_problem(&in, &f, l.path[0]);
    mcd_problem_file_free(&in);
    mcd_problem_file_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("problem-isolated");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, shared_files_read_bit_for_bit);
    tcase_add_test(tc, fuzz_seeds_read_bit_for_bit);
    tcase_add_test(tc, reader_errors_pass_through);
    tcase_add_test(tc, libhdf5_crashes_become_errors);
    tcase_add_test(tc, kinds_and_siconos_files);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

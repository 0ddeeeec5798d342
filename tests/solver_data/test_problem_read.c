/* Tests of the Siconos problem-file reader and writer (include/mcdyn/problem_io.h):
 * the storage types and layouts on our fixtures (tests/solver_data/data)
 * and on the shared Siconos files, and its handling of bad input: every
 * malformed fixture, and every truncation of every shared file, fails with
 * a status and a message naming the file and the position. */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check_main.h"
#include "mcdyn/problem_io.h"
#include "problem_list.h"

static const char *shared_path(const char *name)
{
    static char path[4096];
    const char *root = getenv("MCDYN_SHARED");
    ck_assert_msg(root && *root, "MCDYN_SHARED is not set");
    snprintf(path, sizeof path, "%s/data/%s", root, name);
    return path;
}

static mcd_problem_file read_ok(const char *path, mcd_problem_kind kind)
{
    mcd_problem_file f;
    mcd_error err = {0};
    mcd_status s = mcd_problem_read_siconos(path, kind, &f, &err);
    ck_assert_msg(s == MCD_OK, "%s: %s", path, err.msg);
    return f;
}

static void assert_array_eq(const double *got, const double *want, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        ck_assert_msg(got[i] == want[i], "%s[%d] = %.17g, expected %.17g", what, i, got[i],
                      want[i]);
}

static void assert_lcp_bounds(const mcd_mlcp *p)
{
    for (int i = 0; i < p->n; i++) {
        ck_assert(p->lo[i] == 0.0);
        ck_assert(isinf(p->hi[i]) && p->hi[i] > 0);
    }
}

/* The 3 x 3 sparse fixture, in triplet and compressed-column form. */
static void check_sparse_fixture(const char *name)
{
    static const double M[9] = {4, -1, 0.5, -1, 4, -1, 0, -1, 4}, q[3] = {-1, 2, -3};
    mcd_problem_file f = read_ok(fixture_path(name), MCD_PROBLEM_AUTO);
    ck_assert_int_eq(f.kind, MCD_PROBLEM_LCP);
    ck_assert_int_eq(f.mlcp.n, 3);
    assert_array_eq(f.mlcp.M, M, 9, "M");
    assert_array_eq(f.mlcp.q, q, 3, "q");
    assert_lcp_bounds(&f.mlcp);
    mcd_problem_file_free(&f);
}

START_TEST(test_sparse_triplet)
{
    check_sparse_fixture("lcp_sparse_triplet.dat");
}
END_TEST

START_TEST(test_sparse_compressed_column)
{
    check_sparse_fixture("lcp_sparse_csc.dat");
}
END_TEST

/* Dense matrices are stored column by column. */
START_TEST(test_dense_is_column_major)
{
    static const double M[9] = {0, -1, 2, 2, 0, -2, -1, 1, 0}, q[3] = {-3, 6, -1};
    mcd_problem_file f = read_ok(shared_path("lcp/lcp_CPS_2.dat"), MCD_PROBLEM_AUTO);
    ck_assert_int_eq(f.kind, MCD_PROBLEM_LCP);
    assert_array_eq(f.mlcp.M, M, 9, "M");
    assert_array_eq(f.mlcp.q, q, 3, "q");
    mcd_problem_file_free(&f);
}
END_TEST

/* The shared files hold some problems twice, dense and sparse-block. */
static void check_same_problem(const char *dense, const char *blocks)
{
    mcd_problem_file a = read_ok(shared_path(dense), MCD_PROBLEM_AUTO);
    mcd_problem_file b = read_ok(shared_path(blocks), MCD_PROBLEM_AUTO);
    int n = mcd_problem_file_size(&a);
    ck_assert_int_eq(a.kind, b.kind);
    ck_assert_int_eq(n, mcd_problem_file_size(&b));
    if (a.kind == MCD_PROBLEM_FC3D) {
        assert_array_eq(b.fc3d.W, a.fc3d.W, n * n, "W");
        assert_array_eq(b.fc3d.q, a.fc3d.q, n, "q");
        assert_array_eq(b.fc3d.mu, a.fc3d.mu, a.fc3d.nc, "mu");
    } else {
        assert_array_eq(b.mlcp.M, a.mlcp.M, n * n, "M");
        assert_array_eq(b.mlcp.q, a.mlcp.q, n, "q");
    }
    mcd_problem_file_free(&a);
    mcd_problem_file_free(&b);
}

START_TEST(test_sparse_block_matches_dense)
{
    check_same_problem("lcp/lcp_ortiz.dat", "lcp/lcp_ortiz_block.dat");
    check_same_problem("lcp/lcp_trivial.dat", "lcp/lcp_trivial_block.dat");
    check_same_problem("fc3d/FC3D_Example1.dat", "fc3d/FC3D_Example1_SBM.dat");
}
END_TEST

/* An MLCP given by A, B, C, D, a, b only: M = [A C; D B]. */
START_TEST(test_mlcp_abcd_only)
{
    static const double M[9] = {2, 1, 0, 1, 3, 1, 0, 1, 4}, q[3] = {-2, -1, 1};
    mcd_problem_file f = read_ok(fixture_path("mlcp_abcd_only.dat"), MCD_PROBLEM_AUTO);
    ck_assert_int_eq(f.kind, MCD_PROBLEM_MLCP);
    assert_array_eq(f.mlcp.M, M, 9, "M");
    assert_array_eq(f.mlcp.q, q, 3, "q");
    ck_assert(isinf(f.mlcp.lo[0]) && f.mlcp.lo[0] < 0);
    ck_assert(f.mlcp.lo[1] == 0.0 && f.mlcp.lo[2] == 0.0);
    for (int i = 0; i < 3; i++) ck_assert(isinf(f.mlcp.hi[i]) && f.mlcp.hi[i] > 0);
    mcd_problem_file_free(&f);
}
END_TEST

/* Blocks with equality rows first: the MLCP files of the shared folder. */
START_TEST(test_mlcp_blocks)
{
    mcd_problem_file f = read_ok(shared_path("mlcp/m2n1_mlcp.dat"), MCD_PROBLEM_AUTO);
    static const double M[9] = {1, 2, 0, 0, 1, 1.3333, 0, 0, 1};
    ck_assert_int_eq(f.kind, MCD_PROBLEM_MLCP);
    ck_assert_int_eq(f.mlcp.n, 3);
    assert_array_eq(f.mlcp.M, M, 9, "M");
    ck_assert(isinf(f.mlcp.lo[0]) && f.mlcp.lo[1] == 0.0 && f.mlcp.lo[2] == 0.0);
    mcd_problem_file_free(&f);
}
END_TEST

/* A 2D contact is embedded with a decoupled second tangent. */
START_TEST(test_fc2d_embedding)
{
    static const double W[9] = {2, 0.5, 0, 0.5, 1, 0, 0, 0, 1}, q[3] = {-1, 0.3, 0};
    mcd_problem_file f = read_ok(fixture_path("fc2d_one_contact.dat"), MCD_PROBLEM_AUTO);
    ck_assert_int_eq(f.kind, MCD_PROBLEM_FC3D);
    ck_assert_int_eq(f.dimension, 2);
    ck_assert_int_eq(f.fc3d.nc, 1);
    ck_assert_int_eq(f.fc3d.nb, 0);
    assert_array_eq(f.fc3d.W, W, 9, "W");
    assert_array_eq(f.fc3d.q, q, 3, "q");
    ck_assert(f.fc3d.mu[0] == 0.4);
    mcd_problem_file_free(&f);
}
END_TEST

START_TEST(test_explicit_kind)
{
    mcd_problem_file f = read_ok(shared_path("lcp/lcp_CPS_1.dat"), MCD_PROBLEM_LCP);
    ck_assert_int_eq(f.kind, MCD_PROBLEM_LCP);
    mcd_problem_file_free(&f);
    mcd_error err = {0};
    mcd_status s =
        mcd_problem_read_siconos(shared_path("lcp/lcp_CPS_1.dat"), MCD_PROBLEM_FC3D, &f, &err);
    ck_assert_int_eq(s, MCD_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.msg, "lcp_CPS_1.dat:2: number of contacts"));
}
END_TEST

/* A file crafted to be a valid LCP (sparse-block M) and a valid 2D
 * frictional-contact problem (sparse W): auto refuses to guess. */
START_TEST(test_ambiguous_file_needs_a_kind)
{
    const char *path = fixture_path("ambiguous_lcp_or_fc.dat");
    mcd_problem_file f;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_problem_read_siconos(path, MCD_PROBLEM_AUTO, &f, &err), MCD_ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(err.msg, "more than one problem kind"));
    f = read_ok(path, MCD_PROBLEM_LCP);
    static const double M[4] = {4, 1, 1, 4};
    assert_array_eq(f.mlcp.M, M, 4, "M");
    mcd_problem_file_free(&f);
    f = read_ok(path, MCD_PROBLEM_FC3D);
    ck_assert_int_eq(f.dimension, 2);
    ck_assert(f.fc3d.W[0] == 1 && f.fc3d.W[4] == 1 && f.fc3d.mu[0] == 0.3);
    mcd_problem_file_free(&f);
}
END_TEST

START_TEST(test_kind_names)
{
    for (int k = 0; k < MCD_PROBLEM_KIND_COUNT; k++) {
        mcd_problem_kind back;
        ck_assert_int_eq(mcd_problem_kind_from_name(mcd_problem_kind_name(k), &back, NULL), MCD_OK);
        ck_assert_int_eq(back, k);
    }
    mcd_error err = {0};
    mcd_problem_kind k;
    ck_assert_int_eq(mcd_problem_kind_from_name("qp", &k, &err), MCD_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(err.msg, "fc3d"));
}
END_TEST

/* A malformed fixture: its status and the words its message must hold
 * (the file and line, and what is wrong). */
typedef struct bad_case {
    const char *file;
    mcd_status status;
    const char *words[3];
} bad_case;

static const bad_case bad_cases[] = {
    {"bad_lcp_truncated.dat", MCD_ERR_PARSE, {"bad_lcp_truncated.dat:8:", "q[1]", "truncated"}},
    {"bad_lcp_wrong_size.dat", MCD_ERR_PARSE, {"bad_lcp_wrong_size.dat:3:", "wrong size", "M"}},
    {"bad_lcp_nan.dat", MCD_ERR_NONFINITE, {"bad_lcp_nan.dat:6:", "M(1,0)", "nan"}},
    {"bad_fc3d_negative_mu.dat",
     MCD_ERR_PARSE,
     {"bad_fc3d_negative_mu.dat:11:", "mu[0]", "negative"}},
    {"bad_fc3d_truncated.dat", MCD_ERR_PARSE, {"bad_fc3d_truncated.dat:9:", "W(5,2)", "truncated"}},
    {"bad_fc3d_inf.dat", MCD_ERR_NONFINITE, {"bad_fc3d_inf.dat:10:", "q[1]", "not finite"}},
    {"bad_sbm_block_number.dat",
     MCD_ERR_PARSE,
     {"bad_sbm_block_number.dat:24:", "block 2", "expected 2"}},
    {"bad_sbm_sizes.dat", MCD_ERR_PARSE, {"bad_sbm_sizes.dat:8:", "block-row sizes", "wrong size"}},
    {"bad_sparse_index.dat",
     MCD_ERR_PARSE,
     {"bad_sparse_index.dat:9:", "row index of entry 1", "range"}},
    {"bad_sparse_count.dat",
     MCD_ERR_PARSE,
     {"bad_sparse_count.dat:13:", "3 entries", "header says 4"}},
    {"bad_mlcp_blocks.dat",
     MCD_ERR_PARSE,
     {"bad_mlcp_blocks.dat:6:", "equality rows", "wrong size"}},
    {"bad_mlcp_abcd_mismatch.dat",
     MCD_ERR_PARSE,
     {"bad_mlcp_abcd_mismatch.dat:19:", "disagree", "q[1]"}},
    {"bad_mlcp_truncated.dat",
     MCD_ERR_PARSE,
     {"bad_mlcp_truncated.dat:16:", "B(0,0)", "truncated"}},
    {"bad_not_a_problem.dat",
     MCD_ERR_PARSE,
     {"bad_not_a_problem.dat:1:", "not a Siconos", "number"}},
    {"bad_empty.dat", MCD_ERR_PARSE, {"bad_empty.dat", "no numbers", ""}},
};

START_TEST(test_bad_fixture)
{
    const bad_case *c = &bad_cases[_i];
    mcd_problem_file f;
    mcd_error err = {0};
    mcd_status s = mcd_problem_read_siconos(fixture_path(c->file), MCD_PROBLEM_AUTO, &f, &err);
    ck_assert_msg(s == c->status, "%s: status %s, expected %s (%s)", c->file, mcd_status_str(s),
                  mcd_status_str(c->status), err.msg);
    for (int k = 0; k < 3; k++)
        ck_assert_msg(strstr(err.msg, c->words[k]), "%s: message lacks '%s': %s", c->file,
                      c->words[k], err.msg);
    ck_assert(f.kind == MCD_PROBLEM_AUTO && f.mlcp.M == NULL && f.fc3d.W == NULL);
}
END_TEST

START_TEST(test_missing_file_and_null_arguments)
{
    mcd_problem_file f;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_problem_read_siconos("/nonexistent/x.dat", MCD_PROBLEM_AUTO, &f, &err),
                     MCD_ERR_IO);
    ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/x.dat"));
    ck_assert_int_eq(mcd_problem_read_siconos(NULL, MCD_PROBLEM_AUTO, &f, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_problem_read_siconos("x.dat", MCD_PROBLEM_AUTO, NULL, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_problem_read_siconos("x.dat", MCD_PROBLEM_KIND_COUNT, &f, &err),
                     MCD_ERR_ARG);
    mcd_problem_file_free(NULL);
}
END_TEST

static char *slurp(const char *path, size_t *len)
{
    FILE *in = fopen(path, "rb");
    ck_assert_msg(in, "cannot open %s", path);
    fseek(in, 0, SEEK_END);
    *len = (size_t)ftell(in);
    rewind(in);
    char *buf = malloc(*len + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, *len, in), *len);
    fclose(in);
    return buf;
}

static void write_prefix(const char *path, const char *buf, size_t len)
{
    FILE *out = fopen(path, "wb");
    ck_assert_msg(out, "cannot write %s", path);
    ck_assert_uint_eq(fwrite(buf, 1, len, out), len);
    fclose(out);
}

static int same_problem(const mcd_problem_file *a, const mcd_problem_file *b)
{
    int n = mcd_problem_file_size(a);
    if (a->kind != b->kind || n != mcd_problem_file_size(b)) return 0;
    if (a->kind == MCD_PROBLEM_FC3D)
        return !memcmp(a->fc3d.W, b->fc3d.W, sizeof(double) * n * n) &&
               !memcmp(a->fc3d.q, b->fc3d.q, sizeof(double) * n) &&
               !memcmp(a->fc3d.mu, b->fc3d.mu, sizeof(double) * a->fc3d.nc);
    return !memcmp(a->mlcp.M, b->mlcp.M, sizeof(double) * n * n) &&
           !memcmp(a->mlcp.q, b->mlcp.q, sizeof(double) * n);
}

/* A cut copy either fails with MCD_ERR_PARSE naming the file, or reads:
 * the same problem when cut between numbers (in the trailing comments),
 * possibly a shortened last number when cut inside it. */
static void check_truncations(const char *path, const char *tmp)
{
    size_t len;
    char *buf = slurp(path, &len);
    mcd_problem_file whole = read_ok(path, MCD_PROBLEM_AUTO);
    size_t step = len / 150 + 1;
    for (size_t cut = 0; cut < len; cut += step) {
        write_prefix(tmp, buf, cut);
        mcd_problem_file f;
        mcd_error err = {0};
        mcd_status s = mcd_problem_read_siconos(tmp, MCD_PROBLEM_AUTO, &f, &err);
        if (s == MCD_OK) {
            int between_numbers = cut == 0 || isspace((unsigned char)buf[cut]);
            ck_assert_msg(!between_numbers || same_problem(&f, &whole),
                          "%s cut at %zu reads a different problem", path, cut);
            mcd_problem_file_free(&f);
            continue;
        }
        ck_assert_msg(s == MCD_ERR_PARSE, "%s cut at %zu: %s", path, cut, err.msg);
        ck_assert_msg(strstr(err.msg, tmp), "%s cut at %zu: message lacks the path: %s", path, cut,
                      err.msg);
    }
    mcd_problem_file_free(&whole);
    free(buf);
}

START_TEST(test_every_truncation_fails_cleanly)
{
    static const char *const folders[] = {"lcp", "mlcp", "fc3d"};
    char tmp[] = "/tmp/mcdyn-truncated-XXXXXX";
    int fd = mkstemp(tmp);
    ck_assert_int_ge(fd, 0);
    close(fd);
    for (int k = 0; k < 3; k++) {
        problem_list l = problem_list_read(folders[k]);
        for (int i = 0; i < l.count; i++)
            if (strstr(l.names[i], ".dat")) check_truncations(l.paths[i], tmp);
        problem_list_free(&l);
    }
    unlink(tmp);
}
END_TEST

/* The writer (problem_io.h) round-trips exactly: numbers with 17
 * significant digits read back as the same doubles, MLCP row kinds in any
 * order as blocks; rows or bilateral rows the layouts cannot hold are
 * refused. Values: awkward doubles (1/3, 1e-300, -2^-1074, 1e300). */
START_TEST(test_writer_round_trip)
{
    char path[] = "/tmp/mcdyn_write_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    const double vals[5] = {1.0 / 3.0, 1e-300, -4.9406564584124654e-324, 1e300, -0.1};
    mcd_fc3d fc;
    ck_assert_int_eq(mcd_fc3d_alloc(&fc, 2, 0, NULL), MCD_OK);
    for (int i = 0; i < 36; i++) fc.W[i] = vals[i % 5] * (i % 7 == 0 ? 1 : -1);
    for (int i = 0; i < 6; i++) fc.q[i] = vals[(i + 2) % 5];
    fc.mu[0] = 0.3, fc.mu[1] = 1.0 / 7.0;
    mcd_error err = {0};
    ck_assert_msg(mcd_problem_write_fc3d(path, &fc, &err) == MCD_OK, "%s", err.msg);
    mcd_problem_file f = read_ok(path, MCD_PROBLEM_AUTO);
    ck_assert_int_eq(f.kind, MCD_PROBLEM_FC3D);
    ck_assert_int_eq(f.fc3d.nc, 2);
    assert_array_eq(f.fc3d.W, fc.W, 36, "W");
    assert_array_eq(f.fc3d.q, fc.q, 6, "q");
    assert_array_eq(f.fc3d.mu, fc.mu, 2, "mu");
    mcd_problem_file_free(&f);
    fc.nb = 1, fc.nc = 1; /* same arrays, now a bilateral row: not writable */
    ck_assert_int_eq(mcd_problem_write_fc3d(path, &fc, &err), MCD_ERR_UNSUPPORTED);
    mcd_fc3d_free(&fc);
    mcd_mlcp m;
    ck_assert_int_eq(mcd_mlcp_alloc(&m, 5, NULL), MCD_OK);
    for (int i = 0; i < 25; i++) m.M[i] = vals[i % 5] + i;
    for (int i = 0; i < 5; i++) m.q[i] = -vals[i];
    m.lo[1] = m.lo[2] = m.lo[4] = -INFINITY; /* free rows 1, 2, 4 */
    ck_assert_msg(mcd_problem_write_mlcp(path, &m, &err) == MCD_OK, "%s", err.msg);
    f = read_ok(path, MCD_PROBLEM_MLCP);
    ck_assert_int_eq(f.mlcp.n, 5);
    assert_array_eq(f.mlcp.M, m.M, 25, "M");
    assert_array_eq(f.mlcp.q, m.q, 5, "q");
    assert_array_eq(f.mlcp.lo, m.lo, 5, "lo");
    assert_array_eq(f.mlcp.hi, m.hi, 5, "hi");
    mcd_problem_file_free(&f);
    m.hi[3] = 2.0; /* a box row */
    ck_assert_int_eq(mcd_problem_write_mlcp(path, &m, &err), MCD_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err.msg, "row 3"));
    ck_assert_int_eq(mcd_problem_write_mlcp("/nonexistent/dir/p.dat", &m, &err) == MCD_OK, 0);
    mcd_mlcp_free(&m);
    unlink(path);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("problem-read");
    TCase *good = tcase_create("layouts");
    tcase_add_test(good, test_sparse_triplet);
    tcase_add_test(good, test_sparse_compressed_column);
    tcase_add_test(good, test_dense_is_column_major);
    tcase_add_test(good, test_sparse_block_matches_dense);
    tcase_add_test(good, test_mlcp_abcd_only);
    tcase_add_test(good, test_mlcp_blocks);
    tcase_add_test(good, test_fc2d_embedding);
    tcase_add_test(good, test_explicit_kind);
    tcase_add_test(good, test_ambiguous_file_needs_a_kind);
    tcase_add_test(good, test_kind_names);
    tcase_add_test(good, test_writer_round_trip);
    suite_add_tcase(s, good);
    TCase *bad = tcase_create("bad-input");
    tcase_add_loop_test(bad, test_bad_fixture, 0, sizeof bad_cases / sizeof *bad_cases);
    tcase_add_test(bad, test_missing_file_and_null_arguments);
    tcase_add_test(bad, test_every_truncation_fails_cleanly);
    suite_add_tcase(s, bad);
    return s;
}

int main(void)
{
    return run_suite(suite());
}

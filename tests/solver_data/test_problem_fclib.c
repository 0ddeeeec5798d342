/* Tests of the FCLIB reader (src/io/problem_fclib.c, libhdf5 alone;
 * tools/fclib_read.h) with libfclib as its oracle: the shared FCLIB files
 * and problems we write with libfclib (compressed-column, compressed-row and
 * triplet W; the mixed part V, R, s; a 2D problem) are read by libfclib and
 * by our reader, from the file and from its image in memory, and must give
 * the same problem bit for bit; bad files made from them with HDF5 (wrong
 * sizes and types, missing parts, NaN, negative mu, out-of-range indices,
 * truncation, a global problem) and bad images each fail with a status and
 * a message naming the file and the entry, never a crash. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fclib.h>
#include <hdf5.h>

#include "common/check_main.h"
#include "fclib_read.h"
#include "problem_list.h"

static char tmp_dir[] = "/tmp/mcdyn-fclib-XXXXXX";

static const char *tmp_path(const char *name)
{
    static char path[4][512];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 512, "%s/%s", tmp_dir, name);
    return p;
}

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(tmp_dir));
}

static void teardown(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* W of two contacts (6 x 6): 4 on the diagonal, 1 at (0,3) and (3,0),
 * 0.5 at (1,2), in the given CSparse form. */
static int W_rows[] = {0, 3, 1, 2, 1, 2, 0, 3, 4, 5};
static int W_cols[] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 5};
static double W_vals[] = {4, 1, 4, 0.5, 0.5, 4, 1, 4, 4, 4};

static void dense_W(double *W)
{
    memset(W, 0, sizeof(double) * 36);
    for (int k = 0; k < 10; k++) W[W_rows[k] * 6 + W_cols[k]] = W_vals[k];
}

/* nz = -1 compressed column, -2 compressed row, 10 triplet. */
static struct fclib_matrix make_W(int nz, int *p, int *idx, double *x)
{
    struct fclib_matrix m = {10, 6, 6, p, idx, x, nz, NULL};
    for (int k = 0; k < 10; k++) x[k] = W_vals[k];
    if (nz >= 0) {
        memcpy(idx, W_rows, sizeof W_rows); /* triplet: i rows, p columns */
        memcpy(p, W_cols, sizeof W_cols);
        return m;
    }
    int count[7] = {0};
    for (int k = 0; k < 10; k++) count[1 + (nz == -1 ? W_cols[k] : W_rows[k])]++;
    for (int j = 0; j < 6; j++) count[j + 1] += count[j];
    memcpy(p, count, sizeof count);
    int fill[6] = {0};
    for (int k = 0; k < 10; k++) {
        int outer = nz == -1 ? W_cols[k] : W_rows[k], inner = nz == -1 ? W_rows[k] : W_cols[k];
        idx[p[outer] + fill[outer]] = inner;
        x[p[outer] + fill[outer]++] = W_vals[k];
    }
    return m;
}

static double q_vals[6] = {-1, 0.2, 0.1, -2, 0.3, -0.4};
static double mu_vals[2] = {0.3, 0.6};

/* Writes the two-contact problem (W in form nz; with V, R, s if mixed). */
static const char *write_problem(const char *name, int nz, int mixed)
{
    int p[10], idx[10], vp[2] = {0, 2}, vi[2] = {0, 4}, rp[2] = {0, 1}, ri[1] = {0};
    double x[10], vx[2] = {0.5, -0.25}, rx[1] = {2}, s[1] = {0.7};
    struct fclib_matrix W = make_W(nz, p, idx, x);
    struct fclib_matrix V = {2, 6, 1, vp, vi, vx, -1, NULL}, R = {1, 1, 1, rp, ri, rx, -1, NULL};
    struct fclib_local L = {
        &W, mixed ? &V : NULL, mixed ? &R : NULL, mu_vals, q_vals, mixed ? s : NULL, 3, NULL};
    const char *path = tmp_path(name);
    ck_assert_int_eq(fclib_write_local(&L, path), 1);
    return path;
}

static mcd_problem_file read_ok(const char *path)
{
    mcd_problem_file f;
    mcd_error err = {0};
    mcd_status s = read_problem_file(path, MCD_PROBLEM_AUTO, &f, &err);
    ck_assert_msg(s == MCD_OK, "%s: %s", path, err.msg);
    ck_assert_int_eq(f.kind, MCD_PROBLEM_FC3D);
    return f;
}

/* The file's bytes (free them). */
static unsigned char *file_bytes(const char *path, size_t *size)
{
    FILE *in = fopen(path, "rb");
    ck_assert_ptr_nonnull(in);
    ck_assert_int_eq(fseek(in, 0, SEEK_END), 0);
    long n = ftell(in);
    ck_assert_int_gt(n, 0);
    rewind(in);
    unsigned char *buf = malloc((size_t)n);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, in), (size_t)n);
    fclose(in);
    *size = (size_t)n;
    return buf;
}

/* The oracle's problem: what libfclib read, put in our form by the rule of
 * include/mcdyn/problem_io.h, written out here on its own. Entries are
 * summed in storage order, as the reader does, so equal means equal bits. */
typedef struct oracle {
    const struct fclib_local *L;
    mcd_fc3d p;
    int n;
} oracle;

static int oracle_row(const oracle *o, int i)
{
    int nb = o->p.nb;
    return nb + (o->L->spacedim == 3 ? i : 3 * (i / 2) + i % 2);
}

/* Calls add(o, which, row, col, x) for every stored entry of A. */
static void each_entry(oracle *o, const struct fclib_matrix *A, char which,
                       void (*add)(oracle *, char, int, int, double))
{
    for (int k = 0; A->nz >= 0 && k < A->nz; k++) add(o, which, A->i[k], A->p[k], A->x[k]);
    int outer = A->nz == -1 ? A->n : A->m;
    for (int c = 0; A->nz < 0 && c < outer; c++)
        for (int k = A->p[c]; k < A->p[c + 1]; k++)
            add(o, which, A->nz == -1 ? A->i[k] : c, A->nz == -1 ? c : A->i[k], A->x[k]);
}

static void oracle_add(oracle *o, char which, int i, int j, double x)
{
    double *A = o->p.W;
    size_t n = (size_t)o->n;
    if (which == 'W') A[oracle_row(o, i) * n + oracle_row(o, j)] += x;
    if (which == 'V') A[oracle_row(o, i) * n + j] += x;
    if (which == 'V') A[j * n + oracle_row(o, i)] += x;
    if (which == 'R') A[i * n + j] += x;
}

static void oracle_fill(oracle *o)
{
    const struct fclib_local *L = o->L;
    each_entry(o, L->W, 'W', oracle_add);
    if (L->V) each_entry(o, L->V, 'V', oracle_add);
    if (L->R) each_entry(o, L->R, 'R', oracle_add);
    for (int i = 0; i < o->p.nb; i++) o->p.q[i] = L->s[i];
    for (int i = 0; i < L->W->m; i++) o->p.q[oracle_row(o, i)] = L->q[i];
    for (int k = 0; k < o->p.nc; k++) o->p.mu[k] = L->mu[k];
    for (int k = 0; L->spacedim == 2 && k < o->p.nc; k++) { /* the decoupled second tangent */
        size_t t1 = (size_t)o->p.nb + 3 * k + 1, t2 = t1 + 1, n = (size_t)o->n;
        o->p.W[t2 * n + t2] = o->p.W[t1 * n + t1] > 0 ? o->p.W[t1 * n + t1] : 1.0;
    }
}

static void assert_same_bits(const char *what, const double *a, const double *b, size_t count)
{
    for (size_t k = 0; k < count; k++)
        ck_assert_msg(memcmp(&a[k], &b[k], sizeof(double)) == 0, "%s[%zu]: %.17g vs %.17g", what, k,
                      a[k], b[k]);
}

static void assert_same_problem(const char *label, const mcd_problem_file *f, const mcd_fc3d *p)
{
    ck_assert_msg(f->fc3d.nc == p->nc && f->fc3d.nb == p->nb, "%s: sizes", label);
    size_t n = (size_t)mcd_fc3d_size(p);
    assert_same_bits("W", f->fc3d.W, p->W, n * n);
    assert_same_bits("q", f->fc3d.q, p->q, n);
    assert_same_bits("mu", f->fc3d.mu, p->mu, (size_t)p->nc);
}

/* libfclib and our reader (file and image) give the same problem. */
static void assert_oracle_agrees(const char *path)
{
    struct fclib_local *L = fclib_read_local(path);
    ck_assert_ptr_nonnull(L);
    oracle o = {L, {0}, 0};
    int nc = L->W->m / L->spacedim, nb = L->V ? L->V->n : 0;
    ck_assert_int_eq(mcd_fc3d_alloc(&o.p, nc, nb, NULL), MCD_OK);
    o.n = mcd_fc3d_size(&o.p);
    oracle_fill(&o);
    mcd_problem_file f = read_ok(path);
    ck_assert_int_eq(f.dimension, L->spacedim);
    assert_same_problem(path, &f, &o.p);
    mcd_problem_file_free(&f);
    size_t size;
    unsigned char *image = file_bytes(path, &size);
    mcd_error err = {0};
    ck_assert_msg(mcd_problem_read_fclib_image(image, size, path, &f, &err) == MCD_OK, "%s: %s",
                  path, err.msg);
    assert_same_problem(path, &f, &o.p);
    mcd_problem_file_free(&f);
    free(image);
    mcd_fc3d_free(&o.p);
    fclib_delete_local(L);
    free(L);
}

static void read_fails(const char *path, mcd_status status, const char *word)
{
    mcd_problem_file f;
    mcd_error err = {0};
    mcd_status s = read_problem_file(path, MCD_PROBLEM_AUTO, &f, &err);
    ck_assert_msg(s == status, "%s: %s, expected %s (%s)", path, mcd_status_str(s),
                  mcd_status_str(status), err.msg);
    ck_assert_msg(strstr(err.msg, path), "message lacks the path: %s", err.msg);
    ck_assert_msg(strstr(err.msg, word), "message lacks '%s': %s", word, err.msg);
    ck_assert(f.kind == MCD_PROBLEM_AUTO && f.fc3d.W == NULL);
}

START_TEST(test_shared_files)
{
    problem_list l = problem_list_read("fc3d");
    int read = 0;
    for (int i = 0; i < l.count; i++) {
        if (!is_fclib_path(l.paths[i])) continue;
        mcd_problem_file f = read_ok(l.paths[i]);
        int n = mcd_problem_file_size(&f);
        ck_assert_int_eq(f.dimension, 3);
        ck_assert_int_eq(n, 3 * f.fc3d.nc);
        for (int k = 0; k < f.fc3d.nc; k++) ck_assert(f.fc3d.mu[k] >= 0);
        for (int k = 0; k < n; k++) ck_assert(f.fc3d.W[(size_t)k * n + k] > 0);
        mcd_problem_file_free(&f);
        assert_oracle_agrees(l.paths[i]);
        read++;
    }
    ck_assert_int_gt(read, 0);
    problem_list_free(&l);
}
END_TEST

/* Every CSparse form of W gives the same dense problem. */
START_TEST(test_storage_forms)
{
    static const int forms[] = {-1, -2, 10};
    static const char *const names[] = {"csc.hdf5", "csr.hdf5", "triplet.hdf5"};
    double W[36];
    dense_W(W);
    for (int k = 0; k < 3; k++) {
        mcd_problem_file f = read_ok(write_problem(names[k], forms[k], 0));
        ck_assert_int_eq(f.fc3d.nc, 2);
        ck_assert_int_eq(f.fc3d.nb, 0);
        for (int i = 0; i < 36; i++) ck_assert_msg(f.fc3d.W[i] == W[i], "%s: W[%d]", names[k], i);
        for (int i = 0; i < 6; i++) ck_assert(f.fc3d.q[i] == q_vals[i]);
        ck_assert(f.fc3d.mu[0] == 0.3 && f.fc3d.mu[1] == 0.6);
        mcd_problem_file_free(&f);
        assert_oracle_agrees(tmp_path(names[k]));
    }
}
END_TEST

/* V, R, s become a bilateral row in front: [R V^T; V W], [s; q]. */
START_TEST(test_mixed_part)
{
    mcd_problem_file f = read_ok(write_problem("mixed.hdf5", -1, 1));
    ck_assert_int_eq(f.fc3d.nb, 1);
    ck_assert_int_eq(f.fc3d.nc, 2);
    double W[36];
    dense_W(W);
    const double *A = f.fc3d.W;
    ck_assert(A[0] == 2 && f.fc3d.q[0] == 0.7);
    ck_assert(A[1 * 7 + 0] == 0.5 && A[0 * 7 + 1] == 0.5);     /* V(0,0) */
    ck_assert(A[5 * 7 + 0] == -0.25 && A[0 * 7 + 5] == -0.25); /* V(4,0) */
    for (int i = 0; i < 6; i++) {
        ck_assert(f.fc3d.q[1 + i] == q_vals[i]);
        for (int j = 0; j < 6; j++) ck_assert(A[(1 + i) * 7 + 1 + j] == W[i * 6 + j]);
    }
    mcd_problem_file_free(&f);
    assert_oracle_agrees(tmp_path("mixed.hdf5"));
}
END_TEST

/* A 2D problem: one contact, embedded with a decoupled second tangent. */
START_TEST(test_two_dimensional)
{
    int p[3] = {0, 2, 4}, i[4] = {0, 1, 0, 1};
    double x[4] = {2, 0.5, 0.5, 3}, q[2] = {-1, 0.5}, mu[1] = {0.4};
    struct fclib_matrix W = {4, 2, 2, p, i, x, -1, NULL};
    struct fclib_local L = {&W, NULL, NULL, mu, q, NULL, 2, NULL};
    const char *path = tmp_path("2d.hdf5");
    ck_assert_int_eq(fclib_write_local(&L, path), 1);
    mcd_problem_file f = read_ok(path);
    static const double want[9] = {2, 0.5, 0, 0.5, 3, 0, 0, 0, 3};
    ck_assert_int_eq(f.dimension, 2);
    for (int k = 0; k < 9; k++) ck_assert_msg(f.fc3d.W[k] == want[k], "W[%d]", k);
    ck_assert(f.fc3d.q[0] == -1 && f.fc3d.q[1] == 0.5 && f.fc3d.q[2] == 0);
    mcd_problem_file_free(&f);
    assert_oracle_agrees(path);
}
END_TEST

/* HDF5 edits of a written file. */
static void replace_dataset(const char *path, const char *name, hid_t type, const void *data,
                            hsize_t count)
{
    hid_t file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    ck_assert_int_ge(file, 0);
    ck_assert_int_ge(H5Ldelete(file, name, H5P_DEFAULT), 0);
    hid_t space = H5Screate_simple(1, &count, NULL);
    hid_t d = H5Dcreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    ck_assert_int_ge(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), 0);
    H5Dclose(d);
    H5Sclose(space);
    H5Fclose(file);
}

static void delete_link(const char *path, const char *name)
{
    hid_t file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    ck_assert_int_ge(file, 0);
    ck_assert_int_ge(H5Ldelete(file, name, H5P_DEFAULT), 0);
    H5Fclose(file);
}

START_TEST(test_bad_values)
{
    const char *path = write_problem("negative_mu.hdf5", -1, 0);
    double mu[2] = {0.3, -0.1};
    replace_dataset(path, "/fclib_local/vectors/mu", H5T_NATIVE_DOUBLE, mu, 2);
    read_fails(path, MCD_ERR_PARSE, "mu[1] = -0.1 is negative");

    path = write_problem("nan_q.hdf5", -1, 0);
    double q[6] = {NAN, 0, 0, 0, 0, 0};
    replace_dataset(path, "/fclib_local/vectors/q", H5T_NATIVE_DOUBLE, q, 6);
    read_fails(path, MCD_ERR_NONFINITE, "q[0] is not finite");

    path = write_problem("inf_W.hdf5", -1, 0);
    double x[10] = {4, 1, 4, 0.5, INFINITY, 4, 1, 4, 4, 4};
    replace_dataset(path, "/fclib_local/W/x", H5T_NATIVE_DOUBLE, x, 10);
    read_fails(path, MCD_ERR_NONFINITE, "(entry 4 of x) is not finite");

    path = write_problem("bad_index.hdf5", 10, 0);
    int rows[10] = {0, 3, 1, 2, 1, 2, 0, 3, 4, 6};
    replace_dataset(path, "/fclib_local/W/i", H5T_NATIVE_INT, rows, 10);
    read_fails(path, MCD_ERR_PARSE, "W entry 9 has index (6, 5) outside 6 x 6");

    path = write_problem("bad_pointers.hdf5", -1, 0);
    int p[7] = {0, 2, 1, 6, 8, 9, 10};
    replace_dataset(path, "/fclib_local/W/p", H5T_NATIVE_INT, p, 7);
    read_fails(path, MCD_ERR_PARSE, "bad compressed pointers at p[1]");
}
END_TEST

START_TEST(test_bad_layouts)
{
    const char *path = write_problem("short_mu.hdf5", -1, 0);
    double mu[1] = {0.3};
    replace_dataset(path, "/fclib_local/vectors/mu", H5T_NATIVE_DOUBLE, mu, 1);
    read_fails(path, MCD_ERR_PARSE, "mu has 1 entries, expected 2");

    path = write_problem("long_p.hdf5", -1, 0);
    int p[9] = {0, 2, 4, 6, 8, 9, 10, 10, 10};
    replace_dataset(path, "/fclib_local/W/p", H5T_NATIVE_INT, p, 9);
    read_fails(path, MCD_ERR_PARSE, "/fclib_local/W/p has 9 entries, expected 7");

    path = write_problem("int_x.hdf5", -1, 0);
    int x[10] = {0};
    replace_dataset(path, "/fclib_local/W/x", H5T_NATIVE_INT, x, 10);
    read_fails(path, MCD_ERR_PARSE, "/fclib_local/W/x has the wrong type");

    path = write_problem("spacedim.hdf5", -1, 0);
    int dim = 4;
    replace_dataset(path, "/fclib_local/spacedim", H5T_NATIVE_INT, &dim, 1);
    read_fails(path, MCD_ERR_PARSE, "spacedim = 4 is out of range");

    path = write_problem("no_W.hdf5", -1, 0);
    delete_link(path, "/fclib_local/W");
    read_fails(path, MCD_ERR_PARSE, "group /fclib_local/W is missing");

    path = write_problem("no_R.hdf5", -1, 1);
    delete_link(path, "/fclib_local/R");
    read_fails(path, MCD_ERR_PARSE, "group /fclib_local/R is missing");
}
END_TEST

static void copy_prefix(const char *from, const char *to, long bytes)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    ck_assert(in && out);
    for (long k = 0; k < bytes; k++) {
        int c = fgetc(in);
        if (c == EOF) break;
        fputc(c, out);
    }
    fclose(in);
    fclose(out);
}

START_TEST(test_bad_files)
{
    read_fails("/nonexistent/p.hdf5", MCD_ERR_IO, "cannot open");

    const char *text = tmp_path("text.hdf5");
    FILE *out = fopen(text, "w");
    ck_assert_ptr_nonnull(out);
    fputs("not HDF5\n", out);
    fclose(out);
    read_fails(text, MCD_ERR_PARSE, "not an HDF5 file");

    const char *whole = write_problem("whole.hdf5", -1, 0), *cut = tmp_path("cut.hdf5");
    copy_prefix(whole, cut, 3000);
    read_fails(cut, MCD_ERR_PARSE, "");

    int p[4] = {0, 1, 2, 3}, i[3] = {0, 1, 2};
    double x[3] = {1, 1, 1}, f[3] = {0, 0, 0}, w[3] = {-1, 0, 0}, mu[1] = {0.5};
    struct fclib_matrix M = {3, 3, 3, p, i, x, -1, NULL}, H = M;
    struct fclib_global G = {&M, &H, NULL, mu, f, NULL, w, 3, NULL};
    const char *global = tmp_path("global.hdf5");
    ck_assert_int_eq(fclib_write_global(&G, global), 1);
    read_fails(global, MCD_ERR_UNSUPPORTED, "global problem");
}
END_TEST

static void image_fails(const void *image, size_t size, const char *word)
{
    mcd_problem_file f;
    mcd_error err = {0};
    mcd_status s = mcd_problem_read_fclib_image(image, size, "img", &f, &err);
    ck_assert_msg(s == MCD_ERR_PARSE, "%zu bytes: %s (%s)", size, mcd_status_str(s), err.msg);
    ck_assert_msg(strncmp(err.msg, "img: ", 5) == 0, "message lacks the name: %s", err.msg);
    ck_assert_msg(strstr(err.msg, word), "message lacks '%s': %s", word, err.msg);
    ck_assert(f.kind == MCD_PROBLEM_AUTO && f.fc3d.W == NULL);
}

/* Truncated and damaged images: a clear error (or, for a damaged byte the
 * reader never looks at, the whole problem), never a crash. */
START_TEST(test_bad_images)
{
    size_t size;
    unsigned char *image = file_bytes(write_problem("image.hdf5", -1, 1), &size);
    image_fails(image, 0, "empty image");
    image_fails("not HDF5\n", 9, "HDF5 cannot open it");
    /* every cut shorter than the file: HDF5's end-of-file address is past
     * the image, so the open itself fails */
    for (size_t cut = 1; cut < size; cut += 251) image_fails(image, cut, "HDF5 cannot open it");
    mcd_problem_file f;
    mcd_error err = {0};
    int failed = 0;
    for (size_t k = 0; k < size; k += 61) { /* one byte flipped at a time */
        image[k] ^= 0xff;
        mcd_status s = mcd_problem_read_fclib_image(image, size, "img", &f, &err);
        if (s == MCD_OK)
            mcd_problem_file_free(&f);
        else {
            failed++;
            ck_assert_msg(strncmp(err.msg, "img: ", 5) == 0, "message lacks the name: %s", err.msg);
        }
        image[k] ^= 0xff;
    }
    ck_assert_int_gt(failed, 0);
    ck_assert_int_eq(mcd_problem_read_fclib_image(NULL, 4, "img", &f, &err), MCD_ERR_ARG);
    free(image);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("problem-fclib");
    TCase *t = tcase_create("fclib");
    tcase_add_unchecked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 100); /* the Capsules file read three times, hundreds of images */
    tcase_add_test(t, test_shared_files);
    tcase_add_test(t, test_storage_forms);
    tcase_add_test(t, test_mixed_part);
    tcase_add_test(t, test_two_dimensional);
    tcase_add_test(t, test_bad_values);
    tcase_add_test(t, test_bad_layouts);
    tcase_add_test(t, test_bad_files);
    tcase_add_test(t, test_bad_images);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    return run_suite(suite());
}

/* FCLIB local problems read with libhdf5 alone (libfclib is a test oracle,
 * never a dependency of the library), from a file or from a file image in
 * memory, and the choice between FCLIB and Siconos files
 * (include/mcdyn/problem_io.h).
 *
 * The layout is libfclib's (fclib.c, read_matrix and read_local_vectors):
 *   /fclib_local/spacedim                     int, 2 or 3
 *   /fclib_local/{W,V,R}/{nzmax,m,n,nz}      int, one each (V, R optional)
 *   /fclib_local/{W,V,R}/{p,i,x}             a CSparse matrix
 *   /fclib_local/vectors/{q,mu,s}            double (s with R)
 * CSparse's nz: -1 compressed columns (p: n + 1 pointers, i: nzmax rows),
 * -2 compressed rows (p: m + 1, i: nzmax columns), nz >= 0 triplets (p: nz
 * columns, i: nz rows, as CSparse's cs_entry stores them). x has nzmax
 * entries. The info groups (titles, matrix descriptions) are not read. */
#include "mcdyn/problem_io.h"
#include "problem_internal.h"

#include <hdf5.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FCLIB_MAX_SIZE    10000
#define MAX_DATASET_BYTES ((size_t)1 << 31)
#define MAX_NUMBER_BYTES  16   /* the widest stored integer or float (a long double) */
#define MAX_COMPRESSION   1032 /* deflate's largest ratio: data bytes per stored byte */

int mcd_problem_is_fclib_path(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return (n > 5 && strcmp(path + n - 5, ".hdf5") == 0) ||
           (n > 3 && strcmp(path + n - 3, ".h5") == 0);
}

mcd_status problem_read_file_with(const char *caller, const char *path, mcd_problem_kind kind,
                                  mcd_problem_file *out, problem_fclib_reader read_fclib,
                                  mcd_error *err)
{
    if (!path || !out) return mcd_fail(err, MCD_ERR_ARG, "%s: NULL argument", caller);
    if (!mcd_problem_is_fclib_path(path)) return mcd_problem_read_siconos(path, kind, out, err);
    memset(out, 0, sizeof *out);
    if (kind != MCD_PROBLEM_AUTO && kind != MCD_PROBLEM_FC3D)
        return mcd_fail(err, MCD_ERR_ARG,
                        "%s: an FCLIB file holds a frictional-contact problem, not %s", path,
                        mcd_problem_kind_name(kind));
    return read_fclib(path, out, err);
}

mcd_status mcd_problem_read_file(const char *path, mcd_problem_kind kind, mcd_problem_file *out,
                                 mcd_error *err)
{
    return problem_read_file_with("mcd_problem_read_file", path, kind, out, mcd_problem_read_fclib,
                                  err);
}

int mcd_problem_fclib_available(void)
{
    return 1;
}

/* An open file; path names it in messages. */
typedef struct h5_file {
    hid_t id;
    hsize_t size; /* bytes of the file or image */
    const char *path;
    mcd_error *err;
} h5_file;

static mcd_status layout_fail(const h5_file *f, const char *fmt, ...)
{
    char msg[MCD_ERROR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mcd_fail(f->err, MCD_ERR_PARSE, "%s: %s", f->path, msg);
}

static int has_link(const h5_file *f, const char *name)
{
    return H5Lexists(f->id, name, H5P_DEFAULT) > 0;
}

/* Group `name` exists and opens. */
static mcd_status check_group(const h5_file *f, const char *name)
{
    if (!has_link(f, name)) return layout_fail(f, "group %s is missing", name);
    hid_t g = H5Gopen2(f->id, name, H5P_DEFAULT);
    if (g < 0) return layout_fail(f, "%s is not a group", name);
    H5Gclose(g);
    return MCD_OK;
}

/* 1 if the dataset's storage can hold `bytes` of data: stored uncompressed
 * at full size, or through filters at most MAX_COMPRESSION times smaller,
 * and the storage within the file. So a small file cannot make the reader
 * allocate more than a bounded multiple of its own size (fuzz: a stored
 * integer of 600 MB made libhdf5 allocate 2.4 GB). */
static int storage_holds(const h5_file *f, hid_t d, size_t bytes)
{
    hsize_t stored = H5Dget_storage_size(d);
    hid_t plist = H5Dget_create_plist(d);
    if (plist < 0) return 0;
    int filters = H5Pget_nfilters(plist);
    H5Pclose(plist);
    if (filters < 0 || stored > f->size) return 0;
    return bytes == 0 || (filters == 0 ? stored >= bytes : stored >= bytes / MAX_COMPRESSION);
}

/* Reasons a dataset is refused, checked before anything is allocated. */
static mcd_status check_extent(const h5_file *f, const char *name, hid_t d, H5T_class_t cls,
                               long want, size_t native)
{
    hid_t type = H5Dget_type(d), space = H5Dget_space(d);
    H5T_class_t got = type >= 0 ? H5Tget_class(type) : H5T_NO_CLASS;
    size_t stored = type >= 0 ? H5Tget_size(type) : 0;
    hssize_t count = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    if (type >= 0) H5Tclose(type);
    if (space >= 0) H5Sclose(space);
    if (got != cls || count < 0 || stored == 0 || stored > MAX_NUMBER_BYTES)
        return layout_fail(f, "dataset %s has the wrong type", name);
    if (count != want)
        return layout_fail(f, "dataset %s has %lld entries, expected %ld (wrong size)", name,
                           (long long)count, want);
    size_t width = stored > native ? stored : native; /* libhdf5 converts in place */
    if ((size_t)count > MAX_DATASET_BYTES / width || !storage_holds(f, d, (size_t)count * stored))
        return layout_fail(f,
                           "dataset %s: its %lld entries are larger than its storage "
                           "(damaged?)",
                           name, (long long)count);
    return MCD_OK;
}

/* Reads dataset `name` of class cls and exactly `want` entries into buf
 * (room for want entries of the native type mem). */
static mcd_status read_into(const h5_file *f, const char *name, H5T_class_t cls, long want,
                            hid_t mem, void *buf)
{
    if (!has_link(f, name)) return layout_fail(f, "dataset %s is missing", name);
    hid_t d = H5Dopen2(f->id, name, H5P_DEFAULT);
    if (d < 0) return layout_fail(f, "%s is not a readable dataset", name);
    mcd_status s = check_extent(f, name, d, cls, want, H5Tget_size(mem));
    if (s == MCD_OK && want > 0 && H5Dread(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        s = layout_fail(f, "dataset %s cannot be read (damaged?)", name);
    H5Dclose(d);
    return s;
}

/* The same into a new array of want native ints or doubles (*out NULL on
 * failure). */
static mcd_status read_array(const h5_file *f, const char *name, H5T_class_t cls, long want,
                             void **out)
{
    hid_t mem = cls == H5T_INTEGER ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE;
    size_t size = H5Tget_size(mem);
    *out = NULL;
    if (want < 0 || (size_t)want > MAX_DATASET_BYTES / size)
        return layout_fail(f, "dataset %s: %ld entries is too many", name, want);
    void *buf = malloc(size * (size_t)want + 1);
    if (!buf) return mcd_fail(f->err, MCD_ERR_NOMEM, "%s: out of memory for %s", f->path, name);
    mcd_status s = read_into(f, name, cls, want, mem, buf);
    if (s != MCD_OK) {
        free(buf);
        return s;
    }
    *out = buf;
    return MCD_OK;
}

/* A one-element integer dataset in [lo, hi]. */
static mcd_status read_int(const h5_file *f, const char *name, long lo, long hi, int *v)
{
    mcd_status s = read_into(f, name, H5T_INTEGER, 1, H5T_NATIVE_INT, v);
    if (s == MCD_OK && (*v < lo || *v > hi))
        return layout_fail(f, "%s = %d is out of range [%ld, %ld]", name, *v, lo, hi);
    return s;
}

/* A CSparse matrix as FCLIB stores it (layout above). */
typedef struct csparse {
    int nzmax, m, n, nz;
    int *p, *i;
    double *x;
} csparse;

static void csparse_free(csparse *A)
{
    free(A->p);
    free(A->i);
    free(A->x);
}

/* Matrix group: sizes in [0, FCLIB_MAX_SIZE], storage form, arrays. */
static mcd_status read_matrix(const h5_file *f, const char *group, csparse *A)
{
    char path[160];
    mcd_status s = check_group(f, group);
    snprintf(path, sizeof path, "%s/m", group);
    if (s == MCD_OK) s = read_int(f, path, 0, FCLIB_MAX_SIZE, &A->m);
    snprintf(path, sizeof path, "%s/n", group);
    if (s == MCD_OK) s = read_int(f, path, 0, FCLIB_MAX_SIZE, &A->n);
    snprintf(path, sizeof path, "%s/nzmax", group);
    if (s == MCD_OK) s = read_int(f, path, 0, (long)A->m * A->n, &A->nzmax);
    snprintf(path, sizeof path, "%s/nz", group);
    if (s == MCD_OK) s = read_int(f, path, -2, A->nzmax, &A->nz);
    if (s != MCD_OK) return s;
    long np = A->nz >= 0 ? A->nz : A->nz == -1 ? A->n + 1L : A->m + 1L;
    long ni = A->nz >= 0 ? A->nz : A->nzmax;
    snprintf(path, sizeof path, "%s/p", group);
    s = read_array(f, path, H5T_INTEGER, np, (void **)&A->p);
    snprintf(path, sizeof path, "%s/i", group);
    if (s == MCD_OK) s = read_array(f, path, H5T_INTEGER, ni, (void **)&A->i);
    snprintf(path, sizeof path, "%s/x", group);
    if (s == MCD_OK) s = read_array(f, path, H5T_FLOAT, A->nzmax, (void **)&A->x);
    return s;
}

/* A local problem as stored; nb = columns of V (0 without V). */
typedef struct fclib_local {
    int dim, m, nb;
    csparse W, V, R;
    double *q, *s, *mu;
} fclib_local;

static void local_free(fclib_local *L)
{
    csparse_free(&L->W);
    csparse_free(&L->V);
    csparse_free(&L->R);
    free(L->q);
    free(L->s);
    free(L->mu);
}

static mcd_status read_mixed_part(const h5_file *f, fclib_local *L)
{
    if (!has_link(f, "/fclib_local/V")) {
        if (has_link(f, "/fclib_local/R"))
            return layout_fail(f, "/fclib_local/R is given without V");
        return MCD_OK;
    }
    mcd_status s = read_matrix(f, "/fclib_local/V", &L->V);
    if (s == MCD_OK) s = read_matrix(f, "/fclib_local/R", &L->R);
    if (s != MCD_OK) return s;
    if (L->V.m != L->m || L->R.m != L->V.n || L->R.n != L->V.n)
        return layout_fail(f, "V is %d x %d and R %d x %d, W has %d rows (wrong size)", L->V.m,
                           L->V.n, L->R.m, L->R.n, L->m);
    L->nb = L->V.n;
    return read_array(f, "/fclib_local/vectors/s", H5T_FLOAT, L->nb, (void **)&L->s);
}

static mcd_status read_local(const h5_file *f, fclib_local *L)
{
    mcd_status s = check_group(f, "/fclib_local");
    if (s == MCD_OK) s = read_int(f, "/fclib_local/spacedim", 2, 3, &L->dim);
    if (s == MCD_OK) s = read_matrix(f, "/fclib_local/W", &L->W);
    if (s != MCD_OK) return s;
    L->m = L->W.m;
    if (L->W.m != L->W.n || L->m == 0 || L->m % L->dim != 0)
        return layout_fail(f, "W is %d x %d: not square with a positive multiple of %d rows",
                           L->W.m, L->W.n, L->dim);
    s = check_group(f, "/fclib_local/vectors");
    if (s == MCD_OK) s = read_array(f, "/fclib_local/vectors/q", H5T_FLOAT, L->m, (void **)&L->q);
    if (s == MCD_OK)
        s = read_array(f, "/fclib_local/vectors/mu", H5T_FLOAT, L->m / L->dim, (void **)&L->mu);
    if (s == MCD_OK) s = read_mixed_part(f, L);
    if (s == MCD_OK && 3 * (L->m / L->dim) + L->nb > FCLIB_MAX_SIZE)
        s = mcd_fail(f->err, MCD_ERR_UNSUPPORTED,
                     "%s: %d unknowns, more than the %d this reader takes", f->path,
                     3 * (L->m / L->dim) + L->nb, FCLIB_MAX_SIZE);
    return s;
}

/* Where FCLIB row i of a contact block goes in our problem. */
static int contact_row(const fclib_local *L, int i)
{
    return L->nb + (L->dim == 3 ? i : 3 * (i / 2) + i % 2);
}

typedef enum matrix_role { ROLE_W, ROLE_V, ROLE_R } matrix_role;

static void add_entry(const fclib_local *L, matrix_role role, int i, int j, double x, mcd_fc3d *p)
{
    size_t n = (size_t)mcd_fc3d_size(p);
    if (role == ROLE_W) {
        p->W[contact_row(L, i) * n + contact_row(L, j)] += x;
    } else if (role == ROLE_V) {
        p->W[contact_row(L, i) * n + j] += x;
        p->W[j * n + contact_row(L, i)] += x;
    } else {
        p->W[i * n + j] += x;
    }
}

/* One stored entry k: (row, col) checked, value finite. */
static mcd_status take_entry(const char *path, const char *name, const csparse *A, int k, int row,
                             int col, mcd_error *err)
{
    if (row < 0 || row >= A->m || col < 0 || col >= A->n)
        return mcd_fail(err, MCD_ERR_PARSE, "%s: %s entry %d has index (%d, %d) outside %d x %d",
                        path, name, k, row, col, A->m, A->n);
    if (!isfinite(A->x[k]))
        return mcd_fail(err, MCD_ERR_NONFINITE, "%s: %s(%d,%d) (entry %d of x) is not finite", path,
                        name, row, col, k);
    return MCD_OK;
}

/* Compressed pointers: p[0] = 0, non-decreasing, p[count] <= nzmax. */
static mcd_status check_pointers(const char *path, const char *name, const csparse *A, int count,
                                 mcd_error *err)
{
    if (A->p[0] != 0)
        return mcd_fail(err, MCD_ERR_PARSE, "%s: %s has p[0] = %d, expected 0", path, name,
                        A->p[0]);
    for (int k = 0; k < count; k++)
        if (A->p[k] > A->p[k + 1] || A->p[k + 1] > A->nzmax)
            return mcd_fail(err, MCD_ERR_PARSE, "%s: %s has bad compressed pointers at p[%d]", path,
                            name, k);
    return MCD_OK;
}

static mcd_status add_matrix(const char *path, const char *name, const csparse *A,
                             const fclib_local *L, matrix_role role, mcd_fc3d *p, mcd_error *err)
{
    int outer = A->nz == -1 ? A->n : A->m;
    mcd_status s = A->nz >= 0 ? MCD_OK : check_pointers(path, name, A, outer, err);
    for (int k = 0; A->nz >= 0 && k < A->nz && s == MCD_OK; k++) {
        s = take_entry(path, name, A, k, A->i[k], A->p[k], err);
        if (s == MCD_OK) add_entry(L, role, A->i[k], A->p[k], A->x[k], p);
    }
    for (int o = 0; A->nz < 0 && o < outer && s == MCD_OK; o++) {
        for (int k = A->p[o]; k < A->p[o + 1] && s == MCD_OK; k++) {
            int row = A->nz == -1 ? A->i[k] : o, col = A->nz == -1 ? o : A->i[k];
            s = take_entry(path, name, A, k, row, col, err);
            if (s == MCD_OK) add_entry(L, role, row, col, A->x[k], p);
        }
    }
    return s;
}

static mcd_status take_vector(const char *path, const char *name, const double *v, int n,
                              int nonnegative, mcd_error *err)
{
    for (int i = 0; i < n; i++) {
        if (!isfinite(v[i]))
            return mcd_fail(err, MCD_ERR_NONFINITE, "%s: %s[%d] is not finite", path, name, i);
        if (nonnegative && v[i] < 0)
            return mcd_fail(err, MCD_ERR_PARSE, "%s: %s[%d] = %g is negative", path, name, i, v[i]);
    }
    return MCD_OK;
}

static void fill_vectors(const fclib_local *L, mcd_fc3d *p)
{
    size_t n = (size_t)mcd_fc3d_size(p);
    for (int i = 0; i < L->nb; i++) p->q[i] = L->s[i];
    for (int i = 0; i < L->m; i++) p->q[contact_row(L, i)] = L->q[i];
    for (int k = 0; k < p->nc; k++) p->mu[k] = L->mu[k];
    for (int k = 0; L->dim == 2 && k < p->nc; k++) {
        size_t t1 = L->nb + 3 * k + 1, t2 = t1 + 1;
        p->W[t2 * n + t2] = p->W[t1 * n + t1] > 0 ? p->W[t1 * n + t1] : 1.0;
    }
}

/* [R V^T; V W] and [s; q] (include/mcdyn/problem_io.h). */
static mcd_status convert(const char *path, const fclib_local *L, mcd_fc3d *p, mcd_error *err)
{
    mcd_status s = add_matrix(path, "W", &L->W, L, ROLE_W, p, err);
    if (s == MCD_OK && L->nb) s = add_matrix(path, "V", &L->V, L, ROLE_V, p, err);
    if (s == MCD_OK && L->nb) s = add_matrix(path, "R", &L->R, L, ROLE_R, p, err);
    if (s == MCD_OK) s = take_vector(path, "q", L->q, L->m, 0, err);
    if (s == MCD_OK && L->nb) s = take_vector(path, "s", L->s, L->nb, 0, err);
    if (s == MCD_OK) s = take_vector(path, "mu", L->mu, L->m / L->dim, 1, err);
    if (s == MCD_OK) fill_vectors(L, p);
    return s;
}

/* Reads the local problem of the open file f into out. */
static mcd_status read_open_file(const h5_file *f, mcd_problem_file *out)
{
    if (!has_link(f, "/fclib_local")) {
        if (has_link(f, "/fclib_global"))
            return mcd_fail(f->err, MCD_ERR_UNSUPPORTED,
                            "%s: an FCLIB global problem; only local problems are read", f->path);
        return layout_fail(f, "no /fclib_local group: not an FCLIB problem");
    }
    fclib_local L = {0};
    mcd_fc3d p = {0};
    mcd_status s = read_local(f, &L);
    if (s == MCD_OK) s = mcd_fc3d_alloc(&p, L.m / L.dim, L.nb, f->err);
    if (s == MCD_OK) s = convert(f->path, &L, &p, f->err);
    local_free(&L);
    if (s != MCD_OK) {
        mcd_fc3d_free(&p);
        return s;
    }
    out->kind = MCD_PROBLEM_FC3D;
    out->dimension = L.dim;
    out->fc3d = p;
    return MCD_OK;
}

/* Opens file `name` with the file access list fapl, reads it and closes
 * it, with libhdf5's error printing off meanwhile; label names it in
 * messages. */
static mcd_status read_hdf5(const char *name, const char *label, hid_t fapl, mcd_problem_file *out,
                            mcd_error *err)
{
    H5E_auto2_t handler;
    void *handler_data;
    H5Eget_auto2(H5E_DEFAULT, &handler, &handler_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    h5_file f = {H5Fopen(name, H5F_ACC_RDONLY, fapl), 0, label, err};
    mcd_status s = MCD_OK;
    if (f.id < 0 || H5Fget_filesize(f.id, &f.size) < 0)
        s = mcd_fail(err, MCD_ERR_PARSE, "%s: HDF5 cannot open it (truncated?)", label);
    else
        s = read_open_file(&f, out);
    if (f.id >= 0) H5Fclose(f.id);
    H5Eset_auto2(H5E_DEFAULT, handler, handler_data);
    return s;
}

mcd_status mcd_problem_read_fclib(const char *path, mcd_problem_file *out, mcd_error *err)
{
    if (!path || !out) return mcd_fail(err, MCD_ERR_ARG, "mcd_problem_read_fclib: NULL argument");
    memset(out, 0, sizeof *out);
    FILE *probe = fopen(path, "rb");
    if (!probe) return mcd_fail(err, MCD_ERR_IO, "%s: cannot open", path);
    fclose(probe);
    H5E_auto2_t handler;
    void *handler_data;
    H5Eget_auto2(H5E_DEFAULT, &handler, &handler_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    htri_t is_hdf5 = H5Fis_hdf5(path);
    H5Eset_auto2(H5E_DEFAULT, handler, handler_data);
    if (is_hdf5 <= 0)
        return mcd_fail(err, MCD_ERR_PARSE, "%s: not an HDF5 file (or a damaged one)", path);
    return read_hdf5(path, path, H5P_DEFAULT, out, err);
}

mcd_status mcd_problem_read_fclib_image(const void *image, size_t size, const char *name,
                                        mcd_problem_file *out, mcd_error *err)
{
    if (!out || (!image && size))
        return mcd_fail(err, MCD_ERR_ARG, "mcd_problem_read_fclib_image: NULL argument");
    memset(out, 0, sizeof *out);
    const char *label = name ? name : "(FCLIB image)";
    if (size == 0) return mcd_fail(err, MCD_ERR_PARSE, "%s: empty image", label);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0 || H5Pset_fapl_core(fapl, 65536, 0) < 0 ||
        H5Pset_file_image(fapl, (void *)image, size) < 0) {
        if (fapl >= 0) H5Pclose(fapl);
        return mcd_fail(err, MCD_ERR_NOMEM, "%s: HDF5 cannot take the image", label);
    }
    /* The core driver refuses an image whose name is an existing file, so
     * the name is one no file can have (/dev/null is not a directory). */
    mcd_status s = read_hdf5("/dev/null/mcdyn-fclib-image", label, fapl, out, err);
    H5Pclose(fapl);
    return s;
}

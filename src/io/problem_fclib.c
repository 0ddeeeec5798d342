/* FCLIB local problems through libfclib, and the choice between FCLIB and
 * Siconos files (include/mcdyn/problem_io.h). The reader is compiled only
 * when meson finds FCLIB (MCDYN_HAVE_FCLIB); without it, reading an FCLIB
 * file is MCD_ERR_UNSUPPORTED. */
#include "mcdyn/problem_io.h"

#include <string.h>

int mcd_problem_is_fclib_path(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return (n > 5 && strcmp(path + n - 5, ".hdf5") == 0) ||
           (n > 3 && strcmp(path + n - 3, ".h5") == 0);
}

mcd_status mcd_problem_read_file(const char *path, mcd_problem_kind kind, mcd_problem_file *out,
                                 mcd_error *err)
{
    if (!path || !out) return mcd_fail(err, MCD_ERR_ARG, "mcd_problem_read_file: NULL argument");
    if (!mcd_problem_is_fclib_path(path)) return mcd_problem_read_siconos(path, kind, out, err);
    memset(out, 0, sizeof *out);
    if (kind != MCD_PROBLEM_AUTO && kind != MCD_PROBLEM_FC3D)
        return mcd_fail(err, MCD_ERR_ARG,
                        "%s: an FCLIB file holds a frictional-contact problem, not %s", path,
                        mcd_problem_kind_name(kind));
    return mcd_problem_read_fclib(path, out, err);
}

#ifndef MCDYN_HAVE_FCLIB

int mcd_problem_fclib_available(void)
{
    return 0;
}

mcd_status mcd_problem_read_fclib(const char *path, mcd_problem_file *out, mcd_error *err)
{
    if (!path || !out) return mcd_fail(err, MCD_ERR_ARG, "mcd_problem_read_fclib: NULL argument");
    memset(out, 0, sizeof *out);
    return mcd_fail(err, MCD_ERR_UNSUPPORTED,
                    "%s: reading FCLIB files needs mcdyn built with libfclib", path);
}

#else

#include <fclib.h>
#include <hdf5.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FCLIB_MAX_SIZE    10000
#define MAX_DATASET_BYTES ((size_t)1 << 31)
#define MAX_NUMBER_BYTES  16 /* the widest stored integer or float (a long double) */

/* An open file, for the layout checks. */
typedef struct h5_file {
    hid_t id;
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

/* Stops the listing (returns 1) at the member named `wanted`. */
static herr_t visit_link(hid_t group, const char *name, const H5L_info_t *info, void *wanted)
{
    (void)group;
    (void)info;
    return strcmp(name, wanted) == 0;
}

/* 1 if group lists a member `name` (libfclib looks optional members up by
 * listing the group), 0 if not, -1 if the group cannot be listed. */
static int listed(const h5_file *f, const char *group, const char *name)
{
    hid_t g = H5Gopen2(f->id, group, H5P_DEFAULT);
    if (g < 0) return -1;
    hsize_t next = 0;
    herr_t found = H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, &next, visit_link, (void *)name);
    H5Gclose(g);
    return found < 0 ? -1 : found > 0;
}

/* Group `name` exists, opens and can be listed, as libfclib needs (it
 * exits otherwise; it looks members up by listing the group). */
static mcd_status check_group(const h5_file *f, const char *name)
{
    if (!has_link(f, name)) return layout_fail(f, "group %s is missing", name);
    hid_t g = H5Gopen2(f->id, name, H5P_DEFAULT);
    if (g < 0) return layout_fail(f, "%s is not a group", name);
    H5Gclose(g);
    if (listed(f, name, "") < 0)
        return layout_fail(f, "group %s cannot be listed (damaged?)", name);
    return MCD_OK;
}

/* Reads all of dataset d as libfclib will (native int or double, or the
 * file's fixed-length string type) into a scratch buffer, so that damaged
 * data fails here rather than inside libfclib, which exits on an HDF5
 * error. */
static int read_whole(hid_t d, hid_t type, H5T_class_t cls, hssize_t count)
{
    hid_t mem = cls == H5T_INTEGER ? H5T_NATIVE_INT : cls == H5T_FLOAT ? H5T_NATIVE_DOUBLE : type;
    size_t size = H5Tget_size(mem);
    if (cls == H5T_STRING && H5Tis_variable_str(type) != 0) return -1;
    /* the stored element too: libhdf5 converts through a buffer of its size
     * (fuzz: an integer stored on 600 MB per element made it allocate 2.4 GB) */
    size_t stored = H5Tget_size(type);
    if (stored == 0 || (cls != H5T_STRING && stored > MAX_NUMBER_BYTES)) return -1;
    if (size == 0 || (size_t)count > MAX_DATASET_BYTES / size ||
        (size_t)count > MAX_DATASET_BYTES / stored)
        return -1;
    void *buf = malloc(size * (size_t)count + 1);
    int ok = buf && H5Dread(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0;
    free(buf);
    return ok ? 0 : -1;
}

/* Dataset `name`: class cls, `want` elements (any number if want < 0), and
 * readable. */
static mcd_status check_dataset(const h5_file *f, const char *name, H5T_class_t cls, long want)
{
    if (!has_link(f, name)) return layout_fail(f, "dataset %s is missing", name);
    hid_t d = H5Dopen2(f->id, name, H5P_DEFAULT);
    if (d < 0) return layout_fail(f, "%s is not a readable dataset", name);
    hid_t type = H5Dget_type(d), space = H5Dget_space(d);
    H5T_class_t got = type >= 0 ? H5Tget_class(type) : H5T_NO_CLASS;
    hssize_t count = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    mcd_status s = MCD_OK;
    if (got != cls || count < 0)
        s = layout_fail(f, "dataset %s has the wrong type", name);
    else if (want >= 0 && count != want)
        s = layout_fail(f, "dataset %s has %lld entries, expected %ld (wrong size)", name,
                        (long long)count, want);
    else if (read_whole(d, type, cls, count) != 0)
        s = layout_fail(f, "dataset %s cannot be read (damaged?)", name);
    if (type >= 0) H5Tclose(type);
    if (space >= 0) H5Sclose(space);
    H5Dclose(d);
    return s;
}

/* A one-element integer dataset in [lo, hi]. */
static mcd_status read_int(const h5_file *f, const char *name, long lo, long hi, int *v)
{
    mcd_status s = check_dataset(f, name, H5T_INTEGER, 1);
    if (s != MCD_OK) return s;
    hid_t d = H5Dopen2(f->id, name, H5P_DEFAULT);
    herr_t r = H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Dclose(d);
    if (r < 0) return layout_fail(f, "cannot read %s", name);
    if (*v < lo || *v > hi)
        return layout_fail(f, "%s = %d is out of range [%ld, %ld]", name, *v, lo, hi);
    return MCD_OK;
}

/* Optional string datasets of an info group, found as libfclib finds them. */
static mcd_status check_strings(const h5_file *f, const char *group, const char *const *names)
{
    char path[160];
    for (; *names; names++) {
        int present = listed(f, group, *names);
        if (present < 0) return layout_fail(f, "group %s cannot be listed (damaged?)", group);
        snprintf(path, sizeof path, "%s/%s", group, *names);
        mcd_status s = present ? check_dataset(f, path, H5T_STRING, -1) : MCD_OK;
        if (s != MCD_OK) return s;
    }
    return MCD_OK;
}

/* The optional description libfclib reads with a matrix. */
static mcd_status check_matrix_info(const h5_file *f, const char *group)
{
    static const char *const comment[] = {"comment", NULL};
    char path[160];
    int present = listed(f, group, "conditioning");
    if (present < 0) return layout_fail(f, "group %s cannot be listed (damaged?)", group);
    if (!present) return MCD_OK;
    snprintf(path, sizeof path, "%s/conditioning", group);
    mcd_status s = check_dataset(f, path, H5T_FLOAT, 1);
    snprintf(path, sizeof path, "%s/determinant", group);
    if (s == MCD_OK) s = check_dataset(f, path, H5T_FLOAT, 1);
    snprintf(path, sizeof path, "%s/rank", group);
    if (s == MCD_OK) s = check_dataset(f, path, H5T_INTEGER, 1);
    if (s == MCD_OK) s = check_strings(f, group, comment);
    return s;
}

/* Matrix group: sizes in [0, max], storage form, array lengths. */
static mcd_status check_matrix(const h5_file *f, const char *group, int *rows, int *cols)
{
    char path[160];
    int nzmax, nz;
    mcd_status s = MCD_OK;
    if (check_group(f, group) != MCD_OK) return MCD_ERR_PARSE;
    snprintf(path, sizeof path, "%s/m", group);
    s = read_int(f, path, 0, FCLIB_MAX_SIZE, rows);
    snprintf(path, sizeof path, "%s/n", group);
    if (s == MCD_OK) s = read_int(f, path, 0, FCLIB_MAX_SIZE, cols);
    snprintf(path, sizeof path, "%s/nzmax", group);
    if (s == MCD_OK) s = read_int(f, path, 0, (long)*rows * *cols, &nzmax);
    snprintf(path, sizeof path, "%s/nz", group);
    if (s == MCD_OK) s = read_int(f, path, -2, nzmax, &nz);
    if (s != MCD_OK) return s;
    long np = nz >= 0 ? nz : nz == -1 ? *cols + 1 : *rows + 1, ni = nz >= 0 ? nz : nzmax;
    snprintf(path, sizeof path, "%s/p", group);
    s = check_dataset(f, path, H5T_INTEGER, np);
    snprintf(path, sizeof path, "%s/i", group);
    if (s == MCD_OK) s = check_dataset(f, path, H5T_INTEGER, ni);
    snprintf(path, sizeof path, "%s/x", group);
    if (s == MCD_OK) s = check_dataset(f, path, H5T_FLOAT, nzmax);
    if (s == MCD_OK) s = check_matrix_info(f, group);
    return s;
}

/* Sizes of a local problem's parts. */
typedef struct fclib_sizes {
    int dim, m, nb;
} fclib_sizes;

static mcd_status check_mixed_part(const h5_file *f, fclib_sizes *z)
{
    int vm, vn, rm, rn;
    if (!has_link(f, "/fclib_local/V")) {
        if (has_link(f, "/fclib_local/R"))
            return layout_fail(f, "/fclib_local/R is given without V");
        return MCD_OK;
    }
    mcd_status s = check_matrix(f, "/fclib_local/V", &vm, &vn);
    if (s == MCD_OK) s = check_matrix(f, "/fclib_local/R", &rm, &rn);
    if (s != MCD_OK) return s;
    if (vm != z->m || rm != vn || rn != vn)
        return layout_fail(f, "V is %d x %d and R %d x %d, W has %d rows (wrong size)", vm, vn, rm,
                           rn, z->m);
    z->nb = vn;
    return check_dataset(f, "/fclib_local/vectors/s", H5T_FLOAT, vn);
}

static mcd_status check_local_layout(const h5_file *f, fclib_sizes *z)
{
    static const char *const info[] = {"title", "description", "math_info", NULL};
    int wn;
    mcd_status s = check_group(f, "/fclib_local");
    if (s == MCD_OK) s = read_int(f, "/fclib_local/spacedim", 2, 3, &z->dim);
    if (s == MCD_OK) s = check_matrix(f, "/fclib_local/W", &z->m, &wn);
    if (s != MCD_OK) return s;
    if (z->m != wn || z->m == 0 || z->m % z->dim != 0)
        return layout_fail(f, "W is %d x %d: not square with a positive multiple of %d rows", z->m,
                           wn, z->dim);
    s = check_group(f, "/fclib_local/vectors");
    if (s == MCD_OK) s = check_dataset(f, "/fclib_local/vectors/q", H5T_FLOAT, z->m);
    if (s == MCD_OK) s = check_dataset(f, "/fclib_local/vectors/mu", H5T_FLOAT, z->m / z->dim);
    if (s == MCD_OK) s = check_mixed_part(f, z);
    if (s == MCD_OK && has_link(f, "/fclib_local/info")) s = check_group(f, "/fclib_local/info");
    if (s == MCD_OK && has_link(f, "/fclib_local/info"))
        s = check_strings(f, "/fclib_local/info", info);
    if (s == MCD_OK && 3 * (z->m / z->dim) + z->nb > FCLIB_MAX_SIZE)
        s = mcd_fail(f->err, MCD_ERR_UNSUPPORTED,
                     "%s: %d unknowns, more than the %d this reader takes", f->path,
                     3 * (z->m / z->dim) + z->nb, FCLIB_MAX_SIZE);
    return s;
}

/* Opens path and checks that libfclib can read it as a local problem. */
static mcd_status check_file(const char *path, fclib_sizes *z, mcd_error *err)
{
    FILE *probe = fopen(path, "rb");
    if (!probe) return mcd_fail(err, MCD_ERR_IO, "%s: cannot open", path);
    fclose(probe);
    if (H5Fis_hdf5(path) <= 0)
        return mcd_fail(err, MCD_ERR_PARSE, "%s: not an HDF5 file (or a damaged one)", path);
    h5_file f = {H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), path, err};
    if (f.id < 0) return mcd_fail(err, MCD_ERR_PARSE, "%s: HDF5 cannot open it (truncated?)", path);
    mcd_status s;
    if (has_link(&f, "/fclib_local"))
        s = check_local_layout(&f, z);
    else if (has_link(&f, "/fclib_global"))
        s = mcd_fail(err, MCD_ERR_UNSUPPORTED,
                     "%s: an FCLIB global problem; only local problems are read", path);
    else
        s = layout_fail(&f, "no /fclib_local group: not an FCLIB problem");
    H5Fclose(f.id);
    return s;
}

/* Where FCLIB row i of a contact block goes in our problem. */
static int contact_row(const fclib_sizes *z, int i)
{
    return z->nb + (z->dim == 3 ? i : 3 * (i / 2) + i % 2);
}

typedef enum matrix_role { ROLE_W, ROLE_V, ROLE_R } matrix_role;

static void add_entry(const fclib_sizes *z, matrix_role role, int i, int j, double x, mcd_fc3d *p)
{
    size_t n = (size_t)mcd_fc3d_size(p);
    if (role == ROLE_W) {
        p->W[contact_row(z, i) * n + contact_row(z, j)] += x;
    } else if (role == ROLE_V) {
        p->W[contact_row(z, i) * n + j] += x;
        p->W[j * n + contact_row(z, i)] += x;
    } else {
        p->W[i * n + j] += x;
    }
}

/* One stored entry k: (row, col) checked, value finite. */
static mcd_status take_entry(const char *path, const char *name, const struct fclib_matrix *A,
                             int k, int row, int col, mcd_error *err)
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
static mcd_status check_pointers(const char *path, const char *name, const struct fclib_matrix *A,
                                 int count, mcd_error *err)
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

static mcd_status add_matrix(const char *path, const char *name, const struct fclib_matrix *A,
                             const fclib_sizes *z, matrix_role role, mcd_fc3d *p, mcd_error *err)
{
    int outer = A->nz == -1 ? A->n : A->m;
    mcd_status s = A->nz >= 0 ? MCD_OK : check_pointers(path, name, A, outer, err);
    for (int k = 0; A->nz >= 0 && k < A->nz && s == MCD_OK; k++) {
        s = take_entry(path, name, A, k, A->i[k], A->p[k], err);
        if (s == MCD_OK) add_entry(z, role, A->i[k], A->p[k], A->x[k], p);
    }
    for (int o = 0; A->nz < 0 && o < outer && s == MCD_OK; o++) {
        for (int k = A->p[o]; k < A->p[o + 1] && s == MCD_OK; k++) {
            int row = A->nz == -1 ? A->i[k] : o, col = A->nz == -1 ? o : A->i[k];
            s = take_entry(path, name, A, k, row, col, err);
            if (s == MCD_OK) add_entry(z, role, row, col, A->x[k], p);
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

static void fill_vectors(const struct fclib_local *L, const fclib_sizes *z, mcd_fc3d *p)
{
    size_t n = (size_t)mcd_fc3d_size(p);
    for (int i = 0; i < z->nb; i++) p->q[i] = L->s[i];
    for (int i = 0; i < z->m; i++) p->q[contact_row(z, i)] = L->q[i];
    for (int k = 0; k < p->nc; k++) p->mu[k] = L->mu[k];
    for (int k = 0; z->dim == 2 && k < p->nc; k++) {
        size_t t1 = z->nb + 3 * k + 1, t2 = t1 + 1;
        p->W[t2 * n + t2] = p->W[t1 * n + t1] > 0 ? p->W[t1 * n + t1] : 1.0;
    }
}

static mcd_status convert(const char *path, const struct fclib_local *L, const fclib_sizes *z,
                          mcd_fc3d *p, mcd_error *err)
{
    mcd_status s = add_matrix(path, "W", L->W, z, ROLE_W, p, err);
    if (s == MCD_OK && z->nb) s = add_matrix(path, "V", L->V, z, ROLE_V, p, err);
    if (s == MCD_OK && z->nb) s = add_matrix(path, "R", L->R, z, ROLE_R, p, err);
    if (s == MCD_OK) s = take_vector(path, "q", L->q, z->m, 0, err);
    if (s == MCD_OK && z->nb) s = take_vector(path, "s", L->s, z->nb, 0, err);
    if (s == MCD_OK) s = take_vector(path, "mu", L->mu, z->m / z->dim, 1, err);
    if (s == MCD_OK) fill_vectors(L, z, p);
    return s;
}

/* libfclib's delete releases the members, not the problem record itself. */
static void delete_local(struct fclib_local *L)
{
    fclib_delete_local(L);
    free(L);
}

static mcd_status read_checked(const char *path, const fclib_sizes *z, mcd_problem_file *out,
                               mcd_error *err)
{
    struct fclib_local *L = fclib_read_local(path);
    if (!L) return mcd_fail(err, MCD_ERR_PARSE, "%s: libfclib cannot read the local problem", path);
    mcd_fc3d p = {0};
    mcd_status s = mcd_fc3d_alloc(&p, z->m / z->dim, z->nb, err);
    if (s == MCD_OK) s = convert(path, L, z, &p, err);
    delete_local(L);
    if (s != MCD_OK) {
        mcd_fc3d_free(&p);
        return s;
    }
    out->kind = MCD_PROBLEM_FC3D;
    out->dimension = z->dim;
    out->fc3d = p;
    return MCD_OK;
}

int mcd_problem_fclib_available(void)
{
    return 1;
}

mcd_status mcd_problem_read_fclib(const char *path, mcd_problem_file *out, mcd_error *err)
{
    if (!path || !out) return mcd_fail(err, MCD_ERR_ARG, "mcd_problem_read_fclib: NULL argument");
    memset(out, 0, sizeof *out);
    H5E_auto2_t handler;
    void *handler_data;
    H5Eget_auto2(H5E_DEFAULT, &handler, &handler_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    fclib_sizes z = {0, 0, 0};
    mcd_status s = check_file(path, &z, err);
    if (s == MCD_OK) s = read_checked(path, &z, out, err);
    H5Eset_auto2(H5E_DEFAULT, handler, handler_data);
    return s;
}

#endif

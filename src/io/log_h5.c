/* Trajectory log in HDF5 (include/mcdyn/log.h). Each per-step dataset is a
 * column: a buffer of BLOCK steps in memory, written as one hyperslab when
 * full; chunks of BLOCK steps, the sparse ones deflated (level 1, shuffle). */
#include "mcdyn/log.h"

#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../collision/mesh_load.h"
#include "mcdyn/spatial.h"

#define BLOCK   1000 /* steps per write and per chunk */
#define DEFLATE 1

enum { C_T, C_Q, C_QD, C_POSE, C_NC, C_IT, C_RES, C_CBODY, C_CPOINT, C_CNORMAL, C_CFORCE, NCOL };

/* One per-step dataset: shape (steps, dim[0], dim[1]) with rank 1..3. */
typedef struct log_column {
    const char *name;
    int rank, is_int;
    hsize_t dim[2];
    size_t width; /* values per step */
    hid_t dset;
    void *buf; /* BLOCK * width values */
} log_column;

struct mcd_log {
    char *path, *tmp;
    hid_t file;
    int nq, nv, nbody, slots, nbuf;
    hsize_t nwritten;
    log_column col[NCOL];
};

static mcd_status h5_fail(mcd_error *err, const mcd_log *log, const char *what)
{
    return mcd_fail(err, MCD_ERR_IO, "%s: HDF5: cannot %s", log->path, what);
}

static hid_t string_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    return t;
}

/* A fixed dataset of n values (int, double or strings), shape (n, width). */
static int write_fixed(hid_t g, const char *name, hid_t type, hsize_t n, hsize_t width,
                       const void *data)
{
    hsize_t dims[2] = {n, width};
    hid_t space = H5Screate_simple(width > 1 ? 2 : 1, dims, NULL);
    hid_t d = H5Dcreate2(g, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    herr_t e = d < 0 || (n > 0 && H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0);
    if (d >= 0) H5Dclose(d);
    H5Sclose(space);
    return e != 0;
}

/* The vertices of the model's mesh geoms (the points whose convex hull the
 * collision layer uses), scaled by geom_size as there: model/mesh_vertex
 * (N x 3, geom frame [m]) and model/geom_mesh_vertex (ngeom x 2: first row
 * and count, 0 0 for other geoms). */
static int write_mesh_vertices(hid_t g, const mcd_model *m)
{
    int *range = calloc((size_t)m->ngeom * 2 + 1, sizeof *range);
    double *all = NULL;
    size_t n = 0;
    int bad = !range;
    for (int k = 0; k < m->ngeom && !bad; k++) {
        if (m->geom[k].type != MCD_GEOM_MESH || !m->geom[k].mesh_path) continue;
        double *v = NULL, *grown = NULL;
        int nv = 0;
        mcd_error err = {0};
        bad = mcd_mesh_load_vertices(m->geom[k].mesh_path, "log", &v, &nv, &err) != MCD_OK ||
              n + (size_t)nv > INT32_MAX || !(grown = realloc(all, (n + (size_t)nv) * 3 * 8));
        if (!bad) {
            all = grown;
            for (int i = 0; i < 3 * nv; i++) all[3 * n + (size_t)i] = v[i] * m->geom[k].size[i % 3];
            range[2 * k] = (int)n, range[2 * k + 1] = nv;
            n += (size_t)nv;
        }
        free(v);
    }
    if (!bad) bad = write_fixed(g, "geom_mesh_vertex", H5T_NATIVE_INT, (hsize_t)m->ngeom, 2, range);
    if (!bad) bad = write_fixed(g, "mesh_vertex", H5T_NATIVE_DOUBLE, (hsize_t)n, 3, all);
    free(range), free(all);
    return bad;
}

static int write_model(hid_t file, const mcd_model *m)
{
    hid_t g = H5Gcreate2(file, "model", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return 1;
    const hsize_t nb = (hsize_t)m->nbody, ng = (hsize_t)m->ngeom;
    int *ibuf = calloc((size_t)(m->nbody + m->ngeom) * 2 + 1, sizeof *ibuf);
    double *dbuf = calloc((size_t)(m->nbody + m->ngeom) * 7 + 1, sizeof *dbuf);
    const char **names =
        calloc((size_t)(m->ngeom > m->nbody ? m->ngeom : m->nbody) + 1, sizeof *names);
    hid_t str = string_type();
    int bad = !ibuf || !dbuf || !names;
    if (!bad) {
        bad |= write_fixed(g, "body_name", str, nb, 1, m->body_name);
        bad |= write_fixed(g, "joint_name", str, nb, 1, m->joint_name);
        for (int k = 0; k < m->nbody; k++) ibuf[k] = m->body[k].parent;
        bad |= write_fixed(g, "body_parent", H5T_NATIVE_INT, nb, 1, ibuf);
        for (int k = 0; k < m->nbody; k++) mcd_v3_copy(dbuf + 3 * k, m->body[k].mass.com);
        bad |= write_fixed(g, "body_com", H5T_NATIVE_DOUBLE, nb, 3, dbuf);
        for (int k = 0; k < m->ngeom; k++) ibuf[k] = (int)m->geom[k].type;
        bad |= write_fixed(g, "geom_type", H5T_NATIVE_INT, ng, 1, ibuf);
        for (int k = 0; k < m->ngeom; k++) ibuf[k] = m->geom[k].body;
        bad |= write_fixed(g, "geom_body", H5T_NATIVE_INT, ng, 1, ibuf);
        for (int k = 0; k < m->ngeom; k++) memcpy(dbuf + 3 * k, m->geom[k].size, 3 * sizeof *dbuf);
        bad |= write_fixed(g, "geom_size", H5T_NATIVE_DOUBLE, ng, 3, dbuf);
        for (int k = 0; k < m->ngeom; k++) {
            mcd_v3_copy(dbuf + 7 * k, m->geom[k].pose.p);
            mcd_quat_from_m3(dbuf + 7 * k + 3, m->geom[k].pose.R);
        }
        bad |= write_fixed(g, "geom_pose", H5T_NATIVE_DOUBLE, ng, 7, dbuf);
        for (int k = 0; k < m->ngeom; k++)
            names[k] = m->geom[k].mesh_path ? m->geom[k].mesh_path : "";
        bad |= write_fixed(g, "geom_mesh", str, ng, 1, names);
        bad |= write_mesh_vertices(g, m);
    }
    H5Tclose(str);
    free(ibuf), free(dbuf), free(names);
    H5Gclose(g);
    return bad;
}

static int write_attribute(hid_t file, const char *name, const char *text)
{
    hid_t str = string_type(), space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(file, name, str, space, H5P_DEFAULT, H5P_DEFAULT);
    int bad = a < 0 || H5Awrite(a, str, &text) < 0;
    if (a >= 0) H5Aclose(a);
    H5Sclose(space), H5Tclose(str);
    return bad;
}

static void define_columns(mcd_log *log)
{
    const hsize_t s = (hsize_t)log->slots;
    const log_column def[NCOL] = {
        {"t", 1, 0, {0, 0}, 1, 0, NULL},
        {"q", 2, 0, {(hsize_t)log->nq, 0}, (size_t)log->nq, 0, NULL},
        {"qd", 2, 0, {(hsize_t)log->nv, 0}, (size_t)log->nv, 0, NULL},
        {"body_pose", 3, 0, {(hsize_t)log->nbody, 7}, (size_t)log->nbody * 7, 0, NULL},
        {"ncontacts", 1, 1, {0, 0}, 1, 0, NULL},
        {"iterations", 1, 1, {0, 0}, 1, 0, NULL},
        {"residual", 1, 0, {0, 0}, 1, 0, NULL},
        {"contact_body", 3, 1, {s, 2}, (size_t)s * 2, 0, NULL},
        {"contact_point", 3, 0, {s, 3}, (size_t)s * 3, 0, NULL},
        {"contact_normal", 3, 0, {s, 3}, (size_t)s * 3, 0, NULL},
        {"contact_force", 3, 0, {s, 3}, (size_t)s * 3, 0, NULL},
    };
    memcpy(log->col, def, sizeof def);
}

/* Creates the extendible dataset of column c in group g and its buffer.
 * Compression pays for the contact slots (mostly NaN and -1) and the
 * counters; the state (t, q, qd, poses) is dense doubles that deflate
 * shrinks by a quarter at several times the cost of the whole run. */
static int create_column(hid_t g, log_column *c, int compress)
{
    hsize_t dims[3] = {0, c->dim[0], c->dim[1]}, maxd[3] = {H5S_UNLIMITED, c->dim[0], c->dim[1]};
    hsize_t chunk[3] = {BLOCK, c->dim[0] ? c->dim[0] : 1, c->dim[1] ? c->dim[1] : 1};
    if (!(c->buf = calloc((size_t)BLOCK * (c->width ? c->width : 1), 8))) return 1;
    hid_t space = H5Screate_simple(c->rank, dims, maxd);
    hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(plist, c->rank, chunk);
    if (compress) H5Pset_shuffle(plist), H5Pset_deflate(plist, DEFLATE);
    c->dset = H5Dcreate2(g, c->name, c->is_int ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, space,
                         H5P_DEFAULT, plist, H5P_DEFAULT);
    H5Pclose(plist), H5Sclose(space);
    return c->dset < 0;
}

/* Writes the buffered steps of every column as hyperslabs. */
static int flush_block(mcd_log *log)
{
    if (log->nbuf == 0) return 0;
    int bad = 0;
    for (int k = 0; k < NCOL && !bad; k++) {
        log_column *c = &log->col[k];
        hsize_t size[3] = {log->nwritten + (hsize_t)log->nbuf, c->dim[0], c->dim[1]};
        hsize_t start[3] = {log->nwritten, 0, 0},
                count[3] = {(hsize_t)log->nbuf, c->dim[0], c->dim[1]};
        if (H5Dset_extent(c->dset, size) < 0) return 1;
        if (c->width == 0) continue;
        hid_t file_space = H5Dget_space(c->dset), mem = H5Screate_simple(c->rank, count, NULL);
        H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, count, NULL);
        bad = H5Dwrite(c->dset, c->is_int ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, mem, file_space,
                       H5P_DEFAULT, c->buf) < 0;
        H5Sclose(mem), H5Sclose(file_space);
    }
    log->nwritten += (hsize_t)log->nbuf;
    log->nbuf = 0;
    return bad;
}

static void close_handles(mcd_log *log)
{
    for (int k = 0; k < NCOL; k++) {
        if (log->col[k].dset > 0) H5Dclose(log->col[k].dset);
        free(log->col[k].buf);
        log->col[k].dset = 0, log->col[k].buf = NULL;
    }
    if (log->file > 0) H5Fclose(log->file);
    log->file = 0;
}

static void free_log(mcd_log *log)
{
    close_handles(log);
    free(log->path), free(log->tmp), free(log);
}

void mcd_log_discard(mcd_log *log)
{
    if (!log) return;
    close_handles(log);
    if (log->tmp) remove(log->tmp);
    free_log(log);
}

/* A fresh temporary name beside path. */
static char *temporary_name(const char *path)
{
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp) return NULL;
    snprintf(tmp, n, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return NULL;
    }
    const mode_t mask = umask(0); /* the final file's mode, not mkstemp's 0600 */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);
    return tmp;
}

static int create_file(mcd_log *log, const mcd_model *m, const char *scenario_text)
{
    log->file = H5Fcreate(log->tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (log->file < 0) return 1;
    int bad = write_attribute(log->file, "format", "mcdyn-log 1") ||
              write_attribute(log->file, "scenario", scenario_text ? scenario_text : "") ||
              write_model(log->file, m);
    hid_t g = bad ? -1 : H5Gcreate2(log->file, "steps", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    bad |= g < 0;
    for (int k = 0; k < NCOL && !bad; k++)
        bad = create_column(g, &log->col[k], k != C_RES && k >= C_NC);
    if (g >= 0) H5Gclose(g);
    return bad;
}

mcd_status mcd_log_open(const char *path, const mcd_model *m, const char *scenario_text,
                        int contact_slots, mcd_log **out, mcd_error *err)
{
    if (!path || !m || !out || contact_slots < 0)
        return mcd_fail(err, MCD_ERR_ARG, "mcd_log_open: NULL argument or negative slots");
    *out = NULL;
    mcd_log *log = calloc(1, sizeof *log);
    if (!log || !(log->path = strdup(path))) {
        free(log);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    }
    log->nq = m->nq, log->nv = m->nv, log->nbody = m->nbody;
    log->slots = contact_slots > 0 ? contact_slots : 1; /* HDF5 chunks need a nonzero size */
    define_columns(log);
    if (!(log->tmp = temporary_name(path))) {
        free_log(log);
        return mcd_fail(err, MCD_ERR_IO, "%s: cannot create a file beside it", path);
    }
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* errors become statuses, nothing printed */
    if (create_file(log, m, scenario_text)) {
        mcd_fail(err, MCD_ERR_IO, "%s: HDF5: cannot create the log", path);
        mcd_log_discard(log);
        return MCD_ERR_IO;
    }
    *out = log;
    return MCD_OK;
}

static void store_contacts(mcd_log *log, const mcd_log_step *s, int row)
{
    int *body = (int *)log->col[C_CBODY].buf + (size_t)row * log->slots * 2;
    double *pt = (double *)log->col[C_CPOINT].buf + (size_t)row * log->slots * 3;
    double *nr = (double *)log->col[C_CNORMAL].buf + (size_t)row * log->slots * 3;
    double *fc = (double *)log->col[C_CFORCE].buf + (size_t)row * log->slots * 3;
    for (int k = 0; k < log->slots; k++) {
        const int used = k < s->ncontacts;
        const mcd_log_contact *c = used ? &s->contact[k] : NULL;
        body[2 * k] = used ? c->body_a : -1, body[2 * k + 1] = used ? c->body_b : -1;
        for (int i = 0; i < 3; i++) {
            pt[3 * k + i] = used ? c->point[i] : NAN;
            nr[3 * k + i] = used ? c->normal[i] : NAN;
            fc[3 * k + i] = used ? c->force[i] : NAN;
        }
    }
}

mcd_status mcd_log_append(mcd_log *log, const mcd_log_step *s, mcd_error *err)
{
    if (!log || !s) return mcd_fail(err, MCD_ERR_ARG, "mcd_log_append: NULL argument");
    const int row = log->nbuf;
    ((double *)log->col[C_T].buf)[row] = s->t;
    memcpy((double *)log->col[C_Q].buf + (size_t)row * log->nq, s->q, (size_t)log->nq * 8);
    memcpy((double *)log->col[C_QD].buf + (size_t)row * log->nv, s->qd, (size_t)log->nv * 8);
    memcpy((double *)log->col[C_POSE].buf + (size_t)row * log->nbody * 7, s->body_pose,
           (size_t)log->nbody * 7 * 8);
    ((int *)log->col[C_NC].buf)[row] = s->ncontacts;
    ((int *)log->col[C_IT].buf)[row] = s->iterations;
    ((double *)log->col[C_RES].buf)[row] = s->residual;
    store_contacts(log, s, row);
    if (++log->nbuf == BLOCK && flush_block(log)) return h5_fail(err, log, "write a block");
    return MCD_OK;
}

mcd_status mcd_log_close(mcd_log *log, mcd_error *err)
{
    if (!log) return mcd_fail(err, MCD_ERR_ARG, "mcd_log_close: NULL log");
    int bad = flush_block(log);
    for (int k = 0; k < NCOL; k++) {
        bad |= log->col[k].dset > 0 && H5Dclose(log->col[k].dset) < 0;
        log->col[k].dset = 0;
    }
    bad |= H5Fclose(log->file) < 0;
    log->file = 0;
    if (bad || rename(log->tmp, log->path) != 0) {
        mcd_fail(err, MCD_ERR_IO, "%s: cannot finish the log (HDF5 write or rename failed)",
                 log->path);
        mcd_log_discard(log);
        return MCD_ERR_IO;
    }
    free_log(log);
    return MCD_OK;
}

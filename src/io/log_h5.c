/* Trajectory log in HDF5 (include/mcdyn/log.h). Each per-step dataset is a
 * column: a buffer of BLOCK steps in memory, written as one hyperslab when
 * full; chunks of BLOCK steps, the sparse ones deflated (level 1, shuffle).
 * The datasets of /contacts are columns too, with one row per contact
 * instead of per step, buffered and written CBLOCK contacts at a time. */
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
#define CBLOCK  4096 /* contacts per write and per chunk in /contacts */
#define DEFLATE 1

enum { C_T, C_Q, C_QD, C_POSE, C_NC, C_IT, C_RES, C_CBODY, C_CPOINT, C_CNORMAL, C_CFORCE, NCOL };
enum { R_BODY, R_POINT, R_NORMAL, R_FORCE, R_WORLD, NRAGGED }; /* the datasets of /contacts */

/* One per-step (or per-contact) dataset: shape (rows, dim[0], dim[1]) with
 * rank 1..3. */
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
    int ncbuf;         /* contacts buffered in ragged[] */
    hsize_t ncwritten; /* contacts written */
    log_column ragged[NRAGGED];
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

/* The mesh data of the log: vertices (N x 3) and triangles (T x 3) of all
 * meshes, and each shape's (first row, count) in them. */
typedef struct mesh_rows {
    double *vert;
    int *tri;
    size_t nvert, ntri;
} mesh_rows;

/* Room for nv more vertices and nt more triangles in R; 0 when the rows
 * outgrow an int (the ranges are ints) or memory ends. */
static int grow_rows(mesh_rows *R, int nv, int nt)
{
    if (R->nvert + (size_t)nv > INT32_MAX || R->ntri + (size_t)nt > INT32_MAX) return 0;
    double *v = realloc(R->vert, (R->nvert + (size_t)nv) * 3 * sizeof *v + 1);
    if (v) R->vert = v;
    int *t = v ? realloc(R->tri, (R->ntri + (size_t)nt) * 3 * sizeof *t + 1) : NULL;
    if (t) R->tri = t;
    return v && t;
}

/* Appends M's vertices scaled by shape's size, and its triangles (their
 * vertex indices counted from the shape's first vertex; the last two
 * swapped when the scale mirrors, which keeps the winding outward), to R;
 * range[0..1] = first vertex row and count, tri_range[0..1] the same for
 * the triangles. */
static int append_rows(mesh_rows *R, const mcd_geom *shape, const mcd_visual_mesh *M, int *range,
                       int *tri_range)
{
    if (!grow_rows(R, M->nvert, M->ntri)) return 1;
    const double *s = shape->size;
    for (size_t i = 0; i < 3 * (size_t)M->nvert; i++)
        R->vert[3 * R->nvert + i] = M->vert[i] * s[i % 3];
    const int mirror = s[0] * s[1] * s[2] < 0;
    for (size_t t = 0; t < (size_t)M->ntri; t++) {
        int *out = R->tri + 3 * (R->ntri + t);
        const int *in = M->tri + 3 * t;
        out[0] = in[0], out[1] = in[1 + mirror], out[2] = in[2 - mirror];
    }
    range[0] = (int)R->nvert, range[1] = M->nvert;
    R->nvert += (size_t)M->nvert;
    if (M->ntri > 0) tri_range[0] = (int)R->ntri, tri_range[1] = M->ntri;
    R->ntri += (size_t)M->ntri;
    return 0;
}

/* Appends the mesh vertices of the n shapes to R: a shape with triangles
 * in mesh[] (visual meshes; NULL for collision geoms) gives them, a mesh
 * shape without gives its file's vertices, the points whose convex hull
 * collision uses. range[2k..2k+1] = shape k's first vertex row and count,
 * tri_range the same for its triangles (0 0 for none). A file that does
 * not load fails the log when required (collision meshes, which the run
 * has loaded already), else the shape gets no vertices (the page draws
 * nothing). */
static int gather_meshes(const mcd_geom *shape, const mcd_visual_mesh *mesh, int n, int required,
                         mesh_rows *R, int *range, int *tri_range)
{
    for (int k = 0; k < n; k++) {
        if (shape[k].type != MCD_GEOM_MESH || !shape[k].mesh_path) continue;
        if (mesh && mesh[k].ntri > 0) {
            if (append_rows(R, &shape[k], &mesh[k], range + 2 * k, tri_range + 2 * k)) return 1;
            continue;
        }
        mcd_visual_mesh V = {0};
        mcd_error err = {0};
        if (mcd_mesh_load_vertices(shape[k].mesh_path, "log", &V.vert, &V.nvert, &err) != MCD_OK) {
            if (required) return 1;
            continue;
        }
        const int bad = append_rows(R, &shape[k], &V, range + 2 * k, tri_range + 2 * k);
        free(V.vert);
        if (bad) return 1;
    }
    return 0;
}

/* The vertices of the model's mesh geoms and visuals, scaled by their
 * sizes, and the triangles of its visual meshes: model/mesh_vertex (N x 3,
 * geom frame [m]), model/geom_mesh_vertex (ngeom x 2: first row and count,
 * 0 0 for other geoms), model/visual_mesh_vertex (the same per visual),
 * model/mesh_triangle (T x 3 vertex indices counted from the shape's first
 * vertex row) and model/visual_mesh_triangle (nvisual x 2: first row in
 * mesh_triangle and count, 0 0 for a visual drawn as a hull or a
 * primitive). */
static int write_meshes(hid_t g, const mcd_model *m)
{
    const size_t nv = (size_t)m->nvisual;
    int *range = calloc((size_t)m->ngeom * 2 + 4 * nv + 1, sizeof *range);
    int *visual_range = range ? range + 2 * m->ngeom : NULL;
    int *visual_tri = range ? visual_range + 2 * nv : NULL;
    int *unused = calloc((size_t)m->ngeom * 2 + 1, sizeof *unused); /* geoms have no triangles */
    mesh_rows R = {NULL, NULL, 0, 0};
    int bad = !range || !unused || gather_meshes(m->geom, NULL, m->ngeom, 1, &R, range, unused) ||
              gather_meshes(m->visual, m->visual_mesh, m->nvisual, 0, &R, visual_range, visual_tri);
    if (!bad) bad = write_fixed(g, "geom_mesh_vertex", H5T_NATIVE_INT, (hsize_t)m->ngeom, 2, range);
    if (!bad)
        bad = write_fixed(g, "visual_mesh_vertex", H5T_NATIVE_INT, (hsize_t)nv, 2, visual_range);
    if (!bad)
        bad = write_fixed(g, "visual_mesh_triangle", H5T_NATIVE_INT, (hsize_t)nv, 2, visual_tri);
    if (!bad) bad = write_fixed(g, "mesh_vertex", H5T_NATIVE_DOUBLE, (hsize_t)R.nvert, 3, R.vert);
    if (!bad) bad = write_fixed(g, "mesh_triangle", H5T_NATIVE_INT, (hsize_t)R.ntri, 3, R.tri);
    free(range), free(unused), free(R.vert), free(R.tri);
    return bad;
}

/* The datasets PREFIX_type, _body, _size, _pose and _mesh of n shapes;
 * ibuf, dbuf and names have room for n entries (7 doubles each). */
static int write_shapes(hid_t g, const char *prefix, const mcd_geom *shape, int n, int *ibuf,
                        double *dbuf, const char **names)
{
    const hsize_t ns = (hsize_t)n;
    char name[32];
    hid_t str = string_type();
    int bad = 0;
    for (int k = 0; k < n; k++) ibuf[k] = (int)shape[k].type;
    snprintf(name, sizeof name, "%s_type", prefix);
    bad |= write_fixed(g, name, H5T_NATIVE_INT, ns, 1, ibuf);
    for (int k = 0; k < n; k++) ibuf[k] = shape[k].body;
    snprintf(name, sizeof name, "%s_body", prefix);
    bad |= write_fixed(g, name, H5T_NATIVE_INT, ns, 1, ibuf);
    for (int k = 0; k < n; k++) memcpy(dbuf + 3 * k, shape[k].size, 3 * sizeof *dbuf);
    snprintf(name, sizeof name, "%s_size", prefix);
    bad |= write_fixed(g, name, H5T_NATIVE_DOUBLE, ns, 3, dbuf);
    for (int k = 0; k < n; k++) {
        mcd_v3_copy(dbuf + 7 * k, shape[k].pose.p);
        mcd_quat_from_m3(dbuf + 7 * k + 3, shape[k].pose.R);
    }
    snprintf(name, sizeof name, "%s_pose", prefix);
    bad |= write_fixed(g, name, H5T_NATIVE_DOUBLE, ns, 7, dbuf);
    for (int k = 0; k < n; k++) names[k] = shape[k].mesh_path ? shape[k].mesh_path : "";
    snprintf(name, sizeof name, "%s_mesh", prefix);
    bad |= write_fixed(g, name, str, ns, 1, names);
    H5Tclose(str);
    return bad;
}

static int write_model(hid_t file, const mcd_model *m)
{
    hid_t g = H5Gcreate2(file, "model", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return 1;
    const hsize_t nb = (hsize_t)m->nbody;
    int most = m->nbody > m->ngeom ? m->nbody : m->ngeom;
    most = most > m->nvisual ? most : m->nvisual;
    int *ibuf = calloc((size_t)most + 1, sizeof *ibuf);
    double *dbuf = calloc((size_t)most * 7 + 1, sizeof *dbuf);
    const char **names = calloc((size_t)most + 1, sizeof *names);
    hid_t str = string_type();
    int bad = !ibuf || !dbuf || !names;
    if (!bad) {
        bad |= write_fixed(g, "body_name", str, nb, 1, m->body_name);
        bad |= write_fixed(g, "joint_name", str, nb, 1, m->joint_name);
        for (int k = 0; k < m->nbody; k++) ibuf[k] = m->body[k].parent;
        bad |= write_fixed(g, "body_parent", H5T_NATIVE_INT, nb, 1, ibuf);
        for (int k = 0; k < m->nbody; k++) mcd_v3_copy(dbuf + 3 * k, m->body[k].mass.com);
        bad |= write_fixed(g, "body_com", H5T_NATIVE_DOUBLE, nb, 3, dbuf);
        bad |= write_shapes(g, "geom", m->geom, m->ngeom, ibuf, dbuf, names);
        bad |= write_shapes(g, "visual", m->visual, m->nvisual, ibuf, dbuf, names);
        bad |= write_meshes(g, m);
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
    const log_column ragged[NRAGGED] = {
        {"body", 2, 1, {2, 0}, 2, 0, NULL},        {"point", 2, 0, {3, 0}, 3, 0, NULL},
        {"normal", 2, 0, {3, 0}, 3, 0, NULL},      {"force", 2, 0, {3, 0}, 3, 0, NULL},
        {"force_world", 2, 0, {3, 0}, 3, 0, NULL},
    };
    memcpy(log->ragged, ragged, sizeof ragged);
}

/* Creates the extendible dataset of column c in group g and its buffer.
 * Compression pays for the contact slots (mostly NaN and -1) and the
 * counters; the state (t, q, qd, poses) is dense doubles that deflate
 * shrinks by a quarter at several times the cost of the whole run. */
static int create_column(hid_t g, log_column *c, hsize_t rows, int compress)
{
    hsize_t dims[3] = {0, c->dim[0], c->dim[1]}, maxd[3] = {H5S_UNLIMITED, c->dim[0], c->dim[1]};
    hsize_t chunk[3] = {rows, c->dim[0] ? c->dim[0] : 1, c->dim[1] ? c->dim[1] : 1};
    if (!(c->buf = calloc((size_t)rows * (c->width ? c->width : 1), 8))) return 1;
    hid_t space = H5Screate_simple(c->rank, dims, maxd);
    hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(plist, c->rank, chunk);
    if (compress) H5Pset_shuffle(plist), H5Pset_deflate(plist, DEFLATE);
    c->dset = H5Dcreate2(g, c->name, c->is_int ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, space,
                         H5P_DEFAULT, plist, H5P_DEFAULT);
    H5Pclose(plist), H5Sclose(space);
    return c->dset < 0;
}

/* Appends the n buffered rows of the ncol columns c, written rows before
 * them, as hyperslabs. */
static int flush_columns(log_column *c, int ncol, hsize_t written, int n)
{
    int bad = 0;
    for (int k = 0; k < ncol && !bad && n > 0; k++, c++) {
        hsize_t size[3] = {written + (hsize_t)n, c->dim[0], c->dim[1]};
        hsize_t start[3] = {written, 0, 0}, count[3] = {(hsize_t)n, c->dim[0], c->dim[1]};
        if (H5Dset_extent(c->dset, size) < 0) return 1;
        if (c->width == 0) continue;
        hid_t file_space = H5Dget_space(c->dset), mem = H5Screate_simple(c->rank, count, NULL);
        H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, count, NULL);
        bad = H5Dwrite(c->dset, c->is_int ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, mem, file_space,
                       H5P_DEFAULT, c->buf) < 0;
        H5Sclose(mem), H5Sclose(file_space);
    }
    return bad;
}

/* Writes the buffered steps of every per-step column. */
static int flush_block(mcd_log *log)
{
    int bad = flush_columns(log->col, NCOL, log->nwritten, log->nbuf);
    log->nwritten += (hsize_t)log->nbuf;
    log->nbuf = 0;
    return bad;
}

/* Writes the buffered contacts of /contacts. */
static int flush_contacts(mcd_log *log)
{
    int bad = flush_columns(log->ragged, NRAGGED, log->ncwritten, log->ncbuf);
    log->ncwritten += (hsize_t)log->ncbuf;
    log->ncbuf = 0;
    return bad;
}

static void close_columns(log_column *c, int ncol)
{
    for (int k = 0; k < ncol; k++) {
        if (c[k].dset > 0) H5Dclose(c[k].dset);
        free(c[k].buf);
        c[k].dset = 0, c[k].buf = NULL;
    }
}

static void close_handles(mcd_log *log)
{
    close_columns(log->col, NCOL);
    close_columns(log->ragged, NRAGGED);
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
        bad = create_column(g, &log->col[k], BLOCK, k != C_RES && k >= C_NC);
    if (g >= 0) H5Gclose(g);
    g = bad ? -1 : H5Gcreate2(log->file, "contacts", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    bad |= g < 0;
    for (int k = 0; k < NRAGGED && !bad; k++) bad = create_column(g, &log->ragged[k], CBLOCK, 0);
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

/* The first slots contacts of the step in row of the per-step columns. */
static void store_slots(mcd_log *log, const mcd_log_step *s, int row)
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

/* Every contact of the step into /contacts, a full buffer written out. */
static int store_contacts(mcd_log *log, const mcd_log_step *s)
{
    for (int k = 0; k < s->ncontacts; k++) {
        const mcd_log_contact *c = &s->contact[k];
        const size_t i = (size_t)log->ncbuf;
        int *body = (int *)log->ragged[R_BODY].buf + 2 * i;
        body[0] = c->body_a, body[1] = c->body_b;
        mcd_v3_copy((double *)log->ragged[R_POINT].buf + 3 * i, c->point);
        mcd_v3_copy((double *)log->ragged[R_NORMAL].buf + 3 * i, c->normal);
        mcd_v3_copy((double *)log->ragged[R_FORCE].buf + 3 * i, c->force);
        mcd_v3_copy((double *)log->ragged[R_WORLD].buf + 3 * i, c->force_world);
        if (++log->ncbuf == CBLOCK && flush_contacts(log)) return 1;
    }
    return 0;
}

mcd_status mcd_log_append(mcd_log *log, const mcd_log_step *s, mcd_error *err)
{
    if (!log || !s) return mcd_fail(err, MCD_ERR_ARG, "mcd_log_append: NULL argument");
    if (s->ncontacts < 0 || (s->ncontacts > 0 && !s->contact))
        return mcd_fail(err, MCD_ERR_ARG, "mcd_log_append: %d contacts without their array",
                        s->ncontacts);
    const int row = log->nbuf;
    ((double *)log->col[C_T].buf)[row] = s->t;
    memcpy((double *)log->col[C_Q].buf + (size_t)row * log->nq, s->q, (size_t)log->nq * 8);
    memcpy((double *)log->col[C_QD].buf + (size_t)row * log->nv, s->qd, (size_t)log->nv * 8);
    memcpy((double *)log->col[C_POSE].buf + (size_t)row * log->nbody * 7, s->body_pose,
           (size_t)log->nbody * 7 * 8);
    ((int *)log->col[C_NC].buf)[row] = s->ncontacts;
    ((int *)log->col[C_IT].buf)[row] = s->iterations;
    ((double *)log->col[C_RES].buf)[row] = s->residual;
    store_slots(log, s, row);
    if (store_contacts(log, s)) return h5_fail(err, log, "write a block of contacts");
    if (++log->nbuf == BLOCK && flush_block(log)) return h5_fail(err, log, "write a block");
    return MCD_OK;
}

mcd_status mcd_log_close(mcd_log *log, mcd_error *err)
{
    if (!log) return mcd_fail(err, MCD_ERR_ARG, "mcd_log_close: NULL log");
    int bad = flush_block(log) | flush_contacts(log);
    for (int k = 0; k < NCOL + NRAGGED; k++) {
        log_column *c = k < NCOL ? &log->col[k] : &log->ragged[k - NCOL];
        bad |= c->dset > 0 && H5Dclose(c->dset) < 0;
        c->dset = 0;
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

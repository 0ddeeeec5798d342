/* A run read back from its HDF5 log for the replay page (tools/view_run.h).
 * Every shape is checked against the model's sizes before anything is read:
 * a foreign or corrupt file gives a message, never a crash. */
#include "view_run.h"

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_ROWS 1000 /* steps read at once (the log's chunk) */

typedef struct reader {
    const char *path;
    hid_t file;
    char *msg;
    size_t msglen;
} reader;

static int fail(reader *r, const char *fmt, ...)
{
    int n = snprintf(r->msg, r->msglen, "%s: ", r->path);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < r->msglen) vsnprintf(r->msg + n, r->msglen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* The dataset name's shape: 0 when it exists with rank dims (the first
 * dimension returned in *rows), its trailing dimensions equal to tail[]. */
static int check_shape(reader *r, const char *name, int rank, const hsize_t *tail, hsize_t *rows)
{
    hid_t d = H5Lexists(r->file, name, H5P_DEFAULT) > 0 ? H5Dopen2(r->file, name, H5P_DEFAULT) : -1;
    if (d < 0) return fail(r, "not an mcdyn log: no dataset %s", name);
    hid_t space = H5Dget_space(d);
    hsize_t dims[3] = {0, 0, 0};
    int got = H5Sget_simple_extent_ndims(space);
    if (got == rank) H5Sget_simple_extent_dims(space, dims, NULL);
    H5Sclose(space), H5Dclose(d);
    int bad = got != rank;
    for (int k = 1; k < rank && !bad; k++) bad = dims[k] != tail[k - 1];
    if (bad) return fail(r, "dataset %s has an unexpected shape", name);
    *rows = dims[0];
    return 0;
}

/* Reads the whole dataset name as memtype into buf (sized by the caller
 * after check_shape). */
static int read_all(reader *r, const char *name, hid_t memtype, void *buf)
{
    hid_t d = H5Dopen2(r->file, name, H5P_DEFAULT);
    int bad = d < 0 || H5Dread(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0;
    if (d >= 0) H5Dclose(d);
    return bad ? fail(r, "cannot read %s", name) : 0;
}

static void *alloc_array(size_t n, size_t size)
{
    return n > SIZE_MAX / size / 2 ? NULL : calloc(n ? n : 1, size);
}

/* The root attribute "format" is the variable-length string "mcdyn-log 1". */
static int check_format(reader *r)
{
    hid_t a = H5Aexists(r->file, "format") > 0 ? H5Aopen(r->file, "format", H5P_DEFAULT) : -1;
    if (a < 0) return fail(r, "not an mcdyn log (no \"format\" attribute)");
    hid_t type = H5Aget_type(a), str = H5Tcopy(H5T_C_S1);
    H5Tset_size(str, H5T_VARIABLE);
    char *text = NULL;
    int ok = H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) > 0 &&
             H5Aread(a, str, &text) >= 0 && text && !strcmp(text, "mcdyn-log 1");
    H5free_memory(text);
    H5Tclose(str), H5Tclose(type), H5Aclose(a);
    return ok ? 0 : fail(r, "not an mcdyn log (format is not \"mcdyn-log 1\")");
}

static int read_body_names(reader *r, view_run *run)
{
    hsize_t n = 0;
    if (check_shape(r, "model/body_name", 1, NULL, &n)) return -1;
    if (n > INT32_MAX / 8) return fail(r, "too many bodies");
    run->nbody = (int)n;
    char **raw = alloc_array(n, sizeof *raw);
    run->body_name = alloc_array(n, sizeof *run->body_name);
    if (!raw || !run->body_name) return free(raw), fail(r, "out of memory");
    hid_t str = H5Tcopy(H5T_C_S1);
    H5Tset_size(str, H5T_VARIABLE);
    int bad = n > 0 && read_all(r, "model/body_name", str, raw);
    for (hsize_t k = 0; k < n && !bad; k++)
        bad = !(run->body_name[k] = strdup(raw[k] ? raw[k] : "")) ? fail(r, "out of memory") : 0;
    if (n > 0 && !bad) {
        hsize_t dims[1] = {n};
        hid_t space = H5Screate_simple(1, dims, NULL);
        H5Dvlen_reclaim(str, space, H5P_DEFAULT, raw);
        H5Sclose(space);
    }
    H5Tclose(str);
    free(raw);
    return bad;
}

/* model/body_parent: one entry per body, each a body before it or -1. */
static int read_body_parents(reader *r, view_run *run)
{
    hsize_t n = 0;
    if (check_shape(r, "model/body_parent", 1, NULL, &n)) return -1;
    if (n != (hsize_t)run->nbody) return fail(r, "model/body_parent is not one entry per body");
    if (!(run->body_parent = alloc_array(n, sizeof *run->body_parent)))
        return fail(r, "out of memory");
    if (n > 0 && read_all(r, "model/body_parent", H5T_NATIVE_INT, run->body_parent)) return -1;
    for (int k = 0; k < run->nbody; k++)
        if (run->body_parent[k] < -1 || run->body_parent[k] >= k)
            return fail(r, "model/body_parent of body %d is not an earlier body", k);
    return 0;
}

/* Mesh vertices of the n shapes from the optional /model/mesh_vertex
 * (older logs have none: the shape is then drawn without a mesh). */
static int read_meshes(reader *r, view_geom *shape, int n, const int *range)
{
    hsize_t nv = 0, three[1] = {3};
    if (H5Lexists(r->file, "model/mesh_vertex", H5P_DEFAULT) <= 0) return 0;
    if (check_shape(r, "model/mesh_vertex", 2, three, &nv)) return -1;
    double *v = alloc_array((size_t)nv * 3, sizeof *v);
    if (!v) return fail(r, "out of memory");
    int bad = nv > 0 && read_all(r, "model/mesh_vertex", H5T_NATIVE_DOUBLE, v);
    for (int k = 0; k < n && !bad; k++) {
        const long first = range[2 * k], count = range[2 * k + 1];
        if (first < 0 || count < 0 || (hsize_t)(first + count) > nv) {
            bad = fail(r, "a mesh vertex range of shape %d is out of range", k);
        } else if (count > 0) {
            view_geom *g = &shape[k];
            if (!(g->mesh = alloc_array((size_t)count * 3, sizeof *g->mesh)))
                bad = fail(r, "out of memory");
            for (long i = 0; i < 3 * count && !bad; i++) g->mesh[i] = (float)v[3 * first + i];
            g->nmesh = (int)count;
        }
    }
    free(v);
    return bad;
}

/* Triangles of the n shapes from the optional /model/mesh_triangle, by
 * the (first, count) rows of range (older logs have none: a mesh is then
 * drawn as the hull of its vertices). Every index must name one of the
 * shape's vertices. */
static int read_triangles(reader *r, view_geom *shape, int n, const int *range)
{
    hsize_t nt = 0, three[1] = {3};
    if (H5Lexists(r->file, "model/mesh_triangle", H5P_DEFAULT) <= 0) return 0;
    if (check_shape(r, "model/mesh_triangle", 2, three, &nt)) return -1;
    int *t = alloc_array((size_t)nt * 3, sizeof *t);
    if (!t) return fail(r, "out of memory");
    int bad = nt > 0 && read_all(r, "model/mesh_triangle", H5T_NATIVE_INT, t);
    for (int k = 0; k < n && !bad; k++) {
        const long first = range[2 * k], count = range[2 * k + 1];
        view_geom *g = &shape[k];
        if (first < 0 || count < 0 || (hsize_t)(first + count) > nt || (count > 0 && !g->nmesh))
            bad = fail(r, "a mesh triangle range of shape %d is out of range", k);
        else if (count > 0 && !(g->tri = alloc_array((size_t)count * 3, sizeof *g->tri)))
            bad = fail(r, "out of memory");
        for (long i = 0; i < 3 * count && !bad; i++) {
            g->tri[i] = t[3 * first + i];
            if (g->tri[i] < 0 || g->tri[i] >= g->nmesh)
                bad = fail(r, "triangle %ld of shape %d names vertex %d of %d", first + i / 3, k,
                           g->tri[i], g->nmesh);
        }
        if (!bad) g->ntri = (int)count;
    }
    free(t);
    return bad;
}

/* The optional model/visual_mesh_triangle (one row per visual) and the
 * triangles it points to. */
static int read_visual_triangles(reader *r, view_geom *shape, int n)
{
    hsize_t m = 0, two[1] = {2};
    if (H5Lexists(r->file, "model/visual_mesh_triangle", H5P_DEFAULT) <= 0) return 0;
    if (check_shape(r, "model/visual_mesh_triangle", 2, two, &m) || m != (hsize_t)n)
        return m != (hsize_t)n ? fail(r, "model/visual_mesh_triangle is not one row per visual")
                               : -1;
    int *range = alloc_array((size_t)n * 2, sizeof *range);
    if (!range) return fail(r, "out of memory");
    int bad = n > 0 && read_all(r, "model/visual_mesh_triangle", H5T_NATIVE_INT, range);
    if (!bad) bad = read_triangles(r, shape, n, range);
    free(range);
    return bad;
}

/* The shapes model/PREFIX_type, _body, _size, _pose and _mesh_vertex
 * into (*shape, *n); a missing PREFIX_type with optional set reads none. */
static int read_shapes(reader *r, const char *prefix, int optional, int nbody, view_geom **shape,
                       int *nshape)
{
    char name[5][48];
    const char *part[5] = {"type", "body", "size", "pose", "mesh_vertex"};
    for (int k = 0; k < 5; k++) snprintf(name[k], sizeof name[k], "model/%s_%s", prefix, part[k]);
    if (optional && H5Lexists(r->file, name[0], H5P_DEFAULT) <= 0) return 0;
    hsize_t n = 0, m = 0, three[1] = {3}, seven[1] = {7}, two[1] = {2};
    if (check_shape(r, name[0], 1, NULL, &n)) return -1;
    if (n > INT32_MAX / 8) return fail(r, "too many %ss", prefix);
    *nshape = (int)n;
    const hsize_t *tails[] = {NULL, three, seven};
    for (int k = 1; k < 4; k++)
        if (check_shape(r, name[k], k > 1 ? 2 : 1, tails[k - 1], &m) || m != n)
            return m != n ? fail(r, "%s does not have one row per %s", name[k], prefix) : -1;
    int has_mesh = H5Lexists(r->file, name[4], H5P_DEFAULT) > 0;
    if (has_mesh && (check_shape(r, name[4], 2, two, &m) || m != n))
        return m != n ? fail(r, "%s does not have one row per %s", name[4], prefix) : -1;
    int *ival = alloc_array(n * 3, sizeof *ival);
    double *dval = alloc_array(n * 10, sizeof *dval);
    *shape = alloc_array(n, sizeof **shape);
    int bad = !ival || !dval || !*shape ? fail(r, "out of memory") : 0;
    if (!bad && n > 0)
        bad = read_all(r, name[0], H5T_NATIVE_INT, ival) ||
              read_all(r, name[1], H5T_NATIVE_INT, ival + n) ||
              read_all(r, name[2], H5T_NATIVE_DOUBLE, dval) ||
              read_all(r, name[3], H5T_NATIVE_DOUBLE, dval + 3 * n);
    for (hsize_t k = 0; k < n && !bad; k++) {
        view_geom *g = &(*shape)[k];
        g->type = ival[k], g->body = ival[n + k];
        if (g->body < -1 || g->body >= nbody)
            bad = fail(r, "%s %d is on body %d, not in the model", prefix, (int)k, g->body);
        memcpy(g->size, dval + 3 * k, sizeof g->size);
        memcpy(g->pose, dval + 3 * n + 7 * k, sizeof g->pose);
    }
    if (!bad && has_mesh && n > 0) {
        /* (first, count) pairs in place of the bodies, which are copied above */
        bad = read_all(r, name[4], H5T_NATIVE_INT, ival + n);
        if (!bad) bad = read_meshes(r, *shape, (int)n, ival + n);
    }
    free(ival), free(dval);
    return bad;
}

/* The rows of /steps/t kept at fps frames per second: the first, then each
 * step at or past the next frame time, and the last. */
static int pick_frames(reader *r, const double *t, hsize_t n, double fps, long **pick, long *npick)
{
    if (!(*pick = alloc_array(n, sizeof **pick))) return fail(r, "out of memory");
    long m = 0;
    double next = -INFINITY;
    for (hsize_t i = 0; i < n; i++) {
        if (!isfinite(t[i]) || (i > 0 && t[i] < t[i - 1]))
            return fail(r, "steps/t is not a nondecreasing list of times (row %llu)",
                        (unsigned long long)i);
        if (t[i] >= next || i + 1 == n) {
            (*pick)[m++] = (long)i;
            next = t[i] + (1 - 1e-6) / fps; /* a step a rounding error early still counts */
        }
    }
    *npick = m;
    return 0;
}

/* Copies the picked rows (width values each) of dataset name into out as
 * floats (or ints), reading BLOCK_ROWS rows at a time. */
static int read_picked(reader *r, const char *name, int rank, size_t width, int is_int,
                       const long *pick, long npick, hsize_t nrow, void *out)
{
    hid_t d = H5Dopen2(r->file, name, H5P_DEFAULT);
    double *block = alloc_array((size_t)BLOCK_ROWS * width, sizeof *block);
    int bad = d < 0 || !block;
    hid_t file_space = bad ? -1 : H5Dget_space(d);
    hsize_t dims[3] = {0, 1, 1};
    if (!bad) H5Sget_simple_extent_dims(file_space, dims, NULL);
    long p = 0;
    for (hsize_t b = 0; b < nrow && p < npick && !bad; b += BLOCK_ROWS) {
        hsize_t start[3] = {b, 0, 0},
                count[3] = {nrow - b < BLOCK_ROWS ? nrow - b : BLOCK_ROWS, dims[1], dims[2]};
        if ((hsize_t)pick[p] >= b + count[0]) continue;
        hid_t mem = H5Screate_simple(rank, count, NULL);
        H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, count, NULL);
        bad = H5Dread(d, is_int ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, mem, file_space, H5P_DEFAULT,
                      block) < 0;
        H5Sclose(mem);
        for (; !bad && p < npick && (hsize_t)pick[p] < b + count[0]; p++) {
            const size_t row = (size_t)((hsize_t)pick[p] - b) * width;
            for (size_t i = 0; i < width; i++)
                if (is_int)
                    ((int *)out)[(size_t)p * width + i] = ((const int *)block)[row + i];
                else
                    ((float *)out)[(size_t)p * width + i] = (float)block[row + i];
        }
    }
    if (file_space >= 0) H5Sclose(file_space);
    if (d >= 0) H5Dclose(d);
    free(block);
    return bad ? fail(r, "cannot read %s", name) : 0;
}

/* Row offsets in /contacts of every step: first[i] = the sum of the counts
 * before step i, first[n] the total, which must be the rows of /contacts. */
static int contact_offsets(reader *r, const int *count, hsize_t n, hsize_t rows, long long *first)
{
    first[0] = 0;
    for (hsize_t i = 0; i < n; i++) {
        if (count[i] < 0 || (unsigned long long)first[i] + (unsigned)count[i] > rows)
            return fail(r, "steps/ncontacts (step %llu) does not match /contacts",
                        (unsigned long long)i);
        first[i + 1] = first[i] + count[i];
    }
    if ((hsize_t)first[n] != rows)
        return fail(r, "/contacts has %llu rows, steps/ncontacts counts %lld",
                    (unsigned long long)rows, first[n]);
    return 0;
}

/* The contacts of the picked steps from the /contacts dataset name (3
 * values per contact) into out as floats. */
static int read_contacts(reader *r, const char *name, const long *pick, long npick,
                         const long long *first, float *out)
{
    hid_t d = H5Dopen2(r->file, name, H5P_DEFAULT);
    hid_t file_space = d >= 0 ? H5Dget_space(d) : -1;
    int bad = d < 0 || file_space < 0;
    double buf[3 * 64];
    size_t o = 0;
    for (long p = 0; p < npick && !bad; p++)
        for (long long c = first[pick[p]]; c < first[pick[p] + 1] && !bad; c += 64) {
            const long long left = first[pick[p] + 1] - c;
            hsize_t start[2] = {(hsize_t)c, 0}, count[2] = {(hsize_t)(left < 64 ? left : 64), 3};
            hid_t mem = H5Screate_simple(2, count, NULL);
            H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, count, NULL);
            bad = H5Dread(d, H5T_NATIVE_DOUBLE, mem, file_space, H5P_DEFAULT, buf) < 0;
            H5Sclose(mem);
            for (hsize_t i = 0; i < 3 * count[0] && !bad; i++) out[o++] = (float)buf[i];
        }
    if (file_space >= 0) H5Sclose(file_space);
    if (d >= 0) H5Dclose(d);
    return bad ? fail(r, "cannot read %s", name) : 0;
}

/* /contacts: the contacts of the picked steps, all of them. */
static int read_all_contacts(reader *r, view_run *run, const long *pick, hsize_t n)
{
    static const char *const name[] = {"contacts/point", "contacts/normal", "contacts/force_world"};
    hsize_t rows = 0, m = 0, three[1] = {3};
    for (int k = 0; k < 3; k++)
        if (check_shape(r, name[k], 2, three, k ? &m : &rows) || (k && m != rows))
            return k && m != rows ? fail(r, "%s is not one row per contact", name[k]) : -1;
    int *count = alloc_array(n, sizeof *count);
    long long *first = alloc_array(n + 1, sizeof *first);
    int bad = !count || !first ? fail(r, "out of memory")
                               : read_all(r, "steps/ncontacts", H5T_NATIVE_INT, count) ||
                                     contact_offsets(r, count, n, rows, first);
    long total = 0;
    for (long p = 0; p < run->nframe && !bad; p++) total += count[pick[p]];
    run->ncontact = total;
    float **out[] = {&run->contact_point, &run->contact_normal, &run->contact_force};
    for (int k = 0; k < 3 && !bad; k++) {
        if (!(*out[k] = alloc_array((size_t)total * 3 + 1, sizeof(float))))
            bad = fail(r, "out of memory");
        else
            bad = read_contacts(r, name[k], pick, run->nframe, first, *out[k]);
    }
    free(count), free(first);
    return bad;
}

static int read_steps(reader *r, view_run *run, double fps)
{
    hsize_t n = 0, m = 0, pose_tail[2] = {(hsize_t)run->nbody, 7};
    if (check_shape(r, "steps/t", 1, NULL, &n)) return -1;
    if (n == 0) return fail(r, "the log has no recorded step");
    if (check_shape(r, "steps/ncontacts", 1, NULL, &m) || m != n ||
        check_shape(r, "steps/body_pose", 3, pose_tail, &m) || m != n)
        return m != n ? fail(r, "steps/ncontacts or steps/body_pose is not one row per step") : -1;
    double *t = alloc_array(n, sizeof *t);
    long *pick = NULL, np = 0;
    int bad = !t ? fail(r, "out of memory") : read_all(r, "steps/t", H5T_NATIVE_DOUBLE, t);
    if (!bad) bad = pick_frames(r, t, n, fps, &pick, &np);
    const size_t nb7 = (size_t)run->nbody * 7;
    if (!bad) {
        run->nframe = np;
        run->t = alloc_array((size_t)np, sizeof *run->t);
        run->ncontacts = alloc_array((size_t)np, sizeof *run->ncontacts);
        run->pose = alloc_array((size_t)np * (nb7 ? nb7 : 1), sizeof *run->pose);
        bad = !run->t || !run->ncontacts || !run->pose;
        if (bad) fail(r, "out of memory");
    }
    for (long i = 0; i < np && !bad; i++) run->t[i] = (float)t[pick[i]];
    if (!bad)
        bad = read_picked(r, "steps/ncontacts", 1, 1, 1, pick, np, n, run->ncontacts) ||
              (nb7 && read_picked(r, "steps/body_pose", 3, nb7, 0, pick, np, n, run->pose)) ||
              read_all_contacts(r, run, pick, n);
    free(t), free(pick);
    return bad;
}

int view_run_read(const char *path, double fps, view_run *run, char *msg, size_t msglen)
{
    memset(run, 0, sizeof *run);
    reader r = {path, -1, msg, msglen};
    FILE *f = fopen(path, "rb");
    if (!f) return fail(&r, "cannot open: %s", strerror(errno));
    fclose(f);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* errors become messages, nothing printed */
    if (H5Fis_hdf5(path) <= 0) return fail(&r, "not an HDF5 file");
    if ((r.file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0)
        return fail(&r, "cannot open as HDF5 (corrupt file?)");
    int bad = check_format(&r) || read_body_names(&r, run) || read_body_parents(&r, run) ||
              read_shapes(&r, "geom", 0, run->nbody, &run->geom, &run->ngeom) ||
              read_shapes(&r, "visual", 1, run->nbody, &run->visual, &run->nvisual) ||
              read_visual_triangles(&r, run->visual, run->nvisual) || read_steps(&r, run, fps);
    H5Fclose(r.file);
    if (bad) view_run_free(run);
    return bad ? -1 : 0;
}

void view_run_free(view_run *run)
{
    for (int k = 0; run->body_name && k < run->nbody; k++) free(run->body_name[k]);
    for (int k = 0; run->geom && k < run->ngeom; k++) free(run->geom[k].mesh);
    for (int k = 0; run->visual && k < run->nvisual; k++)
        free(run->visual[k].mesh), free(run->visual[k].tri);
    free(run->visual);
    free(run->body_name), free(run->body_parent), free(run->geom), free(run->t), free(run->pose),
        free(run->ncontacts);
    free(run->contact_point), free(run->contact_normal), free(run->contact_force);
    memset(run, 0, sizeof *run);
}

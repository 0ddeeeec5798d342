/* Vertices of STL and OBJ mesh files (src/collision/mesh_load.h). */
#include "mesh_load.h"

#include "mcdyn/spatial.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A growing vertex list. */
typedef struct vertex_list {
    double *v;
    int n, cap;
} vertex_list;

static int push_vertex(vertex_list *L, const double x[3])
{
    if (L->n == L->cap) {
        if (L->cap > INT_MAX / 2 - 1) return 0;
        int cap = L->cap ? 2 * L->cap : 64;
        double *v = realloc(L->v, (size_t)cap * 3 * sizeof *v);
        if (!v) return 0;
        L->v = v, L->cap = cap;
    }
    memcpy(L->v + 3 * L->n, x, 3 * sizeof *x);
    L->n++;
    return 1;
}

static int has_extension(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n > e && strcasecmp(path + n - e, ext) == 0;
}

/* The whole file, NUL-terminated, in *buf (size in *size). */
static mcd_status read_file(const char *path, char **buf, size_t *size, mcd_error *err)
{
    *buf = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return mcd_fail(err, MCD_ERR_IO, "mesh '%s': cannot open: %s", path, strerror(errno));
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0) len = ftell(f);
    if (len < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return mcd_fail(err, MCD_ERR_IO, "mesh '%s': cannot read", path);
    }
    char *b = malloc((size_t)len + 1);
    if (!b) {
        fclose(f);
        return mcd_fail(err, MCD_ERR_NOMEM, "mesh '%s': out of memory (%ld bytes)", path, len);
    }
    size_t got = fread(b, 1, (size_t)len, f);
    int bad = ferror(f);
    fclose(f);
    if (bad || got != (size_t)len) {
        free(b);
        return mcd_fail(err, MCD_ERR_IO, "mesh '%s': cannot read", path);
    }
    b[len] = '\0';
    *buf = b;
    *size = (size_t)len;
    return MCD_OK;
}

static int line_of(const char *buf, const char *at)
{
    int line = 1;
    for (const char *c = buf; c < at; c++) line += *c == '\n';
    return line;
}

/* Reads three finite numbers at *s; advances *s past them. */
static int read_xyz(const char **s, double x[3])
{
    for (int i = 0; i < 3; i++) {
        char *end;
        x[i] = strtod(*s, &end);
        if (end == *s || !isfinite(x[i])) return 0;
        *s = end;
    }
    return 1;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float le_float(const unsigned char *p)
{
    uint32_t u = le32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static mcd_status stl_binary(const char *path, const unsigned char *b, uint32_t ntri,
                             vertex_list *L, mcd_error *err)
{
    for (uint32_t t = 0; t < ntri; t++) {
        const unsigned char *tri = b + 84 + 50 * (size_t)t;
        for (int k = 0; k < 3; k++) {
            const unsigned char *p = tri + 12 + 12 * k;
            double x[3] = {le_float(p), le_float(p + 4), le_float(p + 8)};
            if (!mcd_v3_isfinite(x))
                return mcd_fail(err, MCD_ERR_PARSE,
                                "mesh '%s': binary STL triangle %u has a non-finite vertex", path,
                                (unsigned)t);
            if (!push_vertex(L, x))
                return mcd_fail(err, MCD_ERR_NOMEM, "mesh '%s': out of memory", path);
        }
    }
    return MCD_OK;
}

static int is_word(const char *s, const char *word, size_t n)
{
    return strncmp(s, word, n) == 0 && (isspace((unsigned char)s[n]) || s[n] == '\0');
}

static mcd_status stl_ascii(const char *path, const char *buf, vertex_list *L, mcd_error *err)
{
    const char *s = buf;
    while (*s) {
        while (isspace((unsigned char)*s)) s++;
        if (!*s) break;
        if (is_word(s, "vertex", 6)) {
            const char *at = s;
            s += 6;
            double x[3];
            if (!read_xyz(&s, x))
                return mcd_fail(err, MCD_ERR_PARSE,
                                "mesh '%s': line %d: 'vertex' needs three finite numbers", path,
                                line_of(buf, at));
            if (!push_vertex(L, x))
                return mcd_fail(err, MCD_ERR_NOMEM, "mesh '%s': out of memory", path);
            continue;
        }
        while (*s && !isspace((unsigned char)*s)) s++;
    }
    return MCD_OK;
}

static mcd_status load_stl(const char *path, const char *buf, size_t size, vertex_list *L,
                           mcd_error *err)
{
    const unsigned char *b = (const unsigned char *)buf;
    if (size >= 84) {
        uint32_t ntri = le32(b + 80);
        if ((size - 84) / 50 == ntri && (size - 84) % 50 == 0)
            return stl_binary(path, b, ntri, L, err);
    }
    const char *s = buf;
    while (isspace((unsigned char)*s)) s++;
    if (strncmp(s, "solid", 5) != 0)
        return mcd_fail(err, MCD_ERR_PARSE,
                        "mesh '%s': neither binary STL (size %zu does not match its triangle "
                        "count) nor ASCII STL (no 'solid' header)",
                        path, size);
    if (memchr(buf, '\0', size))
        return mcd_fail(err, MCD_ERR_PARSE, "mesh '%s': ASCII STL holds binary data", path);
    return stl_ascii(path, buf, L, err);
}

static mcd_status load_obj(const char *path, const char *buf, vertex_list *L, mcd_error *err)
{
    const char *s = buf;
    while (*s) {
        while (*s == ' ' || *s == '\t') s++;
        if (s[0] == 'v' && (s[1] == ' ' || s[1] == '\t')) {
            const char *at = s;
            s += 2;
            double x[3];
            if (!read_xyz(&s, x))
                return mcd_fail(err, MCD_ERR_PARSE,
                                "mesh '%s': line %d: 'v' needs three finite numbers", path,
                                line_of(buf, at));
            if (!push_vertex(L, x))
                return mcd_fail(err, MCD_ERR_NOMEM, "mesh '%s': out of memory", path);
        }
        s = strchr(s, '\n');
        if (!s) break;
        s++;
    }
    return MCD_OK;
}

mcd_status mcd_mesh_load_vertices(const char *path, double **verts, int *nverts, mcd_error *err)
{
    *verts = NULL;
    *nverts = 0;
    int stl = has_extension(path, ".stl"), obj = has_extension(path, ".obj");
    if (!stl && !obj)
        return mcd_fail(err, MCD_ERR_UNSUPPORTED,
                        "mesh '%s': unsupported format (collision meshes must be .stl or .obj)",
                        path);
    char *buf;
    size_t size = 0;
    mcd_status s = read_file(path, &buf, &size, err);
    if (s != MCD_OK) return s;
    vertex_list L = {NULL, 0, 0};
    s = stl ? load_stl(path, buf, size, &L, err) : load_obj(path, buf, &L, err);
    free(buf);
    if (s == MCD_OK && L.n == 0) s = mcd_fail(err, MCD_ERR_PARSE, "mesh '%s': no vertices", path);
    if (s != MCD_OK) {
        free(L.v);
        return s;
    }
    *verts = L.v;
    *nverts = L.n;
    return MCD_OK;
}

/* Index of the point farthest from x along the metric dist(). */
static int farthest(const double *v, int n, double (*dist)(const double *, const double *),
                    const double *ref, double *d)
{
    int best = 0;
    *d = -1.0;
    for (int i = 0; i < n; i++) {
        double di = dist(v + 3 * i, ref);
        if (di > *d) *d = di, best = i;
    }
    return best;
}

/* ref = [a, b]: distance of x to point a */
static double dist_point(const double *x, const double *ref)
{
    double t[3];
    mcd_v3_sub(t, x, ref);
    return mcd_v3_norm(t);
}

/* ref = [a, unit u]: distance of x to the line through a along u */
static double dist_line(const double *x, const double *ref)
{
    double t[3], c[3];
    mcd_v3_sub(t, x, ref);
    mcd_v3_cross(c, t, ref + 3);
    return mcd_v3_norm(c);
}

/* ref = [a, unit n]: distance of x to the plane through a with normal n */
static double dist_plane(const double *x, const double *ref)
{
    double t[3];
    mcd_v3_sub(t, x, ref);
    return fabs(mcd_v3_dot(t, ref + 3));
}

int mcd_mesh_is_solid(const double *verts, int nverts)
{
    if (nverts < 4) return 0;
    double ref[6], d;
    int i1 = farthest(verts, nverts, dist_point, verts, &d);
    double extent = d;
    if (!(extent > 0)) return 0;
    mcd_v3_copy(ref, verts);
    mcd_v3_sub(ref + 3, verts + 3 * i1, verts);
    mcd_v3_scale(ref + 3, ref + 3, 1.0 / extent);
    int i2 = farthest(verts, nverts, dist_line, ref, &d);
    if (!(d > 1e-9 * extent)) return 0;
    double e1[3], e2[3], nrm[3];
    mcd_v3_sub(e1, verts + 3 * i1, verts);
    mcd_v3_sub(e2, verts + 3 * i2, verts);
    mcd_v3_cross(nrm, e1, e2);
    mcd_v3_scale(ref + 3, nrm, 1.0 / mcd_v3_norm(nrm));
    farthest(verts, nverts, dist_plane, ref, &d);
    return d > 1e-9 * extent;
}

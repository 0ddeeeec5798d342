/* Vertices and triangles of mesh files through Assimp
 * (src/collision/mesh_load.h). */
#include "mesh_load.h"

#include "mcdyn/spatial.h"

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The vertices gathered from the node tree. */
typedef struct vertex_list {
    double *v;
    int n, cap;
} vertex_list;

/* Room for more vertices in L; 0 when the count overflows or memory ends. */
static int reserve_vertices(vertex_list *L, unsigned more)
{
    if (more > (unsigned)(INT_MAX / 3 - L->n)) return 0;
    int need = L->n + (int)more;
    if (need <= L->cap) return 1;
    int cap = L->cap > INT_MAX / 6 ? INT_MAX / 3 : 2 * L->cap;
    if (cap < need) cap = need;
    double *v = realloc(L->v, (size_t)cap * 3 * sizeof *v);
    if (!v) return 0;
    L->v = v, L->cap = cap;
    return 1;
}

/* y = T x for Assimp's row-major 4x4 transform (translation in column 4). */
static void transform_point(double y[3], const struct aiMatrix4x4 *T, const struct aiVector3D *x)
{
    const ai_real *r = &T->a1;
    for (int i = 0; i < 3; i++)
        y[i] = (double)r[4 * i] * x->x + (double)r[4 * i + 1] * x->y + (double)r[4 * i + 2] * x->z +
               (double)r[4 * i + 3];
}

/* Appends the vertices of node's meshes, placed by T (node frame in the
 * file's root frame), then recurses into its children. */
static mcd_status gather(const char *path, const struct aiScene *sc, const struct aiNode *node,
                         const struct aiMatrix4x4 *T, vertex_list *L, mcd_error *err)
{
    for (unsigned k = 0; k < node->mNumMeshes; k++) {
        const struct aiMesh *mesh = sc->mMeshes[node->mMeshes[k]];
        if (!reserve_vertices(L, mesh->mNumVertices))
            return mcd_fail(err, MCD_ERR_NOMEM, "mesh '%s': out of memory", path);
        for (unsigned i = 0; i < mesh->mNumVertices; i++) {
            double *x = L->v + 3 * L->n;
            transform_point(x, T, &mesh->mVertices[i]);
            if (!mcd_v3_isfinite(x))
                return mcd_fail(err, MCD_ERR_PARSE, "mesh '%s': vertex %u of mesh %u is not finite",
                                path, i, node->mMeshes[k]);
            L->n++;
        }
    }
    for (unsigned c = 0; c < node->mNumChildren; c++) {
        struct aiMatrix4x4 Tc = *T;
        aiMultiplyMatrix4(&Tc, &node->mChildren[c]->mTransformation);
        mcd_status s = gather(path, sc, node->mChildren[c], &Tc, L, err);
        if (s != MCD_OK) return s;
    }
    return MCD_OK;
}

/* The Assimp scene of path in *sc, post-processed by steps (release with
 * aiReleaseImport). */
static mcd_status import(const char *path, unsigned steps, const struct aiScene **sc,
                         mcd_error *err)
{
    *sc = NULL;
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/') || !aiIsExtensionSupported(dot))
        return mcd_fail(err, MCD_ERR_UNSUPPORTED,
                        "mesh '%s': unsupported format (no importer for this file extension)",
                        path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        int error = errno;
        char reason[128];
        if (strerror_r(error, reason, sizeof reason) != 0) /* POSIX form: thread-safe */
            snprintf(reason, sizeof reason, "error %d", error);
        return mcd_fail(err, MCD_ERR_IO, "mesh '%s': cannot open: %s", path, reason);
    }
    fclose(f);
    struct aiPropertyStore *props = aiCreatePropertyStore();
    if (!props) return mcd_fail(err, MCD_ERR_NOMEM, "mesh '%s': out of memory", path);
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, 1);
    *sc = aiImportFileExWithProperties(path, aiProcess_ValidateDataStructure | steps, NULL, props);
    aiReleasePropertyStore(props);
    if (!*sc)
        return mcd_fail(err, MCD_ERR_PARSE, "mesh '%s': cannot be read: %s", path,
                        aiGetErrorString());
    return MCD_OK;
}

/* mcd_mesh_load_vertices without the link in the messages. */
static mcd_status load_vertices(const char *path, double **verts, int *nverts, mcd_error *err)
{
    *verts = NULL;
    *nverts = 0;
    const struct aiScene *sc;
    mcd_status s = import(path, 0, &sc, err);
    if (s != MCD_OK) return s;
    vertex_list L = {NULL, 0, 0};
    if (sc->mRootNode)
        s = gather(path, sc, sc->mRootNode, &sc->mRootNode->mTransformation, &L, err);
    aiReleaseImport(sc);
    if (s == MCD_OK && L.n == 0) s = mcd_fail(err, MCD_ERR_PARSE, "mesh '%s': no vertices", path);
    if (s != MCD_OK) {
        free(L.v);
        return s;
    }
    *verts = L.v;
    *nverts = L.n;
    return MCD_OK;
}

/* The vertices and triangles of the meshes placed by node and its
 * descendants: *nvert and *ntri grow by their counts (faces of 3 indices;
 * after aiProcess_Triangulate the others are points and lines). */
static void count_triangles(const struct aiScene *sc, const struct aiNode *node, long long *nvert,
                            long long *ntri)
{
    for (unsigned k = 0; k < node->mNumMeshes; k++) {
        const struct aiMesh *mesh = sc->mMeshes[node->mMeshes[k]];
        *nvert += mesh->mNumVertices;
        for (unsigned f = 0; f < mesh->mNumFaces; f++) *ntri += mesh->mFaces[f].mNumIndices == 3;
    }
    for (unsigned c = 0; c < node->mNumChildren; c++)
        count_triangles(sc, node->mChildren[c], nvert, ntri);
}

/* Appends the vertices (placed by T) and the triangles of one mesh to M,
 * whose arrays have room for them. */
static mcd_status append_mesh(const char *path, const struct aiMesh *mesh,
                              const struct aiMatrix4x4 *T, mcd_visual_mesh *M, mcd_error *err)
{
    const int first = M->nvert;
    for (unsigned i = 0; i < mesh->mNumVertices; i++) {
        double *x = M->vert + 3 * (size_t)M->nvert++;
        transform_point(x, T, &mesh->mVertices[i]);
        if (!mcd_v3_isfinite(x))
            return mcd_fail(err, MCD_ERR_PARSE, "mesh '%s': vertex %u is not finite", path, i);
    }
    for (unsigned f = 0; f < mesh->mNumFaces; f++) {
        const struct aiFace *face = &mesh->mFaces[f];
        if (face->mNumIndices != 3) continue;
        int *t = M->tri + 3 * (size_t)M->ntri++;
        for (int j = 0; j < 3; j++) {
            if (face->mIndices[j] >= mesh->mNumVertices)
                return mcd_fail(err, MCD_ERR_PARSE, "mesh '%s': face %u names a missing vertex",
                                path, f);
            t[j] = first + (int)face->mIndices[j];
        }
    }
    return MCD_OK;
}

/* append_mesh for every mesh placed by node (T: its frame in the file's
 * root frame) and its descendants. */
static mcd_status gather_triangles(const char *path, const struct aiScene *sc,
                                   const struct aiNode *node, const struct aiMatrix4x4 *T,
                                   mcd_visual_mesh *M, mcd_error *err)
{
    mcd_status s = MCD_OK;
    for (unsigned k = 0; k < node->mNumMeshes && s == MCD_OK; k++)
        s = append_mesh(path, sc->mMeshes[node->mMeshes[k]], T, M, err);
    for (unsigned c = 0; c < node->mNumChildren && s == MCD_OK; c++) {
        struct aiMatrix4x4 Tc = *T;
        aiMultiplyMatrix4(&Tc, &node->mChildren[c]->mTransformation);
        s = gather_triangles(path, sc, node->mChildren[c], &Tc, M, err);
    }
    return s;
}

/* The triangles of the imported scene sc into M, counts checked against
 * max_count before anything is allocated. */
static mcd_status scene_triangles(const char *path, const struct aiScene *sc, int max_count,
                                  mcd_visual_mesh *M, mcd_error *err)
{
    long long nvert = 0, ntri = 0;
    if (sc->mRootNode) count_triangles(sc, sc->mRootNode, &nvert, &ntri);
    if (ntri == 0) return mcd_fail(err, MCD_ERR_PARSE, "mesh '%s': no triangles", path);
    if (nvert > max_count || ntri > max_count)
        return mcd_fail(err, MCD_ERR_MODEL,
                        "mesh '%s': %lld vertices and %lld triangles, more than the bound of %d "
                        "each for a visual mesh",
                        path, nvert, ntri, max_count);
    M->vert = malloc((size_t)nvert * 3 * sizeof *M->vert);
    M->tri = malloc((size_t)ntri * 3 * sizeof *M->tri);
    if (!M->vert || !M->tri) return mcd_fail(err, MCD_ERR_NOMEM, "mesh '%s': out of memory", path);
    return gather_triangles(path, sc, sc->mRootNode, &sc->mRootNode->mTransformation, M, err);
}

mcd_status mcd_mesh_load_triangles(const char *path, const char *link, int max_count,
                                   mcd_visual_mesh *mesh, mcd_error *err)
{
    mcd_error e;
    mcd_error_clear(&e);
    *mesh = (mcd_visual_mesh){0};
    const struct aiScene *sc;
    mcd_status s = import(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices, &sc, &e);
    if (s == MCD_OK) {
        s = scene_triangles(path, sc, max_count, mesh, &e);
        aiReleaseImport(sc);
    }
    if (s == MCD_OK) return MCD_OK;
    free(mesh->vert), free(mesh->tri);
    *mesh = (mcd_visual_mesh){0};
    return mcd_fail(err, s, "link '%s': %s", link, e.msg);
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

mcd_status mcd_mesh_load_vertices(const char *path, const char *link, double **verts, int *nverts,
                                  mcd_error *err)
{
    mcd_error e;
    mcd_error_clear(&e);
    mcd_status s = load_vertices(path, verts, nverts, &e);
    if (s != MCD_OK) mcd_fail(err, s, "link '%s': %s", link, e.msg);
    return s;
}

/* Private: the C interface of bullet_shim.cpp, the only C++ file of mcdyn.
 *
 * The shim owns Bullet's objects (collision configuration, dispatcher,
 * dynamic-AABB-tree broadphase, one collision object per geom) and knows
 * nothing of models: it receives shapes, a pair table and poses, and hands
 * every contact point Bullet finds, and every overlapping pair that C
 * treats itself, back through callbacks. Shapes are built with margins
 * that keep Bullet's distances exact for every supported type (spheres
 * and capsules: their radius is the margin; boxes, cylinders and hulls:
 * margin 0).
 */
#ifndef MCDYN_SRC_COLLISION_BULLET_SHIM_H
#define MCDYN_SRC_COLLISION_BULLET_SHIM_H

#include "mcdyn/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What is done with a pair of geoms (entries of the pair table). */
enum {
    MCD_PAIR_SKIP = 0,     /* never tested */
    MCD_PAIR_BULLET = 1,   /* Bullet's narrowphase */
    MCD_PAIR_ANALYTIC = 2, /* handed to the C callback when the boxes overlap */
    MCD_PAIR_DIRECT = 3    /* handed to the C callback at every detection, without the
                              broadphase (a plane on the world: its box is unbounded) */
};

/* Shape types (model.h cannot be included in C++: spatial.h uses C99's
 * restrict). */
typedef enum mcd_bt_type {
    MCD_BT_SPHERE = 0, /* size[0] = radius */
    MCD_BT_BOX,        /* size = half extents */
    MCD_BT_CYLINDER,   /* size[0] = radius, size[1] = half length along z */
    MCD_BT_CAPSULE,    /* size[0] = radius, size[1] = half length of the segment along z */
    MCD_BT_PLANE,      /* the half-space z <= 0 */
    MCD_BT_HULL        /* the convex hull of verts */
} mcd_bt_type;

/* One geom as Bullet sees it. */
typedef struct mcd_bt_shape {
    mcd_bt_type type;
    double size[3];
    const double *verts; /* MCD_BT_HULL: nverts points (x, y, z), scaled, in the geom frame */
    int nverts;
    int is_static;     /* on the world: its pose is given once, at creation */
    double R[9], p[3]; /* pose of a static geom in the world */
} mcd_bt_shape;

typedef struct mcd_bt_config {
    int nshape;
    const mcd_bt_shape *shape;
    /* nshape x nshape, symmetric: MCD_PAIR_* of each pair. Read during
     * detection, so it must outlive the shim world. */
    const unsigned char *pair_table;
    double threshold;     /* largest distance Bullet reports [m] */
    int plane_iterations; /* perturbed support queries per polyhedron-plane pair */
} mcd_bt_config;

/* A pair to be treated in C: MCD_PAIR_ANALYTIC whose bounding boxes, grown
 * by the threshold, overlap, or MCD_PAIR_DIRECT. */
typedef void (*mcd_bt_pair_fn)(void *ctx, int geom0, int geom1);

/* One point Bullet found between geoms a and b: normal (unit, from b to
 * a), point_b on b's surface, dist = signed distance, so the point on a is
 * point_b + dist * normal. */
typedef void (*mcd_bt_point_fn)(void *ctx, int geom_a, int geom_b, const double normal[3],
                                const double point_b[3], double dist);

typedef struct mcd_bt_world mcd_bt_world;

/* Builds the shim world; MCD_ERR_NOMEM, or MCD_ERR_MODEL naming the geom
 * index when Bullet cannot build a mesh's hull. */
mcd_status mcd_bt_world_create(const mcd_bt_config *cfg, mcd_bt_world **out, mcd_error *err);
void mcd_bt_world_free(mcd_bt_world *w);

/* Pose of a moving geom (finite values only; R is row-major). */
void mcd_bt_set_pose(mcd_bt_world *w, int geom, const double R[9], const double p[3]);

/* Updates the bounding boxes of the moving geoms, runs the broadphase and
 * the narrowphase, and calls pair_fn / point_fn synchronously, pairs in the
 * order of (lower geom, higher geom). Geoms whose every pair is
 * MCD_PAIR_SKIP or MCD_PAIR_DIRECT are not in Bullet's world at all: they
 * cost nothing but their MCD_PAIR_DIRECT callbacks. */
void mcd_bt_detect(mcd_bt_world *w, mcd_bt_pair_fn pair_fn, mcd_bt_point_fn point_fn, void *ctx);

/* Diagnostics for the tests: counts the heap blocks Bullet takes through
 * its allocator hook (btAlignedAlloc) between begin and end. Process-wide;
 * not for use while other threads run Bullet. */
void mcd_bt_alloc_count_begin(void);
long mcd_bt_alloc_count_end(void);

#ifdef __cplusplus
}
#endif
#endif

/* mcdyn — collision detection: contact points between the model's geoms.
 *
 * A collision world is made once per model (it builds Bullet's broadphase
 * and one collision object per geom, and loads mesh files); afterwards
 * mcd_collision_detect turns the body poses left in an mcd_data by
 * mcd_forward_kinematics into contact points. Bullet is the double-precision
 * Debian build, reached through one private C++ file; docs/collision.md
 * describes which pairs Bullet handles, which are exact C formulas, the
 * margins and the measured accuracy.
 *
 * Conventions of one contact point (mcd_contact):
 *  - A and B are two geoms on different bodies. B is the geom on the body
 *    with the lower index, so the world (body -1) is always B, and on a
 *    tree B is the side nearer the root when the bodies are on one path.
 *  - normal is the unit normal in world coordinates pointing from B to A
 *    (out of B's surface, towards A).
 *  - point_a and point_b are the closest (or deepest) points on the surfaces
 *    of A and B, and
 *        gap = (point_a - point_b) . normal,
 *    the signed distance: positive when separated, negative when they
 *    penetrate; always point_a = point_b + gap * normal.
 *  - pos is the midpoint (point_a + point_b) / 2.
 * A point is reported when gap <= activation_distance (a pair Bullet
 * answers: gap <= max(activation_distance, bullet_activation_distance)),
 * and for the closed forms against a plane also within flat_tolerance of
 * the pair's deepest point (see the options); a pair touching along a
 * face gives several points (a box flat on a plane gives its 4 corners),
 * duplicates merged.
 *
 * Which pairs are tested: geoms on the same body (fixed links are merged
 * into their body, links fixed to the world carry world geoms) never; a
 * parent body and its child never; two world geoms never; two planes
 * never; two geoms of one robot (mcd_geom.robot: the links below one link
 * joined to the world, including a fixed base merged into the world) only
 * with self_collision; geoms of different robots, and the environment
 * (geoms added on the world) with every robot, always; body pairs in the
 * exclude list never. The world's geoms collide with every moving body,
 * the roots included (a floating base lands on the ground), except that
 * filter_world_children makes the world the parent of the roots that are
 * not free-floating.
 *
 * Thread safety: a world is used by one thread at a time; separate worlds
 * may be used concurrently.
 */
#ifndef MCDYN_COLLISION_H
#define MCDYN_COLLISION_H

#include "mcdyn/data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One contact point; see the conventions above. */
typedef struct mcd_contact {
    int body_a, body_b; /* body indices, body_a > body_b; body_b = -1: the world */
    int geom_a, geom_b; /* indices into model->geom */
    double pos[3];      /* midpoint between point_a and point_b, world [m] */
    double normal[3];   /* unit, world, from B to A */
    double gap;         /* (point_a - point_b) . normal [m]; negative: penetration */
    double point_a[3];  /* on the surface of geom A, world [m] */
    double point_b[3];  /* on the surface of geom B, world [m] */
    int closed_form;    /* 1: from one of the closed forms of options.analytic, gap
                           exact up to rounding; 0: from Bullet */
} mcd_contact;

typedef struct mcd_collision_options {
    /* delta >= 0 [m]: points with gap <= delta are reported (0: touching or
     * penetrating only). Default 0. */
    double activation_distance;
    /* delta_B >= 0 [m]: for the pairs Bullet answers (every pair but the
     * closed forms of analytic; with analytic 0, every pair), points with
     * gap <= max(activation_distance, delta_B) are reported. Bullet's
     * queries are not exact at contact (GJK/EPA may return no point for a
     * touching box pair), so a simulator resting them a small gap s apart
     * reports them up to 2 s while the closed forms keep the exact
     * activation_distance (docs/collision.md, "Activation distance per
     * pair"). Default 0. */
    double bullet_activation_distance;
    /* 1: the geoms of one robot (mcd_geom.robot) collide with each other
     * (non-adjacent pairs only); 0: they do not. Geoms of different robots,
     * and the environment with every robot, collide either way. Default 1. */
    int self_collision;
    /* 1: a root body jointed to the world by anything but a free joint is
     * adjacent to the world and does not collide with the world's geoms
     * (typical for fixed-base arms whose base link geometry was merged into
     * the world). Default 0. */
    int filter_world_children;
    /* nexclude body pairs (2 ints each, -1 = the world) that never collide,
     * in either order. Copied at creation. Default none. */
    const int *exclude;
    int nexclude;
    /* Size of the world's own contact buffer, used when mcd_collision_detect
     * is given no buffer (mcd_collision_world_contacts). Default 256. */
    int capacity;
    /* 1: exact closed forms in C for sphere-sphere and for a sphere, box,
     * capsule or cylinder against a plane instead of Bullet. Default 1. */
    int analytic;
    /* Closed forms against a plane (analytic): once the deepest point of a
     * shape is within the activation distance, its other support points
     * (box corners, capsule ends, cylinder rim points) up to this much
     * higher are reported too, with their own gaps, which may then exceed
     * the activation distance: a shape resting flat keeps its whole
     * support polygon from step to step. >= 0 [m]. Default 1e-5. */
    double flat_tolerance;
    /* Perturbed support queries Bullet makes per mesh-plane pair (and
     * box-plane pair with analytic 0) to find the corners of a face lying on
     * the plane, 0..64 (0: one point per pair). 5 or more find all 4
     * corners of a box at any yaw. Default 8. */
    int plane_iterations;
    /* Points of one pair whose midpoints lie within this distance are one
     * point (the deeper is kept), >= 0 [m]. Default 1e-6. */
    double merge_distance;
} mcd_collision_options;

/* The defaults listed above. */
mcd_collision_options mcd_collision_options_default(void);

typedef struct mcd_collision_world mcd_collision_world;

/* Builds the collision objects of every geom of m (opt NULL: defaults).
 * Mesh geoms are loaded (by Assimp) as the convex hull of the file's
 * vertices, scaled by the geom's size: STL, Wavefront OBJ, COLLADA (.dae)
 * and the other formats Assimp imports; an extension no importer handles
 * fails with MCD_ERR_UNSUPPORTED, unreadable files with MCD_ERR_IO,
 * malformed ones with MCD_ERR_PARSE, flat or empty meshes with
 * MCD_ERR_MODEL, each naming the path (and, when it is read, the link).
 * The model must outlive the world and stay unchanged. */
mcd_status mcd_collision_world_create(const mcd_model *m, const mcd_collision_options *opt,
                                      mcd_collision_world **out, mcd_error *err);

void mcd_collision_world_free(mcd_collision_world *w);

/* Contact points at the body poses d->bd[k].X_world (call
 * mcd_forward_kinematics first). Writes at most capacity points into
 * contacts and their number into *ncontacts. The points of a pair are
 * consecutive; pairs come in the order of (lower geom index, higher geom
 * index), points within a pair as found, so the output depends on the
 * configuration only. With contacts NULL the world's own buffer is
 * used (capacity ignored; read it with mcd_collision_world_contacts).
 * Errors: MCD_ERR_ARG (NULL, or m/d not the world's model);
 * MCD_ERR_NONFINITE if a body pose holding geoms has a NaN/Inf entry
 * (nothing is passed to Bullet, *ncontacts = 0); MCD_ERR_CAPACITY when more
 * points are found than fit (the first capacity points are kept,
 * *ncontacts = capacity, the message gives how many more were found, an
 * upper bound since duplicates among them are not merged). Allocates nothing itself
 * (docs/collision.md: what Bullet does). */
mcd_status mcd_collision_detect(mcd_collision_world *w, const mcd_model *m, const mcd_data *d,
                                mcd_contact *contacts, int capacity, int *ncontacts,
                                mcd_error *err);

/* The world's own buffer as left by the last mcd_collision_detect with a
 * NULL buffer; *n receives the number of points (n may be NULL). */
const mcd_contact *mcd_collision_world_contacts(const mcd_collision_world *w, int *n);

/* 1 if the pair of geoms (indices into model->geom) is ever tested, 0 if it
 * is filtered out (same body, adjacent bodies, excluded, two planes, ...). */
int mcd_collision_pair_enabled(const mcd_collision_world *w, int geom_a, int geom_b);

#ifdef __cplusplus
}
#endif
#endif

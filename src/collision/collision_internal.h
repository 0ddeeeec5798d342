/* Private: the collision world and the steps of mcd_collision_detect,
 * shared by the files of src/collision. */
#ifndef MCDYN_SRC_COLLISION_INTERNAL_H
#define MCDYN_SRC_COLLISION_INTERNAL_H

#include "mcdyn/collision.h"
#include "bullet_shim.h"

/* Slack added to the activation distance for Bullet's own cut-offs and the
 * bounding boxes [m]: Bullet may drop nothing we keep; the exact test
 * gap <= delta is made in C. */
#define MCD_COLLISION_SLACK 1e-6

struct mcd_collision_world {
    const mcd_model *model;
    mcd_collision_options opt; /* opt.exclude is not kept (NULL) */
    double bullet_delta;       /* max(opt.activation_distance, opt.bullet_activation_distance) */
    int ngeom;
    unsigned char *pair_table; /* ngeom x ngeom MCD_PAIR_* */
    mcd_pose *pose;            /* world pose of each geom, this call */
    mcd_bt_world *bt;
    mcd_contact *buf; /* the world's own contact buffer (opt.capacity) */
    int nbuf;
};

/* Checks the options (delta finite and >= 0, counts in range, excluded
 * bodies exist). */
mcd_status mcd_collision_check_options(const mcd_model *m, const mcd_collision_options *opt,
                                       mcd_error *err);

/* Fills w->pair_table from the model and w->opt (exclusions from opt). */
void mcd_collision_fill_pairs(mcd_collision_world *w, const mcd_collision_options *opt);

/* Receives the contact points of one detection: filters gap <= delta, puts
 * the world as B and the higher body as A, merges duplicates of a pair,
 * stores up to capacity points, and reduces the coplanar manifolds of each
 * geom pair to their hull vertices (contact_manifold.h) once the pair's
 * points are in. */
typedef struct mcd_contact_sink {
    const mcd_collision_world *w;
    mcd_contact *c;
    int capacity;
    int n;            /* points stored */
    long overflow;    /* points that did not fit */
    int pair_start;   /* first stored point of the current pair */
    int cur_a, cur_b; /* geoms (A, B) of the current pair, -1 before the first */
} mcd_contact_sink;

/* An empty sink writing into c[0 .. capacity). */
void mcd_contact_sink_init(mcd_contact_sink *s, const mcd_collision_world *w, mcd_contact *c,
                           int capacity);

/* Reduces the last body pair's points: call once the detection is done. */
void mcd_contact_sink_finish(mcd_contact_sink *s);

/* Adds one point of a closed form between geoms ga and gb if gap <= delta:
 * normal from gb to ga, point_b on gb, gap = signed distance (the point on
 * ga is point_b + gap normal). */
void mcd_contact_sink_add(mcd_contact_sink *s, int ga, int gb, const double normal[3],
                          const double point_b[3], double gap);

/* The same, keeping the point if gap <= limit (the flat tolerance of the
 * shape-plane closed forms lets limit exceed delta). */
void mcd_contact_sink_add_within(mcd_contact_sink *s, int ga, int gb, const double normal[3],
                                 const double point_b[3], double gap, double limit);

/* The same for a point Bullet found: kept if gap <= w->bullet_delta. */
void mcd_contact_sink_add_bullet(mcd_contact_sink *s, int ga, int gb, const double normal[3],
                                 const double point_b[3], double gap);

/* Exact contact points of an MCD_PAIR_ANALYTIC or MCD_PAIR_DIRECT pair
 * (sphere-sphere, or a sphere, box, capsule or cylinder against a plane) at
 * the poses in w->pose. */
void mcd_collision_analytic(mcd_contact_sink *s, int g0, int g1);

/* Exact contact points of geom g (sphere, box, capsule, cylinder) against
 * the plane gp (contact_plane.c). */
void mcd_collision_plane(mcd_contact_sink *s, int g, int gp);

/* 1 for the pairs mcd_collision_analytic handles. */
int mcd_collision_is_analytic(mcd_geom_type a, mcd_geom_type b);

#endif

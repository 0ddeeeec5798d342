/* Test support for the collision tests: small scenes built with the
 * builder API (free-floating bodies carrying geoms, geoms on the world),
 * placed by hand, then forward kinematics and detection. */
#ifndef MCDYN_TESTS_COLLISION_FIXTURE_H
#define MCDYN_TESTS_COLLISION_FIXTURE_H

#include "mcdyn/collision.h"
#include "mcdyn/dynamics.h"

#define SCENE_CAPACITY 512

typedef struct scene {
    mcd_builder *b;
    mcd_model *m;
    mcd_data *d;
    mcd_collision_world *w;
    mcd_contact c[SCENE_CAPACITY];
    int n;
} scene;

/* A fresh builder. */
void scene_begin(scene *s);
/* A body with unit mass hinged to parent (-1: the world) by jtype at
 * origin (NULL: identity) with the given axis (NULL: z); returns its link. */
int scene_link(scene *s, const char *name, int parent, mcd_joint_type jtype, const mcd_pose *origin,
               const double axis[3]);
/* A free-floating body. */
int scene_free_body(scene *s, const char *name);
/* A geom on a link (-1: the world) at pose (NULL: identity). */
void scene_geom(scene *s, int link, mcd_geom_type type, double s0, double s1, double s2,
                const mcd_pose *pose, const char *mesh);
/* Builds the model, its data and the collision world (opt NULL: defaults);
 * returns the world's status. */
mcd_status scene_finish(scene *s, const mcd_collision_options *opt, mcd_error *err);
/* Puts a free body's origin at p with rotation R (NULL: identity). */
void scene_place(scene *s, const char *body, double x, double y, double z, const double R[9]);
/* Forward kinematics at s->d->q, then detection into s->c. */
mcd_status scene_detect(scene *s, mcd_error *err);
void scene_free(scene *s);

/* Checks every reported point: unit normal, gap = (point_a - point_b).n,
 * pos the midpoint, body_a > body_b, bodies those of the geoms, gap within
 * the activation distance (closed forms against a plane: or within the
 * flat tolerance of the pair's deepest point), and no two points of a pair
 * closer than the merge distance. */
void scene_check_invariants(const scene *s, const mcd_collision_options *opt);

/* Rotation R = Rz(yaw) Ry(pitch) Rx(roll). */
void rot_rpy(double R[9], double roll, double pitch, double yaw);
/* A pose with rotation from roll-pitch-yaw and a translation. */
mcd_pose pose_rpy(double roll, double pitch, double yaw, double x, double y, double z);

/* Path of a file in tests/collision/data (static buffer). */
const char *data_path(const char *name);

#endif

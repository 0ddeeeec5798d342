/* Hand-made contact scenes for the simulator tests: free rigid bodies and
 * a box on the plane z = 0 with its contacts computed in closed form (no
 * collision detection), so that a test controls every contact exactly. */
#ifndef MCDYN_TESTS_CONTACT_SCENES_H
#define MCDYN_TESTS_CONTACT_SCENES_H

#include "mcdyn/mcdyn.h"

/* One free body (MuJoCo's free joint: q = position, quaternion w x y z)
 * named name, of the given mass and principal inertia (diagonal, body
 * axes), under gravity g (NULL: the builder's default). Asserts success. */
mcd_model *scene_free_body(const char *name, double mass, const double inertia[3], const double *g);

/* A solid ball of radius 1 m and 1 kg ("ball", inertia 2/5 m r^2 = 0.4,
 * default gravity), the sphere of Mylapilli & Jain's Sec. 6.1; its contact
 * providers are the tests' own. */
mcd_model *scene_ball_model(void);

/* scene_ball_model's contact provider: the ball against the plane z = 0,
 * one contact at the midpoint when within 1 cm, mu = SCENE_BALL_MU
 * (Mylapilli & Jain's 0.2), no restitution. */
#define SCENE_BALL_MU 0.2
mcd_status scene_ball_plane(void *user, const mcd_model *m, const mcd_data *d, const double *q,
                            mcd_contact_point *c, int capacity, int *n, mcd_error *err);

/* The box scene: a 1 kg cube of side 2 SCENE_BOX_HALF = 1 m ("box", default
 * gravity). scene_box_plane is its contact provider: the four bottom
 * corners against the plane z = 0, made when within 1 cm, mu = 0.5,
 * restitution 0.3, at the midpoint between corner and plane. */
#define SCENE_BOX_HALF 0.5
mcd_model *scene_box_model(void);
mcd_status scene_box_plane(void *user, const mcd_model *m, const mcd_data *d, const double *q,
                           mcd_contact_point *c, int capacity, int *n, mcd_error *err);

#endif

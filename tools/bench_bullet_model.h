/* The links of a Bullet btMultiBody (bench_bullet.h) from an mcd_model. */
#ifndef MCDYN_TOOLS_BENCH_BULLET_MODEL_H
#define MCDYN_TOOLS_BENCH_BULLET_MODEL_H

#include "bench_bullet.h"
#include "mcdyn/model.h"

/* Fills links[0 .. m->nbody - 1], body by body in the model's order, with
 * the same joint frames, axes, masses, centres of mass, principal inertias
 * and the force of the model's gravity. Returns 0, or -1 with a message in
 * msg (msglen bytes) when Bullet's multibody cannot describe the model: a
 * joint other than revolute, continuous or prismatic, a massless body, or
 * an inertia that is not diagonal in the body frame (Bullet takes principal
 * moments along the link axes). */
int bench_bullet_links_from_model(const mcd_model *m, bench_bullet_link *links, char *msg,
                                  int msglen);

#endif

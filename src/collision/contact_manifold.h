/* Private: coplanar contact manifolds reduced to the vertices of their
 * convex hull (docs/collision.md, "Coplanar manifolds: hull vertices
 * only").
 *
 * A manifold is what the contact set-up takes as one
 * (src/contact/contact_setup.c): consecutive points of the same two bodies
 * whose normals agree. When its points lie on one plane (the points on A's
 * surface on one plane, those on B's on another, so that the gaps are
 * affine over the contact plane), a point inside the convex hull of the
 * others in the tangent plane, or on a hull edge between two others, adds
 * no contact wrench and no constraint the others do not already give: it
 * is dropped. Sets that are not coplanar are left as they are. */
#ifndef MCDYN_SRC_COLLISION_CONTACT_MANIFOLD_H
#define MCDYN_SRC_COLLISION_CONTACT_MANIFOLD_H

#include "mcdyn/collision.h"

/* The largest manifold reduced; larger ones are left as they are (the
 * scratch of the reduction is this many entries on the stack). A box-box
 * face gives at most 8 points, a mesh face clipped against another one the
 * sum of their vertex counts. */
#define MCD_MANIFOLD_MAX 64

/* Normals of the points of one manifold agree within this distance
 * |n_i - n_first| (the angle in rad, to first order): half the contact
 * set-up's 1e-6 rad, so that whichever point stays first after the
 * reduction, every other one is within the set-up's angle of it and the
 * set-up still takes them as one manifold. */
#define MCD_MANIFOLD_NORMAL 0.5e-6

/* Relative tolerance of the flatness and hull tests: a point within
 * tau = MCD_MANIFOLD_RELATIVE * r + MCD_MANIFOLD_ROUNDING * eps * x of the
 * plane (of a hull edge) is on it, with r the manifold's radius in the
 * tangent plane and x the largest coordinate of its points (rounding of
 * world coordinates). */
#define MCD_MANIFOLD_RELATIVE 1e-9
#define MCD_MANIFOLD_ROUNDING 64.0

/* Reduces every manifold of c[0 .. n) in place (the points kept stay in
 * their order) and returns the number of points left, >= 1 for n >= 1.
 * Allocates nothing. */
int mcd_contact_manifold_reduce(mcd_contact *c, int n);

#endif

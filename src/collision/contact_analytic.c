/* Closed-form contact points, used instead of Bullet for the pairs whose
 * exact answer is a few lines (src/collision/collision_internal.h). No
 * margins, no iterations: the gaps are exact up to rounding.
 *
 *   sphere-sphere   one point on the line of centres; concentric spheres
 *                   get the normal +z (any direction is as good)
 *   sphere, box, capsule or cylinder against a plane: contact_plane.c
 */
#include "collision_internal.h"

static void sphere_sphere(mcd_contact_sink *s, int g0, int g1)
{
    const mcd_model *m = s->w->model;
    if (m->geom[g0].body < m->geom[g1].body) { /* g1 is B: the fallback normal is +z */
        int g = g0;
        g0 = g1, g1 = g;
    }
    const double *c0 = s->w->pose[g0].p, *c1 = s->w->pose[g1].p;
    double r0 = m->geom[g0].size[0], r1 = m->geom[g1].size[0];
    double n[3], pb[3];
    mcd_v3_sub(n, c0, c1);
    double len = mcd_v3_norm(n);
    if (len > 0)
        mcd_v3_scale(n, n, 1.0 / len);
    else
        mcd_v3_set(n, 0, 0, 1);
    mcd_v3_copy(pb, c1);
    mcd_v3_axpy(pb, r1, n);
    mcd_contact_sink_add(s, g0, g1, n, pb, len - r0 - r1);
}

void mcd_collision_analytic(mcd_contact_sink *s, int g0, int g1)
{
    const mcd_model *m = s->w->model;
    mcd_geom_type t0 = m->geom[g0].type, t1 = m->geom[g1].type;
    if (t0 == MCD_GEOM_SPHERE && t1 == MCD_GEOM_SPHERE)
        sphere_sphere(s, g0, g1);
    else if (t1 == MCD_GEOM_PLANE)
        mcd_collision_plane(s, g0, g1);
    else if (t0 == MCD_GEOM_PLANE)
        mcd_collision_plane(s, g1, g0);
}

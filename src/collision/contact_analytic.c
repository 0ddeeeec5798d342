/* Closed-form contact points, used instead of Bullet for the pairs whose
 * exact answer is a few lines (src/collision/collision_internal.h). No
 * margins, no iterations: the gaps are exact up to rounding.
 *
 *   sphere-sphere   one point on the line of centres; concentric spheres
 *                   get the normal +z (any direction is as good)
 *   sphere-plane    one point below the centre
 *   capsule-plane   each end of the segment as a sphere: two points when
 *                   the capsule lies on the plane
 *   cylinder-plane  on each cap's rim, the point nearest the plane and the
 *                   three at 90, 180 and 270 degrees around the axis from
 *                   it; an upright cylinder gives a square of four points
 *                   (from the cylinder's x axis), one lying on its side
 *                   gives the two ends of its contact line
 * Every candidate carries its exact gap; the sink keeps those within the
 * activation distance. A plane is the half-space z <= 0 of its frame.
 */
#include "collision_internal.h"

/* Column k of a pose's rotation: the frame's k-th axis in the world. */
static void axis_of(double a[3], const mcd_pose *X, int k)
{
    mcd_v3_set(a, X->R[k], X->R[3 + k], X->R[6 + k]);
}

/* A sphere of radius r at c (r = 0: the point c) against plane gp: the
 * plane's normal, the foot of c on the plane and the gap. */
static void ball_plane(mcd_contact_sink *s, int g, int gp, const double c[3], double r)
{
    const mcd_pose *P = &s->w->pose[gp];
    double n[3], d[3], foot[3];
    axis_of(n, P, 2);
    mcd_v3_sub(d, c, P->p);
    double h = mcd_v3_dot(d, n);
    mcd_v3_copy(foot, c);
    mcd_v3_axpy(foot, -h, n);
    mcd_contact_sink_add(s, g, gp, n, foot, h - r);
}

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

static void capsule_plane(mcd_contact_sink *s, int g, int gp)
{
    const mcd_pose *X = &s->w->pose[g];
    const double *size = s->w->model->geom[g].size;
    double a[3], e[3];
    axis_of(a, X, 2);
    for (int side = -1; side <= 1; side += 2) {
        mcd_v3_copy(e, X->p);
        mcd_v3_axpy(e, side * size[1], a);
        ball_plane(s, g, gp, e, size[0]);
    }
}

static void cylinder_plane(mcd_contact_sink *s, int g, int gp)
{
    const mcd_pose *X = &s->w->pose[g];
    const double *size = s->w->model->geom[g].size;
    double r = size[0], h = size[1];
    double a[3], n[3], e1[3], e2[3];
    axis_of(a, X, 2);
    axis_of(n, &s->w->pose[gp], 2);
    /* e1: from the axis towards the plane, within the cap */
    mcd_v3_copy(e1, n);
    mcd_v3_axpy(e1, -mcd_v3_dot(n, a), a);
    double len = mcd_v3_norm(e1);
    if (len > 1e-12)
        mcd_v3_scale(e1, e1, -1.0 / len);
    else
        axis_of(e1, X, 0);
    mcd_v3_cross(e2, a, e1);
    const double cs[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    for (int side = -1; side <= 1; side += 2)
        for (int k = 0; k < 4; k++) {
            double x[3];
            mcd_v3_copy(x, X->p);
            mcd_v3_axpy(x, side * h, a);
            mcd_v3_axpy(x, r * cs[k][0], e1);
            mcd_v3_axpy(x, r * cs[k][1], e2);
            ball_plane(s, g, gp, x, 0.0);
        }
}

void mcd_collision_analytic(mcd_contact_sink *s, int g0, int g1)
{
    const mcd_model *m = s->w->model;
    mcd_geom_type t0 = m->geom[g0].type, t1 = m->geom[g1].type;
    if (t0 > t1) { /* order: sphere, box, cylinder, capsule, plane */
        int g = g0;
        g0 = g1, g1 = g;
        mcd_geom_type t = t0;
        t0 = t1, t1 = t;
    }
    if (t0 == MCD_GEOM_SPHERE && t1 == MCD_GEOM_SPHERE)
        sphere_sphere(s, g0, g1);
    else if (t0 == MCD_GEOM_SPHERE && t1 == MCD_GEOM_PLANE)
        ball_plane(s, g0, g1, s->w->pose[g0].p, m->geom[g0].size[0]);
    else if (t0 == MCD_GEOM_CAPSULE && t1 == MCD_GEOM_PLANE)
        capsule_plane(s, g0, g1);
    else if (t0 == MCD_GEOM_CYLINDER && t1 == MCD_GEOM_PLANE)
        cylinder_plane(s, g0, g1);
}

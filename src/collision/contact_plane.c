/* Closed-form contact of a sphere, box, capsule or cylinder with a plane
 * (src/collision/collision_internal.h). A plane is the half-space z <= 0 of
 * its frame. Each shape has a few candidate points whose distance to the
 * plane is exact, and among them the support polygon of every way it can
 * rest on the plane:
 *
 *   sphere    its centre, radius r                  1 point
 *   box       its 8 corners                         a face flat: its 4 corners,
 *                                                   an edge: 2, a corner: 1
 *   capsule   the 2 ends of its segment, radius r   lying flat: 2, else 1
 *   cylinder  on each cap's rim, the point nearest  upright: a square of 4
 *             the plane and the 3 at 90, 180, 270   rim points (from the
 *             degrees around the axis from it       cylinder's x axis), on its
 *                                                   side: the 2 ends of the
 *                                                   contact line, tilted: 1
 *
 * Which candidates are reported (docs/collision.md): none unless the
 * deepest has gap <= delta (the activation distance); then every candidate
 * with gap <= max(delta, deepest gap + flat_tolerance), each with its own
 * exact gap. The tolerance keeps the whole support polygon of a shape
 * resting flat whose corners differ in height by rounding or a tiny
 * rocking, so the contact set does not flicker between 1 and 4 points
 * from step to step.
 */
#include "collision_internal.h"

#include <math.h>

/* Candidates of one shape: points in the world, all with one radius. */
typedef struct plane_candidates {
    double x[8][3];
    double r;
    int n;
} plane_candidates;

/* Column k of a pose's rotation: the frame's k-th axis in the world. */
static void axis_of(double a[3], const mcd_pose *X, int k)
{
    mcd_v3_set(a, X->R[k], X->R[3 + k], X->R[6 + k]);
}

/* Reports the candidates of geom g against plane gp by the rule above. */
static void report(mcd_contact_sink *s, int g, int gp, const plane_candidates *c)
{
    const mcd_pose *P = &s->w->pose[gp];
    double n[3], d[8], gmin = INFINITY;
    axis_of(n, P, 2);
    for (int k = 0; k < c->n; k++) {
        double v[3];
        mcd_v3_sub(v, c->x[k], P->p);
        d[k] = mcd_v3_dot(v, n); /* height of the candidate above the plane */
        if (d[k] - c->r < gmin) gmin = d[k] - c->r;
    }
    double delta = s->w->opt.activation_distance;
    if (!(gmin <= delta)) return;
    double limit = fmax(delta, gmin + s->w->opt.flat_tolerance);
    for (int k = 0; k < c->n; k++) {
        double foot[3];
        mcd_v3_copy(foot, c->x[k]);
        mcd_v3_axpy(foot, -d[k], n);
        mcd_contact_sink_add_within(s, g, gp, n, foot, d[k] - c->r, limit);
    }
}

static void sphere_candidates(const mcd_pose *X, const double *size, plane_candidates *c)
{
    mcd_v3_copy(c->x[0], X->p);
    c->r = size[0];
    c->n = 1;
}

static void box_candidates(const mcd_pose *X, const double *size, plane_candidates *c)
{
    for (int k = 0; k < 8; k++) {
        double local[3] = {k & 1 ? size[0] : -size[0], k & 2 ? size[1] : -size[1],
                           k & 4 ? size[2] : -size[2]};
        mcd_pose_apply(c->x[k], X, local);
    }
    c->r = 0;
    c->n = 8;
}

static void capsule_candidates(const mcd_pose *X, const double *size, plane_candidates *c)
{
    double a[3];
    axis_of(a, X, 2);
    for (int k = 0; k < 2; k++) {
        mcd_v3_copy(c->x[k], X->p);
        mcd_v3_axpy(c->x[k], (2 * k - 1) * size[1], a);
    }
    c->r = size[0];
    c->n = 2;
}

static void cylinder_candidates(const mcd_pose *X, const double *size, const double n[3],
                                plane_candidates *c)
{
    double r = size[0], h = size[1];
    double a[3], e1[3], e2[3];
    axis_of(a, X, 2);
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
    c->n = 0;
    for (int side = -1; side <= 1; side += 2)
        for (int k = 0; k < 4; k++) {
            double *x = c->x[c->n++];
            mcd_v3_copy(x, X->p);
            mcd_v3_axpy(x, side * h, a);
            mcd_v3_axpy(x, r * cs[k][0], e1);
            mcd_v3_axpy(x, r * cs[k][1], e2);
        }
    c->r = 0;
}

/* The exact gap of the shape's lowest point: its centre's height minus
 * its support radius along the plane normal n. */
static double lowest_gap(const mcd_geom *geom, const mcd_pose *X, const mcd_pose *P,
                         const double n[3])
{
    const double *size = geom->size;
    double v[3], a[3];
    mcd_v3_sub(v, X->p, P->p);
    double height = mcd_v3_dot(v, n);
    switch (geom->type) {
    case MCD_GEOM_BOX:
        for (int k = 0; k < 3; k++) {
            axis_of(a, X, k);
            height -= size[k] * fabs(mcd_v3_dot(a, n));
        }
        return height;
    case MCD_GEOM_CAPSULE:
        axis_of(a, X, 2);
        return height - size[1] * fabs(mcd_v3_dot(a, n)) - size[0];
    case MCD_GEOM_CYLINDER: {
        axis_of(a, X, 2);
        double c = mcd_v3_dot(a, n);
        return height - size[1] * fabs(c) - size[0] * sqrt(fmax(0.0, 1 - c * c));
    }
    default: /* sphere */
        return height - size[0];
    }
}

void mcd_collision_plane(mcd_contact_sink *s, int g, int gp)
{
    const mcd_geom *geom = &s->w->model->geom[g];
    const mcd_pose *X = &s->w->pose[g];
    plane_candidates c;
    double n[3];
    axis_of(n, &s->w->pose[gp], 2);
    /* far from the plane: nothing to report (the candidates' gaps are no
     * smaller; the slack covers their rounding) */
    if (lowest_gap(geom, X, &s->w->pose[gp], n) >
        s->w->opt.activation_distance + MCD_COLLISION_SLACK)
        return;
    switch (geom->type) {
    case MCD_GEOM_SPHERE:
        sphere_candidates(X, geom->size, &c);
        break;
    case MCD_GEOM_BOX:
        box_candidates(X, geom->size, &c);
        break;
    case MCD_GEOM_CAPSULE:
        capsule_candidates(X, geom->size, &c);
        break;
    case MCD_GEOM_CYLINDER:
        cylinder_candidates(X, geom->size, n, &c);
        break;
    default:
        return;
    }
    report(s, g, gp, &c);
}

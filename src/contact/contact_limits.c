/* Joint limits as unilateral rows of the contact problem (contact.h,
 * mcd_contact_joint_limits).
 *
 * A limited hinge k (revolute or prismatic, <limit lower upper>) moves its
 * body relative to its parent by the spatial velocity H^*(k) qd_k only, so
 * the velocity of a point p of body k relative to the parent's point at p
 * is qd_k (a x (p - o)) for a revolute joint (a its world axis, o its
 * origin) and qd_k a for a prismatic one. A contact of body A = k with
 * body B = parent at p = o + u (u a unit vector normal to a, 1 m from the
 * axis) with normal eta = a x u, or at p = o with eta = a, has the normal
 * velocity nu_n = qd_k: its row of G is the unit vector e_k of qd-space,
 * and its Lambda entry e_k^T M^{-1} e_k comes from the same recursion as
 * every contact's. The upper limit flips eta (nu_n = -qd_k). Gap: q - lower
 * or upper - q [rad or m]; mu = 0 (no tangential impulse: the rows f and o
 * of such a contact are exact zeros of G, the cone allows only F_f = F_o =
 * 0); restitution e. A bound enters the problem when its gap is at most
 * margin + 2 dt (its closing speed). Every formulation and impact law then takes the limits
 * as it takes contacts: nu_n+ >= -gap / dt (speculative) or the
 * penetration correction.
 */
#include "mcdyn/contact.h"

#include <math.h>

/* A unit vector normal to the unit vector a. */
static void normal_to(const double a[3], double u[3])
{
    const double e[3] = {fabs(a[0]) < 0.6 ? 1.0 : 0.0, fabs(a[0]) < 0.6 ? 0.0 : 1.0, 0.0};
    double t[3];
    mcd_v3_cross(t, a, e);
    mcd_v3_scale(u, t, 1.0 / mcd_v3_norm(t));
}

/* The limit contact of body k at its lower (side +1) or upper (side -1)
 * bound, gap given. */
static mcd_contact_point limit_point(const mcd_model *m, const mcd_data *d, int k, int side,
                                     double gap, double restitution)
{
    const mcd_body *B = &m->body[k];
    const mcd_pose *X = &d->bd[k].X_world;
    mcd_contact_point c = {
        .body_a = k, .body_b = B->parent, .gap = gap, .restitution = restitution};
    double a[3];
    mcd_m3_mul_v(a, X->R, B->axis);
    mcd_v3_scale(a, a, 1.0 / mcd_v3_norm(a));
    mcd_v3_copy(c.pos, X->p);
    if (B->jtype == MCD_JOINT_PRISMATIC) {
        mcd_v3_scale(c.normal, a, side);
        return c;
    }
    double u[3], n[3];
    normal_to(a, u);
    mcd_v3_add(c.pos, c.pos, u); /* p = o + u */
    mcd_v3_cross(n, a, u);
    mcd_v3_scale(c.normal, n, side);
    return c;
}

static int limited(const mcd_body *B)
{
    return B->limits.has_position_limits &&
           (B->jtype == MCD_JOINT_REVOLUTE || B->jtype == MCD_JOINT_PRISMATIC);
}

mcd_status mcd_contact_joint_limits(const mcd_model *m, const mcd_data *d, const double *q,
                                    const double *qd, double dt, double margin, double restitution,
                                    mcd_contact_point *out, int capacity, int *n)
{
    if (!m || !d || !q || !qd || !n || (capacity > 0 && !out) || !(dt > 0) || !(margin >= 0) ||
        !(restitution >= 0 && restitution <= 1))
        return MCD_ERR_ARG;
    *n = 0;
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        if (!limited(B)) continue;
        const double x = q[B->qadr], v = qd[B->vadr];
        const double gaps[2] = {x - B->limits.lower, B->limits.upper - x};
        const double closing[2] = {fmax(-v, 0.0), fmax(v, 0.0)};
        for (int s = 0; s < 2; s++) {
            if (!(gaps[s] <= margin + 2.0 * dt * closing[s])) continue;
            if (*n < capacity)
                out[*n] = limit_point(m, d, k, s == 0 ? 1 : -1, gaps[s], restitution);
            ++*n;
        }
    }
    return *n > capacity ? MCD_ERR_CAPACITY : MCD_OK;
}

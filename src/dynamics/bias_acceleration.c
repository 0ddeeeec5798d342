/* Bias acceleration of a node or body point: Jdot qd, the point's
 * acceleration at qdd = 0 with the velocity-product terms only (no gravity).
 *
 * Base to tip, the spatial accelerations at qdd = 0 are
 *   alpha(k) = alpha(parent) + a(k)
 * (the Newton-Euler sweep of inverse_dynamics.c, Jain, "Robot and Multibody
 * Dynamics", Ch. 5, with qdd = 0) about the world origin, a(k) from the velocity pass
 * (kinematics.c). A point x fixed on body k with spatial velocity V = [w; v_O] and spatial
 * acceleration alpha = [wdot; a_O] moves with v_x = v_O + w x x and has the
 * classical acceleration
 *   a_x = a_O + wdot x x + w x v_x.
 * In world axes d/dt (J qd) = [wdot; a_x]. In the point's own axes R,
 * J_local qd = R^T J qd and Rdot^T = -R^T [w]x, so
 *   d/dt (J_local qd) = [R^T wdot; R^T (a_x - w x v_x)]
 * (the angular part loses w x w = 0). docs/theory/operational-space.md. */
#include "dynamics_internal.h"

/* alpha(k) at qdd = 0 of bodies 0..body (topological order: every ancestor
 * of body comes first), after the kinematics and velocity passes. O(N). */
static void zero_qdd_accelerations(const mcd_model *m, mcd_data *d, int body)
{
    for (int k = 0; k <= body; k++) {
        mcd_body_data *b = &d->bd[k];
        const int p = m->body[k].parent;
        for (int i = 0; i < 6; i++) b->alpha[i] = (p < 0 ? 0.0 : d->bd[p].alpha[i]) + b->a[i];
    }
}

/* [wdot; a_x] of the frame (R, x) on body, in world or frame axes. */
static void frame_acceleration(const mcd_data *d, int body, const mcd_pose *frame,
                               mcd_reference ref, double acc[6])
{
    const mcd_body_data *b = &d->bd[body];
    const double *w = b->V, *wdot = b->alpha;
    double vx[3], ax[3], t[3];
    mcd_v3_cross(t, w, frame->p); /* v_x = v_O + w x x */
    mcd_v3_add(vx, b->V + 3, t);
    mcd_v3_cross(t, wdot, frame->p); /* a_x - w x v_x = a_O + wdot x x */
    mcd_v3_add(ax, b->alpha + 3, t);
    if (ref == MCD_REF_LOCAL) {
        mcd_m3t_mul_v(acc, frame->R, wdot);
        mcd_m3t_mul_v(acc + 3, frame->R, ax);
        return;
    }
    mcd_v3_cross(t, w, vx);
    mcd_v3_add(ax, ax, t);
    mcd_v3_copy(acc, wdot);
    mcd_v3_copy(acc + 3, ax);
}

static mcd_status check_inputs(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                               mcd_reference ref, const double *acc)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s == MCD_OK) s = mcd_check_vector_nv(m, d, "qd", qd);
    if (s != MCD_OK) return s;
    if (!acc) return mcd_fail(&d->err, MCD_ERR_ARG, "acc is NULL");
    if (ref != MCD_REF_WORLD && ref != MCD_REF_LOCAL)
        return mcd_fail(&d->err, MCD_ERR_ARG, "unknown reference %d", (int)ref);
    return MCD_OK;
}

mcd_status mcd_node_bias_acceleration(const mcd_model *m, mcd_data *d, const double *q,
                                      const double *qd, int node, mcd_reference ref, double acc[6])
{
    mcd_status s = check_inputs(m, d, q, qd, ref, acc);
    if (s != MCD_OK) return s;
    if (node < 0 || node >= m->nnode)
        return mcd_fail(&d->err, MCD_ERR_ARG, "node index %d out of range [0, %d)", node, m->nnode);
    const int body = m->node[node].body;
    mcd_kinematics_pass(m, d, q);
    mcd_velocity_pass(m, d, qd);
    zero_qdd_accelerations(m, d, body);
    mcd_pose frame;
    mcd_pose_mul(&frame, &d->bd[body].X_world, &m->node[node].pose);
    frame_acceleration(d, body, &frame, ref, acc);
    return MCD_OK;
}

mcd_status mcd_point_bias_acceleration(const mcd_model *m, mcd_data *d, const double *q,
                                       const double *qd, int body, const double point[3],
                                       mcd_reference ref, double acc[6])
{
    mcd_status s = check_inputs(m, d, q, qd, ref, acc);
    if (s != MCD_OK) return s;
    if (body < 0 || body >= m->nbody || !point)
        return mcd_fail(&d->err, MCD_ERR_ARG,
                        "mcd_point_bias_acceleration: body %d out of range or NULL point", body);
    if (!mcd_v3_isfinite(point)) return mcd_fail(&d->err, MCD_ERR_NONFINITE, "point is not finite");
    mcd_kinematics_pass(m, d, q);
    mcd_velocity_pass(m, d, qd);
    zero_qdd_accelerations(m, d, body);
    mcd_pose frame = d->bd[body].X_world;
    mcd_pose_apply(frame.p, &d->bd[body].X_world, point);
    frame_acceleration(d, body, &frame, ref, acc);
    return MCD_OK;
}

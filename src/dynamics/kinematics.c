/* Forward kinematics and body velocities (base-to-tip recursions).
 *
 * Each body frame is its hinge frame after the hinge motion:
 *   X_parent = X_tree * X_J(q),   X_world = X_world[parent] * X_parent.
 * The hinge map H^* = S (6 x nv, body coordinates) gives the hinge's
 * relative spatial velocity V_J = S qd; the body velocity is
 *   V(k) = phi(parent, k)^T V(parent) + S qd_k            (Jain, Eq. 3.x)
 * and the velocity-product acceleration c(k) = V(k) x V_J + c_J, where c_J
 * is the apparent derivative of S in body coordinates (non-zero only for
 * the free joint, whose translational columns R_J^T e_i turn with the body).
 * docs/theory/spatial-operators.md derives each term. */
#include "dynamics_internal.h"

#include <string.h>

/* X_J and S for one hinge. */
static void hinge_motion(const mcd_body *B, const double *qj, mcd_pose *XJ, double *S)
{
    switch (B->jtype) {
    case MCD_JOINT_REVOLUTE:
    case MCD_JOINT_CONTINUOUS:
        mcd_m3_axis_angle(XJ->R, B->axis, qj[0]);
        XJ->p[0] = XJ->p[1] = XJ->p[2] = 0.0;
        S[0] = B->axis[0], S[1] = B->axis[1], S[2] = B->axis[2];
        S[3] = S[4] = S[5] = 0.0;
        break;
    case MCD_JOINT_PRISMATIC:
        mcd_m3_identity(XJ->R);
        mcd_v3_scale(XJ->p, B->axis, qj[0]);
        S[0] = S[1] = S[2] = 0.0;
        S[3] = B->axis[0], S[4] = B->axis[1], S[5] = B->axis[2];
        break;
    case MCD_JOINT_SPHERICAL: {
        double quat[4] = {qj[0], qj[1], qj[2], qj[3]};
        mcd_quat_normalize(quat);
        mcd_quat_to_m3(XJ->R, quat);
        XJ->p[0] = XJ->p[1] = XJ->p[2] = 0.0;
        memset(S, 0, 18 * sizeof *S);
        S[0] = S[7] = S[14] = 1.0;
        break;
    }
    case MCD_JOINT_FREE: {
        double quat[4] = {qj[3], qj[4], qj[5], qj[6]};
        mcd_quat_normalize(quat);
        mcd_quat_to_m3(XJ->R, quat);
        mcd_v3_copy(XJ->p, qj);
        memset(S, 0, 36 * sizeof *S);
        for (int k = 0; k < 3; k++) { /* translation: [0; R_J^T e_k] = [0; row k of R_J] */
            S[6 * k + 3] = XJ->R[3 * k];
            S[6 * k + 4] = XJ->R[3 * k + 1];
            S[6 * k + 5] = XJ->R[3 * k + 2];
        }
        S[6 * 3 + 0] = S[6 * 4 + 1] = S[6 * 5 + 2] = 1.0; /* rotation: [e_k; 0] */
        break;
    }
    default:
        mcd_pose_identity(XJ);
        break;
    }
}

void mcd_kinematics_pass(const mcd_model *m, mcd_data *d, const double *q)
{
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        mcd_body_data *b = &d->bd[k];
        mcd_pose XJ;
        hinge_motion(B, q + B->qadr, &XJ, b->S);
        mcd_pose_mul(&b->X_parent, &B->X_tree, &XJ);
        if (B->parent < 0)
            b->X_world = b->X_parent;
        else
            mcd_pose_mul(&b->X_world, &d->bd[B->parent].X_world, &b->X_parent);
    }
}

void mcd_velocity_pass(const mcd_model *m, mcd_data *d, const double *qd)
{
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        mcd_body_data *b = &d->bd[k];
        double VJ[6];
        mcd_hinge_apply(VJ, b->S, B->nv, qd + B->vadr);
        if (B->parent < 0) {
            memcpy(b->V, VJ, sizeof VJ);
            memset(b->c, 0, sizeof b->c); /* V x V_J = 0 when V = V_J */
        } else {
            mcd_motion_to_child(b->V, &b->X_parent, d->bd[B->parent].V);
            for (int i = 0; i < 6; i++) b->V[i] += VJ[i];
            mcd_motion_cross(b->c, b->V, VJ);
        }
        if (B->jtype == MCD_JOINT_FREE) { /* c_J = [0; -w_J x (R_J^T t_dot)] */
            double t[3];
            mcd_v3_cross(t, VJ, VJ + 3);
            mcd_v3_sub(b->c + 3, b->c + 3, t);
        }
    }
}

mcd_status mcd_forward_kinematics(const mcd_model *m, mcd_data *d, const double *q)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s != MCD_OK) return s;
    mcd_kinematics_pass(m, d, q);
    return MCD_OK;
}

mcd_status mcd_body_velocities(const mcd_model *m, mcd_data *d, const double *q,
                               const double *qd)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s == MCD_OK) s = mcd_check_vector_nv(m, d, "qd", qd);
    if (s != MCD_OK) return s;
    mcd_kinematics_pass(m, d, q);
    mcd_velocity_pass(m, d, qd);
    return MCD_OK;
}

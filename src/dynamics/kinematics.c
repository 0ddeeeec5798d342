/* Forward kinematics and body velocities (base-to-tip recursions).
 *
 * Each body frame is its hinge frame after the hinge motion:
 *   X_world(k) = X_world(parent) * X_tree(k) * X_J(q_k).
 * Spatial vectors are referred to the world origin in world axes, so the
 * recursions need no transforms between bodies:
 *   V(k) = V(parent) + H^*(k) qd_k                        (Jain, Eq. 3.15)
 *   a(k) = d/dt(H^*(k)) qd_k = V(parent) x H^*(k) qd_k
 * because a hinge map column fixed in the body (or, for a revolute or
 * prismatic hinge, fixed in both neighbours) moves with the body's spatial
 * velocity. The free joint's translational columns are fixed in the parent
 * joint frame instead: for it a = V(k) x V_J - V_Jr x V_Jt.
 * docs/theory/spatial-operators.md derives each term. */
#include "dynamics_internal.h"

#include <string.h>

/* Rotation and translation of the hinge motion X_J(q). */
static void hinge_motion(const mcd_body *B, const double *qj, mcd_pose *XJ)
{
    double quat[4];
    switch (B->jtype) {
    case MCD_JOINT_REVOLUTE:
    case MCD_JOINT_CONTINUOUS:
        mcd_m3_axis_angle(XJ->R, B->axis, qj[0]);
        XJ->p[0] = XJ->p[1] = XJ->p[2] = 0.0;
        break;
    case MCD_JOINT_PRISMATIC:
        mcd_m3_identity(XJ->R);
        mcd_v3_scale(XJ->p, B->axis, qj[0]);
        break;
    case MCD_JOINT_SPHERICAL:
    case MCD_JOINT_FREE: {
        const double *qq = qj + (B->jtype == MCD_JOINT_FREE ? 3 : 0);
        memcpy(quat, qq, sizeof quat);
        mcd_quat_normalize(quat);
        mcd_quat_to_m3(XJ->R, quat);
        if (B->jtype == MCD_JOINT_FREE)
            mcd_v3_copy(XJ->p, qj);
        else
            XJ->p[0] = XJ->p[1] = XJ->p[2] = 0.0;
        break;
    }
    default:
        mcd_pose_identity(XJ);
        break;
    }
}

/* A rotational hinge-map column about the line through p with direction w:
 * s = [w; p x w]. */
static void rotational_column(double s[6], const double w[3], const double p[3])
{
    mcd_v3_copy(s, w);
    mcd_v3_cross(s + 3, p, w);
}

/* H^* of one body in world coordinates, from its world pose and the world
 * rotation of its parent joint frame. */
static void hinge_map(const mcd_body *B, const mcd_pose *Xw, const double Rpj[9], double *S)
{
    double w[3];
    switch (B->jtype) {
    case MCD_JOINT_REVOLUTE:
    case MCD_JOINT_CONTINUOUS:
        mcd_m3_mul_v(w, Xw->R, B->axis);
        rotational_column(S, w, Xw->p);
        break;
    case MCD_JOINT_PRISMATIC:
        S[0] = S[1] = S[2] = 0.0;
        mcd_m3_mul_v(S + 3, Rpj, B->axis);
        break;
    case MCD_JOINT_SPHERICAL:
    case MCD_JOINT_FREE: {
        double *Sr = S + (B->jtype == MCD_JOINT_FREE ? 18 : 0);
        for (int k = 0; k < 3; k++) { /* body-frame angular velocity: body axes */
            mcd_v3_set(w, Xw->R[k], Xw->R[3 + k], Xw->R[6 + k]);
            rotational_column(Sr + 6 * k, w, Xw->p);
        }
        if (B->jtype == MCD_JOINT_FREE)
            for (int k = 0; k < 3; k++) { /* parent-joint-frame translation */
                S[6 * k] = S[6 * k + 1] = S[6 * k + 2] = 0.0;
                mcd_v3_set(S + 6 * k + 3, Rpj[k], Rpj[3 + k], Rpj[6 + k]);
            }
        break;
    }
    default:
        break;
    }
}

/* M(k) about the world origin: mass at the world centre of mass, rotational
 * inertia R J_c R^T; for a diagonal J_c = diag(j), R J_c R^T = T R^T with
 * T = R diag(j), the same sums as mcd_m3_rotate_sym without its zero terms. */
static void world_inertia(const mcd_body *B, const mcd_body_plan *plan, const mcd_pose *Xw,
                          mcd_rigid_inertia *I)
{
    double c[3], J[9];
    mcd_pose_apply(c, Xw, plan->com);
    if (plan->inertia_diag) {
        const double *R = Xw->R, *j = plan->inertia_diagonal;
        double T[9];
        for (int i = 0; i < 3; i++)
            for (int l = 0; l < 3; l++) T[3 * i + l] = R[3 * i + l] * j[l];
        for (int i = 0; i < 3; i++)
            for (int l = i; l < 3; l++)
                J[3 * i + l] = J[3 * l + i] =
                    T[3 * i] * R[3 * l] + T[3 * i + 1] * R[3 * l + 1] + T[3 * i + 2] * R[3 * l + 2];
    } else {
        mcd_m3_rotate_sym(J, Xw->R, B->mass.inertia);
    }
    mcd_rigid_inertia_make(I, plan->mass, c, J);
}

/* The index i of a hinge axis that is +-e_i (its other entries exactly 0),
 * with its sign in *sign; -1 for any other axis. */
static int coordinate_axis(const double u[3], double *sign)
{
    for (int i = 0; i < 3; i++)
        if (u[(i + 1) % 3] == 0.0 && u[(i + 2) % 3] == 0.0 && fabs(u[i]) == 1.0) {
            *sign = u[i];
            return i;
        }
    return -1;
}

/* X_world and H^* of a revolute hinge about a coordinate axis +-e_i of its
 * joint frame (rotation Rpj, origin p): R = R_pj R_i(sign q) turns two
 * columns of R_pj (with one sincos), the origin stays at p, and the hinge
 * column is [w; p x w] with w = sign R_pj e_i, a column of R_pj (R_i leaves
 * e_i fixed). */
static void revolute_about_axis(const double *Rpj, const double p[3], int i, double sign,
                                double angle, mcd_pose *Xw, double *S)
{
    static const int next[3] = {1, 2, 0};
    const int j = next[i], l = next[j];
    const double c = cos(angle), s = sign * sin(angle);
    double w[3];
    for (int r = 0; r < 3; r++) {
        const double *R = Rpj + 3 * r;
        double *Rw = Xw->R + 3 * r;
        w[r] = sign * R[i];
        Rw[i] = R[i];
        Rw[j] = c * R[j] + s * R[l];
        Rw[l] = c * R[l] - s * R[j];
    }
    mcd_v3_copy(Xw->p, p);
    rotational_column(S, w, Xw->p);
}

void mcd_data_plan(const mcd_model *m, mcd_body_plan *plan)
{
    int dinv_adr = 0;
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        const double *J = B->mass.inertia, *R = B->X_tree.R;
        plan[k].sign = 1.0;
        plan[k].axis = B->jtype == MCD_JOINT_REVOLUTE || B->jtype == MCD_JOINT_CONTINUOUS
                           ? coordinate_axis(B->axis, &plan[k].sign)
                           : -1;
        plan[k].tree_identity = R[0] == 1.0 && R[4] == 1.0 && R[8] == 1.0 && R[1] == 0.0 &&
                                R[2] == 0.0 && R[3] == 0.0 && R[5] == 0.0 && R[6] == 0.0 &&
                                R[7] == 0.0;
        int last_sibling = -1;
        if (B->parent >= 0)
            for (int c = m->body[B->parent].first_child; c >= 0; c = m->body[c].next_sibling)
                last_sibling = c > last_sibling ? c : last_sibling;
        plan[k].leaf = B->first_child < 0;
        plan[k].starts_parent = last_sibling == k;
        plan[k].inertia_diag =
            J[1] == 0.0 && J[2] == 0.0 && J[3] == 0.0 && J[5] == 0.0 && J[6] == 0.0 && J[7] == 0.0;
        plan[k].unit_translation =
            B->jtype == MCD_JOINT_FREE && B->parent < 0 && plan[k].tree_identity;
        plan[k].free_joint = B->jtype == MCD_JOINT_FREE;
        plan[k].parent = B->parent, plan[k].qadr = B->qadr;
        plan[k].vadr = B->vadr, plan[k].nv = B->nv;
        plan[k].dinv_adr = dinv_adr;
        dinv_adr += B->nv * B->nv;
        mcd_v3_copy(plan[k].tree_p, B->X_tree.p);
        plan[k].mass = B->mass.mass;
        mcd_v3_copy(plan[k].com, B->mass.com);
        mcd_v3_set(plan[k].inertia_diagonal, J[0], J[4], J[8]);
    }
}

/* The joint frame X_world(parent) X_tree of body k: its rotation in *R (a
 * pointer to the parent's when X_tree turns nothing) and its origin in p. */
static void joint_frame(const mcd_model *m, const mcd_data *d, int k, mcd_pose *Xpj,
                        const double **R)
{
    const mcd_body_plan *plan = &d->plan[k];
    if (plan->parent < 0) {
        *R = m->body[k].X_tree.R;
        mcd_v3_copy(Xpj->p, plan->tree_p);
        return;
    }
    const mcd_pose *Xp = &d->bd[plan->parent].X_world;
    mcd_pose_apply(Xpj->p, Xp, plan->tree_p);
    if (plan->tree_identity) {
        *R = Xp->R;
        return;
    }
    mcd_m3_mul(Xpj->R, Xp->R, m->body[k].X_tree.R);
    *R = Xpj->R;
}

/* X_world, H^* and M(k) of body k (its parent's done). */
static inline void body_kinematics(const mcd_model *m, mcd_data *d, int k, const double *q)
{
    const mcd_body *B = &m->body[k]; /* read only past the plan's shortcuts */
    const mcd_body_plan *plan = &d->plan[k];
    mcd_body_data *b = &d->bd[k];
    double *S = d->Hstar + 6 * plan->vadr;
    mcd_pose Xpj;
    const double *Rpj;
    joint_frame(m, d, k, &Xpj, &Rpj);
    if (plan->axis >= 0) {
        revolute_about_axis(Rpj, Xpj.p, plan->axis, plan->sign, q[plan->qadr], &b->X_world, S);
    } else {
        mcd_pose XJ;
        if (Rpj != Xpj.R) memcpy(Xpj.R, Rpj, sizeof Xpj.R);
        hinge_motion(B, q + plan->qadr, &XJ);
        mcd_pose_mul(&b->X_world, &Xpj, &XJ);
        hinge_map(B, &b->X_world, Xpj.R, S);
    }
    world_inertia(B, plan, &b->X_world, &b->M);
}

/* V(k), a(k) and, with bias, z(k) = b(k) - f_ext(k), b(k) = V x* (M V)
 * (f_ext NULL: none; its parent's V done). */
static inline void body_velocity(mcd_data *d, int k, const double *qd, int bias,
                                 const double *f_ext)
{
    static const double zero[6] = {0};
    const mcd_body_plan *B = &d->plan[k];
    mcd_body_data *b = &d->bd[k];
    const double *S = d->Hstar + 6 * B->vadr, *Vp = B->parent < 0 ? zero : d->bd[B->parent].V;
    double VJ[6];
    mcd_hinge_apply(VJ, S, B->nv, qd + B->vadr);
    for (int i = 0; i < 6; i++) b->V[i] = Vp[i] + VJ[i];
    if (!B->free_joint) {
        mcd_motion_cross(b->a, Vp, VJ);
    } else { /* a = V x V_J - V_Jr x V_Jt */
        double Vt[6], Vr[6], t[6];
        mcd_hinge_apply(Vt, S, 3, qd + B->vadr);
        mcd_hinge_apply(Vr, S + 18, 3, qd + B->vadr + 3);
        mcd_motion_cross(b->a, b->V, VJ);
        mcd_motion_cross(t, Vr, Vt);
        for (int i = 0; i < 6; i++) b->a[i] -= t[i];
    }
    if (bias) { /* b(k) = V x* (M V) */
        double h[6];
        mcd_rigid_inertia_mul_v(h, &b->M, b->V);
        mcd_force_cross(b->z, b->V, h);
        if (f_ext)
            for (int i = 0; i < 6; i++) b->z[i] -= f_ext[6 * k + i];
    }
}

static void kinematics_loop(const mcd_model *m, mcd_data *d, const double *q)
{
    for (int k = 0; k < m->nbody; k++) body_kinematics(m, d, k, q);
}
MCD_AVX2_TWIN(kinematics_loop, (const mcd_model *m, mcd_data *d, const double *q), (m, d, q))

static void velocity_loop(const mcd_model *m, mcd_data *d, const double *qd, int bias,
                          const double *f_ext)
{
    for (int k = 0; k < m->nbody; k++) body_velocity(d, k, qd, bias, f_ext);
}
MCD_AVX2_TWIN(velocity_loop,
              (const mcd_model *m, mcd_data *d, const double *qd, int bias, const double *f_ext),
              (m, d, qd, bias, f_ext))

/* Both passes in one visit per body, so that each body's block is loaded
 * once: the same operations in the same order per body. */
static void kinematics_velocity_loop(const mcd_model *m, mcd_data *d, const double *q,
                                     const double *qd, const double *f_ext)
{
    for (int k = 0; k < m->nbody; k++) {
        body_kinematics(m, d, k, q);
        body_velocity(d, k, qd, 1, f_ext);
    }
}
MCD_AVX2_TWIN(kinematics_velocity_loop,
              (const mcd_model *m, mcd_data *d, const double *q, const double *qd,
               const double *f_ext),
              (m, d, q, qd, f_ext))

void mcd_kinematics_pass(const mcd_model *m, mcd_data *d, const double *q)
{
    d->factor_valid = 0; /* the hinge maps change: a factorization of M is stale */
    MCD_RUN(d, kinematics_loop, (m, d, q));
}

void mcd_velocity_pass(const mcd_model *m, mcd_data *d, const double *qd)
{
    MCD_RUN(d, velocity_loop, (m, d, qd, 0, NULL));
}

void mcd_velocity_bias_pass(const mcd_model *m, mcd_data *d, const double *qd, const double *f_ext)
{
    MCD_RUN(d, velocity_loop, (m, d, qd, 1, f_ext));
}

void mcd_kinematics_velocity_bias_pass(const mcd_model *m, mcd_data *d, const double *q,
                                       const double *qd, const double *f_ext)
{
    d->factor_valid = 0;
    MCD_RUN(d, kinematics_velocity_loop, (m, d, q, qd, f_ext));
}

mcd_status mcd_forward_kinematics(const mcd_model *m, mcd_data *d, const double *q)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s != MCD_OK) return s;
    mcd_kinematics_pass(m, d, q);
    return MCD_OK;
}

mcd_status mcd_body_velocities(const mcd_model *m, mcd_data *d, const double *q, const double *qd)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s == MCD_OK) s = mcd_check_vector_nv(m, d, "qd", qd);
    if (s != MCD_OK) return s;
    mcd_kinematics_pass(m, d, q);
    mcd_velocity_pass(m, d, qd);
    return MCD_OK;
}

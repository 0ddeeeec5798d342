/* Newton-Euler inverse dynamics, T = H [phi (M alpha + b)] (Jain, "Robot and
 * Multibody Dynamics", Ch. 5):
 * base to tip, body accelerations alpha(k) = alpha(parent) + H^* qdd + a(k)
 * with the world accelerating at -g (gravity as a fictitious base
 * acceleration); tip to base, body forces f(k) = M alpha + V x* (M V) - f_ext
 * + sum of the children's f, and hinge forces T(k) = H f(k). All spatial
 * vectors are referred to the world origin, where phi moves them unchanged. */
#include "dynamics_internal.h"

#include <string.h>

/* qd and qdd may be NULL (zero); gravity is always included. */
static void newton_euler(const mcd_model *m, mcd_data *d, const double *qd, const double *qdd,
                         const double *f_ext, double *tau)
{
    double a_world[6];
    mcd_gravity_acceleration(m, a_world);
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        mcd_body_data *b = &d->bd[k];
        const double *ap = B->parent < 0 ? a_world : d->bd[B->parent].alpha;
        memcpy(b->alpha, ap, sizeof b->alpha);
        if (qdd) {
            double t[6];
            mcd_hinge_apply(t, d->Hstar + 6 * B->vadr, B->nv, qdd + B->vadr);
            for (int i = 0; i < 6; i++) b->alpha[i] += t[i];
        }
        if (qd)
            for (int i = 0; i < 6; i++) b->alpha[i] += b->a[i];
        double *f = d->f + 6 * k;
        mcd_rigid_inertia_mul_v(f, &b->M, b->alpha);
        if (qd) { /* gyroscopic force V x* (M V) */
            double h[6], g[6];
            mcd_rigid_inertia_mul_v(h, &b->M, b->V);
            mcd_force_cross(g, b->V, h);
            for (int i = 0; i < 6; i++) f[i] += g[i];
        }
        if (f_ext)
            for (int i = 0; i < 6; i++) f[i] -= f_ext[6 * k + i];
    }
    for (int k = m->nbody - 1; k >= 0; k--) {
        const mcd_body *B = &m->body[k];
        const double *f = d->f + 6 * k;
        mcd_hinge_project(tau + B->vadr, d->Hstar + 6 * B->vadr, B->nv, f);
        if (B->parent >= 0)
            for (int i = 0; i < 6; i++) d->f[6 * B->parent + i] += f[i];
    }
}

MCD_AVX2_TWIN(newton_euler,
              (const mcd_model *m, mcd_data *d, const double *qd, const double *qdd,
               const double *f_ext, double *tau),
              (m, d, qd, qdd, f_ext, tau))

mcd_status mcd_inverse_dynamics(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                                const double *qdd, const double *f_ext, double *tau)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s == MCD_OK) s = mcd_check_vector_nv(m, d, "qd", qd);
    if (s == MCD_OK) s = mcd_check_vector_nv(m, d, "qdd", qdd);
    if (s == MCD_OK) s = mcd_check_fext(m, d, f_ext);
    if (s == MCD_OK && !tau) s = mcd_fail(&d->err, MCD_ERR_ARG, "tau is NULL");
    if (s != MCD_OK) return s;
    mcd_kinematics_pass(m, d, q);
    mcd_velocity_pass(m, d, qd);
    MCD_RUN(d, newton_euler, (m, d, qd, qdd, f_ext, tau));
    return MCD_OK;
}

mcd_status mcd_bias_forces(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                           double *C)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s == MCD_OK) s = mcd_check_vector_nv(m, d, "qd", qd);
    if (s == MCD_OK && !C) s = mcd_fail(&d->err, MCD_ERR_ARG, "C is NULL");
    if (s != MCD_OK) return s;
    mcd_kinematics_pass(m, d, q);
    mcd_velocity_pass(m, d, qd);
    MCD_RUN(d, newton_euler, (m, d, qd, NULL, NULL, C));
    return MCD_OK;
}

mcd_status mcd_gravity_forces(const mcd_model *m, mcd_data *d, const double *q, double *G)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s == MCD_OK && !G) s = mcd_fail(&d->err, MCD_ERR_ARG, "G is NULL");
    if (s != MCD_OK) return s;
    mcd_kinematics_pass(m, d, q);
    MCD_RUN(d, newton_euler, (m, d, NULL, NULL, NULL, G));
    return MCD_OK;
}

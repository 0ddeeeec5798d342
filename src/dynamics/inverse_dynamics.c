/* Newton-Euler inverse dynamics (Jain's Eq. for T = H [phi M alpha + b]):
 * base to tip, body accelerations a(k) = phi^T a(parent) + S qdd + c(k) with
 * the world accelerating at -g (gravity as a fictitious base acceleration);
 * tip to base, body forces f(k) = M a + V x* (M V) - f_ext + sum of
 * children's phi f, and hinge forces T(k) = S^T f(k). */
#include "dynamics_internal.h"

#include <string.h>

/* qd and qdd may be NULL (zero); with_gravity selects the -g base motion. */
static void newton_euler(const mcd_model *m, mcd_data *d, const double *qd, const double *qdd,
                         const double *f_ext, int with_gravity, double *tau)
{
    double a_world[6] = {0};
    if (with_gravity) mcd_gravity_acceleration(m, a_world);
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        mcd_body_data *b = &d->bd[k];
        const double *a_parent = B->parent < 0 ? a_world : d->bd[B->parent].a;
        mcd_motion_to_child(b->a, &b->X_parent, a_parent);
        if (qdd) {
            double t[6];
            mcd_hinge_apply(t, b->S, B->nv, qdd + B->vadr);
            for (int i = 0; i < 6; i++) b->a[i] += t[i];
        }
        if (qd)
            for (int i = 0; i < 6; i++) b->a[i] += b->c[i];
        mcd_sym6_mul_v(b->f, &B->inertia, b->a);
        if (qd) { /* gyroscopic force V x* (M V) */
            double h[6], g[6];
            mcd_sym6_mul_v(h, &B->inertia, b->V);
            mcd_force_cross(g, b->V, h);
            for (int i = 0; i < 6; i++) b->f[i] += g[i];
        }
        if (f_ext) {
            double fb[6];
            mcd_force_to_child(fb, &b->X_world, f_ext + 6 * k);
            for (int i = 0; i < 6; i++) b->f[i] -= fb[i];
        }
    }
    for (int k = m->nbody - 1; k >= 0; k--) {
        const mcd_body *B = &m->body[k];
        mcd_body_data *b = &d->bd[k];
        mcd_hinge_project(tau + B->vadr, b->S, B->nv, b->f);
        if (B->parent >= 0) {
            double fp[6];
            mcd_force_to_parent(fp, &b->X_parent, b->f);
            for (int i = 0; i < 6; i++) d->bd[B->parent].f[i] += fp[i];
        }
    }
}

mcd_status mcd_inverse_dynamics(const mcd_model *m, mcd_data *d, const double *q,
                                const double *qd, const double *qdd, const double *f_ext,
                                double *tau)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s == MCD_OK) s = mcd_check_vector_nv(m, d, "qd", qd);
    if (s == MCD_OK) s = mcd_check_vector_nv(m, d, "qdd", qdd);
    if (s == MCD_OK) s = mcd_check_fext(m, d, f_ext);
    if (s == MCD_OK && !tau) s = mcd_fail(&d->err, MCD_ERR_ARG, "tau is NULL");
    if (s != MCD_OK) return s;
    mcd_kinematics_pass(m, d, q);
    mcd_velocity_pass(m, d, qd);
    newton_euler(m, d, qd, qdd, f_ext, 1, tau);
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
    newton_euler(m, d, qd, NULL, NULL, 1, C);
    return MCD_OK;
}

mcd_status mcd_gravity_forces(const mcd_model *m, mcd_data *d, const double *q, double *G)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s == MCD_OK && !G) s = mcd_fail(&d->err, MCD_ERR_ARG, "G is NULL");
    if (s != MCD_OK) return s;
    mcd_kinematics_pass(m, d, q);
    newton_euler(m, d, NULL, NULL, NULL, 1, G);
    return MCD_OK;
}

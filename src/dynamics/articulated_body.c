/* The articulated-body sweeps of Jain's innovations factorization of M^{-1}
 * (Jain, "Robot and Multibody Dynamics", Ch. 7; Rodriguez-Jain-Kreutz):
 *
 *   tip to base   P(k)  = sum_children phi P+(child) phi^T + M(k)
 *                 D(k)  = H P(k) H^*,   G(k) = P(k) H^* D(k)^{-1}
 *                 P+(k) = [I - G(k) H] P(k)                    (tau-bar P)
 *                 z(k)  = sum_children phi z+(child) + b(k)  (+ P c)
 *                 eps(k) = T(k) - H z(k),   z+(k) = z(k) + G(k) eps(k)
 *   base to tip   alpha'(k) = phi^T alpha(parent) (+ c(k))
 *                 qdd(k) = D^{-1} eps(k) - G^T alpha'(k)
 *                 alpha(k) = alpha'(k) + H^* qdd(k)
 *
 * Here U = P H^* is stored (G = U D^{-1}), all in body coordinates. Each
 * pass is O(N); M is never formed. */
#include "dynamics_internal.h"

#include <string.h>

mcd_status mcd_aba_inertia_pass(const mcd_model *m, mcd_data *d)
{
    for (int k = 0; k < m->nbody; k++) d->bd[k].P = m->body[k].inertia;
    for (int k = m->nbody - 1; k >= 0; k--) {
        const mcd_body *B = &m->body[k];
        mcd_body_data *b = &d->bd[k];
        const int n = B->nv;
        double D[36];
        for (int c = 0; c < n; c++) mcd_sym6_mul_v(b->U + 6 * c, &b->P, b->S + 6 * c);
        for (int c = 0; c < n; c++) {
            double col[6];
            mcd_hinge_project(col, b->S, n, b->U + 6 * c);
            for (int r = 0; r < n; r++) D[n * r + c] = col[r];
        }
        if (!mcd_small_spd_inverse(n, D, b->Dinv))
            return mcd_fail(&d->err, MCD_ERR_SINGULAR,
                            "articulated inertia D = H P H^* of joint '%s' is not positive "
                            "definite (massless or degenerate bodies beyond it)",
                            m->joint_name[k]);
        if (B->parent >= 0) {
            mcd_sym6 Pplus, Pp;
            Pplus = b->P;
            mcd_sym6_sub_udu(&Pplus, n, b->U, b->Dinv);
            mcd_sym6_to_parent(&Pp, &b->X_parent, &Pplus);
            mcd_sym6_add(&d->bd[B->parent].P, &Pp);
        }
    }
    return MCD_OK;
}

void mcd_aba_bias_pass(const mcd_model *m, mcd_data *d, const double *tau, int with_c)
{
    for (int k = m->nbody - 1; k >= 0; k--) {
        const mcd_body *B = &m->body[k];
        mcd_body_data *b = &d->bd[k];
        const int n = B->nv;
        double Hz[6], zplus[6];
        mcd_hinge_project(Hz, b->S, n, b->f);
        for (int i = 0; i < n; i++) b->u[i] = (tau ? tau[B->vadr + i] : 0.0) - Hz[i];
        if (B->parent < 0) continue;
        /* z+ = z + P+ c + G eps = z + P c + U D^{-1} (eps - U^T c) */
        double r[6], nu[6];
        memcpy(zplus, b->f, sizeof zplus);
        for (int i = 0; i < n; i++) r[i] = b->u[i];
        if (with_c) {
            double Pc[6], Uc[6];
            mcd_sym6_mul_v(Pc, &b->P, b->c);
            for (int i = 0; i < 6; i++) zplus[i] += Pc[i];
            mcd_hinge_project(Uc, b->U, n, b->c);
            for (int i = 0; i < n; i++) r[i] -= Uc[i];
        }
        for (int i = 0; i < n; i++) {
            nu[i] = 0.0;
            for (int j = 0; j < n; j++) nu[i] += b->Dinv[n * i + j] * r[j];
        }
        for (int c = 0; c < n; c++)
            for (int i = 0; i < 6; i++) zplus[i] += b->U[6 * c + i] * nu[c];
        double zp[6];
        mcd_force_to_parent(zp, &b->X_parent, zplus);
        for (int i = 0; i < 6; i++) d->bd[B->parent].f[i] += zp[i];
    }
}

void mcd_aba_accel_pass(const mcd_model *m, mcd_data *d, const double a_world[6], int with_c,
                        double *qdd)
{
    static const double zero[6] = {0};
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        mcd_body_data *b = &d->bd[k];
        const int n = B->nv;
        const double *ap = B->parent >= 0 ? d->bd[B->parent].a : (a_world ? a_world : zero);
        mcd_motion_to_child(b->a, &b->X_parent, ap);
        if (with_c)
            for (int i = 0; i < 6; i++) b->a[i] += b->c[i];
        double Ua[6], r[6];
        mcd_hinge_project(Ua, b->U, n, b->a);
        for (int i = 0; i < n; i++) r[i] = b->u[i] - Ua[i];
        double *x = qdd + B->vadr;
        for (int i = 0; i < n; i++) {
            x[i] = 0.0;
            for (int j = 0; j < n; j++) x[i] += b->Dinv[n * i + j] * r[j];
        }
        double Sx[6];
        mcd_hinge_apply(Sx, b->S, n, x);
        for (int i = 0; i < 6; i++) b->a[i] += Sx[i];
    }
}

mcd_status mcd_minv_factor(const mcd_model *m, mcd_data *d, const double *q)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s != MCD_OK) return s;
    d->factor_valid = 0;
    mcd_kinematics_pass(m, d, q);
    s = mcd_aba_inertia_pass(m, d);
    if (s == MCD_OK) d->factor_valid = 1;
    return s;
}

mcd_status mcd_minv_solve(const mcd_model *m, mcd_data *d, const double *x, double *y)
{
    if (!m || !d) return MCD_ERR_ARG;
    if (!d->factor_valid)
        return mcd_fail(&d->err, MCD_ERR_ARG,
                        "mcd_minv_solve: no factorization (call mcd_minv_factor first)");
    mcd_status s = mcd_check_vector_nv(m, d, "x", x);
    if (s == MCD_OK && !y) s = mcd_fail(&d->err, MCD_ERR_ARG, "y is NULL");
    if (s != MCD_OK) return s;
    for (int k = 0; k < m->nbody; k++) memset(d->bd[k].f, 0, sizeof d->bd[k].f);
    mcd_aba_bias_pass(m, d, x, 0);
    mcd_aba_accel_pass(m, d, NULL, 0, y);
    return MCD_OK;
}

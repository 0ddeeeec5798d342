/* The articulated-body sweeps of Jain's innovations factorization of M^{-1}
 * (Jain, "Robot and Multibody Dynamics", Ch. 7; Rodriguez, Jain and
 * Kreutz-Delgado 1991), with spatial quantities referred to the world
 * origin so that phi moves them between bodies unchanged:
 *
 *   tip to base   P(k)   = M(k) + sum_children P+(child)
 *                 D(k)   = H P(k) H^* (+ hinge_diagonal, data.h),
 *                 G(k)   = P(k) H^* D(k)^{-1}
 *                 P+(k)  = [I - G(k) H] P(k)                 (tau-bar P)
 *                 z(k)   = b(k) + sum_children z+(child)
 *                 eps(k) = T(k) - H z(k)
 *                 z+(k)  = z(k) + P+(k) c(k) + G(k) eps(k)
 *   base to tip   alpha'(k) = alpha(parent) + c(k)
 *                 qdd(k)    = D(k)^{-1} eps(k) - G(k)^T alpha'(k)
 *                 alpha(k)  = alpha'(k) + H^* qdd(k)
 *
 * U = P H^* is stored (G = U D^{-1}); after the inertia pass bd.P holds
 * P+(k). Each pass is O(N); M is never formed. */
#include "dynamics_internal.h"

#include <string.h>

/* x = Dinv r for an n x n matrix. */
static inline void small_mul(int n, const double *Dinv, const double *r, double *x)
{
    for (int i = 0; i < n; i++) {
        x[i] = 0.0;
        for (int j = 0; j < n; j++) x[i] += Dinv[n * i + j] * r[j];
    }
}

mcd_status mcd_aba_inertia_pass(const mcd_model *m, mcd_data *d)
{
    for (int k = 0; k < m->nbody; k++) d->bd[k].P = d->bd[k].I;
    for (int k = m->nbody - 1; k >= 0; k--) {
        const mcd_body *B = &m->body[k];
        mcd_body_data *b = &d->bd[k];
        const int n = B->nv;
        const double *S = d->S + 6 * B->vadr;
        double *U = d->U + 6 * B->vadr, D[36];
        for (int c = 0; c < n; c++) mcd_sym6_mul_v(U + 6 * c, &b->P, S + 6 * c);
        for (int c = 0; c < n; c++) {
            double col[6];
            mcd_hinge_project(col, S, n, U + 6 * c);
            for (int r = 0; r < n; r++) D[n * r + c] = col[r];
            if (d->hinge_diagonal) D[n * c + c] += d->hinge_diagonal[B->vadr + c];
        }
        if (!mcd_small_spd_inverse(n, D, b->Dinv))
            return mcd_fail(&d->err, MCD_ERR_SINGULAR,
                            "articulated inertia D = H P H^* of joint '%s' is not positive "
                            "definite (massless or degenerate bodies beyond it)",
                            m->joint_name[k]);
        mcd_sym6_sub_udu(&b->P, n, U, b->Dinv);
        if (B->parent >= 0) mcd_sym6_add(&d->bd[B->parent].P, &b->P);
    }
    return MCD_OK;
}

void mcd_aba_bias_pass(const mcd_model *m, mcd_data *d, const double *tau, int with_c)
{
    for (int k = m->nbody - 1; k >= 0; k--) {
        const mcd_body *B = &m->body[k];
        mcd_body_data *b = &d->bd[k];
        const int n = B->nv;
        double Hz[6];
        mcd_hinge_project(Hz, d->S + 6 * B->vadr, n, b->f);
        for (int i = 0; i < n; i++) b->u[i] = (tau ? tau[B->vadr + i] : 0.0) - Hz[i];
        if (B->parent < 0) continue;
        double nu[6], zplus[6], *zp = d->bd[B->parent].f;
        small_mul(n, b->Dinv, b->u, nu);
        mcd_hinge_apply(zplus, d->U + 6 * B->vadr, n, nu); /* G eps */
        if (with_c) {
            double Pc[6];
            mcd_sym6_mul_v(Pc, &b->P, b->c);
            for (int i = 0; i < 6; i++) zplus[i] += Pc[i];
        }
        for (int i = 0; i < 6; i++) zp[i] += b->f[i] + zplus[i];
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
        for (int i = 0; i < 6; i++) b->a[i] = ap[i] + (with_c ? b->c[i] : 0.0);
        double Ua[6], r[6], Sx[6];
        mcd_hinge_project(Ua, d->U + 6 * B->vadr, n, b->a);
        for (int i = 0; i < n; i++) r[i] = b->u[i] - Ua[i];
        double *x = qdd + B->vadr;
        small_mul(n, b->Dinv, r, x);
        mcd_hinge_apply(Sx, d->S + 6 * B->vadr, n, x);
        for (int i = 0; i < 6; i++) b->a[i] += Sx[i];
    }
}

mcd_status mcd_minv_factor(const mcd_model *m, mcd_data *d, const double *q)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s != MCD_OK) return s;
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

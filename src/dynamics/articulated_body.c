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
 *                 eps(k) = T(k) - H z(k),   nu(k) = D(k)^{-1} eps(k)
 *                 z+(k)  = z(k) + P+(k) a(k) + G(k) eps(k)
 *   base to tip   alpha'(k) = alpha(parent) + a(k)
 *                 qdd(k)    = nu(k) - G(k)^T alpha'(k)
 *                 alpha(k)  = alpha'(k) + H^* qdd(k)
 *
 * P+(k) is not stored: it enters the parent's P directly, and the bias
 * sweep uses P+ a = P a - G (H P a), so
 *   z+(k) = z(k) + P(k) a(k) + G(k) [eps(k) - H P(k) a(k)].
 * One-column hinges (revolute, prismatic) take a scalar path: D is a
 * number, no matrix inverse. Each pass is O(N); M is never formed.
 *
 * P(k) is needed only from the visit of k's first child (which starts it)
 * to k's own visit, and forward dynamics makes the bias step of each body
 * in the same visit as its inertia step (z(k) is complete then too), so
 * P(k) lives in one of a few reused slots (d->P, mcd_aba_plan_slots), not
 * in a per-body array: a chain needs two. */
#include "dynamics_internal.h"

#include <string.h>

/* x = A r for an n x n row-major A. */
static inline void small_mul(int n, const double *A, const double *r, double *x)
{
    for (int i = 0; i < n; i++) {
        x[i] = 0.0;
        for (int j = 0; j < n; j++) x[i] += A[n * i + j] * r[j];
    }
}

/* One-column hinge s: D = s^T P s (+ diagonal term), G = P s / D, and
 * P(parent) = P_base + P - (P s)(P s)^T / D with P_base = M(parent) when
 * M_base is M(parent) (mcd_body_plan.starts_parent), else P(parent).
 * Returns 0 if D is not positive. */
static int inertia_step_one_dof(const mcd_sym6 *P, const double *s, double extra, double *G,
                                double *Dinv, const mcd_rigid_inertia *M_base, mcd_sym6 *P_parent)
{
    double U[6];
    mcd_sym6_mul_v(U, P, s);
    const double D =
        s[0] * U[0] + s[1] * U[1] + s[2] * U[2] + s[3] * U[3] + s[4] * U[4] + s[5] * U[5] + extra;
    if (!(D > 0.0) || !(D < HUGE_VAL)) return 0;
    Dinv[0] = 1.0 / D;
    for (int i = 0; i < 6; i++) G[i] = U[i] * Dinv[0];
    if (M_base)
        mcd_sym6_rigid_sum_sub_uut(P_parent, M_base, P, U, Dinv[0]);
    else if (P_parent)
        mcd_sym6_sum_sub_uut(P_parent, P_parent, P, U, Dinv[0]);
    return 1;
}

/* U = P H^* for an n-column hinge; with unit_translation (mcd_body_plan)
 * the translation columns are P's columns 3 + c, [B_:c; C_:c], which
 * mcd_sym6_mul_v would sum from products by exact zeros and one. */
static void inertia_times_hinge(const mcd_sym6 *P, const double *Hs, int n, int unit_translation,
                                double *U)
{
    for (int c = 0; c < n; c++) {
        double *u = U + 6 * c;
        if (unit_translation && c < 3) {
            for (int i = 0; i < 3; i++) u[i] = P->B[3 * i + c], u[3 + i] = P->C[3 * i + c];
            continue;
        }
        mcd_sym6_mul_v(u, P, Hs + 6 * c);
    }
}

/* n-column hinge: D = H P H^* (+ diagonal), upper triangle only (all the
 * Cholesky reads), D^{-1} by Cholesky, G = P H^* D^{-1}, and P(parent) =
 * P_base + P - (P H^*) D^{-1} (P H^*)^T, P_base as for one column. With unit_translation a
 * translation row r < 3 of H is [0; e_r], and D_rc is U_c's entry 3 + r. */
static inline int inertia_step_n(const mcd_sym6 *P, const double *Hs, int n, int unit_translation,
                                 const double *extra, double *G, double *Dinv,
                                 const mcd_rigid_inertia *M_base, mcd_sym6 *P_parent)
{
    double U[36], D[36] = {0}; /* its lower triangle is not read */
    inertia_times_hinge(P, Hs, n, unit_translation, U);
    for (int c = 0; c < n; c++) {
        const double *u = U + 6 * c;
        for (int r = 0; r <= c; r++) {
            const double *s = Hs + 6 * r;
            D[n * r + c] = unit_translation && r < 3 ? u[3 + r]
                                                     : s[0] * u[0] + s[1] * u[1] + s[2] * u[2] +
                                                           s[3] * u[3] + s[4] * u[4] + s[5] * u[5];
        }
        if (extra) D[n * c + c] += extra[c];
    }
    if (!mcd_small_spd_inverse_n(n, D, Dinv)) return 0; /* n > 1 here */
    for (int c = 0; c < n; c++)
        for (int i = 0; i < 6; i++) {
            G[6 * c + i] = 0.0;
            for (int l = 0; l < n; l++) G[6 * c + i] += U[6 * l + i] * Dinv[n * l + c];
        }
    if (P_parent) {
        if (M_base) mcd_rigid_inertia_to_sym6(P_parent, M_base);
        mcd_sym6_add(P_parent, P);
        mcd_sym6_sub_udu(P_parent, n, U, Dinv);
    }
    return 1;
}

/* inertia_step_n, inlined with n = 6 (the free joint), whose loops then
 * unroll. */
static int inertia_step(const mcd_sym6 *P, const double *Hs, int n, int unit_translation,
                        const double *extra, double *G, double *Dinv,
                        const mcd_rigid_inertia *M_base, mcd_sym6 *P_parent)
{
    if (n == 6) return inertia_step_n(P, Hs, 6, unit_translation, extra, G, Dinv, M_base, P_parent);
    return inertia_step_n(P, Hs, n, unit_translation, extra, G, Dinv, M_base, P_parent);
}

int mcd_aba_plan_slots(const mcd_model *m, mcd_body_plan *plan, int *free_slots)
{
    int nslot = 0, nfree = 0;
    for (int k = m->nbody - 1; k >= 0; k--) {
        const int parent = m->body[k].parent;
        if (plan[k].leaf) plan[k].P_slot = nfree > 0 ? free_slots[--nfree] : nslot++;
        if (parent >= 0 && plan[k].starts_parent)
            plan[parent].P_slot = nfree > 0 ? free_slots[--nfree] : nslot++;
        free_slots[nfree++] = plan[k].P_slot;
    }
    for (int k = 0; k < m->nbody; k++)
        plan[k].P_parent_slot = m->body[k].parent >= 0 ? plan[m->body[k].parent].P_slot : -1;
    return nslot;
}

/* The inertia step of body k: P(k) complete, P(parent) started or added
 * to; returns 0 if D(k) is not positive definite. */
static inline int inertia_body(mcd_data *d, int k)
{
    const mcd_body_plan *plan = &d->plan[k];
    const int n = plan->nv, at = 6 * plan->vadr;
    const double *extra = d->hinge_diagonal ? d->hinge_diagonal + plan->vadr : NULL;
    mcd_sym6 *P = d->P + plan->P_slot;
    mcd_sym6 *P_parent = plan->parent >= 0 ? d->P + plan->P_parent_slot : NULL;
    const mcd_rigid_inertia *M_base =
        P_parent && plan->starts_parent ? &d->bd[plan->parent].M : NULL;
    if (plan->leaf) mcd_rigid_inertia_to_sym6(P, &d->bd[k].M);
    return n == 1 ? inertia_step_one_dof(P, d->Hstar + at, extra ? extra[0] : 0.0, d->G + at,
                                         d->Dinv + plan->dinv_adr, M_base, P_parent)
                  : inertia_step(P, d->Hstar + at, n, plan->unit_translation, extra, d->G + at,
                                 d->Dinv + plan->dinv_adr, M_base, P_parent);
}

/* The sweep; *singular = the first body whose D is not positive definite,
 * or -1. */
static void inertia_loop(const mcd_model *m, mcd_data *d, int *singular)
{
    *singular = -1;
    for (int k = m->nbody - 1; k >= 0; k--)
        if (!inertia_body(d, k)) {
            *singular = k;
            return;
        }
}
MCD_AVX2_TWIN(inertia_loop, (const mcd_model *m, mcd_data *d, int *singular), (m, d, singular))

static mcd_status singular_hinge(const mcd_model *m, mcd_data *d, int k)
{
    return mcd_fail(&d->err, MCD_ERR_SINGULAR,
                    "articulated inertia D = H P H^* of joint '%s' is not positive "
                    "definite (massless or degenerate bodies beyond it)",
                    m->joint_name[k]);
}

mcd_status mcd_aba_inertia_pass(const mcd_model *m, mcd_data *d)
{
    int k;
    MCD_RUN(d, inertia_loop, (m, d, &k));
    return k < 0 ? MCD_OK : singular_hinge(m, d, k);
}

/* One body of the bias sweep (n columns; inlined with n = 1 for the
 * one-column hinges, whose loops then unroll). */
static inline void bias_step(const mcd_body_plan *B, mcd_data *d, int n, mcd_body_data *b,
                             const mcd_sym6 *P, const double *tau, int with_a)
{
    const int at = 6 * B->vadr;
    const double *Hs = d->Hstar + at;
    double Hz[6], eps[6];
    mcd_hinge_project(Hz, Hs, n, b->z);
    for (int i = 0; i < n; i++) eps[i] = (tau ? tau[B->vadr + i] : 0.0) - Hz[i];
    small_mul(n, d->Dinv + B->dinv_adr, eps, d->nu + B->vadr);
    if (B->parent < 0) return;
    double *z_parent = d->bd[B->parent].z, Pa[6] = {0}, HPa[6], zplus[6];
    if (with_a) { /* eps - H P a, with P a kept for z+ */
        mcd_sym6_mul_v(Pa, P, b->a);
        mcd_hinge_project(HPa, Hs, n, Pa);
        for (int i = 0; i < n; i++) eps[i] -= HPa[i];
    }
    mcd_hinge_apply(zplus, d->G + at, n, eps);
    for (int i = 0; i < 6; i++) z_parent[i] += b->z[i] + zplus[i] + Pa[i];
}

/* The bias step of body k (with_a: P(k) in its slot, a(k) in bd). */
static inline void bias_body(mcd_data *d, int k, const double *tau, int with_a)
{
    const mcd_body_plan *B = &d->plan[k];
    const mcd_sym6 *P = with_a ? d->P + d->plan[k].P_slot : NULL;
    if (B->nv == 1)
        bias_step(B, d, 1, &d->bd[k], P, tau, with_a);
    else
        bias_step(B, d, B->nv, &d->bd[k], P, tau, with_a);
}

static void bias_loop(const mcd_model *m, mcd_data *d, const double *tau)
{
    for (int k = m->nbody - 1; k >= 0; k--) bias_body(d, k, tau, 0);
}
MCD_AVX2_TWIN(bias_loop, (const mcd_model *m, mcd_data *d, const double *tau), (m, d, tau))

void mcd_aba_bias_pass(const mcd_model *m, mcd_data *d, const double *tau)
{
    MCD_RUN(d, bias_loop, (m, d, tau));
}

/* The inertia and bias sweeps in one visit per body (the same operations
 * per body as the two sweeps; *singular as inertia_loop's). */
static void inertia_bias_loop(const mcd_model *m, mcd_data *d, const double *tau, int *singular)
{
    *singular = -1;
    for (int k = m->nbody - 1; k >= 0; k--) {
        if (!inertia_body(d, k)) {
            *singular = k;
            return;
        }
        bias_body(d, k, tau, 1);
    }
}
MCD_AVX2_TWIN(inertia_bias_loop,
              (const mcd_model *m, mcd_data *d, const double *tau, int *singular),
              (m, d, tau, singular))

mcd_status mcd_aba_inertia_bias_pass(const mcd_model *m, mcd_data *d, const double *tau)
{
    int k;
    MCD_RUN(d, inertia_bias_loop, (m, d, tau, &k));
    return k < 0 ? MCD_OK : singular_hinge(m, d, k);
}

/* One body of the acceleration sweep (n columns, as bias_step). */
static inline void accel_step(const mcd_body_plan *B, mcd_data *d, int n, mcd_body_data *b,
                              const double *ap, int with_a, double *qdd)
{
    const int at = 6 * B->vadr;
    for (int i = 0; i < 6; i++) b->alpha[i] = ap[i] + (with_a ? b->a[i] : 0.0);
    double Ga[6], Hx[6];
    mcd_hinge_project(Ga, d->G + at, n, b->alpha);
    double *x = qdd + B->vadr;
    for (int i = 0; i < n; i++) x[i] = d->nu[B->vadr + i] - Ga[i];
    mcd_hinge_apply(Hx, d->Hstar + at, n, x);
    for (int i = 0; i < 6; i++) b->alpha[i] += Hx[i];
}

static void accel_loop(const mcd_model *m, mcd_data *d, const double *a_world, int with_a,
                       double *qdd)
{
    static const double zero[6] = {0};
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body_plan *B = &d->plan[k];
        const double *ap = B->parent >= 0 ? d->bd[B->parent].alpha : (a_world ? a_world : zero);
        if (B->nv == 1)
            accel_step(B, d, 1, &d->bd[k], ap, with_a, qdd);
        else
            accel_step(B, d, B->nv, &d->bd[k], ap, with_a, qdd);
    }
}

MCD_AVX2_TWIN(accel_loop,
              (const mcd_model *m, mcd_data *d, const double *a_world, int with_a, double *qdd),
              (m, d, a_world, with_a, qdd))

void mcd_aba_accel_pass(const mcd_model *m, mcd_data *d, const double a_world[6], int with_a,
                        double *qdd)
{
    MCD_RUN(d, accel_loop, (m, d, a_world, with_a, qdd));
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
    for (int k = 0; k < m->nbody; k++) memset(d->bd[k].z, 0, sizeof d->bd[k].z);
    mcd_aba_bias_pass(m, d, x);
    mcd_aba_accel_pass(m, d, NULL, 0, y);
    return MCD_OK;
}

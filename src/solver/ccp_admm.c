/* ADMM for the CCP (include/mcdyn/ccp.h, mcd_ccp_solve_admm): the cone QP
 * min 1/2 gamma^T N gamma + r^T gamma over K split as gamma = z, z in K
 * (Boyd et al. 2011, Sec. 5; Carpentier, Le Lidec, Montaut & Louis 2024,
 * "From compliant to rigid contact simulation: a unified and efficient
 * approach", Alg. 1 without the De Saxce correction, which the convex CCP
 * does not need), with a proximal term on x and the spectral rule for rho.
 * One Cholesky factor of N + (rho + eta) I per value of rho: dense
 * (LAPACK dpotrf), or sparse (CHOLMOD, sparse_cholesky.h) on large
 * block-sparse N. */
#include "../base/clock.h"
#include "../base/lapack.h"
#include "../base/small_cholesky.h"
#include "ccp_admm.h"
#include "ccp_common.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define POWER_ITERATIONS 20   /* for lambda_max(N): only rho's scale depends on it */
#define RHO_POWER_START  0.2  /* p of the spectral rule at the start (Carpentier et al.) */
#define RHO_POWER_STEP   0.02 /* change of p when the residuals are unbalanced */
#define RHO_POWER_MAX    0.5  /* |p| <= 0.5: rho in [m, L], N + rho I conditioned as N + m I */
#define RESIDUAL_RATIO   2.0  /* primal / dual residual imbalance that changes rho */
#define RELAXATION       1.6  /* over-relaxation alpha of the x-update */
#define BALANCE_INTERVAL 10   /* iterations between two residual-balance checks */
#define MAX_RHO_CHANGES  200  /* then rho stays: ADMM converges for any fixed rho */

void mcd_admm_bind(mcd_admm *a, const mcd_fc3d *p, double *F, double *vec,
                   mcd_sparse_cholesky *chol)
{
    int n = mcd_fc3d_size(p);
    a->p = p, a->n = n;
    a->F = F;
    a->chol = chol, a->sparse = NULL;
    double **v[] = {&a->x, &a->z, &a->y, &a->x_old, &a->z_old, &a->rhs, &a->d, &a->best, &a->v};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) *v[i] = vec + i * (size_t)n;
}

size_t mcd_ccp_admm_work_size(const mcd_fc3d *p)
{
    if (!p || p->nb < 0 || p->nc < 0 || p->nc > (INT32_MAX - p->nb) / 3) return 0;
    size_t n = (size_t)mcd_fc3d_size(p);
    if (n > 0 && n > (SIZE_MAX / sizeof(double) - 9) / n - 9) return 0;
    return n * n + 9 * n;
}

/* lambda_max(N) by power iteration from ones (1 if N is zero). The
 * products stay dense even when a block product is set up: the block
 * product's other rounding of lambda_max moves rho by ~1e-16, enough to
 * turn the adaptive fixed point on ccp_poured_admm_208_group from its
 * capped-QP early stop into a converged run (solver-fixed-point,
 * stops_early_where_it_stalls), for a saving of 20 products per solve. */
static double largest_eigenvalue(mcd_admm *a)
{
    int n = a->n;
    for (int i = 0; i < n; i++) a->v[i] = 1.0;
    double lambda = 0.0;
    for (int it = 0; it < POWER_ITERATIONS; it++) {
        mcd_dense_matvec(n, a->p->W, a->v, NULL, a->rhs);
        double norm = mcd_dense_norm(n, a->rhs);
        if (!(norm > 0) || !isfinite(norm)) break;
        lambda = norm / mcd_dense_norm(n, a->v);
        for (int i = 0; i < n; i++) a->v[i] = a->rhs[i] / norm;
    }
    return lambda > 0 ? lambda : 1.0;
}

/* rho = sqrt(L m) (L / m)^p with m = eta, and the factor of N + (rho + eta) I:
 * sparse from W's entries in the pattern (no n^2 work), or dense, where W,
 * row-major and symmetric, is its own column-major copy. */
static int factor(mcd_admm *a)
{
    int n = a->n, info = 0;
    a->rho = sqrt(a->L * a->eta) * pow(a->L / a->eta, a->power);
    if (a->sparse) {
        mcd_sparse_cholesky_gather(a->sparse, a->p->W, a->rho + a->eta);
        return mcd_sparse_cholesky_factor(a->sparse);
    }
    memcpy(a->F, a->p->W, (size_t)n * n * sizeof *a->F);
    for (int i = 0; i < n; i++) a->F[(size_t)i * n + i] += a->rho + a->eta;
    dpotrf_("L", &n, a->F, &n, &info);
    return info == 0;
}

/* b := (N + (rho + eta) I)^{-1} b with the factor F. dpotrf's column-major
 * lower L is, read row-major, the upper U = L^T of base/small_cholesky.h,
 * whose plain-C solve (U^T y = b, U x = y) replaces dpotrs: for one right
 * side dpotrs's dtrsm packs F at every call. On the A1 drops' hard steps
 * (n = 27-42) that packing was a third of its instructions (session 9), on
 * the piles' groups half of the solve's time: 30 us against 14 us at
 * n = 250, 146 us against 50 us at n = 550 (session 13). The x-update is
 * the fixed point's (fc3d_fixed_point.h) inner loop (docs/solvers.md, "The
 * A1 drops that stop or grind", session 9, and "The piles' cost", session
 * 13). The sparse factor's solve (sparse_cholesky.h) costs O(nnz(L)); if
 * it fails, b becomes NaN, which the callers' residual tests catch. */
static void solve_factored(const mcd_admm *a, double *b)
{
    if (!a->sparse)
        mcd_small_cholesky_solve(a->n, a->F, b);
    else if (!mcd_sparse_cholesky_solve(a->sparse, b))
        for (int i = 0; i < a->n; i++) b[i] = NAN;
}

static void project_all(const mcd_fc3d *p, double *x)
{
    for (int k = 0; k < p->nc; k++) mcd_ccp_proj3(p->mu[k], x + p->nb + MCD_FC3D_ROWS * k);
}

void mcd_admm_iterate(mcd_admm *a, double *primal, double *dual)
{
    int n = a->n;
    memcpy(a->x_old, a->x, (size_t)n * sizeof *a->x);
    memcpy(a->z_old, a->z, (size_t)n * sizeof *a->z);
    for (int i = 0; i < n; i++)
        a->x[i] = a->eta * a->x[i] + a->rho * a->z[i] - a->y[i] - a->p->q[i];
    solve_factored(a, a->x);
    for (int i = 0; i < n; i++) /* over-relaxation (Boyd et al. 2011, Sec. 3.4.3) */
        a->x[i] = RELAXATION * a->x[i] + (1 - RELAXATION) * a->z_old[i];
    for (int i = 0; i < n; i++) a->z[i] = a->x[i] + a->y[i] / a->rho;
    project_all(a->p, a->z);
    double rp = 0.0, rd = 0.0;
    for (int i = 0; i < n; i++) {
        a->y[i] += a->rho * (a->x[i] - a->z[i]);
        rp = fmax(rp, fabs(a->x[i] - a->z[i]));
        rd = fmax(rd, fabs(a->eta * (a->x[i] - a->x_old[i]) + a->rho * (a->z[i] - a->z_old[i])));
    }
    *primal = rp, *dual = rd;
}

/* The spectral rule's update of p from the residual balance; 1 if rho changed. */
static int balance(mcd_admm *a, double primal, double dual)
{
    double power = a->power;
    if (primal > RESIDUAL_RATIO * dual)
        power = fmin(power + RHO_POWER_STEP, RHO_POWER_MAX);
    else if (dual > RESIDUAL_RATIO * primal)
        power = fmax(power - RHO_POWER_STEP, -RHO_POWER_MAX);
    if (power == a->power) return 0;
    a->power = power;
    return 1;
}

int mcd_admm_start(mcd_admm *a, double *gamma, double prox)
{
    size_t bytes = (size_t)a->n * sizeof(double);
    project_all(a->p, gamma);
    memcpy(a->x, gamma, bytes), memcpy(a->z, gamma, bytes), memcpy(a->best, gamma, bytes);
    memset(a->y, 0, bytes);
    a->sparse = mcd_sparse_cholesky_setup(a->chol, a->n, a->p->W, a->p->nb) ? a->chol : NULL;
    a->L = largest_eigenvalue(a);
    a->eta = prox * a->L, a->power = RHO_POWER_START;
    a->changes = 0;
    return factor(a);
}

int mcd_admm_rebalance(mcd_admm *a, int it, double primal, double dual)
{
    if (it % BALANCE_INTERVAL || a->changes == MAX_RHO_CHANGES || !balance(a, primal, dual))
        return 1;
    a->changes++;
    return factor(a);
}

static mcd_status finish(mcd_admm *a, const mcd_ccp_opts *o, double *gamma, int it, mcd_status fail,
                         double t0, mcd_ccp_stats *st, mcd_error *err)
{
    const char *name = "ccp-admm";
    int n = a->n;
    memcpy(gamma, a->best, (size_t)n * sizeof *gamma);
    mcd_dense_matvec(n, a->p->W, gamma, a->p->q, a->d); /* the statistics of gamma, exactly */
    mcd_ccp_measure(a->p, gamma, a->d, st);
    st->iterations = it;
    mcd_status s = MCD_OK;
    if (fail == MCD_ERR_SINGULAR)
        s = mcd_fail(err, fail, "%s: N + (rho + eta) I not positive definite (rho %g, eta %g)",
                     name, a->rho, a->eta);
    else if (st->residual <= o->tol)
        s = MCD_OK;
    else if (fail != MCD_OK)
        s = mcd_fail(err, MCD_ERR_NOT_CONVERGED,
                     "%s: iterate became non-finite after %d iterations; best residual %g", name,
                     it, st->residual);
    else
        s = mcd_fail(err, MCD_ERR_NOT_CONVERGED, "%s: residual %g > tol %g after %d iterations",
                     name, st->residual, o->tol, it);
    st->status = s;
    st->seconds = mcd_clock_seconds() - t0;
    return s;
}

/* The iterations from gamma on the bound engine a, until the CCP's
 * stopping rule or max_iter; d = N z + r by the sparse state's block
 * product when it is set up. */
static mcd_status run(mcd_admm *a, const mcd_ccp_opts *o, double *gamma, double t0,
                      mcd_ccp_stats *st, mcd_error *err)
{
    const mcd_fc3d *p = a->p;
    int n = a->n;
    size_t bytes = (size_t)n * sizeof(double);
    int factored = mcd_admm_start(a, gamma, o->prox);
    const mcd_block_product *product = mcd_sparse_cholesky_product(a->chol);
    mcd_ccp_stats cur = {0}, bst;
    mcd_block_matvec(product, n, p->W, a->z, p->q, a->d);
    mcd_ccp_measure(p, a->z, a->d, &bst);
    if (!factored) return finish(a, o, gamma, 0, MCD_ERR_SINGULAR, t0, st, err);
    int it = 0;
    while (!(bst.residual <= o->tol) && it < o->max_iter) {
        it++;
        double primal, dual;
        mcd_admm_iterate(a, &primal, &dual);
        mcd_block_matvec(product, n, p->W, a->z, p->q, a->d);
        mcd_ccp_measure(p, a->z, a->d, &cur);
        if (isnan(cur.residual)) return finish(a, o, gamma, it, MCD_ERR_NONFINITE, t0, st, err);
        if (cur.residual < bst.residual) {
            bst = cur;
            memcpy(a->best, a->z, bytes);
        }
        if (!mcd_admm_rebalance(a, it, primal, dual))
            return finish(a, o, gamma, it, MCD_ERR_SINGULAR, t0, st, err);
    }
    return finish(a, o, gamma, it, MCD_OK, t0, st, err);
}

mcd_status mcd_ccp_solve_admm_sparse(const mcd_fc3d *p, const mcd_ccp_opts *o, double *gamma,
                                     double *work, mcd_sparse_cholesky *chol, mcd_ccp_stats *st,
                                     mcd_error *err)
{
    double t0 = mcd_clock_seconds();
    mcd_ccp_stats local;
    if (!st) st = &local;
    mcd_status s = mcd_ccp_start("ccp-admm", p, o, gamma, work, 0, t0, st, err);
    if (s == MCD_OK && !(o->prox > 0 && o->prox < 1))
        s = st->status =
            mcd_fail(err, MCD_ERR_ARG, "ccp-admm: need prox in (0, 1) (got %g)", o->prox);
    if (s != MCD_OK) return s;
    if (mcd_fc3d_size(p) == 0) {
        mcd_ccp_measure(p, gamma, gamma, st);
        st->seconds = mcd_clock_seconds() - t0;
        return MCD_OK;
    }
    int n = mcd_fc3d_size(p);
    mcd_admm a;
    mcd_admm_bind(&a, p, work, work + (size_t)n * n, chol);
    return run(&a, o, gamma, t0, st, err);
}

mcd_status mcd_ccp_solve_admm(const mcd_fc3d *p, const mcd_ccp_opts *o, double *gamma, double *work,
                              mcd_ccp_stats *st, mcd_error *err)
{
    return mcd_ccp_solve_admm_sparse(p, o, gamma, work, NULL, st, err);
}

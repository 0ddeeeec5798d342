/* Proximal-point iteration (proximal.h). */
#include "proximal.h"

#include <math.h>
#include <string.h>

#define PROX_RHO0      1e-4 /* STEPS: rho / mean diag(M) at the start */
#define PROX_RHO_DOWN  0.25 /* STEPS: after an inner solve in at most PROX_EASY iterations */
#define PROX_EASY      5
#define PROX_RHO_UP    10.0  /* both rules: after an inner failure */
#define PROX_SIGMA     0.3   /* ERROR: rho = sigma e d */
#define PROX_DECAY     3.0   /* ERROR: rho falls by at most this factor per inner success */
#define PROX_TOL_RATIO 10.0  /* ERROR: inner tol = e / ratio (Siconos' ratio) */
#define PROX_RHO_MIN   1e-12 /* rho / mean diag(M) bounds */
#define PROX_RHO_MAX   1e2

static double mean_diagonal(int n, const double *M)
{
    double t = 0.0;
    for (int i = 0; i < n; i++) t += fabs(M[(size_t)i * n + i]);
    return t > 0 && isfinite(t) ? t / n : 1.0;
}

/* M_rho = M + rho I (Mp holds M off the diagonal already), q_rho = q - rho x_k. */
static void shift(const mcd_prox_problem *pp, double rho)
{
    int n = pp->n;
    for (int i = 0; i < n; i++) {
        pp->Mp[(size_t)i * n + i] = pp->M[(size_t)i * n + i] + rho;
        pp->qp[i] = pp->q[i] - rho * pp->anchor[i];
    }
}

static double clamp_rho(double rho, double d)
{
    return fmin(fmax(rho, PROX_RHO_MIN * d), PROX_RHO_MAX * d);
}

/* The shift of the next outer iteration after an inner solve that
 * returned st in `inner` iterations and left a point of original error e
 * (d: the mean diagonal). */
static double next_rho(mcd_prox_rule rule, double rho, double d, mcd_status st, int inner, double e)
{
    if (st != MCD_OK || !isfinite(e)) return clamp_rho(rho * PROX_RHO_UP, d);
    if (rule == MCD_PROX_RULE_ERROR)
        return clamp_rho(fmax(PROX_SIGMA * e * d, rho / PROX_DECAY), d);
    return inner <= PROX_EASY ? clamp_rho(rho * PROX_RHO_DOWN, d) : rho;
}

mcd_status mcd_proximal_solve(const mcd_prox_problem *pp, double tol, int max_outer, int max_inner,
                              double *x, int *iterations, double *error)
{
    int used = 0;
    int n = pp->n;
    size_t bytes = (size_t)n * sizeof *x;
    int by_error = pp->rule == MCD_PROX_RULE_ERROR;
    memcpy(pp->Mp, pp->M, (size_t)n * bytes);
    memcpy(pp->best, x, bytes);
    double best_err = pp->error(pp->ctx, x), e = best_err, d = mean_diagonal(n, pp->M);
    double rho = by_error && isfinite(e) ? clamp_rho(PROX_SIGMA * e * d, d) : PROX_RHO0 * d;
    for (int k = 0; k < max_outer && used < max_inner && !(best_err <= tol); k++) {
        memcpy(pp->anchor, x, bytes);
        shift(pp, rho);
        int inner = 0;
        double inner_tol = by_error ? fmax(e / PROX_TOL_RATIO, tol) : tol;
        mcd_status st = pp->solve(pp->ctx, inner_tol, x, &inner);
        *iterations += inner;
        used += inner;
        e = pp->error(pp->ctx, x);
        if (e < best_err) {
            best_err = e;
            memcpy(pp->best, x, bytes);
        }
        rho = next_rho(pp->rule, rho, d, st, inner, e);
        if (!isfinite(e) || (st != MCD_OK && !by_error)) {
            memcpy(x, pp->best, bytes); /* restart from the best iterate */
            e = best_err;
        }
    }
    memcpy(x, pp->best, bytes);
    *error = best_err;
    return best_err <= tol ? MCD_OK : MCD_ERR_NOT_CONVERGED;
}

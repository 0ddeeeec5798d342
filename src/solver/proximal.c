/* Proximal-point iteration (proximal.h). */
#include "proximal.h"

#include <math.h>
#include <string.h>

#define PROX_RHO0     1e-4 /* rho / mean diag(M) at the start */
#define PROX_RHO_UP   10.0 /* after an inner failure */
#define PROX_RHO_DOWN 0.25 /* after an inner solve in at most PROX_EASY iterations */
#define PROX_EASY     5
#define PROX_RHO_MIN  1e-12 /* rho / mean diag(M) bounds */
#define PROX_RHO_MAX  1e2

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

mcd_status mcd_proximal_solve(const mcd_prox_problem *pp, double tol, int max_outer, int max_inner,
                              double *x, int *iterations, double *error)
{
    int used = 0;
    int n = pp->n;
    size_t bytes = (size_t)n * sizeof *x;
    double scale = mean_diagonal(n, pp->M), rho = PROX_RHO0 * scale;
    memcpy(pp->Mp, pp->M, (size_t)n * bytes);
    memcpy(pp->best, x, bytes);
    double best_err = pp->error(pp->ctx, x);
    for (int k = 0; k < max_outer && used < max_inner && !(best_err <= tol); k++) {
        memcpy(pp->anchor, x, bytes);
        shift(pp, rho);
        int inner = 0;
        mcd_status st = pp->solve(pp->ctx, x, &inner);
        *iterations += inner;
        used += inner;
        double e = pp->error(pp->ctx, x);
        if (e < best_err) {
            best_err = e;
            memcpy(pp->best, x, bytes);
        }
        if (st != MCD_OK || !isfinite(e)) {
            rho = fmin(rho * PROX_RHO_UP, PROX_RHO_MAX * scale);
            memcpy(x, pp->best, bytes); /* restart from the best iterate */
        } else if (inner <= PROX_EASY) {
            rho = fmax(rho * PROX_RHO_DOWN, PROX_RHO_MIN * scale);
        }
    }
    memcpy(x, pp->best, bytes);
    *error = best_err;
    return best_err <= tol ? MCD_OK : MCD_ERR_NOT_CONVERGED;
}

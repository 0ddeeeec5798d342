/* Private: Levenberg-Marquardt minimisation of psi = 1/2 |Phi(x)|^2
 * (Eq. (6), (57)) for a square nonsmooth system Phi(x) = 0, as in
 * Mylapilli & Jain Sec. 5: the regular LM (RLM, Sec. 5.1) and the
 * projected LM (PLM, Sec. 5.2). Both stop at the first iterate with
 * psi <= psi_tol or error <= tol, report success only for error <= tol
 * (psi is not scale-invariant: a problem whose data are all 1e-16 has
 * psi < 1e-30 at any point), and neither allocates. */
#ifndef MCDYN_SOLVER_LM_H
#define MCDYN_SOLVER_LM_H

#include "dense.h"
#include "lm_sparse.h"
#include "mcdyn/status.h"

/* The system: residual evaluates Phi(x) into phi (n); error returns the
 * physical error measure and jacobian writes J = dPhi/dx (n x n,
 * row-major) at x, which is always the x of the latest residual call (the
 * methods ask for the error at accepted points only). */
typedef struct mcd_nls {
    int n;
    void *ctx;
    void (*residual)(void *ctx, const double *x, double *phi);
    double (*error)(void *ctx, const double *x);
    void (*jacobian)(void *ctx, const double *x, double *J);
    /* Optional (NULL: unknown): an n x n row-major matrix whose block
     * pattern bounds J's, for the sparse PLM step (lm_sparse.h: rows
     * [0, pattern_singles) are 1 x 1 blocks, the rest 3 x 3). */
    const double *pattern;
    int pattern_singles;
} mcd_nls;

typedef struct mcd_lm_opts {
    double tol;     /* stop when the error measure <= tol */
    double psi_tol; /* stop when psi <= psi_tol (success only if error <= tol) */
    double lambda0; /* LM parameter: initial (RLM) or fixed (PLM) */
    int max_iter;   /* >= 1 */
} mcd_lm_opts;

/* Preallocated arrays, sized for n = sys->n. */
typedef struct mcd_lm_ws {
    double *J; /* n x n */
    double *A; /* RLM: J^T J (n x n); PLM: the stacked [J; sqrt(lambda) I] (2n x n) */
    double *H; /* Cholesky factor of J^T J + lambda I (n x n) */
    double *phi, *phi_trial, *grad, *step, *x_trial, *x_best; /* n each */
    double *rhs;                                              /* 2n (PLM) */
    double *lwork;                                            /* LAPACK work (PLM: dgels) */
    int lwork_len;
    mcd_lm_sparse *sparse; /* PLM's sparse step (NULL: dense steps only) */
} mcd_lm_ws;

typedef struct mcd_lm_result {
    int iterations;
    double psi;   /* at the returned x */
    double error; /* at the returned x */
} mcd_lm_result;

/* The merit psi = 1/2 |Phi|^2 (Eq. (6)) of the residual phi (n). */
static inline double mcd_lm_merit(int n, const double *phi)
{
    return 0.5 * mcd_dense_dot(n, phi, phi);
}

/* RLM's predicted decrease q(x) - q(x + dx) of the quadratic model q(x +
 * dx) = 1/2 |Phi + J dx|^2 for the damped step (J^T J + lambda I) dx = -g,
 * g = J^T Phi (Mylapilli & Jain Sec. 5.1), in O(n) from g, dx and lambda. */
double mcd_lm_predicted_decrease(int n, const double *g, const double *dx, double lambda);

/* Minimise from x (n) and leave the final iterate in x (PLM: the one
 * with the least psi unless the final one meets tol); on return the
 * system's state (sys->ctx) is that of x. Returns MCD_OK (error <= tol),
 * MCD_ERR_NOT_CONVERGED (max_iter reached, PLM stalled: no progress of
 * its best psi within its stall window, or psi <= psi_tol with error >
 * tol) or MCD_ERR_NONFINITE (Phi of the start is not finite). */
mcd_status mcd_lm_regular(const mcd_nls *sys, const mcd_lm_opts *o, const mcd_lm_ws *w, double *x,
                          mcd_lm_result *res);
mcd_status mcd_lm_projected(const mcd_nls *sys, const mcd_lm_opts *o, const mcd_lm_ws *w, double *x,
                            mcd_lm_result *res);

#endif

/* Private: proximal-point iteration for a complementarity problem with
 * matrix M and vector q (an MLCP's M, q or a frictional-contact problem's
 * W, q), the robustness stage of the fallback chains (solver.h,
 * docs/solvers.md "Robustness").
 *
 * Each outer iteration solves the problem with
 *     M_rho = M + rho I,   q_rho = q - rho x_k                 (anchor x_k)
 * from x_k, by an inner solver, and takes its solution as x_{k+1}. At a
 * fixed point x_{k+1} = x_k the shifted problem's w = M_rho x + q_rho is
 * the original w = M x + q, so a fixed point solves the original problem
 * exactly (Rockafellar's proximal-point algorithm; Siconos' FC3D_PROX,
 * Pinocchio's ADMM). M_rho is positive definite on the null space of a
 * positive semidefinite M (redundant or degenerate contact sets), which
 * is where the Newton-type inner solvers stall. Two rules for rho, in
 * units of d, the mean diagonal of M:
 *   MCD_PROX_RULE_STEPS: rho starts at PROX_RHO0 d, is multiplied by 10
 *     after an inner failure (the next solve restarts from the best
 *     iterate) and divided by 4 after an inner solve in few iterations;
 *     every inner solve to the outer tol.
 *   MCD_PROX_RULE_ERROR (after Siconos' FC3D_PROX, fc3d_proximal.c):
 *     rho = sigma e(x_k) d with e the original (relative) error of the
 *     anchor, so the shift vanishes as the iterate converges (Siconos:
 *     5 e in W's units with nu = 1, 0.11 e d on the sphere piles,
 *     d ~ 46; sigma = 0.3 here), but falling by at most a factor 3 per
 *     inner success; rho x 10 after an inner failure, whose result is
 *     still the next anchor. Without the bound on the fall the shift
 *     after a failure's x 10 returns at once to the failing one, from the
 *     same anchor: an exact two-cycle (docs/solvers.md, "Session 10").
 *     The inner tolerance follows the outer error: max(e(x_k) / 10, tol)
 *     (Siconos' adaptive internal tolerance, ratio 10). */
#ifndef MCDYN_SOLVER_PROXIMAL_H
#define MCDYN_SOLVER_PROXIMAL_H

#include "mcdyn/status.h"

typedef enum mcd_prox_rule { MCD_PROX_RULE_STEPS, MCD_PROX_RULE_ERROR } mcd_prox_rule;

typedef struct mcd_prox_problem {
    int n;
    const double *M, *q; /* the original problem (n x n row-major, n) */
    double *Mp, *qp;     /* the shifted problem, written here (n x n, n) */
    double *anchor;      /* n: x_k */
    double *best;        /* n: the iterate of least original error */
    mcd_prox_rule rule;
    void *ctx;
    /* Solves the shifted problem (Mp, qp) to the error tol, warm-started
     * from x (the anchor), leaving its result in x; adds its iterations to
     * *iterations. */
    mcd_status (*solve)(void *ctx, double tol, double *x, int *iterations);
    /* The error measure of x for the original problem. */
    double (*error)(void *ctx, const double *x);
} mcd_prox_problem;

/* Runs the proximal-point iteration from x until the original error is
 * <= tol, max_outer outer iterations are done or the inner solves have
 * used max_inner iterations in all; leaves the iterate of
 * least original error in x and that error in *error. Returns MCD_OK when
 * *error <= tol, else MCD_ERR_NOT_CONVERGED. */
mcd_status mcd_proximal_solve(const mcd_prox_problem *pp, double tol, int max_outer, int max_inner,
                              double *x, int *iterations, double *error);

#endif

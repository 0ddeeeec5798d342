/* Private: the Levenberg-Marquardt step of the maximum-dissipation Newton
 * method (maxdiss_newton.c), the least-squares solution d of the stacked
 * system
 *     [J; sqrt(nu) I] d = [-Phi; 0]
 * for the m x m row-major J, m = nb + 4 nc, unknowns in Newton's order
 * z = (bilateral r, r_1..r_nc, lambda_1..lambda_nc). Dense by LAPACK's QR
 * (dgels, O(m^3)); sparse by SuiteSparseQR (lm_sparse.h's
 * mcd_lm_sparse_least_squares) for problems of more than
 * MCD_MAXDISS_STEP_DENSE_MAX unknowns whose W is block-sparse (contacts
 * that share no body have a zero 3 x 3 block), dgels again when the sparse
 * solve fails.
 *
 * The sparse order puts the unknowns as (lambda_1..lambda_nc, bilateral
 * rows, r_1..r_nc), and the rows of J the same way (the row of contact k's
 * Fischer-Burmeister equation first): the lambdas and bilateral rows are
 * lm_sparse's 1 x 1 blocks, each r_k a 3 x 3 block. Unknown (and row) i of
 * Newton's order is i + nc of the sparse order for i < n = nb + 3 nc, and
 * i - n for the lambdas. The pattern of J there (maxdiss_newton.c's
 * contact_rows and jacobian):
 *     bilateral row i:       W's row i;
 *     contact k's rows:      W's block row k, lambda_k, the block of r_k;
 *     contact k's FB row:    W's block row k (W's row of u_k,n), the block
 *                            of r_k (a_k), lambda_k (a zero block);
 * so its block pattern is W's with the lambdas' rows and columns added. */
#ifndef MCDYN_SOLVER_MAXDISS_STEP_H
#define MCDYN_SOLVER_MAXDISS_STEP_H

#include "lm_sparse.h"

#include <stddef.h>

/* Largest m solved densely whatever W's pattern. */
#define MCD_MAXDISS_STEP_DENSE_MAX 64

/* dgels's work per unknown: min(M, N) + max(min(M, N), 1) * 64 for the
 * (2m) x m stacked matrix. */
#define MCD_MAXDISS_STEP_LWORK 66

/* The buffers of a step for m unknowns (layout in maxdiss_newton.c). */
typedef struct mcd_maxdiss_step_work {
    double *aug;   /* 2 m^2: the stacked matrix (dense), or J in the sparse order and scratch */
    double *rhs;   /* 2 m */
    double *lwork; /* MCD_MAXDISS_STEP_LWORK m */
} mcd_maxdiss_step_work;

/* The sparse set-up of a solve of the nb + 3 nc problem with the n x n
 * row-major W, n = nb + 3 nc: writes the pattern of J in the sparse order
 * into pattern (m^2 doubles, m = n + nc) and sets up sparse on it
 * (mcd_lm_sparse_setup). Returns 1 when the sparse step is ready; 0 when
 * sparse is NULL, m <= MCD_MAXDISS_STEP_DENSE_MAX, m^2 overflows, or the
 * set-up fails (a pattern too full for lm_sparse, memory): the steps are
 * then dense. Allocates (lm_sparse's set-up). */
int mcd_maxdiss_step_setup(mcd_lm_sparse *sparse, int nb, int nc, const double *W, double *pattern);

/* The step d (m doubles) for J (m x m row-major, Newton's order), Phi and
 * nu >= 0: by sparse when it is not NULL (a successful
 * mcd_maxdiss_step_setup for the same nb, nc and W) and its solve
 * succeeds, else by dgels. Returns 1, or 0 when dgels fails or its step is
 * not finite. The sparse solve allocates inside SuiteSparseQR; dgels does
 * not allocate. */
int mcd_maxdiss_step_solve(mcd_lm_sparse *sparse, int nb, int nc, const double *J,
                           const double *phi, double nu, const mcd_maxdiss_step_work *w, double *d);

#endif

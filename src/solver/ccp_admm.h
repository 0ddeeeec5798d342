/* Private: the ADMM iteration of `ccp-admm` (ccp_admm.c) as an engine that
 * other methods drive: the fixed point of mncp-fixpoint (fc3d_fixed_point.c)
 * changes the problem's q between runs and keeps the factor, the dual
 * iterate y and the penalty rho. The problem p is read through its pointer
 * at every iteration, so the caller may change p->q between iterations
 * (not W, nb, nc or mu: the factor depends on W). */
#ifndef MCDYN_SRC_SOLVER_CCP_ADMM_H
#define MCDYN_SRC_SOLVER_CCP_ADMM_H

#include "mcdyn/ccp.h"
#include "mcdyn/problem.h"
#include "sparse_cholesky.h"

#define MCD_ADMM_VECTORS 9 /* vectors of n doubles in an engine's work */

typedef struct mcd_admm {
    const mcd_fc3d *p;
    int n;
    double *F; /* dense Cholesky factor of N + (rho + eta) I (column-major lower) */
    /* the sparse factor's state, set up by mcd_admm_start (may be NULL) */
    mcd_sparse_cholesky *chol;
    mcd_sparse_cholesky *sparse; /* chol when set up for N (sparse factor, F unused), else NULL */
    double *x, *z, *y;           /* ADMM iterates */
    double *x_old, *z_old;       /* previous x and z (dual residual) */
    double *rhs, *d, *best;      /* right-hand side, d = N z + r, best z */
    double *v;                   /* power iteration */
    double L, eta, rho, power;
    int changes; /* changes of rho so far */
} mcd_admm;

/* Binds the engine to p, the factor F (n x n), vec (MCD_ADMM_VECTORS n
 * doubles, contiguous), n = mcd_fc3d_size(p) > 0, and the sparse
 * factor's state chol (sparse_cholesky.h; NULL: always dense). */
void mcd_admm_bind(mcd_admm *a, const mcd_fc3d *p, double *F, double *vec,
                   mcd_sparse_cholesky *chol);

/* Starts from gamma (projected on the cones in place): x = z = best = gamma,
 * y = 0, the sparse factor's set-up for N (chol's pattern and analysis:
 * large block-sparse N are factored by CHOLMOD from N's entries, the others
 * by dpotrf into F), lambda_max(N) by power iteration (on chol's block
 * product when it is set up), eta = prox lambda_max, the starting rho and
 * its factor. 0 if N + (rho + eta) I is not positive definite. */
int mcd_admm_start(mcd_admm *a, double *gamma, double prox);

/* One ADMM iteration; the primal and dual residuals (inf-norms). A failed
 * sparse solve (CHOLMOD out of memory) makes the iterate NaN. */
void mcd_admm_iterate(mcd_admm *a, double *primal, double *dual);

/* After iteration it: every BALANCE_INTERVAL iterations, the spectral rule
 * may change rho (at most MAX_RHO_CHANGES times) and refactor. 0 if the new
 * factor failed (N + (rho + eta) I not positive definite). */
int mcd_admm_rebalance(mcd_admm *a, int it, double primal, double dual);

/* mcd_ccp_solve_admm (ccp.h) with the sparse factor's state chol: on large
 * block-sparse N the factors are CHOLMOD's (sparse_cholesky.h, whose set-up
 * allocates once per solve) and the iterations' N z + r is chol's block
 * product. The public door passes NULL: the dense factor, no allocation,
 * as ccp.h promises; the simulation passes its solver workspace's state
 * (sim_solve.c). */
mcd_status mcd_ccp_solve_admm_sparse(const mcd_fc3d *p, const mcd_ccp_opts *o, double *gamma,
                                     double *work, mcd_sparse_cholesky *chol, mcd_ccp_stats *st,
                                     mcd_error *err);

#endif

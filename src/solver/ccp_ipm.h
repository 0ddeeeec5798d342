/* Private: the CCP's interior-point method (ccp.h, mcd_ccp_solve_ipm) with
 * a sparse Cholesky factor. */
#ifndef MCDYN_SRC_SOLVER_CCP_IPM_H
#define MCDYN_SRC_SOLVER_CCP_IPM_H

#include "mcdyn/ccp.h"
#include "sparse_cholesky.h"

/* mcd_ccp_solve_ipm with the sparse factor's state chol: on large
 * block-sparse N, S N S + H (+ shift) is built in chol's pattern and
 * factored by CHOLMOD (sparse_cholesky.h, whose set-up allocates once per
 * solve), and the iterations' products with N are chol's block product.
 * The public door passes NULL: the dense factor, no allocation, as ccp.h
 * promises; the simulation passes its solver workspace's state
 * (sim_solve.c). */
mcd_status mcd_ccp_solve_ipm_sparse(const mcd_fc3d *p, const mcd_ccp_opts *o, double *gamma,
                                    double *work, mcd_sparse_cholesky *chol, mcd_ccp_stats *st,
                                    mcd_error *err);

#endif

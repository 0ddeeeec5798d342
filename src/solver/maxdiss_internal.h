/* Private: pieces of the block Gauss-Seidel solver of the maximum-dissipation
 * law (maxdiss_bgs.c) that the Newton method (maxdiss_newton.c) shares, so
 * that both decide success by the same residual R and treat singular
 * diagonal blocks the same way (include/mcdyn/impact.h). */
#ifndef MCDYN_SOLVER_MAXDISS_INTERNAL_H
#define MCDYN_SOLVER_MAXDISS_INTERNAL_H

#include "mcdyn/impact.h"

/* delta_k of impact.h for every contact into delta[nc]: 0 for a positive
 * definite W_kk, the proximal weight regularization * max_i (W_kk)_ii for
 * a singular one, MCD_MAXDISS_ZERO_BLOCK for a zero block. */
#define MCD_MAXDISS_ZERO_BLOCK (-1.0)
void mcd_maxdiss_block_deltas(const mcd_fc3d *p, const mcd_maxdiss_opts *o, double *delta);

/* R(r) of impact.h with the blocks' delta (mcd_maxdiss_block_deltas);
 * work holds 2 (nb + 3 nc) doubles. A failing block solve returns its
 * status (message in err); a non-finite velocity or update gives R = NaN. */
mcd_status mcd_maxdiss_residual(const mcd_fc3d *p, const mcd_maxdiss_opts *o, double *delta,
                                const double *r, double *work, double *R, mcd_error *err);

/* 1 if mcd_maxdiss_newton takes the problem (nb + 4 nc <= its limit of
 * unknowns, so that the dense work stays bounded), else 0. */
int mcd_maxdiss_newton_fits(const mcd_fc3d *p);

#endif

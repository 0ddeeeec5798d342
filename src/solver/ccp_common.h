/* Internal helpers shared by the CCP solvers (include/mcdyn/ccp.h):
 * unchecked cone projection, the stopping-rule measures,
 * input validation and the wall clock. */
#ifndef MCDYN_SRC_SOLVER_CCP_COMMON_H
#define MCDYN_SRC_SOLVER_CCP_COMMON_H

#include "dense.h"
#include "mcdyn/ccp.h"

/* Projection onto K_mu of x = (n, t1, t2), no argument checks. */
void mcd_ccp_proj3(double mu, double *x);

/* Fills the residual fields of st from gamma and d = N gamma + r. */
void mcd_ccp_measure(const mcd_fc3d *p, const double *gamma, const double *d, mcd_ccp_stats *st);

/* Start of a solve: clears st and checks the arguments (need_relax: the
 * PGS/PJ options too); on failure st carries the status and the time since
 * t0, and err the message. */
mcd_status mcd_ccp_start(const char *name, const mcd_fc3d *p, const mcd_ccp_opts *o,
                         const double *gamma, const double *work, int need_relax, double t0,
                         mcd_ccp_stats *st, mcd_error *err);

#endif

/* Private: the MLCP as the nonsmooth system Phi(z) = 0 of the penalized FB
 * function, Mylapilli & Jain Sec. 3.3: Phi by Eq. (9), Jacobian rows by
 * Eq. (45)-(48), extended to finite lower, upper and box bounds
 * (docs/solvers.md, "MLCP reformulation"). Every Jacobian row has the form
 * J_i = alpha_i e_i^T + beta_i M_i (M_i the i-th row of M). */
#ifndef MCDYN_SOLVER_MLCP_PFB_H
#define MCDYN_SOLVER_MLCP_PFB_H

#include "mcdyn/problem.h"

typedef struct mcd_mlcp_pfb {
    const mcd_mlcp *p;
    double lambda; /* PFB parameter in (0, 1] */
    double *w;     /* n: w = M z + q at the z of the latest residual call */
    double *y;     /* n: scratch, the kink indicator y of Eq. (45) */
} mcd_mlcp_pfb;

/* Phi(z) into phi (n). ctx is an mcd_mlcp_pfb (the signature of
 * mcd_nls.residual). */
void mcd_mlcp_pfb_residual(void *ctx, const double *z, double *phi);

/* mcd_mlcp_error at z, which must be the z of the latest residual call
 * (its w is reused). */
double mcd_mlcp_pfb_error(void *ctx, const double *z);

/* J = dPhi/dz (n x n, row-major) at z, which must be the z of the latest
 * residual call (its w is reused). */
void mcd_mlcp_pfb_jacobian(void *ctx, const double *z, double *J);

#endif

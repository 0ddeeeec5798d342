/* Private: an MLCP without box rows as an LCP, for Lemke's method.
 *
 * Complementarity rows C (lower- or upper-bounded) get zeta = s (z - beta)
 * >= 0 with (s, beta) = (+1, lo) or (-1, hi), and omega = s w >= 0. The free
 * rows F are eliminated by the Schur complement of M_FF:
 *     z_F   = -M_FF^{-1} (M_FC S zeta + qt_F),        qt = q + M_{:,C} beta,
 *     omega = A zeta + b,  A = S (M_CC - M_CF M_FF^{-1} M_FC) S,
 *                          b = S (qt_C - M_CF M_FF^{-1} qt_F). */
#ifndef MCDYN_SOLVER_MLCP_REDUCE_H
#define MCDYN_SOLVER_MLCP_REDUCE_H

#include "mcdyn/problem.h"

typedef struct mcd_mlcp_reduced {
    int nf, nc;     /* free and complementarity rows */
    int *free_rows; /* nf */
    int *comp_rows; /* nc */
    double *sign;   /* nc: s_k */
    double *qt;     /* n: q + M_{:,C} beta */
    double *A;      /* nc x nc, row-major */
    double *b;      /* nc */
    double *lu;     /* nf x nf, column-major: LU of M_FF */
    int *ipiv;      /* nf */
    double *X;      /* nf x (nc + 1), column-major: M_FF^{-1} [M_FC S, qt_F] */
    double *work;   /* max(4 nf, nf): dgecon work, then a row of M_CF */
    int *iwork;     /* nf */
} mcd_mlcp_reduced;

/* Builds the LCP (A, b). MCD_ERR_UNSUPPORTED for a box row, MCD_ERR_SINGULAR
 * if M_FF is singular to working precision (reciprocal condition number
 * below DBL_EPSILON), with a message. */
mcd_status mcd_mlcp_reduce(const mcd_mlcp *p, mcd_mlcp_reduced *r, mcd_error *err);

/* The LCP point zeta (nc) of an MLCP point z (n): zeta_k = s_k (z_c -
 * beta_k) on the complementarity rows c = comp_rows[k] (the inverse of
 * mcd_mlcp_expand there; a warm start's guess). */
void mcd_mlcp_lcp_start(const mcd_mlcp *p, const mcd_mlcp_reduced *r, const double *z,
                        double *zeta);

/* z (n) from the LCP solution zeta (nc). */
void mcd_mlcp_expand(const mcd_mlcp *p, const mcd_mlcp_reduced *r, const double *zeta, double *z);

#endif

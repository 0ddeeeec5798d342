/* mcdyn — block principal pivoting for the LCP (Judice & Pires 1994, the
 * block method of the basic-set family of Judice & Pires 1992):
 *     w = M z + q >= 0,  z >= 0,  w . z = 0   (n unknowns, M row-major).
 *
 * The algorithm keeps a set F of indices with w_F = 0 (z_F basic) and
 * z_G = 0 on the complement; it solves M_FF z_F = -q_F, computes
 * w_G = M_GF z_F + q_G, and exchanges every infeasible index (z_i < 0 in F,
 * w_i < 0 in G) at once. When the number of infeasibilities fails to drop
 * for max_block_tries block exchanges in a row, it falls back to single
 * exchanges of the largest infeasible index (Murty's least-index rule, here
 * on the largest index), which terminates for P-matrices.
 *
 * It requires a nonsingular M (the method is defined for P-matrices): M
 * and every M_FF are LU-factored and their reciprocal condition number
 * checked against sing_tol. The failures have their own results:
 * singular, cycling (a set F repeated in the single-exchange phase, where
 * the sequence is deterministic: it would repeat forever) and iteration
 * limit. Everything is allocated by mcd_bpp_ws_create; a solve allocates
 * nothing.
 */
#ifndef MCDYN_LCP_BLOCK_PIVOT_H
#define MCDYN_LCP_BLOCK_PIVOT_H

#include "mcdyn/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mcd_bpp_result {
    MCD_BPP_SOLVED = 0, /* z, w complementary and feasible within tol */
    MCD_BPP_SINGULAR,   /* M or a principal block M_FF has rcond < sing_tol */
    MCD_BPP_CYCLING,    /* a single-exchange set F was visited twice */
    MCD_BPP_MAX_ITER,   /* max_iter exchanges without a solution */
    MCD_BPP_INVALID     /* bad input (the status says which) */
} mcd_bpp_result;

/* "solved", "singular", "cycling", "iteration limit", "invalid input". */
const char *mcd_bpp_result_str(mcd_bpp_result r);

typedef struct mcd_bpp_opts {
    int max_iter;        /* exchanges (block or single); <= 0: 10 n + 10 */
    int max_block_tries; /* block exchanges without progress before a single one (10) */
    double tol;          /* feasibility: z_i, w_i >= -tol (1 + |q|_inf) count as >= 0 (1e-12) */
    double sing_tol;     /* rcond below this is singular; <= 0: n x DBL_EPSILON */
} mcd_bpp_opts;

mcd_bpp_opts mcd_bpp_default_opts(void);

typedef struct mcd_bpp_stats {
    mcd_bpp_result result;
    int iterations;    /* exchanges performed */
    int block_pivots;  /* of which block exchanges */
    int single_pivots; /* of which single (Murty) exchanges */
    double rcond;      /* reciprocal condition number (1-norm estimate) of M */
    double residual;   /* max_i |min(z_i, w_i)| / (1 + |q|_inf) at the returned point */
} mcd_bpp_stats;

typedef struct mcd_bpp_ws mcd_bpp_ws;

/* Workspace for problems of up to n_max unknowns: O(n_max^2) doubles. */
mcd_status mcd_bpp_ws_create(int n_max, mcd_bpp_ws **out, mcd_error *err);
void mcd_bpp_ws_free(mcd_bpp_ws *ws);

/* Solves the LCP (M n x n row-major, q n) into z and w = M z + q (n each).
 * opts and stats may be NULL. Returns MCD_OK (result solved),
 * MCD_ERR_SINGULAR (singular), MCD_ERR_NOT_CONVERGED (cycling or iteration
 * limit; z, w hold the last iterate, clamped: z >= 0), or for bad input
 * MCD_ERR_ARG, MCD_ERR_CAPACITY (n > n_max) or MCD_ERR_NONFINITE (NaN/Inf
 * in M or q), leaving z and w untouched. err (may be NULL) gets the message. */
mcd_status mcd_bpp_solve(mcd_bpp_ws *ws, int n, const double *M, const double *q,
                         const mcd_bpp_opts *opts, double *z, double *w, mcd_bpp_stats *stats,
                         mcd_error *err);

/* Reciprocal condition number (1-norm estimate, LAPACK dgecon) of the
 * n x n row-major M, computed in the workspace: 0 when M is exactly
 * singular. MCD_ERR_NONFINITE for NaN/Inf, MCD_ERR_CAPACITY for n > n_max. */
mcd_status mcd_bpp_rcond(mcd_bpp_ws *ws, int n, const double *M, double *rcond, mcd_error *err);

#ifdef __cplusplus
}
#endif
#endif

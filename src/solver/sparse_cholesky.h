/* Private: a sparse Cholesky factorization with CHOLMOD (SuiteSparse) of
 * the symmetric positive definite matrices of ADMM (ccp_admm.h:
 * N + (rho + eta) I, N = W) and of the CCP's interior-point method
 * (ccp_ipm.c: S N S + H + shift, H block diagonal) on large problems whose
 * W has a sparse block pattern: contacts that share no body have a zero
 * 3 x 3 block. Both matrices keep their entries inside the nonzero blocks
 * of W and the diagonal blocks, a pattern fixed for a solve.
 *
 * Per solve (mcd_sparse_cholesky_setup): the block pattern of W
 * (block_pattern.h), the fill-reducing order CHOLMOD's analysis picks for
 * it (AMD; METIS too when AMD fills much), the upper triangle of the
 * matrix in that order by columns, and the symbolic analysis of that
 * (natural order, simplicial LL^T), so that a factorization reads the
 * permuted matrix directly: with any other order or triangle,
 * cholmod_factorize would allocate a permuted copy of the matrix at every
 * call. Per factorization (mcd_sparse_cholesky_factor): the values of the
 * pattern's entries, which the caller has written
 * (mcd_sparse_cholesky_entries_of) or gathered from a dense matrix
 * (mcd_sparse_cholesky_gather), are factored, numerically only, on the
 * set-up's analysis. Per solve of a system (mcd_sparse_cholesky_solve):
 * forward and back substitution on the factor. The set-up also sets up, from the
 * same block pattern, the block product W x + b (block_product.h).
 *
 * Allocation: the state and CHOLMOD's common object once per solver
 * workspace (workspace.h; used by mncp-fixpoint's ADMM and by the
 * simulation's ccp-admm and ccp-ipm, ccp_admm.h and ccp_ipm.h: the public
 * doors of ccp.h have no workspace and stay dense); the set-up allocates
 * the pattern, the analysis and the factor's storage once per solve;
 * factorizations and solves allocate nothing.
 * Problems of at most MCD_SPARSE_CHOLESKY_MIN_N unknowns never come here,
 * so a simulation step with such a problem does not allocate. */
#ifndef MCDYN_SOLVER_SPARSE_CHOLESKY_H
#define MCDYN_SOLVER_SPARSE_CHOLESKY_H

#include "block_product.h"

#include <stddef.h>

typedef struct mcd_sparse_cholesky mcd_sparse_cholesky;

/* Problems of more unknowns than this use the sparse factorization (as
 * sparse_lu.h). */
#define MCD_SPARSE_CHOLESKY_MIN_N 64
/* The pattern may fill at most this fraction of n^2 (denser: the dense
 * dpotrf is faster; as sparse_lu.h). */
#define MCD_SPARSE_CHOLESKY_MAX_FILL 0.3

/* The entries of the set-up pattern, one triangle: entry p is the place
 * (row[p], col[p]) of the n x n matrix (or its transpose: the matrix is
 * symmetric), value[p] its value for the next factorization. */
typedef struct mcd_sparse_cholesky_entries {
    size_t count;
    const int *row, *col;
    double *value;
} mcd_sparse_cholesky_entries;

/* A new state with no pattern, or NULL when out of memory. */
mcd_sparse_cholesky *mcd_sparse_cholesky_create(void);

/* Frees the state and everything a set-up made (s may be NULL). */
void mcd_sparse_cholesky_free(mcd_sparse_cholesky *s);

/* Per-solve set-up for n unknowns from the n x n row-major symmetric W:
 * rows and columns [0, n_single) form 1 x 1 blocks, the rest consecutive
 * 3 x 3 blocks; a block of the pattern is nonzero when any entry of W in
 * it is, and the diagonal blocks always are. Scans W once (O(n^2)), runs
 * CHOLMOD's analyses and sets up the state's block product
 * (mcd_sparse_cholesky_product) from the same pattern. Returns 1 when the
 * sparse factorization is ready; 0 (factorizations and solves then
 * return 0) when s or W is NULL, n <= MCD_SPARSE_CHOLESKY_MIN_N, the
 * partition does not fit n, the pattern fills more than
 * MCD_SPARSE_CHOLESKY_MAX_FILL, or memory or CHOLMOD fails. Drops the
 * previous set-up and its factor. */
int mcd_sparse_cholesky_setup(mcd_sparse_cholesky *s, int n, const double *W, int n_single);

/* The set-up pattern's entries (count 0 when no set-up is ready); their
 * values are the caller's to write before mcd_sparse_cholesky_factor. */
mcd_sparse_cholesky_entries mcd_sparse_cholesky_entries_of(mcd_sparse_cholesky *s);

/* Writes the values of the entries from the row-major n x n symmetric A
 * (entries of A outside the pattern are ignored), plus shift on the
 * diagonal: the pattern of A + shift I. No-op when no set-up is ready. */
void mcd_sparse_cholesky_gather(mcd_sparse_cholesky *s, const double *A, double shift);

/* The Cholesky factorization of the matrix of the entries' current
 * values. Returns 1 on success; 0 when no set-up is ready or the matrix
 * is not positive definite (to rounding: CHOLMOD met a pivot <= 0),
 * after which solves return 0 until a factorization succeeds. */
int mcd_sparse_cholesky_factor(mcd_sparse_cholesky *s);

/* Solves A x = b in place (b in, x out) with the last factorization.
 * Returns 1 on success; 0 (b unchanged) when no factorization succeeded
 * since the set-up. */
int mcd_sparse_cholesky_solve(mcd_sparse_cholesky *s, double *b);

/* Factorizations attempted since the set-up (for the tests: the sparse
 * path was taken). 0 when s is NULL. */
long mcd_sparse_cholesky_factorizations(const mcd_sparse_cholesky *s);

/* The state's block product y = W x + b (block_product.h) set up by
 * mcd_sparse_cholesky_setup for its W (products are dense when the
 * pattern was refused). NULL when s is. */
mcd_block_product *mcd_sparse_cholesky_product(const mcd_sparse_cholesky *s);

#endif

/* Private: the Newton step of mncp-nsn (nsn_alart_curnier.h) by a sparse
 * LU factorization with KLU (SuiteSparse), for large problems whose W has
 * a sparse block pattern: contacts that share no body have a zero 3 x 3
 * block. The Newton matrix J = A + B (W + eps diag(1 / rho)) of the
 * Alart-Curnier function keeps its entries inside the nonzero blocks of W
 * and the diagonal blocks (A, B block diagonal), so its pattern is fixed
 * for a solve; so does the proximal stage's W + rho I.
 *
 * Per solve (mcd_sparse_lu_setup): the block pattern, the positions of its
 * entries in the dense row-major J, KLU's symbolic analysis (AMD ordering,
 * block triangular form). Per step (mcd_sparse_lu_solve): the entries of
 * the dense J inside the pattern are gathered, factored with the pivot
 * order of the previous factorization (klu_refactor), solved, and the
 * backward error checked against the gathered J; if it exceeds
 * MCD_SPARSE_LU_RESIDUAL (J's values moved away from that pivot order),
 * a fresh factorization with partial pivoting (klu_factor) and
 * the check again. The set-up also sets up, from the same block pattern,
 * the block product W x + b (block_product.h) that the state holds for
 * mncp-nsn's iterations (W r, W dr) and mncp-fixpoint's QP loop.
 *
 * Allocation: the state and KLU's common object once per solver
 * workspace; the set-up allocates the pattern and the symbolic analysis
 * once per solve, a fresh factorization allocates its numeric object
 * (freeing the previous one); klu_refactor and klu_solve allocate nothing.
 * Problems of at most MCD_SPARSE_LU_MIN_N unknowns never come here, so a
 * simulation step with such a problem does not allocate (as lm_sparse.h). */
#ifndef MCDYN_SOLVER_SPARSE_LU_H
#define MCDYN_SOLVER_SPARSE_LU_H

#include "block_product.h"

typedef struct mcd_sparse_lu mcd_sparse_lu;

/* Problems of more unknowns than this use the sparse step. */
#define MCD_SPARSE_LU_MIN_N 64
/* The pattern may fill at most this fraction of n^2 (denser: the dense
 * LU is faster). */
#define MCD_SPARSE_LU_MAX_FILL 0.3
/* A solve is accepted when |J x - b| <= this times |J|_F |x| + |b|. */
#define MCD_SPARSE_LU_RESIDUAL 1e-10

/* A new state with no pattern, or NULL when out of memory. */
mcd_sparse_lu *mcd_sparse_lu_create(void);

/* Frees the state and everything a setup made (s may be NULL). */
void mcd_sparse_lu_free(mcd_sparse_lu *s);

/* Per-solve set-up for n unknowns from the n x n row-major W: rows and
 * columns [0, n_single) form 1 x 1 blocks, the rest consecutive 3 x 3
 * blocks; a block of the pattern is nonzero when any entry of W in it is,
 * and the diagonal blocks always are. Scans W once (O(n^2)) and runs
 * KLU's symbolic analysis; sets up the state's block product
 * (mcd_sparse_lu_product) from the same pattern, or clears it when that
 * refuses the pattern. Returns 1 when the sparse step is ready; 0
 * (solves then return 0) when s or W is NULL, n <= MCD_SPARSE_LU_MIN_N,
 * the partition does not fit n, the pattern fills more than
 * MCD_SPARSE_LU_MAX_FILL, or memory or KLU fails. Drops the previous
 * setup. */
int mcd_sparse_lu_setup(mcd_sparse_lu *s, int n, const double *W, int n_single);

/* The state's block product y = W x + b (block_product.h), set up by
 * mcd_sparse_lu_setup for its W, whether or not the sparse step is ready;
 * also set up by users of the product alone (mncp-fixpoint's QP loop).
 * NULL when s is. */
mcd_block_product *mcd_sparse_lu_product(const mcd_sparse_lu *s);

/* Solves J x = b in place (b in, x out) for the row-major n x n J of the
 * set-up pattern (entries outside it are ignored). Returns 1 on success;
 * 0 (b unspecified) when no setup is ready, KLU reports a singular or
 * failed factorization, or the residual test fails after a fresh
 * factorization. */
int mcd_sparse_lu_solve(mcd_sparse_lu *s, const double *J, double *b);

#endif

/* Private: the projected Levenberg-Marquardt step (lm_projected.c) by a
 * sparse Cholesky factorization of the normal matrix
 *     N = J^T J + lambda I                    (Mylapilli & Jain Sec. 5.2)
 * with CHOLMOD (SuiteSparse), for large problems whose matrix W (or M) has
 * a sparse block pattern: contacts that share no body have a zero 3 x 3
 * block. The Jacobians of both reformulations keep their entries inside
 * the nonzero blocks of W and the diagonal blocks (mlcp_pfb.h: J_i =
 * alpha_i e_i^T + beta_i M_i; mncp_todorov.h: J = W diag(a) D - [0; D_u +
 * I] with D block diagonal), so the pattern of N is fixed for a solve.
 * When N is too ill-conditioned for a Cholesky factorization (a singular
 * W: more contact rows than degrees of freedom, as in piles), the same
 * step as the least-squares solution of the stacked system by
 * SuiteSparseQR, the sparse counterpart of the dense path's dgels.
 *
 * Allocation: mcd_lm_sparse_create (the state and CHOLMOD's common
 * objects) once per solver workspace; mcd_lm_sparse_setup once per solve
 * (the block pattern, the patterns of N and of the stacked matrix, the
 * symbolic analyses). Every call of the numeric routines allocates inside
 * Debian's SuiteSparse 5 and frees before returning, which its API does not
 * let us avoid: CHOLMOD's factorization a transpose of N (4 blocks; the
 * supernodal one also its update buffers, about 30 blocks for 768
 * unknowns), SuiteSparseQR's factorization and solve about 36 blocks. We
 * keep what can be kept: N is stored in the fill-reducing order, so that
 * CHOLMOD does not permute it at each call, and the solve workspace is
 * made by the first step of a solve and reused. Problems up to the dense
 * threshold of lm_projected.c never come here, so a simulation step with
 * such a problem does not allocate. */
#ifndef MCDYN_SOLVER_LM_SPARSE_H
#define MCDYN_SOLVER_LM_SPARSE_H

typedef struct mcd_lm_sparse mcd_lm_sparse;

/* A new state with no pattern, or NULL when out of memory. */
mcd_lm_sparse *mcd_lm_sparse_create(void);

/* Frees the state and everything a setup made (s may be NULL). */
void mcd_lm_sparse_free(mcd_lm_sparse *s);

/* Per-solve set-up for n unknowns from the n x n row-major W: rows and
 * columns [0, n_single) form 1 x 1 blocks, the rest consecutive 3 x 3
 * blocks; a block of the pattern is nonzero when any entry of W in it is,
 * and the diagonal blocks always are. Scans W once (O(n^2)), builds the
 * pattern of the upper triangle of N and runs CHOLMOD's symbolic analysis
 * (fill-reducing ordering, elimination tree). Returns 1 when the sparse
 * step is ready; 0 (steps then return 0) when s or W is NULL, the
 * partition does not fit n, the pattern of N fills more than
 * MCD_LM_SPARSE_MAX_FILL of its upper triangle (a dense W: the dense path
 * is faster), or memory or CHOLMOD fails. Drops the previous setup. */
int mcd_lm_sparse_setup(mcd_lm_sparse *s, int n, const double *W, int n_single);

#define MCD_LM_SPARSE_MAX_FILL 0.5

/* The PLM direction d (n) from (J^T J + lambda I) d = -grad for the
 * row-major n x n J of the set-up pattern: N from J's entries inside the
 * pattern, CHOLMOD's numeric factorization, a solve and one step of
 * iterative refinement with the residual computed from J itself,
 *     res = -grad - J^T (J d) - lambda d,   d += N^{-1} res,
 * as the dense kernel of lm_projected.c does. Returns 0 (d unspecified)
 * when no setup is ready, CHOLMOD reports trouble, or a pivot d_i of the
 * factorization is not a finite number above pivot_min * max_j N_jj (the
 * bound on cond(N) of small_dense.h). scratch: 2n doubles. */
int mcd_lm_sparse_step(mcd_lm_sparse *s, const double *J, const double *grad, double lambda,
                       double pivot_min, double *scratch, double *d);

/* The least-squares solution d (n) of the stacked system
 *     [J; sqrt(lambda) I] d = [-top; sqrt(lambda) bottom]
 * (a NULL part of the right-hand side standing for 0) by SuiteSparseQR's
 * multifrontal QR of the stacked matrix, the sparse counterpart of LAPACK's
 * dgels, for when the normal equations are too ill-conditioned: the
 * stacked matrix has condition number about sqrt(cond(N)). No rank
 * detection (the sqrt(lambda) I rows give full column rank). Returns 0
 * (d unspecified) when no setup is ready, SuiteSparseQR fails or d is not
 * finite. scratch: 2n doubles. */
int mcd_lm_sparse_least_squares(mcd_lm_sparse *s, const double *J, const double *top,
                                const double *bottom, double lambda, double *scratch, double *d);

#endif

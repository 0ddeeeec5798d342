/* Private: a dense Cholesky kernel for small symmetric positive
 * (semi)definite systems, in plain C without LAPACK's per-call overhead
 * (argument checks, scaling, NaN scans), which dominates the O(n^3) work
 * for n below a few dozen. Its users: the Levenberg-Marquardt step
 * (lm_projected.c, mcd_small_cholesky: a failed factor rejects the step)
 * and the Schur complement of the closure rows in the impact phase
 * (src/sim/sim_impact.c, mcd_small_cholesky_floored: redundant closures
 * make W_bb singular, and the floor regularises it). Larger or sparse
 * systems use LAPACK (dpotrf) or CHOLMOD.
 *
 * Storage: row-major n x n, leading dimension n; only the upper triangle
 * (j >= i) is read and written, so that every inner loop runs over
 * contiguous memory. */
#ifndef MCDYN_SOLVER_SMALL_DENSE_H
#define MCDYN_SOLVER_SMALL_DENSE_H

/* The upper triangle of N = J^T J + lambda I for a row-major n x n J (rows
 * of J accumulated by contiguous axpys, zero entries of J skipped). */
void mcd_small_normal_matrix(int n, const double *J, double lambda, double *N);

/* In place: the upper triangle of A becomes U with A = U^T U (U = L^T of
 * the lower Cholesky factor L). Returns 1 on success; 0 if some pivot
 * d_i = U_ii^2 is not a finite number above pivot_min * max_j A_jj, i.e. A
 * is not positive definite in floating point, or max_j A_jj / d_i >
 * 1 / pivot_min, which bounds the 2-norm condition number of A from below
 * (d_i >= lambda_min(A), max_j A_jj <= lambda_max(A)). On failure A holds a
 * partial factor. pivot_min in [0, 1). */
int mcd_small_cholesky(int n, double *A, double pivot_min);

/* As mcd_small_cholesky, but a pivot d_i below the floor pivot_floor *
 * max_j A_jj + 1e-300 (or NaN) is raised to the floor instead of failing: the factor of A + D, D >=
 * 0 diagonal, for a positive semidefinite A (redundant rows). Always succeeds. pivot_floor in [0,
 * 1). */
void mcd_small_cholesky_floored(int n, double *A, double pivot_floor);

/* b := A^{-1} b with the factor U of mcd_small_cholesky or
 * mcd_small_cholesky_floored (U^T y = b, then U x = y). */
void mcd_small_cholesky_solve(int n, const double *U, double *b);

/* The least-squares solution d of the stacked system
 *     [J; sqrt(lambda) I] d = [-top; sqrt(lambda) bottom]
 * (a NULL top or bottom standing for 0) for a row-major n x n J and
 * lambda > 0, by Householder QR (LAPACK's dgeqr2 reflectors, dlarfg's
 * convention) of the 2n x n stacked matrix, built column-major in A (2n x
 * n, leading dimension 2n), the right-hand side in rhs (2n). Reflector j
 * only meets rows j .. n + j, since the bottom rows below n + j are still
 * those of sqrt(lambda) I, zero in columns j and beyond. Returns 0 if R
 * has a zero diagonal entry (rank deficient), 1 otherwise. */
int mcd_small_stacked_least_squares(int n, const double *J, const double *top, const double *bottom,
                                    double lambda, double *A, double *rhs, double *d);

#endif

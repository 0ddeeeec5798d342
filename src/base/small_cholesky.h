/* Private: the library's one plain-C Cholesky factorization of small
 * symmetric positive (semi)definite matrices, without LAPACK's per-call
 * overhead (argument checks, scaling, NaN scans), which dominates the
 * O(n^3) work for n below a few dozen. In base so that every layer uses
 * the same one. Its users:
 *   - the articulated-body sweep's hinge inverses D^{-1}, 3x3 and 6x6
 *     (src/dynamics/small_spd.c; a failed factor is a singular hinge);
 *   - the Levenberg-Marquardt step (src/solver/lm_projected.c: a failed
 *     factor rejects the step);
 *   - Stronge's stick solve (src/solver/impact_stronge.c, floored: a
 *     Tikhonov shift and a floor for redundant stick rows);
 *   - the maximum-dissipation law's test of each contact's 3x3 block
 *     (src/solver/maxdiss_bgs.c);
 *   - the impact phase's Schur complement of the closure rows
 *     (src/sim/sim_impact.c, floored: redundant closures make it singular).
 * Larger or sparse systems use LAPACK (dpotrf) or CHOLMOD.
 *
 * Storage: row-major n x n, leading dimension n; only the upper triangle
 * (j >= i) is read and written, so that every inner loop runs over
 * contiguous memory. */
#ifndef MCDYN_BASE_SMALL_CHOLESKY_H
#define MCDYN_BASE_SMALL_CHOLESKY_H

/* In place: the upper triangle of A becomes U with A = U^T U (U = L^T of
 * the lower Cholesky factor L). Returns 1 on success; 0 if some pivot
 * d_i = U_ii^2 is not a finite number above pivot_min * max_j A_jj, i.e. A
 * is not positive definite in floating point, or max_j A_jj / d_i >
 * 1 / pivot_min, which bounds the 2-norm condition number of A from below
 * (d_i >= lambda_min(A), max_j A_jj <= lambda_max(A)). On failure A holds a
 * partial factor. pivot_min in [0, 1). */
int mcd_small_cholesky(int n, double *A, double pivot_min);

/* As mcd_small_cholesky, but a pivot d_i below the floor pivot_floor *
 * max_j A_jj + 1e-300 (or NaN) is raised to the floor instead of failing:
 * the factor of A + D, D >= 0 diagonal, for a positive semidefinite A
 * (redundant rows). Always succeeds. pivot_floor in [0, 1). */
void mcd_small_cholesky_floored(int n, double *A, double pivot_floor);

/* b := A^{-1} b with the factor U of mcd_small_cholesky or
 * mcd_small_cholesky_floored (U^T y = b, then U x = y). */
void mcd_small_cholesky_solve(int n, const double *U, double *b);

#endif

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

#include <math.h>
#include <stddef.h>

/* The factorization of the functions below with an absolute pivot bound:
 * right-looking (outer-product), row k of U is row k of the current Schur
 * complement divided by sqrt of its pivot, then
 *   A_i,i: -= U_ki U_k,i:   (i > k, U_ki != 0)
 * removes it from the trailing rows. A pivot not above d_min fails
 * (returns 0), or with raise is raised to d_min. Inline, so that a caller
 * with a constant n (the 6x6 hinge inverse of a free joint) gets its loops
 * unrolled; mcd_small_cholesky is this with d_min = pivot_min * max_j A_jj. */
static inline int mcd_small_cholesky_factor(int n, double *A, double d_min, int raise)
{
    for (int k = 0; k < n; k++) {
        double *Uk = A + (size_t)k * n;
        double d = Uk[k];
        if (!(d > d_min) || !isfinite(d)) {
            if (!raise) return 0;
            d = fmax(d, d_min); /* NaN gives d_min */
        }
        double u = sqrt(d), inv = 1.0 / u;
        Uk[k] = u;
        for (int j = k + 1; j < n; j++) Uk[j] *= inv;
        for (int i = k + 1; i < n; i++) {
            double a = Uk[i];
            if (a == 0) continue; /* e.g. the rows of separated contacts */
            double *Ai = A + (size_t)i * n;
            for (int j = i; j < n; j++) Ai[j] -= a * Uk[j];
        }
    }
    return 1;
}

/* max(0, max_j A_jj) of a row-major n x n A. */
static inline double mcd_small_cholesky_largest_diagonal(int n, const double *A)
{
    double a_max = 0.0;
    for (int i = 0; i < n; i++) a_max = fmax(a_max, A[(size_t)i * n + i]);
    return a_max;
}

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

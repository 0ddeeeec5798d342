/* Inverse of the small symmetric positive-definite hinge matrices
 * D = H P H^* (3x3 or 6x6) from the library's small Cholesky factor
 * D = U^T U (base/small_cholesky.h). */
#include "dynamics_internal.h"

#include "../base/small_cholesky.h"

/* A pivot below this fraction of D's largest diagonal entry is a singular
 * hinge (no inertia beyond it). */
#define SPD_PIVOT_MIN 1e-14

/* Reads A's upper triangle only; inlined with n = 6 (the free joint) by
 * mcd_small_spd_inverse_n, whose loops then unroll. */
static inline int spd_inverse(int n, const double *A, double *Ainv)
{
    double U[36], Li[36]; /* Li: lower triangle only */
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) U[n * i + j] = A[n * i + j];
    const double d_min = SPD_PIVOT_MIN * mcd_small_cholesky_largest_diagonal(n, U);
    if (!mcd_small_cholesky_factor(n, U, d_min, 0)) return 0;
#pragma GCC unroll 6              /* straight-line code for n = 6 */
    for (int j = 0; j < n; j++) { /* Li = L^{-1} = U^{-T}, lower triangular */
        Li[n * j + j] = 1.0 / U[n * j + j];
#pragma GCC unroll 6
        for (int i = j + 1; i < n; i++) {
            double t = 0.0;
            for (int k = j; k < i; k++) t -= U[n * k + i] * Li[n * k + j];
            Li[n * i + j] = t / U[n * i + i];
        }
    }
#pragma GCC unroll 6
    for (int i = 0; i < n; i++) /* A^{-1} = Li^T Li */
#pragma GCC unroll 6
        for (int j = 0; j <= i; j++) {
            double t = 0.0;
            for (int k = i; k < n; k++) t += Li[n * k + i] * Li[n * k + j];
            Ainv[n * i + j] = Ainv[n * j + i] = t;
        }
    return 1;
}

int mcd_small_spd_inverse_n(int n, const double *A, double *Ainv)
{
    return n == 6 ? spd_inverse(6, A, Ainv) : spd_inverse(n, A, Ainv);
}

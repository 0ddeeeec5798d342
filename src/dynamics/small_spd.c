/* Inverse of the small symmetric positive-definite hinge matrices
 * D = H P H^* (3x3 or 6x6) from the library's small Cholesky factor
 * D = U^T U (base/small_cholesky.h). */
#include "dynamics_internal.h"

#include "../base/small_cholesky.h"

#include <string.h>

/* A pivot below this fraction of D's largest diagonal entry is a singular
 * hinge (no inertia beyond it). */
#define SPD_PIVOT_MIN 1e-14

int mcd_small_spd_inverse_n(int n, const double *A, double *Ainv)
{
    double U[36], Li[36] = {0};
    memcpy(U, A, (size_t)n * n * sizeof *U);
    if (!mcd_small_cholesky(n, U, SPD_PIVOT_MIN)) return 0;
    for (int j = 0; j < n; j++) { /* Li = L^{-1} = U^{-T}, lower triangular */
        Li[n * j + j] = 1.0 / U[n * j + j];
        for (int i = j + 1; i < n; i++) {
            double t = 0.0;
            for (int k = j; k < i; k++) t -= U[n * k + i] * Li[n * k + j];
            Li[n * i + j] = t / U[n * i + i];
        }
    }
    for (int i = 0; i < n; i++) /* A^{-1} = Li^T Li */
        for (int j = 0; j <= i; j++) {
            double t = 0.0;
            for (int k = i; k < n; k++) t += Li[n * k + i] * Li[n * k + j];
            Ainv[n * i + j] = Ainv[n * j + i] = t;
        }
    return 1;
}

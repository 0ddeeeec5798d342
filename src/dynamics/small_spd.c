/* Inverse of the small symmetric positive-definite hinge matrices
 * D = H P H^* (1x1, 3x3 or 6x6) by Cholesky factorization. */
#include "dynamics_internal.h"

#include <math.h>

int mcd_small_spd_inverse_n(int n, const double *A, double *Ainv)
{
    double L[36] = {0}, Li[36] = {0};
    double scale = 0.0;
    for (int i = 0; i < n; i++) scale = fmax(scale, fabs(A[n * i + i]));
    for (int j = 0; j < n; j++) { /* A = L L^T */
        double s = A[n * j + j];
        for (int k = 0; k < j; k++) s -= L[n * j + k] * L[n * j + k];
        if (!(s > 1e-14 * scale) || !isfinite(s)) return 0;
        L[n * j + j] = sqrt(s);
        for (int i = j + 1; i < n; i++) {
            double t = A[n * i + j];
            for (int k = 0; k < j; k++) t -= L[n * i + k] * L[n * j + k];
            L[n * i + j] = t / L[n * j + j];
        }
    }
    for (int j = 0; j < n; j++) { /* Li = L^{-1}, lower triangular */
        Li[n * j + j] = 1.0 / L[n * j + j];
        for (int i = j + 1; i < n; i++) {
            double t = 0.0;
            for (int k = j; k < i; k++) t -= L[n * i + k] * Li[n * k + j];
            Li[n * i + j] = t / L[n * i + i];
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

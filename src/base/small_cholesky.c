/* The small dense Cholesky factorization (small_cholesky.h). */
#include "small_cholesky.h"

#include "dense_dot.h"

#include <math.h>
#include <stddef.h>

/* Right-looking (outer-product) factorization: row k of U is row k of the
 * current Schur complement divided by sqrt of its pivot, then
 *   A_i,i: -= U_ki U_k,i:   (i > k, U_ki != 0)
 * removes it from the trailing rows. A pivot not above d_min fails
 * (returns 0), or with raise is raised to d_min. */
static int factor(int n, double *A, double d_min, int raise)
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

static double largest_diagonal(int n, const double *A)
{
    double a_max = 0.0;
    for (int i = 0; i < n; i++) a_max = fmax(a_max, A[(size_t)i * n + i]);
    return a_max;
}

int mcd_small_cholesky(int n, double *A, double pivot_min)
{
    return factor(n, A, pivot_min * largest_diagonal(n, A), 0);
}

void mcd_small_cholesky_floored(int n, double *A, double pivot_floor)
{
    factor(n, A, pivot_floor * largest_diagonal(n, A) + 1e-300, 1);
}

/* U^T y = b by columns of U^T (rows of U): y_i = b_i / U_ii, then
 * b_i+1: -= y_i U_i,i+1:; U x = y by rows: x_i = (y_i - U_i,i+1: . x_i+1:) / U_ii. */
void mcd_small_cholesky_solve(int n, const double *U, double *b)
{
    for (int i = 0; i < n; i++) {
        const double *Ui = U + (size_t)i * n;
        double yi = b[i] / Ui[i];
        b[i] = yi;
        if (yi == 0) continue;
        for (int j = i + 1; j < n; j++) b[j] -= yi * Ui[j];
    }
    for (int i = n - 1; i >= 0; i--) {
        const double *Ui = U + (size_t)i * n;
        b[i] = (b[i] - mcd_dense_dot(n - i - 1, Ui + i + 1, b + i + 1)) / Ui[i];
    }
}

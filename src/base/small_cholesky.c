/* The small dense Cholesky factorization (small_cholesky.h). */
#include "small_cholesky.h"

#include "dense_dot.h"

#include <stddef.h>

int mcd_small_cholesky(int n, double *A, double pivot_min)
{
    return mcd_small_cholesky_factor(n, A, pivot_min * mcd_small_cholesky_largest_diagonal(n, A),
                                     0);
}

void mcd_small_cholesky_floored(int n, double *A, double pivot_floor)
{
    mcd_small_cholesky_factor(n, A,
                              pivot_floor * mcd_small_cholesky_largest_diagonal(n, A) + 1e-300, 1);
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

/* Dense row-major helpers (dense.h). */
#include "dense.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

void mcd_dense_matvec(int n, const double *A, const double *x, const double *b, double *y)
{
    for (int i = 0; i < n; i++) y[i] = mcd_dense_dot(n, A + (size_t)i * n, x) + (b ? b[i] : 0.0);
}

/* A^T x = sum_i x_i A_i: axpys over the rows, skipping zero x_i. */
void mcd_dense_matvec_t(int n, const double *A, const double *x, double *y)
{
    memset(y, 0, (size_t)n * sizeof *y);
    for (int i = 0; i < n; i++) {
        const double *Ai = A + (size_t)i * n;
        double xi = x[i];
        if (xi == 0) continue;
        for (int j = 0; j < n; j++) y[j] += xi * Ai[j];
    }
}

/* A^T A = sum_k A_k^T A_k over the rows A_k: the lower triangle by
 * contiguous axpys (zero entries of A skipped), then mirrored. */
void mcd_dense_gram(int n, const double *A, double *G)
{
    memset(G, 0, (size_t)n * n * sizeof *G);
    for (int k = 0; k < n; k++) {
        const double *Ak = A + (size_t)k * n;
        for (int i = 0; i < n; i++) {
            double a = Ak[i];
            if (a == 0) continue;
            double *Gi = G + (size_t)i * n;
            for (int j = 0; j <= i; j++) Gi[j] += a * Ak[j];
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) G[(size_t)j * n + i] = G[(size_t)i * n + j];
}

double mcd_dense_norm(int n, const double *x)
{
    return sqrt(mcd_dense_dot(n, x, x));
}

double mcd_dense_max_abs(int n, const double *x)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

int mcd_dense_isfinite(int n, const double *x)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

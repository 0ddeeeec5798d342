/* The Levenberg-Marquardt step of the maximum-dissipation Newton method:
 * dense by dgels, sparse by SuiteSparseQR (maxdiss_step.h). */
#include "maxdiss_step.h"

#include "../base/lapack.h"
#include "dense.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

enum { ROWS = 3 };

/* Unknown (or row) i of Newton's order in the sparse order. */
static int sparse_index(int n, int nc, int i)
{
    return i < n ? i + nc : i - n;
}

/* 1 if any of W's rows [c, c + 3) has a nonzero in column j. */
static int block_row_nonzero(int n, const double *W, int c, int j)
{
    for (int e = 0; e < ROWS; e++)
        if (W[(size_t)(c + e) * n + j] != 0.0) return 1;
    return 0;
}

/* J's possible nonzeros in the sparse order (maxdiss_step.h) into pattern. */
static void write_pattern(int nb, int nc, const double *W, double *pattern)
{
    int n = nb + ROWS * nc, m = n + nc;
    memset(pattern, 0, (size_t)m * (size_t)m * sizeof *pattern);
    for (int i = 0; i < n; i++) /* bilateral and contact rows: W's rows */
        memcpy(pattern + (size_t)(nc + i) * m + nc, W + (size_t)i * n, (size_t)n * sizeof *W);
    for (int k = 0; k < nc; k++) {
        int c = nb + ROWS * k;
        double *fb = pattern + (size_t)k * m;
        for (int e = 0; e < ROWS; e++) pattern[(size_t)(nc + c + e) * m + k] = 1.0; /* lambda_k */
        for (int j = 0; j < n; j++) fb[nc + j] = block_row_nonzero(n, W, c, j);
        for (int e = 0; e < ROWS; e++) fb[nc + c + e] = 1.0; /* a_k */
        fb[k] = 1.0;                                         /* a zero block */
    }
}

int mcd_maxdiss_step_setup(mcd_lm_sparse *sparse, int nb, int nc, const double *W, double *pattern)
{
    if (!sparse || nb < 0 || nc < 0 || nc > (INT_MAX - nb) / (ROWS + 1)) return 0;
    int m = nb + (ROWS + 1) * nc;
    if (m <= MCD_MAXDISS_STEP_DENSE_MAX || (size_t)m > SIZE_MAX / sizeof *W / (size_t)m) return 0;
    write_pattern(nb, nc, W, pattern);
    return mcd_lm_sparse_setup(sparse, m, pattern, nb + nc);
}

/* By SuiteSparseQR: J and Phi permuted into the sparse order, d back. */
static int sparse_step(mcd_lm_sparse *sparse, int nb, int nc, const double *J, const double *phi,
                       double nu, const mcd_maxdiss_step_work *w, double *d)
{
    int n = nb + ROWS * nc, m = n + nc;
    double *Jp = w->aug, *scratch = w->aug + (size_t)m * m, *top = w->rhs, *dp = w->rhs + m;
    for (int i = 0; i < m; i++) {
        const double *row = J + (size_t)i * m;
        double *to = Jp + (size_t)sparse_index(n, nc, i) * m;
        memcpy(to + nc, row, (size_t)n * sizeof *row);
        memcpy(to, row + n, (size_t)nc * sizeof *row);
        top[sparse_index(n, nc, i)] = phi[i];
    }
    if (!mcd_lm_sparse_least_squares(sparse, Jp, top, NULL, nu, scratch, dp)) return 0;
    for (int i = 0; i < m; i++) d[i] = dp[sparse_index(n, nc, i)];
    return 1;
}

/* By LAPACK's QR of the stacked (2m) x m matrix, column-major in aug. */
static int dense_step(int m, const double *J, const double *phi, double nu,
                      const mcd_maxdiss_step_work *w, double *d)
{
    int m2 = 2 * m, one = 1, lwork = MCD_MAXDISS_STEP_LWORK * m, info = 0;
    double *aug = w->aug, *rhs = w->rhs;
    memset(aug, 0, (size_t)m2 * m * sizeof *aug);
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < m; j++) aug[(size_t)j * m2 + i] = J[(size_t)i * m + j];
        aug[(size_t)i * m2 + m + i] = sqrt(nu);
        rhs[i] = -phi[i];
        rhs[m + i] = 0.0;
    }
    dgels_("N", &m2, &m, &one, aug, &m2, rhs, &m2, w->lwork, &lwork, &info);
    if (info != 0 || !mcd_dense_isfinite(m, rhs)) return 0;
    memcpy(d, rhs, (size_t)m * sizeof *d);
    return 1;
}

int mcd_maxdiss_step_solve(mcd_lm_sparse *sparse, int nb, int nc, const double *J,
                           const double *phi, double nu, const mcd_maxdiss_step_work *w, double *d)
{
    if (sparse && sparse_step(sparse, nb, nc, J, phi, nu, w, d)) return 1;
    return dense_step(nb + (ROWS + 1) * nc, J, phi, nu, w, d);
}

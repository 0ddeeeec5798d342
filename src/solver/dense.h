/* Private: dense row-major vector and matrix helpers of the solver layer.
 * Plain loops over contiguous rows: the library links LAPACK only, and
 * these products are O(n^2) (the Gram matrix O(n^3 / 2), skipping zeros). */
#ifndef MCDYN_SOLVER_DENSE_H
#define MCDYN_SOLVER_DENSE_H

/* y = A x + b for a row-major n x n A; b may be NULL (y = A x). y must not
 * alias x. */
void mcd_dense_matvec(int n, const double *A, const double *x, const double *b, double *y);
/* y = A^T x for a row-major n x n A. y must not alias x. */
void mcd_dense_matvec_t(int n, const double *A, const double *x, double *y);
/* G = A^T A (n x n, both triangles) for a row-major n x n A. */
void mcd_dense_gram(int n, const double *A, double *G);
/* x . y with four partial sums: independent multiply-adds, where one
 * running sum would wait on the latency of each (the compiler may not
 * reassociate). Inline: called per row of the small matrix-vector
 * products, where a call costs as much as a row of 12. */
static inline double mcd_dense_dot(int n, const double *x, const double *y)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += x[i] * y[i];
        s1 += x[i + 1] * y[i + 1];
        s2 += x[i + 2] * y[i + 2];
        s3 += x[i + 3] * y[i + 3];
    }
    for (; i < n; i++) s0 += x[i] * y[i];
    return (s0 + s1) + (s2 + s3);
}
/* Euclidean norm. */
double mcd_dense_norm(int n, const double *x);
/* 1 if every entry of x (n) is finite. */
int mcd_dense_isfinite(int n, const double *x);

#endif

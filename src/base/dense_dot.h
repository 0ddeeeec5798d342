/* Private: the dot product of the library's small dense kernels (the
 * solver layer's matrix-vector products, dense.h, and the small Cholesky's
 * back substitution, small_cholesky.h), in base so that every layer can
 * use the same sums. */
#ifndef MCDYN_BASE_DENSE_DOT_H
#define MCDYN_BASE_DENSE_DOT_H

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

#endif

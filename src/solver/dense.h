/* Private: dense row-major vector and matrix helpers of the solver layer.
 * Plain loops over contiguous rows: the library links LAPACK only, and
 * these products are O(n^2) (the Gram matrix O(n^3 / 2), skipping zeros). */
#ifndef MCDYN_SOLVER_DENSE_H
#define MCDYN_SOLVER_DENSE_H

#include "../base/dense_dot.h"

/* y = A x + b for a row-major n x n A; b may be NULL (y = A x). y must not
 * alias x. */
void mcd_dense_matvec(int n, const double *A, const double *x, const double *b, double *y);
/* y = A^T x for a row-major n x n A. y must not alias x. */
void mcd_dense_matvec_t(int n, const double *A, const double *x, double *y);
/* G = A^T A (n x n, both triangles) for a row-major n x n A. */
void mcd_dense_gram(int n, const double *A, double *G);
/* x . y: mcd_dense_dot (base/dense_dot.h). */
/* Euclidean norm. */
double mcd_dense_norm(int n, const double *x);
/* max_i |x_i| (0 for n = 0; NaN entries are skipped, as fmax does). */
double mcd_dense_max_abs(int n, const double *x);
/* 1 if every entry of x (n) is finite. */
int mcd_dense_isfinite(int n, const double *x);

#endif

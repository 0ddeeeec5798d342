/* Private: prototypes of the LAPACK/BLAS routines mcdyn calls (Fortran
 * interface, column-major, all arguments by pointer). Only files under src/
 * include this; the conversion from mcdyn's row-major storage is done at
 * each call site, documented there. */
#ifndef MCDYN_SRC_LAPACK_H
#define MCDYN_SRC_LAPACK_H

/* Cholesky factorization of a symmetric positive-definite matrix. */
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);
/* Solve with a Cholesky factor. */
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda,
             double *b, const int *ldb, int *info);
/* Inverse from a Cholesky factor (in place). */
void dpotri_(const char *uplo, const int *n, double *a, const int *lda, int *info);
/* LU factorization with partial pivoting, and solve. */
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda,
             const int *ipiv, double *b, const int *ldb, int *info);
void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b,
            const int *ldb, int *info);
/* Triangular solve. */
void dtrtrs_(const char *uplo, const char *trans, const char *diag, const int *n, const int *nrhs,
             const double *a, const int *lda, double *b, const int *ldb, int *info);
/* QR factorization, application of Q. */
void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
             const int *lwork, int *info);
void dormqr_(const char *side, const char *trans, const int *m, const int *n, const int *k,
             const double *a, const int *lda, const double *tau, double *c, const int *ldc,
             double *work, const int *lwork, int *info);
/* Linear least squares by QR / LQ. */
void dgels_(const char *trans, const int *m, const int *n, const int *nrhs, double *a,
            const int *lda, double *b, const int *ldb, double *work, const int *lwork, int *info);
/* Symmetric eigenvalues (for rank checks). */
void dsyev_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
            double *work, const int *lwork, int *info);
/* Singular values. */
void dgesvd_(const char *jobu, const char *jobvt, const int *m, const int *n, double *a,
             const int *lda, double *s, double *u, const int *ldu, double *vt, const int *ldvt,
             double *work, const int *lwork, int *info);
/* BLAS: C = alpha op(A) op(B) + beta C; y = alpha op(A) x + beta y. */
void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc);
void dgemv_(const char *trans, const int *m, const int *n, const double *alpha, const double *a,
            const int *lda, const double *x, const int *incx, const double *beta, double *y,
            const int *incy);

/* Estimate of the 1-norm of a matrix known by its products with vectors
 * (reverse communication: kase 1 asks x = A x, kase 2 x = A^T x, 0 done). */
void dlacn2_(const int *n, double *v, double *x, int *isgn, double *est, int *kase, int *isave);
/* Reciprocal condition number (1-norm) of an LU-factored matrix. */
void dgecon_(const char *norm, const int *n, const double *a, const int *lda, const double *anorm,
             double *rcond, double *work, int *iwork, int *info);

#endif

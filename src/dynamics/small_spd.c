/* Inverse of the small symmetric positive-definite hinge matrices
 * D = H P H^* in closed form: 3x3 (spherical) by cofactors, 6x6 (free) by
 * its 3x3 blocks and their Schur complement.
 *
 * Positive definiteness is checked on the pivots of D's Cholesky
 * factorization, which are ratios of leading principal minors (Sylvester's
 * criterion): d_1 = m_1, d_j = m_j / m_{j-1}. For the 6x6 matrix
 * D = [A B; B^T C], pivots 4 to 6 are those of the Schur complement
 * S = C - B^T A^{-1} B. Every pivot must exceed 1e-14 times D's largest
 * diagonal entry, as a Cholesky factorization would require. */
#include "dynamics_internal.h"

#include <math.h>

#define PIVOT_FLOOR 1e-14

/* A^{-1} of a symmetric 3x3 A (row-major; the upper triangle is read) by
 * cofactors: A^{-1} = adj(A) / det(A). Returns 0 unless its pivots a11,
 * m2 / a11 and det / m2 exceed tol (m2 = a11 a22 - a12^2). */
static int spd3_inverse(const double *A, double tol, double *Ainv)
{
    const double a = A[0], b = A[1], c = A[2], e = A[4], f = A[5], i = A[8];
    const double m2 = a * e - b * b;
    const double c00 = e * i - f * f, c01 = c * f - b * i, c02 = b * f - c * e;
    const double det = a * c00 + b * c01 + c * c02;
    if (!(a > tol) || !(m2 > tol * a) || !(det > tol * m2) || !isfinite(det)) return 0;
    const double r = 1.0 / det;
    Ainv[0] = c00 * r;
    Ainv[1] = Ainv[3] = c01 * r;
    Ainv[2] = Ainv[6] = c02 * r;
    Ainv[4] = (a * i - c * c) * r;
    Ainv[5] = Ainv[7] = (b * c - a * f) * r;
    Ainv[8] = m2 * r;
    return 1;
}

static double max_diagonal(int n, const double *A)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s = fmax(s, fabs(A[n * i + i]));
    return s;
}

/* The 3x3 block (r, c) of a 6x6 row-major matrix, or its store. */
static void get_block(const double *D, int r, int c, double *X)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) X[3 * i + j] = D[6 * (3 * r + i) + 3 * c + j];
}

static void put_block(double *D, int r, int c, const double *X, double sign)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) D[6 * (3 * r + i) + 3 * c + j] = sign * X[3 * i + j];
}

/* D^{-1} = [A^{-1} + F E^T, -F; -F^T, S^{-1}] with E = A^{-1} B,
 * S = C - B^T E and F = E S^{-1} (the block inverse through the Schur
 * complement of A). */
static int spd6_inverse(const double *D, double *Dinv)
{
    const double tol = PIVOT_FLOOR * max_diagonal(6, D);
    double A[9], B[9], S[9], Ai[9], E[9], Si[9], F[9], TL[9];
    get_block(D, 0, 0, A);
    get_block(D, 0, 1, B);
    get_block(D, 1, 1, S);
    if (!spd3_inverse(A, tol, Ai)) return 0;
    mcd_m3_mul(E, Ai, B);
    for (int i = 0; i < 3; i++) /* S = C - B^T E */
        for (int j = 0; j < 3; j++)
            S[3 * i + j] -= B[i] * E[j] + B[3 + i] * E[3 + j] + B[6 + i] * E[6 + j];
    if (!spd3_inverse(S, tol, Si)) return 0;
    mcd_m3_mul(F, E, Si);
    for (int i = 0; i < 3; i++) /* A^{-1} + F E^T */
        for (int j = 0; j < 3; j++)
            TL[3 * i + j] = Ai[3 * i + j] + F[3 * i] * E[3 * j] + F[3 * i + 1] * E[3 * j + 1] +
                            F[3 * i + 2] * E[3 * j + 2];
    put_block(Dinv, 0, 0, TL, 1.0);
    put_block(Dinv, 0, 1, F, -1.0);
    mcd_m3_transpose(E, F); /* E is free again */
    put_block(Dinv, 1, 0, E, -1.0);
    put_block(Dinv, 1, 1, Si, 1.0);
    return 1;
}

int mcd_small_spd_inverse_n(int n, const double *A, double *Ainv)
{
    if (n == 3) return spd3_inverse(A, PIVOT_FLOOR * max_diagonal(3, A), Ainv);
    if (n == 6) return spd6_inverse(A, Ainv);
    return 0;
}

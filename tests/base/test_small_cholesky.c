/* The small Cholesky of the base layer (src/base/small_cholesky.h) where
 * tests/solver/test_small_dense.c (factor and solve against LAPACK) does not
 * reach: the floored variant on positive semidefinite matrices of lower rank
 * (the impact phase's redundant closures, Stronge's redundant stick rows),
 * checked against the exact product U^T U = A + D with D diagonal,
 * nonnegative and at most the floor; and the 3x3 test of the
 * maximum-dissipation law on blocks of rank 3, 2 and 1. */
#include "base/small_cholesky.h"
#include "common/check_main.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_N 12
#define FLOOR 1e-10 /* the impact phase's and Stronge's relative floor */
/* U^T U reproduces A + D to a few roundings of its largest entry: each
 * entry is a sum of at most MAX_N products, each rounded once (Higham,
 * Thm. 10.3: |A - U^T U| <= gamma_{n+1} |U^T| |U|, and |U^T||U| <= n max A). */
#define PRODUCT_TOL (4.0 * (MAX_N + 1) * MAX_N * 2.220446049250313e-16)

/* A = Q diag(sigma) Q^T (row-major, symmetric), Q a product of three random
 * Householder reflectors, sigma_i in [0.5, 1] for i < rank and 0 beyond:
 * positive semidefinite of rank exactly rank, its nonzero eigenvalues
 * within a factor 2, so that a pivot is either O(1) or zero up to rounding. */
static void semidefinite_of_rank(unsigned *seed, int n, int rank, double *A)
{
    memset(A, 0, sizeof(double) * (size_t)n * n);
    for (int i = 0; i < rank; i++) A[n * i + i] = 0.5 + 0.5 * rand_r(seed) / RAND_MAX;
    for (int r = 0; r < 3; r++) { /* A := H A H, H = I - 2 v v^T / (v . v) */
        double v[MAX_N], Av[MAX_N], vv = 0.0, vAv = 0.0;
        for (int i = 0; i < n; i++) v[i] = 2.0 * rand_r(seed) / RAND_MAX - 1.0, vv += v[i] * v[i];
        for (int i = 0; i < n; i++) {
            Av[i] = 0.0;
            for (int j = 0; j < n; j++) Av[i] += A[n * i + j] * v[j];
            vAv += v[i] * Av[i];
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                A[n * i + j] +=
                    (-2.0 * (v[i] * Av[j] + Av[i] * v[j]) + 4.0 * v[i] * v[j] * vAv / vv) / vv;
    }
    for (int i = 0; i < n; i++) /* exactly symmetric */
        for (int j = 0; j < i; j++) A[n * i + j] = A[n * j + i];
}

static double largest_diagonal(int n, const double *A)
{
    double a = 0.0;
    for (int i = 0; i < n; i++) a = fmax(a, A[n * i + i]);
    return a;
}

/* D = U^T U - A (upper factor in U's upper triangle). */
static void factor_residual(int n, const double *U, const double *A, double *D)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double t = 0.0;
            for (int k = 0; k <= (i < j ? i : j); k++) t += U[n * k + i] * U[n * k + j];
            D[n * i + j] = t - A[n * i + j];
        }
}

START_TEST(floored_factor_of_a_semidefinite_matrix_adds_a_small_diagonal)
{
    unsigned seed = 7;
    for (int n = 2; n <= MAX_N; n++)
        for (int rank = 1; rank < n; rank++) {
            double A[MAX_N * MAX_N], U[MAX_N * MAX_N], D[MAX_N * MAX_N];
            semidefinite_of_rank(&seed, n, rank, A);
            memcpy(U, A, sizeof A);
            mcd_small_cholesky_floored(n, U, FLOOR);
            factor_residual(n, U, A, D);
            const double a = largest_diagonal(n, A), tol = PRODUCT_TOL * a;
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    const double dij = D[n * i + j];
                    if (i != j)
                        ck_assert_msg(fabs(dij) <= tol, "n %d rank %d: D[%d][%d] = %g", n, rank, i,
                                      j, dij);
                    else /* the raised pivot adds the floor less the computed pivot, zero
                          * up to rounding amplified by the leading block's condition: a tenth
                          * of the floor (observed: 3e-3 of it) */
                        ck_assert_msg(dij >= -tol && dij <= 1.1 * FLOOR * a + 1e-300,
                                      "n %d rank %d: D[%d][%d] = %g, floor %g", n, rank, i, i, dij,
                                      FLOOR * a);
                }
        }
}
END_TEST

START_TEST(floored_and_plain_factors_agree_on_a_definite_matrix)
{
    unsigned seed = 11;
    for (int n = 1; n <= MAX_N; n++) {
        double A[MAX_N * MAX_N], U[MAX_N * MAX_N], V[MAX_N * MAX_N], x[MAX_N], b[MAX_N];
        semidefinite_of_rank(&seed, n, n, A); /* cond(A) <= 2 */
        memcpy(U, A, sizeof A);
        memcpy(V, A, sizeof A);
        ck_assert_int_eq(mcd_small_cholesky(n, U, FLOOR), 1);
        mcd_small_cholesky_floored(n, V, FLOOR);
        for (int i = 0; i < n; i++) /* no pivot near the floor: the same operations */
            for (int j = i; j < n; j++) ck_assert(U[n * i + j] == V[n * i + j]);
        for (int i = 0; i < n; i++) x[i] = b[i] = 2.0 * rand_r(&seed) / RAND_MAX - 1.0;
        mcd_small_cholesky_solve(n, U, x);
        /* the residual of a backward-stable solve: a few n eps max A_ii |x|, with
         * |x| <= 2 |b| <= 2 sqrt(n) (lambda_min(A) >= 0.5); 1e-12 leaves a margin of 100 */
        for (int i = 0; i < n; i++) {
            double r = -b[i];
            for (int j = 0; j < n; j++) r += A[n * i + j] * x[j];
            ck_assert_msg(fabs(r) <= 1e-12, "n %d: r = %g", n, r);
        }
    }
}
END_TEST

START_TEST(three_by_three_test_tells_definite_from_semidefinite_blocks)
{
    unsigned seed = 3;
    for (int trial = 0; trial < 200; trial++)
        for (int rank = 1; rank <= 3; rank++) {
            double A[9];
            semidefinite_of_rank(&seed, 3, rank, A);
            const int expect = rank == 3 ? 1 : 0;
            double U[9];
            memcpy(U, A, sizeof A);
            const int got = mcd_small_cholesky(3, U, FLOOR);
            ck_assert_msg(got == expect, "trial %d rank %d: %d", trial, rank, got);
        }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("base-small-cholesky");
    TCase *tc = tcase_create("small-cholesky");
    tcase_add_test(tc, floored_factor_of_a_semidefinite_matrix_adds_a_small_diagonal);
    tcase_add_test(tc, floored_and_plain_factors_agree_on_a_definite_matrix);
    tcase_add_test(tc, three_by_three_test_tells_definite_from_semidefinite_blocks);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* The small Cholesky's documented contract (src/base/small_cholesky.h)
 * where tests/base/test_small_cholesky.c does not look:
 *   - the solve with right-hand sides that have zero entries (the rows of
 *     separated contacts): A x = b to rounding;
 *   - the pivot bound is relative to the largest diagonal entry: a
 *     definite matrix whose ratio max_j A_jj / min pivot exceeds
 *     1 / pivot_min is refused wherever that pivot sits, and the verdict
 *     does not change when A is scaled;
 *   - the floored factor always succeeds, also for the zero matrix (its
 *     relative floor is 0; the absolute 1e-300 keeps the factor finite). */
#include "base/small_cholesky.h"
#include "common/check_main.h"

#include <check.h>
#include <math.h>
#include <string.h>

#define N     6
#define FLOOR 1e-10

/* A = B^T B + I (row-major, symmetric positive definite, lambda_min >= 1,
 * entries O(N)), B with entries in [-1, 1] from a fixed recurrence. */
static void definite(double A[N * N])
{
    double B[N * N];
    unsigned x = 12345;
    for (int i = 0; i < N * N; i++) {
        x = x * 1103515245u + 12345u;
        B[i] = (double)(x >> 8) / (double)(1u << 24) * 2.0 - 1.0;
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double t = i == j ? 1.0 : 0.0;
            for (int k = 0; k < N; k++) t += B[N * k + i] * B[N * k + j];
            A[N * i + j] = t;
        }
}

START_TEST(solve_with_zero_entries_in_the_right_hand_side)
{
    double A[N * N], U[N * N];
    definite(A);
    memcpy(U, A, sizeof A);
    ck_assert_int_eq(mcd_small_cholesky(N, U, FLOOR), 1);
    /* every pattern of zero and nonzero entries of b */
    for (int mask = 1; mask < 1 << N; mask++) {
        double b[N], x[N];
        for (int i = 0; i < N; i++) b[i] = x[i] = (mask >> i & 1) ? 1.0 + i : 0.0;
        mcd_small_cholesky_solve(N, U, x);
        /* backward stable: |A x - b| <= a few N eps |A| |x|, with |x| <=
         * |b| / lambda_min <= |b| <= 21 and |A| <= N (N + 1); 1e-11 is far
         * above that and far below a skipped update (O(1)) */
        for (int i = 0; i < N; i++) {
            double r = -b[i];
            for (int j = 0; j < N; j++) r += A[N * i + j] * x[j];
            ck_assert_msg(fabs(r) <= 1e-11, "mask %#x row %d: residual %g", mask, i, r);
        }
    }
}
END_TEST

START_TEST(pivot_bound_is_relative_to_the_largest_diagonal_entry)
{
    /* diag(eps, 1, ..., 1) rotated nowhere: definite, its pivots are its
     * diagonal, and max A_jj / min pivot = 1 / eps. Refused when 1 / eps >
     * 1 / pivot_min, accepted when below, wherever the small entry is. */
    const double small[2] = {1e-12, 1e-8}; /* below and above FLOOR = 1e-10 */
    for (int k = 0; k < N; k++)
        for (int s = 0; s < 2; s++)
            for (int e = -20; e <= 20; e += 20) { /* and scaled by 1e-20, 1, 1e20 */
                double A[N * N] = {0};
                for (int i = 0; i < N; i++) A[N * i + i] = (i == k ? small[s] : 1.0) * pow(10, e);
                const int expect = s == 1;
                ck_assert_msg(mcd_small_cholesky(N, A, FLOOR) == expect,
                              "small pivot %g at %d, scale 1e%d: expected %d", small[s], k, e,
                              expect);
            }
}
END_TEST

START_TEST(floored_factor_of_the_zero_matrix_is_finite)
{
    for (int n = 1; n <= N; n++) {
        double A[N * N] = {0}, b[N];
        mcd_small_cholesky_floored(n, A, FLOOR);
        for (int i = 0; i < n; i++) {
            ck_assert_msg(A[n * i + i] > 0, "n %d: U[%d][%d] = %g", n, i, i, A[n * i + i]);
            for (int j = i; j < n; j++)
                ck_assert_msg(isfinite(A[n * i + j]), "n %d: U[%d][%d] = %g", n, i, j,
                              A[n * i + j]);
        }
        /* U^T U = D, 0 < D <= 1e-300: the solve of b = 0 is 0, finite */
        for (int i = 0; i < n; i++) b[i] = 0.0;
        mcd_small_cholesky_solve(n, A, b);
        for (int i = 0; i < n; i++) ck_assert_msg(b[i] == 0.0, "n %d: x[%d] = %g", n, i, b[i]);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("base-small-cholesky-contract");
    TCase *tc = tcase_create("contract");
    tcase_add_test(tc, solve_with_zero_entries_in_the_right_hand_side);
    tcase_add_test(tc, pivot_bound_is_relative_to_the_largest_diagonal_entry);
    tcase_add_test(tc, floored_factor_of_the_zero_matrix_is_finite);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

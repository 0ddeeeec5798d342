/* The dense Cholesky kernel of the PLM step (src/solver/small_dense.h)
 * against LAPACK: factor and solve on random, ill-conditioned, singular
 * and non-finite matrices, the normal matrix J^T J + lambda I against the
 * explicit product, and the normal-equations step against dgels' solution
 * of the stacked least-squares problem of Mylapilli & Jain Sec. 5.2. */
#include "common/check_main.h"
#include "base/lapack.h"
#include "solver/small_dense.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPS           2.220446049250313e-16
#define PIVOT_MIN     1e-10 /* the PLM's acceptance threshold */
#define WELL_TOL      1e-12 /* relative, factor and solution, cond(A) <= ~1e3 */
#define MAX_N         70
#define N_SIZES       8
#define CASES_PER_N   20
#define KAPPA_ILL     1e14  /* rejected by PIVOT_MIN */
#define KAPPA_MEDIUM  1e8   /* accepted with pivot_min = 0 */
#define STEP_TOL      1e-10 /* relative, normal equations vs stacked QR */
#define STEP_KAPPA    1e3   /* condition number of J in the step test */
#define REFLECTORS    3     /* Householder reflectors of a random orthogonal Q */
#define STACK_MAX_ROW (2 * MAX_N)

static const int sizes[N_SIZES] = {1, 2, 3, 5, 9, 27, 64, MAX_N};

static double max_abs(int n, const double *x)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

/* A = Q diag(sigma) Q^T with Q a product of random Householder reflectors
 * and sigma log-spaced from 1 down to 1 / kappa (row-major, symmetric). */
static void spd_with_condition(tu_rng *rng, int n, double kappa, double *A)
{
    memset(A, 0, sizeof(double) * (size_t)n * n);
    for (int i = 0; i < n; i++) A[i * n + i] = n > 1 ? pow(kappa, -(double)i / (n - 1)) : 1.0;
    double v[MAX_N], Av[MAX_N];
    for (int r = 0; r < REFLECTORS; r++) {
        for (int i = 0; i < n; i++) v[i] = tu_uniform(rng, -1, 1);
        double vv = 0.0;
        for (int i = 0; i < n; i++) vv += v[i] * v[i];
        /* H A H with H = I - 2 v v^T / vv: A - 2 v (Av)^T/vv - 2 (Av) v^T/vv + 4 v v^T (v.Av)/vv^2
         */
        double vAv = 0.0;
        for (int i = 0; i < n; i++) {
            Av[i] = 0.0;
            for (int j = 0; j < n; j++) Av[i] += A[i * n + j] * v[j];
            vAv += v[i] * Av[i];
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                A[i * n + j] +=
                    (-2.0 * (v[i] * Av[j] + Av[i] * v[j]) + 4.0 * v[i] * v[j] * vAv / vv) / vv;
    }
}

/* Our factor and solve against dpotrf/dpotrs on the same A and b: the
 * row-major upper factor U occupies the memory of LAPACK's column-major
 * lower factor L = U^T. Returns the largest relative difference. */
static double compare_with_lapack(int n, const double *A, const double *b, double pivot_min)
{
    double U[MAX_N * MAX_N], L[MAX_N * MAX_N], x[MAX_N], y[MAX_N];
    int info, one = 1;
    memcpy(U, A, sizeof(double) * (size_t)n * n);
    memcpy(L, A, sizeof(double) * (size_t)n * n);
    memcpy(x, b, sizeof(double) * (size_t)n);
    memcpy(y, b, sizeof(double) * (size_t)n);
    ck_assert_int_eq(mcd_small_cholesky(n, U, pivot_min), 1);
    dpotrf_("L", &n, L, &n, &info);
    ck_assert_int_eq(info, 0);
    double diff = 0.0, scale = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            diff = fmax(diff, fabs(U[i * n + j] - L[i * n + j]));
            scale = fmax(scale, fabs(L[i * n + j]));
        }
    mcd_small_cholesky_solve(n, U, x);
    dpotrs_("L", &n, &one, L, &n, y, &n, &info);
    ck_assert_int_eq(info, 0);
    return fmax(diff / scale, tu_max_diff(n, x, y) / max_abs(n, y));
}

START_TEST(factor_and_solve_match_lapack)
{
    tu_rng rng = {0x5eed1};
    double A[MAX_N * MAX_N], b[MAX_N];
    for (int s = 0; s < N_SIZES; s++) {
        int n = sizes[s];
        for (int c = 0; c < CASES_PER_N; c++) {
            tu_spd_matrix(&rng, n, 1.0, A); /* eigenvalues in [1, ~5] */
            for (int i = 0; i < n; i++) b[i] = tu_uniform(&rng, -1, 1);
            ck_assert_double_le(compare_with_lapack(n, A, b, PIVOT_MIN), WELL_TOL);
        }
    }
}
END_TEST

START_TEST(ill_conditioned_is_rejected_or_accurate)
{
    tu_rng rng = {0x5eed2};
    double A[MAX_N * MAX_N], b[MAX_N];
    for (int s = 2; s < N_SIZES; s++) {
        int n = sizes[s];
        spd_with_condition(&rng, n, KAPPA_ILL, A);
        ck_assert_int_eq(mcd_small_cholesky(n, A, PIVOT_MIN), 0);
        /* cond 1e8: accepted without threshold, agreeing with LAPACK to
         * within the forward error bound ~ cond * eps (factor 100 spare). */
        spd_with_condition(&rng, n, KAPPA_MEDIUM, A);
        for (int i = 0; i < n; i++) b[i] = tu_uniform(&rng, -1, 1);
        ck_assert_double_le(compare_with_lapack(n, A, b, 0.0), 100.0 * KAPPA_MEDIUM * EPS);
    }
}
END_TEST

START_TEST(singular_indefinite_and_nonfinite_are_rejected)
{
    tu_rng rng = {0x5eed3};
    double A[MAX_N * MAX_N], B[MAX_N * MAX_N];
    for (int s = 1; s < N_SIZES; s++) {
        int n = sizes[s], rank = n - 1;
        for (int i = 0; i < n * rank; i++) B[i] = tu_uniform(&rng, -1, 1);
        for (int i = 0; i < n; i++) /* A = B B^T, B n x (n - 1): rank n - 1 */
            for (int j = 0; j < n; j++) {
                A[i * n + j] = 0.0;
                for (int k = 0; k < rank; k++) A[i * n + j] += B[i * rank + k] * B[j * rank + k];
            }
        ck_assert_int_eq(mcd_small_cholesky(n, A, PIVOT_MIN), 0);
        tu_spd_matrix(&rng, n, 1.0, A);
        A[(n - 1) * n + n - 1] = -1.0; /* indefinite */
        ck_assert_int_eq(mcd_small_cholesky(n, A, 0.0), 0);
        tu_spd_matrix(&rng, n, 1.0, A);
        A[n - 1] = NAN; /* upper triangle, last column */
        ck_assert_int_eq(mcd_small_cholesky(n, A, 0.0), 0);
        memset(A, 0, sizeof(double) * (size_t)n * n);
        ck_assert_int_eq(mcd_small_cholesky(n, A, 0.0), 0);
    }
}
END_TEST

START_TEST(normal_matrix_is_the_explicit_product)
{
    tu_rng rng = {0x5eed4};
    double J[MAX_N * MAX_N], N[MAX_N * MAX_N];
    const double lambda = 1e-3;
    for (int s = 0; s < N_SIZES; s++) {
        int n = sizes[s];
        for (int i = 0; i < n * n; i++) /* a third of the entries zero, as separated contacts */
            J[i] = tu_uniform(&rng, 0, 1) < 1.0 / 3 ? 0.0 : tu_uniform(&rng, -1, 1);
        for (int i = 0; i < n * n; i++) N[i] = NAN; /* the lower triangle is not written */
        mcd_small_normal_matrix(n, J, lambda, N);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                if (j < i) {
                    ck_assert(isnan(N[i * n + j]));
                    continue;
                }
                double e = i == j ? lambda : 0.0;
                for (int k = 0; k < n; k++) e += J[k * n + i] * J[k * n + j];
                ck_assert_double_le(fabs(N[i * n + j] - e), n * EPS * (1.0 + fabs(e)));
            }
    }
}
END_TEST

/* d of min |[J; sqrt(lambda) I] d - [-phi; 0]| by dgels on the stacked
 * (2n x n, column-major) matrix. */
static void stacked_qr_step(int n, const double *J, const double *phi, double lambda, double *d)
{
    static double S[STACK_MAX_ROW * MAX_N], rhs[STACK_MAX_ROW], work[64 * STACK_MAX_ROW];
    int m = 2 * n, one = 1, lwork = 64 * STACK_MAX_ROW, info;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            S[j * m + i] = i < n ? J[i * n + j] : (i - n == j ? sqrt(lambda) : 0.0);
    for (int i = 0; i < m; i++) rhs[i] = i < n ? -phi[i] : 0.0;
    dgels_("N", &m, &n, &one, S, &m, rhs, &m, work, &lwork, &info);
    ck_assert_int_eq(info, 0);
    memcpy(d, rhs, sizeof(double) * (size_t)n);
}

/* J = G H, H = I - 2 v v^T / v.v a random reflector: not symmetric, with
 * the singular values (and condition number) of the SPD G. */
static void nonsymmetric_with_condition(tu_rng *rng, int n, const double *G, double *J)
{
    double v[MAX_N], vv = 0.0;
    for (int i = 0; i < n; i++) {
        v[i] = tu_uniform(rng, -1, 1);
        vv += v[i] * v[i];
    }
    for (int i = 0; i < n; i++) {
        double gv = 0.0;
        for (int k = 0; k < n; k++) gv += G[i * n + k] * v[k];
        for (int j = 0; j < n; j++) J[i * n + j] = G[i * n + j] - 2.0 * gv * v[j] / vv;
    }
}

START_TEST(normal_equations_step_is_the_stacked_least_squares_step)
{
    tu_rng rng = {0x5eed5};
    static double J[MAX_N * MAX_N], G[MAX_N * MAX_N], N[MAX_N * MAX_N];
    double phi[MAX_N], d[MAX_N], d_qr[MAX_N];
    const double lambdas[] = {1e-16, 1e-3, 1.0}; /* PLM's default, and damping that matters */
    for (int s = 0; s < N_SIZES; s++) {
        int n = sizes[s];
        for (size_t l = 0; l < sizeof lambdas / sizeof *lambdas; l++) {
            spd_with_condition(&rng, n, STEP_KAPPA, G);
            nonsymmetric_with_condition(&rng, n, G, J);
            for (int i = 0; i < n; i++) phi[i] = tu_uniform(&rng, -1, 1);
            for (int i = 0; i < n; i++) { /* d = -(J^T J + lambda I)^{-1} J^T phi */
                d[i] = 0.0;
                for (int k = 0; k < n; k++) d[i] -= J[k * n + i] * phi[k];
            }
            mcd_small_normal_matrix(n, J, lambdas[l], N);
            ck_assert_int_eq(mcd_small_cholesky(n, N, PIVOT_MIN), 1);
            mcd_small_cholesky_solve(n, N, d);
            stacked_qr_step(n, J, phi, lambdas[l], d_qr);
            ck_assert_double_le(tu_max_diff(n, d, d_qr), STEP_TOL * max_abs(n, d_qr));
        }
    }
}
END_TEST

static Suite *small_dense_suite(void)
{
    Suite *s = suite_create("solver-small-dense");
    TCase *tc = tcase_create("small-dense");
    tcase_add_test(tc, factor_and_solve_match_lapack);
    tcase_add_test(tc, ill_conditioned_is_rejected_or_accurate);
    tcase_add_test(tc, singular_indefinite_and_nonfinite_are_rejected);
    tcase_add_test(tc, normal_matrix_is_the_explicit_product);
    tcase_add_test(tc, normal_equations_step_is_the_stacked_least_squares_step);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(small_dense_suite());
}

/* RLM's predicted decrease (src/solver/lm.h, Mylapilli & Jain Sec. 5.1)
 * against its definition: for the damped step (J^T J + lambda I) dx = -J^T
 * Phi, q(x) - q(x + dx) = 1/2 |Phi|^2 - 1/2 |Phi + J dx|^2, evaluated here
 * by forming Phi + J dx explicitly. The two agree to rounding: the terms
 * are O(|Phi|^2) and cancel at most by the factor cond(J^T J + lambda I),
 * kept below ~1e4 here, so 1e-10 relative to |Phi|^2 is safe. */
#include "base/lapack.h"
#include "solver/lm.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_N 12

static double dot(int n, const double *a, const double *b)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

START_TEST(predicted_decrease_equals_model_difference)
{
    tu_rng r = {20261125};
    static const double lambdas[] = {1e-8, 1e-3, 1.0, 30.0};
    for (int c = 0; c < 200; c++) {
        int n = 1 + c % MAX_N, one = 1, info;
        double J[MAX_N * MAX_N], phi[MAX_N], g[MAX_N], H[MAX_N * MAX_N], dx[MAX_N];
        double lambda = lambdas[c % 4];
        for (int i = 0; i < n * n; i++) J[i] = tu_uniform(&r, -1, 1);
        for (int i = 0; i < n; i++) J[i * n + i] += 2.0; /* keep J^T J away from singular */
        for (int i = 0; i < n; i++) phi[i] = tu_uniform(&r, -1, 1);
        for (int j = 0; j < n; j++) { /* g = J^T Phi, J row-major */
            g[j] = 0;
            for (int i = 0; i < n; i++) g[j] += J[i * n + j] * phi[i];
        }
        for (int a = 0; a < n; a++) /* H = J^T J + lambda I */
            for (int b = 0; b < n; b++) {
                double s = a == b ? lambda : 0;
                for (int i = 0; i < n; i++) s += J[i * n + a] * J[i * n + b];
                H[a * n + b] = s;
            }
        for (int i = 0; i < n; i++) dx[i] = -g[i];
        dpotrf_("L", &n, H, &n, &info);
        ck_assert_int_eq(info, 0);
        dpotrs_("L", &n, &one, H, &n, dx, &n, &info);
        ck_assert_int_eq(info, 0);
        double res[MAX_N]; /* Phi + J dx */
        for (int i = 0; i < n; i++) res[i] = phi[i] + dot(n, J + i * n, dx);
        double want = 0.5 * dot(n, phi, phi) - 0.5 * dot(n, res, res);
        double got = mcd_lm_predicted_decrease(n, g, dx, lambda);
        ck_assert_msg(fabs(got - want) <= 1e-10 * dot(n, phi, phi),
                      "case %d (n %d, lambda %g): %.15g, definition %.15g", c, n, lambda, got,
                      want);
        ck_assert_msg(got > 0, "case %d: a descent step must predict a decrease (%g)", c, got);
    }
}
END_TEST

static Suite *lm_model_suite(void)
{
    Suite *s = suite_create("lm-model");
    TCase *tc = tcase_create("rlm");
    tcase_add_test(tc, predicted_decrease_equals_model_difference);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lm_model_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

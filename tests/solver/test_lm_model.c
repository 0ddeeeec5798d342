/* The Levenberg-Marquardt methods' own rules (src/solver/lm.h), each
 * against its definition:
 *  - RLM's predicted decrease (Mylapilli & Jain Sec. 5.1): for the damped
 *    step (J^T J + lambda I) dx = -J^T Phi, q(x) - q(x + dx) = 1/2 |Phi|^2
 *    - 1/2 |Phi + J dx|^2, evaluated here by forming Phi + J dx
 *    explicitly. The two agree to rounding: the terms are O(|Phi|^2) and
 *    cancel at most by the factor cond(J^T J + lambda I), kept below ~1e4
 *    here, so 1e-10 relative to |Phi|^2 is safe.
 *  - PLM's sufficient decrease (Armijo, as in Kanzow & Petra's LMMCP):
 *    every step of the monotone phase must satisfy psi(x+) <= psi(x) +
 *    sigma grad psi . (x+ - x), run on PLM alone (no fallback chain) from a
 *    point where the full Newton step decreases psi by almost nothing.
 *  - PLM's O(n) step for a diagonal Jacobian (every cold start of Todorov's
 *    map: J = -I at x = 0) is the dense normal-equations step bit for bit:
 *    the dense kernels (normal matrix, Cholesky, two solves with one
 *    refinement) are run here on the same J and the first iterate of a
 *    diagonal linear system, where the full step is accepted, compared
 *    with ==. */
#include "base/lapack.h"
#include "base/small_cholesky.h"
#include "solver/lm.h"
#include "solver/small_dense.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/check_main.h"

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

/* Phi(x) = atan(x), n = 1: Newton's step x - atan(x) (1 + x^2) maps the
 * 2-cycle point x* = 1.39174520027... to -x*, where psi is the same. From
 * X0 just below x* the full step lands at -1.39173148, decreasing psi by
 * 3.1e-6 of |grad psi . d| = 2 psi: a plain decrease test accepts it, and
 * the iteration creeps along the repelling cycle; Armijo's test with sigma
 * = 1e-4 (LMMCP's constant, lm_projected.c) rejects it and backtracks. The
 * test records the accepted iterates (PLM evaluates the Jacobian at each
 * one) and checks the condition from them. */
#define ATAN_X0      1.39174
#define ARMIJO_SIGMA 1e-4
#define MONOTONE     5  /* PLM's monotone iterations (LMMCP's first five) */
#define MAX_ITERATES 64 /* recorded; the run needs under ten */

typedef struct atan_system {
    double x[MAX_ITERATES + 1]; /* the iterates where the Jacobian was asked for, then the last */
    int count;
} atan_system;

static void atan_residual(void *ctx, const double *x, double *phi)
{
    (void)ctx;
    phi[0] = atan(x[0]);
}

static double atan_error(void *ctx, const double *x)
{
    (void)ctx;
    return fabs(atan(x[0]));
}

static void atan_jacobian(void *ctx, const double *x, double *J)
{
    atan_system *s = ctx;
    if (s->count < MAX_ITERATES) s->x[s->count++] = x[0];
    J[0] = 1.0 / (1.0 + x[0] * x[0]);
}

START_TEST(plm_steps_satisfy_armijo)
{
    atan_system s = {.count = 0};
    mcd_nls sys = {1, &s, atan_residual, atan_error, atan_jacobian, NULL, 0};
    double J[1], A[2], H[1], phi[1], phi_trial[1], grad[1], step[1], x_trial[1], x_best[1];
    double rhs[2];
    mcd_lm_ws w = {J, A, H, phi, phi_trial, grad, step, x_trial, x_best, rhs, NULL, 0, NULL};
    mcd_lm_opts o = {1e-12, 0.0, 1e-16, 100};
    mcd_lm_result res;
    double x = ATAN_X0;
    ck_assert_int_eq(mcd_lm_projected(&sys, &o, &w, &x, &res), MCD_OK);
    ck_assert_msg(fabs(atan(x)) <= 1e-12, "x = %g", x);
    s.x[s.count] = x; /* the last accepted iterate */
    ck_assert_int_ge(s.count, 2);
    for (int k = 0; k < s.count && k < MONOTONE; k++) {
        double x0 = s.x[k], x1 = s.x[k + 1], psi0 = 0.5 * atan(x0) * atan(x0);
        double g = atan(x0) / (1.0 + x0 * x0); /* grad psi = J^T Phi */
        double psi1 = 0.5 * atan(x1) * atan(x1);
        ck_assert_msg(psi1 <= psi0 + ARMIJO_SIGMA * g * (x1 - x0),
                      "step %d: %.17g -> %.17g, psi %.17g -> %.17g, Armijo needs <= %.17g", k, x0,
                      x1, psi0, psi1, psi0 + ARMIJO_SIGMA * g * (x1 - x0));
    }
}
END_TEST

/* Phi(x) = a o x + b: J = diag(a). */
typedef struct diagonal_system {
    int n;
    double a[MAX_N], b[MAX_N];
} diagonal_system;

static void diagonal_residual(void *ctx, const double *x, double *phi)
{
    const diagonal_system *s = ctx;
    for (int i = 0; i < s->n; i++) phi[i] = s->a[i] * x[i] + s->b[i];
}

static double diagonal_error(void *ctx, const double *x)
{
    const diagonal_system *s = ctx;
    double e = 0;
    for (int i = 0; i < s->n; i++) e = fmax(e, fabs(s->a[i] * x[i] + s->b[i]));
    return e;
}

static void diagonal_jacobian(void *ctx, const double *x, double *J)
{
    const diagonal_system *s = ctx;
    (void)x;
    memset(J, 0, (size_t)s->n * s->n * sizeof *J);
    for (int i = 0; i < s->n; i++) J[i * s->n + i] = s->a[i];
}

/* lm_projected.c's normal_equations_step with the dense kernels. */
static void dense_step(int n, const double *J, const double *phi, double lambda, double *d)
{
    double H[MAX_N * MAX_N], g[MAX_N], Jd[MAX_N], res[MAX_N];
    mcd_dense_matvec_t(n, J, phi, g);
    mcd_small_normal_matrix(n, J, lambda, H);
    ck_assert(mcd_small_cholesky(n, H, 1e-10));
    for (int i = 0; i < n; i++) d[i] = -g[i];
    mcd_small_cholesky_solve(n, H, d);
    mcd_dense_matvec(n, J, d, NULL, Jd);
    mcd_dense_matvec_t(n, J, Jd, res);
    for (int i = 0; i < n; i++) res[i] = -g[i] - res[i] - lambda * d[i];
    mcd_small_cholesky_solve(n, H, res);
    for (int i = 0; i < n; i++) d[i] += res[i];
}

START_TEST(plm_diagonal_step_is_the_dense_step)
{
    tu_rng r = {20261126};
    static const double lambdas[] = {1e-16, 1e-3, 0.5};
    for (int c = 0; c < 300; c++) {
        diagonal_system s = {.n = 1 + c % MAX_N};
        const int n = s.n;
        double x[MAX_N], x0[MAX_N], J[MAX_N * MAX_N], phi[MAX_N], d[MAX_N];
        for (int i = 0; i < n; i++) {
            s.a[i] = (c + i) % 3 ? tu_uniform(&r, 0.2, 3) * (i % 2 ? -1 : 1) : -1.0;
            s.b[i] = tu_uniform(&r, -1, 1);
            x0[i] = x[i] = c % 2 ? tu_uniform(&r, -1, 1) : 0.0;
        }
        double J_all[MAX_N * MAX_N], A[2 * MAX_N * MAX_N], H[MAX_N * MAX_N], phi_w[MAX_N];
        double phi_trial[MAX_N], grad[MAX_N], step[MAX_N], x_trial[MAX_N], x_best[MAX_N];
        double rhs[2 * MAX_N];
        mcd_lm_ws w = {J_all,   A,      H,   phi_w, phi_trial, grad, step,
                       x_trial, x_best, rhs, NULL,  0,         NULL};
        mcd_nls sys = {n, &s, diagonal_residual, diagonal_error, diagonal_jacobian, NULL, 0};
        mcd_lm_opts o = {0.0, 0.0, lambdas[c % 3], 1}; /* one iteration */
        mcd_lm_result res;
        mcd_lm_projected(&sys, &o, &w, x, &res);
        ck_assert_int_eq(res.iterations, 1);
        diagonal_jacobian(&s, x0, J);
        diagonal_residual(&s, x0, phi);
        dense_step(n, J, phi, o.lambda0, d);
        for (int i = 0; i < n; i++)
            ck_assert_msg(x[i] == x0[i] + d[i],
                          "case %d (n %d, lambda %g), x[%d]: %.17g, dense %.17g", c, n, o.lambda0,
                          i, x[i], x0[i] + d[i]);
    }
}
END_TEST

static Suite *lm_model_suite(void)
{
    Suite *s = suite_create("lm-model");
    TCase *tc = tcase_create("rlm");
    tcase_add_test(tc, predicted_decrease_equals_model_difference);
    suite_add_tcase(s, tc);
    TCase *plm = tcase_create("plm");
    tcase_add_test(plm, plm_steps_satisfy_armijo);
    tcase_add_test(plm, plm_diagonal_step_is_the_dense_step);
    suite_add_tcase(s, plm);
    return s;
}

int main(void)
{
    return run_suite(lm_model_suite());
}

/* NCP functions (Mylapilli & Jain Sec. 2.2): FB Eq. (5), PFB Eq. (8), their
 * generalized gradient Eq. (45)-(47), the MLCP-PFB Jacobian Eq. (45)-(48)
 * with bounds, and the example of Sec. 2.2.2 (z = 1e20, f = 0.1). */
#include "common/check_main.h"
#include "solver/mlcp_pfb.h"
#include "solver/ncp_functions.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

#define FD_STEP 1e-6 /* central differences */
#define FD_TOL  1e-6 /* |analytic - FD| allowed, absolute on O(1) data */

/* The textbook formulas, for comparison away from cancellation. */
static double fb_naive(double a, double b)
{
    return sqrt(a * a + b * b) - a - b;
}

START_TEST(fb_and_pfb_values)
{
    const double tol = 1e-14; /* relative, O(1) arguments */
    tu_rng rng = {11};
    for (int t = 0; t < 1000; t++) {
        double a = tu_uniform(&rng, -3, 3), b = tu_uniform(&rng, -3, 3);
        double lam = tu_uniform(&rng, 0.05, 1.0);
        double fb = fb_naive(a, b);
        ck_assert_double_eq_tol(mcd_ncp_fb(a, b), fb, tol * (1 + fabs(fb)) * 8);
        double pfb = lam * (-fb) + (1 - lam) * fmax(a, 0) * fmax(b, 0);
        ck_assert_double_eq_tol(mcd_ncp_pfb(a, b, lam), pfb, tol * (1 + fabs(pfb)) * 8);
    }
    /* NCP property Eq. (4): zero on the complementarity set, nonzero off it. */
    ck_assert_double_eq(mcd_ncp_pfb(0.0, 2.5, 0.7), 0.0);
    ck_assert_double_eq(mcd_ncp_pfb(3.0, 0.0, 0.7), 0.0);
    ck_assert_double_eq(mcd_ncp_pfb(0.0, 0.0, 0.7), 0.0);
    ck_assert(mcd_ncp_pfb(1.0, 1.0, 0.7) > 0);
    ck_assert(mcd_ncp_pfb(-1.0, 1.0, 0.7) < 0);
    ck_assert(mcd_ncp_pfb(1.0, -1.0, 0.7) < 0);
    /* lambda = 1 is -FB exactly. */
    ck_assert_double_eq(mcd_ncp_pfb(0.3, 1.7, 1.0), -mcd_ncp_fb(0.3, 1.7));
    /* No cancellation for large positive arguments: exact -FB(1e8, 1e-8) is
     * 1e-8 - 5e-25, the naive formula returns 0. */
    ck_assert_double_eq_tol(mcd_ncp_fb(1e8, 1e-8), -1e-8, 1e-20);
}
END_TEST

START_TEST(pfb_gradient_matches_finite_differences)
{
    tu_rng rng = {12};
    for (int t = 0; t < 2000; t++) {
        double a = tu_uniform(&rng, -2, 2), b = tu_uniform(&rng, -2, 2);
        double lam = tu_uniform(&rng, 0.05, 1.0);
        if (fabs(a) < 10 * FD_STEP || fabs(b) < 10 * FD_STEP) continue; /* kinks of a_+ b_+ */
        double ga, gb;
        mcd_ncp_pfb_grad(a, b, lam, 1.0, 1.0, &ga, &gb);
        double fa =
            (mcd_ncp_pfb(a + FD_STEP, b, lam) - mcd_ncp_pfb(a - FD_STEP, b, lam)) / (2 * FD_STEP);
        double fb =
            (mcd_ncp_pfb(a, b + FD_STEP, lam) - mcd_ncp_pfb(a, b - FD_STEP, lam)) / (2 * FD_STEP);
        ck_assert_double_eq_tol(ga, fa, FD_TOL);
        ck_assert_double_eq_tol(gb, fb, FD_TOL);
    }
}
END_TEST

/* At the kink the element is the limit of gradients along (da, db), Eq. (45). */
START_TEST(pfb_gradient_at_kink_is_directional_limit)
{
    const double lam = 0.8, da = 1.0, db = -0.37, t = 1e-9;
    double ga, gb, la, lb;
    mcd_ncp_pfb_grad(0.0, 0.0, lam, da, db, &ga, &gb);
    mcd_ncp_pfb_grad(t * da, t * db, lam, 0.0, 0.0, &la, &lb);
    double rho = hypot(da, db);
    ck_assert_double_eq_tol(ga, lam * (1 - da / rho), 1e-15);
    ck_assert_double_eq_tol(gb, lam * (1 - db / rho), 1e-15);
    ck_assert_double_eq_tol(ga, la, 1e-8); /* penalty part is O(t) */
    ck_assert_double_eq_tol(gb, lb, 1e-8);
}
END_TEST

/* An MLCP with every row kind, for the Jacobian checks. */
static void mixed_mlcp(tu_rng *rng, int n, mcd_mlcp *p)
{
    mcd_mlcp_alloc(p, n, NULL);
    tu_pd_matrix(rng, n, p->M);
    for (int i = 0; i < n; i++) {
        p->q[i] = tu_uniform(rng, -1, 1);
        switch (i % 4) {
        case 0:
            p->lo[i] = 0.0;
            break; /* LCP row */
        case 1:
            p->lo[i] = -INFINITY;
            break; /* free row */
        case 2:
            p->lo[i] = -INFINITY, p->hi[i] = tu_uniform(rng, -0.5, 0.5);
            break;
        default:
            p->lo[i] = -0.5, p->hi[i] = 0.5;
            break;
        }
    }
}

static void phi_at(mcd_mlcp_pfb *s, const double *z, double *phi)
{
    mcd_mlcp_pfb_residual(s, z, phi);
}

START_TEST(mlcp_pfb_jacobian_matches_finite_differences)
{
    enum { N = 12 };
    tu_rng rng = {13};
    mcd_mlcp p;
    mixed_mlcp(&rng, N, &p);
    double w[N], y[N], z[N], zp[N], phi_p[N], phi_m[N], phi[N], J[N * N];
    for (int trial = 0; trial < 50; trial++) {
        mcd_mlcp_pfb s = {&p, tu_uniform(&rng, 0.1, 1.0), w, y};
        for (int i = 0; i < N; i++) z[i] = tu_uniform(&rng, -1, 1);
        mcd_mlcp_pfb_residual(&s, z, phi);
        mcd_mlcp_pfb_jacobian(&s, z, J);
        for (int j = 0; j < N; j++) {
            for (int i = 0; i < N; i++) zp[i] = z[i];
            zp[j] = z[j] + FD_STEP;
            phi_at(&s, zp, phi_p);
            zp[j] = z[j] - FD_STEP;
            phi_at(&s, zp, phi_m);
            for (int i = 0; i < N; i++)
                ck_assert_msg(fabs(J[i * N + j] - (phi_p[i] - phi_m[i]) / (2 * FD_STEP)) < FD_TOL,
                              "trial %d J[%d][%d] = %g, FD %g", trial, i, j, J[i * N + j],
                              (phi_p[i] - phi_m[i]) / (2 * FD_STEP));
        }
    }
    mcd_mlcp_free(&p);
}
END_TEST

/* Rows 0 and 1 of an LCP exactly at the kink z_i = w_i = 0: Eq. (45) with
 * y = (1, 1, 0), and the limit of the Jacobian along y. */
START_TEST(mlcp_pfb_jacobian_kink_rows_follow_eq45)
{
    enum { N = 3 };
    const double lam = 0.9;
    double M[N * N] = {2.0, 0.5, 0.0, -0.3, 1.5, 0.0, 0.4, 0.2, 1.0};
    double q[N] = {0.0, 0.0, -1.0}, lo[N] = {0, 0, 0}, hi[N] = {INFINITY, INFINITY, INFINITY};
    mcd_mlcp p = {N, M, q, lo, hi};
    double w[N], y[N], phi[N], J[N * N], Jt[N * N];
    double z[N] = {0.0, 0.0, 0.7}, zt[N] = {1e-9, 1e-9, 0.7};
    mcd_mlcp_pfb s = {&p, lam, w, y};
    mcd_mlcp_pfb_residual(&s, z, phi);
    ck_assert(w[0] == 0.0 && w[1] == 0.0);
    mcd_mlcp_pfb_jacobian(&s, z, J);
    for (int i = 0; i < 2; i++) {
        double gy = M[i * N] + M[i * N + 1]; /* grad f_i . y */
        double rho = hypot(1.0, gy);
        for (int j = 0; j < N; j++) {
            double want = lam * (1 - 1 / rho) * (i == j) + lam * (1 - gy / rho) * M[i * N + j];
            ck_assert_double_eq_tol(J[i * N + j], want, 1e-15);
        }
    }
    mcd_mlcp_pfb_residual(&s, zt, phi);
    mcd_mlcp_pfb_jacobian(&s, zt, Jt);
    ck_assert_double_le(tu_max_diff(2 * N, J, Jt), 1e-7);
}
END_TEST

/* Sec. 2.2.2: n = 1, f(z) = 0.1, solution z* = 0, guess z = 1e20. */
static mcd_mlcp constant_f_problem(double *M, double *q, double *lo, double *hi)
{
    M[0] = 0.0;
    q[0] = 0.1;
    lo[0] = 0.0;
    hi[0] = INFINITY;
    mcd_mlcp p = {1, M, q, lo, hi};
    return p;
}

START_TEST(fb_is_flat_at_the_wild_guess_and_pfb_is_not)
{
    double M, q, lo, hi, w, y, phi, J;
    mcd_mlcp p = constant_f_problem(&M, &q, &lo, &hi);
    double z = 1e20;
    /* Plain FB (lambda = 1): psi = 0.005, but the gradient J^T phi is
     * ~5e-44 (exactly 0 with the naive formula: z / |(z, f)| rounds to 1):
     * a gradient-based method sees a stationary point. */
    mcd_mlcp_pfb fb = {&p, 1.0, &w, &y};
    mcd_mlcp_pfb_residual(&fb, &z, &phi);
    mcd_mlcp_pfb_jacobian(&fb, &z, &J);
    ck_assert_double_eq_tol(0.5 * phi * phi, 0.005, 1e-15);
    ck_assert_double_le(fabs(J * phi), 1e-40);
    ck_assert_double_eq(1e20 / sqrt(1e40 + 0.01) - 1.0, 0.0);
    /* PFB (lambda = 0.95): the penalty 0.05 z f makes psi ~1.25e35 and the
     * slope (1 - lambda) f = 5e-3. */
    mcd_mlcp_pfb pfb = {&p, 0.95, &w, &y};
    mcd_mlcp_pfb_residual(&pfb, &z, &phi);
    mcd_mlcp_pfb_jacobian(&pfb, &z, &J);
    ck_assert_double_eq_tol(0.5 * phi * phi / 1.25e35, 1.0, 1e-6);
    ck_assert_double_eq_tol(J, 0.005, 1e-15);
}
END_TEST

START_TEST(solvers_fail_from_the_wild_guess_with_fb_and_succeed_with_pfb)
{
    const double tol = 1e-10; /* error measure */
    double M, q, lo, hi;
    mcd_mlcp p = constant_f_problem(&M, &q, &lo, &hi);
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(1, &ws, NULL), MCD_OK);
    mcd_solver_kind kinds[2] = {MCD_SOLVER_MLCP_PFB_RLM, MCD_SOLVER_MLCP_PFB_PLM};
    for (int k = 0; k < 2; k++) {
        mcd_solver_opts o = mcd_solver_default_opts(kinds[k]);
        o.warm_start = 1;
        o.tol = tol;
        o.pfb_lambda = 1.0;             /* plain FB */
        o.fallback = MCD_FALLBACK_NONE; /* the method alone */
        double z = 1e20;
        mcd_solver_stats st;
        ck_assert_int_eq(mcd_solve_mlcp(ws, kinds[k], &p, &o, &z, &st, NULL),
                         MCD_ERR_NOT_CONVERGED);
        ck_assert_double_ge(z, 1e19); /* stuck near the guess */
        o.pfb_lambda = 0.95;
        z = 1e20;
        ck_assert_int_eq(mcd_solve_mlcp(ws, kinds[k], &p, &o, &z, &st, NULL), MCD_OK);
        ck_assert_double_le(fabs(z), 1e-10);
        ck_assert_double_le(st.error, tol);
    }
    mcd_solver_ws_free(ws);
}
END_TEST

static Suite *ncp_suite(void)
{
    Suite *s = suite_create("solver-ncp");
    TCase *tc = tcase_create("ncp");
    tcase_add_test(tc, fb_and_pfb_values);
    tcase_add_test(tc, pfb_gradient_matches_finite_differences);
    tcase_add_test(tc, pfb_gradient_at_kink_is_directional_limit);
    tcase_add_test(tc, mlcp_pfb_jacobian_matches_finite_differences);
    tcase_add_test(tc, mlcp_pfb_jacobian_kink_rows_follow_eq45);
    tcase_add_test(tc, fb_is_flat_at_the_wild_guess_and_pfb_is_not);
    tcase_add_test(tc, solvers_fail_from_the_wild_guess_with_fb_and_succeed_with_pfb);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(ncp_suite());
}

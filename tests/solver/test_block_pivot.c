/* Block principal pivoting (Judice-Pires, include/mcdyn/lcp_block_pivot.h):
 * against Lemke on random P-matrix LCPs, Murty's fall-back alone, its
 * failure results (singular, cycling, iteration limit) and bad input. */
#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc_counter.h"
#include "mcdyn/lcp_block_pivot.h"
#include "mcdyn/solver.h"
#include "solver_testutil.h"
#include "common/check_main.h"

#define NMAX 40

/* M = D1 P D2 with P positive definite (tu_pd_matrix) and D1, D2 positive
 * diagonals spread over four decades: a P-matrix that is not positive
 * definite in general (unique solution for every q). */
static void p_matrix(tu_rng *r, int n, double *M)
{
    double d1[NMAX], d2[NMAX];
    tu_pd_matrix(r, n, M);
    for (int i = 0; i < n; i++) d1[i] = pow(10.0, tu_uniform(r, -2, 2));
    for (int i = 0; i < n; i++) d2[i] = pow(10.0, tu_uniform(r, -2, 2));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) M[i * n + j] *= d1[i] * d2[j];
}

/* The most negative z_i or (M z + q)_i, recomputed (0 if none). */
static double infeasibility(int n, const double *M, const double *q, const double *z)
{
    double e = 0.0;
    for (int i = 0; i < n; i++) {
        double w = q[i];
        for (int j = 0; j < n; j++) w += M[i * n + j] * z[j];
        e = fmax(e, fmax(-z[i], -w));
    }
    return e;
}

static void lemke(mcd_solver_ws *ws, int n, double *M, double *q, double *z)
{
    double lo[NMAX], hi[NMAX];
    for (int i = 0; i < n; i++) lo[i] = 0.0, hi[i] = INFINITY;
    mcd_mlcp p = {n, M, q, lo, hi};
    mcd_error err = {0};
    ck_assert_msg(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, &p, NULL, z, NULL, &err) == MCD_OK,
                  "%s", err.msg);
}

/* 300 random P-matrix LCPs of sizes 1..40, q in [-1, 1]: block pivoting
 * solves each (residual <= 1e-12 relative) and agrees with Lemke within
 * 1e-8 relative to max(1, |z|), z and w >= -1e-12 (1 + |z|); the same with
 * Murty's rule alone. */
START_TEST(agrees_with_lemke_on_p_matrices)
{
    static double M[NMAX * NMAX], q[NMAX], z[NMAX], w[NMAX], zl[NMAX];
    tu_rng rng = {12345};
    mcd_bpp_ws *ws = NULL;
    mcd_solver_ws *sw = NULL;
    ck_assert_int_eq(mcd_bpp_ws_create(NMAX, &ws, NULL), MCD_OK);
    ck_assert_int_eq(mcd_solver_ws_create(NMAX, &sw, NULL), MCD_OK);
    int block = 0, single = 0;
    for (int t = 0; t < 300; t++) {
        const int n = 1 + t % NMAX;
        p_matrix(&rng, n, M);
        for (int i = 0; i < n; i++) q[i] = tu_uniform(&rng, -1, 1);
        for (int murty = 0; murty < 2; murty++) {
            mcd_bpp_opts o = mcd_bpp_default_opts();
            if (murty) o.max_block_tries = 0;
            mcd_bpp_stats st;
            mcd_error err = {0};
            ck_assert_msg(mcd_bpp_solve(ws, n, M, q, &o, z, w, &st, &err) == MCD_OK, "n %d: %s", n,
                          err.msg);
            ck_assert_int_eq(st.result, MCD_BPP_SOLVED);
            ck_assert_msg(st.residual <= 1e-12, "n %d residual %g", n, st.residual);
            ck_assert_int_eq(st.iterations, st.block_pivots + st.single_pivots);
            block += st.block_pivots, single += st.single_pivots;
            lemke(sw, n, M, q, zl);
            double scale = 1.0;
            for (int i = 0; i < n; i++) scale = fmax(scale, fabs(zl[i]));
            ck_assert_msg(tu_max_diff(n, z, zl) <= 1e-8 * scale, "n %d: |z - z_lemke| %g", n,
                          tu_max_diff(n, z, zl));
            ck_assert(infeasibility(n, M, q, z) <= 1e-12 * (1.0 + scale));
        }
    }
    ck_assert(block > 0 && single > 0); /* both kinds of exchange were exercised */
    mcd_solver_ws_free(sw);
    mcd_bpp_ws_free(ws);
}
END_TEST

/* The structure of the non-singular friction LCP with rho = 0: the columns
 * of w_up and w_lo are opposite, M is singular and block pivoting refuses
 * it; with rho > 0 it solves it. */
START_TEST(singular_matrix_is_reported)
{
    /* z = (p_n, w_up, w_lo): [[N, a, -a], [mu - b, g, -g + rho], [mu + b, -g + rho, g]] */
    const double N = 2.0, a = 0.3, b = 0.3, g = 1.5, mu = 0.5;
    double q[3] = {-1.0, -0.8, 0.8}, z[3], w[3];
    mcd_bpp_ws *ws = NULL;
    ck_assert_int_eq(mcd_bpp_ws_create(3, &ws, NULL), MCD_OK);
    for (int k = 0; k < 2; k++) {
        const double rho = k ? 0.1 : 0.0;
        double M[9] = {N, a, -a, mu - b, g, -g + rho, mu + b, -g + rho, g};
        mcd_bpp_stats st;
        mcd_error err = {0};
        mcd_status s = mcd_bpp_solve(ws, 3, M, q, NULL, z, w, &st, &err);
        if (k == 0) {
            ck_assert_int_eq(s, MCD_ERR_SINGULAR);
            ck_assert_int_eq(st.result, MCD_BPP_SINGULAR);
            ck_assert(st.rcond < 1e-15);
            ck_assert_ptr_nonnull(strstr(err.msg, "singular"));
        } else {
            ck_assert_msg(s == MCD_OK, "%s", err.msg);
            ck_assert(st.residual <= 1e-14);
            ck_assert(!(z[1] > 0 && z[2] > 0)); /* w_up, w_lo not both positive */
        }
    }
    mcd_bpp_ws_free(ws);
}
END_TEST

/* w = -z + q with q = (-1, -1) has no solution; every principal block is
 * nonsingular. Block exchanges alternate between {} and {1, 2}; after the
 * block tries Murty's rule alternates between {} and {2}: cycling. With a
 * budget of 3 exchanges: the iteration limit. */
START_TEST(cycling_and_iteration_limit)
{
    double M[4] = {-1, 0, 0, -1}, q[2] = {-1, -1}, z[2], w[2];
    mcd_bpp_ws *ws = NULL;
    ck_assert_int_eq(mcd_bpp_ws_create(2, &ws, NULL), MCD_OK);
    mcd_bpp_stats st;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_bpp_solve(ws, 2, M, q, NULL, z, w, &st, &err), MCD_ERR_NOT_CONVERGED);
    ck_assert_int_eq(st.result, MCD_BPP_CYCLING);
    ck_assert_int_eq(st.block_pivots, 1 + mcd_bpp_default_opts().max_block_tries);
    ck_assert_int_eq(st.single_pivots, 2);
    ck_assert_ptr_nonnull(strstr(err.msg, "cycling"));
    mcd_bpp_opts o = mcd_bpp_default_opts();
    o.max_iter = 3;
    ck_assert_int_eq(mcd_bpp_solve(ws, 2, M, q, &o, z, w, &st, &err), MCD_ERR_NOT_CONVERGED);
    ck_assert_int_eq(st.result, MCD_BPP_MAX_ITER);
    ck_assert_int_eq(st.iterations, 3);
    ck_assert(z[0] >= 0 && z[1] >= 0);
    ck_assert_str_eq(mcd_bpp_result_str(MCD_BPP_MAX_ITER), "iteration limit");
    mcd_bpp_ws_free(ws);
}
END_TEST

/* NaN / Inf, sizes and NULL: a status and a message, z untouched. */
START_TEST(bad_input)
{
    double M[4] = {2, 0, 0, 2}, q[2] = {-1, 1}, z[2] = {7, 7}, w[2];
    mcd_bpp_ws *ws = NULL;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_bpp_ws_create(0, &ws, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_bpp_ws_create(2, &ws, NULL), MCD_OK);
    M[1] = NAN;
    ck_assert_int_eq(mcd_bpp_solve(ws, 2, M, q, NULL, z, w, NULL, &err), MCD_ERR_NONFINITE);
    ck_assert_ptr_nonnull(strstr(err.msg, "M[0][1]"));
    M[1] = 0, q[1] = INFINITY;
    ck_assert_int_eq(mcd_bpp_solve(ws, 2, M, q, NULL, z, w, NULL, &err), MCD_ERR_NONFINITE);
    ck_assert_ptr_nonnull(strstr(err.msg, "q[1]"));
    q[1] = 1;
    ck_assert_int_eq(mcd_bpp_solve(ws, 3, M, q, NULL, z, w, NULL, &err), MCD_ERR_CAPACITY);
    ck_assert_int_eq(mcd_bpp_solve(ws, -1, M, q, NULL, z, w, NULL, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_bpp_solve(ws, 2, NULL, q, NULL, z, w, NULL, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_bpp_solve(ws, 2, M, q, NULL, z, z, NULL, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_bpp_solve(NULL, 2, M, q, NULL, z, w, NULL, &err), MCD_ERR_ARG);
    mcd_bpp_opts o = mcd_bpp_default_opts();
    o.tol = NAN;
    ck_assert_int_eq(mcd_bpp_solve(ws, 2, M, q, &o, z, w, NULL, &err), MCD_ERR_ARG);
    ck_assert(z[0] == 7 && z[1] == 7);
    double rc;
    ck_assert_int_eq(mcd_bpp_rcond(ws, 3, M, &rc, &err), MCD_ERR_CAPACITY);
    ck_assert_int_eq(mcd_bpp_rcond(ws, 2, M, &rc, &err), MCD_OK);
    ck_assert(fabs(rc - 1.0) < 1e-15);
    ck_assert_int_eq(mcd_bpp_solve(ws, 2, M, q, NULL, z, w, NULL, &err), MCD_OK);
    ck_assert(fabs(z[0] - 0.5) < 1e-15 && z[1] == 0 && fabs(w[1] - 1) < 1e-15);
    ck_assert_int_eq(mcd_bpp_solve(ws, 0, M, q, NULL, z, w, NULL, &err), MCD_OK);
    mcd_bpp_ws_free(ws);
}
END_TEST

#if ALLOC_COUNTER_AVAILABLE
/* A solve allocates nothing (block and single exchanges, and a failure). */
START_TEST(no_allocation_in_a_solve)
{
    static double M[NMAX * NMAX], q[NMAX], z[NMAX], w[NMAX];
    tu_rng rng = {777};
    mcd_bpp_ws *ws = NULL;
    ck_assert_int_eq(mcd_bpp_ws_create(NMAX, &ws, NULL), MCD_OK);
    p_matrix(&rng, NMAX, M);
    for (int i = 0; i < NMAX; i++) q[i] = tu_uniform(&rng, -1, 1);
    ck_assert_int_eq(mcd_bpp_solve(ws, NMAX, M, q, NULL, z, w, NULL, NULL), MCD_OK);
    alloc_counter_start();
    mcd_status s = mcd_bpp_solve(ws, NMAX, M, q, NULL, z, w, NULL, NULL);
    double C[4] = {-1, 0, 0, -1}, c[2] = {-1, -1};
    mcd_status t = mcd_bpp_solve(ws, 2, C, c, NULL, z, w, NULL, NULL);
    const long allocations = alloc_counter_stop();
    ck_assert_int_eq(s, MCD_OK);
    ck_assert_int_eq(t, MCD_ERR_NOT_CONVERGED);
    ck_assert_int_eq(allocations, 0);
    mcd_bpp_ws_free(ws);
}
END_TEST
#endif

static Suite *suite(void)
{
    Suite *s = suite_create("block_pivot");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, agrees_with_lemke_on_p_matrices);
    tcase_add_test(tc, singular_matrix_is_reported);
    tcase_add_test(tc, cycling_and_iteration_limit);
    tcase_add_test(tc, bad_input);
#if ALLOC_COUNTER_AVAILABLE
    tcase_add_test(tc, no_allocation_in_a_solve);
#endif
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(suite());
}

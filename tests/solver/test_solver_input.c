/* Bad input is reported as a status, never a crash: NaN/Inf in the
 * problem, a problem larger than the workspace, negative friction, a
 * solver of the wrong family, invalid options, box rows and a singular
 * equality block for Lemke. Also the names and the error measures (fc3d
 * against values computed by Siconos 4.4's fc3d_compute_error). */
#include "common/check_main.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static mcd_solver_ws *ws;

static void setup(void)
{
    ck_assert_int_eq(mcd_solver_ws_create(6, &ws, NULL), MCD_OK);
}
static void teardown(void)
{
    mcd_solver_ws_free(ws);
}

/* A 3-row LCP and a 2-contact problem, both solvable. */
static double M3[9] = {2, 0.5, 0, 0.5, 2, 0.5, 0, 0.5, 2}, q3[3] = {-1, 1, -0.5};
static double lo3[3] = {0, 0, 0}, hi3[3] = {INFINITY, INFINITY, INFINITY};

static mcd_mlcp lcp3(void)
{
    mcd_mlcp p = {3, M3, q3, lo3, hi3};
    return p;
}

static const mcd_solver_kind all_kinds[MCD_SOLVER_KIND_COUNT] = {
    MCD_SOLVER_MLCP_PFB_RLM, MCD_SOLVER_MLCP_PFB_PLM, MCD_SOLVER_MLCP_LEMKE,   MCD_SOLVER_MNCP_RLM,
    MCD_SOLVER_MNCP_PLM,     MCD_SOLVER_MNCP_NSN,     MCD_SOLVER_MNCP_FIXPOINT};

static mcd_status solve_mlcp_with(mcd_solver_kind k, const mcd_mlcp *p, double *z, mcd_error *err)
{
    mcd_solver_stats st;
    mcd_status s = mcd_solve_mlcp(ws, k, p, NULL, z, &st, err);
    ck_assert_int_eq(st.status, s);
    return s;
}

START_TEST(nan_or_inf_in_M_or_q)
{
    const double bad[2] = {NAN, INFINITY};
    for (int k = 0; k < 3; k++) {
        for (int b = 0; b < 2; b++) {
            mcd_mlcp p = lcp3();
            double M[9], q[3], z[3] = {7, 7, 7};
            memcpy(M, M3, sizeof M);
            memcpy(q, q3, sizeof q);
            p.M = M;
            p.q = q;
            M[4] = bad[b];
            mcd_error err = {0};
            ck_assert_int_eq(solve_mlcp_with(all_kinds[k], &p, z, &err), MCD_ERR_NONFINITE);
            ck_assert_ptr_nonnull(strstr(err.msg, "(1, 1)"));
            ck_assert_double_eq(z[0], 7); /* output untouched */
            M[4] = 2;
            q[2] = bad[b];
            ck_assert_int_eq(solve_mlcp_with(all_kinds[k], &p, z, &err), MCD_ERR_NONFINITE);
            ck_assert_ptr_nonnull(strstr(err.msg, "q[2]"));
        }
    }
}
END_TEST

START_TEST(nan_bounds_and_inverted_bounds)
{
    mcd_mlcp p = lcp3();
    double lo[3] = {0, NAN, 0}, z[3];
    p.lo = lo;
    ck_assert_int_eq(solve_mlcp_with(MCD_SOLVER_MLCP_PFB_RLM, &p, z, NULL), MCD_ERR_NONFINITE);
    double lo2[3] = {0, 2, 0}, hi2[3] = {1, 1, INFINITY};
    p.lo = lo2;
    p.hi = hi2;
    ck_assert_int_eq(solve_mlcp_with(MCD_SOLVER_MLCP_PFB_RLM, &p, z, NULL), MCD_ERR_ARG);
}
END_TEST

/* A non-finite start is bad input for every MLCP solver that reads it,
 * Lemke's warm start included. */
START_TEST(nan_in_warm_start)
{
    mcd_mlcp p = lcp3();
    const mcd_solver_kind kinds[2] = {MCD_SOLVER_MLCP_PFB_RLM, MCD_SOLVER_MLCP_LEMKE};
    for (int i = 0; i < 2; i++) {
        mcd_solver_opts o = mcd_solver_default_opts(kinds[i]);
        o.warm_start = 1;
        double z[3] = {0, NAN, 0};
        ck_assert_int_eq(mcd_solve_mlcp(ws, kinds[i], &p, &o, z, NULL, NULL), MCD_ERR_NONFINITE);
    }
}
END_TEST

START_TEST(problem_larger_than_workspace)
{
    mcd_mlcp p;
    ck_assert_int_eq(mcd_mlcp_alloc(&p, 7, NULL), MCD_OK);
    double z[7];
    mcd_error err = {0};
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(solve_mlcp_with(all_kinds[k], &p, z, &err), MCD_ERR_CAPACITY);
    mcd_mlcp_free(&p);
    mcd_fc3d f;
    ck_assert_int_eq(mcd_fc3d_alloc(&f, 2, 1, NULL), MCD_OK); /* n = 7 */
    double r[7], u[7];
    ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_RLM, &f, NULL, r, u, NULL, &err),
                     MCD_ERR_CAPACITY);
    ck_assert_int_eq(mcd_solver_ws_capacity(ws), 6);
    mcd_fc3d_free(&f);
}
END_TEST

START_TEST(negative_or_nan_friction)
{
    mcd_fc3d f;
    ck_assert_int_eq(mcd_fc3d_alloc(&f, 2, 0, NULL), MCD_OK);
    for (int i = 0; i < 6; i++) f.W[i * 6 + i] = 1;
    double r[6], u[6];
    mcd_error err = {0};
    f.mu[1] = -0.1;
    ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_PLM, &f, NULL, r, u, NULL, &err),
                     MCD_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(err.msg, "mu[1]"));
    f.mu[1] = NAN;
    ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_PLM, &f, NULL, r, u, NULL, &err),
                     MCD_ERR_NONFINITE);
    f.mu[1] = 0.3;
    f.W[7] = INFINITY;
    ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_RLM, &f, NULL, r, u, NULL, &err),
                     MCD_ERR_NONFINITE);
    mcd_fc3d_free(&f);
}
END_TEST

START_TEST(solver_of_the_wrong_family)
{
    mcd_fc3d f;
    ck_assert_int_eq(mcd_fc3d_alloc(&f, 1, 0, NULL), MCD_OK);
    double r[3], u[3];
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(mcd_solve_fc3d(ws, all_kinds[k], &f, NULL, r, u, NULL, NULL),
                         MCD_ERR_UNSUPPORTED);
    mcd_mlcp p = lcp3();
    for (int k = 3; k < 5; k++)
        ck_assert_int_eq(solve_mlcp_with(all_kinds[k], &p, r, NULL), MCD_ERR_UNSUPPORTED);
    ck_assert_int_eq(solve_mlcp_with((mcd_solver_kind)42, &p, r, NULL), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_RLM, &f, NULL, r, r, NULL, NULL),
                     MCD_ERR_ARG);
    mcd_fc3d_free(&f);
}
END_TEST

START_TEST(invalid_arguments_and_options)
{
    mcd_mlcp p = lcp3();
    double z[3];
    ck_assert_int_eq(mcd_solve_mlcp(NULL, MCD_SOLVER_MLCP_LEMKE, &p, NULL, z, NULL, NULL),
                     MCD_ERR_ARG);
    ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, NULL, NULL, z, NULL, NULL),
                     MCD_ERR_ARG);
    ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, &p, NULL, NULL, NULL, NULL),
                     MCD_ERR_ARG);
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MLCP_PFB_RLM);
    o.pfb_lambda = 0;
    ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_PFB_RLM, &p, &o, z, NULL, NULL),
                     MCD_ERR_ARG);
    o.pfb_lambda = 1.5;
    ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_PFB_RLM, &p, &o, z, NULL, NULL),
                     MCD_ERR_ARG);
    o = mcd_solver_default_opts(MCD_SOLVER_MLCP_PFB_PLM);
    o.tol = NAN;
    ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_PFB_PLM, &p, &o, z, NULL, NULL),
                     MCD_ERR_ARG);
    o = mcd_solver_default_opts(MCD_SOLVER_MLCP_PFB_PLM);
    o.lm_lambda0 = -1;
    ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_PFB_PLM, &p, &o, z, NULL, NULL),
                     MCD_ERR_ARG);
    o = mcd_solver_default_opts(MCD_SOLVER_MLCP_PFB_PLM);
    o.fallback = (mcd_solver_fallback)7;
    mcd_error fe = {0};
    ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_PFB_PLM, &p, &o, z, NULL, &fe),
                     MCD_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(fe.msg, "fallback"));
    mcd_solver_ws *w2 = (mcd_solver_ws *)1;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_solver_ws_create(0, &w2, &err), MCD_ERR_ARG);
    ck_assert(err.msg[0] != '\0');
}
END_TEST

START_TEST(lemke_rejects_box_rows)
{
    mcd_mlcp p = lcp3();
    double hi[3] = {INFINITY, 5.0, INFINITY}, z[3];
    p.hi = hi;
    mcd_error err = {0};
    ck_assert_int_eq(solve_mlcp_with(MCD_SOLVER_MLCP_LEMKE, &p, z, &err), MCD_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err.msg, "row 1"));
    ck_assert_int_eq(solve_mlcp_with(MCD_SOLVER_MLCP_PFB_RLM, &p, z, &err), MCD_OK);
}
END_TEST

/* Row 0 free with M_00 = 0: a saddle point the PFB solvers handle but whose
 * equality block Lemke cannot eliminate. Lemke alone reports it singular,
 * with z = mid(lo, 0, hi) = (0, 0) and that point's error (|(1, 1)| /
 * (1 + |q|)), not 0; its fallback chain (proximal PFB-PLM) solves it. */
START_TEST(lemke_singular_equality_block)
{
    double M[4] = {0, 1, -1, 2}, q[2] = {-1, -1}, lo[2] = {-INFINITY, 0}; /* z = (1, 1) */
    double hi[2] = {INFINITY, INFINITY}, z[2] = {5, 5}, w[2];
    mcd_mlcp p = {2, M, q, lo, hi};
    mcd_error err = {0};
    mcd_solver_opts alone = mcd_solver_default_opts(MCD_SOLVER_MLCP_LEMKE);
    alone.fallback = MCD_FALLBACK_NONE;
    mcd_solver_stats st;
    ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, &p, &alone, z, &st, &err),
                     MCD_ERR_SINGULAR);
    ck_assert_ptr_nonnull(strstr(err.msg, "singular"));
    ck_assert(z[0] == 0 && z[1] == 0);
    ck_assert_double_eq_tol(st.error, sqrt(2.0) / (1 + sqrt(2.0)), 1e-15);
    ck_assert_double_eq_tol(st.error, mcd_mlcp_error(&p, z, w), 1e-15);
    ck_assert_int_eq(solve_mlcp_with(MCD_SOLVER_MLCP_LEMKE, &p, z, &err), MCD_OK);
    ck_assert_double_le(mcd_mlcp_error(&p, z, w), 1e-10);
    ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_PFB_PLM, &p, NULL, z, &st, NULL), MCD_OK);
    ck_assert_double_le(st.error, 1e-10);
    ck_assert_double_le(fabs(z[0] - 1) + fabs(z[1] - 1), 1e-8);
}
END_TEST

START_TEST(names_round_trip)
{
    for (int k = 0; k < MCD_SOLVER_KIND_COUNT; k++) {
        mcd_solver_kind back;
        ck_assert_int_eq(mcd_solver_from_name(mcd_solver_name(all_kinds[k]), &back, NULL), MCD_OK);
        ck_assert_int_eq(back, all_kinds[k]);
        ck_assert_int_eq(mcd_solver_is_mlcp(all_kinds[k]), k < 3);
    }
    ck_assert_str_eq(mcd_solver_name(MCD_SOLVER_MNCP_PLM), "mncp-plm");
    ck_assert_ptr_null(mcd_solver_name(MCD_SOLVER_KIND_COUNT));
    mcd_solver_kind k;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_solver_from_name("pgs", &k, &err), MCD_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(err.msg, "mlcp-pfb-rlm"));
}
END_TEST

/* Reference values from Siconos 4.4.0 (libsiconos-numerics7), computed by
 * fc3d_compute_error(problem, r, w, 1e-8, NULL, norm, &error) in a separate
 * program: on the first problem norm = 0 and norm = 2.5 both give
 * 0.12561852851297348 (the divisor is max(|r|, |w|, norm) = |w|), r = 0
 * gives 0.41256498732707692 (divisor |w| = |q|). */
START_TEST(fc3d_error_matches_siconos)
{
    mcd_fc3d f;
    ck_assert_int_eq(mcd_fc3d_alloc(&f, 2, 0, NULL), MCD_OK);
    for (int i = 0; i < 6; i++) f.W[i * 6 + i] = 2 + i;
    f.W[1] = f.W[6] = 0.5;
    const double q[6] = {-1, 0.3, 0.2, 0.5, -0.1, 2};
    memcpy(f.q, q, sizeof q);
    f.mu[0] = 0.3;
    f.mu[1] = 0.7;
    double r[6] = {0.4, 0.1, -0.05, 0.2, 0.3, 0.1}, u[6], zero[6] = {0};
    for (int i = 0; i < 6; i++) {
        u[i] = f.q[i];
        for (int j = 0; j < 6; j++) u[i] += f.W[i * 6 + j] * r[j];
    }
    const double tol = 1e-15; /* relative: a few roundings */
    ck_assert_double_eq_tol(mcd_fc3d_error(&f, r, u), 0.12561852851297348, tol);
    ck_assert_double_eq_tol(mcd_fc3d_error(&f, r, NULL), 0.12561852851297348, tol);
    ck_assert_double_eq_tol(mcd_fc3d_error(&f, zero, NULL), 0.41256498732707692, tol);
    /* |q| the largest of the three norms: Siconos with norm = |q| (what its
     * solvers pass) gives 0.076013012416204714. */
    memset(f.W, 0, 36 * sizeof *f.W);
    for (int i = 0; i < 6; i++) f.W[i * 6 + i] = 2;
    const double q2[6] = {-2, 0.1, 0, -0.3, 0.05, -0.02}, r2[6] = {1, 0, 0, 0.1, 0.01, -0.02};
    memcpy(f.q, q2, sizeof q2);
    f.mu[0] = 0.5;
    f.mu[1] = 0.2;
    ck_assert_double_eq_tol(mcd_fc3d_error(&f, r2, NULL), 0.076013012416204714, tol);
    mcd_fc3d_free(&f);
}
END_TEST

START_TEST(mlcp_error_is_the_natural_map)
{
    /* w = M z + q = (1.5, -0.5, 0.0); rows: z0 = 0 with w0 > 0 (ok), z1 = 1 > 0
     * with w1 = -0.5 (error -0.5), z2 free with w2 = 0 (ok). */
    double M[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, q[3] = {1.5, -1.5, -2}, z[3] = {0, 1, 2};
    double lo[3] = {0, 0, -INFINITY}, hi[3] = {INFINITY, INFINITY, INFINITY}, w[3];
    mcd_mlcp p = {3, M, q, lo, hi};
    double qn = sqrt(1.5 * 1.5 + 1.5 * 1.5 + 4);
    ck_assert_double_eq_tol(mcd_mlcp_error(&p, z, w), 0.5 / (1 + qn), 1e-16);
    ck_assert_double_eq(w[1], -0.5);
    /* no cancellation at a huge z: z = 1e20, w = 0.1 is 0.1 away */
    double M1 = 0, q1 = 0.1, lo1 = 0, hi1 = INFINITY, z1 = 1e20, w1;
    mcd_mlcp p1 = {1, &M1, &q1, &lo1, &hi1};
    ck_assert_double_eq_tol(mcd_mlcp_error(&p1, &z1, &w1), 0.1 / 1.1, 1e-16);
}
END_TEST

START_TEST(empty_problems_are_solved)
{
    mcd_mlcp p = {0, NULL, NULL, NULL, NULL};
    double z[1];
    mcd_solver_stats st;
    ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, &p, NULL, z, &st, NULL), MCD_OK);
    ck_assert_int_eq(st.iterations, 0);
}
END_TEST

static Suite *input_suite(void)
{
    Suite *s = suite_create("solver-input");
    TCase *tc = tcase_create("input");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, nan_or_inf_in_M_or_q);
    tcase_add_test(tc, nan_bounds_and_inverted_bounds);
    tcase_add_test(tc, nan_in_warm_start);
    tcase_add_test(tc, problem_larger_than_workspace);
    tcase_add_test(tc, negative_or_nan_friction);
    tcase_add_test(tc, solver_of_the_wrong_family);
    tcase_add_test(tc, invalid_arguments_and_options);
    tcase_add_test(tc, lemke_rejects_box_rows);
    tcase_add_test(tc, lemke_singular_equality_block);
    tcase_add_test(tc, names_round_trip);
    tcase_add_test(tc, fc3d_error_matches_siconos);
    tcase_add_test(tc, mlcp_error_is_the_natural_map);
    tcase_add_test(tc, empty_problems_are_solved);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(input_suite());
}

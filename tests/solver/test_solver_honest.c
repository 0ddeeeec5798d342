/* Honest outputs: a solve reports MCD_OK only when the error measure of
 * the point it returns is within tol, and stats.error is that point's
 * error, for every solver of solver.h (with and without its fallback
 * chain, converged or stopped early). The error is
 * recomputed here from the returned z / r with the error functions
 * (mcd_mlcp_error, mcd_fc3d_error; the latter checked against Siconos in
 * solver-input). */
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/check_main.h"

#define TOL 1e-10

/* stats.error is computed by the same function from the same numbers: it
 * may differ from ours only by the rounding of W r + q evaluated twice. */
static void assert_honest(mcd_status s, const mcd_solver_stats *st, double e, double tol,
                          const char *what)
{
    ck_assert_msg(st->status == s, "%s: stats.status %d, returned %d", what, st->status, s);
    ck_assert_msg(fabs(st->error - e) <= 1e-12 * e + 1e-300,
                  "%s: stats.error %.17g, recomputed %.17g", what, st->error, e);
    if (s == MCD_OK) ck_assert_msg(e <= tol, "%s: MCD_OK with error %.3g > tol %.3g", what, e, tol);
    if (s == MCD_ERR_NOT_CONVERGED)
        ck_assert_msg(!(e <= tol), "%s: not converged with error %.3g <= tol", what, e);
}

static const mcd_solver_kind mncp_kinds[3] = {MCD_SOLVER_MNCP_RLM, MCD_SOLVER_MNCP_PLM,
                                              MCD_SOLVER_MNCP_NSN};
static const mcd_solver_kind mlcp_kinds[3] = {MCD_SOLVER_MLCP_PFB_RLM, MCD_SOLVER_MLCP_PFB_PLM,
                                              MCD_SOLVER_MLCP_LEMKE};

/* The one-contact problem of tests/solver_data/data/fc2d_one_contact.dat
 * (W = [2 .5; .5 1], q = (-1, .3), mu = .4, embedded in 3D) with all data
 * multiplied by 1e-15: psi = |Phi|^2 / 2 is below the default psi_tol =
 * 1e-30 at the start point r = 0, whose relative error is 1 (u = q). On
 * main this returned MCD_OK after one iteration with error 9e-2. */
START_TEST(tiny_data_psi_test_is_not_success)
{
    const double s = 1e-15;
    double W[9] = {2 * s, 0.5 * s, 0, 0.5 * s, 1 * s, 0, 0, 0, 1 * s}, q[3] = {-1 * s, 0.3 * s, 0};
    double mu[1] = {0.4}, r[3], u[3];
    mcd_fc3d p = {1, 0, W, q, mu};
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(3, &ws, NULL), MCD_OK);
    for (int k = 0; k < 3; k++) {
        for (int fb = 0; fb < 2; fb++) {
            mcd_solver_opts o = mcd_solver_default_opts(mncp_kinds[k]);
            o.fallback = fb ? MCD_FALLBACK_NONE : MCD_FALLBACK_CHAIN;
            mcd_solver_stats st;
            mcd_status status = mcd_solve_fc3d(ws, mncp_kinds[k], &p, &o, r, u, &st, NULL);
            assert_honest(status, &st, mcd_fc3d_error(&p, r, NULL), o.tol,
                          mcd_solver_name(mncp_kinds[k]));
        }
    }
    mcd_solver_ws_free(ws);
}
END_TEST

/* Random problems with known solutions, each solver stopped after 1, 2,
 * 5 iterations and at its default limit, with and without its chain. */
START_TEST(fc3d_stats_error_is_that_of_r)
{
    enum { NC = 5, NB = 1, N = NB + 3 * NC };
    const int regime[NC] = {TU_STICK, TU_SLIP, TU_SEPARATE, TU_SLIP, TU_STICK};
    const int limits[4] = {1, 2, 5, 0};
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(N, &ws, NULL), MCD_OK);
    for (int trial = 0; trial < 5; trial++) {
        tu_rng rng = {100 + (uint64_t)trial};
        mcd_fc3d p;
        double rs[N], us[N], r[N], u[N];
        tu_fc3d_with_solution(&rng, NC, NB, regime, &p, rs, us);
        for (int k = 0; k < 3; k++)
            for (int l = 0; l < 4; l++)
                for (int fb = 0; fb < 2; fb++) {
                    mcd_solver_opts o = mcd_solver_default_opts(mncp_kinds[k]);
                    o.max_iter = limits[l];
                    o.fallback = fb ? MCD_FALLBACK_NONE : MCD_FALLBACK_CHAIN;
                    mcd_solver_stats st;
                    mcd_status s = mcd_solve_fc3d(ws, mncp_kinds[k], &p, &o, r, u, &st, NULL);
                    assert_honest(s, &st, mcd_fc3d_error(&p, r, NULL), TOL,
                                  mcd_solver_name(mncp_kinds[k]));
                }
        mcd_fc3d_free(&p);
    }
    mcd_solver_ws_free(ws);
}
END_TEST

START_TEST(mlcp_stats_error_is_that_of_z)
{
    enum { N = 8 };
    const int limits[4] = {1, 2, 5, 0};
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(N, &ws, NULL), MCD_OK);
    mcd_mlcp p;
    ck_assert_int_eq(mcd_mlcp_alloc(&p, N, NULL), MCD_OK);
    for (int trial = 0; trial < 5; trial++) {
        tu_rng rng = {200 + (uint64_t)trial};
        tu_pd_matrix(&rng, N, p.M);
        for (int i = 0; i < N; i++) {
            p.q[i] = tu_uniform(&rng, -1, 1);
            p.lo[i] = i < 2 ? -INFINITY : 0.0; /* two equality rows */
        }
        for (int k = 0; k < 3; k++)
            for (int l = 0; l < 4; l++)
                for (int fb = 0; fb < 2; fb++) {
                    mcd_solver_opts o = mcd_solver_default_opts(mlcp_kinds[k]);
                    o.max_iter = limits[l];
                    o.fallback = fb ? MCD_FALLBACK_NONE : MCD_FALLBACK_CHAIN;
                    double z[N], w[N];
                    mcd_solver_stats st;
                    mcd_status s = mcd_solve_mlcp(ws, mlcp_kinds[k], &p, &o, z, &st, NULL);
                    assert_honest(s, &st, mcd_mlcp_error(&p, z, w), TOL,
                                  mcd_solver_name(mlcp_kinds[k]));
                }
    }
    mcd_mlcp_free(&p);
    mcd_solver_ws_free(ws);
}
END_TEST

static Suite *honest_suite(void)
{
    Suite *s = suite_create("honest");
    TCase *tc = tcase_create("outputs");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, tiny_data_psi_test_is_not_success);
    tcase_add_test(tc, fc3d_stats_error_is_that_of_r);
    tcase_add_test(tc, mlcp_stats_error_is_that_of_z);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(honest_suite());
}

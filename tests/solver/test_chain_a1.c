/* mncp-plm's fallback chain (solver.h) on the A1 drops' hard steps: two
 * step problems where the chain with the fixed point as its last stages
 * (from zero, then from the best point) stopped the sweep's case, and
 * which the fixed point's first run from the warm NSN stage's best point
 * solves (docs/solvers.md, "The A1 drops that stop or grind"), and one
 * hard step that a case passes. The first two are the steps where a case
 * stopped; all three were written by the chain itself during `mcdyn sim`
 * of the case's scenario (a1_drop_upright.yaml with the case's mu, height
 * and roll / pitch):
 *   a1bench175_plm_947  models/sweep_a1_bench_full.yaml case 175 (mu 1.05,
 *                       trunk at 0.5 m), t = 0.947 s, 11 contacts (n = 33),
 *                       seven of them frictionless joint-limit rows; W of
 *                       rank 16 of 33; the chain before stopped at 4.7e-10
 *   a1study158_plm_841  models/sweep_a1_study.yaml case 158 (mu 1.0,
 *                       1.0 m), t = 0.841 s, 9 contacts (n = 27), four
 *                       of them frictionless joint-limit rows; W of rank
 *                       14 of 27; the chain before stopped at 5.3e-10
 *   a1bench195_fixpoint_10
 *                       models/sweep_a1_bench_full.yaml case 195 (mu 1.15,
 *                       0.5 m): the 11th step of its run (`mcdyn sim`) that
 *                       reached the chain's fixed-point stage, written by
 *                       the chain there (session 9); 12 contacts (n = 36),
 *                       eight of them frictionless joint-limit rows; W of
 *                       rank 17 of 36. The typical hard step: the fixed
 *                       point's s converges at once, the QP's solution lies
 *                       far along W's null space; with the ADMM's proximal
 *                       weight 1e-6 every QP ran its 2000 iterations and
 *                       the first run's last finish, after 100 outer
 *                       iterations, converged; with 1e-8 (FP_PROX) the run
 *                       converges in about 30 (docs/solvers.md, "The A1
 *                       drops that stop or grind", session 9)
 * Success is the library's error measure of the returned point,
 * recomputed here, within tol 1e-10: no tolerance is loosened. */
#include "mcdyn/problem_io.h"
#include "mcdyn/solver.h"
#include "common/check_main.h"
#include "solver_testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#define TOL 1e-10 /* mncp-plm's default tol (solver.h) */

static const char *const files[] = {"a1bench175_plm_947.dat", "a1study158_plm_841.dat",
                                    "a1bench195_fixpoint_10.dat"};

START_TEST(default_chain_solves_the_stopping_step)
{
    mcd_problem_file pf = tu_read_fc3d_data(files[_i]);
    const mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    double *r = calloc(2 * (size_t)n, sizeof *r), *u = r + n;
    mcd_solver_stats st;
    mcd_error err = {0};
    mcd_status s = mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_PLM, p, NULL, r, u, &st, &err);
    double e = mcd_fc3d_error(p, r, NULL);
    printf("%-24s n = %d: %s, %d iterations in %d stages, error %.3g\n", files[_i], n,
           mcd_status_str(s), st.iterations, st.stages, e);
    ck_assert_msg(s == MCD_OK, "%s: %s", files[_i], err.msg);
    ck_assert_msg(e <= TOL, "%s: error %.3g", files[_i], e);
    free(r);
    mcd_solver_ws_free(ws);
    mcd_problem_file_free(&pf);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver-chain-a1");
    TCase *tc = tcase_create("mncp-plm chain");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, default_chain_solves_the_stopping_step, 0,
                        (int)(sizeof files / sizeof files[0]));
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* mncp-nsn alone (its default budget, from zero) on the poured sphere pile's
 * groups where session 9 found that Siconos' NSN-AC converges and ours did
 * not (docs/solvers.md, "Session 10: against Siconos' NSN-AC"). Captured by
 * `capture-problems models/sphere_pile_poured.yaml`, each group split off its
 * step by its zero blocks; W positive semidefinite and singular:
 *   sphere_pile_poured_189_group  77 contacts (n = 231), W of rank 213;
 *                                 NSN-AC: 338 iterations; ours before
 *                                 session 10: 5.9e-4 after 400
 *   sphere_pile_poured_164_group  80 contacts (n = 240); NSN-AC: 729
 *                                 iterations; ours before: 4.0e-3 after 400
 *   sphere_pile_poured_169_group  79 contacts (n = 237), W of rank 218;
 *                                 NSN-AC fails (1.0e-2 after 10,000); ours
 *                                 before: 3.5e-3 after 373
 * Each is solved with the default budget (100 iterations per rung of the
 * rho ladder) and with the budget of the NSN stages of mncp-plm's chain
 * (1000 per rung): a rung that stalls ends alike under both (before the
 * stall test, 189 ended at 5.0e-4 after 3140 iterations with 1000).
 * Success is the library's error measure of the returned point, recomputed
 * here, within tol 1e-10, and the status ok. */
#include "mcdyn/problem_io.h"
#include "mcdyn/solver.h"
#include "common/check_main.h"
#include "solver_testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#define TOL          1e-10 /* mncp-nsn's default tol (solver.h) */
#define CHAIN_BUDGET 1000  /* NSN_STAGE_ITER of solver.c */

static const char *const files[] = {"sphere_pile_poured_189_group.dat",
                                    "sphere_pile_poured_164_group.dat",
                                    "sphere_pile_poured_169_group.dat"};

/* mncp-nsn from zero with max_iter iterations per rung (0: the default). */
static void solve_pile_group(const char *file, int max_iter)
{
    mcd_problem_file pf = tu_read_fc3d_data(file);
    const mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    double *r = calloc(2 * (size_t)n, sizeof *r), *u = r + n;
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MNCP_NSN);
    ck_assert_double_eq(o.tol, TOL);
    if (max_iter > 0) o.max_iter = max_iter;
    mcd_solver_stats st;
    mcd_error err = {0};
    mcd_status s = mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_NSN, p, &o, r, u, &st, &err);
    double e = mcd_fc3d_error(p, r, NULL);
    printf("%-34s n = %d, max_iter %d: %s, %d iterations in %d stages, error %.3g\n", file, n,
           o.max_iter, mcd_status_str(s), st.iterations, st.stages, e);
    ck_assert_msg(s == MCD_OK, "%s, max_iter %d: %s", file, o.max_iter, err.msg);
    ck_assert_int_eq(st.stages, 1); /* the method itself, not the polish after it */
    ck_assert_msg(e <= TOL, "%s: error %.3g", file, e);
    free(r);
    mcd_solver_ws_free(ws);
    mcd_problem_file_free(&pf);
}

START_TEST(nsn_alone_solves_the_pile_group)
{
    solve_pile_group(files[_i], 0);
}
END_TEST

START_TEST(nsn_alone_solves_the_pile_group_with_the_chain_budget)
{
    solve_pile_group(files[_i], CHAIN_BUDGET);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver-nsn-pile");
    TCase *tc = tcase_create("mncp-nsn alone");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, nsn_alone_solves_the_pile_group, 0,
                        (int)(sizeof files / sizeof files[0]));
    tcase_add_loop_test(tc, nsn_alone_solves_the_pile_group_with_the_chain_budget, 0,
                        (int)(sizeof files / sizeof files[0]));
    suite_add_tcase(s, tc);
    return run_suite(s);
}

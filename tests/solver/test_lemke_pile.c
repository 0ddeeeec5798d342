/* Lemke's method on a group LCP of models/sphere_pile.yaml on which its
 * path cycled before session 11 (tests/solver/data/
 * lemke_pile_regular_26.dat: n = 312, 52 contacts, no equality rows;
 * dumped at step 26 of `mcdyn bench scenes --method mlcp-lemke --scene
 * sphere_pile`, entries rounded to 12 significant digits to keep the file
 * under 300 KB; the rounded group cycles as the dumped one does). With
 * Harris' ratio test the path repeats the same 12 pivots from about pivot
 * 870 on, until the cap of 50 n pivots: a tie taken within Harris' band
 * shifted b by 1e-12, and for the shifted b the basis lies on a closed
 * loop of almost-complementary bases (docs/solvers.md, "Per scene
 * (session 11: Lemke on the piles)"). lemke.c now detects the repeated
 * basis and runs the path again with the strict lexicographic test on a
 * perturbed b. Asserted: Lemke alone (no fallback stage), at its default
 * pivot cap, returns MCD_OK and a point whose complementarity residual,
 * computed here from w = M z + q, is within the documented tolerance of
 * mlcp-lemke. */
#include "common/check_main.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mcdyn/mcdyn.h"
#include "mcdyn/problem_io.h"

#define GROUP_ROWS 312

START_TEST(regular_pile_group_26_is_solved)
{
    const char *file = "lemke_pile_regular_26.dat";
    mcd_problem_file f = tu_read_lcp_data(file, GROUP_ROWS);
    const mcd_mlcp *p = &f.mlcp;
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(p->n, &ws, NULL), MCD_OK);
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MLCP_LEMKE);
    o.fallback = MCD_FALLBACK_NONE; /* Lemke alone: no proximal stage to hide a cycling path */
    double z[GROUP_ROWS];
    mcd_solver_stats st;
    mcd_error err = {0};
    mcd_status s = mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, p, &o, z, &st, &err);
    ck_assert_msg(s == MCD_OK, "%s: %s after %d pivots (error %g)", file, mcd_status_str(s),
                  st.iterations, st.error);
    ck_assert_int_eq(st.stages, 1);
    for (int i = 0; i < p->n; i++) ck_assert_msg(z[i] >= 0.0, "%s: z[%d] = %g", file, i, z[i]);
    double r = tu_lcp_residual(p, z);
    ck_assert_msg(r <= o.tol, "%s: residual %g > tol %g", file, r, o.tol);
    mcd_solver_ws_free(ws);
    mcd_problem_file_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver-lemke-pile");
    TCase *tc = tcase_create("lemke-pile");
    tcase_add_test(tc, regular_pile_group_26_is_solved);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

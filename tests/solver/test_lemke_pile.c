/* Lemke's method on group LCPs of models/sphere_pile.yaml (no equality
 * rows; each contact has a normal row, four direction rows and its slack
 * row sigma_k, docs/contact.md, "MLCP, Eq. (43)-(44)"), dumped from
 * `mcdyn bench scenes --method mlcp-lemke --scene sphere_pile` and the
 * same run through a capture driver (docs/solvers.md, "Per scene (session
 * 11: Lemke on the piles)" and "Per scene (session 12: Lemke's ray on the
 * regular pile)"), kept under 300 KB.
 *
 * - lemke_pile_regular_26.dat (n = 312, 52 contacts, step 26; entries
 *   rounded to 12 significant digits, the rounded group cycles as the
 *   dumped one does): with Harris' ratio test the path repeats the same 12
 *   pivots from about pivot 870 on, until the cap of 50 n pivots: a tie
 *   taken within Harris' band shifted b by 1e-12, and for the shifted b
 *   the basis lies on a closed loop of almost-complementary bases. lemke.c
 *   detects the repeated basis and runs the path again with the strict
 *   lexicographic test on a perturbed b (session 11).
 * - lemke_pile_regular_64.dat (n = 412, step 64; exact entries, stored as
 *   a sparse matrix): the dumped group of n = 570 (95 contacts) without
 *   the 158 rows that Lemke's path never pivots on (their w_i stays basic
 *   and zeta_i = 0 all along, so the path on the other rows is the same:
 *   the same ray, after 3,106 pivots in two passes instead of 3,100).
 *   Harris' band on an ill-conditioned basis shifts b until the path ends
 *   on a ray along one contact's slack sigma_k, a ray of the shifted b
 *   that proves nothing (its direction d has b^T d = 0 and A^T d with
 *   entries +mu). lemke.c checks each ray as a Farkas certificate and runs
 *   the strict path on the perturbed b after one that is not (session 12).
 *
 * Asserted for each: Lemke alone (no fallback stage), at its default pivot
 * cap, returns MCD_OK and a point whose complementarity residual, computed
 * here from w = M z + q, is within the documented tolerance of mlcp-lemke. */
#include "common/check_main.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mcdyn/mcdyn.h"
#include "mcdyn/problem_io.h"

/* Solves the group LCP of file (rows unknowns) with Lemke alone and checks
 * the status and the residual of its point. */
static void check_solved_alone(const char *file, int rows)
{
    mcd_problem_file f = tu_read_lcp_data(file, rows);
    const mcd_mlcp *p = &f.mlcp;
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(p->n, &ws, NULL), MCD_OK);
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MLCP_LEMKE);
    o.fallback = MCD_FALLBACK_NONE; /* Lemke alone: no proximal stage to hide a failed path */
    double *z = malloc((size_t)rows * sizeof *z);
    ck_assert_ptr_nonnull(z);
    mcd_solver_stats st;
    mcd_error err = {0};
    mcd_status s = mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, p, &o, z, &st, &err);
    ck_assert_msg(s == MCD_OK, "%s: %s after %d pivots (error %g)", file, mcd_status_str(s),
                  st.iterations, st.error);
    ck_assert_int_eq(st.stages, 1);
    for (int i = 0; i < p->n; i++) ck_assert_msg(z[i] >= 0.0, "%s: z[%d] = %g", file, i, z[i]);
    double r = tu_lcp_residual(p, z);
    ck_assert_msg(r <= o.tol, "%s: residual %g > tol %g", file, r, o.tol);
    free(z);
    mcd_solver_ws_free(ws);
    mcd_problem_file_free(&f);
}

START_TEST(regular_pile_group_26_is_solved)
{
    check_solved_alone("lemke_pile_regular_26.dat", 312);
}
END_TEST

START_TEST(regular_pile_group_64_is_solved)
{
    check_solved_alone("lemke_pile_regular_64.dat", 412);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver-lemke-pile");
    TCase *tc = tcase_create("lemke-pile");
    tcase_add_test(tc, regular_pile_group_26_is_solved);
    tcase_add_test(tc, regular_pile_group_64_is_solved);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

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

START_TEST(regular_pile_group_26_is_solved)
{
    tu_lemke_solves_alone("lemke_pile_regular_26.dat", 312);
}
END_TEST

START_TEST(regular_pile_group_64_is_solved)
{
    tu_lemke_solves_alone("lemke_pile_regular_64.dat", 412);
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

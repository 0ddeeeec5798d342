/* Lemke's method on the group LCPs of models/box_block.yaml on which it
 * returned a wrong point before session 10 (tests/solver/data/
 * box_block_group_{0,1,2}.dat: n = 72, no equality rows, dumped from
 * `mcdyn bench scenes --method mlcp-lemke --scene box_block` while the
 * boxes land). On group 0 the first Lemke path ends on a ray with
 * z0 = 1.6e-9 after bound shifts of 2.4e-9 (an entry of 6e-8 of the
 * column's largest taken as zero), and the second pass, which pivots on
 * such entries (6e-8, then 6e-10 of the column), ended on a numerically
 * singular basis. Before session 10 the errors were 7.7e-2, 6.2e13 and
 * 5.5e-2 with OpenBLAS's Zen kernels, 3.8e-2, 6.1e-2 and 1.4e-1 with
 * OPENBLAS_CORETYPE=Haswell.
 * lemke.c now tries the complementary neighbour of the ray first (z0
 * replaced by the variable that left at the last pivot, solved afresh by
 * LU with the true b). Asserted: Lemke alone (no fallback stage) returns
 * MCD_OK and a point whose complementarity residual, computed here from
 * w = M z + q, is within the documented tolerance of mlcp-lemke. */
#include "common/check_main.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mcdyn/mcdyn.h"
#include "mcdyn/problem_io.h"

#define GROUP_ROWS 72

START_TEST(box_block_group_0_is_solved)
{
    tu_lemke_solves_alone("box_block_group_0.dat", GROUP_ROWS);
}
END_TEST

START_TEST(box_block_group_1_is_solved)
{
    tu_lemke_solves_alone("box_block_group_1.dat", GROUP_ROWS);
}
END_TEST

START_TEST(box_block_group_2_is_solved)
{
    tu_lemke_solves_alone("box_block_group_2.dat", GROUP_ROWS);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver-lemke-box-block");
    TCase *tc = tcase_create("lemke-box-block");
    tcase_add_test(tc, box_block_group_0_is_solved);
    tcase_add_test(tc, box_block_group_1_is_solved);
    tcase_add_test(tc, box_block_group_2_is_solved);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

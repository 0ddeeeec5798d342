/* mncp-plm's fallback chain on large groups (solver.c; docs/solvers.md,
 * "The sphere pile"): the poured sphere pile's captured steps, where PLM,
 * the polish and the NSN stages fail, and where the chain now runs the
 * fixed point (mncp-fixpoint) with theta = 1 fixed right after the first
 * polish. */
#include "mcdyn/problem_io.h"
#include "mcdyn/solver.h"
#include "common/check_main.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TOL 1e-10 /* the step methods' default tol (solver.h) */

static double max_abs(int n, const double *x)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

/* Solves the file's problem with mncp-plm's defaults and its chain, from
 * zero; checks what every return promises (u = W r + q to rounding,
 * stats.error the error of r, recomputed here) and returns the stats. */
static mcd_status solve_file(const char *file, mcd_solver_stats *st)
{
    mcd_problem_file pf = tu_read_fc3d_data(file);
    const mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    mcd_solver_ws *ws = NULL;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u);
    double *w = malloc((size_t)n * sizeof *w);
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MNCP_PLM);
    o.tol = TOL;
    mcd_error err = {0};
    mcd_status s = mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_PLM, p, &o, r, u, st, &err);
    for (int i = 0; i < n; i++) {
        w[i] = p->q[i];
        for (int j = 0; j < n; j++) w[i] += p->W[(size_t)i * n + j] * r[j];
    }
    /* u is W r + q recomputed by the solver: the same sums up to rounding,
     * relative to the largest term (|q| ~ 10, |W r| ~ 10 here) */
    ck_assert_double_le(tu_max_diff(n, u, w), 1e-12 * fmax(1.0, max_abs(n, w)));
    ck_assert_double_eq(st->error, mcd_fc3d_error(p, r, u));
    printf("%s: n = %d, %s, %d iterations, %d stages, error %.3g\n", file, n, mcd_status_str(s),
           st->iterations, st->stages, st->error);
    free(r), free(u), free(w);
    mcd_solver_ws_free(ws);
    mcd_problem_file_free(&pf);
    return s;
}

/* Step 164 of models/sphere_pile_poured.yaml (capture-problems ...
 * mncp-plm 3, main at a367e39; its one large group, 80 contacts, 240
 * unknowns, written in sparse-block storage): main's chain fails there,
 * PLM at 2.7e-2, the NSN stages at 3.9e-3, the proximal stage at 2.3e-3
 * and its last stages, the fixed point with the adaptive theta, at
 * 1.2e-5 (62 s, 30 s of it in the NSN stages). The chain must solve it at
 * its third stage: PLM, the polish, then the fixed point from zero with
 * theta = 1 fixed. Checked to fail: with the adaptive theta in that run
 * the chain needs its second fixed-point run (5 stages); with the fixed
 * point after the NSN stages 8 stages; main's chain does not converge. */
START_TEST(solves_a_large_pile_group_at_the_fixed_point)
{
    mcd_solver_stats st;
    mcd_status s = solve_file("sphere_pile_poured_164_group.dat", &st);
    ck_assert_msg(s == MCD_OK, "%s, error %g", mcd_status_str(s), st.error);
    ck_assert_double_le(st.error, TOL);
    ck_assert_int_eq(st.stages, 3);
}
END_TEST

/* Step 172 of the same run, on the chain before its plain run's cap
 * (capture-problems with the chain above, whose first failing steps are
 * 165, 172 and 175; the 79-contact group, 237 unknowns): the plain fixed
 * point converges there in 196 outer iterations, the adaptive one ends at
 * 1.3e-5 after 300. Fails with mncp-fixpoint's default cap of 100 outer
 * iterations for the plain run (not converged). */
START_TEST(solves_a_slow_pile_group_within_the_plain_cap)
{
    mcd_solver_stats st;
    mcd_status s = solve_file("sphere_pile_poured_172_group.dat", &st);
    ck_assert_msg(s == MCD_OK, "%s, error %g", mcd_status_str(s), st.error);
    ck_assert_double_le(st.error, TOL);
    ck_assert_int_eq(st.stages, 3);
}
END_TEST

/* Step 104 of the same scene, the whole step (78 contacts, 234 unknowns,
 * one group of 67 contacts and ten small ones): the same order, PLM, the
 * polish, the fixed point (the old chain reached it after 25 s of NSN
 * stages; 8 stages in that order, checked). */
START_TEST(solves_a_whole_pile_step_at_the_fixed_point)
{
    mcd_solver_stats st;
    mcd_status s = solve_file("sphere_pile_poured_104.dat", &st);
    ck_assert_msg(s == MCD_OK, "%s, error %g", mcd_status_str(s), st.error);
    ck_assert_double_le(st.error, TOL);
    ck_assert_int_eq(st.stages, 3);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver-chain-large");
    TCase *tc = tcase_create("mncp-plm chain");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, solves_a_large_pile_group_at_the_fixed_point);
    tcase_add_test(tc, solves_a_slow_pile_group_within_the_plain_cap);
    tcase_add_test(tc, solves_a_whole_pile_step_at_the_fixed_point);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

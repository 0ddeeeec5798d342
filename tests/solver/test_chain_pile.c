/* mncp-plm's fallback chain on the sphere piles' captured problems
 * (solver.c; docs/solvers.md, "Session 10: a proximal stage with
 * Siconos' rule"): the poured pile's large groups of steps 164, 169, 172
 * and 189 and its whole step 104, each solved from zero with mncp-plm's
 * defaults. Main's chain failed steps 169 (2.25e-4) and 189 (6.7e-6),
 * where Siconos' PROX converges; the chain's proximal stage now follows
 * Siconos' rule with the NSN inside and must solve every one to tol, at
 * the chain's second stage on problems of 150 or more unknowns (PLM, the
 * proximal stage; session 12 moved the first polish after it there:
 * docs/solvers.md, "The piles' cost (session 12)"): before the
 * fixed-point and NSN stages, which take 10-60 s on these groups.
 * (This file replaces session 8's solver-chain-large, whose three files,
 * 164, 172 and 104, were solved at the third stage by the fixed point.) */
#include "mcdyn/problem_io.h"
#include "mcdyn/solver.h"
#include "common/check_main.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TOL 1e-10 /* the step methods' default tol (solver.h) */

static const char *const pile_files[] = {
    "sphere_pile_poured_164_group.dat", /* 80 contacts, 240 unknowns */
    "sphere_pile_poured_169_group.dat", /* 79 contacts, 237 unknowns; main: 2.25e-4 */
    "sphere_pile_poured_172_group.dat", /* 79 contacts, 237 unknowns */
    "sphere_pile_poured_189_group.dat", /* 77 contacts, 231 unknowns; main: 6.7e-6 */
    "sphere_pile_poured_104.dat",       /* the whole step, 78 contacts, 234 unknowns */
};
#define PILE_FILES ((int)(sizeof pile_files / sizeof *pile_files))

static double max_abs(int n, const double *x)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

/* Each file from zero by mncp-plm with its chain: ok, the error of the
 * returned r (recomputed here) within tol, u = W r + q to rounding. */
START_TEST(the_default_chain_solves_the_pile_problems)
{
    const char *file = pile_files[_i];
    mcd_problem_file pf = tu_read_fc3d_data(file);
    const mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    mcd_solver_ws *ws = NULL;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u);
    double *w = malloc((size_t)n * sizeof *w);
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MNCP_PLM);
    o.tol = TOL;
    mcd_solver_stats st;
    mcd_error err = {0};
    mcd_status s = mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_PLM, p, &o, r, u, &st, &err);
    printf("%s: n = %d, %s, %d iterations, %d stages, error %.3g\n", file, n, mcd_status_str(s),
           st.iterations, st.stages, st.error);
    ck_assert_msg(s == MCD_OK, "%s: %s, error %g", file, mcd_status_str(s), st.error);
    ck_assert_int_eq(st.stages, 2);
    ck_assert_double_le(mcd_fc3d_error(p, r, NULL), TOL);
    for (int i = 0; i < n; i++) {
        w[i] = p->q[i];
        for (int j = 0; j < n; j++) w[i] += p->W[(size_t)i * n + j] * r[j];
    }
    /* |q| ~ 10 and |W r| ~ 10 here: the same sums up to rounding */
    ck_assert_double_le(tu_max_diff(n, u, w), 1e-12 * fmax(1.0, max_abs(n, w)));
    ck_assert_double_eq(st.error, mcd_fc3d_error(p, r, u));
    free(r), free(u), free(w);
    mcd_solver_ws_free(ws);
    mcd_problem_file_free(&pf);
}
END_TEST

/* FCLIB's Capsules-i125-1213 (../shared/data/fc3d; 286 contacts, 858
 * unknowns, W singular and block-sparse) by mncp-plm's defaults: PLM
 * alone stops at 5.7e-3, and the chain must solve it in its second stage,
 * the proximal stage, to tol. Before session 12 the first polish came
 * second on large problems: 4.3 s of dense least squares without a gain
 * (the solve 8.8 s, Siconos' NSGS 1.1 s: docs/performance.md, "Capsules,
 * session 12"); the stage count is what the test pins, not the time. */
START_TEST(the_default_chain_solves_capsules_in_its_proximal_stage)
{
    mcd_problem_file pf = tu_read_shared_fc3d("Capsules-i125-1213.hdf5");
    mcd_error err = {0};
    const mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    ck_assert_int_eq(n, 858);
    mcd_solver_ws *ws = NULL;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u);
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MNCP_PLM);
    mcd_solver_stats st;
    ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_PLM, p, &o, r, u, &st, &err), MCD_OK);
    ck_assert_int_eq(st.stages, 2);
    ck_assert_double_le(mcd_fc3d_error(p, r, NULL), o.tol);
    free(r), free(u);
    mcd_solver_ws_free(ws);
    mcd_problem_file_free(&pf);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver-chain-pile");
    TCase *tc = tcase_create("mncp-plm chain");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, the_default_chain_solves_the_pile_problems, 0, PILE_FILES);
    tcase_add_test(tc, the_default_chain_solves_capsules_in_its_proximal_stage);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* PLM's stall test (src/solver/lm_projected.c; docs/solvers.md, "Stall
 * test"): a solve whose best psi has not fallen by 1e-3 of itself within
 * 10 iterations stops, not converged, at its best point, and the fallback
 * chain takes over there.
 *
 *  - Stalled: the captured tower step `tower_nsn_28` (27 unknowns). PLM
 *    alone reaches psi 2.5e-24 (error 1.0e-10, just above tol) at
 *    iteration 3 and then repeats the same rounding-level step: without the
 *    test it ran to its cap of 100 iterations. With it PLM stops by
 *    iteration 3 + 10 = 13 (asserted: <= 20, far below the cap), honestly
 *    (status not converged, stats.error that of the returned point), and
 *    the chain (polish) converges after at most 20 PLM iterations.
 *  - Progressing: `a1_plm_531` (12 unknowns), where PLM alone needs more
 *    than one window of iterations (29) with steady progress: it must still
 *    converge alone, so the test does not cut a solve that is getting there.
 */
#include "common/check_main.h"
#include "mcdyn/problem_io.h"
#include "mcdyn/solver.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#define CAP 100

typedef struct captured {
    mcd_problem_file f;
    mcd_solver_ws *ws;
    double *r, *u;
} captured;

static void load(const char *name, captured *c)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/solver_data/data/captured/%s.dat", getenv("MCDYN_SOURCE"),
             name);
    mcd_error err = {0};
    ck_assert_int_eq(mcd_problem_read_siconos(path, MCD_PROBLEM_FC3D, &c->f, &err), MCD_OK);
    int n = mcd_fc3d_size(&c->f.fc3d);
    ck_assert_int_eq(mcd_solver_ws_create(n, &c->ws, &err), MCD_OK);
    c->r = calloc((size_t)n, sizeof *c->r);
    c->u = calloc((size_t)n, sizeof *c->u);
    ck_assert(c->r && c->u);
}

static void release(captured *c)
{
    free(c->r);
    free(c->u);
    mcd_solver_ws_free(c->ws);
    mcd_problem_file_free(&c->f);
}

static mcd_status solve(captured *c, mcd_solver_fallback fb, mcd_solver_stats *st)
{
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MNCP_PLM);
    o.max_iter = CAP;
    o.fallback = fb;
    mcd_error err = {0};
    return mcd_solve_fc3d(c->ws, MCD_SOLVER_MNCP_PLM, &c->f.fc3d, &o, c->r, c->u, st, &err);
}

START_TEST(stalled_plm_stops_early)
{
    captured c;
    load("tower_nsn_28", &c);
    mcd_solver_stats st;
    ck_assert_int_eq(solve(&c, MCD_FALLBACK_NONE, &st), MCD_ERR_NOT_CONVERGED);
    ck_assert_int_le(st.iterations, 20);
    ck_assert(st.error > 1e-10 && st.error < 1e-9); /* the stalled point, not a worse one */
    ck_assert(st.error == mcd_fc3d_error(&c.f.fc3d, c.r, NULL));
    ck_assert_int_eq(solve(&c, MCD_FALLBACK_CHAIN, &st), MCD_OK);
    ck_assert(mcd_fc3d_error(&c.f.fc3d, c.r, NULL) <= 1e-10);
    ck_assert_int_le(st.iterations, 30); /* PLM's <= 20, then the polish's passes */
    release(&c);
}
END_TEST

START_TEST(progressing_plm_is_not_cut)
{
    captured c;
    load("a1_plm_531", &c);
    mcd_solver_stats st;
    ck_assert_int_eq(solve(&c, MCD_FALLBACK_NONE, &st), MCD_OK);
    ck_assert_int_gt(st.iterations, 10); /* longer than one stall window */
    ck_assert(mcd_fc3d_error(&c.f.fc3d, c.r, NULL) <= 1e-10);
    release(&c);
}
END_TEST

static Suite *lm_stall_suite(void)
{
    Suite *s = suite_create("solver-lm-stall");
    TCase *tc = tcase_create("lm-stall");
    tcase_add_test(tc, stalled_plm_stops_early);
    tcase_add_test(tc, progressing_plm_is_not_cut);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(lm_stall_suite());
}

/* No allocation inside a solve: allocations are counted (alloc_counter.h)
 * while each solver runs on a problem it solves, after a first warm-up solve
 * (BLAS may set up its own buffers once). Not built with AddressSanitizer,
 * which owns malloc. */
#include "common/check_main.h"
#include "common/alloc_counter.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

static long count_mlcp_solve(mcd_solver_ws *ws, mcd_solver_kind k, const mcd_mlcp *p, double *z)
{
    mcd_solver_stats st;
    alloc_counter_start();
    mcd_status s = mcd_solve_mlcp(ws, k, p, NULL, z, &st, NULL);
    const long allocations = alloc_counter_stop();
    ck_assert_int_eq(s, MCD_OK);
    return allocations;
}

static long count_fc3d_solve(mcd_solver_ws *ws, mcd_solver_kind k, const mcd_fc3d *p, double *r,
                             double *u)
{
    mcd_solver_stats st;
    alloc_counter_start();
    mcd_status s = mcd_solve_fc3d(ws, k, p, NULL, r, u, &st, NULL);
    const long allocations = alloc_counter_stop();
    ck_assert_int_eq(s, MCD_OK);
    return allocations;
}

START_TEST(solves_do_not_allocate)
{
    enum { NC = 5, NB = 2, N = NB + 3 * NC };
    const int regime[NC] = {TU_STICK, TU_SLIP, TU_SEPARATE, TU_SLIP, TU_STICK};
    tu_rng rng = {41};
    mcd_fc3d f;
    double r_star[N], u_star[N], r[N], u[N], z[N];
    tu_fc3d_with_solution(&rng, NC, NB, regime, &f, r_star, u_star);
    mcd_mlcp p; /* LCP rows and NB equality rows */
    mcd_mlcp_alloc(&p, N, NULL);
    tu_pd_matrix(&rng, N, p.M);
    for (int i = 0; i < N; i++) p.q[i] = tu_uniform(&rng, -1, 1);
    for (int i = 0; i < NB; i++) p.lo[i] = -INFINITY;
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(N, &ws, NULL), MCD_OK);
    const mcd_solver_kind mlcp[3] = {MCD_SOLVER_MLCP_PFB_RLM, MCD_SOLVER_MLCP_PFB_PLM,
                                     MCD_SOLVER_MLCP_LEMKE};
    for (int k = 0; k < 3; k++) {
        count_mlcp_solve(ws, mlcp[k], &p, z); /* warm-up */
        ck_assert_int_eq(count_mlcp_solve(ws, mlcp[k], &p, z), 0);
    }
    for (int k = MCD_SOLVER_MNCP_RLM; k <= MCD_SOLVER_MNCP_NSN; k++) {
        count_fc3d_solve(ws, (mcd_solver_kind)k, &f, r, u);
        ck_assert_int_eq(count_fc3d_solve(ws, (mcd_solver_kind)k, &f, r, u), 0);
    }
    mcd_solver_ws_free(ws);
    /* the counter sees the library's allocations: creating a workspace makes some */
    alloc_counter_start();
    ck_assert_int_eq(mcd_solver_ws_create(N, &ws, NULL), MCD_OK);
    ck_assert_int_ge(alloc_counter_stop(), 1);
    mcd_solver_ws_free(ws);
    mcd_mlcp_free(&p);
    mcd_fc3d_free(&f);
}
END_TEST

/* The stages of the fallback chains (proximal, Lemke) use the workspace
 * too: each chain is made to run by cutting its method's iterations (the
 * PLMs: 1) or by a singular equality block (Lemke). */
static long count_chain(mcd_solver_ws *ws, mcd_solver_kind k, const mcd_mlcp *p, const mcd_fc3d *f,
                        int max_iter, double *x, double *u)
{
    mcd_solver_opts o = mcd_solver_default_opts(k);
    o.max_iter = max_iter;
    mcd_solver_stats st;
    alloc_counter_start();
    if (p) {
        mcd_solve_mlcp(ws, k, p, &o, x, &st, NULL);
    } else {
        mcd_solve_fc3d(ws, k, f, &o, x, u, &st, NULL);
    }
    const long allocations = alloc_counter_stop();
    ck_assert_int_ge(st.stages, 2);
    return allocations;
}

START_TEST(fallback_chains_do_not_allocate)
{
    enum { NC = 5, NB = 2, N = NB + 3 * NC };
    const int regime[NC] = {TU_STICK, TU_SLIP, TU_SEPARATE, TU_SLIP, TU_STICK};
    tu_rng rng = {43};
    mcd_fc3d f;
    double r_star[N], u_star[N], r[N], u[N], z[N];
    tu_fc3d_with_solution(&rng, NC, NB, regime, &f, r_star, u_star);
    mcd_mlcp p;
    mcd_mlcp_alloc(&p, N, NULL);
    tu_pd_matrix(&rng, N, p.M);
    for (int i = 0; i < N; i++) p.q[i] = tu_uniform(&rng, -1, 1);
    double Ms[4] = {0, 1, -1, 2}, qs[2] = {-1, -1}, lo[2] = {-INFINITY, 0};
    double hi[2] = {INFINITY, INFINITY};
    mcd_mlcp singular = {2, Ms, qs, lo, hi}; /* M_FF = 0 (test_solver_input.c) */
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(N, &ws, NULL), MCD_OK);
    for (int rep = 0; rep < 2; rep++) { /* the first round is the warm-up */
        long a = count_chain(ws, MCD_SOLVER_MLCP_PFB_PLM, &p, NULL, 1, z, NULL) +
                 count_chain(ws, MCD_SOLVER_MLCP_LEMKE, &singular, NULL, 0, z, NULL) +
                 count_chain(ws, MCD_SOLVER_MNCP_PLM, NULL, &f, 1, r, u);
        if (rep == 1) ck_assert_int_eq(a, 0);
    }
    mcd_solver_ws_free(ws);
    mcd_mlcp_free(&p);
    mcd_fc3d_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver-alloc");
    TCase *tc = tcase_create("alloc");
    tcase_add_test(tc, solves_do_not_allocate);
    tcase_add_test(tc, fallback_chains_do_not_allocate);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

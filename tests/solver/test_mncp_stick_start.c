/* The cold start of mncp-plm (mcd_mncp_stick_start, mncp_todorov.h): the
 * impulses of least norm with which every non-separating contact sticks,
 * on random rank-deficient problems with a known least-norm solution, on a
 * resting stack of five boxes (the bench's stack-5 scene, captured), and on
 * a single contact where Coulomb's law also has a self-locking solution. */
#include "common/check_main.h"
#include "solver/mncp_todorov.h"
#include "solver_testutil.h"

#include "mcdyn/problem_io.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NC_MAX 12
#define N_MAX  (3 * NC_MAX)

/* |a - b| / |b| */
static double relative_difference(int n, const double *a, const double *b)
{
    double d = 0.0, s = 0.0;
    for (int i = 0; i < n; i++) {
        d += (a[i] - b[i]) * (a[i] - b[i]);
        s += b[i] * b[i];
    }
    return sqrt(d / s);
}

/* A problem of nc contacts (mu = 1) with W = B B^T of rank m < 3 nc and a
 * sticking solution r0 (normal impulses in [0.5, 1], tangential ones of at
 * most 0.3 times the normal) with u = 0: B's first column is r0, the other
 * m - 1 are random of size 0.1, and q = -W r0 (negative normal components,
 * W r0 ~ |r0|^2 r0). Every r0 + v, W v = 0, also gives u = 0; r0 is the one
 * of least norm, since it lies in range(W) = range(B). */
static void rank_deficient_problem(tu_rng *rng, int nc, int m, mcd_fc3d *p, double *r0)
{
    const int n = 3 * nc;
    double B[N_MAX * N_MAX];
    ck_assert_int_eq(mcd_fc3d_alloc(p, nc, 0, NULL), MCD_OK);
    for (int k = 0; k < nc; k++) {
        r0[3 * k] = tu_uniform(rng, 0.5, 1.0);
        const double th = tu_uniform(rng, 0.0, 2.0 * acos(-1.0));
        const double rt = tu_uniform(rng, 0.0, 0.3) * r0[3 * k];
        r0[3 * k + 1] = rt * cos(th);
        r0[3 * k + 2] = rt * sin(th);
        p->mu[k] = 1.0;
    }
    for (int i = 0; i < n; i++) {
        B[i * m] = r0[i];
        for (int j = 1; j < m; j++) B[i * m + j] = 0.1 * tu_uniform(rng, -1.0, 1.0);
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int c = 0; c < m; c++) s += B[i * m + c] * B[j * m + c];
            p->W[i * n + j] = s;
        }
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += p->W[i * n + j] * r0[j];
        p->q[i] = -s;
    }
}

/* The start's impulses are r0 and mncp-plm stops at the start. Tolerance
 * 1e-5 relative: the iterated Tikhonov error on an eigenvalue e of W is
 * (s / (e + s))^4 with s = 1e-9 max W_ii, negligible for the nonzero
 * eigenvalues here, while each of the four solves with the factor of W + s
 * I puts the rounding of its right-hand side, about n eps |W| |r|, on the
 * null space of W divided by s: a few 1e-7 |r| each (1.3e-6 measured at
 * most). */
START_TEST(stick_start_is_the_least_norm_solution)
{
    tu_rng rng = {2029};
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(N_MAX, &ws, NULL), MCD_OK);
    for (int t = 0; t < 50; t++) {
        const int nc = 2 + t % (NC_MAX - 1), n = 3 * nc;
        const int m = 1 + (int)tu_uniform(&rng, 1.0, n - 1.0); /* rank 2 .. n - 1 */
        mcd_fc3d p;
        double r0[N_MAX], r[N_MAX], u[N_MAX], x[N_MAX], scale[N_MAX], dF[9 * NC_MAX];
        double H[N_MAX * N_MAX], phi[2 * N_MAX];
        rank_deficient_problem(&rng, nc, m, &p, r0);
        mcd_mncp_units(&p, scale);
        mcd_mncp ctx = {.p = &p, .scale = scale, .r = r, .u = u, .dF = dF};
        mcd_mncp_stick_start(&ctx, 1e-10, H, phi, x);
        mcd_mncp_residual(&ctx, x, phi);
        ck_assert_msg(relative_difference(n, r, r0) <= 1e-5, "problem %d (n %d, rank %d): %g", t, n,
                      m, relative_difference(n, r, r0));
        mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MNCP_PLM);
        o.fallback = MCD_FALLBACK_NONE;
        mcd_solver_stats st;
        ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_PLM, &p, &o, r, u, &st, NULL), MCD_OK);
        ck_assert_int_eq(st.iterations, 0);
        ck_assert(st.error <= o.tol);
        mcd_fc3d_free(&p);
    }
    mcd_solver_ws_free(ws);
}
END_TEST

/* A step of the bench's stack of five 1 kg boxes at rest (26 contacts, 78
 * unknowns, W of rank 30; Delta t = 1 ms): PLM alone converges at its start
 * (no iteration), and the four contacts on the ground (its first four, q_n
 * = -g Delta t) carry the weight of the stack, 5 m g Delta t, to 1e-9
 * relative (the error measure is <= 1e-10 relative to |r|). */
START_TEST(resting_stack_is_solved_at_the_start)
{
    char path[4096];
    const char *src = getenv("MCDYN_SOURCE");
    ck_assert_msg(src != NULL, "MCDYN_SOURCE is not set");
    snprintf(path, sizeof path, "%s/tests/solver/data/box_stack_step.dat", src);
    mcd_problem_file pf = {0};
    mcd_error err = {0};
    ck_assert_msg(mcd_problem_read_siconos(path, MCD_PROBLEM_FC3D, &pf, &err) == MCD_OK, "%s",
                  err.msg);
    const mcd_fc3d *p = &pf.fc3d;
    const int n = mcd_fc3d_size(p);
    ck_assert_int_eq(n, 78);
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u);
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MNCP_PLM);
    o.fallback = MCD_FALLBACK_NONE;
    mcd_solver_stats st;
    ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_PLM, p, &o, r, u, &st, NULL), MCD_OK);
    ck_assert_int_eq(st.iterations, 0);
    ck_assert(st.error <= o.tol);
    const double weight = 5 * 1.0 * 9.81 * 1e-3;
    double ground = 0.0;
    for (int k = 0; k < 4; k++) {
        ck_assert(fabs(p->q[3 * k] + 9.81e-3) <= 1e-15);
        ground += r[3 * k];
    }
    ck_assert_msg(fabs(ground - weight) <= 1e-9 * weight, "ground carries %.12g of %.12g", ground,
                  weight);
    free(r);
    free(u);
    mcd_solver_ws_free(ws);
    mcd_problem_file_free(&pf);
}
END_TEST

/* One contact whose free velocity separates it (q_n > 0) with mu = 1.86:
 * Coulomb's law has two solutions, r = 0 (separation) and a self-locking
 * sticking one, r = -W^{-1} q = (0.634, -0.926, -0.236) with u = 0 (found
 * by a random test of tests/solver/test_maxdiss_bgs.c). The start must not
 * prefer the self-locking one: the solve returns r = 0. */
START_TEST(separating_contact_is_not_held)
{
    static const double W[9] = {0.67292177351639704, 0.50796246452792138,  0.22198879479445646,
                                0.50796246452792138, 0.65647048533621555,  0.092283948561926787,
                                0.22198879479445646, 0.092283948561926787, 0.8842806448739039};
    mcd_fc3d p;
    ck_assert_int_eq(mcd_fc3d_alloc(&p, 1, 0, NULL), MCD_OK);
    memcpy(p.W, W, sizeof W);
    p.q[0] = 0.096330396709457533;
    p.q[1] = 0.30762292576936368;
    p.q[2] = 0.15388503731905212;
    p.mu[0] = 1.8569140850381713;
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(3, &ws, NULL), MCD_OK);
    double r[3], u[3];
    mcd_solver_stats st;
    ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_PLM, &p, NULL, r, u, &st, NULL), MCD_OK);
    for (int i = 0; i < 3; i++) ck_assert(r[i] == 0.0);
    mcd_solver_ws_free(ws);
    mcd_fc3d_free(&p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver-mncp-stick-start");
    TCase *tc = tcase_create("stick-start");
    tcase_add_test(tc, stick_start_is_the_least_norm_solution);
    tcase_add_test(tc, resting_stack_is_solved_at_the_start);
    tcase_add_test(tc, separating_contact_is_not_held);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

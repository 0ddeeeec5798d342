/* The five solvers on small random problems with known solutions: LCPs and
 * MLCPs built from a chosen complementary pair (unique solution: M positive
 * definite), frictional contact problems built from chosen sticking,
 * sliding and separating contacts (checked against Coulomb's law directly),
 * Lemke on degenerate and infeasible problems, and non-convergence. */
#include "common/check_main.h"
#include "base/clock.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

#define SOLUTION_TOL 1e-8  /* |z - z*|_inf for the unique-solution problems */
#define ERROR_TOL    1e-10 /* tolerance handed to the solvers (error measure) */
#define COULOMB_TOL  1e-8  /* largest violation of Coulomb's law accepted */
#define SLIDE_TOL    1e-6  /* |u_t| above which a contact counts as sliding */
#define TRIALS       10    /* random problems per case */

static const mcd_solver_kind mlcp_kinds[] = {MCD_SOLVER_MLCP_PFB_RLM, MCD_SOLVER_MLCP_PFB_PLM,
                                             MCD_SOLVER_MLCP_LEMKE};
static const mcd_solver_kind mncp_kinds[] = {MCD_SOLVER_MNCP_RLM, MCD_SOLVER_MNCP_PLM,
                                             MCD_SOLVER_MNCP_NSN};

/* Row kinds of the constructed MLCPs. */
enum { ROW_LCP, ROW_FREE, ROW_LOWER, ROW_UPPER, ROW_BOX };

/* Row i of an MLCP with solution z* and w*: each bounded row is, at random,
 * strictly at a bound (w strictly signed) or strictly inside (w = 0). */
static void row_with_solution(tu_rng *rng, int kind, double *lo, double *hi, double *z, double *w)
{
    double u = tu_uniform(rng, 0, 1), gap = tu_uniform(rng, 0.3, 2), wv = tu_uniform(rng, 0.3, 2);
    double base = tu_uniform(rng, -1, 0), width = tu_uniform(rng, 1, 3);
    *lo = -INFINITY;
    *hi = INFINITY;
    *w = 0.0;
    switch (kind) {
    case ROW_FREE:
        *z = tu_uniform(rng, -2, 2);
        return;
    case ROW_LCP:
    case ROW_LOWER:
        *lo = kind == ROW_LCP ? 0.0 : base;
        *z = u < 0.5 ? *lo : *lo + gap;
        if (u < 0.5) *w = wv;
        return;
    case ROW_UPPER:
        *hi = base + width;
        *z = u < 0.5 ? *hi : *hi - gap;
        if (u < 0.5) *w = -wv;
        return;
    default: /* box: lower bound active, upper bound active, or inside */
        *lo = base;
        *hi = base + width;
        *z = u < 1.0 / 3 ? *lo : u < 2.0 / 3 ? *hi : base + 0.5 * width;
        *w = u < 1.0 / 3 ? wv : u < 2.0 / 3 ? -wv : 0.0;
    }
}

/* An MLCP (allocated in p) with the given row kinds and unique solution z
 * (M positive definite); q = w* - M z*. */
static void mlcp_with_solution(tu_rng *rng, int n, const int *kind, mcd_mlcp *p, double *z)
{
    mcd_mlcp_alloc(p, n, NULL);
    tu_pd_matrix(rng, n, p->M);
    double *w = malloc((size_t)n * sizeof *w);
    for (int i = 0; i < n; i++) row_with_solution(rng, kind[i], &p->lo[i], &p->hi[i], &z[i], &w[i]);
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += p->M[i * n + j] * z[j];
        p->q[i] = w[i] - s;
    }
    free(w);
}

static mcd_solver_opts opts_for(mcd_solver_kind k)
{
    mcd_solver_opts o = mcd_solver_default_opts(k);
    o.tol = ERROR_TOL;
    return o;
}

/* The MLCP's natural-map residual |z - mid(lo, z - w, hi)|_2 / (1 + |q|_2),
 * w = M z + q, written out here from its definition (Siconos'
 * mlcp_compute_error) rather than through the library's error function. */
static double mlcp_residual(const mcd_mlcp *p, const double *z)
{
    double e2 = 0, q2 = 0;
    for (int i = 0; i < p->n; i++) {
        double w = p->q[i];
        for (int j = 0; j < p->n; j++) w += p->M[i * p->n + j] * z[j];
        double mid = fmin(fmax(z[i] - w, p->lo[i]), p->hi[i]);
        e2 += (z[i] - mid) * (z[i] - mid), q2 += p->q[i] * p->q[i];
    }
    return sqrt(e2) / (1 + sqrt(q2));
}

/* Solves with every MLCP solver in kinds and compares with z*. The
 * reported error is the residual of the returned z up to rounding: the
 * library evaluates each row in a cancellation-free form, which differs
 * from z - mid(...) here by a few ulps of |z|, hence 1e-14 (1 + |z|_inf)
 * beside 1e-12 relative; and the reported time lies within the
 * test's own measurement of the call. */
static void solve_and_compare(const mcd_mlcp *p, const double *z_star, const mcd_solver_kind *kinds,
                              int nkinds, int trial)
{
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(p->n, &ws, NULL), MCD_OK);
    double *z = malloc((size_t)p->n * sizeof *z);
    for (int k = 0; k < nkinds; k++) {
        mcd_solver_opts o = opts_for(kinds[k]);
        mcd_solver_stats st;
        mcd_error err = {0};
        double t0 = mcd_clock_seconds();
        mcd_status s = mcd_solve_mlcp(ws, kinds[k], p, &o, z, &st, &err);
        double t1 = mcd_clock_seconds();
        ck_assert_msg(s == MCD_OK, "%s trial %d: %s", mcd_solver_name(kinds[k]), trial, err.msg);
        ck_assert_int_eq(st.status, MCD_OK);
        ck_assert_msg(tu_max_diff(p->n, z, z_star) < SOLUTION_TOL, "%s trial %d: |z - z*| = %g",
                      mcd_solver_name(kinds[k]), trial, tu_max_diff(p->n, z, z_star));
        ck_assert_double_le(st.error, ERROR_TOL);
        double e = mlcp_residual(p, z), zmax = 0;
        for (int i = 0; i < p->n; i++) zmax = fmax(zmax, fabs(z[i]));
        ck_assert_msg(fabs(e - st.error) <= 1e-12 * e + 1e-14 * (1 + zmax),
                      "%s trial %d: error %g, residual %g", mcd_solver_name(kinds[k]), trial,
                      st.error, e);
        ck_assert_int_ge(st.iterations, 1);
        ck_assert_msg(st.seconds >= 0 && st.seconds <= t1 - t0, "%s: %g s reported, %g s measured",
                      mcd_solver_name(kinds[k]), st.seconds, t1 - t0);
    }
    free(z);
    mcd_solver_ws_free(ws);
}

START_TEST(lcp_from_complementary_pair)
{
    enum { N = 15 };
    int kind[N];
    for (int i = 0; i < N; i++) kind[i] = ROW_LCP;
    tu_rng rng = {31};
    for (int t = 0; t < TRIALS; t++) {
        mcd_mlcp p;
        double z_star[N];
        mlcp_with_solution(&rng, N, kind, &p, z_star);
        solve_and_compare(&p, z_star, mlcp_kinds, 3, t);
        mcd_mlcp_free(&p);
    }
}
END_TEST

START_TEST(mlcp_with_equality_and_one_sided_rows)
{
    enum { N = 16 };
    int kind[N];
    for (int i = 0; i < N; i++) kind[i] = (int[]){ROW_LCP, ROW_FREE, ROW_LOWER, ROW_UPPER}[i % 4];
    tu_rng rng = {32};
    for (int t = 0; t < TRIALS; t++) {
        mcd_mlcp p;
        double z_star[N];
        mlcp_with_solution(&rng, N, kind, &p, z_star);
        solve_and_compare(&p, z_star, mlcp_kinds, 3, t);
        mcd_mlcp_free(&p);
    }
}
END_TEST

START_TEST(mlcp_with_box_rows_pfb)
{
    enum { N = 15 };
    int kind[N];
    for (int i = 0; i < N; i++) kind[i] = (int[]){ROW_BOX, ROW_FREE, ROW_LCP}[i % 3];
    tu_rng rng = {33};
    for (int t = 0; t < TRIALS; t++) {
        mcd_mlcp p;
        double z_star[N];
        mlcp_with_solution(&rng, N, kind, &p, z_star);
        solve_and_compare(&p, z_star, mlcp_kinds, 2, t); /* Lemke: see test_solver_input */
        mcd_mlcp_free(&p);
    }
}
END_TEST

/* Degenerate LCPs: ties in the first ratio test (all q_i equal) and zero
 * entries of q; Murty's triangular P-matrix. Lemke's lexicographic rule
 * must end with a solution. */
START_TEST(lemke_degenerate_problems)
{
    enum { N = 8 };
    mcd_mlcp p;
    mcd_mlcp_alloc(&p, N, NULL);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) p.M[i * N + j] = i == j ? 1.0 : (j < i ? 2.0 : 0.0);
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(N, &ws, NULL), MCD_OK);
    double z[N], w[N];
    const double q_cases[3][N] = {
        {-1, -1, -1, -1, -1, -1, -1, -1},
        {0, -1, 0, -1, 0, -1, 0, -1},
        {-1, 0, 0, -1, 0, 0, -1, 0},
    };
    for (int c = 0; c < 3; c++) {
        for (int i = 0; i < N; i++) p.q[i] = q_cases[c][i];
        mcd_solver_opts o = opts_for(MCD_SOLVER_MLCP_LEMKE);
        mcd_solver_stats st;
        ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, &p, &o, z, &st, NULL), MCD_OK);
        ck_assert_double_le(mcd_mlcp_error(&p, z, w), ERROR_TOL);
        for (int i = 0; i < N; i++) { /* complementarity checked directly */
            ck_assert_double_ge(z[i], 0.0);
            ck_assert_double_ge(w[i], -1e-12);
            ck_assert_double_le(fabs(z[i] * w[i]), 1e-12);
        }
    }
    mcd_solver_ws_free(ws);
    mcd_mlcp_free(&p);
}
END_TEST

/* Degenerate LCPs found by a random search on which this Lemke code
 * cycles (more than 200 pivots) when the lexicographic step of the ratio
 * test is replaced by a smallest-index (first problem) or largest-index
 * (second problem) tie-break; the lexicographic rule solves both in a few
 * pivots. */
START_TEST(lemke_lexicographic_rule_avoids_cycling)
{
    double M[2][9] = {{3, -1, 3, 0, 2, -3, 2, 1, 0}, {1, -1, -1, 3, 0, 2, 3, 2, 1}};
    double q[2][3] = {{-1, -1, -1}, {-2, -2, -2}};
    const double z_star[2][3] = {{0.5, 0.5, 0}, {2, 0, 0}};
    double lo[3] = {0, 0, 0}, hi[3] = {INFINITY, INFINITY, INFINITY}, z[3];
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(3, &ws, NULL), MCD_OK);
    for (int c = 0; c < 2; c++) {
        mcd_mlcp p = {3, M[c], q[c], lo, hi};
        mcd_solver_stats st;
        ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, &p, NULL, z, &st, NULL), MCD_OK);
        ck_assert_double_le(tu_max_diff(3, z, z_star[c]), 1e-12);
        ck_assert_int_le(st.iterations, 10);
    }
    mcd_solver_ws_free(ws);
}
END_TEST

/* w1 = z1 - z2 - 1, w2 = -z1 + z2 - 1: w1 + w2 = -2 < 0, no solution; M is
 * positive semidefinite (copositive-plus), so Lemke ends on a ray. */
START_TEST(lemke_ray_termination_is_infeasible)
{
    double M[4] = {1, -1, -1, 1}, q[2] = {-1, -1}, lo[2] = {0, 0}, hi[2] = {INFINITY, INFINITY};
    mcd_mlcp p = {2, M, q, lo, hi};
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(2, &ws, NULL), MCD_OK);
    double z[2];
    mcd_solver_stats st;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, &p, NULL, z, &st, &err),
                     MCD_ERR_INFEASIBLE);
    ck_assert_int_eq(st.status, MCD_ERR_INFEASIBLE);
    ck_assert_int_eq(err.status, MCD_ERR_INFEASIBLE);
    ck_assert(err.msg[0] != '\0');
    mcd_solver_ws_free(ws);
}
END_TEST

/* Frictional contact with bilateral rows: 2 sticking, 2 sliding and 2
 * separating contacts. */
START_TEST(fc3d_stick_slip_separate)
{
    enum { NC = 6, NB = 3, N = NB + 3 * NC };
    const int regime[NC] = {TU_STICK, TU_SLIP, TU_SEPARATE, TU_SLIP, TU_STICK, TU_SEPARATE};
    tu_rng rng = {34};
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(N, &ws, NULL), MCD_OK);
    for (int t = 0; t < TRIALS; t++) {
        mcd_fc3d p;
        double r_star[N], u_star[N], r[N], u[N];
        tu_fc3d_with_solution(&rng, NC, NB, regime, &p, r_star, u_star);
        for (int k = 0; k < 3; k++) {
            mcd_solver_opts o = opts_for(mncp_kinds[k]);
            mcd_solver_stats st;
            mcd_error err = {0};
            mcd_status s = mcd_solve_fc3d(ws, mncp_kinds[k], &p, &o, r, u, &st, &err);
            ck_assert_msg(s == MCD_OK, "%s trial %d: %s", mcd_solver_name(mncp_kinds[k]), t,
                          err.msg);
            double viol = tu_coulomb_violation(&p, r, SLIDE_TOL);
            ck_assert_msg(viol < COULOMB_TOL, "%s trial %d: Coulomb violated by %g",
                          mcd_solver_name(mncp_kinds[k]), t, viol);
            ck_assert_double_le(st.error, ERROR_TOL);
            ck_assert_double_eq_tol(mcd_fc3d_error(&p, r, NULL), st.error, 1e-15);
            /* u returned is W r + q, recomputed here */
            for (int i = 0; i < N; i++) {
                double wi = p.q[i];
                for (int j = 0; j < N; j++) wi += p.W[i * N + j] * r[j];
                ck_assert_msg(fabs(u[i] - wi) <= 1e-12 * (1 + fabs(wi)), "u[%d] %g, W r + q %g", i,
                              u[i], wi);
            }
            /* the constructed regimes are recovered (the solution is unique
             * for these well-conditioned W) */
            ck_assert_msg(tu_max_diff(N, r, r_star) < 1e-6, "%s trial %d: |r - r*| = %g",
                          mcd_solver_name(mncp_kinds[k]), t, tu_max_diff(N, r, r_star));
        }
        mcd_fc3d_free(&p);
    }
    mcd_solver_ws_free(ws);
}
END_TEST

/* A warm start at the solution converges without iterating. */
START_TEST(fc3d_warm_start_at_solution)
{
    enum { NC = 4, NB = 0, N = 3 * NC };
    const int regime[NC] = {TU_STICK, TU_SLIP, TU_SEPARATE, TU_SLIP};
    tu_rng rng = {35};
    mcd_fc3d p;
    double r_star[N], u_star[N], r[N], u[N];
    tu_fc3d_with_solution(&rng, NC, NB, regime, &p, r_star, u_star);
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(N, &ws, NULL), MCD_OK);
    for (int k = 0; k < 3; k++) {
        mcd_solver_opts o = opts_for(mncp_kinds[k]);
        o.warm_start = 1;
        for (int i = 0; i < N; i++) r[i] = r_star[i];
        mcd_solver_stats st;
        ck_assert_int_eq(mcd_solve_fc3d(ws, mncp_kinds[k], &p, &o, r, u, &st, NULL), MCD_OK);
        ck_assert_int_eq(st.iterations, 0);
        ck_assert_double_le(tu_max_diff(N, r, r_star), 1e-12);
    }
    mcd_solver_ws_free(ws);
    mcd_fc3d_free(&p);
}
END_TEST

/* RLM accepts a step only if it decreases psi (Sec. 5.1, r > 0) and PLM
 * returns the best point seen (watchdog): the psi reported after k
 * iterations never increases with k. The LCP (M = U(-1, 1) + 3 I) started
 * at 30 U(-1, 1) is one where an RLM accepting every step would raise psi
 * once before converging. */
START_TEST(merit_never_increases_with_the_budget)
{
    enum { N = 10 };
    tu_rng rng = {11};
    mcd_mlcp p;
    mcd_mlcp_alloc(&p, N, NULL);
    for (int i = 0; i < N * N; i++) p.M[i] = tu_uniform(&rng, -1, 1);
    for (int i = 0; i < N; i++) {
        p.M[i * N + i] += 3;
        p.q[i] = tu_uniform(&rng, -5, 5);
    }
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(N, &ws, NULL), MCD_OK);
    for (int k = 0; k < 2; k++) {
        double last = INFINITY, z[N];
        mcd_status s = MCD_ERR_NOT_CONVERGED;
        for (int budget = 1; budget <= 60 && s != MCD_OK; budget++) {
            mcd_solver_opts o = opts_for(mlcp_kinds[k]);
            o.max_iter = budget;
            o.warm_start = 1;
            tu_rng start = {78};
            for (int i = 0; i < N; i++) z[i] = 30 * tu_uniform(&start, -1, 1);
            mcd_solver_stats st;
            s = mcd_solve_mlcp(ws, mlcp_kinds[k], &p, &o, z, &st, NULL);
            ck_assert(s == MCD_OK || s == MCD_ERR_NOT_CONVERGED);
            ck_assert_msg(st.psi <= last, "%s: psi %g after %d iterations > %g before",
                          mcd_solver_name(mlcp_kinds[k]), st.psi, budget, last);
            last = st.psi;
        }
        ck_assert_int_eq(s, MCD_OK);
    }
    mcd_solver_ws_free(ws);
    mcd_mlcp_free(&p);
}
END_TEST

/* Too few iterations of the method alone: MCD_ERR_NOT_CONVERGED, stats
 * filled, and the iterate left is the one the stats describe. */
START_TEST(non_convergence_is_a_status)
{
    enum { NC = 6, NB = 2, N = NB + 3 * NC };
    const int regime[NC] = {TU_STICK, TU_SLIP, TU_SEPARATE, TU_SLIP, TU_STICK, TU_SEPARATE};
    tu_rng rng = {36};
    mcd_fc3d p;
    double r_star[N], u_star[N], r[N], u[N];
    tu_fc3d_with_solution(&rng, NC, NB, regime, &p, r_star, u_star);
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(N, &ws, NULL), MCD_OK);
    for (int k = 0; k < 2; k++) {
        mcd_solver_opts o = opts_for(mncp_kinds[k]);
        o.max_iter = 1;
        o.fallback = MCD_FALLBACK_NONE; /* the method alone */
        mcd_solver_stats st;
        mcd_error err = {0};
        ck_assert_int_eq(mcd_solve_fc3d(ws, mncp_kinds[k], &p, &o, r, u, &st, &err),
                         MCD_ERR_NOT_CONVERGED);
        ck_assert_int_eq(st.status, MCD_ERR_NOT_CONVERGED);
        ck_assert_int_eq(st.iterations, 1);
        ck_assert(err.msg[0] != '\0');
        ck_assert(isfinite(st.psi) && st.psi > 0);
        ck_assert_double_eq_tol(mcd_fc3d_error(&p, r, NULL), st.error, 1e-15);
        ck_assert_double_gt(st.error, ERROR_TOL);
    }
    /* Lemke out of pivots on Murty's problem (it needs more than 3). */
    enum { M = 6 };
    mcd_mlcp lcp;
    mcd_mlcp_alloc(&lcp, M, NULL);
    for (int i = 0; i < M; i++) {
        lcp.q[i] = -1;
        for (int j = 0; j < M; j++) lcp.M[i * M + j] = i == j ? 1.0 : (j < i ? 2.0 : 0.0);
    }
    mcd_solver_opts o = opts_for(MCD_SOLVER_MLCP_LEMKE);
    o.max_iter = 3;
    o.fallback = MCD_FALLBACK_NONE;
    double z[M];
    mcd_solver_stats st;
    ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, &lcp, &o, z, &st, NULL),
                     MCD_ERR_NOT_CONVERGED);
    ck_assert_int_eq(st.iterations, 3);
    mcd_mlcp_free(&lcp);
    mcd_solver_ws_free(ws);
    mcd_fc3d_free(&p);
}
END_TEST

static Suite *solvers_suite(void)
{
    Suite *s = suite_create("solver-solvers");
    TCase *tc = tcase_create("solvers");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, lcp_from_complementary_pair);
    tcase_add_test(tc, mlcp_with_equality_and_one_sided_rows);
    tcase_add_test(tc, mlcp_with_box_rows_pfb);
    tcase_add_test(tc, lemke_degenerate_problems);
    tcase_add_test(tc, lemke_lexicographic_rule_avoids_cycling);
    tcase_add_test(tc, lemke_ray_termination_is_infeasible);
    tcase_add_test(tc, fc3d_stick_slip_separate);
    tcase_add_test(tc, fc3d_warm_start_at_solution);
    tcase_add_test(tc, merit_never_increases_with_the_budget);
    tcase_add_test(tc, non_convergence_is_a_status);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(solvers_suite());
}

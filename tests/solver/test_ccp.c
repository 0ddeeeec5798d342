/* Cone complementarity solvers (include/mcdyn/ccp.h): the cone projection
 * against its definition, PGS / PJ / APGD on random problems with known
 * solutions built from the optimality conditions, bilateral rows, a
 * rank-deficient N, agreement of PGS and APGD on the Siconos problem files,
 * the complementarity measure in velocity units, non-convergence and bad
 * input. */
#include "common/check_main.h"
#include "mcdyn/ccp.h"
#include "mcdyn/problem_io.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOL_TOL   1e-8  /* |gamma - gamma*|_inf on SPD problems (N >= 1e-2 I) */
#define SOLVE_TOL 1e-11 /* solver tolerance on the CCP residual for those */

/* Regimes of a constructed CCP contact. */
enum { C_INTERIOR, C_BOUNDARY, C_ZERO, C_REGIMES };

/* gamma*_k and d*_k for one contact: interior (d = 0), on the boundary of
 * K (d on the boundary of K^*, orthogonal to gamma) or zero (d strictly
 * inside K^*). */
static void ccp_contact(tu_rng *rng, int regime, double mu, double *g, double *d)
{
    double th = tu_uniform(rng, 0, 2 * acos(-1.0)), c = cos(th), s = sin(th);
    for (int j = 0; j < 3; j++) g[j] = d[j] = 0.0;
    if (regime == C_ZERO) {
        double dt = tu_uniform(rng, 0, 1);
        d[0] = mu * dt + tu_uniform(rng, 0.2, 1.5);
        d[1] = dt * c;
        d[2] = dt * s;
        return;
    }
    g[0] = tu_uniform(rng, 0.5, 2);
    double rho = regime == C_INTERIOR ? tu_uniform(rng, 0.1, 0.8) : 1.0;
    g[1] = rho * mu * g[0] * c;
    g[2] = rho * mu * g[0] * s;
    if (regime == C_BOUNDARY) { /* d = sigma (mu, -u), u = g_T / |g_T| */
        double sig = tu_uniform(rng, 0.2, 1.5);
        d[0] = sig * mu;
        d[1] = -sig * c;
        d[2] = -sig * s;
    }
}

/* Fills p (allocated) with N = W given, mu in [0.2, 0.8], and r = d* - N
 * gamma*. Bilateral rows: gamma* in [-1, 1], d* = 0. */
static void ccp_problem(tu_rng *rng, mcd_fc3d *p, const int *regime, double *gs, double *ds)
{
    int n = mcd_fc3d_size(p);
    for (int i = 0; i < p->nb; i++) {
        gs[i] = tu_uniform(rng, -1, 1);
        ds[i] = 0.0;
    }
    for (int k = 0; k < p->nc; k++) {
        p->mu[k] = tu_uniform(rng, 0.2, 0.8);
        ccp_contact(rng, regime[k], p->mu[k], gs + p->nb + 3 * k, ds + p->nb + 3 * k);
    }
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += p->W[i * n + j] * gs[j];
        p->q[i] = ds[i] - s;
    }
}

static double objective(const mcd_fc3d *p, const double *g)
{
    int n = mcd_fc3d_size(p);
    double f = 0;
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += p->W[i * n + j] * g[j];
        f += g[i] * (0.5 * s + p->q[i]);
    }
    return f;
}

typedef mcd_status (*ccp_solver)(const mcd_fc3d *, const mcd_ccp_opts *, double *, double *,
                                 mcd_ccp_stats *, mcd_error *);

/* Solves from gamma = 0 and checks the status and the reported residual
 * against an independent evaluation. Returns the iterations. */
static int solve_ok(ccp_solver f, const mcd_fc3d *p, const mcd_ccp_opts *o, double *g)
{
    int n = mcd_fc3d_size(p);
    double *work = malloc((mcd_ccp_work_size(p) + 1) * sizeof *work), *d = malloc((n + 1) * 8);
    memset(g, 0, (size_t)n * sizeof *g);
    mcd_ccp_stats st;
    mcd_error err = {0};
    mcd_status s = f(p, o, g, work, &st, &err);
    ck_assert_msg(s == MCD_OK, "status %d: %s", s, err.msg);
    ck_assert_int_eq(st.status, MCD_OK);
    ck_assert(st.residual <= o->tol);
    mcd_ccp_stats chk;
    ck_assert_int_eq(mcd_ccp_residual(p, g, d, &chk), MCD_OK);
    ck_assert_double_eq(chk.residual, st.residual);
    ck_assert(st.seconds >= 0);
    free(work);
    free(d);
    return st.iterations;
}

/* ---- projection ---- */

START_TEST(projection_matches_definition)
{
    tu_rng rng = {101};
    for (int t = 0; t < 20000; t++) {
        double mu = t % 10 == 0 ? 0.0 : tu_uniform(&rng, 0.01, 3.0);
        double x[3] = {tu_uniform(&rng, -3, 3), tu_uniform(&rng, -3, 3), tu_uniform(&rng, -3, 3)};
        double scale = 1 + sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        const double tol = 1e-14 * scale; /* rounding of O(scale) quantities */
        double px[3] = {x[0], x[1], x[2]};
        ck_assert_int_eq(mcd_ccp_project(mu, px), MCD_OK);
        /* In the cone. */
        ck_assert(px[0] >= 0);
        ck_assert(hypot(px[1], px[2]) <= mu * px[0] + tol);
        /* Idempotent. */
        double ppx[3] = {px[0], px[1], px[2]};
        mcd_ccp_project(mu, ppx);
        for (int j = 0; j < 3; j++) ck_assert_double_eq_tol(ppx[j], px[j], tol);
        /* v = x - Pi x in the polar cone {v_n <= -mu |v_T|}, orthogonal to Pi x. */
        double v[3] = {x[0] - px[0], x[1] - px[1], x[2] - px[2]};
        ck_assert(v[0] + mu * hypot(v[1], v[2]) <= tol * (1 + mu));
        ck_assert_double_eq_tol(v[0] * px[0] + v[1] * px[1] + v[2] * px[2], 0.0, tol * scale);
        /* The nearest point: no random cone point is closer. */
        double dist = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        double yn = tu_uniform(&rng, 0, 3), th = tu_uniform(&rng, 0, 6.3),
               yt = mu * yn * tu_uniform(&rng, 0, 1);
        double e[3] = {x[0] - yn, x[1] - yt * cos(th), x[2] - yt * sin(th)};
        ck_assert(sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]) >= dist - tol);
    }
}
END_TEST

START_TEST(projection_cases_and_bad_input)
{
    double a[3] = {1, 0.3, 0.4}; /* inside (|t| = 0.5 <= 0.5 * 1) */
    ck_assert_int_eq(mcd_ccp_project(0.5, a), MCD_OK);
    ck_assert(a[0] == 1 && a[1] == 0.3 && a[2] == 0.4);
    double b[3] = {-2, 3, 4}; /* mu |t| = 2.5 <= 2: no; mu = 0.4: 2 <= 2 -> zero */
    ck_assert_int_eq(mcd_ccp_project(0.4, b), MCD_OK);
    ck_assert(b[0] == 0 && b[1] == 0 && b[2] == 0);
    double c[3] = {1, 3, 4}; /* mu = 1: n' = (1 + 5) / 2 = 3, t' = 3 (0.6, 0.8) */
    ck_assert_int_eq(mcd_ccp_project(1.0, c), MCD_OK);
    ck_assert_double_eq_tol(c[0], 3.0, 1e-15);
    ck_assert_double_eq_tol(c[1], 1.8, 1e-15);
    ck_assert_double_eq_tol(c[2], 2.4, 1e-15);
    double f[3] = {2, 1, -1}; /* mu = 0: (max(n, 0), 0, 0) */
    ck_assert_int_eq(mcd_ccp_project(0.0, f), MCD_OK);
    ck_assert(f[0] == 2 && f[1] == 0 && f[2] == 0);
    double x[3] = {1, 2, 3};
    ck_assert_int_eq(mcd_ccp_project(-0.1, x), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_ccp_project(NAN, x), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_ccp_project(INFINITY, x), MCD_ERR_NONFINITE);
    ck_assert_int_eq(mcd_ccp_project(0.5, NULL), MCD_ERR_ARG);
    x[1] = NAN;
    ck_assert_int_eq(mcd_ccp_project(0.5, x), MCD_ERR_NONFINITE);
    ck_assert(x[0] == 1 && x[2] == 3);
}
END_TEST

/* ---- known solutions ---- */

/* shift: N = B B^T / n + shift I; SOL_TOL holds for shift >= 1e-2 (the
 * error is about tol / lambda_min(N)). */
static void known_solution_case(int seed, int nc, int nb, int jacobi_too, double shift)
{
    tu_rng rng = {(uint64_t)seed};
    mcd_fc3d p;
    ck_assert_int_eq(mcd_fc3d_alloc(&p, nc, nb, NULL), MCD_OK);
    int n = mcd_fc3d_size(&p);
    tu_spd_matrix(&rng, n, shift, p.W);
    int *regime = calloc(nc + 1, sizeof *regime);
    for (int k = 0; k < nc; k++) regime[k] = (k + seed) % C_REGIMES;
    double *gs = malloc((n + 1) * 8), *ds = malloc((n + 1) * 8), *g = malloc((n + 1) * 8);
    ccp_problem(&rng, &p, regime, gs, ds);
    mcd_ccp_opts o = mcd_ccp_default_opts();
    o.tol = SOLVE_TOL;
    o.max_iter = 200000;
    solve_ok(mcd_ccp_solve_pgs, &p, &o, g);
    ck_assert(tu_max_diff(n, g, gs) <= SOL_TOL);
    solve_ok(mcd_ccp_solve_apgd, &p, &o, g);
    ck_assert(tu_max_diff(n, g, gs) <= SOL_TOL);
    if (jacobi_too) {
        o.jacobi = 1;
        o.omega = 0.3; /* omega eta lambda_max(N) < 2 for these sizes */
        solve_ok(mcd_ccp_solve_pgs, &p, &o, g);
        ck_assert(tu_max_diff(n, g, gs) <= SOL_TOL);
    }
    free(regime);
    free(gs);
    free(ds);
    free(g);
    mcd_fc3d_free(&p);
}

START_TEST(known_solutions_contacts_only)
{
    for (int seed = 1; seed <= 6; seed++) known_solution_case(seed, 3 + 2 * seed, 0, 1, 0.5);
}
END_TEST

START_TEST(known_solutions_with_bilateral_rows)
{
    for (int seed = 11; seed <= 16; seed++) known_solution_case(seed, seed - 8, seed - 10, 1, 0.5);
}
END_TEST

START_TEST(bilateral_rows_only)
{
    /* nc = 0: the CCP is the linear system N gamma = -r. */
    known_solution_case(21, 0, 7, 1, 0.5);
}
END_TEST

START_TEST(larger_problem)
{
    known_solution_case(31, 40, 6, 0, 0.5);
}
END_TEST

START_TEST(ill_conditioned_problems)
{
    known_solution_case(41, 20, 4, 1, 1e-2);
    known_solution_case(42, 60, 0, 0, 1e-2);
}
END_TEST

/* N = A A^T with A of rank m < n and duplicated contacts: gamma is not
 * unique, but d = N gamma + r and the objective are, and the residual still
 * converges. With f(gamma) - f* <= eps, |N (gamma - gamma*)|^2 <=
 * 2 lambda_max eps, hence a looser tolerance on d than on f (measured:
 * f - f* <= 2.2e-16, |d - d*| <= 3.5e-9). */
START_TEST(rank_deficient_redundant_rows)
{
    tu_rng rng = {41};
    const int nc = 8, nb = 2, m = 12; /* n = 26 > m */
    mcd_fc3d p;
    ck_assert_int_eq(mcd_fc3d_alloc(&p, nc, nb, NULL), MCD_OK);
    int n = mcd_fc3d_size(&p);
    double *A = malloc((size_t)n * m * sizeof *A);
    for (int i = 0; i < n * m; i++) A[i] = tu_uniform(&rng, -1, 1);
    /* Contacts 6 and 7 repeat the rows of contacts 0 and 1 (coplanar copies). */
    for (int k = 0; k < 2; k++)
        memcpy(A + (size_t)(nb + 3 * (6 + k)) * m, A + (size_t)(nb + 3 * k) * m, 3 * m * sizeof *A);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int l = 0; l < m; l++) s += A[i * m + l] * A[j * m + l];
            p.W[i * n + j] = s / m;
        }
    int regime[8] = {C_BOUNDARY, C_INTERIOR, C_ZERO, C_BOUNDARY,
                     C_INTERIOR, C_ZERO,     C_ZERO, C_BOUNDARY};
    double *gs = malloc(n * 8), *ds = malloc(n * 8), *g = malloc(n * 8), *d = malloc(n * 8);
    ccp_problem(&rng, &p, regime, gs, ds);
    double fstar = objective(&p, gs);
    mcd_ccp_opts o = mcd_ccp_default_opts();
    o.tol = 1e-9;
    o.max_iter = 500000;
    ccp_solver solvers[2] = {mcd_ccp_solve_pgs, mcd_ccp_solve_apgd};
    for (int s = 0; s < 2; s++) {
        solve_ok(solvers[s], &p, &o, g);
        mcd_ccp_stats st;
        mcd_ccp_residual(&p, g, d, &st);
        ck_assert_double_eq_tol(objective(&p, g), fstar, 1e-7); /* O(tol |gamma|) */
        ck_assert(tu_max_diff(n, d, ds) <= 1e-6);
    }
    free(A);
    free(gs);
    free(ds);
    free(g);
    free(d);
    mcd_fc3d_free(&p);
}
END_TEST

/* Frictionless contacts (mu = 0) reduce to an LCP in the normals. */
START_TEST(frictionless_contacts)
{
    tu_rng rng = {51};
    mcd_fc3d p;
    ck_assert_int_eq(mcd_fc3d_alloc(&p, 5, 1, NULL), MCD_OK);
    int n = mcd_fc3d_size(&p);
    tu_spd_matrix(&rng, n, 0.5, p.W);
    int regime[5] = {C_BOUNDARY, C_ZERO, C_BOUNDARY, C_ZERO, C_BOUNDARY};
    double gs[16], ds[16], g[16];
    ccp_problem(&rng, &p, regime, gs, ds);
    for (int k = 0; k < 5; k++) p.mu[k] = 0.0; /* boundary with mu = 0: g_T = 0, d_n = 0 */
    for (int k = 0; k < 5; k++) {
        double *gk = gs + 1 + 3 * k, *dk = ds + 1 + 3 * k;
        gk[1] = gk[2] = 0.0;
        dk[0] = regime[k] == C_ZERO ? 1.0 : 0.0;
    }
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += p.W[i * n + j] * gs[j];
        p.q[i] = ds[i] - s;
    }
    mcd_ccp_opts o = mcd_ccp_default_opts();
    o.tol = SOLVE_TOL;
    o.max_iter = 200000;
    solve_ok(mcd_ccp_solve_pgs, &p, &o, g);
    ck_assert(tu_max_diff(n, g, gs) <= SOL_TOL);
    solve_ok(mcd_ccp_solve_apgd, &p, &o, g);
    ck_assert(tu_max_diff(n, g, gs) <= SOL_TOL);
    mcd_fc3d_free(&p);
}
END_TEST

/* ---- shared problem files ---- */

/* PGS (default omega) and APGD agree on the Siconos frictional-contact
 * files of $MCDYN_SHARED/data/fc3d. The CCP is not Coulomb's law, so only the
 * two CCP solvers are compared: both reach residual 1e-9, the objectives
 * agree to 1e-8 (1 + |f|) and d = N gamma + r (unique at the exact
 * solution) to 1e-5, since |N (g1 - g2)|^2 <= 2 lambda_max (f gaps) with
 * gaps ~ 1e-12 (measured at worst: 2.6e-11 on f, Rover1040, and 1.5e-6 on
 * d, FrictionContactProblem00031); gamma is not compared (N is singular or
 * nearly so on these files). */
START_TEST(pgs_and_apgd_agree_on_problem_files)
{
    static const char *const files[] = {"FC3D_Example1.dat",
                                        "FrictionContact3D_1c.dat",
                                        "FrictionContactProblem00031.dat",
                                        "NESpheres_10_1.dat",
                                        "Rover1039.dat",
                                        "Rover1040.dat",
                                        "Rover11035.dat",
                                        "Rover4396.dat"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        mcd_problem_file f = tu_read_shared_fc3d(files[i]);
        const mcd_fc3d *p = &f.fc3d;
        int n = mcd_fc3d_size(p);
        double *g1 = malloc(n * 8), *g2 = malloc(n * 8), *d1 = malloc(n * 8), *d2 = malloc(n * 8);
        mcd_ccp_opts o = mcd_ccp_default_opts();
        o.tol = 1e-9;
        o.max_iter = 100000;
        solve_ok(mcd_ccp_solve_pgs, p, &o, g1);
        solve_ok(mcd_ccp_solve_apgd, p, &o, g2);
        mcd_ccp_stats st;
        mcd_ccp_residual(p, g1, d1, &st);
        mcd_ccp_residual(p, g2, d2, &st);
        double f1 = objective(p, g1), f2 = objective(p, g2);
        ck_assert_msg(fabs(f1 - f2) <= 1e-8 * (1 + fabs(f1)), "%s: f %g vs %g", files[i], f1, f2);
        ck_assert_msg(tu_max_diff(n, d1, d2) <= 1e-5, "%s: d differs by %g", files[i],
                      tu_max_diff(n, d1, d2));
        free(g1);
        free(g2);
        free(d1);
        free(d2);
        mcd_problem_file_free(&f);
    }
}
END_TEST

/* ---- the complementarity measure in velocity units ---- */

/* A box corner at rest (docs/solvers.md, "Warm start"): impulse
 * gamma = (2.5e-3, 0, 0) N s (m g h / 4 of a 1 kg box, h = 1 ms) with the
 * contact still closing at d = (3e-7, 0, 0) m/s, so gamma . d = 7.5e-10.
 * The measure (the natural map |gamma - Pi_K(gamma - eta d)| / eta, in
 * velocity units) must report the velocity 3e-7: gamma - eta d stays inside
 * K, so the map is eta d / eta = d. The old gamma . d / max(1, |gamma|) =
 * 7.5e-10 passed tol = 1e-9. A solve warm started there must go on until
 * the contact velocity is below tol. W is a made-up SPD block of a
 * corner's order (1/m + r^2/I). */
START_TEST(complementarity_is_a_velocity)
{
    double W[9] = {2.0, 0.3, 0.1, 0.3, 3.0, 0.2, 0.1, 0.2, 3.0}, mu[1] = {0.5};
    const double gamma0[3] = {2.5e-3, 0.0, 0.0}, d0[3] = {3e-7, 0.0, 0.0};
    double q[3];
    for (int i = 0; i < 3; i++)
        q[i] = d0[i] - (W[3 * i] * gamma0[0] + W[3 * i + 1] * gamma0[1] + W[3 * i + 2] * gamma0[2]);
    mcd_fc3d p = {1, 0, W, q, mu};
    double d[3], g[3], work[32];
    mcd_ccp_stats st;
    ck_assert_int_eq(mcd_ccp_residual(&p, gamma0, d, &st), MCD_OK);
    /* gamma0 is in K and d0 in K^* (d_T = 0): only complementarity is off,
     * by |gamma0 . d0| / |gamma0| = 3e-7 (rounding of q: 1e-15 relative). */
    ck_assert_double_eq_tol(st.complementarity, 3e-7, 1e-12);
    ck_assert_double_eq_tol(st.residual, 3e-7, 1e-12);
    ccp_solver solvers[2] = {mcd_ccp_solve_pgs, mcd_ccp_solve_apgd};
    mcd_ccp_opts o = mcd_ccp_default_opts();
    o.tol = 1e-9;
    for (int s = 0; s < 2; s++) {
        memcpy(g, gamma0, sizeof g);
        mcd_error err = {0};
        ck_assert_msg(solvers[s](&p, &o, g, work, &st, &err) == MCD_OK, "%s", err.msg);
        ck_assert_int_gt(st.iterations, 0);
        mcd_ccp_residual(&p, g, d, &st);
        /* The solution sticks (gamma* = gamma0 - W^-1 d0 is inside K): d* = 0,
         * so the normal velocity is the measure along gamma ~ (1, 0, 0) up to
         * the tangential tilt of gamma (|g_T| / g_n ~ 1e-5): <= 1.01 tol. */
        ck_assert_msg(fabs(d[0]) <= 1.01 * o.tol, "d_n = %g", d[0]);
    }
}
END_TEST

/* ---- non-convergence and bad input ---- */

static double W2[49], q2[7], mu2[2] = {0.5, 0.3};

static mcd_fc3d small_problem(void)
{
    tu_rng rng = {61};
    tu_spd_matrix(&rng, 7, 0.5, W2);
    for (int i = 0; i < 7; i++) q2[i] = tu_uniform(&rng, -1, 1);
    q2[1] = -1.0; /* push into contact */
    mcd_fc3d p = {2, 1, W2, q2, mu2};
    return p;
}

START_TEST(not_converged_returns_best_iterate)
{
    mcd_fc3d p = small_problem();
    mcd_ccp_opts o = mcd_ccp_default_opts();
    o.max_iter = 2;
    o.tol = 1e-15;
    ccp_solver solvers[2] = {mcd_ccp_solve_pgs, mcd_ccp_solve_apgd};
    for (int s = 0; s < 2; s++) {
        double g[7] = {0}, work[64], d[7];
        mcd_ccp_stats st, chk;
        mcd_error err = {0};
        ck_assert_int_eq(solvers[s](&p, &o, g, work, &st, &err), MCD_ERR_NOT_CONVERGED);
        ck_assert_int_eq(st.status, MCD_ERR_NOT_CONVERGED);
        ck_assert_int_eq(st.iterations, 2);
        ck_assert(strlen(err.msg) > 0);
        mcd_ccp_residual(&p, g, d, &chk);
        ck_assert_double_eq(chk.residual, st.residual);
        ck_assert(st.residual > o.tol && isfinite(st.residual));
        /* NULL stats and err are allowed. */
        memset(g, 0, sizeof g);
        ck_assert_int_eq(solvers[s](&p, &o, g, work, NULL, NULL), MCD_ERR_NOT_CONVERGED);
    }
}
END_TEST

START_TEST(bad_input)
{
    mcd_fc3d p = small_problem();
    mcd_ccp_opts o = mcd_ccp_default_opts();
    ccp_solver solvers[2] = {mcd_ccp_solve_pgs, mcd_ccp_solve_apgd};
    double work[64], d[7];
    mcd_ccp_stats st;
    ck_assert_uint_eq(mcd_ccp_work_size(&p), 42);
    ck_assert_uint_eq(mcd_ccp_work_size(NULL), 0);
    for (int s = 0; s < 2; s++) {
        double g[7] = {0};
        mcd_error err = {0};
        mcd_fc3d b = p;
        double W[49], q[7], mu[2];
        /* NaN / Inf in W, q, mu. */
        memcpy(W, W2, sizeof W);
        W[8] = NAN;
        b.W = W;
        ck_assert_int_eq(solvers[s](&b, &o, g, work, &st, &err), MCD_ERR_NONFINITE);
        ck_assert_int_eq(st.status, MCD_ERR_NONFINITE);
        ck_assert(strlen(err.msg) > 0);
        b = p;
        memcpy(q, q2, sizeof q);
        q[3] = INFINITY;
        b.q = q;
        ck_assert_int_eq(solvers[s](&b, &o, g, work, &st, &err), MCD_ERR_NONFINITE);
        b = p;
        mu[0] = 0.5;
        mu[1] = INFINITY;
        b.mu = mu;
        ck_assert_int_eq(solvers[s](&b, &o, g, work, &st, &err), MCD_ERR_NONFINITE);
        /* Negative mu, sizes, NULL pointers. */
        mu[1] = -0.1;
        err.msg[0] = '\0';
        ck_assert_int_eq(solvers[s](&b, &o, g, work, &st, &err), MCD_ERR_ARG);
        ck_assert(strlen(err.msg) > 0);
        b = p;
        b.nb = -1;
        ck_assert_int_eq(solvers[s](&b, &o, g, work, &st, &err), MCD_ERR_ARG);
        b = p;
        b.W = NULL;
        ck_assert_int_eq(solvers[s](&b, &o, g, work, &st, &err), MCD_ERR_ARG);
        ck_assert_int_eq(solvers[s](NULL, &o, g, work, &st, &err), MCD_ERR_ARG);
        ck_assert_int_eq(solvers[s](&p, NULL, g, work, &st, &err), MCD_ERR_ARG);
        ck_assert_int_eq(solvers[s](&p, &o, NULL, work, &st, &err), MCD_ERR_ARG);
        ck_assert_int_eq(solvers[s](&p, &o, g, NULL, &st, &err), MCD_ERR_ARG);
        /* Options. */
        mcd_ccp_opts bo = o;
        bo.tol = 0;
        ck_assert_int_eq(solvers[s](&p, &bo, g, work, &st, &err), MCD_ERR_ARG);
        bo = o;
        bo.tol = NAN;
        ck_assert_int_eq(solvers[s](&p, &bo, g, work, &st, &err), MCD_ERR_ARG);
        bo = o;
        bo.max_iter = 0;
        ck_assert_int_eq(solvers[s](&p, &bo, g, work, &st, &err), MCD_ERR_ARG);
        /* Non-finite initial guess: gamma left unchanged. */
        g[4] = NAN;
        ck_assert_int_eq(solvers[s](&p, &o, g, work, &st, &err), MCD_ERR_NONFINITE);
        ck_assert(isnan(g[4]) && g[0] == 0);
    }
    /* Relaxation options only matter (and are checked) for PGS/PJ. */
    double g[7] = {0};
    mcd_ccp_opts bo = o;
    bo.omega = 2.0;
    ck_assert_int_eq(mcd_ccp_solve_pgs(&p, &bo, g, work, &st, NULL), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_ccp_solve_apgd(&p, &bo, g, work, &st, NULL), MCD_OK);
    bo = o;
    bo.lambda = 0.0;
    ck_assert_int_eq(mcd_ccp_solve_pgs(&p, &bo, g, work, &st, NULL), MCD_ERR_ARG);
    bo = o;
    bo.jacobi = 2;
    ck_assert_int_eq(mcd_ccp_solve_pgs(&p, &bo, g, work, &st, NULL), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_ccp_residual(NULL, g, d, &st), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_ccp_residual(&p, g, NULL, &st), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_ccp_residual(&p, g, d, NULL), MCD_ERR_ARG);
}
END_TEST

/* A divergent Jacobi iteration (omega too large for the coupling) stops
 * with NOT_CONVERGED and a finite best iterate instead of NaN. */
START_TEST(divergent_jacobi_is_reported)
{
    const int n = 30;
    mcd_fc3d p;
    ck_assert_int_eq(mcd_fc3d_alloc(&p, 10, 0, NULL), MCD_OK);
    for (int i = 0; i < n; i++) {
        p.q[i] = (i % 3 == 0) ? -1.0 : 0.1;
        for (int j = 0; j < n; j++) p.W[i * n + j] = 1.0 + (i == j ? 1e-3 : 0.0);
    }
    for (int k = 0; k < 10; k++) p.mu[k] = 0.5;
    mcd_ccp_opts o = mcd_ccp_default_opts();
    o.jacobi = 1;
    o.omega = 1.9;
    o.max_iter = 100000;
    double g[30] = {0}, work[180];
    mcd_ccp_stats st;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_ccp_solve_pgs(&p, &o, g, work, &st, &err), MCD_ERR_NOT_CONVERGED);
    ck_assert(isfinite(st.residual));
    for (int i = 0; i < n; i++) ck_assert(isfinite(g[i]));
    mcd_fc3d_free(&p);
}
END_TEST

static Suite *ccp_suite(void)
{
    Suite *s = suite_create("solver-ccp");
    TCase *tc = tcase_create("ccp");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, projection_matches_definition);
    tcase_add_test(tc, projection_cases_and_bad_input);
    tcase_add_test(tc, known_solutions_contacts_only);
    tcase_add_test(tc, known_solutions_with_bilateral_rows);
    tcase_add_test(tc, bilateral_rows_only);
    tcase_add_test(tc, larger_problem);
    tcase_add_test(tc, ill_conditioned_problems);
    tcase_add_test(tc, rank_deficient_redundant_rows);
    tcase_add_test(tc, frictionless_contacts);
    tcase_add_test(tc, pgs_and_apgd_agree_on_problem_files);
    tcase_add_test(tc, complementarity_is_a_velocity);
    tcase_add_test(tc, not_converged_returns_best_iterate);
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, divergent_jacobi_is_reported);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(ccp_suite());
}

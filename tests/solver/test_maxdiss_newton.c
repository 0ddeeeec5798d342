/* The semismooth Newton method for the multi-contact maximum-dissipation
 * law (mcd_maxdiss_newton) and the failure path of mcd_maxdiss_solve: one
 * contact equals the closed form, the same fixed point as block
 * Gauss-Seidel where that converges, captured scene steps where block
 * Gauss-Seidel stalls (also those that need the failure path's Coulomb
 * start), dissipation at solutions, the iteration cap and bad
 * input. Convention of include/mcdyn/impact.h: u = W r + q,
 * dT = 1/2 r'Wr + q'r; R the law's residual (velocity units). */
#include "common/check_main.h"
#include "mcdyn/impact.h"
#include "mcdyn/problem_io.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOL 1e-12 /* solver tolerance on R for problems of unit scale */

static double energy(const mcd_fc3d *p, const double *r)
{
    int n = mcd_fc3d_size(p);
    double e = 0.0;
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += p->W[i * n + j] * r[j];
        e += r[i] * (0.5 * s + p->q[i]);
    }
    return e;
}

static double norm_inf(int n, const double *x)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

static double *work_for(const mcd_fc3d *p)
{
    size_t n = mcd_maxdiss_work_size(p);
    ck_assert_uint_ge(n, mcd_maxdiss_newton_work_size(p));
    double *w = malloc(n * sizeof *w);
    ck_assert_ptr_nonnull(w);
    return w;
}

/* The Newton method alone, from r (its own options: tol, max_iter). */
static mcd_maxdiss_opts newton_opts(double tol, int max_iter)
{
    mcd_maxdiss_opts o = mcd_maxdiss_default_opts();
    o.tol = tol;
    o.max_iter = max_iter;
    return o;
}

/* Random problem as in test_maxdiss_bgs.c: W = B B^T / n + s I, q pure
 * velocities (no targets), mu in [0, 1.5] (every 7th contact 0). */
static void random_problem(tu_rng *rng, int nc, int nb, double shift, mcd_fc3d *p)
{
    ck_assert_int_eq(mcd_fc3d_alloc(p, nc, nb, NULL), MCD_OK);
    int n = mcd_fc3d_size(p);
    tu_spd_matrix(rng, n, shift, p->W);
    for (int i = 0; i < nb; i++) p->q[i] = tu_uniform(rng, -1, 1);
    for (int k = 0; k < nc; k++) {
        double *q = p->q + nb + 3 * k;
        p->mu[k] = k % 7 == 6 ? 0.0 : tu_uniform(rng, 0.0, 1.5);
        q[0] = tu_uniform(rng, -1, 0.2);
        q[1] = tu_uniform(rng, -1, 1);
        q[2] = tu_uniform(rng, -1, 1);
    }
}

/* One contact: Newton from r = 0 reaches the closed form of
 * mcd_maxdiss_single (separating, sticking, sliding, frictionless; the
 * closed form is exact, so agreement to 1e-9 relative checks the optimality
 * system and its Newton matrix, not a tolerance of the closed form). */
START_TEST(one_contact_equals_single)
{
    tu_rng rng = {21};
    for (int t = 0; t < 300; t++) {
        mcd_fc3d p;
        ck_assert_int_eq(mcd_fc3d_alloc(&p, 1, 0, NULL), MCD_OK);
        tu_spd_matrix(&rng, 3, tu_uniform(&rng, 0.01, 1.0), p.W);
        for (int i = 0; i < 3; i++) p.q[i] = tu_uniform(&rng, -1, 1);
        p.mu[0] = t % 25 == 1 ? 0.0 : tu_uniform(&rng, 0.0, 3.0);
        double x[3], r[3] = {0, 0, 0};
        ck_assert_int_eq(mcd_maxdiss_single(p.W, p.q, p.mu[0], x, NULL), MCD_OK);
        double *work = work_for(&p);
        mcd_maxdiss_opts o = newton_opts(TOL, 50);
        mcd_maxdiss_stats st;
        mcd_error err;
        ck_assert_msg(mcd_maxdiss_newton(&p, &o, r, work, &st, &err) == MCD_OK, "problem %d: %s", t,
                      err.msg);
        ck_assert_msg(tu_max_diff(3, r, x) <= 1e-9 * (1.0 + norm_inf(3, x)),
                      "problem %d: r (%g %g %g), closed form (%g %g %g)", t, r[0], r[1], r[2], x[0],
                      x[1], x[2]);
        ck_assert(st.residual <= TOL);
        ck_assert_double_eq_tol(st.energy, energy(&p, r), 1e-14);
        free(work);
        mcd_fc3d_free(&p);
    }
}
END_TEST

/* Where block Gauss-Seidel converges (W = B B^T / n + 0.5 I, 2-8 contacts,
 * bilateral rows on every third problem), Newton from r = 0 reaches the
 * same fixed point: W is positive definite here, so the same velocities
 * mean the same r; to 1e-9 relative, both run to R <= 1e-12. At the
 * solution dT <= 0 (docs/solvers.md, "What holds for several contacts":
 * q are pre-impulse velocities). */
START_TEST(same_fixed_point_as_block_gauss_seidel)
{
    tu_rng rng = {22};
    int compared = 0;
    for (int t = 0; t < 100; t++) {
        mcd_fc3d p;
        random_problem(&rng, 2 + t % 7, t % 3 == 0 ? 2 : 0, 0.5, &p);
        int n = mcd_fc3d_size(&p);
        double rb[40] = {0}, rn[40] = {0};
        double *work = work_for(&p);
        mcd_maxdiss_opts ob = mcd_maxdiss_default_opts();
        ob.tol = TOL, ob.max_iter = 5000, ob.newton_iter = 0;
        mcd_maxdiss_stats sb, sn;
        mcd_error err;
        ck_assert_msg(mcd_maxdiss_solve(&p, &ob, rb, work, &sb, &err) == MCD_OK, "problem %d: %s",
                      t, err.msg);
        mcd_maxdiss_opts o = newton_opts(TOL, 50);
        ck_assert_msg(mcd_maxdiss_newton(&p, &o, rn, work, &sn, &err) == MCD_OK, "problem %d: %s",
                      t, err.msg);
        ck_assert_msg(tu_max_diff(n, rn, rb) <= 1e-9 * (1.0 + norm_inf(n, rb)),
                      "problem %d: Newton and Gauss-Seidel differ by %g", t,
                      tu_max_diff(n, rn, rb));
        ck_assert(sn.energy <= 1e-12);
        compared++;
        free(work);
        mcd_fc3d_free(&p);
    }
    ck_assert_int_eq(compared, 100);
}
END_TEST

static mcd_problem_file read_captured(const char *file)
{
    char path[1024];
    const char *src = getenv("MCDYN_SOURCE");
    ck_assert_msg(src != NULL, "MCDYN_SOURCE is not set");
    snprintf(path, sizeof path, "%s/tests/solver_data/data/captured/%s", src, file);
    mcd_problem_file pf;
    mcd_error err;
    ck_assert_msg(mcd_problem_read_siconos(path, MCD_PROBLEM_FC3D, &pf, &err) == MCD_OK, "%s: %s",
                  file, err.msg);
    return pf;
}

/* Captured scene steps where block Gauss-Seidel stalls above the step
 * methods' tolerance 1e-9 after its 1000 sweeps (docs/solvers.md, "On the
 * contact-rich scenes"): with the failure path (the default options) the
 * solve reaches R <= 1e-9. Each is first checked to fail without it, so
 * the test shows what the Newton stage adds. */
START_TEST(failure_path_solves_stalled_steps)
{
    const char *files[] = {"a1_md_436.dat",      "a1_apgd_449.dat",      "a1_plm_531.dat",
                           "a1down_plm_340.dat", "solo12up_plm_745.dat", "tower_plm_64.dat"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        mcd_problem_file pf = read_captured(files[f]);
        mcd_fc3d *p = &pf.fc3d;
        int n = mcd_fc3d_size(p);
        double *r = calloc((size_t)n, sizeof *r), *work = work_for(p);
        mcd_maxdiss_opts o = mcd_maxdiss_default_opts();
        o.tol = 1e-9;
        o.newton_iter = 0;
        mcd_maxdiss_stats st;
        mcd_error err;
        ck_assert_int_eq(mcd_maxdiss_solve(p, &o, r, work, &st, &err), MCD_ERR_NOT_CONVERGED);
        ck_assert(st.residual > o.tol);
        memset(r, 0, (size_t)n * sizeof *r);
        o.newton_iter = mcd_maxdiss_default_opts().newton_iter;
        ck_assert_msg(mcd_maxdiss_solve(p, &o, r, work, &st, &err) == MCD_OK, "%s: %s", files[f],
                      err.msg);
        ck_assert(st.residual <= o.tol && st.newton_iterations > 0);
        /* R of the returned r, recomputed by the block iteration (0 sweeps) */
        o.newton_iter = 0;
        ck_assert_int_eq(mcd_maxdiss_solve(p, &o, r, work, &st, &err), MCD_OK);
        ck_assert_int_eq(st.iterations, 0);
        free(r);
        free(work);
        mcd_problem_file_free(&pf);
    }
}
END_TEST

/* Captured steps of maxdiss-bgs's own runs of the robots lying on the
 * floor (a1_drop_upside_down step 702, humanoid_flat step 1194; 16 and 12
 * contacts, W of rank 18 and less, normal-row targets a little outside its
 * range): Newton from the sweeps' stalled iterate ends at R = 1.1e-9 and
 * 1.0e-9 with OpenBLAS's Haswell and Zen kernels (docs/solvers.md, "The
 * Coulomb start"). From a Coulomb solution (mncp-plm in the workspace lent
 * by coulomb_ws) the failure path reaches R = 9.6e-12..3.9e-11 and 5.4e-11
 * (Haswell, Zen, SkylakeX kernels). So at tol 1e-10 (a decade below the
 * stall, twice the Coulomb start's worst): the a1 step fails without the
 * workspace, or with one too small for the problem, and is solved with it.
 * The humanoid's bare outcome depends on the BLAS kernel's rounding (with
 * SkylakeX Newton reaches 1.1e-12): only its Coulomb-start solve is
 * asserted. */
START_TEST(coulomb_start_solves_lying_robot_steps)
{
    const char *files[] = {"a1down_md_702.dat", "hum_md_1194.dat"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        mcd_problem_file pf = read_captured(files[f]);
        mcd_fc3d *p = &pf.fc3d;
        int n = mcd_fc3d_size(p);
        double *r = calloc((size_t)n, sizeof *r), *work = work_for(p);
        mcd_solver_ws *ws = NULL, *small = NULL;
        ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
        ck_assert_int_eq(mcd_solver_ws_create(n - 1, &small, NULL), MCD_OK);
        mcd_maxdiss_opts o = mcd_maxdiss_default_opts();
        o.tol = 1e-10;
        mcd_maxdiss_stats st;
        mcd_error err;
        if (f == 0) {
            ck_assert_int_eq(mcd_maxdiss_solve(p, &o, r, work, &st, &err), MCD_ERR_NOT_CONVERGED);
            ck_assert(st.residual > o.tol && st.newton_iterations > 0 &&
                      st.coulomb_iterations == 0);
            o.coulomb_ws = small;
            memset(r, 0, (size_t)n * sizeof *r);
            ck_assert_int_eq(mcd_maxdiss_solve(p, &o, r, work, &st, &err), MCD_ERR_NOT_CONVERGED);
            ck_assert_int_eq(st.coulomb_iterations, 0);
        }
        o.coulomb_ws = ws;
        memset(r, 0, (size_t)n * sizeof *r);
        ck_assert_msg(mcd_maxdiss_solve(p, &o, r, work, &st, &err) == MCD_OK, "%s: %s", files[f],
                      err.msg);
        ck_assert(st.residual <= o.tol && st.coulomb_iterations > 0);
        /* R of the returned r, recomputed by the block iteration (0 sweeps) */
        o.newton_iter = 0;
        ck_assert_int_eq(mcd_maxdiss_solve(p, &o, r, work, &st, &err), MCD_OK);
        ck_assert_int_eq(st.iterations, 0);
        mcd_solver_ws_free(ws);
        mcd_solver_ws_free(small);
        free(r);
        free(work);
        mcd_problem_file_free(&pf);
    }
}
END_TEST

/* A pile group from maxdiss-bgs's own run of models/sphere_pile.yaml (step
 * 73, 100 contacts, n = 300; docs/solvers.md, "Per scene (session 13)"),
 * with the step method's options (tol 1e-9, 1000 sweeps, the solver
 * workspace lent). The sweeps crawl (R about 1 / k), so they alone fail;
 * with the failure path the solve reaches R <= tol, the sweeps leave for it
 * in their slow tail (fewer than 1000) and the cheap Coulomb start
 * (mncp-nsn alone) is the one that solves: its Coulomb iterations are
 * mncp-nsn's on the problem, so mncp-plm's chain (5388 iterations and 41 s
 * of CPU on this group before session 13) never ran. */
START_TEST(pile_group_solved_from_the_cheap_start)
{
    mcd_problem_file pf = tu_read_fc3d_data("maxdiss_pile_73_group.dat");
    mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    ck_assert_int_eq(n, 300);
    double *r = calloc((size_t)n, sizeof *r), *work = work_for(p);
    mcd_solver_ws *ws = NULL;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    mcd_maxdiss_opts o = mcd_maxdiss_default_opts();
    o.tol = 1e-9, o.max_iter = 1000, o.coulomb_ws = ws, o.newton_iter = 0;
    mcd_maxdiss_stats st;
    mcd_error err;
    ck_assert_int_eq(mcd_maxdiss_solve(p, &o, r, work, &st, &err), MCD_ERR_NOT_CONVERGED);
    ck_assert(st.iterations == 1000 && st.residual > 1e3 * o.tol);
    memset(r, 0, (size_t)n * sizeof *r);
    o.newton_iter = mcd_maxdiss_default_opts().newton_iter;
    ck_assert_msg(mcd_maxdiss_solve(p, &o, r, work, &st, &err) == MCD_OK, "%s", err.msg);
    ck_assert(st.residual <= o.tol && st.iterations < o.max_iter);
    /* its Coulomb iterations are those of mncp-nsn alone on the problem */
    double *rc = calloc((size_t)n, sizeof *rc), *uc = calloc((size_t)n, sizeof *uc);
    mcd_solver_opts so = mcd_solver_default_opts(MCD_SOLVER_MNCP_NSN);
    mcd_solver_stats ss;
    mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_NSN, p, &so, rc, uc, &ss, NULL);
    ck_assert_int_gt(ss.iterations, 0);
    ck_assert_int_eq(st.coulomb_iterations, ss.iterations);
    free(rc);
    free(uc);
    /* R of the returned r, recomputed by the block iteration (0 sweeps) */
    o.newton_iter = 0;
    ck_assert_int_eq(mcd_maxdiss_solve(p, &o, r, work, &st, &err), MCD_OK);
    ck_assert_int_eq(st.iterations, 0);
    mcd_solver_ws_free(ws);
    free(r);
    free(work);
    mcd_problem_file_free(&pf);
}
END_TEST

/* A pile group from maxdiss-bgs's own run of models/sphere_pile.yaml (step
 * 88 of session 13's trajectory, 94 contacts, n = 282): Newton from
 * mncp-nsn's point with the failure path's probe budget (newton_iter / 20
 * per rung) stalls just above tol 1e-9 (1.05e-9 measured), and the block
 * Gauss-Seidel polish after it reaches tol (4.2e-10 in one sweep), so the
 * solve needs no other Coulomb start: its Coulomb iterations are mncp-nsn's
 * (before the polish, mncp-plm's chain ran: 55 s of CPU in the run). */
START_TEST(pile_group_newton_stall_polished)
{
    mcd_problem_file pf = tu_read_fc3d_data("maxdiss_pile_88_group.dat");
    mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    ck_assert_int_eq(n, 282);
    double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u);
    double *work = work_for(p);
    mcd_solver_ws *ws = NULL;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    mcd_solver_opts so = mcd_solver_default_opts(MCD_SOLVER_MNCP_NSN);
    mcd_solver_stats ss;
    mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_NSN, p, &so, r, u, &ss, NULL);
    mcd_maxdiss_opts o = newton_opts(1e-9, mcd_maxdiss_default_opts().newton_iter / 20);
    mcd_maxdiss_stats st;
    mcd_error err;
    ck_assert_int_eq(mcd_maxdiss_newton(p, &o, r, work, &st, &err), MCD_ERR_NOT_CONVERGED);
    ck_assert(st.residual > o.tol && st.residual < 10 * o.tol);
    memset(r, 0, (size_t)n * sizeof *r);
    o = mcd_maxdiss_default_opts();
    o.tol = 1e-9, o.max_iter = 1000, o.coulomb_ws = ws;
    ck_assert_msg(mcd_maxdiss_solve(p, &o, r, work, &st, &err) == MCD_OK, "%s", err.msg);
    ck_assert(st.residual <= o.tol);
    ck_assert_int_eq(st.coulomb_iterations, ss.iterations);
    /* R of the returned r, recomputed by the block iteration (0 sweeps) */
    o.newton_iter = 0;
    ck_assert_int_eq(mcd_maxdiss_solve(p, &o, r, work, &st, &err), MCD_OK);
    ck_assert_int_eq(st.iterations, 0);
    mcd_solver_ws_free(ws);
    free(r);
    free(u);
    free(work);
    mcd_problem_file_free(&pf);
}
END_TEST

/* The tower step tower_plm_58 (20 contacts, the stack): neither stage
 * reaches 1e-9 (docs/solvers.md: the bottom box's four normal velocities
 * have a part outside the range of W). Reported as not converged, with the
 * residual of the returned r, which is no worse than block Gauss-Seidel's
 * best. */
START_TEST(tower_step_reported_honestly)
{
    mcd_problem_file pf = read_captured("tower_plm_58.dat");
    mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    double *r = calloc((size_t)n, sizeof *r), *work = work_for(p);
    mcd_maxdiss_opts o = mcd_maxdiss_default_opts();
    o.tol = 1e-9, o.newton_iter = 0;
    mcd_maxdiss_stats st;
    mcd_error err;
    ck_assert_int_eq(mcd_maxdiss_solve(p, &o, r, work, &st, &err), MCD_ERR_NOT_CONVERGED);
    double bgs = st.residual;
    memset(r, 0, (size_t)n * sizeof *r);
    o.newton_iter = mcd_maxdiss_default_opts().newton_iter;
    ck_assert_int_eq(mcd_maxdiss_solve(p, &o, r, work, &st, &err), MCD_ERR_NOT_CONVERGED);
    ck_assert(st.residual <= bgs && st.residual > o.tol);
    double R = st.residual;
    o.newton_iter = 0, o.max_iter = 1;
    mcd_maxdiss_solve(p, &o, r, work, &st, &err); /* R at r before its one sweep */
    ck_assert(st.residual <= R);
    free(r);
    free(work);
    mcd_problem_file_free(&pf);
}
END_TEST

/* The cap: one Newton iteration from r = 0 on a stalled step is not
 * enough; not converged, statistics filled, r finite. */
START_TEST(iteration_cap)
{
    mcd_problem_file pf = read_captured("a1_md_436.dat");
    mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    double *r = calloc((size_t)n, sizeof *r), *work = work_for(p);
    mcd_maxdiss_opts o = newton_opts(1e-9, 1);
    mcd_maxdiss_stats st;
    mcd_error err;
    ck_assert_int_eq(mcd_maxdiss_newton(p, &o, r, work, &st, &err), MCD_ERR_NOT_CONVERGED);
    ck_assert_int_eq(st.status, MCD_ERR_NOT_CONVERGED);
    ck_assert(st.iterations >= 1 && st.iterations <= 8); /* one per rung, two passes */
    ck_assert(st.residual > o.tol && isfinite(st.residual));
    ck_assert(strlen(err.msg) > 0);
    for (int i = 0; i < n; i++) ck_assert(isfinite(r[i]));
    free(r);
    free(work);
    mcd_problem_file_free(&pf);
}
END_TEST

START_TEST(bad_input)
{
    mcd_fc3d p;
    ck_assert_int_eq(mcd_fc3d_alloc(&p, 2, 1, NULL), MCD_OK);
    tu_rng rng = {5};
    tu_spd_matrix(&rng, 7, 0.5, p.W);
    for (int i = 0; i < 7; i++) p.q[i] = tu_uniform(&rng, -1, 1);
    p.mu[0] = p.mu[1] = 0.5;
    double r[7] = {0}, *work = work_for(&p);
    mcd_maxdiss_opts o = newton_opts(1e-10, 50);
    mcd_maxdiss_stats st;
    mcd_error err;
    ck_assert_uint_eq(mcd_maxdiss_newton_work_size(NULL), 0);
    ck_assert_int_eq(mcd_maxdiss_newton(NULL, &o, r, work, &st, &err), MCD_ERR_ARG);
    ck_assert(strlen(err.msg) > 0);
    ck_assert_int_eq(mcd_maxdiss_newton(&p, NULL, r, work, &st, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_maxdiss_newton(&p, &o, NULL, work, &st, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_maxdiss_newton(&p, &o, r, NULL, NULL, NULL), MCD_ERR_ARG);
    p.nc = -1;
    ck_assert_uint_eq(mcd_maxdiss_newton_work_size(&p), 0);
    ck_assert_int_eq(mcd_maxdiss_newton(&p, &o, r, work, &st, &err), MCD_ERR_ARG);
    p.nc = 2;
    p.mu[1] = -0.1;
    ck_assert_int_eq(mcd_maxdiss_newton(&p, &o, r, work, &st, &err), MCD_ERR_ARG);
    p.mu[1] = 0.5;
    mcd_maxdiss_opts bad[4] = {o, o, o, o};
    bad[0].max_iter = 0, bad[1].tol = 0.0, bad[2].tol = INFINITY, bad[3].regularization = 0.0;
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(mcd_maxdiss_newton(&p, &bad[i], r, work, &st, &err), MCD_ERR_ARG);
    p.q[3] = NAN;
    ck_assert_int_eq(mcd_maxdiss_newton(&p, &o, r, work, &st, &err), MCD_ERR_NONFINITE);
    p.q[3] = 0.1;
    r[4] = INFINITY;
    ck_assert_int_eq(mcd_maxdiss_newton(&p, &o, r, work, &st, &err), MCD_ERR_NONFINITE);
    ck_assert(isinf(r[4]));
    r[4] = 0.0;
    /* too large for the dense Newton matrix: refused, nothing touched */
    mcd_fc3d big = {1000, 0, p.W, p.q, p.mu};
    ck_assert_uint_eq(mcd_maxdiss_newton_work_size(&big), 0);
    ck_assert_int_eq(mcd_maxdiss_newton(&big, &o, r, work, &st, &err), MCD_ERR_UNSUPPORTED);
    /* the valid problem solves, also without stats and error buffer */
    ck_assert_int_eq(mcd_maxdiss_newton(&p, &o, r, work, NULL, NULL), MCD_OK);
    free(work);
    mcd_fc3d_free(&p);
}
END_TEST

static Suite *maxdiss_newton_suite(void)
{
    Suite *s = suite_create("maxdiss_newton");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, one_contact_equals_single);
    tcase_add_test(tc, same_fixed_point_as_block_gauss_seidel);
    tcase_add_test(tc, failure_path_solves_stalled_steps);
    tcase_add_test(tc, coulomb_start_solves_lying_robot_steps);
    tcase_add_test(tc, pile_group_solved_from_the_cheap_start);
    tcase_add_test(tc, pile_group_newton_stall_polished);
    tcase_add_test(tc, tower_step_reported_honestly);
    tcase_add_test(tc, iteration_cap);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(maxdiss_newton_suite());
}

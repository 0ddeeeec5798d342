/* ADMM for the CCP (include/mcdyn/ccp.h, mcd_ccp_solve_admm): agreement
 * with APGD on random problems with a unique solution, convergence from
 * zero on every captured step problem (tests/solver_data/data/captured/,
 * the steps where the other methods failed) and agreement there with APGD
 * run to 10^6 iterations, the cone constraint and the stopping rule of the
 * returned point, the iteration cap, and bad input. */
#include "mcdyn/ccp.h"
#include "mcdyn/problem_io.h"
#include "common/check_main.h"
#include "solver_testutil.h"

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAP 100000 /* the step method's cap (sim_method.c) */

/* 1/2 g^T W g + q^T g, and d = W g + q. */
static double objective(const mcd_fc3d *p, const double *g, double *d)
{
    int n = mcd_fc3d_size(p);
    double f = 0.0;
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += p->W[(size_t)i * n + j] * g[j];
        d[i] = s + p->q[i];
        f += 0.5 * g[i] * s + p->q[i] * g[i];
    }
    return f;
}

/* The returned point is in K (every block its own projection to rounding:
 * a projected point on the cone's boundary projects again within
 * 1e-14 (1 + |x|), docs/solvers.md "Projection"), the statistics are those of the
 * returned point (recomputed here), and an MCD_OK has residual <= tol. */
static void check_returned(const mcd_fc3d *p, const double *g, const mcd_ccp_stats *st,
                           mcd_status s, double tol)
{
    int n = mcd_fc3d_size(p);
    for (int k = 0; k < p->nc; k++) {
        double x[3];
        memcpy(x, g + p->nb + 3 * k, sizeof x);
        mcd_ccp_project(p->mu[k], x);
        const double *gk = g + p->nb + 3 * k, size = 1.0 + fabs(gk[0]) + fabs(gk[1]) + fabs(gk[2]);
        for (int j = 0; j < 3; j++) ck_assert_double_le(fabs(x[j] - gk[j]), 1e-14 * size);
    }
    double *d = malloc((size_t)(n ? n : 1) * sizeof *d);
    mcd_ccp_stats again;
    ck_assert_int_eq(mcd_ccp_residual(p, g, d, &again), MCD_OK);
    double gmax = 0.0;
    for (int i = 0; i < n; i++) gmax = fmax(gmax, fabs(g[i]));
    ck_assert_double_le(again.violation_primal, 3e-14 * (1.0 + gmax));
    ck_assert_double_eq_tol(st->residual, again.residual, 1e-12 * again.residual + 1e-300);
    ck_assert_int_eq(st->status, s);
    if (s == MCD_OK) ck_assert_msg(again.residual <= tol, "MCD_OK at %g > %g", again.residual, tol);
    free(d);
}

/* Random CCPs with W = B B^T / n + 0.5 I (positive definite, so gamma is
 * unique): ADMM and APGD, both to residual 1e-12 from zero, return the same
 * gamma to 1e-9 (at residual eps the distance to the solution is at most
 * about eps / lambda_min(W) = 2e-12 in d-units; 1e-9 leaves room for the
 * measure's block scaling). */
START_TEST(agrees_with_apgd_on_random_problems)
{
    tu_rng rng = {0x9E3779B97F4A7C15ull + (uint64_t)_i};
    int nc = 2 + _i % 9, nb = _i % 3, n = nb + 3 * nc;
    double *W = malloc((size_t)n * n * sizeof *W), *q = malloc((size_t)n * sizeof *q);
    double *mu = malloc((size_t)nc * sizeof *mu), *ga = calloc((size_t)n, sizeof *ga);
    double *gb = calloc((size_t)n, sizeof *gb);
    tu_spd_matrix(&rng, n, 0.5, W);
    for (int i = 0; i < n; i++) q[i] = tu_uniform(&rng, -1, 1);
    for (int k = 0; k < nc; k++) mu[k] = _i % 4 == 0 ? 0.0 : tu_uniform(&rng, 0.1, 1.2);
    mcd_fc3d p = {.nc = nc, .nb = nb, .W = W, .q = q, .mu = mu};
    double *work = malloc((mcd_ccp_admm_work_size(&p) + mcd_ccp_work_size(&p)) * sizeof *work);
    mcd_ccp_opts o = mcd_ccp_default_opts();
    o.tol = 1e-12, o.max_iter = CAP;
    mcd_ccp_stats sa, sb;
    mcd_status s = mcd_ccp_solve_admm(&p, &o, ga, work, &sa, NULL);
    ck_assert_int_eq(s, MCD_OK);
    check_returned(&p, ga, &sa, s, o.tol);
    ck_assert_int_eq(mcd_ccp_solve_apgd(&p, &o, gb, work, &sb, NULL), MCD_OK);
    ck_assert_msg(tu_max_diff(n, ga, gb) <= 1e-9, "problem %d: |gamma_admm - gamma_apgd| = %g", _i,
                  tu_max_diff(n, ga, gb));
    free(work), free(W), free(q), free(mu), free(ga), free(gb);
}
END_TEST

static mcd_problem_file read_captured(const char *file)
{
    char path[4096];
    const char *src = getenv("MCDYN_SOURCE");
    ck_assert_msg(src != NULL, "MCDYN_SOURCE is not set");
    snprintf(path, sizeof path, "%s/tests/solver_data/data/captured/%s", src, file);
    mcd_problem_file pf = {0};
    mcd_error err = {0};
    ck_assert_msg(mcd_problem_read_siconos(path, MCD_PROBLEM_AUTO, &pf, &err) == MCD_OK, "%s: %s",
                  file, err.msg);
    return pf;
}

/* Every captured problem with contacts (the folder is listed, so a new
 * file is included): ccp-admm from zero converges at the step method's
 * tolerance 1e-9 within its cap (at most 17,736 iterations, hum_plm_226).
 * At the same tolerance ccp-apgd needs more than its 10000 iterations on
 * three of them (hum_plm_226, solo12up_plm_745 and 749). */
START_TEST(converges_on_every_captured_problem)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/solver_data/data/captured", getenv("MCDYN_SOURCE"));
    DIR *dp = opendir(dir);
    ck_assert_ptr_nonnull(dp);
    int solved = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        if (!strstr(e->d_name, ".dat")) continue;
        mcd_problem_file pf = read_captured(e->d_name);
        if (pf.kind != MCD_PROBLEM_FC3D) {
            mcd_problem_file_free(&pf);
            continue;
        }
        const mcd_fc3d *p = &pf.fc3d;
        int n = mcd_fc3d_size(p);
        double *g = calloc((size_t)n + 1, sizeof *g);
        double *work = malloc((mcd_ccp_admm_work_size(p) + 1) * sizeof *work);
        mcd_ccp_opts o = mcd_ccp_default_opts();
        o.tol = 1e-9, o.max_iter = CAP;
        mcd_ccp_stats st;
        mcd_error err = {0};
        mcd_status s = mcd_ccp_solve_admm(p, &o, g, work, &st, &err);
        printf("%-22s n = %3d  %6d iterations, residual %.3g\n", e->d_name, n, st.iterations,
               st.residual);
        ck_assert_msg(s == MCD_OK, "%s: %s", e->d_name, err.msg);
        check_returned(p, g, &st, s, o.tol);
        solved += n > 0;
        free(g), free(work);
        mcd_problem_file_free(&pf);
    }
    closedir(dp);
    ck_assert_int_ge(solved, 20);
}
END_TEST

/* Against APGD run to 10^6 iterations (tol 1e-11) on the captured steps
 * where ccp-apgd fails at its default cap, or is slow: the CCP's d and its
 * objective are unique even where gamma is not (N singular: redundant
 * corners). ADMM stops at residual 1e-9, a velocity; near a solution the
 * natural map bounds |d - d*| by about that much per block, so d agrees to
 * 1e-8 m/s (10x the tolerance, for the block scaling; measured at most
 * 5.1e-9). By convexity f(g) - f* <= d(g) . (g - g*), and at either
 * point d . g and -d . g* are within the residual times |g|_1 (blocks
 * complementary to within the natural map, d within that of K*), so the
 * two objectives agree to 2 tol (|g_admm|_1 + |g_apgd|_1). */
static const char *const hard_files[] = {"a1_md_436.dat", "a1_apgd_449.dat", "tower_plm_58.dat",
                                         "tower_plm_64.dat", "solo12up_plm_749.dat"};

START_TEST(agrees_with_long_apgd_on_captured_problems)
{
    mcd_problem_file pf = read_captured(hard_files[_i]);
    const mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    double *ga = calloc((size_t)n, sizeof *ga), *gb = calloc((size_t)n, sizeof *gb);
    double *da = malloc((size_t)n * sizeof *da), *db = malloc((size_t)n * sizeof *db);
    double *work = malloc((mcd_ccp_admm_work_size(p) + mcd_ccp_work_size(p)) * sizeof *work);
    mcd_ccp_opts o = mcd_ccp_default_opts();
    o.tol = 1e-9, o.max_iter = CAP;
    mcd_ccp_stats sa, sb;
    ck_assert_int_eq(mcd_ccp_solve_admm(p, &o, ga, work, &sa, NULL), MCD_OK);
    o.tol = 1e-11, o.max_iter = 1000000;
    mcd_status s = mcd_ccp_solve_apgd(p, &o, gb, work, &sb, NULL);
    ck_assert_msg(s == MCD_OK, "%s: APGD residual %g", hard_files[_i], sb.residual);
    double fa = objective(p, ga, da), fb = objective(p, gb, db);
    double dd = tu_max_diff(n, da, db);
    printf("%-22s ADMM %6d iterations, APGD %7d; f %.10g, f_admm - f_apgd %.3g, |d diff| %.3g\n",
           hard_files[_i], sa.iterations, sb.iterations, fb, fa - fb, dd);
    ck_assert_msg(dd <= 1e-8, "%s: |d_admm - d_apgd| = %g", hard_files[_i], dd);
    double l1 = 0.0;
    for (int i = 0; i < n; i++) l1 += fabs(ga[i]) + fabs(gb[i]);
    ck_assert_msg(fabs(fa - fb) <= 2e-9 * l1, "%s: f %.17g vs %.17g", hard_files[_i], fa, fb);
    free(ga), free(gb), free(da), free(db), free(work);
    mcd_problem_file_free(&pf);
}
END_TEST

/* The stopping rule: a looser tolerance stops earlier, at a residual
 * within it; a cap too small returns MCD_ERR_NOT_CONVERGED with the best
 * point's residual (above tol) in the statistics and the message. */
START_TEST(stopping_rule_and_cap)
{
    mcd_problem_file pf = read_captured("tower_plm_58.dat");
    const mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    double *g = calloc((size_t)n, sizeof *g);
    double *work = malloc(mcd_ccp_admm_work_size(p) * sizeof *work);
    mcd_ccp_opts o = mcd_ccp_default_opts();
    o.max_iter = CAP;
    mcd_ccp_stats loose, tight, capped;
    o.tol = 1e-6;
    ck_assert_int_eq(mcd_ccp_solve_admm(p, &o, g, work, &loose, NULL), MCD_OK);
    check_returned(p, g, &loose, MCD_OK, o.tol);
    memset(g, 0, (size_t)n * sizeof *g);
    o.tol = 1e-9;
    ck_assert_int_eq(mcd_ccp_solve_admm(p, &o, g, work, &tight, NULL), MCD_OK);
    ck_assert_int_lt(loose.iterations, tight.iterations);
    memset(g, 0, (size_t)n * sizeof *g);
    o.max_iter = 5;
    mcd_error err = {0};
    mcd_status s = mcd_ccp_solve_admm(p, &o, g, work, &capped, &err);
    ck_assert_int_eq(s, MCD_ERR_NOT_CONVERGED);
    ck_assert_int_eq(capped.iterations, 5);
    ck_assert(capped.residual > o.tol);
    check_returned(p, g, &capped, s, o.tol);
    ck_assert_ptr_nonnull(strstr(err.msg, "after 5 iterations"));
    free(g), free(work);
    mcd_problem_file_free(&pf);
}
END_TEST

/* Bad input: MCD_ERR_ARG for NULL pointers, max_iter <= 0, tol <= 0, mu < 0
 * and prox outside (0, 1) (named in the message); MCD_ERR_NONFINITE for a
 * NaN in W or the start; the work size is 0 for NULL, negative sizes and a
 * size whose n^2 overflows. Nothing is solved in those cases. */
START_TEST(bad_input)
{
    double W[9] = {2, 0, 0, 0, 1, 0, 0, 0, 1}, q[3] = {-1, 0.1, 0}, mu[1] = {0.5};
    double g[3] = {0}, work[64];
    mcd_fc3d p = {.nc = 1, .nb = 0, .W = W, .q = q, .mu = mu};
    ck_assert_uint_eq(mcd_ccp_admm_work_size(&p), 9 + 27);
    mcd_ccp_opts o = mcd_ccp_default_opts();
    mcd_error err = {0};
    ck_assert_int_eq(mcd_ccp_solve_admm(NULL, &o, g, work, NULL, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_ccp_solve_admm(&p, NULL, g, work, NULL, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_ccp_solve_admm(&p, &o, NULL, work, NULL, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_ccp_solve_admm(&p, &o, g, NULL, NULL, &err), MCD_ERR_ARG);
    const double bad_prox[] = {0.0, -1e-6, 1.0, 2.0, NAN};
    for (size_t i = 0; i < sizeof bad_prox / sizeof bad_prox[0]; i++) {
        mcd_ccp_opts b = o;
        b.prox = bad_prox[i];
        mcd_ccp_stats st;
        ck_assert_int_eq(mcd_ccp_solve_admm(&p, &b, g, work, &st, &err), MCD_ERR_ARG);
        ck_assert_int_eq(st.status, MCD_ERR_ARG);
        ck_assert_ptr_nonnull(strstr(err.msg, "prox"));
    }
    mcd_ccp_opts b = o;
    b.max_iter = 0;
    ck_assert_int_eq(mcd_ccp_solve_admm(&p, &b, g, work, NULL, &err), MCD_ERR_ARG);
    b = o, b.tol = 0;
    ck_assert_int_eq(mcd_ccp_solve_admm(&p, &b, g, work, NULL, &err), MCD_ERR_ARG);
    mu[0] = -0.1;
    ck_assert_int_eq(mcd_ccp_solve_admm(&p, &o, g, work, NULL, &err), MCD_ERR_ARG);
    mu[0] = 0.5;
    g[1] = NAN;
    ck_assert_int_eq(mcd_ccp_solve_admm(&p, &o, g, work, NULL, &err), MCD_ERR_NONFINITE);
    g[1] = 0.0;
    W[4] = NAN;
    ck_assert_int_eq(mcd_ccp_solve_admm(&p, &o, g, work, NULL, &err), MCD_ERR_NONFINITE);
    W[4] = 1.0;
    /* the same problem, valid: one sticking contact, gamma = (0.5, -0.1, 0) */
    mcd_ccp_stats st;
    ck_assert_int_eq(mcd_ccp_solve_admm(&p, &o, g, work, &st, &err), MCD_OK);
    ck_assert_double_eq_tol(g[0], 0.5, 1e-9);
    ck_assert_double_eq_tol(g[1], -0.1, 1e-9);
    ck_assert_double_eq_tol(g[2], 0.0, 1e-9);
    ck_assert_uint_eq(mcd_ccp_admm_work_size(NULL), 0);
    mcd_fc3d neg = {.nc = -1};
    ck_assert_uint_eq(mcd_ccp_admm_work_size(&neg), 0);
    mcd_fc3d huge = {.nc = 700000000};
    ck_assert_uint_eq(mcd_ccp_admm_work_size(&huge), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver-ccp-admm");
    TCase *tc = tcase_create("ccp-admm");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, agrees_with_apgd_on_random_problems, 0, 40);
    tcase_add_test(tc, converges_on_every_captured_problem);
    tcase_add_loop_test(tc, agrees_with_long_apgd_on_captured_problems, 0,
                        (int)(sizeof hard_files / sizeof hard_files[0]));
    tcase_add_test(tc, stopping_rule_and_cap);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

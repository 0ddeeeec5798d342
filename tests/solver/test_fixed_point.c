/* mncp-fixpoint, the Cadoux fixed point over the CCP's ADMM (solver.h,
 * src/solver/fc3d_fixed_point.h): one contact against its closed forms,
 * random problems built around a known solution, every captured step
 * problem (tests/solver_data/data/captured/), a step of the poured sphere
 * pile and two hard A1 steps (tests/solver/data/), the early stops on
 * the poured pile's groups, an immediate return from a solution, the
 * outer cap, bad options and no allocation in a solve. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "mcdyn/problem_io.h"
#include "mcdyn/solver.h"
#include "common/alloc_counter.h"
#include "common/check_main.h"
#include "solver/fc3d_fixed_point.h"
#include "solver_testutil.h"

#include "base/lapack.h"

#include <check.h>
#include <dirent.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOL 1e-10 /* the step methods' default tol (solver.h) */

static mcd_solver_ws *ws;

static void find_lapack_svd(void);

static void setup(void)
{
    ck_assert_int_eq(mcd_solver_ws_create(400, &ws, NULL), MCD_OK);
    find_lapack_svd();
}

static void teardown(void)
{
    mcd_solver_ws_free(ws);
}

static double max_abs(int n, const double *x)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

static mcd_solver_opts fixpoint_opts(void)
{
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MNCP_FIXPOINT);
    o.tol = TOL;
    return o;
}

/* Solves p with mncp-fixpoint and checks what every return promises: u =
 * W r + q, stats.error is the error of the returned r, and MCD_OK only
 * with that error <= tol. */
static mcd_status solve(const mcd_fc3d *p, const mcd_solver_opts *o, double *r, double *u,
                        mcd_solver_stats *st)
{
    mcd_error err = {0};
    mcd_status s = mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_FIXPOINT, p, o, r, u, st, &err);
    int n = mcd_fc3d_size(p);
    double *w = malloc((size_t)n * sizeof *w);
    for (int i = 0; i < n; i++) {
        w[i] = p->q[i];
        for (int j = 0; j < n; j++) w[i] += p->W[(size_t)i * n + j] * r[j];
    }
    /* u is W r + q computed by the solver's own product: equal to rounding. */
    ck_assert_double_le(tu_max_diff(n, u, w), 1e-12 * (1 + max_abs(n, w)));
    ck_assert_double_eq(st->error, mcd_fc3d_error(p, r, NULL));
    if (s == MCD_OK) ck_assert_double_le(st->error, o->tol);
    ck_assert_int_eq(st->status, s);
    free(w);
    return s;
}

/* One contact with W = diag(a_n, a_t, a_t) and q = (q_n, q_t, 0): with
 * q_n < 0 the contact presses, r_n = -q_n / a_n (u_n = 0); it sticks
 * (r_t = -q_t / a_t, u = 0) when that r_t is in the cone, |q_t| <= a_t mu
 * r_n, and else slides with r_t = -mu r_n sign(q_t) (u_t = q_t + a_t r_t
 * has the sign of q_t); with q_n > 0 it separates, r = 0. The cases:
 * stick, slide, stick near the cone's border (|q_t| = 0.15 < 0.3 mu
 * r_n... 0.5 * 0.6 * 0.5 = 0.15: on it), separate, slide fast. The method
 * stops at error <= 1e-10 relative to max(|r|, |u|, |q|) = O(1) here, so
 * r agrees to 1e-9. */
START_TEST(one_contact_closed_forms)
{
    const double a_n = 2.0, a_t = 0.5, mu = 0.6;
    const double cases[][2] = {{-1.0, 0.1}, {-1.0, -0.8}, {-1.0, 0.15}, {0.5, 0.3}, {-0.3, 2.0}};
    const double qn = cases[_i][0], qt = cases[_i][1];
    double W[9] = {a_n, 0, 0, 0, a_t, 0, 0, 0, a_t}, q[3] = {qn, qt, 0}, m[1] = {mu};
    mcd_fc3d p = {1, 0, W, q, m};
    double expect[3] = {0, 0, 0};
    if (qn < 0) {
        expect[0] = -qn / a_n;
        expect[1] =
            fabs(qt) <= a_t * mu * expect[0] ? -qt / a_t : -mu * expect[0] * copysign(1, qt);
    }
    double r[3], u[3];
    mcd_solver_opts o = fixpoint_opts();
    mcd_solver_stats st;
    ck_assert_int_eq(solve(&p, &o, r, u, &st), MCD_OK);
    ck_assert_msg(tu_max_diff(3, r, expect) <= 1e-9,
                  "case %d: r = (%g, %g, %g), expected (%g, %g, 0)", _i, r[0], r[1], r[2],
                  expect[0], expect[1]);
}
END_TEST

/* Random problems (W SPD, 2 bilateral rows, 6 contacts in mixed regimes,
 * mu in [0.2, 0.8]) built around a known solution (r*, u*)
 * (solver_testutil.h). The fixed point must find a solution (error <=
 * 1e-10), and it must be the known one in u: the velocities of these
 * problems are well conditioned (W >= 0.5 I), and at error 1e-10 u is
 * within a few 1e-10 of u* when the solution is unique; mncp-plm run to
 * 1e-14 on the same problem must agree as well (an independent method:
 * a second solution would show as a disagreement of both with u*). */
START_TEST(finds_the_known_solution)
{
    enum { NC = 6, NB = 2, N = NB + 3 * NC };
    const int regime[NC] = {TU_STICK, TU_SLIP, TU_SEPARATE, TU_SLIP, TU_STICK, TU_SLIP};
    tu_rng rng = {1000 + (uint64_t)_i};
    mcd_fc3d p;
    double r_star[N], u_star[N], r[N], u[N], r_plm[N], u_plm[N];
    tu_fc3d_with_solution(&rng, NC, NB, regime, &p, r_star, u_star);
    mcd_solver_opts o = fixpoint_opts();
    mcd_solver_stats st;
    ck_assert_int_eq(solve(&p, &o, r, u, &st), MCD_OK);
    double scale = 1 + fmax(max_abs(N, u_star), max_abs(N, r_star));
    ck_assert_msg(tu_max_diff(N, u, u_star) <= 1e-8 * scale, "problem %d: |u - u*| = %g", _i,
                  tu_max_diff(N, u, u_star));
    mcd_solver_opts po = mcd_solver_default_opts(MCD_SOLVER_MNCP_PLM);
    po.tol = 1e-14;
    mcd_solver_stats ps;
    mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_PLM, &p, &po, r_plm, u_plm, &ps, NULL);
    ck_assert_double_le(ps.error, 1e-13);
    ck_assert_msg(tu_max_diff(N, u, u_plm) <= 1e-8 * scale, "problem %d: |u - u_plm| = %g", _i,
                  tu_max_diff(N, u, u_plm));
    mcd_fc3d_free(&p);
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

/* The captured step problems where the other methods failed (the folder
 * is listed, so a new file is included): the fixed point converges from
 * zero at tol 1e-10 on each with its default cap, but one, the humanoid's
 * step hum_plm_226, where mncp-plm's whole chain fails too (error 2.3e-6):
 * there the fixed point's change of s falls only linearly (error 1.3e-6
 * after 100 outer iterations, 3.8e-7 after the last finish, 1.2e-7 after
 * 1000), and it must say so. */
START_TEST(converges_on_the_captured_problems)
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
        int n = mcd_fc3d_size(&pf.fc3d);
        double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u);
        mcd_solver_opts o = fixpoint_opts();
        mcd_solver_stats st;
        mcd_status s = solve(&pf.fc3d, &o, r, u, &st);
        printf("%-22s n = %3d  %3d outer iterations, error %.3g, %s\n", e->d_name, n, st.iterations,
               st.error, mcd_status_str(s));
        if (strcmp(e->d_name, "hum_plm_226.dat") == 0) {
            ck_assert_int_eq(s, MCD_ERR_NOT_CONVERGED);
            ck_assert_double_gt(st.error, o.tol);
        } else {
            ck_assert_msg(s == MCD_OK, "%s: %s, error %g", e->d_name, mcd_status_str(s), st.error);
            solved++;
        }
        free(r), free(u);
        mcd_problem_file_free(&pf);
    }
    closedir(dp);
    ck_assert_int_ge(solved, 19);
}
END_TEST

/* Step 104 of models/sphere_pile_poured.yaml (capture-problems ...
 * mncp-plm 1: 78 contacts, one group of 67; W of rank 229 of 234; no
 * self-stress in the cones, tests/scenes/self_stress.py), where mncp-plm's
 * whole chain, mncp-nsn and Siconos' NSGS and NSN-AC fail (errors 1.8e-3,
 * 2.3e-3, 4.1e-5, 3.5e-2). The plain fixed point converges there linearly
 * (the change of s falls by about 0.65 per outer iteration after a
 * transient rise at outer iterations 10-15); with the monotone relaxation
 * rule it replaced (theta halved at any rise of the change) theta fell to
 * its floor and the method stopped at 1.8e-3 after 100 outer iterations,
 * so this case fails without the windowed rule. */
START_TEST(converges_on_a_poured_pile_step)
{
    mcd_problem_file pf = tu_read_fc3d_data("sphere_pile_poured_104.dat");
    int n = mcd_fc3d_size(&pf.fc3d);
    double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u);
    mcd_solver_opts o = fixpoint_opts();
    mcd_solver_stats st;
    mcd_status s = solve(&pf.fc3d, &o, r, u, &st);
    ck_assert_msg(s == MCD_OK, "%s after %d outer iterations, error %g", mcd_status_str(s),
                  st.iterations, st.error);
    free(r), free(u);
    mcd_problem_file_free(&pf);
}
END_TEST

/* Two hard steps of the A1 drops (tests/solver/data, test_chain_a1.c: W of
 * rank 16 of 33 and 17 of 36, three or four trunk corners sliding at
 * 1e-12 to 4e-11 m/s), from zero within 40 outer iterations. There s
 * converges at once, but the QP's solution lies about 0.09 N s along W's
 * null space from where ADMM first stops, on a direction of slope ~3e-11
 * per unit, along which ADMM moves by about slope / (rho + eta) per
 * iteration with rho at its floor eta (fc3d_fixed_point.h, FP_PROX). With
 * session 8's proximal weight 1e-6 both end not converged after 40 outer
 * iterations (7.3e-10, 3.0e-9) and need the 100 outer iterations and the
 * last finish (the first: not converged even then); with 1e-8 they
 * converge in 21 and 18. */
START_TEST(converges_on_the_a1_hard_steps)
{
    static const char *const files[] = {"a1bench175_plm_947.dat", "a1bench195_fixpoint_10.dat"};
    mcd_problem_file pf = tu_read_fc3d_data(files[_i]);
    int n = mcd_fc3d_size(&pf.fc3d);
    double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u);
    mcd_solver_opts o = fixpoint_opts();
    o.max_iter = 40;
    mcd_solver_stats st;
    mcd_status s = solve(&pf.fc3d, &o, r, u, &st);
    printf("%-28s n = %d: %s, %d outer iterations, error %.3g\n", files[_i], n, mcd_status_str(s),
           st.iterations, st.error);
    ck_assert_msg(s == MCD_OK, "%s: %s after %d outer iterations, error %g", files[_i],
                  mcd_status_str(s), st.iterations, st.error);
    free(r), free(u);
    mcd_problem_file_free(&pf);
}
END_TEST

/* LAPACK's dense SVD, interposed: the active-set polish's step
 * (fc3d_polish.c), which the fixed point's local finishes call; counted,
 * then forwarded to LAPACK (found in setup: dlsym allocates). */
typedef void svd_fn(const char *, const char *, const int *, const int *, double *, const int *,
                    double *, double *, const int *, double *, const int *, double *, const int *,
                    int *);
static svd_fn *lapack_svd;
static int svd_calls;

static void find_lapack_svd(void)
{
    if (!lapack_svd) lapack_svd = (svd_fn *)dlsym(RTLD_NEXT, "dgesvd_");
    ck_assert_ptr_nonnull(lapack_svd);
}

void dgesvd_(const char *jobu, const char *jobvt, const int *m, const int *n, double *a,
             const int *lda, double *s, double *u, const int *ldu, double *vt, const int *ldvt,
             double *work, const int *lwork, int *info)
{
    svd_calls++;
    lapack_svd(jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, info);
}

/* The plain iteration, theta = 1 fixed: mncp-plm's chain's first start on
 * large problems (solver.c, large_starts), through the private door
 * (fc3d_fixed_point.h), from zero, with max_iter outer iterations. */
static mcd_status solve_plain(const mcd_fc3d *p, int max_iter, double *r, double *u,
                              mcd_solver_stats *st)
{
    mcd_solver_opts o = fixpoint_opts();
    o.max_iter = max_iter;
    mcd_error err = {0};
    mcd_status s = mcd_solve_fc3d_fixed_point(ws, p, &o, 0, r, u, st, &err);
    ck_assert_double_eq(st->error, mcd_fc3d_error(p, r, NULL));
    if (s == MCD_OK) ck_assert_double_le(st->error, o.tol);
    return s;
}

/* The early stops (fc3d_fixed_point.h, FP_CAPPED_STOP and FP_STALL_BLOCK)
 * on captured groups of the poured pile (tests/solver/data), 300 outer
 * iterations allowed. Without them both runs below take all 300 (10 s and
 * 23.5 s of CPU) and end not converged all the same:
 * - the plain iteration on step 169's group: the change of s stagnates
 *   (error 3e-4 from the 60th outer iteration on); it stops at the end
 *   of a block of FP_STALL_BLOCK;
 * - the adaptive method on ccp_poured_admm_208_group: from about its 78th
 *   QP ADMM ends every QP at FP_INNER_MAX_ITER; it stops after
 *   FP_CAPPED_STOP such QPs (83 outer iterations, error 5.7e-9). */
START_TEST(stops_early_where_it_stalls)
{
    mcd_problem_file pf = tu_read_fc3d_data("sphere_pile_poured_169_group.dat");
    int n = mcd_fc3d_size(&pf.fc3d);
    double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u);
    mcd_solver_stats st;
    ck_assert_int_eq(solve_plain(&pf.fc3d, 300, r, u, &st), MCD_ERR_NOT_CONVERGED);
    printf("169, plain: %d outer iterations, error %.3g\n", st.iterations, st.error);
    ck_assert_int_lt(st.iterations, 300);
    ck_assert_int_eq(st.iterations % FP_STALL_BLOCK, 0);
    mcd_problem_file_free(&pf);
    free(r), free(u);

    pf = tu_read_fc3d_data("ccp_poured_admm_208_group.dat");
    n = mcd_fc3d_size(&pf.fc3d);
    r = calloc((size_t)n, sizeof *r), u = calloc((size_t)n, sizeof *u);
    mcd_solver_opts o = fixpoint_opts();
    o.max_iter = 300;
    ck_assert_int_eq(solve(&pf.fc3d, &o, r, u, &st), MCD_ERR_NOT_CONVERGED);
    printf("208, adaptive: %d outer iterations, error %.3g\n", st.iterations, st.error);
    ck_assert_int_lt(st.iterations, 300);
    mcd_problem_file_free(&pf);
    free(r), free(u);
}
END_TEST

/* ... and they must not stop the plain iteration where it converges late
 * (nor may its local finishes polish: the polish is dense, an SVD per mode
 * change, and leaves problems of POLISH_MAX_N or more unknowns as they
 * are; before session 13 these runs made 52 and 29 SVDs of up to 237 x
 * 237):
 * on step 172's group the change of s rises for four blocks of 30 outer
 * iterations after the 30th, then falls (converged at 205: a rule on the
 * blocks' ratio, stop unless the largest change fell by 10 %, stopped it at
 * 90); on step 164's it rises once and converges at 131. */
START_TEST(keeps_late_convergence)
{
    static const char *const files[] = {"sphere_pile_poured_172_group.dat",
                                        "sphere_pile_poured_164_group.dat"};
    mcd_problem_file pf = tu_read_fc3d_data(files[_i]);
    int n = mcd_fc3d_size(&pf.fc3d);
    double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u);
    mcd_solver_stats st;
    svd_calls = 0;
    mcd_status s = solve_plain(&pf.fc3d, 300, r, u, &st);
    printf("%s, plain: %s, %d outer iterations, error %.3g, %d SVDs\n", files[_i],
           mcd_status_str(s), st.iterations, st.error, svd_calls);
    ck_assert_int_eq(s, MCD_OK);
    ck_assert_int_eq(svd_calls, 0); /* no dense polish at n >= POLISH_MAX_N */
    mcd_problem_file_free(&pf);
    free(r), free(u);
}
END_TEST

/* Warm-started at a solution, the method returns it unchanged, with no
 * outer iteration: the start's error is already <= tol. */
START_TEST(returns_a_solution_at_once)
{
    enum { NC = 4, NB = 1, N = NB + 3 * NC };
    const int regime[NC] = {TU_STICK, TU_SLIP, TU_SEPARATE, TU_SLIP};
    tu_rng rng = {77};
    mcd_fc3d p;
    double r_star[N], u_star[N], r[N], u[N];
    tu_fc3d_with_solution(&rng, NC, NB, regime, &p, r_star, u_star);
    memcpy(r, r_star, sizeof r);
    mcd_solver_opts o = fixpoint_opts();
    o.warm_start = 1;
    mcd_solver_stats st;
    ck_assert_int_eq(solve(&p, &o, r, u, &st), MCD_OK);
    ck_assert_int_eq(st.iterations, 0);
    ck_assert(memcmp(r, r_star, sizeof r) == 0);
    mcd_fc3d_free(&p);
}
END_TEST

/* The outer cap: with tol = 0 no solve of a random problem reaches an
 * error of exactly 0 (its rounding is ~1e-16), so the method runs its
 * max_iter outer iterations and reports not converged, with the error of
 * the point it returns; likewise the humanoid step (above) at cap 2. */
START_TEST(cap_gives_not_converged)
{
    enum { NC = 5, NB = 0, N = NB + 3 * NC };
    const int regime[NC] = {TU_STICK, TU_SLIP, TU_SEPARATE, TU_SLIP, TU_STICK};
    tu_rng rng = {5};
    mcd_fc3d p;
    double r_star[N], u_star[N], r[N], u[N];
    tu_fc3d_with_solution(&rng, NC, NB, regime, &p, r_star, u_star);
    mcd_solver_opts o = fixpoint_opts();
    o.tol = 0.0, o.max_iter = 3;
    mcd_solver_stats st;
    ck_assert_int_eq(solve(&p, &o, r, u, &st), MCD_ERR_NOT_CONVERGED);
    ck_assert_int_eq(st.iterations, 3);
    ck_assert_double_gt(st.error, 0.0);
    mcd_fc3d_free(&p);

    mcd_problem_file pf = read_captured("hum_plm_226.dat");
    int n = mcd_fc3d_size(&pf.fc3d);
    double *rh = calloc((size_t)n, sizeof *rh), *uh = calloc((size_t)n, sizeof *uh);
    o = fixpoint_opts();
    o.max_iter = 2;
    svd_calls = 0;
    ck_assert_int_eq(solve(&pf.fc3d, &o, rh, uh, &st), MCD_ERR_NOT_CONVERGED);
    ck_assert_int_gt(svd_calls, 0); /* its last finish polishes (n = 42): the count works */
    ck_assert_int_eq(st.iterations, 2);
    ck_assert_double_gt(st.error, o.tol);
    free(rh), free(uh);
    mcd_problem_file_free(&pf);
}
END_TEST

/* Relaxation outside (0, 1] (0 selects the default 1) and a negative or
 * NaN tol are MCD_ERR_ARG with a message, r untouched. */
START_TEST(bad_options_are_rejected)
{
    double W[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, q[3] = {-1, 0.2, 0}, m[1] = {0.5};
    mcd_fc3d p = {1, 0, W, q, m};
    const double bad_relaxation[] = {-0.5, 1.5, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad_relaxation / sizeof bad_relaxation[0]; i++) {
        mcd_solver_opts o = fixpoint_opts();
        o.relaxation = bad_relaxation[i];
        double r[3] = {7, 7, 7}, u[3];
        mcd_solver_stats st;
        mcd_error err = {0};
        ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_FIXPOINT, &p, &o, r, u, &st, &err),
                         MCD_ERR_ARG);
        ck_assert_ptr_nonnull(strstr(err.msg, "relaxation"));
        ck_assert(r[0] == 7 && r[1] == 7 && r[2] == 7);
    }
    const double bad_tol[] = {-1e-10, NAN};
    for (size_t i = 0; i < 2; i++) {
        mcd_solver_opts o = fixpoint_opts();
        o.tol = bad_tol[i];
        double r[3] = {7, 7, 7}, u[3];
        mcd_error err = {0};
        ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_FIXPOINT, &p, &o, r, u, NULL, &err),
                         MCD_ERR_ARG);
        ck_assert(r[0] == 7 && r[1] == 7 && r[2] == 7);
    }
    mcd_solver_opts o = fixpoint_opts();
    o.relaxation = 0.5; /* a valid relaxation other than the default */
    double r[3], u[3];
    mcd_solver_stats st;
    ck_assert_int_eq(solve(&p, &o, r, u, &st), MCD_OK);
    mcd_solver_kind k;
    ck_assert_int_eq(mcd_solver_from_name("mncp-fixpoint", &k, NULL), MCD_OK);
    ck_assert_int_eq(k, MCD_SOLVER_MNCP_FIXPOINT);
    ck_assert(!mcd_solver_is_mlcp(k));
}
END_TEST

/* No allocation in a solve (after a warm-up solve: BLAS may set up its
 * buffers once); the assertion needs the allocation counter, which
 * AddressSanitizer's build does not have (alloc_counter.h). */
START_TEST(solve_does_not_allocate)
{
    enum { NC = 5, NB = 2, N = NB + 3 * NC };
    const int regime[NC] = {TU_STICK, TU_SLIP, TU_SEPARATE, TU_SLIP, TU_STICK};
    tu_rng rng = {41};
    mcd_fc3d p;
    double r_star[N], u_star[N], r[N], u[N];
    tu_fc3d_with_solution(&rng, NC, NB, regime, &p, r_star, u_star);
    mcd_solver_opts o = fixpoint_opts();
    mcd_solver_stats st;
    ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_FIXPOINT, &p, &o, r, u, &st, NULL), MCD_OK);
    alloc_counter_start();
    mcd_status s = mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_FIXPOINT, &p, &o, r, u, &st, NULL);
    long allocations = alloc_counter_stop();
    ck_assert_int_eq(s, MCD_OK);
    if (ALLOC_COUNTER_AVAILABLE) ck_assert_int_eq(allocations, 0);
    mcd_fc3d_free(&p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver-fixed-point");
    TCase *tc = tcase_create("mncp-fixpoint");
    tcase_set_timeout(tc, 600);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, one_contact_closed_forms, 0, 5);
    tcase_add_loop_test(tc, finds_the_known_solution, 0, 20);
    tcase_add_test(tc, converges_on_the_captured_problems);
    tcase_add_test(tc, converges_on_a_poured_pile_step);
    tcase_add_loop_test(tc, converges_on_the_a1_hard_steps, 0, 2);
    tcase_add_test(tc, stops_early_where_it_stalls);
    tcase_add_loop_test(tc, keeps_late_convergence, 0, 2);
    tcase_add_test(tc, returns_a_solution_at_once);
    tcase_add_test(tc, cap_gives_not_converged);
    tcase_add_test(tc, bad_options_are_rejected);
    tcase_add_test(tc, solve_does_not_allocate);
    suite_add_tcase(s, tc);
    return run_suite_fork(s, CK_NOFORK);
}

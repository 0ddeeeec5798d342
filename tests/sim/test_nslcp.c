/* The non-singular friction LCP (Peiret, Kovecses & Font-Llagunes 2017) on
 * the box-on-ground example of their Table 1: a 1 kg cube of side 1 m on
 * the plane z = 0 with its four bottom corners as contacts (coplanar,
 * redundant), v_y = 5 m/s, w_z = 2 pi 1/s, mu = 1, k_n = 1e10, b_n = 1e8,
 * k_t = 1e8, b_t = 1e5, v_th = 1e-3, h = 10 ms and 1 ms. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "box_grid.h"
#include "common/alloc_counter.h"
#include "common/contact_scenes.h"
#include "mcdyn/mcdyn.h"
#include "mcdyn/runner.h"
#include "common/check_main.h"

#define SIDE (2 * SCENE_BOX_HALF) /* the box of contact_scenes.h */
#define MU   1.0
#define V0   5.0
#define W0   (2 * M_PI)

/* The four bottom corners within 1 cm of the plane z = 0. */
static mcd_status box_ground(void *user, const mcd_model *m, const mcd_data *d, const double *q,
                             mcd_contact_point *c, int capacity, int *n, mcd_error *err)
{
    (void)user, (void)m, (void)d, (void)err;
    double R[9];
    mcd_quat_to_m3(R, q + 3);
    *n = 0;
    for (int i = 0; i < 4; i++) {
        const double local[3] = {(i & 1 ? 0.5 : -0.5) * SIDE, (i & 2 ? 0.5 : -0.5) * SIDE,
                                 -0.5 * SIDE};
        double p[3];
        mcd_m3_mul_v(p, R, local);
        mcd_v3_add(p, p, q);
        if (p[2] > 0.01) continue;
        if (*n >= capacity) return MCD_ERR_CAPACITY;
        mcd_contact_point cp = {0, -1, {p[0], p[1], p[2]}, {0, 0, 1}, p[2], MU, 0.0, 0.0};
        c[(*n)++] = cp;
    }
    return MCD_OK;
}

static mcd_sim *box_sim(const mcd_model *m, mcd_step_method method, double h, double rho, int ndir)
{
    mcd_sim_options o = mcd_sim_default_options();
    o.dt = h;
    o.solver = method;
    o.solver_opts = mcd_step_method_default_opts(method);
    o.nslcp.rho = rho;
    o.nslcp.ndir = ndir;
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, &o, &s, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(s, box_ground, NULL);
    const double q[7] = {0, 0, 0.5 * SIDE, 1, 0, 0, 0}, qd[6] = {0, V0, 0, 0, 0, W0};
    ck_assert_int_eq(mcd_sim_set_state(s, q, qd, 0.0), MCD_OK);
    return s;
}

/* Numerical rank by Gaussian elimination with complete pivoting: pivots
 * above n eps max|a| (the rule of MATLAB's rank, on the pivots). */
static int numerical_rank(int n, const double *M)
{
    double *A = malloc((size_t)n * n * sizeof *A);
    memcpy(A, M, (size_t)n * n * sizeof *A);
    double amax = 0.0;
    for (int i = 0; i < n * n; i++) amax = fmax(amax, fabs(A[i]));
    const double tol = n * DBL_EPSILON * amax;
    int rank = 0;
    for (int k = 0; k < n; k++) {
        int pi = k, pj = k;
        for (int i = k; i < n; i++)
            for (int j = k; j < n; j++)
                if (fabs(A[i * n + j]) > fabs(A[pi * n + pj])) pi = i, pj = j;
        if (!(fabs(A[pi * n + pj]) > tol)) break;
        for (int j = 0; j < n; j++) { /* rows k <-> pi, columns k <-> pj */
            double t = A[k * n + j];
            A[k * n + j] = A[pi * n + j], A[pi * n + j] = t;
        }
        for (int i = 0; i < n; i++) {
            double t = A[i * n + k];
            A[i * n + k] = A[i * n + pj], A[i * n + pj] = t;
        }
        for (int i = k + 1; i < n; i++) {
            const double f = A[i * n + k] / A[k * n + k];
            for (int j = k; j < n; j++) A[i * n + j] -= f * A[k * n + j];
        }
        rank++;
    }
    free(A);
    return rank;
}

/* The reduced LCP of the initial state (sliding, four contacts), built
 * through the public contact layer; M and q copied into Mq (n^2 + n). */
static int first_lcp(const mcd_model *m, double h, double rho, double *Mq)
{
    mcd_data *d = NULL;
    mcd_contact_ws *cws = NULL;
    mcd_nslcp_ws *w = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    ck_assert_int_eq(mcd_contact_ws_create(m, d, 4, 4, &cws, NULL), MCD_OK);
    ck_assert_int_eq(mcd_nslcp_ws_create(4, 0, 2, &w, NULL), MCD_OK);
    const double q[7] = {0, 0, 0.5 * SIDE, 1, 0, 0, 0}, qd[6] = {0, V0, 0, 0, 0, W0};
    const double tau[6] = {0};
    mcd_contact_point c[4];
    int nc = 0;
    ck_assert_int_eq(mcd_forward_kinematics(m, d, q), MCD_OK);
    ck_assert_int_eq(box_ground(NULL, m, d, q, c, 4, &nc, NULL), MCD_OK);
    mcd_contact_options co = mcd_contact_default_options();
    ck_assert_int_eq(mcd_contact_setup(m, d, cws, q, qd, tau, h, nc, c, &co), MCD_OK);
    mcd_nslcp_options o = mcd_nslcp_default_options();
    o.rho = rho;
    mcd_error err = {0};
    ck_assert_msg(mcd_nslcp_build(w, cws, nc, c, &o, &co, &err) == MCD_OK, "%s", err.msg);
    mcd_mlcp p;
    ck_assert_int_eq(mcd_nslcp_lcp(w, &p), MCD_OK);
    memcpy(Mq, p.M, (size_t)p.n * p.n * sizeof *Mq);
    memcpy(Mq + p.n * p.n, p.q, (size_t)p.n * sizeof *Mq);
    const int n = p.n;
    mcd_nslcp_ws_free(w);
    mcd_contact_ws_free(cws);
    mcd_data_free(d);
    return n;
}

static int first_step_rank(const mcd_model *m, double h, double rho, int *n)
{
    double Mq[420];
    *n = first_lcp(m, h, rho, Mq);
    return numerical_rank(*n, Mq);
}

/* Anitescu & Potra (rho = 0): the columns of w_up and w_lo are opposite,
 * rank n_c (1 + n_dir) = 12 of 20. rho > 0 restores full rank; in double
 * precision (pivots above 20 eps max|M|) it is lost again below
 * rho ~ 1e-8 kg at h = 1 ms (the paper's value) and ~1e-5 kg at h = 10 ms:
 * the smallest singular value is ~ rho eps_n / mu (the redundant normal
 * direction of the four coplanar contacts, relaxed by eps_n of Eq. 40). */
START_TEST(rank_full_for_rho_positive_deficient_for_rho_zero)
{
    mcd_model *m = scene_box_model();
    const double hs[2] = {1e-3, 1e-2}, full_from[2] = {1e-7, 1e-4}, lost_at[2] = {1e-8, 1e-5};
    double Mq[420];
    for (int i = 0; i < 2; i++) {
        const int n = first_lcp(m, hs[i], 0.0, Mq);
        ck_assert_int_eq(n, 20);
        double amax = 0.0, dev = 0.0; /* column nc + j + K = -column nc + j */
        for (int r = 0; r < n; r++)
            for (int j = 4; j < 12; j++) {
                amax = fmax(amax, fabs(Mq[r * n + j]));
                dev = fmax(dev, fabs(Mq[r * n + j] + Mq[r * n + j + 8]));
            }
        ck_assert_msg(dev <= 1e-15 * amax, "h %g: w_up + w_lo columns %g", hs[i], dev);
        ck_assert_int_eq(numerical_rank(n, Mq), 12);
        const double rhos[4] = {full_from[i], 1e-4, 1e-2, 1e-1};
        for (int k = 0; k < 4; k++) {
            int nn = 0, r = first_step_rank(m, hs[i], fmax(rhos[k], full_from[i]), &nn);
            ck_assert_msg(r == 20, "h %g rho %g: rank %d", hs[i], rhos[k], r);
        }
        int nn = 0, r = first_step_rank(m, hs[i], lost_at[i], &nn);
        ck_assert_msg(r < 20, "h %g rho %g: rank %d", hs[i], lost_at[i], r);
    }
    mcd_model_free(m);
}
END_TEST

typedef struct box_run {
    mcd_status status;      /* of the first failing step, else MCD_OK */
    long steps;             /* completed */
    double x[2000][3];      /* x, y, yaw after each step (up to 2000) */
    double t_rest;          /* first time with |v|, |w| below v_th = 1e-3 */
    double end_speed;       /* max |qd| at the end */
    double drift;           /* max position change over the last 0.3 s */
    double keep[2];         /* x, y 0.3 s before the end */
    double sink;            /* -(z - l/2) at the end: static compression */
    double both_positive;   /* max over steps of min(w_up, w_lo) */
    int slid, stuck_at_end; /* a sliding contact was seen; all sticking at the end */
    int max_dirs;           /* directions per contact seen */
    char msg[MCD_ERROR_LEN];
} box_run;

static void record(box_run *b, mcd_sim *s, long i, long steps, double h)
{
    const double *q = mcd_sim_q(s), *v = mcd_sim_qd(s);
    const double yaw = 2.0 * atan2(q[6], q[3]), speed = fmax(hypot(v[0], v[1]), fabs(v[5]));
    if (i < 2000) b->x[i][0] = q[0], b->x[i][1] = q[1], b->x[i][2] = yaw;
    if (b->t_rest < 0 && speed < 1e-3) b->t_rest = mcd_sim_time(s);
    if (i == steps - 1 - lround(0.3 / h)) b->keep[0] = q[0], b->keep[1] = q[1];
    if (i == steps - 1) {
        b->drift = fmax(fabs(q[0] - b->keep[0]), fabs(q[1] - b->keep[1]));
        b->sink = 0.5 * SIDE - q[2];
        for (int j = 0; j < 6; j++) b->end_speed = fmax(b->end_speed, fabs(v[j]));
    }
    mcd_nslcp_ws *w = mcd_sim_nslcp_ws(s);
    int stuck = 1;
    for (int k = 0; k < mcd_sim_ncontacts(s); k++) {
        b->slid |= mcd_nslcp_sliding(w, k);
        stuck &= !mcd_nslcp_sliding(w, k);
        const int nd = mcd_nslcp_ndirections(w, k);
        b->max_dirs = nd > b->max_dirs ? nd : b->max_dirs;
        for (int j = 0; j < nd; j++) {
            double up, lo;
            ck_assert_int_eq(mcd_nslcp_velocity_params(w, k, j, &up, &lo), MCD_OK);
            b->both_positive = fmax(b->both_positive, fmin(up, lo));
        }
    }
    b->stuck_at_end = stuck;
}

/* The box for T = 1.5 s with ndir sticking directions. */
static box_run *run_box_dirs(mcd_step_method method, double h, double rho, int ndir)
{
    box_run *b = calloc(1, sizeof *b);
    b->t_rest = -1;
    b->both_positive = -INFINITY;
    mcd_model *m = scene_box_model();
    mcd_sim *s = box_sim(m, method, h, rho, ndir);
    const long steps = lround(1.5 / h);
    for (long i = 0; i < steps; i++) {
        b->status = mcd_sim_step(s, NULL);
        if (b->status != MCD_OK) {
            snprintf(b->msg, sizeof b->msg, "%s", mcd_sim_error(s));
            break;
        }
        b->steps++;
        record(b, s, i, steps, h);
    }
    mcd_sim_free(s);
    mcd_model_free(m);
    return b;
}

static box_run *run_box(mcd_step_method method, double h, double rho)
{
    return run_box_dirs(method, h, rho, 2);
}

static double max_deviation(const box_run *a, const box_run *b)
{
    double d = 0.0;
    for (long i = 0; i < a->steps && i < 2000; i++)
        for (int j = 0; j < 3; j++) d = fmax(d, fabs(a->x[i][j] - b->x[i][j]));
    return d;
}

/* Block pivoting solves every step of the rho > 0 problem with two
 * directions (rho = 1e-2 kg at both steps, 1e-4 kg at 1 ms), and reports
 * the rho = 0 problem singular at the first step. */
START_TEST(block_pivoting_needs_rho_positive)
{
    const double hs[3] = {1e-2, 1e-3, 1e-3}, rho[3] = {1e-2, 1e-2, 1e-4};
    for (int i = 0; i < 3; i++) {
        box_run *b = run_box(MCD_METHOD_NSLCP_JUDICE, hs[i], rho[i]);
        ck_assert_msg(b->status == MCD_OK, "h %g rho %g: %s", hs[i], rho[i], b->msg);
        ck_assert_int_eq(b->max_dirs, 2);
        free(b);
        b = run_box(MCD_METHOD_NSLCP_JUDICE, hs[i], 0.0);
        ck_assert_int_eq(b->status, MCD_ERR_SINGULAR);
        ck_assert_int_eq(b->steps, 0);
        ck_assert_ptr_nonnull(strstr(b->msg, "singular M"));
        free(b);
    }
}
END_TEST

/* Lemke with rho over the decades where M keeps its numerical rank (1e-1
 * down to 1e-8 kg at h = 1 ms, down to 1e-4 kg at h = 10 ms) and block
 * pivoting with rho = 1e-2 kg give the same trajectory within 1e-9 (m,
 * rad) at every step: a solution of the rho-LCP has w_up w_lo = 0
 * componentwise, so rho never enters the dynamics. (Below those values
 * Lemke's pivots become unreliable: at h = 10 ms, rho = 1e-8 fails on the
 * Bullet contacts of models/box_ground.yaml.) */
START_TEST(trajectory_insensitive_to_rho)
{
    const double hs[2] = {1e-2, 1e-3};
    const int lowest[2] = {4, 8};
    for (int i = 0; i < 2; i++) {
        box_run *ref = run_box(MCD_METHOD_NSLCP_LEMKE, hs[i], 1e-2);
        ck_assert_msg(ref->status == MCD_OK, "%s", ref->msg);
        for (int e = 1; e <= lowest[i]; e++) {
            box_run *b = run_box(MCD_METHOD_NSLCP_LEMKE, hs[i], pow(10.0, -e));
            ck_assert_msg(b->status == MCD_OK, "h %g rho 1e-%d: %s", hs[i], e, b->msg);
            ck_assert_msg(max_deviation(b, ref) <= 1e-9, "h %g rho 1e-%d: deviation %g", hs[i], e,
                          max_deviation(b, ref));
            free(b);
        }
        box_run *j = run_box(MCD_METHOD_NSLCP_JUDICE, hs[i], 1e-2);
        ck_assert_msg(max_deviation(j, ref) <= 1e-9, "h %g judice: %g", hs[i],
                      max_deviation(j, ref));
        free(j);
        free(ref);
    }
}
END_TEST

/* The box slides (contacts in sliding mode), stops after at least
 * v0 / (mu g) = 0.51 s (friction cannot decelerate faster) and before
 * 0.7 s (|v|, |w| below v_th), then rests: speeds below 1e-9, no drift over the last 0.3 s
 * (1e-9 m), every contact sticking, and each corner compressed by
 * m g / (4 k_n) = 2.4525e-10 m within 1%. w_up and w_lo are never both
 * positive (above 1e-12 m/s). */
START_TEST(box_comes_to_rest)
{
    const double hs[2] = {1e-2, 1e-3};
    for (int i = 0; i < 2; i++)
        for (int meth = 0; meth < 2; meth++) {
            const mcd_step_method method = meth ? MCD_METHOD_NSLCP_JUDICE : MCD_METHOD_NSLCP_LEMKE;
            box_run *b = run_box(method, hs[i], 1e-2);
            const char *name = mcd_step_method_name(method);
            ck_assert_msg(b->status == MCD_OK, "%s h %g: %s", name, hs[i], b->msg);
            ck_assert_msg(b->t_rest >= V0 / (MU * 9.81) && b->t_rest < 0.7, "%s h %g: rest at %g",
                          name, hs[i], b->t_rest);
            ck_assert_msg(b->end_speed < 1e-9 && b->drift < 1e-9, "%s h %g: speed %g drift %g",
                          name, hs[i], b->end_speed, b->drift);
            ck_assert(b->slid && b->stuck_at_end);
            ck_assert_msg(fabs(b->sink / (9.81 / 4e10) - 1) < 0.01, "%s h %g: sink %g", name, hs[i],
                          b->sink);
            ck_assert_msg(b->both_positive <= 1e-12, "%s h %g: w_up, w_lo both %g", name, hs[i],
                          b->both_positive);
            free(b);
        }
}
END_TEST

/* A deep penetration is removed at most at max_correction_velocity, as by
 * every other method: the box starts 0.2 m into the plane at rest, where
 * Eq. (41)'s spring alone, eps_n h k_n phi = 0.2 k_n h / (k_n h + b_n) =
 * 18 m/s at h = 1 ms, would launch it. After one step its upward speed is
 * the cap (1 m/s) within the step's gravity g h and the relaxation of the
 * other corners' rows (1e-6 m/s). */
START_TEST(deep_penetration_is_capped)
{
    const mcd_contact_options copt = mcd_contact_default_options();
    for (int meth = 0; meth < 2; meth++) {
        const mcd_step_method method = meth ? MCD_METHOD_NSLCP_JUDICE : MCD_METHOD_NSLCP_LEMKE;
        mcd_model *m = scene_box_model();
        mcd_sim *s = box_sim(m, method, 1e-3, 1e-2, 2);
        const double q[7] = {0, 0, 0.5 * SIDE - 0.2, 1, 0, 0, 0}, qd[6] = {0};
        ck_assert_int_eq(mcd_sim_set_state(s, q, qd, 0.0), MCD_OK);
        ck_assert_msg(mcd_sim_step(s, NULL) == MCD_OK, "%s", mcd_sim_error(s));
        const double vz = mcd_sim_qd(s)[2];
        ck_assert_msg(fabs(vz - copt.max_correction_velocity) <= 9.81e-3 + 1e-6, "%s: v_z %g",
                      mcd_step_method_name(method), vz);
        mcd_sim_free(s);
        mcd_model_free(m);
    }
}
END_TEST

static mcd_scenario *load(const char *name)
{
    char path[1024];
    const char *src = getenv("MCDYN_SOURCE");
    snprintf(path, sizeof path, "%s/models/%s", src ? src : ".", name);
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load(path, &sc, &err) == MCD_OK, "%s", err.msg);
    return sc;
}

/* Runs the scenario for duration with method: the height of the last
 * body's origin after probe_steps steps, and its world v_x at the end. */
static double run_scenario(const char *file, const char *method, double duration, long probe_steps,
                           double *vx)
{
    mcd_scenario *sc = load(file);
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.solver = method;
    ov.duration = duration;
    mcd_runner *r = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_runner_create(sc, &ov, &r, &err) == MCD_OK, "%s", err.msg);
    mcd_sim *s = mcd_runner_sim(r);
    const mcd_model *m = sc->model;
    mcd_data *d = mcd_sim_data(s);
    double z = NAN;
    for (long i = 0; i < mcd_runner_steps(r); i++) {
        ck_assert_msg(mcd_runner_step(r, NULL) == MCD_OK, "%s %s: %s", file, method,
                      mcd_sim_error(s));
        if (i + 1 != probe_steps) continue;
        ck_assert_int_eq(mcd_forward_kinematics(m, d, mcd_sim_q(s)), MCD_OK);
        z = d->bd[m->nbody - 1].X_world.p[2];
    }
    *vx = mcd_sim_qd(s)[0];
    mcd_runner_free(r);
    mcd_scenario_free(sc);
    return z;
}

/* models/sphere_plane.yaml (Mylapilli & Jain Sec. 6.1) with both methods:
 * rolling at 5 v0 / 7 = 1.428571 within 1e-6 at 0.6 s. The first 5 s of
 * models/pendulum12.yaml (Bullet contacts, e = 0.7) run; after its first
 * floor impact, at 0.6 s, the tip height agrees with mncp-plm within 5 mm
 * (measured 2.2 mm: the compliant normal law of Eq. 40-41 against a rigid
 * one). Later the chaotic chain diverges from the rigid methods, as those
 * differ from one another over the 20 s. models/four_bar.yaml (a loop
 * closure with redundant rows, relaxed by k_b, b_b) ends 2 s within 1e-6 m
 * of mncp-plm (measured 1e-8 m). */
START_TEST(scenarios_run_with_both_methods)
{
    const char *methods[2] = {"nslcp-lemke", "nslcp-judice"};
    double vx;
    const double zref = run_scenario("pendulum12.yaml", "mncp-plm", 0.6, 600, &vx);
    const double fref = run_scenario("four_bar.yaml", "mncp-plm", 2.0, 2000, &vx);
    for (int i = 0; i < 2; i++) {
        run_scenario("sphere_plane.yaml", methods[i], 0.6, 0, &vx);
        ck_assert_msg(fabs(vx - 10.0 / 7.0) < 1e-6, "%s: v_x %.9f", methods[i], vx);
        const double z = run_scenario("pendulum12.yaml", methods[i], 5.0, 600, &vx);
        ck_assert_msg(fabs(z - zref) < 5e-3, "%s: tip %.6f vs %.6f", methods[i], z, zref);
        const double f = run_scenario("four_bar.yaml", methods[i], 2.0, 2000, &vx);
        ck_assert_msg(fabs(f - fref) < 1e-6, "%s: four-bar %.9f vs %.9f", methods[i], f, fref);
    }
}
END_TEST

/* The paper's remark on more than two directions: with ndir = 4 (8) the
 * sticking box's LCP is still nonsingular, but block pivoting exchanges
 * a dependent set and meets a singular principal block (or an M below
 * its rcond threshold) when the box comes to rest, at 0.663 s (h = 1 ms);
 * Lemke's single pivots solve it and give the two-direction trajectory
 * (within 1e-9: the box never sticks before it rests). */
START_TEST(more_directions_defeat_block_pivoting)
{
    for (int nd = 4; nd <= 8; nd += 4) {
        box_run *j = run_box_dirs(MCD_METHOD_NSLCP_JUDICE, 1e-3, 1e-2, nd);
        ck_assert_int_eq(j->status, MCD_ERR_SINGULAR);
        ck_assert_msg(j->steps > 600 && j->steps < 700, "ndir %d: failed after %ld steps", nd,
                      j->steps);
        box_run *l = run_box_dirs(MCD_METHOD_NSLCP_LEMKE, 1e-3, 1e-2, nd);
        ck_assert_msg(l->status == MCD_OK, "ndir %d: %s", nd, l->msg);
        ck_assert_int_eq(l->max_dirs, nd);
        box_run *ref = run_box(MCD_METHOD_NSLCP_LEMKE, 1e-3, 1e-2);
        ck_assert_msg(max_deviation(l, ref) <= 1e-9, "ndir %d: %g", nd, max_deviation(l, ref));
        free(j), free(l), free(ref);
    }
}
END_TEST

/* Two boxes of box_grid.h resting 1 m apart, slightly pressed into the
 * plane: box 0 sliding along y at 1 m/s (sliding mode), box 1 at rest
 * (sticking, two directions), so that the step has two independent groups
 * of four contacts. */
#define PAIR_H 1e-3
static void pair_state(double q[14], double qd[12])
{
    box_grid_rest(2, -1e-4, q);
    memset(qd, 0, 12 * sizeof *qd);
    qd[1] = 1.0;
}

/* The pair's first step set up (8 contacts, two groups), box 1 creeping
 * along y at creep [m/s]. */
typedef struct pair_step {
    mcd_data *d;
    mcd_contact_ws *cws;
    mcd_contact_point c[8];
    int nc;
    mcd_contact_options co;
} pair_step;

static void pair_step_open(const mcd_model *m, double creep, pair_step *ps)
{
    double q[14], qd[12];
    const double tau[12] = {0};
    pair_state(q, qd);
    qd[7] = creep;
    *ps = (pair_step){.co = mcd_sim_default_options().contact};
    ck_assert_int_eq(mcd_data_create(m, &ps->d, NULL), MCD_OK);
    ck_assert_int_eq(mcd_contact_ws_create(m, ps->d, 8, 4, &ps->cws, NULL), MCD_OK);
    ck_assert_int_eq(mcd_forward_kinematics(m, ps->d, q), MCD_OK);
    ck_assert_int_eq(box_grid_plane(NULL, m, ps->d, q, ps->c, 8, &ps->nc, NULL), MCD_OK);
    ck_assert_int_eq(
        mcd_contact_setup(m, ps->d, ps->cws, q, qd, tau, PAIR_H, ps->nc, ps->c, &ps->co), MCD_OK);
}

static void pair_step_close(pair_step *ps)
{
    mcd_contact_ws_free(ps->cws);
    mcd_data_free(ps->d);
}

/* The whole step's LCP (mcd_nslcp_build, one problem for both groups)
 * built in w, solved by Lemke into z (64) and taken; returns its size. */
static int whole_step_solved(mcd_nslcp_ws *w, pair_step *ps, double *z)
{
    const mcd_nslcp_options o = mcd_nslcp_default_options();
    mcd_error err = {0};
    ck_assert_msg(mcd_nslcp_build(w, ps->cws, ps->nc, ps->c, &o, &ps->co, &err) == MCD_OK, "%s",
                  err.msg);
    mcd_mlcp p;
    ck_assert_int_eq(mcd_nslcp_lcp(w, &p), MCD_OK);
    ck_assert_int_le(p.n, 64);
    mcd_solver_ws *sws = NULL;
    ck_assert_int_eq(mcd_solver_ws_create(p.n, &sws, NULL), MCD_OK);
    memset(z, 0, 64 * sizeof *z);
    const mcd_solver_opts so = mcd_solver_default_opts(MCD_SOLVER_MLCP_LEMKE);
    ck_assert_msg(mcd_solve_mlcp(sws, MCD_SOLVER_MLCP_LEMKE, &p, &so, z, NULL, &err) == MCD_OK,
                  "%s", err.msg);
    ck_assert_msg(mcd_nslcp_take(w, ps->cws, z, &err) == MCD_OK, "%s", err.msg);
    mcd_solver_ws_free(sws);
    return p.n;
}

/* The impulses (F_f, F_o, F_n per contact, into F) of the pair's first
 * step from the whole step's LCP; returns the size of that LCP. */
static int pair_whole_step(const mcd_model *m, double *F, int *nc)
{
    pair_step ps;
    pair_step_open(m, 0.0, &ps);
    ck_assert_int_eq(mcd_contact_group_count(ps.cws), 2);
    mcd_nslcp_ws *w = NULL;
    ck_assert_int_eq(mcd_nslcp_ws_create(8, 0, 2, &w, NULL), MCD_OK);
    double z[64];
    const int n = whole_step_solved(w, &ps, z);
    *nc = ps.nc;
    for (int k = 0; k < ps.nc; k++)
        memcpy(F + 3 * k, mcd_contact_impulse(ps.cws, k), 3 * sizeof *F);
    mcd_nslcp_ws_free(w);
    pair_step_close(&ps);
    return n;
}

/* The pair stepped by method. */
static mcd_sim *pair_sim(const mcd_model *m, mcd_step_method method)
{
    mcd_sim_options o = mcd_sim_default_options();
    o.dt = PAIR_H;
    o.solver = method;
    o.solver_opts = mcd_step_method_default_opts(method);
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, &o, &s, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(s, box_grid_plane, NULL);
    double q[14], qd[12];
    pair_state(q, qd);
    ck_assert_int_eq(mcd_sim_set_state(s, q, qd, 0.0), MCD_OK);
    return s;
}

/* The simulator builds and solves the non-singular LCP per independent
 * group: after the pair's first step the LCP built last is one box's (4
 * contacts (1 + 2 2) = 20, not the whole step's 40), and both methods'
 * impulses are those of the whole step's LCP (block diagonal over the
 * groups) within 1e-9 of the largest. */
START_TEST(groups_are_solved_apart_as_the_whole)
{
    mcd_model *m = box_grid_model(2);
    double Fw[24];
    int nc = 0;
    ck_assert_int_eq(pair_whole_step(m, Fw, &nc), 40);
    ck_assert_int_eq(nc, 8);
    double scale = 0.0;
    for (int i = 0; i < 3 * nc; i++) scale = fmax(scale, fabs(Fw[i]));
    ck_assert(scale > 0);
    for (int meth = 0; meth < 2; meth++) {
        const mcd_step_method method = meth ? MCD_METHOD_NSLCP_JUDICE : MCD_METHOD_NSLCP_LEMKE;
        mcd_sim *s = pair_sim(m, method);
        ck_assert_msg(mcd_sim_step(s, NULL) == MCD_OK, "%s", mcd_sim_error(s));
        const mcd_contact_ws *cws = mcd_sim_contact_ws(s);
        ck_assert_int_eq(mcd_contact_group_count(cws), 2);
        ck_assert_int_eq(mcd_contact_count(cws), nc);
        mcd_mlcp p;
        ck_assert_int_eq(mcd_nslcp_lcp(mcd_sim_nslcp_ws(s), &p), MCD_OK);
        ck_assert_int_eq(p.n, 20);
        double dev = 0.0;
        for (int k = 0; k < nc; k++)
            for (int a = 0; a < 3; a++)
                dev = fmax(dev, fabs(mcd_contact_impulse(cws, k)[a] - Fw[3 * k + a]));
        ck_assert_msg(dev <= 1e-9 * scale, "%s: impulses %g from the whole step's (scale %g)",
                      mcd_step_method_name(method), dev, scale);
        mcd_sim_free(s);
    }
    mcd_model_free(m);
}
END_TEST

/* The group functions report bad input: a group out of range, NULL, and a
 * take of a group other than the one built. */
START_TEST(group_arguments_are_checked)
{
    mcd_model *m = box_grid_model(2);
    pair_step ps;
    pair_step_open(m, 0.0, &ps);
    mcd_contact_ws *cws = ps.cws;
    mcd_nslcp_ws *w = NULL;
    ck_assert_int_eq(mcd_nslcp_ws_create(8, 0, 2, &w, NULL), MCD_OK);
    const mcd_nslcp_options o = mcd_nslcp_default_options();
    mcd_error err = {0};
    ck_assert_int_eq(mcd_nslcp_setup(w, cws, ps.nc, ps.c, &o, &ps.co, &err), MCD_OK);
    const int bad[2] = {-1, 2};
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(mcd_nslcp_build_group(w, cws, bad[i], &err), MCD_ERR_ARG);
        ck_assert_msg(strstr(err.msg, bad[i] < 0 ? "group -1" : "group 2"), "%s", err.msg);
    }
    ck_assert_int_eq(mcd_nslcp_build_group(NULL, cws, 0, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_nslcp_build_group(w, NULL, 0, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_nslcp_build_group(w, cws, 1, &err), MCD_OK);
    double z[20] = {0};
    ck_assert_int_eq(mcd_nslcp_take_group(w, cws, 0, z, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_nslcp_take_group(w, cws, 1, NULL, &err), MCD_ERR_ARG);
    mcd_nslcp_ws_free(w);
    pair_step_close(&ps);
    mcd_model_free(m);
}
END_TEST

/* The friction memory of Eq. (42) carried into a larger workspace (the
 * simulator's capacity growth, sim_capacity.c): after one step of the
 * pair with box 1 creeping (sticking, a friction force to remember), the
 * next step's LCP built in the workspace that received the memory is the
 * one of the workspace that made the step, bit for bit, and not that of a
 * fresh workspace, which forgets the force; the warm start of both is the
 * previous step's solution. */
START_TEST(friction_memory_is_carried)
{
    mcd_model *m = box_grid_model(2);
    pair_step ps;
    pair_step_open(m, 5e-4, &ps);            /* box 1 creeps below v_th: sticking */
    mcd_nslcp_ws *w[3] = {NULL, NULL, NULL}; /* the stepping one, the carried, a fresh one */
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(mcd_nslcp_ws_create(i ? 16 : 8, 0, 2, &w[i], NULL), MCD_OK);
    double z[64];
    whole_step_solved(w[0], &ps, z);
    mcd_error err = {0};
    ck_assert_msg(mcd_nslcp_ws_carry_memory(w[1], w[0], &err) == MCD_OK, "%s", err.msg);
    ck_assert_int_eq(mcd_nslcp_ws_carry_memory(NULL, w[0], &err), MCD_ERR_ARG);
    const mcd_nslcp_options o = mcd_nslcp_default_options();
    double qn[3][64];
    int n = 0;
    for (int i = 0; i < 3; i++) { /* the next step, from the same set-up */
        ck_assert_msg(mcd_nslcp_build(w[i], ps.cws, ps.nc, ps.c, &o, &ps.co, &err) == MCD_OK, "%s",
                      err.msg);
        mcd_mlcp p;
        ck_assert_int_eq(mcd_nslcp_lcp(w[i], &p), MCD_OK);
        memcpy(qn[i], p.q, (size_t)p.n * sizeof *p.q);
        n = p.n;
        /* the warm start: the previous solution, every contact matched in
         * the same mode; none in the fresh workspace */
        double start[64];
        ck_assert_int_eq(mcd_nslcp_start(w[i], start), i < 2 ? ps.nc : 0);
        for (int j = 0; j < n && i < 2; j++) ck_assert_double_eq(start[j], z[j]);
    }
    double carried = 0.0, fresh = 0.0;
    for (int j = 0; j < n; j++)
        carried = fmax(carried, fabs(qn[1][j] - qn[0][j])),
        fresh = fmax(fresh, fabs(qn[2][j] - qn[0][j]));
    ck_assert_msg(carried == 0.0, "carried memory: q differs by %g", carried);
    ck_assert_msg(fresh > 1e-9, "a fresh workspace should forget the force (q differs by %g)",
                  fresh);
    mcd_nslcp_ws *small = NULL; /* holds 2 of the 8 remembered contacts */
    ck_assert_int_eq(mcd_nslcp_ws_create(2, 0, 2, &small, NULL), MCD_OK);
    ck_assert_int_eq(mcd_nslcp_ws_carry_memory(small, w[0], &err), MCD_ERR_CAPACITY);
    ck_assert_msg(strstr(err.msg, "8 remembered contacts"), "%s", err.msg);
    mcd_nslcp_ws_free(small);
    for (int i = 0; i < 3; i++) mcd_nslcp_ws_free(w[i]);
    pair_step_close(&ps);
    mcd_model_free(m);
}
END_TEST

/* The scenario's nslcp section: values read, defaults kept, errors located
 * with the key. */
START_TEST(scenario_section)
{
    char yaml[2048];
    const char *src = getenv("MCDYN_SOURCE");
    const char *fmt = "robots:\n  - {urdf: %s/models/box_ground.urdf, base: floating}\n%s";
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    snprintf(yaml, sizeof yaml, fmt, src ? src : ".", "nslcp: {rho: 1e-3, directions: 4}\n");
    ck_assert_msg(mcd_scenario_load_string(yaml, "t.yaml", NULL, &sc, &err) == MCD_OK, "%s",
                  err.msg);
    const mcd_nslcp_options d = mcd_nslcp_default_options();
    ck_assert(sc->settings.nslcp.rho == 1e-3 && sc->settings.nslcp.ndir == 4);
    ck_assert(sc->settings.nslcp.k_n == d.k_n && sc->settings.nslcp.v_th == d.v_th);
    mcd_scenario_free(sc);
    const char *bad[3][2] = {{"nslcp: {rho: -1}\n", "nslcp.rho"},
                             {"nslcp: {stiffness: 1}\n", "stiffness"},
                             {"nslcp: {directions: 17}\n", "ndir = 17"}};
    for (int i = 0; i < 3; i++) {
        snprintf(yaml, sizeof yaml, fmt, src ? src : ".", bad[i][0]);
        sc = NULL;
        ck_assert_int_ne(mcd_scenario_load_string(yaml, "t.yaml", NULL, &sc, &err), MCD_OK);
        ck_assert_ptr_null(sc);
        ck_assert_msg(strstr(err.msg, bad[i][1]) && strstr(err.msg, "t.yaml:"), "%s", err.msg);
    }
}
END_TEST

/* Options are checked at creation with a clear message. */
START_TEST(bad_options_are_reported)
{
    mcd_model *m = scene_box_model();
    mcd_sim_options o = mcd_sim_default_options();
    o.solver = MCD_METHOD_NSLCP_JUDICE;
    mcd_sim *s = NULL;
    mcd_error err = {0};
    o.nslcp.rho = NAN;
    ck_assert_int_eq(mcd_sim_create(m, &o, &s, &err), MCD_ERR_NONFINITE);
    ck_assert_ptr_nonnull(strstr(err.msg, "rho"));
    o.nslcp = mcd_nslcp_default_options();
    o.nslcp.k_t = o.nslcp.b_t = 0;
    ck_assert_int_eq(mcd_sim_create(m, &o, &s, &err), MCD_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(err.msg, "k_t + b_t"));
    o.nslcp = mcd_nslcp_default_options();
    o.nslcp.ndir = 1;
    ck_assert_int_eq(mcd_sim_create(m, &o, &s, &err), MCD_ERR_ARG);
    o.nslcp.ndir = 2;
    o.nslcp.v_th = -1;
    ck_assert_int_eq(mcd_sim_create(m, &o, &s, &err), MCD_ERR_ARG);
    ck_assert_ptr_null(s);
    mcd_model_free(m);
}
END_TEST

#if ALLOC_COUNTER_AVAILABLE
/* The steps of both methods allocate nothing (sliding and sticking; one
 * group, the box, and two, the pair of boxes). */
START_TEST(no_allocation_in_a_step)
{
    mcd_model *m = scene_box_model(), *pair = box_grid_model(2);
    for (int run = 0; run < 4; run++) {
        const mcd_step_method method = run % 2 ? MCD_METHOD_NSLCP_JUDICE : MCD_METHOD_NSLCP_LEMKE;
        mcd_sim *s = run < 2 ? box_sim(m, method, 1e-2, 1e-2, 2) : pair_sim(pair, method);
        ck_assert_int_eq(mcd_sim_step(s, NULL), MCD_OK);
        alloc_counter_start();
        mcd_status r = MCD_OK;
        for (int i = 0; i < 100 && r == MCD_OK; i++) r = mcd_sim_step(s, NULL);
        const long allocations = alloc_counter_stop();
        ck_assert_int_eq(r, MCD_OK);
        ck_assert_int_eq(allocations, 0);
        mcd_sim_free(s);
    }
    mcd_model_free(m);
    mcd_model_free(pair);
}
END_TEST
#endif

static Suite *suite(void)
{
    Suite *s = suite_create("nslcp");
    TCase *tc = tcase_create("box");
    tcase_add_test(tc, rank_full_for_rho_positive_deficient_for_rho_zero);
    tcase_add_test(tc, block_pivoting_needs_rho_positive);
    tcase_add_test(tc, trajectory_insensitive_to_rho);
    tcase_add_test(tc, box_comes_to_rest);
    tcase_add_test(tc, deep_penetration_is_capped);
    tcase_add_test(tc, bad_options_are_reported);
    tcase_add_test(tc, scenarios_run_with_both_methods);
    tcase_add_test(tc, more_directions_defeat_block_pivoting);
    tcase_add_test(tc, scenario_section);
    tcase_add_test(tc, groups_are_solved_apart_as_the_whole);
    tcase_add_test(tc, group_arguments_are_checked);
    tcase_add_test(tc, friction_memory_is_carried);
#if ALLOC_COUNTER_AVAILABLE
    tcase_add_test(tc, no_allocation_in_a_step);
#endif
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(suite());
}

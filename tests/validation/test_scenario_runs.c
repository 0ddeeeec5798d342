/* The validation scenarios of models/ run through the scenario runner
 * (runner.h) and behave as Mylapilli & Jain (2017) describe:
 *  - sphere_plane.yaml (Sec. 6.1, Case 1): sliding until
 *    t_sr = 2 v0 / (7 mu g) = 0.2912 s, then rolling at vx = wy = 5 v0 / 7,
 *    with vy = wx = 0;
 *  - sphere_plane_case2.yaml (Case 2, directions fixed at 45 degrees):
 *    sliding lasts longer (the paper: about 0.4 s), then rolling;
 *  - pendulum12.yaml (Sec. 6.2): the pendulum swings from the left into the
 *    floor (first contact at 0.158 s, when the straight chain's tip reaches
 *    it), then reaches the wall on the right; nothing passes through the
 *    floor or the wall. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "mcdyn/mcdyn.h"
#include "mcdyn/runner.h"
#include "mcdyn/scenario.h"

#define V0     2.0
#define MU     0.2
#define G      9.81
#define TSR    (2 * V0 / (7 * MU * G))
#define VROLL  (5 * V0 / 7)
#define NLINK  12
#define RADIUS 0.25
#define FLOOR  0.1 /* z of the floor's top */
#define WALL   4.0 /* y of the wall's face */

/* $MCDYN_SOURCE/models/name (static buffer). */
static const char *model_path(const char *name)
{
    static char path[4096];
    const char *src = getenv("MCDYN_SOURCE");
    ck_assert_msg(src != NULL, "MCDYN_SOURCE is not set");
    snprintf(path, sizeof path, "%s/models/%s", src, name);
    return path;
}

static mcd_runner *start(const char *name, mcd_scenario **sc)
{
    mcd_error err = {0};
    mcd_runner *r = NULL;
    ck_assert_msg(mcd_scenario_load(model_path(name), sc, &err) == MCD_OK, "%s", err.msg);
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ck_assert_msg(mcd_runner_create(*sc, &ov, &r, &err) == MCD_OK, "%s", err.msg);
    return r;
}

static void step(mcd_runner *r, mcd_step_stats *stats)
{
    mcd_status st = mcd_runner_step(r, stats);
    ck_assert_msg(st == MCD_OK, "t = %g: %s", mcd_sim_time(mcd_runner_sim(r)),
                  mcd_sim_error(mcd_runner_sim(r)));
}

typedef struct sphere_run {
    double t_roll;      /* first time the contact point stops slipping */
    double vx, wy;      /* final velocities */
    double max_lateral; /* max |vy|, |wx|, |wz| */
} sphere_run;

/* Runs a sphere scenario to its end. The free joint's qd is [v; w], v in
 * the world axes, w in the body axes (the sphere only turns about y, which
 * the body and world axes share). */
static sphere_run run_sphere(const char *name)
{
    mcd_scenario *sc = NULL;
    mcd_runner *r = start(name, &sc);
    mcd_sim *sim = mcd_runner_sim(r);
    sphere_run out = {-1, 0, 0, 0};
    for (long k = 0; k < mcd_runner_steps(r); k++) {
        step(r, NULL);
        const double *v = mcd_sim_qd(sim);
        if (out.t_roll < 0 && fabs(v[0] - v[4] * 1.0) < 1e-9) out.t_roll = mcd_sim_time(sim);
        double lateral = fmax(fabs(v[1]), fmax(fabs(v[3]), fabs(v[5])));
        out.max_lateral = fmax(out.max_lateral, lateral);
        out.vx = v[0], out.wy = v[4];
    }
    ck_assert_double_eq_tol(mcd_sim_time(sim), 0.6, 1e-9);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
    return out;
}

START_TEST(sphere_case1)
{
    sphere_run s = run_sphere("sphere_plane.yaml");
    ck_assert_msg(fabs(s.t_roll - TSR) < 1.5e-3, "rolling from %g s, expected %g", s.t_roll, TSR);
    ck_assert_double_eq_tol(s.vx, VROLL, 1e-6);
    ck_assert_double_eq_tol(s.wy, VROLL, 1e-6);
    ck_assert_double_eq_tol(s.max_lateral, 0.0, 1e-9);
}
END_TEST

START_TEST(sphere_case2)
{
    sphere_run s = run_sphere("sphere_plane_case2.yaml");
    ck_assert_msg(s.t_roll > TSR + 0.05 && s.t_roll < 0.5, "rolling from %g s", s.t_roll);
    ck_assert_double_eq_tol(s.vx, s.wy, 1e-6);
}
END_TEST

START_TEST(pendulum_floor_then_wall)
{
    mcd_scenario *sc = NULL;
    mcd_runner *r = start("pendulum12.yaml", &sc);
    mcd_sim *sim = mcd_runner_sim(r);
    const mcd_model *m = sc->model;
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double t_floor = -1, t_wall = -1, zmin = 1e9, ymax = -1e9;
    for (long k = 0; k < mcd_runner_steps(r); k++) {
        mcd_step_stats stats;
        step(r, &stats);
        if (t_floor < 0 && stats.ncontacts > 0) t_floor = mcd_sim_time(sim);
        ck_assert_int_eq(mcd_forward_kinematics(m, d, mcd_sim_q(sim)), MCD_OK);
        for (int b = 0; b < NLINK; b++) {
            double c[3];
            mcd_pose_apply(c, &d->bd[b].X_world, m->body[b].mass.com);
            zmin = fmin(zmin, c[2]);
            ymax = fmax(ymax, c[1]);
        }
        if (t_wall < 0 && ymax > WALL - RADIUS - 1e-2) t_wall = mcd_sim_time(sim);
    }
    /* the first contact is the tip on the floor */
    ck_assert_msg(t_floor > 0.15 && t_floor < 0.17, "first contact at %g s", t_floor);
    ck_assert_msg(t_wall > t_floor, "the wall was reached at %g s (floor at %g s)", t_wall,
                  t_floor);
    ck_assert_msg(zmin > FLOOR + RADIUS - 0.01, "a sphere sank to z = %g", zmin);
    ck_assert_msg(ymax < WALL - RADIUS + 0.01, "a sphere went to y = %g", ymax);
    mcd_data_free(d);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("validation-runs");
    TCase *tc = tcase_create("scenarios");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, sphere_case1);
    tcase_add_test(tc, sphere_case2);
    tcase_add_test(tc, pendulum_floor_then_wall);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* models/pendulum12.xml, the MuJoCo side of `mcdyn bench sim`
 * (docs/validation-models.md): it loads in MuJoCo 2.2.2 and runs 1 s
 * without NaN while the tip falls onto the floor; it is the scene of
 * models/pendulum12.yaml (same bodies, initial state, floor, wall, friction,
 * time step); its contact parameters give a restitution of 0.7; and
 * tools/bench_mujoco.c measures it and reports the tip's height at 2 s. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>

#include "common/check_main.h"
#include "bench_mujoco.h"
#include "mcdyn/mcdyn.h"
#include "mcdyn/runner.h"
#include "mcdyn/scenario.h"

#define NLINK  12
#define RADIUS 0.25
#define FLOOR  0.1 /* z of the floor's top */

/* $MCDYN_SOURCE/models/name (static buffer). */
static const char *model_path(const char *name)
{
    static char path[4096];
    const char *src = getenv("MCDYN_SOURCE");
    ck_assert_msg(src != NULL, "MCDYN_SOURCE is not set");
    snprintf(path, sizeof path, "%s/models/%s", src, name);
    return path;
}

static mjModel *load_mjcf(void)
{
    char err[1000] = "";
    mjModel *m = mj_loadXML(model_path("pendulum12.xml"), NULL, err, sizeof err);
    ck_assert_msg(m != NULL, "pendulum12.xml: %s", err);
    return m;
}

/* d at the keyframe "initial", with its kinematics. */
static void reset_initial(const mjModel *m, mjData *d)
{
    int key = mj_name2id(m, mjOBJ_KEY, "initial");
    ck_assert_int_ge(key, 0);
    mj_resetDataKeyframe(m, d, key);
    mj_forward(m, d);
}

static int tip_body(const mjModel *m)
{
    int b = mj_name2id(m, mjOBJ_BODY, "link12");
    ck_assert_int_eq(b, m->nbody - 1);
    return b;
}

static void assert_no_fatal_warning(const mjData *d)
{
    const int kinds[] = {mjWARN_BADQPOS, mjWARN_BADQVEL, mjWARN_BADQACC, mjWARN_CONTACTFULL,
                         mjWARN_CNSTRFULL};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        ck_assert_int_eq(d->warning[kinds[k]].number, 0);
}

START_TEST(mjcf_runs_and_tip_falls)
{
    mjModel *m = load_mjcf();
    ck_assert_int_eq(m->nq, NLINK);
    ck_assert_int_eq(m->nv, NLINK);
    ck_assert_int_eq(m->nbody, NLINK + 1);
    ck_assert_int_eq(m->ngeom, NLINK + 2);
    ck_assert_double_eq_tol(m->opt.timestep, 1e-3, 1e-15);
    ck_assert_int_eq(m->opt.integrator, mjINT_EULER);
    ck_assert_int_eq(m->opt.cone, mjCONE_ELLIPTIC);
    mjData *d = mj_makeData(m);
    reset_initial(m, d);
    const int tip = tip_body(m);
    const double z0 = d->xipos[3 * tip + 2];
    double zmin = z0, z_touch = -1;
    for (int step = 1; step <= 1000; step++) {
        mj_step(m, d);
        for (int i = 0; i < m->nq; i++) ck_assert(isfinite(d->qpos[i]));
        for (int i = 0; i < m->nv; i++) ck_assert(isfinite(d->qvel[i]));
        mj_kinematics(m, d);
        double z = d->xipos[3 * tip + 2];
        if (z < zmin) zmin = z;
        if (z_touch < 0 && z < FLOOR + RADIUS + 0.01) z_touch = step * 1e-3;
    }
    assert_no_fatal_warning(d);
    /* from 1.515 m above the floor's top down onto it (at about 0.16 s),
     * penetrating less than 5 cm */
    ck_assert_double_eq_tol(z0, 10.1 - 12 * sqrt(0.5), 1e-9);
    ck_assert_msg(z_touch > 0.1 && z_touch < 0.25, "the tip reached the floor at %g s", z_touch);
    ck_assert_msg(zmin > FLOOR + RADIUS - 0.05, "the tip sank to z = %g", zmin);
    mj_deleteData(d);
    mj_deleteModel(m);
}
END_TEST

/* The MJCF is the scenario's scene: bodies, masses, initial state, floor,
 * wall, friction, gravity, time step. */
START_TEST(mjcf_matches_scenario)
{
    mcd_scenario *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load(model_path("pendulum12.yaml"), &s, &err) == MCD_OK, "%s",
                  err.msg);
    const mcd_model *mm = s->model;
    mjModel *m = load_mjcf();
    mjData *d = mj_makeData(m);
    reset_initial(m, d);
    mcd_data *md = NULL;
    ck_assert_int_eq(mcd_data_create(mm, &md, NULL), MCD_OK);
    ck_assert_int_eq(mcd_forward_kinematics(mm, md, s->q0), MCD_OK);

    for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(m->opt.gravity[i], mm->gravity[i], 1e-15);
    ck_assert_double_eq_tol(m->opt.timestep, s->settings.dt, 1e-15);
    for (int k = 0; k < NLINK; k++) {
        char name[16];
        snprintf(name, sizeof name, "link%d", k + 1);
        int b = mj_name2id(m, mjOBJ_BODY, name), mb = mcd_model_body_index(mm, name);
        ck_assert_int_ge(b, 1);
        ck_assert_int_ge(mb, 0);
        double com[3];
        mcd_pose_apply(com, &md->bd[mb].X_world, mm->body[mb].mass.com);
        for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(d->xipos[3 * b + i], com[i], 1e-9);
        ck_assert_double_eq_tol(m->body_mass[b], mm->body[mb].mass.mass, 1e-15);
        for (int i = 0; i < 3; i++)
            ck_assert_double_eq_tol(m->body_inertia[3 * b + i], mm->body[mb].mass.inertia[4 * i],
                                    1e-15);
        snprintf(name, sizeof name, "joint%d", k + 1);
        int j = mj_name2id(m, mjOBJ_JOINT, name), mj = mcd_model_joint_index(mm, name);
        ck_assert_int_ge(j, 0);
        ck_assert_double_eq_tol(d->qpos[m->jnt_qposadr[j]], s->q0[mm->body[mj].qadr], 1e-15);
        ck_assert_double_eq_tol(d->qvel[m->jnt_dofadr[j]], s->qd0[mm->body[mj].vadr], 1e-15);
        int g = mj_name2id(m, mjOBJ_GEOM, (snprintf(name, sizeof name, "sphere%d", k + 1), name));
        ck_assert_int_eq(m->geom_type[g], mjGEOM_SPHERE);
        ck_assert_double_eq_tol(m->geom_size[3 * g], RADIUS, 1e-15);
    }
    const char *env[] = {"floor", "wall"};
    for (int e = 0; e < 2; e++) {
        int g = mj_name2id(m, mjOBJ_GEOM, env[e]), k = mcd_scenario_env_index(s, env[e]);
        ck_assert_int_ge(g, 0);
        ck_assert_int_ge(k, 0);
        const mcd_geom *mg = &mm->geom[s->env_geom[k]];
        ck_assert_int_eq(m->geom_type[g], mjGEOM_BOX);
        ck_assert_int_eq(mg->type, MCD_GEOM_BOX);
        ck_assert_int_eq(m->geom_bodyid[g], 0);
        for (int i = 0; i < 3; i++) {
            ck_assert_double_eq_tol(m->geom_size[3 * g + i], mg->size[i], 1e-15);
            ck_assert_double_eq_tol(d->geom_xpos[3 * g + i], mg->pose.p[i], 1e-15);
        }
    }
    for (int g = 0; g < m->ngeom; g++) {
        ck_assert_double_eq_tol(m->geom_friction[3 * g], s->settings.contact.mu, 1e-15);
        ck_assert_int_eq(m->geom_condim[g], 3);
        ck_assert_int_eq(m->geom_contype[g], 1);
        ck_assert_int_eq(m->geom_conaffinity[g], 1);
    }
    mcd_data_free(md);
    mj_deleteData(d);
    mj_deleteModel(m);
    mcd_scenario_free(s);
}
END_TEST

/* mcdyn against MuJoCo on the same scene. Until the first contact both
 * integrate the same ODE with semi-implicit Euler at the same step, so
 * their joint angles may differ only by the rounding of two different
 * dynamics algorithms (~1e-15 per step, 1e-15 rad measured) amplified by
 * the flight's sensitivity: 1e-9 rad over the ~160 steps of free fall leaves
 * orders of margin. Both detect the first contact of the same sphere on the
 * same floor in the same step (the contact models differ afterwards:
 * mcdyn's complementarity against MuJoCo's soft constraints). */
START_TEST(mcdyn_matches_mujoco_in_flight)
{
    mcd_scenario *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load(model_path("pendulum12.yaml"), &s, &err) == MCD_OK, "%s",
                  err.msg);
    mcd_runner *r = NULL;
    ck_assert_msg(mcd_runner_create(s, NULL, &r, &err) == MCD_OK, "%s", err.msg);
    const mcd_model *mm = s->model;
    mjModel *m = load_mjcf();
    mjData *d = mj_makeData(m);
    reset_initial(m, d);
    int qadr[NLINK], jadr[NLINK];
    for (int k = 0; k < NLINK; k++) {
        char name[16];
        snprintf(name, sizeof name, "joint%d", k + 1);
        jadr[k] = m->jnt_qposadr[mj_name2id(m, mjOBJ_JOINT, name)];
        qadr[k] = mm->body[mcd_model_joint_index(mm, name)].qadr;
    }
    int step = 0, mcd_touch = -1, mj_touch = -1;
    double worst = 0;
    while (mcd_touch < 0 || mj_touch < 0) {
        ck_assert_msg(++step < 1000, "no contact within 1 s");
        mcd_step_stats st;
        ck_assert_msg(mcd_runner_step(r, &st) == MCD_OK, "step %d: %s", step,
                      mcd_sim_error(mcd_runner_sim(r)));
        mj_step(m, d);
        if (mcd_touch < 0 && st.ncontacts > 0) mcd_touch = step;
        if (mj_touch < 0 && d->ncon > 0) mj_touch = step;
        if (mcd_touch >= 0 || mj_touch >= 0) continue;
        const double *q = mcd_sim_q(mcd_runner_sim(r));
        for (int k = 0; k < NLINK; k++) worst = fmax(worst, fabs(q[qadr[k]] - d->qpos[jadr[k]]));
    }
    ck_assert_msg(worst < 1e-9, "joint angles differ by %g rad in flight", worst);
    ck_assert_msg(step > 100, "first contact at step %d: the flight is too short to compare", step);
    ck_assert_msg(mcd_touch == mj_touch, "first contact: mcdyn step %d, MuJoCo step %d", mcd_touch,
                  mj_touch);
    mj_deleteData(d);
    mj_deleteModel(m);
    mcd_runner_free(r);
    mcd_scenario_free(s);
}
END_TEST

/* A sphere of the pendulum (1 kg, r = 0.25) dropped on a floor with the
 * contact parameters of pendulum12.xml's floor. */
static mjModel *drop_model(const mjModel *pend)
{
    const int floor = mj_name2id(pend, mjOBJ_GEOM, "floor");
    const mjtNum *ref = pend->geom_solref + mjNREF * floor;
    const mjtNum *imp = pend->geom_solimp + mjNIMP * floor;
    char xml[2048], err[1000] = "";
    snprintf(xml, sizeof xml,
             "<mujoco><option timestep='%.17g' integrator='Euler' cone='elliptic'/>"
             "<default><geom condim='3' friction='0.5 0 0' solref='%.17g %.17g' "
             "solimp='%.17g %.17g %.17g %.17g %.17g'/></default>"
             "<worldbody><geom type='box' size='50 50 0.1'/>"
             "<body pos='0 0 1'><freejoint/>"
             "<inertial pos='0 0 0' mass='1' diaginertia='0.025 0.025 0.025'/>"
             "<geom type='sphere' size='0.25'/></body></worldbody></mujoco>",
             pend->opt.timestep, ref[0], ref[1], imp[0], imp[1], imp[2], imp[3], imp[4]);
    mjVFS vfs;
    mj_defaultVFS(&vfs);
    ck_assert_int_eq(mj_makeEmptyFileVFS(&vfs, "drop.xml", (int)strlen(xml) + 1), 0);
    int f = mj_findFileVFS(&vfs, "drop.xml");
    memcpy(vfs.filedata[f], xml, strlen(xml) + 1);
    mjModel *m = mj_loadXML("drop.xml", &vfs, err, sizeof err);
    mj_deleteVFS(&vfs);
    ck_assert_msg(m != NULL, "drop model: %s", err);
    return m;
}

/* MuJoCo's restitution comes from solref's damping ratio, calibrated so
 * that the mean rebound ratio of drops at 1..12 m/s is 0.7
 * (docs/validation-models.md). */
START_TEST(mjcf_restitution)
{
    mjModel *pend = load_mjcf();
    mjModel *m = drop_model(pend);
    mjData *d = mj_makeData(m);
    double sum = 0, emin = 1, emax = 0, deepest = 0;
    int n = 0;
    for (int a = 0; a < 12; a++)
        for (int b = 0; b < 4; b++) {
            double v0 = 1.0 + a, gap = 1e-4 + v0 * 1e-3 * b / 4.0; /* impact phase */
            mj_resetData(m, d);
            d->qpos[2] = FLOOR + RADIUS + gap;
            d->qvel[2] = -v0;
            double vup = 0;
            int touched = 0;
            for (int k = 0; k < 300; k++) {
                mj_step(m, d);
                touched |= d->ncon > 0;
                if (touched && d->qvel[2] > vup) vup = d->qvel[2];
                if (FLOOR + RADIUS - d->qpos[2] > deepest) deepest = FLOOR + RADIUS - d->qpos[2];
                if (touched && d->ncon == 0) break;
            }
            double e = vup / v0;
            sum += e, n++;
            emin = fmin(emin, e), emax = fmax(emax, e);
        }
    assert_no_fatal_warning(d);
    ck_assert_msg(fabs(sum / n - 0.7) < 0.02, "mean restitution %g", sum / n);
    ck_assert_msg(emin > 0.62 && emax < 0.8, "restitution from %g to %g", emin, emax);
    ck_assert_msg(deepest < 0.03, "penetration %g m at 12 m/s", deepest);
    mj_deleteData(d);
    mj_deleteModel(m);
    mj_deleteModel(pend);
}
END_TEST

/* The benchmark's height at 2 s is the tip's centre of mass at t = 2 s of
 * a plain run from the keyframe. */
START_TEST(bench_function)
{
    const char *path = model_path("pendulum12.xml");
    double wall = -1, us = -1, h2 = -1;
    char msg[256];
    int rc = bench_mujoco_pendulum(path, 2.5, &wall, &us, &h2, msg, sizeof msg);
    ck_assert_msg(rc == 0, "bench_mujoco_pendulum: %s", msg);
    ck_assert(wall > 0 && us > 0);
    ck_assert_double_eq_tol(us, 1e6 * wall / 2500, 1e-9 * us);

    mjModel *m = load_mjcf();
    mjData *d = mj_makeData(m);
    reset_initial(m, d);
    for (int k = 0; k < 2000; k++) mj_step(m, d);
    mj_kinematics(m, d);
    ck_assert_double_eq_tol(d->time, 2.0, 1e-9);
    double expected = d->xipos[3 * tip_body(m) + 2];
    ck_assert_msg(h2 == expected, "height at 2 s: %.17g, expected %.17g", h2, expected);
    ck_assert(h2 > FLOOR + RADIUS - 0.05 && h2 < 10.1 + 12);
    mj_deleteData(d);
    mj_deleteModel(m);

    /* shorter than 2 s: no height */
    ck_assert_int_eq(bench_mujoco_pendulum(path, 0.5, NULL, NULL, &h2, msg, sizeof msg), 0);
    ck_assert(isnan(h2));
}
END_TEST

START_TEST(bench_function_errors)
{
    char msg[256] = "";
    double h2 = 0;
    void (*error_handler)(const char *) = mju_user_error;
    void (*warning_handler)(const char *) = mju_user_warning;
    ck_assert_int_ne(
        bench_mujoco_pendulum("/nonexistent/pendulum.xml", 1.0, NULL, NULL, &h2, msg, sizeof msg),
        0);
    ck_assert_ptr_nonnull(strstr(msg, "/nonexistent/pendulum.xml"));
    const char *path = model_path("pendulum12.xml");
    ck_assert_int_ne(bench_mujoco_pendulum(path, 0.0, NULL, NULL, NULL, msg, sizeof msg), 0);
    ck_assert_ptr_nonnull(strstr(msg, "duration"));
    ck_assert_int_ne(bench_mujoco_pendulum(path, NAN, NULL, NULL, NULL, msg, sizeof msg), 0);
    ck_assert_int_ne(bench_mujoco_pendulum(path, 1e-5, NULL, NULL, NULL, msg, sizeof msg), 0);
    ck_assert_ptr_nonnull(strstr(msg, "shorter than one time step"));
    ck_assert_int_ne(bench_mujoco_pendulum(NULL, 1.0, NULL, NULL, NULL, NULL, 0), 0);
    /* MuJoCo's handlers are restored */
    ck_assert(mju_user_error == error_handler);
    ck_assert(mju_user_warning == warning_handler);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("validation-mujoco");
    TCase *tc = tcase_create("pendulum12");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, mjcf_runs_and_tip_falls);
    tcase_add_test(tc, mjcf_matches_scenario);
    tcase_add_test(tc, mcdyn_matches_mujoco_in_flight);
    tcase_add_test(tc, mjcf_restitution);
    tcase_add_test(tc, bench_function);
    tcase_add_test(tc, bench_function_errors);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

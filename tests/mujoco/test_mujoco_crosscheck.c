/* Cross-check of mcdyn's dynamics against MuJoCo, used as a test oracle.
 *
 * For each robot, at 20 random states (random_state.h: q within the joint
 * limits, qd uniform in [-1, 1], tau uniform in [-(1 + |C_i|), 1 + |C_i|]),
 * three quantities are compared:
 *   M    mcd_mass_matrix        vs  mj_fullM of qM
 *   C    mcd_bias_forces        vs  qfrc_bias (Coriolis, centrifugal, gravity)
 *   qdd  mcd_forward_dynamics   vs  qacc with qfrc_applied = tau
 * MuJoCo's passive forces (the URDF joint damping, which mcdyn records but
 * does not apply) and its constraint solver (joint limits, friction loss,
 * contacts) are disabled, so qacc = M^-1 (tau - C) in both libraries.
 * The error of a quantity x is
 *   ||x_mcdyn - x_mujoco||_inf / max(1, ||x_mujoco||_inf)
 * (max-abs entry over the vector or matrix) and must be <= 1e-8 at every
 * state. Robots whose M can be nearly singular (see robots[]) are held to
 * the same bound on the residual of MuJoCo's equation of motion instead of
 * the qdd difference:
 *   ||M_mujoco qdd_mcdyn + C_mujoco - tau||_inf / max(1, ||tau - C_mujoco||_inf)
 * The largest errors per robot are printed, the residual for every robot.
 *
 * mujoco_urdf.h describes how MuJoCo is made to load each URDF exactly as
 * described; coordinate_map.h how the coordinates are matched by joint name.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "coordinate_map.h"
#include "mcdyn/dynamics.h"
#include "mcdyn/urdf.h"
#include "mujoco_urdf.h"
#include "random_state.h"

#define STATES    20
#define TOLERANCE 1e-8

typedef struct robot_case {
    const char *root; /* environment variable naming the folder of file */
    const char *file; /* relative to $root */
    int floating_base;
    double mass_floor;   /* mujoco_urdf_options.mass_floor */
    int qdd_by_residual; /* check qdd by the equation-of-motion residual */
} robot_case;

static const robot_case robots[] = {
    {"MCDYN_SHARED", "models/example-robot-data/double_pendulum_simple.urdf", 0, 0.0, 0},
    {"MCDYN_SHARED", "models/example-robot-data/panda_collision.urdf", 0, 0.0, 0},
    {"MCDYN_SHARED", "models/example-robot-data/a1.urdf", 1, 0.0, 0},
    {"MCDYN_SHARED", "models/example-robot-data/solo12.urdf", 1, 0.0, 0},
    {"MCDYN_SOURCE", "models/arm3.urdf", 0, 0.0, 0},
    /* General rotated inertial and joint frames, non-unit axes, a massive
     * merged link: what the robots above do not exercise. */
    {"MCDYN_SOURCE", "tests/mujoco/skewed_arm.urdf", 0, 0.0, 0},
    {"MCDYN_SOURCE", "tests/mujoco/skewed_arm.urdf", 1, 0.0, 0},
    /* Its hips, waist and shoulders are three revolute joints joined by
     * massless links, which MuJoCo only accepts with a mass floor (1e-14
     * kg, 1e-14 kg m^2: just above MuJoCo's mjMINVAL), and which make M
     * singular where two of the three axes align: random states reach
     * cond(M) ~ 1e8, where two correct double-precision solvers differ by
     * ~1e-8 in qdd. */
    {"MCDYN_SHARED", "models/bullet3/humanoid.urdf", 1, 1e-14, 1},
};

/* M, C and qdd at one state, in mcdyn's coordinate order. */
typedef struct dynamics_values {
    double *M, *C, *qdd;
} dynamics_values;

/* Both libraries' models and workspaces for one robot. */
typedef struct crosscheck {
    mcd_model *model;
    mcd_data *data;
    mjModel *mj;
    mjData *md;
    coordinate_map map;
    double *q, *qd, *tau, *full_M;
    dynamics_values mcdyn, mujoco;
} crosscheck;

static void model_path(char *path, size_t len, const robot_case *rc)
{
    const char *root = getenv(rc->root);
    ck_assert_msg(root != NULL, "%s is not set", rc->root);
    snprintf(path, len, "%s/%s", root, rc->file);
}

static double *alloc_doubles(int n)
{
    double *v = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
    ck_assert_ptr_nonnull(v);
    return v;
}

static void values_alloc(dynamics_values *v, int nv)
{
    v->M = alloc_doubles(nv * nv);
    v->C = alloc_doubles(nv);
    v->qdd = alloc_doubles(nv);
}

static void values_free(dynamics_values *v)
{
    free(v->M);
    free(v->C);
    free(v->qdd);
}

static void load_mcdyn(crosscheck *x, const char *path, int floating_base)
{
    mcd_error err;
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.floating_base = floating_base;
    opt.ignore_mimic = 1; /* as MuJoCo's URDF import, which drops <mimic> */
    mcd_status s = mcd_urdf_load_file(path, &opt, &x->model, &err);
    ck_assert_msg(s == MCD_OK, "mcdyn cannot load %s: %s", path, err.msg);
    s = mcd_data_create(x->model, &x->data, &err);
    ck_assert_msg(s == MCD_OK, "mcd_data_create: %s", err.msg);
}

static void load_mujoco(crosscheck *x, const char *path, const robot_case *rc)
{
    char err[1024] = "";
    mujoco_urdf_options opt = {rc->floating_base, rc->mass_floor};
    x->mj = mujoco_load_urdf(path, &opt, err, sizeof err);
    ck_assert_msg(x->mj != NULL, "MuJoCo cannot load %s: %s", path, err);
    x->mj->opt.disableflags |= mjDSBL_PASSIVE | mjDSBL_CONSTRAINT;
    x->md = mj_makeData(x->mj);
    ck_assert_ptr_nonnull(x->md);
}

static void crosscheck_open(crosscheck *x, const robot_case *rc)
{
    char path[4096], err[1024] = "";
    model_path(path, sizeof path, rc);
    load_mcdyn(x, path, rc->floating_base);
    load_mujoco(x, path, rc);
    ck_assert_msg(coordinate_map_make(&x->map, x->model, x->mj, err, sizeof err) == 0, "%s: %s",
                  rc->file, err);
    int nv = x->model->nv;
    x->q = alloc_doubles(x->model->nq);
    x->qd = alloc_doubles(nv);
    x->tau = alloc_doubles(nv);
    x->full_M = alloc_doubles(nv * nv);
    values_alloc(&x->mcdyn, nv);
    values_alloc(&x->mujoco, nv);
}

static void crosscheck_close(crosscheck *x)
{
    values_free(&x->mcdyn);
    values_free(&x->mujoco);
    free(x->q);
    free(x->qd);
    free(x->tau);
    free(x->full_M);
    coordinate_map_free(&x->map);
    mj_deleteData(x->md);
    mj_deleteModel(x->mj);
    mcd_data_free(x->data);
    mcd_model_free(x->model);
}

static void check_status(const crosscheck *x, mcd_status s, const char *what)
{
    ck_assert_msg(s == MCD_OK, "%s: %s", what, mcd_data_error(x->data));
}

/* A random state; tau is scaled by the bias forces so that it matters. */
static void random_state(crosscheck *x, random_stream *r)
{
    const mcd_model *m = x->model;
    random_configuration(r, m, x->q);
    random_vector(r, m->nv, 1.0, x->qd);
    check_status(x, mcd_bias_forces(m, x->data, x->q, x->qd, x->tau), "mcd_bias_forces");
    for (int i = 0; i < m->nv; i++) x->tau[i] = random_uniform(r, -1, 1) * (1 + fabs(x->tau[i]));
}

static void mcdyn_dynamics(crosscheck *x)
{
    const mcd_model *m = x->model;
    dynamics_values *v = &x->mcdyn;
    check_status(x, mcd_mass_matrix(m, x->data, x->q, v->M), "mcd_mass_matrix");
    check_status(x, mcd_bias_forces(m, x->data, x->q, x->qd, v->C), "mcd_bias_forces");
    check_status(x, mcd_forward_dynamics(m, x->data, x->q, x->qd, x->tau, NULL, v->qdd),
                 "mcd_forward_dynamics");
}

static void mujoco_dynamics(crosscheck *x)
{
    const coordinate_map *map = &x->map;
    mjData *md = x->md;
    int nv = map->nv;
    for (int i = 0; i < map->nq; i++) md->qpos[map->qpos[i]] = x->q[i];
    for (int i = 0; i < nv; i++) {
        md->qvel[map->dof[i]] = x->qd[i];
        md->qfrc_applied[map->dof[i]] = x->tau[i];
    }
    mj_forward(x->mj, md);
    mj_fullM(x->mj, x->full_M, md->qM);
    dynamics_values *v = &x->mujoco;
    for (int i = 0; i < nv; i++) {
        for (int j = 0; j < nv; j++) v->M[i * nv + j] = x->full_M[map->dof[i] * nv + map->dof[j]];
        v->C[i] = md->qfrc_bias[map->dof[i]];
        v->qdd[i] = md->qacc[map->dof[i]];
    }
}

/* The compared errors at one state. */
enum { ERR_M, ERR_C, ERR_QDD, ERR_RESIDUAL, NERR };

/* ||a - b||_inf / max(1, ||b||_inf) */
static double relative_error(const double *a, const double *b, int n)
{
    double diff = 0, ref = 1;
    for (int i = 0; i < n; i++) {
        diff = fmax(diff, fabs(a[i] - b[i]));
        ref = fmax(ref, fabs(b[i]));
    }
    return isnan(diff) ? INFINITY : diff / ref;
}

/* ||M_mujoco qdd_mcdyn + C_mujoco - tau||_inf / max(1, ||tau - C_mujoco||_inf) */
static double residual_error(const crosscheck *x)
{
    const int nv = x->model->nv;
    double diff = 0, ref = 1;
    for (int i = 0; i < nv; i++) {
        double r = x->mujoco.C[i] - x->tau[i];
        for (int j = 0; j < nv; j++) r += x->mujoco.M[i * nv + j] * x->mcdyn.qdd[j];
        diff = fmax(diff, fabs(r));
        ref = fmax(ref, fabs(x->tau[i] - x->mujoco.C[i]));
    }
    return isnan(diff) ? INFINITY : diff / ref;
}

static void compare(const crosscheck *x, double e[NERR])
{
    const int nv = x->model->nv;
    e[ERR_M] = relative_error(x->mcdyn.M, x->mujoco.M, nv * nv);
    e[ERR_C] = relative_error(x->mcdyn.C, x->mujoco.C, nv);
    e[ERR_QDD] = relative_error(x->mcdyn.qdd, x->mujoco.qdd, nv);
    e[ERR_RESIDUAL] = residual_error(x);
}

START_TEST(test_robot_matches_mujoco)
{
    const robot_case *rc = &robots[_i];
    crosscheck x = {0};
    crosscheck_open(&x, rc);
    random_stream r;
    random_seed(&r, 20240601u + (uint64_t)_i);
    const int checked_qdd = rc->qdd_by_residual ? ERR_RESIDUAL : ERR_QDD;
    double worst[NERR] = {0};
    for (int state = 0; state < STATES; state++) {
        random_state(&x, &r);
        mcdyn_dynamics(&x);
        mujoco_dynamics(&x);
        double e[NERR];
        compare(&x, e);
        for (int k = 0; k < NERR; k++) worst[k] = fmax(worst[k], e[k]);
        ck_assert_msg(e[ERR_M] <= TOLERANCE && e[ERR_C] <= TOLERANCE && e[checked_qdd] <= TOLERANCE,
                      "%s state %d: relative error M %.3g, C %.3g, qdd %.3g (residual %.3g) > %g",
                      rc->file, state, e[ERR_M], e[ERR_C], e[ERR_QDD], e[ERR_RESIDUAL], TOLERANCE);
    }
    printf("%-54s %-10s nv %2d  max relative error  M %.1e  C %.1e  qdd %.1e%s  residual %.1e%s\n",
           rc->file, rc->floating_base ? "(floating)" : "", x.model->nv, worst[ERR_M], worst[ERR_C],
           worst[ERR_QDD], rc->qdd_by_residual ? " (not checked)" : "", worst[ERR_RESIDUAL],
           rc->qdd_by_residual ? " (checked)" : "");
    fflush(stdout);
    crosscheck_close(&x);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mujoco-crosscheck");
    TCase *tc = tcase_create("robots");
    tcase_add_loop_test(tc, test_robot_matches_mujoco, 0, sizeof robots / sizeof *robots);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* The robot table of `mcdyn bench lambda` (bench_lambda_robots.h). */
#include "bench_lambda_robots.h"

#include <stdio.h>

#if defined(MCDYN_HAVE_MUJOCO)
#include <stdlib.h>

#include "bench_dynamics_peers.h"
#include "bench_mujoco_robot.h"
#include "bench_timer.h"
#include "mcdyn/dynamics.h"
#include "mcdyn/osc.h"
#include "mcdyn/urdf.h"
#include "models_dirs.h"

#define MAX_POINTS 16

typedef struct lambda_robot {
    const char *file; /* relative to a models directory */
    /* MuJoCo's mass floor (mujoco_urdf_options): the humanoid's massless
     * links between its three-axis joints, as in the MuJoCo cross-check */
    double mass_floor;
} lambda_robot;

static const lambda_robot robots[] = {
    {"example-robot-data/a1.urdf", 0.0},
    {"bullet3/humanoid.urdf", 1e-14},
};

static const int point_counts[] = {1, 2, 4, 8, 16};

/* One robot with a floating base at one random state, both libraries. */
typedef struct lambda_robot_case {
    mcd_model *m;
    mcd_data *d;
    bench_mujoco_robot *mj;
    double *q, *qd, *qdd, *tau;
    double L[9 * MAX_POINTS * MAX_POINTS], L_mujoco[9 * MAX_POINTS * MAX_POINTS];
    double x[3 * MAX_POINTS];
    int body[MAX_POINTS];
    mcd_osc_point pts[MAX_POINTS];
    int K;
} lambda_robot_case;

static int call_mcdyn(void *ctx)
{
    lambda_robot_case *c = ctx;
    return mcd_minv_factor(c->m, c->d, c->q) != MCD_OK ||
           mcd_osc_compliance(c->m, c->d, c->K, c->pts, MCD_OSC_LINEAR, c->L) != MCD_OK;
}

static int call_mujoco(void *ctx)
{
    bench_mujoco_compliance(((lambda_robot_case *)ctx)->mj);
    return 0;
}

static void case_free(lambda_robot_case *c)
{
    bench_mujoco_robot_free(c->mj);
    mcd_data_free(c->d);
    mcd_model_free(c->m);
    free(c->q);
}

/* Loads both twins and a random state; returns 0, or nonzero after saying
 * why. */
static int case_load(lambda_robot_case *c, const char *path, const lambda_robot *r)
{
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.floating_base = 1;
    opt.ignore_mimic = 1;
    mcd_error err = {0};
    char msg[1024] = "";
    if (mcd_urdf_load_file(path, &opt, &c->m, &err) != MCD_OK ||
        mcd_data_create(c->m, &c->d, &err) != MCD_OK) {
        printf("%-28s mcdyn cannot load it: %s\n", r->file, err.msg);
        return 1;
    }
    if (bench_mujoco_robot_load(path, 1, r->mass_floor, c->m, &c->mj, msg, sizeof msg)) {
        printf("%-28s MuJoCo cannot load it: %s\n", r->file, msg);
        return 1;
    }
    const size_t nq = (size_t)c->m->nq, nv = (size_t)c->m->nv;
    c->q = malloc(sizeof(double) * (nq + 3 * nv));
    if (!c->q) return 1;
    c->qd = c->q + nq;
    c->qdd = c->qd + nv;
    c->tau = c->qdd + nv;
    if (bench_random_state(c->m, c->q, c->qd, c->qdd, c->tau) != MCD_OK ||
        mcd_forward_kinematics(c->m, c->d, c->q) != MCD_OK)
        return 1;
    bench_mujoco_set_state(c->mj, c->q, c->qd, NULL, NULL);
    return 0;
}

/* K points from the last body backwards (the feet, hands and head first),
 * 5 cm off each body's origin, further along z on a second round. */
static int set_points(lambda_robot_case *c, int K)
{
    const int nbody = c->m->nbody;
    for (int k = 0; k < K; k++) {
        const double local[3] = {0.05, 0.0, 0.02 * (k / nbody)};
        c->pts[k].body = c->body[k] = nbody - 1 - k % nbody;
        mcd_pose_apply(c->pts[k].x, &c->d->bd[c->body[k]].X_world, local);
        for (int i = 0; i < 3; i++) c->x[3 * k + i] = c->pts[k].x[i];
    }
    c->K = K;
    char msg[256] = "";
    if (bench_mujoco_set_points(c->mj, c->m, K, c->body, c->x, msg, sizeof msg)) {
        printf(" %s\n", msg);
        return 1;
    }
    return 0;
}

/* One row: cross-check, then time both. */
static int time_row(lambda_robot_case *c, const char *file, int K, int samples)
{
    printf("%-28s %4d %3d", file, c->m->nv, K);
    if (set_points(c, K)) return 1;
    if (call_mcdyn(c)) {
        printf(" mcdyn failed: %s\n", mcd_data_error(c->d));
        return 1;
    }
    call_mujoco(c);
    bench_mujoco_get_compliance(c->mj, c->L_mujoco);
    const double diff = bench_peer_difference(c->L, c->L_mujoco, 9 * K * K);
    if (!(diff <= BENCH_PEER_TOLERANCE)) {
        printf(" cross-check failed: relative difference %.3g > %.0e, not timed\n", diff,
               BENCH_PEER_TOLERANCE);
        return 1;
    }
    bench_spread ours, peer, ratio;
    if (bench_time_pair_us(call_mcdyn, c, call_mujoco, c, samples, &ours, &peer, &ratio)) return 1;
    printf(" %9.3f [%7.3f, %7.3f] %9.3f [%7.3f, %7.3f] %7.3f %8.1e\n", ours.median, ours.min,
           ours.max, peer.median, peer.min, peer.max, ratio.median, diff);
    fflush(stdout);
    return 0;
}

int bench_lambda_robots(int samples)
{
    printf(
        "\nrobots (floating base, random state): Lambda = J M^-1 J^T of the linear velocities of\n"
        "K points, 3K x 3K, cross-checked to %.0e relative before timing. The two are timed in\n"
        "interleaved samples (one of each, alternated); ratio = median of the per-pair ratios\n"
        "mcdyn / MuJoCo.\n"
        "  mcdyn   mcd_minv_factor + mcd_osc_compliance (MCD_OSC_LINEAR)\n"
        "  MuJoCo  mj_kinematics, mj_comPos, mj_crb, mj_factorM, mj_jac per point,\n"
        "          X = mj_solveM2(J^T), X X^T\n\n",
        BENCH_PEER_TOLERANCE);
    printf("%-28s %4s %3s %27s %27s %7s %8s\n", "robot", "nv", "K", "mcdyn_us", "MuJoCo_us",
           "ratio", "rel.diff");
    models_dirs dirs;
    models_dirs_default(&dirs, NULL);
    int failed = 0;
    for (size_t r = 0; r < sizeof robots / sizeof *robots; r++) {
        char path[8192];
        if (models_dirs_find(&dirs, robots[r].file, path, sizeof path) != 0) {
            printf("%-28s skipped: not found in ", robots[r].file);
            models_dirs_print(stdout, &dirs);
            printf("\n");
            continue;
        }
        lambda_robot_case c = {0};
        int bad = case_load(&c, path, &robots[r]);
        for (size_t k = 0; k < sizeof point_counts / sizeof *point_counts && !bad; k++)
            bad = time_row(&c, robots[r].file, point_counts[k], samples);
        failed |= bad;
        case_free(&c);
    }
    return failed;
}
#else
int bench_lambda_robots(int samples)
{
    (void)samples;
    printf("\nrobots: skipped: built without MuJoCo (libmujoco-dev)\n");
    return 0;
}
#endif

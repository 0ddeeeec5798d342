/* bench-dynamics-count: one call of `mcdyn bench dynamics` or `mcdyn bench
 * lambda` (mcdyn's or its peer's), made once to warm up and then a given
 * number of times inside counted_calls, for counting instructions with
 * callgrind, which does not depend on the machine's load:
 *
 *   valgrind --tool=callgrind --collect-atstart=no --toggle-collect=counted_calls \
 *       build-test/tools/bench-dynamics-count CASE 200
 *
 * and callgrind's "Collected" divided by 200 is the count per call.
 * tools/count-dynamics.sh runs every case and prints the table. Built only
 * with Bullet's dynamics and MuJoCo (the peers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_bullet.h"
#include "bench_bullet_model.h"
#include "bench_dynamics_peers.h"
#include "bench_mujoco_robot.h"
#include "chain_model.h"
#include "mcdyn/dynamics.h"
#include "mcdyn/osc.h"
#include "mcdyn/urdf.h"
#include "models_dirs.h"

#define LAMBDA_POINTS 8

/* One model at one random state, with its peer. */
typedef struct count_case {
    mcd_model *m;
    mcd_data *d;
    double *q, *qd, *qdd, *tau, *out;
    bench_bullet_multibody *bullet;
    bench_mujoco_robot *mujoco;
    mcd_osc_point pts[LAMBDA_POINTS];
} count_case;

/* A call; nonzero if it fails. */
typedef int (*count_call)(count_case *c);

static int fwd(count_case *c)
{
    return mcd_forward_dynamics(c->m, c->d, c->q, c->qd, c->tau, NULL, c->out) != MCD_OK;
}
static int inv(count_case *c)
{
    return mcd_inverse_dynamics(c->m, c->d, c->q, c->qd, c->qdd, NULL, c->out) != MCD_OK;
}
static int mass(count_case *c)
{
    return mcd_mass_matrix(c->m, c->d, c->q, c->out) != MCD_OK;
}
static int lambda(count_case *c)
{
    return mcd_minv_factor(c->m, c->d, c->q) != MCD_OK ||
           mcd_osc_compliance(c->m, c->d, LAMBDA_POINTS, c->pts, MCD_OSC_LINEAR, c->out) != MCD_OK;
}
static int bullet_fwd(count_case *c)
{
    bench_bullet_forward_dynamics(c->bullet, c->q, c->qd, c->tau, c->out);
    return 0;
}
static int mujoco_fwd(count_case *c)
{
    bench_mujoco_forward_dynamics(c->mujoco);
    return 0;
}
static int mujoco_inv(count_case *c)
{
    bench_mujoco_inverse_dynamics(c->mujoco);
    return 0;
}
static int mujoco_mass(count_case *c)
{
    bench_mujoco_mass_matrix(c->mujoco);
    return 0;
}
static int mujoco_lambda(count_case *c)
{
    bench_mujoco_compliance(c->mujoco);
    return 0;
}

/* The calls callgrind counts (not inlined, so that it can find them). */
__attribute__((noinline)) void counted_calls(count_call call, count_case *c, long n)
{
    for (long i = 0; i < n; i++) call(c);
}

enum { MCDYN, BULLET, MUJOCO }; /* who makes a call */

static const struct {
    const char *name;
    count_call call;
    int by;
} calls[] = {
    {"fwd", fwd, MCDYN},
    {"inv", inv, MCDYN},
    {"M", mass, MCDYN},
    {"lambda8", lambda, MCDYN},
    {"bullet-fwd", bullet_fwd, BULLET},
    {"mujoco-fwd", mujoco_fwd, MUJOCO},
    {"mujoco-inv", mujoco_inv, MUJOCO},
    {"mujoco-M", mujoco_mass, MUJOCO},
    {"mujoco-lambda8", mujoco_lambda, MUJOCO},
};

static int usage(void)
{
    fprintf(stderr, "usage: bench-dynamics-count MODEL CALL N\n"
                    "  MODEL  chainN (N links) | panda | a1 (floating base)\n"
                    "  CALL   fwd | inv | M | lambda8 | bullet-fwd (chains) |\n"
                    "         mujoco-fwd | mujoco-inv | mujoco-M | mujoco-lambda8 (robots)\n"
                    "  N      number of counted calls after one warm-up call\n");
    return 2;
}

/* Loads the model, its peer and the state (bench_random_state, as the
 * benchmark); returns 0 or 1 after saying why not. */
static int case_make(count_case *c, const char *model)
{
    mcd_error err = {0};
    char msg[1024] = "", path[8192];
    const int chain = !strncmp(model, "chain", 5), a1 = !strcmp(model, "a1");
    if (chain) {
        if (chain_model_make(atoi(model + 5), &c->m, &err) != MCD_OK) goto fail;
    } else {
        models_dirs dirs;
        models_dirs_default(&dirs, NULL);
        const char *file =
            a1 ? "example-robot-data/a1.urdf" : "example-robot-data/panda_collision.urdf";
        mcd_urdf_options opt = mcd_urdf_default_options();
        opt.floating_base = a1;
        opt.ignore_mimic = 1;
        if (models_dirs_find(&dirs, file, path, sizeof path) != 0 ||
            mcd_urdf_load_file(path, &opt, &c->m, &err) != MCD_OK)
            goto fail;
    }
    const size_t nq = (size_t)c->m->nq, nv = (size_t)c->m->nv;
    c->q = malloc(sizeof(double) * (nq + 4 * nv + 9 * LAMBDA_POINTS * LAMBDA_POINTS + nv * nv));
    if (!c->q || mcd_data_create(c->m, &c->d, &err) != MCD_OK) goto fail;
    c->qd = c->q + nq, c->qdd = c->qd + nv, c->tau = c->qdd + nv, c->out = c->tau + nv;
    srand(1);
    if (bench_random_state(c->m, c->q, c->qd, c->qdd, c->tau) != MCD_OK ||
        mcd_forward_kinematics(c->m, c->d, c->q) != MCD_OK)
        goto fail;
    int body[LAMBDA_POINTS];
    double x[3 * LAMBDA_POINTS];
    for (int k = 0; k < LAMBDA_POINTS; k++) { /* as bench lambda's points */
        const double local[3] = {0.05, 0.0, 0.02 * (k / c->m->nbody)};
        c->pts[k].body = body[k] = c->m->nbody - 1 - k % c->m->nbody;
        mcd_pose_apply(c->pts[k].x, &c->d->bd[body[k]].X_world, local);
        memcpy(x + 3 * k, c->pts[k].x, sizeof c->pts[k].x);
    }
    if (chain) {
        bench_bullet_link *links = malloc(sizeof *links * (size_t)c->m->nbody);
        int bad = !links || bench_bullet_links_from_model(c->m, links, msg, sizeof msg) ||
                  bench_bullet_make(links, c->m->nbody, &c->bullet, msg, sizeof msg);
        free(links);
        if (bad) goto fail;
        return 0;
    }
    if (bench_mujoco_robot_load(path, a1, 0.0, c->m, &c->mujoco, msg, sizeof msg)) goto fail;
    bench_mujoco_set_state(c->mujoco, c->q, c->qd, c->qdd, c->tau);
    if (bench_mujoco_set_points(c->mujoco, c->m, LAMBDA_POINTS, body, x, msg, sizeof msg))
        goto fail;
    return 0;
fail:
    fprintf(stderr, "bench-dynamics-count: %s: %s%s\n", model, err.msg, msg);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 4) return usage();
    count_call call = NULL;
    int by = MCDYN;
    for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
        if (!strcmp(argv[2], calls[i].name)) call = calls[i].call, by = calls[i].by;
    const long n = atol(argv[3]);
    if (!call || n < 1) return usage();
    count_case c = {0};
    if (case_make(&c, argv[1])) return 1;
    if ((by == BULLET && !c.bullet) || (by == MUJOCO && !c.mujoco)) return usage();
    if (call(&c)) {
        fprintf(stderr, "bench-dynamics-count: the call fails: %s\n", mcd_data_error(c.d));
        return 1;
    }
    counted_calls(call, &c, n);
    printf("%s %s: %ld calls\n", argv[1], argv[2], n);
    return 0;
}

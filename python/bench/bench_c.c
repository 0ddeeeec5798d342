/* The C side of the Python overhead benchmark (docs/performance.md,
 * "Python"; python/bench/bench_py.py is the Python side):
 *   bench_c PANDA.urdf A1_STAND.yaml [FD_CALLS STEPS]
 * prints, as min / median / max over 15 blocks, the time of one forward
 * dynamics call of the Panda (blocks of 20000 calls at a fixed random
 * state) and of one step of the A1 standing under a PD controller in C
 * (blocks of 400 steps, after 1000 steps to land and settle). With
 * FD_CALLS and STEPS it times nothing and makes that many calls and steps
 * (after the same 1000), for instruction counts under callgrind: the
 * difference of two counts over the difference of calls is the cost of
 * one. */
#include <mcdyn/mcdyn.h>

#include <stdio.h>
#include <stdlib.h>
#include "../../src/base/clock.h"

#define BLOCKS 15

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *what, double *t)
{
    qsort(t, BLOCKS, sizeof *t, compare);
    printf("%s: min %.3f median %.3f max %.3f us\n", what, 1e6 * t[0], 1e6 * t[BLOCKS / 2],
           1e6 * t[BLOCKS - 1]);
}

/* PD on the 12 joints towards the initial posture (kp 80, kd 2). */
typedef struct stand_pd {
    double q_ref[12];
} stand_pd;

static mcd_status pd(void *user, const mcd_model *m, mcd_data *d, double t, const double *q,
                     const double *qd, double *tau)
{
    (void)m, (void)d, (void)t;
    const stand_pd *c = user;
    for (int i = 0; i < 12; i++) tau[6 + i] = 80.0 * (c->q_ref[i] - q[7 + i]) - 2.0 * qd[6 + i];
    return MCD_OK;
}

static int bench_fd(const char *urdf, long count)
{
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.ignore_mimic = 1;
    mcd_model *m = NULL;
    mcd_data *d = NULL;
    mcd_error err = {0};
    if (mcd_urdf_load_file(urdf, &opt, &m, &err) || mcd_data_create(m, &d, &err)) {
        fprintf(stderr, "bench_c: %s\n", err.msg);
        mcd_model_free(m);
        return 1;
    }
    double q[32], qd[32], tau[32], qdd[32], t[BLOCKS];
    srand(1);
    for (int i = 0; i < m->nv; i++) {
        q[i] = 2.0 * rand() / RAND_MAX - 1.0;
        qd[i] = 2.0 * rand() / RAND_MAX - 1.0;
        tau[i] = 10.0 * rand() / RAND_MAX - 5.0;
    }
    if (count >= 0) {
        for (long k = 0; k < count; k++) mcd_forward_dynamics(m, d, q, qd, tau, NULL, qdd);
    } else {
        for (int b = 0; b < BLOCKS; b++) {
            double t0 = mcd_clock_seconds();
            for (int k = 0; k < 20000; k++) mcd_forward_dynamics(m, d, q, qd, tau, NULL, qdd);
            t[b] = (mcd_clock_seconds() - t0) / 20000;
        }
        report("panda forward dynamics (C)", t);
    }
    mcd_data_free(d);
    mcd_model_free(m);
    return 0;
}

static int bench_stand(const char *yaml, long count)
{
    mcd_scenario *sc = NULL;
    mcd_runner *r = NULL;
    mcd_error err = {0};
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    if (mcd_scenario_load(yaml, &sc, &err) || mcd_runner_create(sc, &ov, &r, &err)) {
        fprintf(stderr, "bench_c: %s\n", err.msg);
        mcd_scenario_free(sc);
        return 1;
    }
    stand_pd c;
    for (int i = 0; i < 12; i++) c.q_ref[i] = sc->q0[7 + i];
    mcd_sim_set_controller(mcd_runner_sim(r), pd, &c);
    double t[BLOCKS];
    int status = 0;
    for (int k = 0; k < 1000 && !status; k++) status = mcd_runner_step(r, NULL);
    for (long k = 0; k < count && !status; k++) status = mcd_runner_step(r, NULL);
    for (int b = 0; b < BLOCKS && !status && count < 0; b++) {
        double t0 = mcd_clock_seconds();
        for (int k = 0; k < 400 && !status; k++) status = mcd_runner_step(r, NULL);
        t[b] = (mcd_clock_seconds() - t0) / 400;
    }
    if (status)
        fprintf(stderr, "bench_c: %s\n", mcd_sim_error(mcd_runner_sim(r)));
    else if (count < 0)
        report("a1 stand step, PD in C", t);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
    return status != 0;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 5) {
        fprintf(stderr, "usage: bench_c PANDA.urdf A1_STAND.yaml [FD_CALLS STEPS]\n");
        return 2;
    }
    long fd_calls = argc == 5 ? atol(argv[3]) : -1, steps = argc == 5 ? atol(argv[4]) : -1;
    return bench_fd(argv[1], fd_calls) || bench_stand(argv[2], steps);
}

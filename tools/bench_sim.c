/* `mcdyn bench sim`: the pendulum12 scenario (20 s) with each solver — wall
 * time, microseconds per step and its split between dynamics, collision,
 * problem set-up and solve — and, when MuJoCo is present, MuJoCo 2.2.2 on the
 * equivalent MJCF in the same run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/base/clock.h"
#include "args.h"
#include "cli.h"
#include "mcdyn/dynamics.h"
#include "mcdyn/runner.h"
#if defined(MCDYN_HAVE_MUJOCO)
#include "bench_mujoco.h"
#endif

typedef struct bench_sim_options {
    const char *scenario, *mjcf;
    double duration;
} bench_sim_options;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcdyn bench sim [--scenario FILE] [--mjcf FILE] [--duration S]\n\n"
            "Runs the scenario (default models/pendulum12.yaml) for its duration with each\n"
            "of the step methods (formulation and solver) and prints wall time, microseconds per "
            "step and the split\n"
            "between dynamics (free motion, velocity update, integration), collision, problem\n"
            "set-up (Lambda, W, free velocities) and solve; with MuJoCo built in, runs the\n"
            "equivalent MJCF (default models/pendulum12.xml) too and prints the ratios.\n\n"
            "options:\n"
            "  --scenario FILE  the scenario to run\n"
            "  --mjcf FILE      the MuJoCo model of the same scene\n"
            "  --duration S     simulated time [s] (default: the scenario's)\n"
            "  -h, --help       print this help\n");
}

/* Runs one solver; returns 0 and fills us-per-step figures, or 1. */
static int run_solver(const mcd_scenario *sc, const char *solver, double duration, double out[6],
                      double *height2)
{
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.solver = solver;
    ov.duration = duration;
    mcd_runner *r = NULL;
    mcd_error err = {0};
    if (mcd_runner_create(sc, &ov, &r, &err) != MCD_OK) {
        fprintf(stderr, "mcdyn bench sim: %s\n", err.msg);
        return 1;
    }
    const mcd_model *m = sc->model;
    const long n = mcd_runner_steps(r);
    mcd_step_stats st, sum;
    memset(&sum, 0, sizeof sum);
    const double t0 = mcd_clock_seconds();
    for (long k = 0; k < n; k++) {
        if (mcd_runner_step(r, &st) != MCD_OK) {
            fprintf(stderr, "mcdyn bench sim: %s failed at t = %.4f: %s\n", solver,
                    mcd_sim_time(mcd_runner_sim(r)), mcd_sim_error(mcd_runner_sim(r)));
            mcd_runner_free(r);
            return 1;
        }
        sum.t_dynamics += st.t_dynamics, sum.t_contacts += st.t_contacts;
        sum.t_setup += st.t_setup, sum.t_solve += st.t_solve;
        if (k + 1 == (long)(2.0 / (duration / n) + 0.5)) { /* last body's height at t = 2 s */
            mcd_data *d = mcd_sim_data(mcd_runner_sim(r));
            mcd_forward_kinematics(m, d, mcd_sim_q(mcd_runner_sim(r)));
            double c[3];
            mcd_pose_apply(c, &d->bd[m->nbody - 1].X_world, m->body[m->nbody - 1].mass.com);
            *height2 = c[2];
        }
    }
    const double wall = mcd_clock_seconds() - t0, per = 1e6 / (double)(n ? n : 1);
    out[0] = wall, out[1] = wall * per, out[2] = sum.t_dynamics * per;
    out[3] = sum.t_contacts * per, out[4] = sum.t_setup * per, out[5] = sum.t_solve * per;
    mcd_runner_free(r);
    return 0;
}

int mcd_bench_sim(int argc, char **argv)
{
    bench_sim_options o = {"models/pendulum12.yaml", "models/pendulum12.xml", -1};
    for (int i = 1; i < argc; i++) {
        if (args_is_help(argv[i])) {
            usage(stdout);
            return 0;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v && !strcmp(argv[i], "--scenario"))
            o.scenario = v;
        else if (v && !strcmp(argv[i], "--mjcf"))
            o.mjcf = v;
        else if (!(v && !strcmp(argv[i], "--duration") && !args_parse_double(v, &o.duration) &&
                   o.duration > 0)) {
            fprintf(stderr, "mcdyn bench sim: bad argument '%s'\n\n", argv[i]);
            usage(stderr);
            return 2;
        }
        i++;
    }
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    if (mcd_scenario_load(o.scenario, &sc, &err) != MCD_OK) {
        fprintf(stderr, "mcdyn bench sim: %s\n", err.msg);
        return 1;
    }
    const double duration = o.duration > 0 ? o.duration : sc->settings.duration;
    printf("scenario %s, %.3g s at dt = %g s\n", o.scenario, duration, sc->settings.dt);
    printf("%-13s %9s %10s %10s %10s %10s %10s %10s\n", "solver", "wall_s", "us/step", "dynamics",
           "collision", "setup", "solve", "z(2s)");
    double mj_us = -1, mj_wall = -1, mj_h2 = 0;
#if defined(MCDYN_HAVE_MUJOCO)
    char msg[256];
    if (bench_mujoco_pendulum(o.mjcf, duration, &mj_wall, &mj_us, &mj_h2, msg, sizeof msg))
        fprintf(stderr, "mcdyn bench sim: MuJoCo: %s\n", msg), mj_us = -1;
#endif
    int code = 0;
    for (int k = 0; k < MCD_METHOD_COUNT; k++) {
        double f[6], h2 = 0;
        const char *name = mcd_step_method_name((mcd_step_method)k);
        if (run_solver(sc, name, duration, f, &h2)) {
            code = 1;
            continue;
        }
        printf("%-13s %9.3f %10.2f %10.2f %10.2f %10.2f %10.2f %10.4f", name, f[0], f[1], f[2],
               f[3], f[4], f[5], h2);
        if (mj_us > 0) printf("   %.2fx MuJoCo", f[1] / mj_us);
        printf("\n");
        fflush(stdout);
    }
    if (mj_us > 0)
        printf("%-13s %9.3f %10.2f %54s %10.4f\n", "mujoco-2.2.2", mj_wall, mj_us, "", mj_h2);
    else
        printf("MuJoCo: not measured (not built in, or its model failed to load)\n");
    mcd_scenario_free(sc);
    return code;
}

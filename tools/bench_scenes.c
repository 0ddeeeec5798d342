/* `mcdyn bench scenes`: the success rate of every step method on every
 * contact-rich scene of models/ (docs/solvers.md, "Success rate per
 * scene"). Each scene runs for a fixed simulated time with each method at
 * its default options (its documented tolerance and iteration cap), warm
 * started or cold, under on_failure warn-and-continue, so that one failure
 * does not hide the rest of the run: a row gives the steps completed (a
 * run still stops at a non-finite state or the divergence guard), the
 * solves that did not converge (in a step of the smallest size step halving
 * allows), the steps taken again as halves (sim.h, max_step_halvings), the
 * mean solver iterations per step (the largest over the step's groups) and
 * the wall time per step. Long runs report their progress on stderr every
 * PROGRESS_SECONDS of wall time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/base/clock.h"
#include "args.h"
#include "cli.h"
#include "mcdyn/runner.h"

static const char *const default_scenes[] = {
    "box_tower",       "box_block",           "sphere_pile",         "plate64",
    "a1_drop_upright", "a1_drop_upside_down", "solo12_drop_upright", "solo12_drop_upside_down",
    "anymal_side",     "arm_push_box",        "humanoid_flat",
};
#define NSCENES          ((int)(sizeof default_scenes / sizeof *default_scenes))
#define MAX_LIST         64
#define PROGRESS_SECONDS 30.0

typedef struct bench_scenes_options {
    const char *models; /* folder of the scene files */
    double duration;    /* [s], 0: each scene's own */
    const char *scenes[MAX_LIST], *methods[MAX_LIST];
    int nscenes, nmethods;
    int warm, cold; /* which starts to run */
} bench_scenes_options;

typedef struct scene_result {
    long steps, total, failures, halvings;
    double iterations, us_per_step;
    char stop[160]; /* why the run stopped early, or "" */
} scene_result;

static void usage(FILE *out)
{
    fprintf(out, "usage: mcdyn bench scenes [--models DIR] [--duration S] [--scene NAME]...\n"
                 "                          [--method NAME]... [--start warm|cold|both]\n\n"
                 "Runs every step method on every contact-rich scene (DIR/NAME.yaml) at the\n"
                 "method's default options, on_failure warn-and-continue, and prints per scene\n"
                 "and method: steps completed of those asked, solves that did not converge,\n"
                 "steps taken again as halves (step halving), mean solver iterations per step\n"
                 "and microseconds per step. A run reports where it stands on stderr every\n"
                 "30 s.\n\n"
                 "options:\n"
                 "  --models DIR     folder of the scene files (default: models)\n"
                 "  --duration S     simulated time of every run [s] (default: each scene's)\n"
                 "  --scene NAME     a scene to run (repeatable; default: all of them)\n"
                 "  --method NAME    a step method (repeatable; default: every method)\n"
                 "  --start WHICH    warm (each solve from the previous step's impulses),\n"
                 "                   cold (from zero), or both (default: both)\n"
                 "  -h, --help       print this help\n");
}

static int add_name(const char **list, int *n, const char *name)
{
    if (*n >= MAX_LIST) {
        fprintf(stderr, "mcdyn bench scenes: more than %d names\n", MAX_LIST);
        return 1;
    }
    list[(*n)++] = name;
    return 0;
}

static int parse_start(const char *v, bench_scenes_options *o)
{
    o->warm = !strcmp(v, "warm") || !strcmp(v, "both");
    o->cold = !strcmp(v, "cold") || !strcmp(v, "both");
    if (o->warm || o->cold) return 0;
    fprintf(stderr, "mcdyn bench scenes: --start: expected warm, cold or both, got '%s'\n", v);
    return 1;
}

/* 0 parsed, 1 error, 2 help printed. */
static int parse(int argc, char **argv, bench_scenes_options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (args_is_help(a)) {
            usage(stdout);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "mcdyn bench scenes: unknown option or missing value: %s\n", a);
            return 1;
        }
        const char *v = argv[++i];
        int bad = 0;
        if (!strcmp(a, "--models"))
            o->models = v;
        else if (!strcmp(a, "--duration"))
            bad = args_parse_double(v, &o->duration) != 0 || !(o->duration > 0);
        else if (!strcmp(a, "--scene"))
            bad = add_name(o->scenes, &o->nscenes, v);
        else if (!strcmp(a, "--method"))
            bad = add_name(o->methods, &o->nmethods, v);
        else if (!strcmp(a, "--start"))
            bad = parse_start(v, o);
        else
            bad = 1;
        if (bad) {
            fprintf(stderr, "mcdyn bench scenes: bad option %s %s\n", a, v);
            return 1;
        }
    }
    return 0;
}

/* One progress line on stderr: where run r of the scene stands. */
static void progress(const char *scene, mcd_step_method m, int warm, mcd_runner *r, long steps,
                     long total, double seconds)
{
    mcd_sim *sim = mcd_runner_sim(r);
    fprintf(stderr,
            "mcdyn bench scenes: %s %s %s: step %ld / %ld (t = %.4f s), %ld failed, %ld halvings, "
            "%.0f s\n",
            scene, mcd_step_method_name(m), warm ? "warm" : "cold", steps, total, mcd_sim_time(sim),
            mcd_sim_solver_failures(sim), mcd_sim_step_halvings(sim), seconds);
}

/* The scene with method m started warm or cold; 0, or 1 if it cannot be
 * set up (message printed). */
static int run(mcd_scenario *sc, mcd_step_method m, int warm, double duration, scene_result *res)
{
    mcd_solver_settings keep = sc->settings.solver;
    sc->settings.solver.kind = m;
    sc->settings.solver.opts = mcd_step_method_default_opts(m);
    sc->settings.solver.opts.warm_start = warm;
    sc->settings.solver.on_failure = MCD_ON_FAILURE_WARN;
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.duration = duration > 0 ? duration : -1.0;
    mcd_runner *r = NULL;
    mcd_error err = {0};
    mcd_status s = mcd_runner_create(sc, &ov, &r, &err);
    sc->settings.solver = keep;
    if (s != MCD_OK) {
        fprintf(stderr, "mcdyn bench scenes: %s: %s\n", sc->name, err.msg);
        return 1;
    }
    memset(res, 0, sizeof *res);
    res->total = mcd_runner_steps(r);
    long iterations = 0;
    const double t0 = mcd_clock_seconds();
    double reported = t0;
    for (; res->steps < res->total; res->steps++) {
        const double now = mcd_clock_seconds();
        if (now - reported >= PROGRESS_SECONDS) {
            progress(sc->name, m, warm, r, res->steps, res->total, now - t0);
            reported = now;
        }
        mcd_step_stats st;
        if (mcd_runner_step(r, &st) != MCD_OK) {
            snprintf(res->stop, sizeof res->stop, "%s", mcd_sim_error(mcd_runner_sim(r)));
            break;
        }
        iterations += st.iterations;
    }
    const double seconds = mcd_clock_seconds() - t0;
    res->failures = mcd_sim_solver_failures(mcd_runner_sim(r));
    res->halvings = mcd_sim_step_halvings(mcd_runner_sim(r));
    res->iterations = res->steps ? (double)iterations / (double)res->steps : 0.0;
    res->us_per_step = res->steps ? 1e6 * seconds / (double)res->steps : 0.0;
    mcd_runner_free(r);
    return 0;
}

static int bench_scene(const bench_scenes_options *o, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.yaml", o->models, name);
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    if (mcd_scenario_load(path, &sc, &err) != MCD_OK) {
        fprintf(stderr, "mcdyn bench scenes: %s\n", err.msg);
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < o->nmethods && !bad; i++) {
        mcd_step_method m;
        bad = mcd_step_method_from_name(o->methods[i], &m, &err) != MCD_OK;
        if (bad) fprintf(stderr, "mcdyn bench scenes: %s\n", err.msg);
        for (int warm = 1; warm >= 0 && !bad; warm--) {
            if (!(warm ? o->warm : o->cold)) continue;
            scene_result res;
            bad = run(sc, m, warm, o->duration, &res);
            if (bad) break;
            printf("| %s | %s | %s | %ld / %ld | %ld | %ld | %.2f | %.0f |%s%s\n", name,
                   o->methods[i], warm ? "warm" : "cold", res.steps, res.total, res.failures,
                   res.halvings, res.iterations, res.us_per_step, res.stop[0] ? " stopped: " : "",
                   res.stop);
            fflush(stdout);
        }
    }
    mcd_scenario_free(sc);
    return bad;
}

int mcd_bench_scenes(int argc, char **argv)
{
    bench_scenes_options o = {.models = "models", .warm = 1, .cold = 1};
    const int p = parse(argc, argv, &o);
    if (p) return p == 2 ? 0 : 2;
    for (int i = 0; o.nscenes == 0 && i < NSCENES; i++) o.scenes[i] = default_scenes[i];
    if (o.nscenes == 0) o.nscenes = NSCENES;
    for (int i = 0; o.nmethods == 0 && i < MCD_METHOD_COUNT; i++)
        o.methods[i] = mcd_step_method_name((mcd_step_method)i);
    if (o.nmethods == 0) o.nmethods = MCD_METHOD_COUNT;
    printf("| scene | method | start | steps | failed solves | step halvings | iterations / step | "
           "us / step |\n"
           "|---|---|---|---|---|---|---|---|\n");
    int bad = 0;
    for (int i = 0; i < o.nscenes; i++) bad |= bench_scene(&o, o.scenes[i]);
    return bad;
}

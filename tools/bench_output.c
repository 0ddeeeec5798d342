/* `mcdyn bench main`: the README's main job end to end — load the scenario,
 * build the simulator, step through the whole duration writing every CSV
 * row, close the file — against MuJoCo 2.2.2's bare mj_step loop on the
 * equivalent MJCF in the same process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../src/base/clock.h"
#include "args.h"
#include "cli.h"
#include "mcdyn/runner.h"
#if defined(MCDYN_HAVE_MUJOCO)
#include "bench_mujoco.h"
#endif

#define RUNS 3

typedef struct bench_main_options {
    const char *scenario, *mjcf, *out;
} bench_main_options;

/* Seconds of one run of the main job: the whole of it, its steps, its rows. */
typedef struct main_run {
    double total, physics, output;
    long steps, rows;
} main_run;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcdyn bench main [--scenario FILE] [--mjcf FILE] [--out FILE]\n\n"
            "Runs the main job (default models/pendulum12.yaml) %d times end to end: scenario\n"
            "loading, simulator set-up, every step of the duration with its CSV row written\n"
            "(output.every is ignored: every step is recorded), the file closed. Prints the\n"
            "median run's wall time split into physics (the steps) and output (the rows),\n"
            "and, with MuJoCo built in, MuJoCo's bare mj_step loop on the equivalent MJCF\n"
            "(default models/pendulum12.xml) in the same process and the ratio.\n\n"
            "options:\n"
            "  --scenario FILE  the scenario to run\n"
            "  --mjcf FILE      the MuJoCo model of the same scene\n"
            "  --out FILE       the CSV to write (default: a temporary file, removed)\n"
            "  -h, --help       print this help\n",
            RUNS);
}

/* Steps r through its duration writing every row to csv. */
static int record(mcd_runner *r, FILE *csv, main_run *run)
{
    mcd_step_stats st;
    memset(&st, 0, sizeof st);
    const double t0 = mcd_clock_seconds();
    mcd_runner_csv_header(r, csv);
    mcd_runner_csv_row(r, &st, csv);
    run->output += mcd_clock_seconds() - t0;
    run->rows = 1;
    for (long k = 0; k < mcd_runner_steps(r); k++) {
        const double t1 = mcd_clock_seconds();
        if (mcd_runner_step(r, &st) != MCD_OK) {
            fprintf(stderr, "mcdyn bench main: step failed at t = %.4f: %s\n",
                    mcd_sim_time(mcd_runner_sim(r)), mcd_sim_error(mcd_runner_sim(r)));
            return 1;
        }
        const double t2 = mcd_clock_seconds();
        mcd_runner_csv_row(r, &st, csv);
        run->physics += t2 - t1, run->output += mcd_clock_seconds() - t2;
        run->steps++, run->rows++;
    }
    return 0;
}

/* One run of the main job, timed from loading to closing the file. */
static int run_main(const char *scenario, const char *csv_path, main_run *run)
{
    memset(run, 0, sizeof *run);
    const double t0 = mcd_clock_seconds();
    mcd_scenario *sc = NULL;
    mcd_runner *r = NULL;
    mcd_error err = {0};
    int code = 1;
    FILE *csv = NULL;
    if (mcd_scenario_load(scenario, &sc, &err) != MCD_OK ||
        mcd_runner_create(sc, NULL, &r, &err) != MCD_OK) {
        fprintf(stderr, "mcdyn bench main: %s: %s\n", scenario, err.msg);
    } else if (!(csv = fopen(csv_path, "w"))) {
        fprintf(stderr, "mcdyn bench main: cannot write '%s'\n", csv_path);
    } else {
        static char csv_buffer[1 << 20]; /* as mcdyn sim does */
        setvbuf(csv, csv_buffer, _IOFBF, sizeof csv_buffer);
        code = record(r, csv, run);
        const double t1 = mcd_clock_seconds();
        if (fclose(csv) != 0 && !code) {
            fprintf(stderr, "mcdyn bench main: writing '%s' failed\n", csv_path);
            code = 1;
        }
        run->output += mcd_clock_seconds() - t1;
    }
    mcd_runner_free(r);
    mcd_scenario_free(sc);
    run->total = mcd_clock_seconds() - t0;
    return code;
}

static int parse(int argc, char **argv, bench_main_options *o)
{
    for (int i = 1; i < argc; i++) {
        if (args_is_help(argv[i])) {
            usage(stdout);
            return 0;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v && !strcmp(argv[i], "--scenario"))
            o->scenario = v;
        else if (v && !strcmp(argv[i], "--mjcf"))
            o->mjcf = v;
        else if (v && !strcmp(argv[i], "--out"))
            o->out = v;
        else {
            fprintf(stderr, "mcdyn bench main: bad argument '%s'\n\n", argv[i]);
            usage(stderr);
            return 2;
        }
        i++;
    }
    return -1;
}

/* The median of the runs by total time. */
static main_run median_run(main_run *run)
{
    for (int i = 1; i < RUNS; i++)
        for (int j = i; j > 0 && run[j].total < run[j - 1].total; j--) {
            main_run t = run[j];
            run[j] = run[j - 1], run[j - 1] = t;
        }
    return run[RUNS / 2];
}

/* MuJoCo's bare loop over the scenario's duration; its wall time or -1. */
static double mujoco_seconds(const char *mjcf, const char *scenario)
{
#if defined(MCDYN_HAVE_MUJOCO)
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    if (mcd_scenario_load(scenario, &sc, &err) != MCD_OK) return -1;
    double wall = -1, us, h2;
    char msg[256];
    if (bench_mujoco_pendulum(mjcf, sc->settings.duration, &wall, &us, &h2, msg, sizeof msg))
        fprintf(stderr, "mcdyn bench main: MuJoCo: %s\n", msg), wall = -1;
    mcd_scenario_free(sc);
    return wall;
#else
    (void)mjcf, (void)scenario;
    return -1;
#endif
}

int mcd_bench_main(int argc, char **argv)
{
    bench_main_options o = {"models/pendulum12.yaml", "models/pendulum12.xml", NULL};
    int code = parse(argc, argv, &o);
    if (code >= 0) return code;
    char tmp[64] = "/tmp/mcdyn-bench-main-XXXXXX";
    if (!o.out) {
        int fd = mkstemp(tmp);
        if (fd < 0) {
            fprintf(stderr, "mcdyn bench main: cannot make a temporary file\n");
            return 1;
        }
        close(fd);
    }
    main_run run[RUNS];
    code = 0;
    for (int k = 0; k < RUNS && !code; k++)
        code = run_main(o.scenario, o.out ? o.out : tmp, &run[k]);
    if (!o.out) remove(tmp);
    if (code) return code;
    const main_run m = median_run(run);
    const double mj = mujoco_seconds(o.mjcf, o.scenario);
    printf("main job %s: %ld steps, %ld CSV rows, median of %d runs\n", o.scenario, m.steps, m.rows,
           RUNS);
    printf("end to end   %.3f s = physics %.3f s + output %.3f s + loading and set-up %.3f s\n",
           m.total, m.physics, m.output, m.total - m.physics - m.output);
    printf("per step     physics %.2f us, output %.2f us per row\n", 1e6 * m.physics / m.steps,
           1e6 * m.output / m.rows);
    if (mj > 0)
        printf("mujoco-2.2.2 bare mj_step loop %.3f s: main job end to end %.2fx, physics "
               "%.2fx\n",
               mj, m.total / mj, m.physics / mj);
    else
        printf("MuJoCo: not measured (not built in, or its model failed to load)\n");
    return 0;
}

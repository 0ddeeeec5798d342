/* `mcdyn sweep`: runs every case of a sweep file (docs/scale-out.md) on a
 * thread pool and, under mpirun or srun, across the ranks of an MPI job,
 * and writes one summary CSV. */
#include <dlfcn.h>
#include <errno.h>
#include <libxml/parser.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../src/base/clock.h"
#include "args.h"
#include "cli.h"
#include "mcdyn/runner.h"
#include "sweep_costs.h"
#include "sweep_plot.h"
#include "sweep_pool.h"
#include "sweep_summary_h5.h"
#ifdef MCDYN_HAVE_MPI
#include <mpi.h>

#include "sweep_mpi.h"
#endif

typedef struct sweep_options {
    const char *sweep, *out, *h5, *costs;
    int jobs, resume, progress;
    sweep_plot_options plot;
} sweep_options;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcdyn sweep SWEEP.yaml --out SUMMARY.csv [--h5 SUMMARY.h5] [--jobs N]\n"
            "                   [--plot PNG --plot-y COLUMN [--plot-above V]]\n"
            "                   [--resume] [--progress] [--costs EARLIER.csv]\n"
            "       mpirun -n K mcdyn sweep SWEEP.yaml --out SUMMARY.csv [--jobs N] [--resume]\n\n"
            "Runs every case of the sweep file (docs/scale-out.md: a base scenario, grid\n"
            "axes and random variables over scenario keys addressed by path) and writes one\n"
            "row per case, in case order, to the summary CSV (written when the sweep ends;\n"
            "finished rows go to SUMMARY.csv.part meanwhile). A failed case is a row with\n"
            "its status and message. Results do not depend on N or K.\n\n"
            "options:\n"
            "  --out FILE    the summary CSV\n"
            "  --h5 FILE     the summary as HDF5 too: one dataset per column (float64 for\n"
            "                numbers, [cases x n] for the final state, else strings)\n"
            "  --plot PNG    a picture of the summary column --plot-y against the first\n"
            "                grid axis, a line per value of the second (gnuplot)\n"
            "  --plot-y COL  the column plotted: the mean over the random samples, or with\n"
            "  --plot-above V  the fraction of them above V (a failed case counts below)\n"
            "  --jobs N      cases run at once on this process's threads (default 1; under\n"
            "                MPI, on each rank: start ranks with --bind-to none or with\n"
            "                N cores each, --map-by slot:PE=N, or the threads share one)\n"
            "  --resume      keep the rows of SUMMARY.csv.part (or SUMMARY.csv) of an\n"
            "                earlier run of the same sweep, run the missing cases only\n"
            "  --progress    a line on standard error per finished case\n"
            "  --costs FILE  hand out the costliest cases first, by their cpu (or wall)\n"
            "                in FILE, an earlier summary of this sweep (unknown ones first)\n"
            "  -h, --help    print this help\n\n"
            "Exit code 0 when the summary is written (failed cases included), 1 when the\n"
            "sweep cannot run, 2 for bad usage.\n");
}

static int parse(int argc, char **argv, sweep_options *o)
{
    memset(o, 0, sizeof *o);
    o->jobs = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int valued = 1, bad = 0;
        if (args_is_help(a)) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--out"))
            o->out = v;
        else if (!strcmp(a, "--h5"))
            o->h5 = v;
        else if (!strcmp(a, "--costs"))
            o->costs = v;
        else if (!strcmp(a, "--plot"))
            o->plot.png = v;
        else if (!strcmp(a, "--plot-y"))
            o->plot.column = v;
        else if (!strcmp(a, "--plot-above"))
            bad = !v || args_parse_double(v, &o->plot.above), o->plot.has_above = 1;
        else if (!strcmp(a, "--jobs"))
            bad = !v || args_parse_int(v, 1, &o->jobs) || o->jobs > SWEEP_MAX_JOBS;
        else if (!strcmp(a, "--resume"))
            o->resume = 1, valued = 0;
        else if (!strcmp(a, "--progress"))
            o->progress = 1, valued = 0;
        else if (a[0] != '-' && !o->sweep)
            o->sweep = a, valued = 0;
        else {
            fprintf(stderr, "mcdyn sweep: unknown argument '%s'\n\n", a);
            usage(stderr);
            return 2;
        }
        if (valued && (!v || bad)) {
            fprintf(stderr, "mcdyn sweep: option '%s' needs a valid value%s\n", a,
                    !strcmp(a, "--jobs") ? " (an integer in [1, 1024])" : "");
            return 2;
        }
        i += valued;
    }
    if (!o->plot.png != !o->plot.column || (o->plot.has_above && !o->plot.png)) {
        fprintf(stderr, "mcdyn sweep: --plot and --plot-y go together (--plot-above with them)\n");
        return 2;
    }
    if (!o->sweep || !o->out) {
        fprintf(stderr, "mcdyn sweep: %s\n\n",
                o->sweep ? "--out is required" : "no sweep file given");
        usage(stderr);
        return 2;
    }
    return -1;
}

/* The number of processes an MPI launcher started (mpirun, srun), 1 when
 * none did. */
static int launched_size(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        if (v && atoi(v) > 1) return atoi(v);
    }
    return 1;
}

/* Thread safety of the libraries under the library (docs/scale-out.md):
 * libxml2 initialised once before any thread, OpenBLAS's own threads off
 * (the cases are the parallelism). And glibc's malloc keeps what a case
 * frees for the next: every case allocates the same large blocks (the
 * solver workspace's n x n matrices), above the 128 kB below which malloc
 * reuses memory; each would otherwise be fresh pages, faulted in and
 * zeroed at every case (measured on an MPI rank: 71 000 page faults for
 * 200 one-step A1 cases, against 4 500 with these settings;
 * docs/performance.md, "Sweeps"). */
static void prepare_threads(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
    xmlInitParser();
    void (*set_threads)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    if (set_threads) set_threads(1);
}

/* Case 0 loads and builds, and has every recorded column: the paths are the
 * same in every case, so a misspelt path or column stops the sweep here,
 * before anything runs. Returns 0, or 1 with the message printed. */
static int check_first_case(const sweep_spec *sp)
{
    sweep_case c;
    mcd_scenario *sc = NULL;
    mcd_runner *r = NULL;
    mcd_error err = {0};
    sweep_case_init(sp, &c);
    sweep_case_fill(sp, 0, &c);
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    mcd_status st = mcd_scenario_load_with(sp->scenario, c.ov, c.nov, &sc, &err);
    if (st == MCD_OK) st = mcd_runner_create(sc, &ov, &r, &err);
    if (st != MCD_OK) fprintf(stderr, "mcdyn sweep: case 0 (checked first): %s\n", err.msg);
    for (int i = 0; i < sp->ncolumn && st == MCD_OK; i++)
        if (mcd_runner_csv_column(r, sp->column[i]) < 0) {
            fprintf(stderr, "mcdyn sweep: record.columns: no CSV column '%s' in case 0\n",
                    sp->column[i]);
            st = MCD_ERR_ARG;
        }
    mcd_runner_free(r);
    mcd_scenario_free(sc);
    sweep_case_free(&c);
    return st != MCD_OK;
}

/* The cases' costs of --costs (NULL without it); *bad = 1 with the message
 * printed when the file cannot be used. */
static double *read_costs(const sweep_options *o, const sweep_spec *sp, int *bad)
{
    if (!o->costs) return NULL;
    char msg[1024];
    double *cost = calloc((size_t)sp->ncase, sizeof *cost);
    if (!cost) abort(); /* the command cannot go on without memory */
    if (sweep_costs_read(sp, o->costs, cost, msg, sizeof msg) == 0) return cost;
    fprintf(stderr, "mcdyn sweep: %s\n", msg);
    free(cost);
    *bad = 1;
    return NULL;
}

/* Rank 0 (or the only process): the queue, the pool, the other ranks, the
 * summary. */
static int run_sweep(const sweep_options *o, const sweep_spec *sp, const sweep_run_shared *sh,
                     int size)
{
    sweep_summary summary;
    sweep_queue q;
    sweep_pool pool;
    char msg[1024];
    int code = 1;
    int bad = check_first_case(sp);
    if (!bad && o->plot.png && sweep_plot_check(sp, &o->plot, msg, sizeof msg))
        bad = 1, fprintf(stderr, "mcdyn sweep: %s\n", msg);
    double *cost = bad ? NULL : read_costs(o, sp, &bad);
    if (!bad && sweep_summary_open(&summary, sp, o->out, o->resume, msg, sizeof msg)) {
        fprintf(stderr, "mcdyn sweep: %s\n", msg);
        sweep_summary_free(&summary);
        bad = 1;
    }
    if (bad) {
        free(cost);
#ifdef MCDYN_HAVE_MPI
        if (size > 1) MPI_Abort(MPI_COMM_WORLD, 1);
#endif
        return 1;
    }
    sweep_queue_init(&q, &summary, o->progress, cost);
    free(cost);
    /* The running time: from the first case started to the last row in,
     * without the start-up of the process or the MPI job. */
    const double t0 = mcd_clock_seconds();
    int started = sweep_pool_start(&pool, sweep_queue_feed(&q), sh, o->jobs);
#ifdef MCDYN_HAVE_MPI
    if (size > 1 && sweep_mpi_serve(&q, size, o->jobs, sp->fingerprint)) q.error = 1;
#else
    (void)size;
#endif
    if (started == 0) sweep_pool_join(&pool);
    const double running = mcd_clock_seconds() - t0;
    if (!q.error && summary.done < sp->ncase)
        snprintf(q.msg, sizeof q.msg, "no case could be started"), q.error = 1;
    if (q.error && q.msg[0]) fprintf(stderr, "mcdyn sweep: %s\n", q.msg);
    if (!q.error && (sweep_summary_finish(&summary, msg, sizeof msg) ||
                     (o->h5 && sweep_summary_h5(&summary, o->h5, msg, sizeof msg)) ||
                     (o->plot.png && sweep_plot(&summary, &o->plot, msg, sizeof msg))))
        fprintf(stderr, "mcdyn sweep: %s\n", msg);
    else if (!q.error) {
        printf("cases             %ld (%ld run now, %ld kept from an earlier run)\n", sp->ncase,
               sp->ncase - summary.resumed, summary.resumed);
        printf("failed            %ld of those run now\n", q.failed);
        const long now = sp->ncase - summary.resumed;
        printf("running           %.3f s", running);
        if (now > 0 && running > 0) printf(", %.1f cases per second", (double)now / running);
        printf("\n");
        printf("summary           %s\n", o->out);
        if (o->h5) printf("HDF5 summary      %s\n", o->h5);
        if (o->plot.png) printf("plot              %s\n", o->plot.png);
        code = 0;
    }
    sweep_queue_free(&q);
    sweep_summary_free(&summary);
    return code;
}

/* The directory of the cases' trajectories, made when missing (its parent
 * must exist). Returns 0, or 1 with the message printed. */
static int make_trajectory_dir(const sweep_spec *sp)
{
    if (!sp->trajectories || mkdir(sp->trajectories, 0777) == 0 || errno == EEXIST) return 0;
    fprintf(stderr, "mcdyn sweep: record.trajectories: cannot make %s: %s\n", sp->trajectories,
            strerror(errno));
    return 1;
}

/* Ranks other than 0: the cases rank 0 hands out, on jobs threads. */
static int run_worker(const sweep_run_shared *sh, int jobs)
{
#ifdef MCDYN_HAVE_MPI
    if (sweep_mpi_work(sh, jobs) == 0) return 0;
    fprintf(stderr, "mcdyn sweep: cannot start a thread\n");
    MPI_Abort(MPI_COMM_WORLD, 1); /* rank 0 waits for this one */
#else
    (void)sh, (void)jobs;
#endif
    return 1;
}

int mcd_cmd_sweep(int argc, char **argv)
{
    sweep_options o;
    int code = parse(argc, argv, &o), rank = 0, size = launched_size();
    if (code >= 0) return code;
#ifdef MCDYN_HAVE_MPI
    if (size > 1 && sweep_mpi_init(&argc, &argv, &rank, &size)) {
        fprintf(stderr, "mcdyn sweep: cannot start MPI\n");
        return 1;
    }
#else
    if (size > 1) {
        fprintf(stderr,
                "mcdyn sweep: started as one of %d MPI processes, but this mcdyn was "
                "built without MPI (meson option mpi): each would run the whole sweep\n",
                size);
        return 2;
    }
#endif
    prepare_threads();
    sweep_spec sp;
    char msg[1024];
    pthread_mutex_t io_lock = PTHREAD_MUTEX_INITIALIZER;
    sweep_run_shared sh = {&sp, &io_lock};
    int bad = sweep_spec_load(o.sweep, &sp, msg, sizeof msg);
    if (bad) fprintf(stderr, "mcdyn sweep: %s\n", msg);
    if (bad || make_trajectory_dir(&sp)) {
#ifdef MCDYN_HAVE_MPI
        if (size > 1) MPI_Abort(MPI_COMM_WORLD, 1); /* the other ranks wait for this one */
#endif
        if (!bad) sweep_spec_free(&sp);
        return 1;
    }
    code = rank > 0 ? run_worker(&sh, o.jobs) : run_sweep(&o, &sp, &sh, size);
    sweep_spec_free(&sp);
#ifdef MCDYN_HAVE_MPI
    if (size > 1) sweep_mpi_finalize();
#endif
    return code;
}

/* Running one case of a sweep (tools/sweep_run.h). */
#include "../src/base/clock.h"
#include "sweep_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomic_file.h"
#include "sweep_csv.h"
#include "mcdyn/runner.h"

/* Final, minimum and maximum of one recorded CSV column. */
typedef struct column_track {
    int index; /* in the runner's CSV row, -1: no such column in this case */
    double final, min, max;
    int seen;
} column_track;

/* Everything a case produces, then written as its row. */
typedef struct case_result {
    mcd_status status;
    char message[MCD_ERROR_LEN];
    long steps;
    double t_end, wall, step_wall, cpu;
    long solver_failures;
    column_track *track;
    const double *q, *qd;
    int nq, nv;
} case_result;

/* The trajectory written beside the run, if any. */
typedef struct case_output {
    char path[4096]; /* of the trajectory (atomic_file keeps a pointer to it) */
    atomic_file csv;
    mcd_log *log;
} case_output;

void sweep_run_header(const sweep_spec *sp, FILE *out)
{
    fputs("case", out);
    for (int k = 0; k < sp->naxis + sp->nrandom; k++) {
        fputc(',', out);
        sweep_csv_text(out, sweep_spec_varied_path(sp, k));
    }
    fputs(",completed,status,message,steps,t_end,solver_failures", out);
    for (int i = 0; i < sp->ncolumn; i++)
        for (int s = 0; s < 3; s++) {
            char name[512];
            snprintf(name, sizeof name, "%s.%s", sp->column[i],
                     s == 0   ? "final"
                     : s == 1 ? "min"
                              : "max");
            fputc(',', out);
            sweep_csv_text(out, name);
        }
    fputs(",q_final,qd_final,wall,step_wall,cpu", out);
}

/* Follows the recorded columns: the runner's values for the current state
 * (an empty contact slot, NaN, leaves final NaN and min and max as they are). */
static void track_columns(mcd_runner *r, const mcd_step_stats *st, const sweep_spec *sp,
                          column_track *track)
{
    for (int c = 0; c < sp->ncolumn; c++) {
        column_track *t = &track[c];
        double v = NAN;
        if (t->index < 0 || mcd_runner_csv_value(r, st, t->index, &v) != MCD_OK) continue;
        t->final = v;
        if (isnan(v)) continue;
        t->min = t->seen && t->min < v ? t->min : v;
        t->max = t->seen && t->max > v ? t->max : v;
        t->seen = 1;
    }
}

/* Opens the case's trajectory file (CSV or HDF5 log) when asked. */
static int open_trajectory(const sweep_run_shared *sh, const mcd_scenario *sc, long index,
                           case_output *o, case_result *res)
{
    const sweep_spec *sp = sh->sp;
    if (!sp->trajectories) return 0;
    snprintf(o->path, sizeof o->path, "%s/case_%06ld.%s", sp->trajectories, index,
             sp->trajectory_h5 ? "h5" : "csv");
    mcd_error err = {0};
    pthread_mutex_lock(sh->io_lock);
    if (!sp->trajectory_h5 &&
        atomic_file_open(&o->csv, o->path, res->message, sizeof res->message) != 0)
        res->status = MCD_ERR_IO;
    if (sp->trajectory_h5 &&
        (res->status = mcd_log_open(o->path, sc->model, NULL, 8, &o->log, &err)) != MCD_OK)
        snprintf(res->message, sizeof res->message, "%s", err.msg);
    pthread_mutex_unlock(sh->io_lock);
    return res->status == MCD_OK ? 0 : -1;
}

/* Writes the current state to the trajectory; nonzero on failure. */
static int write_trajectory(const sweep_run_shared *sh, mcd_runner *r, const mcd_step_stats *st,
                            case_output *o, case_result *res)
{
    if (o->csv.f) mcd_runner_csv_row(r, st, o->csv.f);
    if (!o->log) return 0;
    mcd_error err = {0};
    pthread_mutex_lock(sh->io_lock);
    res->status = mcd_runner_log_row(r, st, o->log, &err);
    pthread_mutex_unlock(sh->io_lock);
    if (res->status != MCD_OK) snprintf(res->message, sizeof res->message, "%s", err.msg);
    return res->status != MCD_OK;
}

/* Commits (run ended well) or discards the trajectory. */
static void close_trajectory(const sweep_run_shared *sh, case_output *o, case_result *res)
{
    char msg[512];
    if (o->csv.f && res->status == MCD_OK && atomic_file_commit(&o->csv, msg, sizeof msg) != 0) {
        res->status = MCD_ERR_IO;
        snprintf(res->message, sizeof res->message, "%s", msg);
    }
    atomic_file_discard(&o->csv);
    if (!o->log) return;
    mcd_error err = {0};
    pthread_mutex_lock(sh->io_lock);
    if (res->status == MCD_OK && mcd_log_close(o->log, &err) != MCD_OK) {
        res->status = err.status;
        snprintf(res->message, sizeof res->message, "%s", err.msg);
    } else if (res->status != MCD_OK) {
        mcd_log_discard(o->log);
    }
    pthread_mutex_unlock(sh->io_lock);
    o->log = NULL;
}

/* Steps through the duration, tracking columns and writing the trajectory. */
static void step_all(const sweep_run_shared *sh, mcd_runner *r, const mcd_scenario *sc,
                     case_output *o, case_result *res)
{
    const sweep_spec *sp = sh->sp;
    const long n = mcd_runner_steps(r);
    const int every = sc->settings.output.every > 0 ? sc->settings.output.every : 1;
    mcd_step_stats st;
    memset(&st, 0, sizeof st);
    if (o->csv.f) mcd_runner_csv_header(r, o->csv.f);
    if (write_trajectory(sh, r, &st, o, res)) return;
    if (sp->ncolumn) track_columns(r, &st, sp, res->track);
    const double t0 = mcd_clock_seconds();
    for (long k = 0; k < n; k++) {
        res->status = mcd_runner_step(r, &st);
        if (res->status != MCD_OK) {
            snprintf(res->message, sizeof res->message, "%s", mcd_sim_error(mcd_runner_sim(r)));
            break;
        }
        res->steps++;
        if (sp->ncolumn) track_columns(r, &st, sp, res->track);
        if ((k + 1) % every == 0 && write_trajectory(sh, r, &st, o, res)) break;
    }
    res->step_wall = mcd_clock_seconds() - t0;
    if (o->csv.f && ferror(o->csv.f) && res->status == MCD_OK) {
        res->status = MCD_ERR_IO;
        snprintf(res->message, sizeof res->message, "cannot write the trajectory CSV");
    }
}

/* Prepares the recorded columns of this case's runner. */
static void find_columns(const sweep_spec *sp, mcd_runner *r, column_track *track)
{
    for (int c = 0; c < sp->ncolumn; c++) {
        track[c].index = mcd_runner_csv_column(r, sp->column[c]);
        track[c].final = NAN;
    }
}

/* Loads, runs and closes the case; the results in res. */
static void run(const sweep_run_shared *sh, const sweep_case *c, case_result *res,
                mcd_scenario **sc, mcd_runner **r)
{
    const sweep_spec *sp = sh->sp;
    mcd_error err = {0};
    case_output o;
    memset(&o, 0, sizeof o);
    res->status = mcd_scenario_load_with(sp->scenario, c->ov, c->nov, sc, &err);
    if (res->status == MCD_OK) {
        mcd_runner_overrides ov = mcd_runner_default_overrides();
        res->status = mcd_runner_create(*sc, &ov, r, &err);
    }
    if (res->status != MCD_OK) {
        snprintf(res->message, sizeof res->message, "%s", err.msg);
        return;
    }
    if (sp->ncolumn) find_columns(sp, *r, res->track);
    if (open_trajectory(sh, *sc, c->index, &o, res) == 0) step_all(sh, *r, *sc, &o, res);
    close_trajectory(sh, &o, res);
    mcd_sim *sim = mcd_runner_sim(*r);
    res->t_end = mcd_sim_time(sim);
    res->solver_failures = mcd_sim_solver_failures(sim);
    res->q = mcd_sim_q(sim), res->qd = mcd_sim_qd(sim);
    res->nq = (*sc)->model->nq, res->nv = (*sc)->model->nv;
}

static void put_number(FILE *out, double v)
{
    if (isfinite(v)) fprintf(out, "%.17g", v);
}

static void put_vector(FILE *out, const double *v, int n)
{
    fputc(',', out);
    for (int i = 0; i < n; i++) fprintf(out, i ? " %.17g" : "%.17g", v[i]);
}

static void write_row(const sweep_spec *sp, const sweep_case *c, const case_result *res, FILE *out)
{
    fprintf(out, "%ld", c->index);
    for (int k = 0; k < sp->naxis + sp->nrandom; k++) {
        fputc(',', out);
        sweep_csv_text(out, sweep_case_varied(sp, c, k));
    }
    fprintf(out, ",%d,", res->status == MCD_OK);
    sweep_csv_text(out, res->status == MCD_OK ? "ok" : mcd_status_str(res->status));
    fputc(',', out);
    sweep_csv_text(out, res->message);
    fprintf(out, ",%ld,%.17g,%ld", res->steps, res->t_end, res->solver_failures);
    for (int i = 0; i < sp->ncolumn; i++) {
        const column_track *t = &res->track[i];
        fputc(',', out), put_number(out, t->final);
        fputc(',', out), put_number(out, t->seen ? t->min : NAN);
        fputc(',', out), put_number(out, t->seen ? t->max : NAN);
    }
    put_vector(out, res->q, res->nq);
    put_vector(out, res->qd, res->nv);
    fprintf(out, ",%.6f,%.6f,%.6f", res->wall, res->step_wall, res->cpu);
}

/* CPU seconds (user + system) of the calling thread: a case runs on one
 * thread from start to end, so the difference over the case is its own
 * CPU time, whatever the other threads and processes do meanwhile, and
 * without the time the thread waited for a core (unlike wall). */
static double thread_cpu_seconds(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return NAN;
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

char *sweep_run_case(const sweep_run_shared *sh, const sweep_case *c, int *completed)
{
    const sweep_spec *sp = sh->sp;
    const double t0 = mcd_clock_seconds(), cpu0 = thread_cpu_seconds();
    case_result res;
    memset(&res, 0, sizeof res);
    res.track = calloc((size_t)sp->ncolumn + 1, sizeof *res.track);
    if (!res.track) abort(); /* the command cannot go on without memory */
    for (int i = 0; i < sp->ncolumn; i++) res.track[i].final = NAN;
    mcd_scenario *sc = NULL;
    mcd_runner *r = NULL;
    run(sh, c, &res, &sc, &r);
    res.cpu = thread_cpu_seconds() - cpu0;
    res.wall = mcd_clock_seconds() - t0;
    char *row = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&row, &len);
    if (!out) abort();
    write_row(sp, c, &res, out);
    fclose(out);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
    free(res.track);
    *completed = res.status == MCD_OK;
    return row;
}

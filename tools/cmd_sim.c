/* `mcdyn sim`: runs a scenario file, writes the trajectory CSV and a PNG
 * plot, shows progress on a terminal and prints a summary. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../src/base/clock.h"
#include "args.h"
#include "atomic_file.h"
#include "cli.h"
#include "mcdyn/dynamics.h"
#include "mcdyn/runner.h"
#include "plot.h"
#include "view_assets.h"
#include "view_page.h"

typedef struct sim_options {
    const char *scenario, *solver, *impact_law, *out, *plot, *columns, *h5, *html;
    double dt, duration;
    int contact_slots, quiet;
} sim_options;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcdyn sim SCENARIO.yaml [--solver NAME] [--impact-law NAME] [--dt S]\n"
            "                 [--duration S]\n"
            "                 [--out traj.csv] [--plot traj.png] [--plot-columns A,B,...]\n"
            "                 [--h5 run.h5] [--html replay.html]\n"
            "                 [--contact-slots K] [--package-path DIR]... [--quiet]\n\n"
            "Simulates the scenario (docs/scenarios.md) with frictional contact and prints a\n"
            "summary: steps, contacts, solver iterations, wall time, real-time factor.\n\n"
            "options (each overrides the scenario file):\n"
            "  --solver NAME        mlcp-pfb-rlm, mlcp-pfb-plm, mlcp-lemke, mncp-rlm, mncp-plm,\n"
            "                       mncp-nsn, ccp-pgs, ccp-apgd, nslcp-lemke, nslcp-judice,\n"
            "                       maxdiss-bgs, ccp-admm, mncp-fixpoint, ccp-ipm\n"
            "  --impact-law NAME    newton, maxdiss, stronge (docs/theory/impacts.md)\n"
            "  --dt S               time step [s]\n"
            "  --duration S         simulated time [s]\n"
            "  --out FILE           trajectory CSV: t, per body <link>.x,.y,.z,.qw,.qx,.qy,.qz,\n"
            "                       .vx,.vy,.vz,.wx,.wy,.wz (world, centre of mass), per\n"
            "                       one-coordinate joint <joint>.q,.qd, ncontacts,\n"
            "                       iters, residual, then c<k>.Fn,c<k>.Ff,c<k>.Fo per contact\n"
            "                       slot (force = impulse / dt, contact frame)\n"
            "  --plot FILE          PNG plot of the plot columns against t (gnuplot)\n"
            "  --plot-columns LIST  CSV column names to plot (default: the scenario's, else\n"
            "                       the last body's height <link>.z)\n"
            "  --h5 FILE            HDF5 trajectory log: the model (names, tree, geometry), per\n"
            "                       step t, q, qd, body poses, every contact with its force,\n"
            "                       solver statistics, and\n"
            "                       the scenario text (docs/outputs.md)\n"
            "  --html FILE          self-contained 3D replay page of the run (as `mcdyn view`:\n"
            "                       60 frames per simulated second, at most 20 MB)\n"
            "  --contact-slots K    contact slots in the CSV and the log's /steps (default 8;\n"
            "                       the log's /contacts keeps every contact)\n"
            "  --package-path DIR   a directory searched for package:// mesh files, after the\n"
            "                       scenario's package_paths, before ROS_PACKAGE_PATH; may be\n"
            "                       repeated\n"
            "  --quiet              no progress bar and no URDF warnings\n"
            "  -h, --help           print this help\n\n"
            "A progress bar is drawn on standard error when it is a terminal. Exit code 0 on\n"
            "success, 1 when the scenario or a step fails, 2 for bad usage.\n");
}

static int parse(int argc, char **argv, sim_options *o)
{
    memset(o, 0, sizeof *o);
    o->dt = o->duration = -1;
    o->contact_slots = 8;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (args_is_help(a)) {
            usage(stdout);
            return 0;
        }
        int valued = 1, bad = 0;
        if (!strcmp(a, "--solver"))
            o->solver = v;
        else if (!strcmp(a, "--impact-law"))
            o->impact_law = v;
        else if (!strcmp(a, "--out"))
            o->out = v;
        else if (!strcmp(a, "--plot"))
            o->plot = v;
        else if (!strcmp(a, "--h5"))
            o->h5 = v;
        else if (!strcmp(a, "--html"))
            o->html = v;
        else if (!strcmp(a, "--plot-columns"))
            o->columns = v;
        else if (!strcmp(a, "--dt"))
            bad = !v || args_parse_double(v, &o->dt) || !(o->dt > 0);
        else if (!strcmp(a, "--duration"))
            bad = !v || args_parse_double(v, &o->duration) || !(o->duration > 0);
        else if (!strcmp(a, "--contact-slots"))
            bad = !v || args_parse_int(v, 0, &o->contact_slots);
        else if (!strcmp(a, "--package-path")) {
            int rc = v ? args_add_package_path("sim", v) : 0;
            if (rc) return rc;
        } else if (!strcmp(a, "--quiet"))
            o->quiet = 1, valued = 0;
        else if (a[0] != '-' && !o->scenario)
            o->scenario = a, valued = 0;
        else {
            fprintf(stderr, "mcdyn sim: unknown argument '%s'\n\n", a);
            usage(stderr);
            return 2;
        }
        if (valued && (!v || bad)) {
            fprintf(stderr, "mcdyn sim: option '%s' needs a valid value\n", a);
            return 2;
        }
        i += valued;
    }
    if (!o->scenario) {
        fprintf(stderr, "mcdyn sim: no scenario file given\n\n");
        usage(stderr);
        return 2;
    }
    return -1;
}

static void progress(double frac, double wall)
{
    int filled = (int)(frac * 40);
    fprintf(stderr, "\r[%.*s%*s] %5.1f%%  %.1f s", filled,
            "========================================", 40 - filled, "", 100 * frac, wall);
    fflush(stderr);
}

typedef struct summary {
    long steps, contact_steps, iters;
    int max_contacts, max_iters;
    double wall, physics, output, worst_residual; /* [s]: the run, its steps, its writing */
    mcd_step_stats total;
} summary;

static void accumulate(summary *s, const mcd_step_stats *st)
{
    s->steps++;
    s->contact_steps += st->ncontacts > 0;
    s->iters += st->iterations;
    if (st->ncontacts > s->max_contacts) s->max_contacts = st->ncontacts;
    if (st->iterations > s->max_iters) s->max_iters = st->iterations;
    if (st->residual > s->worst_residual) s->worst_residual = st->residual;
    s->total.t_dynamics += st->t_dynamics, s->total.t_contacts += st->t_contacts;
    s->total.t_setup += st->t_setup, s->total.t_solve += st->t_solve;
}

static void print_summary(const summary *s, mcd_runner *r, const char *solver)
{
    const double simulated = mcd_sim_time(mcd_runner_sim(r));
    const mcd_data *d = mcd_sim_data(mcd_runner_sim(r));
    printf("solver            %s\n", solver);
    printf("steps             %ld (%.6g s simulated)\n", s->steps, simulated);
    printf("steps in contact  %ld, at most %d contacts\n", s->contact_steps, s->max_contacts);
    printf("solver iterations %ld (mean %.2f per step in contact, max %d), worst residual %.3g\n",
           s->iters, s->contact_steps ? (double)s->iters / s->contact_steps : 0.0, s->max_iters,
           s->worst_residual);
    printf("solver failures   %ld\n", mcd_sim_solver_failures(mcd_runner_sim(r)));
    printf("step halvings     %ld\n", mcd_sim_step_halvings(mcd_runner_sim(r)));
    if (d->warn_count) printf("warnings          %ld (last: %s)\n", d->warn_count, d->warn.msg);
    const double split =
        s->total.t_dynamics + s->total.t_contacts + s->total.t_setup + s->total.t_solve;
    printf("wall time         %.3f s = physics %.3f s + output %.3f s + other %.3f s\n", s->wall,
           s->physics, s->output, s->wall - s->physics - s->output);
    printf("physics           %.2f us per step, real-time factor %.2f\n",
           1e6 * s->physics / (s->steps ? s->steps : 1),
           s->physics > 0 ? simulated / s->physics : 0.0);
    printf("time split        dynamics %.3f s, collision %.3f s, setup %.3f s, solve %.3f s, "
           "other %.3f s (of the physics)\n",
           s->total.t_dynamics, s->total.t_contacts, s->total.t_setup, s->total.t_solve,
           s->physics - split);
}

#define PLOT_COLUMNS_MAX 16
#define PLOT_NAME_MAX    256

/* names[n] = the first len bytes of text; -1 (message printed) when the
 * name is too long or there are too many. */
static int add_name(char names[][PLOT_NAME_MAX], int *n, const char *text, size_t len)
{
    if (*n >= PLOT_COLUMNS_MAX) {
        fprintf(stderr, "mcdyn sim: more than %d plot columns\n", PLOT_COLUMNS_MAX);
        return -1;
    }
    if (len >= PLOT_NAME_MAX) {
        fprintf(stderr, "mcdyn sim: plot column name longer than %d bytes\n", PLOT_NAME_MAX - 1);
        return -1;
    }
    memcpy(names[*n], text, len);
    names[(*n)++][len] = '\0';
    return 0;
}

/* Resolves the plot columns; returns their count or -1 (message printed). */
static int plot_columns(mcd_runner *r, const mcd_scenario *sc, const sim_options *o, int *cols,
                        char names[][PLOT_NAME_MAX])
{
    int n = 0, bad = 0;
    if (o->columns) {
        for (const char *p = o->columns; *p && !bad;) {
            size_t len = strcspn(p, ",");
            bad = add_name(names, &n, p, len);
            p += len + (p[len] == ',');
        }
    } else if (sc->settings.output.nplot_columns > 0) {
        for (int i = 0; i < sc->settings.output.nplot_columns && !bad; i++)
            bad = add_name(names, &n, sc->settings.output.plot_columns[i],
                           strlen(sc->settings.output.plot_columns[i]));
    } else {
        const mcd_model *m = sc->model;
        char last[PLOT_NAME_MAX + 2];
        int len = snprintf(last, sizeof last, "%s.z", m->nbody ? m->body_name[m->nbody - 1] : "t");
        bad = add_name(names, &n, last, (size_t)len < sizeof last ? (size_t)len : sizeof last);
    }
    for (int i = 0; i < n && !bad; i++)
        if ((cols[i] = mcd_runner_csv_column(r, names[i])) < 0) {
            fprintf(stderr, "mcdyn sim: no CSV column '%s' to plot\n", names[i]);
            bad = -1;
        }
    return bad ? -1 : n;
}

static void print_warning(const mcd_scenario *sc)
{
    for (int i = 0; i < sc->nwarning; i++)
        fprintf(stderr, "mcdyn sim: warning: %s\n", sc->warning[i]);
}

/* The whole text of the file at path (to free), or NULL. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)n + 1))) {
        text[fread(text, 1, (size_t)n, f)] = '\0';
    }
    fclose(f);
    return text;
}

/* Creates the HDF5 log with the scenario's text; 0 on success, else prints
 * the reason. */
static int open_log(const char *path, const mcd_scenario *sc, const char *scenario_path, int slots,
                    mcd_log **log)
{
    mcd_error err = {0};
    char *text = read_text(scenario_path);
    mcd_status s = mcd_log_open(path, sc->model, text, slots, log, &err);
    free(text);
    if (s != MCD_OK) fprintf(stderr, "mcdyn sim: %s\n", err.msg);
    return s != MCD_OK;
}

/* The log behind the replay page when only the page is asked for: a
 * temporary file, removed by replay_free. */
typedef struct replay_output {
    const char *html;
    char tmp_log[64];
} replay_output;

/* The log path for a run: h5_path, or (a page without a log asked for) a
 * fresh temporary name; NULL with a message when none can be made or the
 * page cannot be (three.js not built in: checked before the run). */
static const char *replay_log_path(replay_output *p, const char *html, const char *h5_path)
{
    memset(p, 0, sizeof *p);
    p->html = html;
    if (!html) return h5_path;
    if (view_assets_missing) {
        fprintf(stderr, "mcdyn sim: --html: %s\n", view_assets_missing);
        return NULL;
    }
    if (h5_path) return h5_path;
    snprintf(p->tmp_log, sizeof p->tmp_log, "/tmp/mcdyn-replay-XXXXXX");
    int fd = mkstemp(p->tmp_log);
    if (fd >= 0) return close(fd), p->tmp_log;
    fprintf(stderr, "mcdyn sim: cannot create a temporary log for the page: %s\n", strerror(errno));
    p->tmp_log[0] = '\0';
    return NULL;
}

/* Writes the page from the finished log; 0 or -1 (message printed). */
static int replay_write(const replay_output *p, const char *log_path, const char *title)
{
    char msg[1024];
    if (!p->html) return 0;
    if (view_page_from_log(log_path, p->html, title, VIEW_DEFAULT_FPS, VIEW_DEFAULT_MAX_MB, msg,
                           sizeof msg)) {
        fprintf(stderr, "mcdyn sim: %s\n", msg);
        return -1;
    }
    printf("replay            %s\n", p->html);
    return 0;
}

static void replay_free(replay_output *p)
{
    if (p->tmp_log[0]) unlink(p->tmp_log);
}

/* How a run ended. */
typedef enum run_end { RUN_DONE, RUN_STEP_FAILED, RUN_WRITE_FAILED, RUN_LOG_FAILED } run_end;

/* RUN_WRITE_FAILED (with the reason) once a write to csv failed. */
static run_end written(FILE *csv, int *write_errno)
{
    if (!ferror(csv)) return RUN_DONE;
    *write_errno = errno ? errno : EIO;
    return RUN_WRITE_FAILED;
}

/* Steps through the duration, writing CSV rows (checked after each one: a
 * full disk stops the run) and log rows. The steps are timed as physics,
 * the rows as output. */
static run_end run(mcd_runner *r, const mcd_scenario *sc, FILE *csv, mcd_log *log, int show,
                   summary *s, int *write_errno)
{
    const long n = mcd_runner_steps(r);
    const int every = sc->settings.output.every > 0 ? sc->settings.output.every : 1;
    const double t0 = mcd_clock_seconds();
    mcd_step_stats st;
    memset(&st, 0, sizeof st);
    run_end end = RUN_DONE;
    if (csv) {
        errno = 0;
        mcd_runner_csv_header(r, csv);
        mcd_runner_csv_row(r, &st, csv);
        end = written(csv, write_errno);
    }
    mcd_error err = {0};
    if (log && end == RUN_DONE && mcd_runner_log_row(r, &st, log, &err) != MCD_OK)
        end = RUN_LOG_FAILED;
    s->output = mcd_clock_seconds() - t0;
    for (long k = 0; k < n && end == RUN_DONE; k++) {
        const double t1 = mcd_clock_seconds();
        const mcd_status status = mcd_runner_step(r, &st);
        const double t2 = mcd_clock_seconds();
        s->physics += t2 - t1;
        if (status != MCD_OK) {
            end = RUN_STEP_FAILED;
            break;
        }
        accumulate(s, &st);
        if ((csv || log) && (k + 1) % every == 0) {
            if (csv) {
                errno = 0;
                mcd_runner_csv_row(r, &st, csv);
                end = written(csv, write_errno);
            }
            if (log && end == RUN_DONE && mcd_runner_log_row(r, &st, log, &err) != MCD_OK)
                end = RUN_LOG_FAILED;
            s->output += mcd_clock_seconds() - t2;
        }
        if (show && (k % 200 == 0 || k + 1 == n))
            progress((double)(k + 1) / n, mcd_clock_seconds() - t0);
    }
    s->wall = mcd_clock_seconds() - t0;
    if (show) fputc('\n', stderr);
    if (end == RUN_LOG_FAILED) fprintf(stderr, "mcdyn sim: %s\n", err.msg);
    return end;
}

/* Total mechanical energy (kinetic + potential) of the simulator's state. */
static double energy(mcd_runner *r, const mcd_scenario *sc)
{
    mcd_sim *sim = mcd_runner_sim(r);
    double T = 0, U = 0;
    mcd_energy(sc->model, mcd_sim_data(sim), mcd_sim_q(sim), mcd_sim_qd(sim), &T, &U);
    return T + U;
}

static void print_energy(double E0, double E1)
{
    printf("energy            %.6g J -> %.6g J (change %+.6g J, %+.3g %%)\n", E0, E1, E1 - E0,
           E0 != 0 ? 100 * (E1 - E0) / fabs(E0) : 0.0);
}

/* The trajectory CSV: the target written all or nothing, or (only a plot
 * asked for) a temporary file. */
typedef struct csv_output {
    atomic_file file;
    char tmp[64];
    const char *path; /* what the plot reads */
} csv_output;

static int csv_open(csv_output *c, const char *target, int for_plot)
{
    char msg[512];
    memset(c, 0, sizeof *c);
    if (target) {
        c->path = target;
        if (atomic_file_open(&c->file, target, msg, sizeof msg) == 0) return 0;
        fprintf(stderr, "mcdyn sim: %s\n", msg);
        return -1;
    }
    if (!for_plot) return 0;
    snprintf(c->tmp, sizeof c->tmp, "/tmp/mcdyn-sim-XXXXXX");
    int fd = mkstemp(c->tmp);
    if (fd >= 0 && (c->file.f = fdopen(fd, "wb"))) {
        c->path = c->tmp;
        return 0;
    }
    fprintf(stderr, "mcdyn sim: cannot create a temporary CSV for the plot: %s\n", strerror(errno));
    if (fd >= 0) close(fd), unlink(c->tmp);
    c->tmp[0] = '\0';
    return -1;
}

/* Finishes the CSV after a run: committed when the run ended well, else
 * discarded (a previous file stays as it was). Returns 0 or -1. */
static int csv_close(csv_output *c, run_end end, int write_errno)
{
    char msg[512];
    if (!c->file.f) return 0;
    if (end == RUN_WRITE_FAILED) {
        fprintf(stderr, "mcdyn sim: cannot write %s: %s\n",
                c->tmp[0] ? "the temporary CSV" : c->path, strerror(write_errno));
        end = RUN_STEP_FAILED;
    }
    if (c->tmp[0]) {
        int bad = fflush(c->file.f) != 0 || ferror(c->file.f);
        bad |= fclose(c->file.f) != 0;
        c->file.f = NULL;
        if (bad && end == RUN_DONE) fprintf(stderr, "mcdyn sim: cannot write the temporary CSV\n");
        return bad || end != RUN_DONE ? -1 : 0;
    }
    if (end != RUN_DONE) {
        atomic_file_discard(&c->file);
        return -1;
    }
    if (atomic_file_commit(&c->file, msg, sizeof msg) == 0) return 0;
    fprintf(stderr, "mcdyn sim: %s\n", msg);
    return -1;
}

static void csv_free(csv_output *c)
{
    atomic_file_discard(&c->file);
    if (c->tmp[0]) unlink(c->tmp);
}

int mcd_cmd_sim(int argc, char **argv)
{
    sim_options o;
    int code = parse(argc, argv, &o);
    if (code >= 0) return code;
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    if (mcd_scenario_load(o.scenario, &sc, &err) != MCD_OK) {
        fprintf(stderr, "mcdyn sim: %s\n", err.msg);
        return 1;
    }
    if (!o.quiet) print_warning(sc);
    if (o.impact_law &&
        mcd_impact_law_from_name(o.impact_law, &sc->settings.contact.impact_law, &err) != MCD_OK) {
        fprintf(stderr, "mcdyn sim: %s\n", err.msg);
        mcd_scenario_free(sc);
        return 2;
    }
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.solver = o.solver, ov.dt = o.dt, ov.duration = o.duration,
    ov.contact_slots = o.contact_slots;
    mcd_runner *r = NULL;
    const char *csv_path = o.out ? o.out : sc->settings.output.csv;
    const char *png_path = o.plot ? o.plot : sc->settings.output.plot;
    int cols[PLOT_COLUMNS_MAX];
    char names[PLOT_COLUMNS_MAX][PLOT_NAME_MAX];
    int ncols = 0;
    csv_output csv;
    memset(&csv, 0, sizeof csv);
    mcd_log *log = NULL;
    const char *h5_path = o.h5 ? o.h5 : sc->settings.output.h5;
    replay_output replay;
    const char *log_path =
        replay_log_path(&replay, o.html ? o.html : sc->settings.output.html, h5_path);
    code = 1;
    if (replay.html && !log_path) goto done;
    if (mcd_runner_create(sc, &ov, &r, &err) != MCD_OK) {
        fprintf(stderr, "mcdyn sim: %s: %s\n", o.scenario, err.msg);
        goto done;
    }
    if (png_path && (ncols = plot_columns(r, sc, &o, cols, names)) < 0) goto done;
    if (csv_open(&csv, csv_path, png_path != NULL) != 0) goto done;
    if (log_path && open_log(log_path, sc, o.scenario, o.contact_slots, &log)) goto done;
    static char csv_buffer[1 << 20]; /* rows reach the file in 1 MB writes, not 4 KB ones */
    if (csv.file.f) setvbuf(csv.file.f, csv_buffer, _IOFBF, sizeof csv_buffer);
    summary s;
    memset(&s, 0, sizeof s);
    const double E0 = energy(r, sc);
    int write_errno = 0;
    run_end end = run(r, sc, csv.file.f, log, !o.quiet && isatty(STDERR_FILENO), &s, &write_errno);
    print_summary(&s, r, o.solver ? o.solver : mcd_step_method_name(sc->settings.solver.kind));
    print_energy(E0, energy(r, sc));
    if (end == RUN_STEP_FAILED)
        fprintf(stderr, "mcdyn sim: stopped at t = %.6f: %s\n", mcd_sim_time(mcd_runner_sim(r)),
                mcd_sim_error(mcd_runner_sim(r)));
    if (csv_close(&csv, end, write_errno) != 0 || end != RUN_DONE) goto done;
    if (csv_path) printf("trajectory        %s\n", csv_path);
    if (log) {
        mcd_status closed = mcd_log_close(log, &err);
        log = NULL;
        if (closed != MCD_OK) {
            fprintf(stderr, "mcdyn sim: %s\n", err.msg);
            goto done;
        }
        if (h5_path) printf("log               %s\n", h5_path);
    }
    if (replay_write(&replay, log_path, sc->name)) goto done;
    if (png_path) {
        const char *legend[PLOT_COLUMNS_MAX];
        char msg[512];
        for (int i = 0; i < ncols; i++) legend[i] = names[i];
        if (plot_csv_png(csv.path, png_path, sc->name, cols, legend, ncols, msg, sizeof msg)) {
            fprintf(stderr, "mcdyn sim: %s\n", msg);
            goto done;
        }
        printf("plot              %s\n", png_path);
    }
    code = 0;
done:
    mcd_log_discard(log);
    replay_free(&replay);
    csv_free(&csv);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
    return code;
}

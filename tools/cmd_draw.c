/* `mcdyn draw SCENARIO.yaml|MODEL.urdf --out PICTURE.png [options]`: loads a
 * scenario (or a URDF), optionally simulates it, and draws the model with
 * gnuplot (draw_scene.h, draw_plot.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "args.h"
#include "cli.h"
#include "draw_plot.h"
#include "draw_scene.h"
#include "draw_trajectory.h"
#include "mcdyn/closure.h"
#include "mcdyn/runner.h"
#include "mcdyn/scenario.h"
#include "mcdyn/urdf.h"

#define URDF_DT        1e-3  /* time step when drawing a URDF [s] */
#define URDF_TOLERANCE 1e-10 /* closure tolerance when drawing a URDF [m] */
#define PROJECT_ITER   50

typedef struct draw_options {
    const char *path, *out, *view, *q, *qd, *title, *size, *time, *trajectory;
    int balance_inertia, ignore_mimic;
} draw_options;

/* The loaded model and its state. */
typedef struct drawing {
    mcd_scenario *scenario; /* NULL for a URDF */
    mcd_model *urdf_model;  /* the model of a URDF, else NULL */
    const mcd_model *m;
    const char *name;
    double dt, tol;
    double *q, *qd, *tau;
    mcd_data *d;
} drawing;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcdyn draw SCENARIO.yaml|MODEL.urdf --out PICTURE.png [--view VIEW]\n"
            "                  [--q Q] [--qd QD] [--time T] [--trajectory CSV] [--size WxH]\n"
            "                  [--title TITLE]\n"
            "                  [--package-path DIR]... [--balance-inertia] [--ignore-mimic]\n\n"
            "Draws a model with gnuplot into a PNG picture: bodies as segments from joint\n"
            "to joint and to their collision geometry, closure frames and merged link\n"
            "frames; joints as dots (squares for joints to the world); closure frames as\n"
            "red crosses (a dashed red segment joins the two frames of a closure that\n"
            "does not hold); collision geometry as outlines (meshes as a small frame).\n"
            "The title is the scenario's (or the URDF robot's) name.\n\n"
            "The state is the scenario's initial state (a URDF: the neutral configuration\n"
            "at rest), projected onto the loop closures (drawn as given, with a\n"
            "warning, when it cannot be); with --time it is then simulated without\n"
            "actuation and without contact by mcd_closure_step (semi-implicit Euler with\n"
            "closure projection) at the scenario's dt and closure_tolerance (a URDF: 1 ms\n"
            "and 1e-10 m); `mcdyn sim` simulates with contact. With --trajectory CSV\n"
            "(written by `mcdyn sim --out` for the same scenario) --time T draws the\n"
            "recorded state of the row nearest to T instead: contacts, actuation and\n"
            "all, as simulated.\n\n"
            "options:\n"
            "  --out PICTURE.png   the picture to write (required)\n"
            "  --view VIEW         projection: xz (default; seen from -y), yz (from +x),\n"
            "                      xy (from +z) or iso (isometric, from (1, -1, 1))\n"
            "  --q Q               comma-separated joint positions, nq numbers, instead\n"
            "                      of the initial ones (quaternions w x y z, unit norm)\n"
            "  --qd QD             comma-separated joint velocities, nv numbers\n"
            "  --time T            simulate T seconds (>= 0) before drawing; with\n"
            "                      --trajectory, the recorded time to draw\n"
            "  --trajectory CSV    draw a recorded frame of this trajectory CSV (needs\n"
            "                      --time; its <joint>.q and body pose columns give q)\n"
            "  --size WxH          picture size in pixels (default 800x600)\n"
            "  --title TITLE       picture title instead of the name\n"
            "  --package-path DIR  a directory searched for package:// mesh files, before\n"
            "                      those of ROS_PACKAGE_PATH; may be repeated\n"
            "  --balance-inertia   (URDF) replace a link inertia that no rigid body can have\n"
            "                      by the isotropic one of the same trace, with a warning\n"
            "  --ignore-mimic      (URDF) load a <mimic> joint as an independent joint\n"
            "  -h, --help          print this help\n\n"
            "gnuplot is run without a shell (the program named by MCDYN_GNUPLOT, else\n"
            "`gnuplot` on PATH), with the pngcairo terminal when available, else png.\n"
            "The picture is written all or nothing: a failure leaves a previous file\n"
            "as it was.\n"
            "Errors are reported on standard error; the exit code is 1 for a bad file,\n"
            "state or a failed drawing, 2 for bad usage.\n");
}

static const char **option_slot(draw_options *o, const char *a)
{
    if (!strcmp(a, "--out")) return &o->out;
    if (!strcmp(a, "--view")) return &o->view;
    if (!strcmp(a, "--q")) return &o->q;
    if (!strcmp(a, "--qd")) return &o->qd;
    if (!strcmp(a, "--time")) return &o->time;
    if (!strcmp(a, "--trajectory")) return &o->trajectory;
    if (!strcmp(a, "--size")) return &o->size;
    if (!strcmp(a, "--title")) return &o->title;
    return NULL;
}

/* Returns -1 when the command should run, else the exit code. */
static int parse_options(int argc, char **argv, draw_options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = option_slot(o, a);
        if (args_is_help(a)) {
            usage(stdout);
            return 0;
        }
        if (slot) {
            if (i + 1 >= argc) return args_usage_error("draw", "option '%s' needs a value", a);
            *slot = argv[++i];
        } else if (!strcmp(a, "--balance-inertia")) {
            o->balance_inertia = 1;
        } else if (!strcmp(a, "--ignore-mimic")) {
            o->ignore_mimic = 1;
        } else if (!strcmp(a, "--package-path")) {
            if (i + 1 >= argc) return args_usage_error("draw", "option '%s' needs a value", a);
            int rc = args_add_package_path("draw", argv[++i]);
            if (rc) return rc;
        } else if (a[0] == '-' && a[1] != '\0') {
            return args_usage_error("draw", "unknown option '%s'", a);
        } else if (!o->path) {
            o->path = a;
        } else {
            return args_usage_error("draw",
                                    "unexpected argument '%s' (one scenario or URDF file only)", a);
        }
    }
    if (!o->path) return args_usage_error("draw", "missing the scenario or URDF file");
    if (!o->out) return args_usage_error("draw", "missing --out PICTURE.png");
    if (o->trajectory && !o->time)
        return args_usage_error("draw", "--trajectory needs --time T (the recorded time to draw)");
    if (o->trajectory && (o->q || o->qd))
        return args_usage_error("draw", "--trajectory gives the state: no --q or --qd with it");
    return -1;
}

/* Checks the values of the options that need no model. */
static int check_options(const draw_options *o, draw_view *view, double *time, int *width,
                         int *height)
{
    if (draw_view_from_name(o->view ? o->view : "xz", view) != 0)
        return args_usage_error("draw", "--view: unknown view '%s' (one of %s)", o->view,
                                draw_view_names());
    *time = 0.0;
    if (o->time && (args_parse_double(o->time, time) != 0 || *time < 0))
        return args_usage_error("draw", "--time: '%s' is not a number >= 0", o->time);
    *width = 800, *height = 600;
    if (o->size) {
        if (args_parse_size(o->size, 100, 10000, width, height) != 0)
            return args_usage_error(
                "draw", "--size: '%s' is not WxH with sizes from 100 to 10000 pixels", o->size);
    }
    return 0;
}

static int is_urdf(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcasecmp(path + n - 5, ".urdf") == 0;
}

static void print_warning(void *user, const char *msg)
{
    (void)user;
    fprintf(stderr, "mcdyn draw: warning: %s\n", msg);
}

static int load(drawing *dr, const char *path, const draw_options *o)
{
    mcd_error err;
    if (is_urdf(path)) {
        mcd_urdf_options opt = mcd_urdf_default_options();
        opt.balance_inertia = o->balance_inertia;
        opt.ignore_mimic = o->ignore_mimic;
        opt.warn = print_warning;
        if (mcd_urdf_load_file(path, &opt, &dr->urdf_model, &err) != MCD_OK)
            return args_fail("draw", "%s", err.msg);
        dr->m = dr->urdf_model;
        dr->name = dr->m->name ? dr->m->name : path;
        dr->dt = URDF_DT, dr->tol = URDF_TOLERANCE;
        return 0;
    }
    if (mcd_scenario_load(path, &dr->scenario, &err) != MCD_OK)
        return args_fail("draw", "%s", err.msg);
    for (int i = 0; i < dr->scenario->nwarning; i++) print_warning(NULL, dr->scenario->warning[i]);
    dr->m = dr->scenario->model;
    dr->name = dr->scenario->name;
    dr->dt = dr->scenario->settings.dt;
    dr->tol = dr->scenario->settings.closure_tolerance;
    return 0;
}

/* Projects the state onto the closures. A configuration that cannot be
 * projected is drawn as given (the closure gaps show), but not simulated. */
static int project(drawing *dr, int simulated)
{
    const mcd_model *m = dr->m;
    double *given = malloc(sizeof(double) * (size_t)m->nq);
    if (!given) return args_fail("draw", "out of memory");
    memcpy(given, dr->q, sizeof(double) * (size_t)m->nq);
    mcd_status st = mcd_closure_project_position(m, dr->d, dr->q, dr->tol, PROJECT_ITER, NULL);
    if (st != MCD_OK) {
        memcpy(dr->q, given, sizeof(double) * (size_t)m->nq);
        free(given);
        if (simulated)
            return args_fail("draw",
                             "the configuration cannot be projected onto the loop closures: %s",
                             mcd_data_error(dr->d));
        fprintf(stderr,
                "mcdyn draw: warning: the configuration cannot be projected onto the loop "
                "closures (%s); drawn as given\n",
                mcd_data_error(dr->d));
        return 0;
    }
    free(given);
    if (mcd_closure_project_velocity(m, dr->d, dr->q, dr->qd) != MCD_OK)
        return args_fail("draw", "the velocities cannot be projected onto the loop closures: %s",
                         mcd_data_error(dr->d));
    return 0;
}

static int set_state(drawing *dr, const draw_options *o, int simulated)
{
    const mcd_model *m = dr->m;
    size_t nq = (size_t)(m->nq > 0 ? m->nq : 1), nv = (size_t)(m->nv > 0 ? m->nv : 1);
    dr->q = calloc(nq, sizeof *dr->q);
    dr->qd = calloc(nv, sizeof *dr->qd);
    dr->tau = calloc(nv, sizeof *dr->tau);
    if (!dr->q || !dr->qd || !dr->tau) return args_fail("draw", "out of memory");
    if (dr->scenario) {
        memcpy(dr->q, dr->scenario->q0, (size_t)m->nq * sizeof *dr->q);
        memcpy(dr->qd, dr->scenario->qd0, (size_t)m->nv * sizeof *dr->qd);
    } else {
        mcd_model_neutral(m, dr->q);
    }
    if (args_parse_vector("draw", "--q", o->q, "nq", m->nq, dr->q) ||
        args_parse_vector("draw", "--qd", o->qd, "nv", m->nv, dr->qd))
        return 1;
    mcd_error err;
    if (mcd_model_check_q(m, dr->q, &err) != MCD_OK) return args_fail("draw", "--q: %s", err.msg);
    if (mcd_data_create(m, &dr->d, &err) != MCD_OK) return args_fail("draw", "%s", err.msg);
    if (m->nclosure == 0) return 0;
    return project(dr, simulated);
}

/* The recorded state of the trajectory's row nearest to *time (which
 * becomes that row's time). */
static int recorded_state(drawing *dr, const char *csv, double *time)
{
    char msg[512];
    if (draw_trajectory_state(dr->m, dr->d, csv, *time, dr->q, time, msg, sizeof msg) != 0)
        return args_fail("draw", "%s", msg);
    return 0;
}

static int simulate(drawing *dr, double time)
{
    const double count = round(time / dr->dt);
    if (!(count <= (double)MCD_RUNNER_MAX_STEPS))
        return args_fail("draw",
                         "--time %g s at dt %g s needs %.3g steps, more than the limit of %ld",
                         time, dr->dt, time / dr->dt, MCD_RUNNER_MAX_STEPS);
    const long steps = (long)count;
    for (long n = 0; n < steps; n++)
        if (mcd_closure_step(dr->m, dr->d, dr->q, dr->qd, dr->tau, dr->dt, dr->tol) != MCD_OK)
            return args_fail("draw", "simulation step %ld (t = %g s) failed: %s", n + 1, n * dr->dt,
                             mcd_data_error(dr->d));
    return 0;
}

static int render(drawing *dr, const draw_options *o, const draw_view *view, double time, int width,
                  int height)
{
    draw_scene scene;
    char msg[512], title[512];
    if (draw_scene_build(&scene, dr->m, dr->d, dr->q, view, msg, sizeof msg) != 0)
        return args_fail("draw", "%s", msg);
    if (o->time)
        snprintf(title, sizeof title, "%s (t = %g s)", dr->name, time);
    else
        snprintf(title, sizeof title, "%s", dr->name);
    draw_plot_options po = {o->out, o->title ? o->title : title, view->ulabel, view->vlabel, width,
                            height};
    int rc = draw_plot_png(&scene, &po, msg, sizeof msg);
    draw_scene_free(&scene);
    return rc != 0 ? args_fail("draw", "%s", msg) : 0;
}

static void drawing_free(drawing *dr)
{
    free(dr->q);
    free(dr->qd);
    free(dr->tau);
    mcd_data_free(dr->d);
    mcd_scenario_free(dr->scenario);
    mcd_model_free(dr->urdf_model);
}

int mcd_cmd_draw(int argc, char **argv)
{
    draw_options o = {0};
    draw_view view;
    double time;
    int width, height;
    int code = parse_options(argc, argv, &o);
    if (code >= 0) return code;
    if ((code = check_options(&o, &view, &time, &width, &height)) != 0) return code;
    drawing dr = {0};
    code = load(&dr, o.path, &o) || set_state(&dr, &o, o.time != NULL && !o.trajectory) ||
           (o.trajectory ? recorded_state(&dr, o.trajectory, &time) : simulate(&dr, time)) ||
           render(&dr, &o, &view, time, width, height);
    if (code == 0 && dr.d && dr.d->warn_count > 0)
        fprintf(stderr, "mcdyn draw: note: %s (%ld times)\n", dr.d->warn.msg, dr.d->warn_count);
    drawing_free(&dr);
    return code;
}

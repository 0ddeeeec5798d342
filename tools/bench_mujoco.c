/* The MuJoCo side of `mcdyn bench sim` (bench_mujoco.h). */
#include "../src/base/clock.h"
#include "bench_mujoco.h"

#include <mujoco/mujoco.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define RUNS          3
#define HEIGHT_TIME   2.0 /* [s] */
#define LAST_LINK     "link12"
#define INITIAL_KEY   "initial"
#define MJ_ERROR_SIZE 1000

/* MuJoCo reports errors through a process-wide handler that must not
 * return: it jumps back here. */
static jmp_buf error_jump;
static char error_text[256];
static char warning_text[256];

static void catch_error(const char *text)
{
    snprintf(error_text, sizeof error_text, "%s", text);
    longjmp(error_jump, 1);
}

/* Keeps the first warning (MuJoCo warns once per kind and per mjData). */
static void keep_warning(const char *text)
{
    if (!warning_text[0]) snprintf(warning_text, sizeof warning_text, "%s", text);
}

static void say(char *msg, int msglen, const char *fmt, ...)
{
    if (!msg || msglen <= 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)msglen, fmt, ap);
    va_end(ap);
}

/* What one run needs and gives. */
typedef struct bench_run {
    const mjModel *m;
    mjData *d;
    int key;        /* keyframe of the initial state, -1: the reference state */
    int body;       /* the body whose height is reported */
    long steps;     /* mj_step calls */
    long step2;     /* calls after which the time is HEIGHT_TIME, -1: never */
    double seconds; /* out: wall time of the steps */
    double height;  /* out: z of the body's centre of mass at HEIGHT_TIME, or NaN */
} bench_run;

/* Seconds taken by mj_step calls number from .. to - 1 of run r. */
static double step_range(bench_run *r, long from, long to)
{
    double t0 = mcd_clock_seconds();
    for (long i = from; i < to; i++) mj_step(r->m, r->d);
    return mcd_clock_seconds() - t0;
}

/* Which of MuJoCo's warnings invalidate a run. */
static const struct {
    int kind;
    const char *what;
} fatal_warnings[] = {
    {mjWARN_BADQPOS, "bad number in qpos"},       {mjWARN_BADQVEL, "bad number in qvel"},
    {mjWARN_BADQACC, "bad number in qacc"},       {mjWARN_CONTACTFULL, "contact buffer full"},
    {mjWARN_CNSTRFULL, "constraint buffer full"},
};

/* The state of r after its run is finite and MuJoCo did not give up on it. */
static int check_run(const bench_run *r, char *msg, int msglen)
{
    for (size_t k = 0; k < sizeof fatal_warnings / sizeof fatal_warnings[0]; k++) {
        int n = r->d->warning[fatal_warnings[k].kind].number;
        if (n > 0) {
            say(msg, msglen, "MuJoCo warned %d time(s): %s (%s)", n, fatal_warnings[k].what,
                warning_text[0] ? warning_text : "no message");
            return 1;
        }
    }
    for (int i = 0; i < r->m->nq; i++)
        if (!isfinite(r->d->qpos[i])) {
            say(msg, msglen, "qpos[%d] is not finite after the run", i);
            return 1;
        }
    for (int i = 0; i < r->m->nv; i++)
        if (!isfinite(r->d->qvel[i])) {
            say(msg, msglen, "qvel[%d] is not finite after the run", i);
            return 1;
        }
    return 0;
}

/* One timed run from the initial state. The kinematics at HEIGHT_TIME is
 * recomputed outside the timed steps (after mj_step, d->xipos still
 * belongs to the state before the step). */
static int run_once(bench_run *r, char *msg, int msglen)
{
    if (r->key >= 0)
        mj_resetDataKeyframe(r->m, r->d, r->key);
    else
        mj_resetData(r->m, r->d);
    r->height = NAN;
    if (r->step2 < 0) {
        r->seconds = step_range(r, 0, r->steps);
    } else {
        r->seconds = step_range(r, 0, r->step2);
        mj_kinematics(r->m, r->d);
        r->height = r->d->xipos[3 * r->body + 2];
        r->seconds += step_range(r, r->step2, r->steps);
    }
    return check_run(r, msg, msglen);
}

static void sort_runs(bench_run *run, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && run[j].seconds < run[j - 1].seconds; j--) {
            bench_run t = run[j];
            run[j] = run[j - 1];
            run[j - 1] = t;
        }
}

/* Checks the model and fills the fields of r shared by every run. */
static int prepare(const mjModel *m, double duration, bench_run *r, char *msg, int msglen)
{
    double dt = m->opt.timestep;
    if (!(duration > 0) || !isfinite(duration) || duration / dt > 1e12) {
        say(msg, msglen, "bad duration %g s", duration);
        return 1;
    }
    r->m = m;
    r->steps = lround(duration / dt);
    if (r->steps < 1) {
        say(msg, msglen, "duration %g s is shorter than one time step (%g s)", duration, dt);
        return 1;
    }
    r->step2 = lround(HEIGHT_TIME / dt);
    if (r->step2 > r->steps) r->step2 = -1;
    r->key = mj_name2id(m, mjOBJ_KEY, INITIAL_KEY);
    if (r->key < 0 && m->nkey > 0) r->key = 0;
    r->body = mj_name2id(m, mjOBJ_BODY, LAST_LINK);
    if (r->body < 0) r->body = m->nbody - 1;
    if (r->body < 1) {
        say(msg, msglen, "the model has no moving body");
        return 1;
    }
    return 0;
}

/* The measurement, once the handlers are installed. *m and *d are freed by
 * the caller, also after a MuJoCo error (hence volatile: they are read after
 * the longjmp). */
static int measure(const char *mjcf_path, double duration, mjModel *volatile *m,
                   mjData *volatile *d, bench_run *best, char *msg, int msglen)
{
    char load_error[MJ_ERROR_SIZE] = "";
    bench_run run[RUNS];
    *m = mj_loadXML(mjcf_path, NULL, load_error, sizeof load_error);
    if (!*m) {
        say(msg, msglen, "%s: %s", mjcf_path, load_error[0] ? load_error : "cannot load");
        return 1;
    }
    if (prepare(*m, duration, &run[0], msg, msglen)) return 1;
    if (!(*d = mj_makeData(*m))) {
        say(msg, msglen, "mj_makeData failed");
        return 1;
    }
    run[0].d = *d;
    for (int k = 0; k < RUNS; k++) {
        run[k] = run[0];
        warning_text[0] = '\0';
        if (run_once(&run[k], msg, msglen)) return 1;
    }
    sort_runs(run, RUNS);
    *best = run[RUNS / 2];
    return 0;
}

int bench_mujoco_pendulum(const char *mjcf_path, double duration, double *wall_seconds,
                          double *us_per_step, double *last_link_height_at_2s, char *msg,
                          int msglen)
{
    void (*saved_error)(const char *) = mju_user_error;
    void (*saved_warning)(const char *) = mju_user_warning;
    mjModel *volatile model = NULL;
    mjData *volatile data = NULL;
    bench_run best = {0};
    volatile int failed = 1;
    say(msg, msglen, "%s", "");
    if (!mjcf_path) {
        say(msg, msglen, "no MJCF file given");
        return 1;
    }
    error_text[0] = warning_text[0] = '\0';
    mju_user_error = catch_error;
    mju_user_warning = keep_warning;
    if (setjmp(error_jump) == 0)
        failed = measure(mjcf_path, duration, &model, &data, &best, msg, msglen);
    else
        say(msg, msglen, "MuJoCo error: %s", error_text);
    mju_user_error = saved_error;
    mju_user_warning = saved_warning;
    if (data) mj_deleteData(data);
    if (model) mj_deleteModel(model);
    if (failed) return 1;
    if (wall_seconds) *wall_seconds = best.seconds;
    if (us_per_step) *us_per_step = 1e6 * best.seconds / (double)best.steps;
    if (last_link_height_at_2s) *last_link_height_at_2s = best.height;
    return 0;
}

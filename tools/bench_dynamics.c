/* `mcdyn bench dynamics`: time per call (median, min and max over the
 * samples) of inverse dynamics, the mass matrix, forward dynamics and
 * M^-1 x, on revolute chains and on the bundled and shared robot models,
 * with the machine and build it ran on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "bench_dynamics_peers.h"
#include "bench_dynamics_scaling.h"
#include "bench_timer.h"
#include "chain_model.h"
#include "cli.h"
#include "mcdyn/dynamics.h"
#include "mcdyn/urdf.h"
#include "models_dirs.h"

#define DEFAULT_SAMPLES 21

static const int chain_lengths[] = {3, 20, 100, 1000};
/* The chains of the peer table (Bullet). */
static const int peer_chain_lengths[] = {1, 3, 10, 30, 100, 300, 1000};

typedef struct robot_file {
    const char *file; /* relative to a models directory */
    int floating_base;
    int mujoco_peer; /* a row in the peer table */
} robot_file;

static const robot_file robots[] = {
    {"arm3.urdf", 0, 0},
    {"example-robot-data/panda_collision.urdf", 0, 1},
    {"example-robot-data/a1.urdf", 1, 1},
    {"example-robot-data/solo12.urdf", 1, 0},
    {"example-robot-data/anymal_c_simple.urdf", 1, 0},
};

/* One model, its workspace and one random state. */
typedef struct bench_state {
    const mcd_model *m;
    mcd_data *d;
    double *q, *qd, *qdd, *tau, *x, *y, *M;
} bench_state;

static int call_inverse_dynamics(void *ctx)
{
    bench_state *s = ctx;
    return mcd_inverse_dynamics(s->m, s->d, s->q, s->qd, s->qdd, NULL, s->tau) != MCD_OK;
}

static int call_mass_matrix(void *ctx)
{
    bench_state *s = ctx;
    return mcd_mass_matrix(s->m, s->d, s->q, s->M) != MCD_OK;
}

static int call_forward_dynamics(void *ctx)
{
    bench_state *s = ctx;
    return mcd_forward_dynamics(s->m, s->d, s->q, s->qd, s->tau, NULL, s->qdd) != MCD_OK;
}

static int call_minv_factor(void *ctx)
{
    bench_state *s = ctx;
    return mcd_minv_factor(s->m, s->d, s->q) != MCD_OK;
}

static int call_minv_solve(void *ctx)
{
    bench_state *s = ctx;
    return mcd_minv_solve(s->m, s->d, s->x, s->y) != MCD_OK;
}

static int call_minv_factor_solve(void *ctx)
{
    return call_minv_factor(ctx) || call_minv_solve(ctx);
}

/* One column of the table. prepare (may be NULL) runs once before timing. */
typedef struct bench_column {
    const char *header;
    bench_call prepare, call;
} bench_column;

static const bench_column columns[] = {
    {"inv.dyn", NULL, call_inverse_dynamics}, {"M(q)", NULL, call_mass_matrix},
    {"fwd.dyn", NULL, call_forward_dynamics}, {"M^-1 x", NULL, call_minv_factor_solve},
    {"factor", NULL, call_minv_factor},       {"solve", call_minv_factor, call_minv_solve},
};
#define NCOLUMNS ((int)(sizeof columns / sizeof *columns))

/* A random state (bench_random_state), and x = tau. */
static mcd_status random_state(bench_state *s)
{
    mcd_status st = bench_random_state(s->m, s->q, s->qd, s->qdd, s->tau);
    for (int i = 0; i < s->m->nv; i++) s->x[i] = s->tau[i];
    return st;
}

static void state_free(bench_state *s)
{
    mcd_data_free(s->d);
    free(s->q);
    free(s->M);
}

static mcd_status state_make(bench_state *s, const mcd_model *m, mcd_error *err)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    s->q = malloc(sizeof(double) * (nq + 5 * nv));
    s->M = malloc(sizeof(double) * (nv * nv > 0 ? nv * nv : 1));
    if (!s->q || !s->M) {
        state_free(s);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    }
    s->qd = s->q + nq;
    s->qdd = s->qd + nv;
    s->tau = s->qdd + nv;
    s->x = s->tau + nv;
    s->y = s->x + nv;
    mcd_status st = mcd_data_create(m, &s->d, err);
    if (st == MCD_OK) st = random_state(s);
    if (st != MCD_OK) {
        mcd_fail(err, st, "cannot make a workspace and a random state");
        state_free(s);
    }
    return st;
}

/* Which build of the dynamics' recursion passes the library chose here
 * (dynamics.h: AVX2 or portable). */
static void print_dynamics_build(void)
{
    mcd_model *m = NULL;
    mcd_data *d = NULL;
    mcd_error err;
    if (chain_model_make(1, &m, &err) == MCD_OK && mcd_data_create(m, &d, &err) == MCD_OK)
        printf("dynamics passes: %s build (chosen at run time; MCDYN_PORTABLE=1 forces the "
               "portable one)\n",
               d->use_avx2 ? "AVX2" : "portable");
    mcd_data_free(d);
    mcd_model_free(m);
}

static void print_header(int samples)
{
    bench_print_machine(stdout, "");
    print_dynamics_build();
    printf("time per call [us]: median [min, max] of %d samples of >= 1 ms each "
           "(CLOCK_MONOTONIC)\n",
           samples);
    printf("M^-1 x = mcd_minv_factor + mcd_minv_solve; factor and solve also alone\n\n");
    printf("%-40s %5s", "model", "nv");
    for (int c = 0; c < NCOLUMNS; c++) printf(" %27s", columns[c].header);
    printf("\n");
}

/* Times every column on m and prints one row; returns 0 or 1 on failure. */
static int bench_model(const char *label, const mcd_model *m, int samples)
{
    bench_state s;
    mcd_error err;
    if (state_make(&s, m, &err) != MCD_OK) {
        fprintf(stderr, "mcdyn bench dynamics: %s: %s\n", label, err.msg);
        return 1;
    }
    printf("%-40s %5d", label, m->nv);
    int failed = 0;
    for (int c = 0; c < NCOLUMNS && !failed; c++) {
        failed = columns[c].prepare && columns[c].prepare(&s);
        bench_spread t;
        failed = failed || bench_time_us(columns[c].call, &s, samples, &t) != 0;
        if (!failed) printf(" %9.3f [%7.3f, %7.3f]", t.median, t.min, t.max);
    }
    printf("\n");
    if (failed) fprintf(stderr, "mcdyn bench dynamics: %s: %s\n", label, mcd_data_error(s.d));
    fflush(stdout);
    state_free(&s);
    return failed;
}

static int bench_chains(int samples)
{
    int failed = 0;
    for (size_t i = 0; i < sizeof chain_lengths / sizeof *chain_lengths; i++) {
        mcd_model *m = NULL;
        mcd_error err;
        char label[64];
        snprintf(label, sizeof label, "revolute chain N=%d", chain_lengths[i]);
        if (chain_model_make(chain_lengths[i], &m, &err) != MCD_OK) {
            fprintf(stderr, "mcdyn bench dynamics: %s: %s\n", label, err.msg);
            failed = 1;
            continue;
        }
        failed |= bench_model(label, m, samples);
        mcd_model_free(m);
    }
    return failed;
}

/* "a1.urdf (floating)" */
static void robot_label(const robot_file *r, char *label, size_t len)
{
    const char *slash = strrchr(r->file, '/');
    snprintf(label, len, "%s%s", slash ? slash + 1 : r->file,
             r->floating_base ? " (floating)" : "");
}

/* Loads the robot into *m (path: its file, len bytes), or returns nonzero
 * after printing why it is skipped: absent or not loading. */
static int load_robot(const models_dirs *dirs, const robot_file *r, const char *label, char *path,
                      size_t len, mcd_model **m)
{
    *m = NULL;
    if (models_dirs_find(dirs, r->file, path, len) != 0) {
        printf("%-40s skipped: %s not found in ", label, r->file);
        models_dirs_print(stdout, dirs);
        printf("\n");
        return 1;
    }
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.floating_base = r->floating_base;
    opt.ignore_mimic = 1; /* the dynamics of the tree (panda's finger mimic) */
    mcd_error err;
    if (mcd_urdf_load_file(path, &opt, m, &err) != MCD_OK) {
        printf("%-40s skipped: does not load: %s\n", label, err.msg);
        return 1;
    }
    return 0;
}

/* Returns 1 if the robot loads but a call fails; a robot that is absent or
 * does not load is skipped with a note. */
static int bench_robot(const models_dirs *dirs, const robot_file *r, int samples)
{
    char path[8192], label[128];
    robot_label(r, label, sizeof label);
    mcd_model *m = NULL;
    if (load_robot(dirs, r, label, path, sizeof path, &m)) return 0;
    int failed = bench_model(label, m, samples);
    mcd_model_free(m);
    return failed;
}

/* The peer table: Bullet on the chains, MuJoCo on the robots marked so. */
static int bench_peers(const models_dirs *dirs, int samples)
{
    bench_peers_header();
    int failed = 0;
    for (size_t i = 0; i < sizeof peer_chain_lengths / sizeof *peer_chain_lengths; i++) {
        mcd_model *m = NULL;
        mcd_error err;
        char label[64];
        snprintf(label, sizeof label, "revolute chain N=%d", peer_chain_lengths[i]);
        if (chain_model_make(peer_chain_lengths[i], &m, &err) != MCD_OK) {
            fprintf(stderr, "mcdyn bench dynamics: %s: %s\n", label, err.msg);
            failed = 1;
            continue;
        }
        failed |= bench_peers_bullet(label, m, samples);
        mcd_model_free(m);
    }
    for (size_t i = 0; i < sizeof robots / sizeof *robots; i++) {
        char path[8192], label[128];
        mcd_model *m = NULL;
        robot_label(&robots[i], label, sizeof label);
        if (!robots[i].mujoco_peer || load_robot(dirs, &robots[i], label, path, sizeof path, &m))
            continue;
        failed |= bench_peers_mujoco(label, path, robots[i].floating_base, m, samples);
        mcd_model_free(m);
    }
    return failed;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcdyn bench dynamics [--reps N] [--models-dir DIR]\n\n"
            "Prints the CPU, compiler and build flags, then the time per call in\n"
            "microseconds (median [min, max] over the samples) of inverse dynamics\n"
            "(mcd_inverse_dynamics), the mass matrix (mcd_mass_matrix), forward dynamics\n"
            "(mcd_forward_dynamics) and M^-1 x (mcd_minv_factor + mcd_minv_solve, and each\n"
            "alone) at a random state, for revolute chains of 3, 20, 100 and 1000 links and\n"
            "for robot models: arm3.urdf and example-robot-data/{panda_collision, a1, solo12,\n"
            "anymal_c_simple}.urdf (legged robots with a floating base). A robot that is not\n"
            "found or does not load is skipped with a note.\n\n"
            "Then the peer table: the same quantity by mcdyn and by a peer, at the same random\n"
            "state, cross-checked to %.0e relative before it is timed, then timed in\n"
            "interleaved samples (one of each, alternated); ratio = median of the per-pair\n"
            "ratios mcdyn / peer.\n"
            "  Bullet btMultiBody (BulletDynamics-float64), revolute chains of 1 to 1000 links:\n"
            "    forward dynamics = setJointPos, setJointVel and the joint torques of every link,\n"
            "    then computeAccelerationsArticulatedBodyAlgorithmMultiDof (dt = 0, no damping);\n"
            "    mcdyn: mcd_forward_dynamics from (q, qd, tau). Both include the kinematics.\n"
            "  MuJoCo 2.2.2, panda_collision and a1 (the same URDFs), no passive forces and no\n"
            "  constraints; each call starts from qpos and qvel, as mcdyn's from q and qd:\n"
            "    fwd.dyn  mj_kinematics, mj_comPos, mj_crb, mj_factorM, mj_comVel, mj_rne,\n"
            "             mj_solveM  |  mcd_forward_dynamics\n"
            "    inv.dyn  mj_kinematics, mj_comPos, mj_comVel, mj_rne with qacc  |\n"
            "             mcd_inverse_dynamics\n"
            "    M(q)     mj_kinematics, mj_comPos, mj_crb, mj_fullM (dense)  |  mcd_mass_matrix\n"
            "A peer the build lacks is skipped with a note.\n\n"
            "Last the scaling row: forward dynamics of the chain at N = 1000 against N = 100,\n"
            "timed in interleaved pairs (one sample of each, alternated, so that the machine's\n"
            "slow drifts hit both), with the per-pair ratio t(1000) / t(100) as median [min,\n"
            "max]; issue 17's linear-scaling goal is read from it.\n\n"
            "options:\n"
            "  --reps N          samples per measurement, each batching calls for >= 1 ms\n"
            "                    (default %d)\n"
            "  --models-dir DIR  directory searched first for the robot files; then ./models,\n"
            "                    $MCDYN_SHARED/models and ../shared/models\n"
            "  -h, --help        print this help\n",
            BENCH_PEER_TOLERANCE, DEFAULT_SAMPLES);
}

typedef struct bench_options {
    int samples;
    const char *models_dir;
} bench_options;

static int usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "mcdyn bench dynamics: %s '%s'\n\n", what, arg);
    usage(stderr);
    return 2;
}

/* Returns -1 on success, else the exit code. */
static int parse_options(int argc, char **argv, bench_options *o)
{
    o->samples = DEFAULT_SAMPLES;
    o->models_dir = NULL;
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (args_is_help(a)) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--reps") && strcmp(a, "--models-dir"))
            return usage_error("unknown option", a);
        if (!value) return usage_error("a value is needed after", a);
        if (!strcmp(a, "--models-dir"))
            o->models_dir = value;
        else if (args_parse_int(value, 1, &o->samples) != 0)
            return usage_error("--reps needs an integer >= 1, not", value);
    }
    return -1;
}

int mcd_bench_dynamics(int argc, char **argv)
{
    bench_options o;
    int code = parse_options(argc, argv, &o);
    if (code >= 0) return code;
    srand(1);
    print_header(o.samples);
    int failed = bench_chains(o.samples);
    models_dirs dirs;
    models_dirs_default(&dirs, o.models_dir);
    for (size_t i = 0; i < sizeof robots / sizeof *robots; i++)
        failed |= bench_robot(&dirs, &robots[i], o.samples);
    failed |= bench_peers(&dirs, o.samples);
    return failed | bench_dynamics_scaling(o.samples);
}

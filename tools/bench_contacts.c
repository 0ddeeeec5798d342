/* `mcdyn bench contacts`: time per step of mcdyn (its default step method,
 * mncp-plm) and of MuJoCo 2.2.2, in the same run, on twin contact-rich
 * scenes:
 *  - grid-K: K / 4 independent boxes resting on a plane (4 contacts each),
 *    K = 4, 16, 64, 256;
 *  - stack: five boxes resting on each other on the plane;
 *  - a1-standing / a1-lying: the A1 quadruped on its feet / on its back,
 *    its twelve joints held at the standing pose by the same PD law.
 * Both engines: the same masses, sizes and inertias (models/scene_box.urdf,
 * the shared a1.urdf), mu = 0.5, dt = 1 ms, gravity (0, 0, -9.81),
 * semi-implicit Euler, an exact (elliptic) friction cone, contacts between
 * the robot's links off. The MuJoCo twins are generated here: the boxes as
 * MJCF text; the A1 by MuJoCo's own URDF importer (visuals dropped, a free
 * joint added as in tests/mujoco/mujoco_urdf.c), saved as MJCF and given
 * the floor. mcdyn's contact capacity is raised through mcd_sim_options
 * (the scenario runner's is 64). Compiled only with MuJoCo
 * (MCDYN_HAVE_MUJOCO). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mujoco/mujoco.h>

#include "../src/base/clock.h"
#include "args.h"
#include "cli.h"
#include "mcdyn/collision.h"
#include "mcdyn/dynamics.h"
#include "mcdyn/scenario.h"
#include "mcdyn/sim.h"

#define MU               0.5
#define DT               0.001
#define KP               80.0 /* PD gains of the legs [N m / rad], [N m s / rad] */
#define KD               2.0
#define THIGH            0.8 /* standing pose [rad]; hips at 0 */
#define CALF             (-1.6)
#define EXACT_ACTIVATION 1e-9 /* [m], the closed forms' activation, as the scenario runner */
#define MJ_CONTACTS      1024 /* MuJoCo's contact buffer (its default, 100, is too small) */

static const char *const command = "bench contacts";

typedef struct bench_opts {
    const char *models, *shared;
    const char *scene; /* NULL: every scene */
    double duration;
    int repeats;
    int penetration; /* -1: the C API's default correction, else position_correction */
} bench_opts;

/* One scene: its mcdyn scenario text and its MuJoCo model. */
typedef struct twin {
    char name[32];
    char yaml[1 << 14];
    int a1;        /* 1: the A1 twin (URDF), 0: boxes (MJCF in mjcf) */
    int upside;    /* A1 on its back */
    int stacked;   /* boxes touch each other */
    char *mjcf;    /* boxes: MJCF text (heap) */
    double base_z; /* A1: base height */
} twin;

/* Timing of one engine on one scene. */
typedef struct timing {
    double us[3];    /* min, median, max per step over the repeats [us] */
    double contacts; /* mean contacts per step */
    char failure[256];
} timing;

static void usage(FILE *out)
{
    fprintf(out, "usage: mcdyn bench contacts [--models DIR] [--shared DIR] [--duration S] "
                 "[--repeats N] [--scene NAME]\n"
                 "                           [--penetration velocity|position]\n\n"
                 "Time per step of mcdyn (default step method) and MuJoCo 2.2.2 on twin\n"
                 "contact scenes: boxes resting on a plane (K = 4, 16, 64, 256 contacts), a stack\n"
                 "of five boxes, the A1 quadruped standing and lying (legs held by a PD law).\n"
                 "Prints min / median / max microseconds per step over the repeats, the ratio\n"
                 "mcdyn / MuJoCo, the growth per 4x contacts and the contacts per step.\n\n"
                 "options:\n"
                 "  --models DIR   the repository's models/ (default models)\n"
                 "  --shared DIR   the shared data (default ../shared)\n"
                 "  --duration S   simulated time of one run [s] (default 0.5)\n"
                 "  --repeats N    runs per engine and scene (default 5)\n"
                 "  --scene NAME   only this scene (grid-4, grid-16, grid-64, grid-256, stack-5,\n"
                 "                 a1-standing, a1-lying), e.g. under valgrind --tool=callgrind\n"
                 "  --penetration M  mcdyn's penetration correction: velocity (a target in\n"
                 "                 the step) or position (the split correction, scenario\n"
                 "                 files' default); default: the C API's\n"
                 "                 (mcd_contact_default_options)\n"
                 "  -h, --help     print this help\n");
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void min_median_max(double *t, int n, double out[3])
{
    qsort(t, (size_t)n, sizeof *t, compare_doubles);
    out[0] = t[0], out[2] = t[n - 1];
    out[1] = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static void say(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

/* ---- the scenes ------------------------------------------------------- */

/* n boxes on a square grid 0.3 m apart resting on the plane, or n boxes
 * stacked; mcdyn and MuJoCo texts. */
static int box_twin(twin *t, const bench_opts *o, int n, int stacked)
{
    const int side = (int)ceil(sqrt((double)n));
    size_t cap = 4096 + 256 * (size_t)n, len = 0;
    char *x = malloc(cap);
    if (!x) return 1;
    snprintf(t->name, sizeof t->name, stacked ? "stack-%d" : "grid-%d", stacked ? n : 4 * n);
    t->a1 = 0, t->stacked = stacked, t->mjcf = x;
    int m = snprintf(t->yaml, sizeof t->yaml, "name: %s\nrobots:\n", t->name);
    len =
        (size_t)snprintf(x, cap,
                         "<mujoco model=\"%s\">\n"
                         "  <option timestep=\"%g\" gravity=\"0 0 -9.81\" cone=\"elliptic\" "
                         "integrator=\"Euler\"/>\n"
                         "  <default><geom friction=\"%g 0.005 0.0001\" condim=\"3\"/></default>\n"
                         "  <worldbody>\n"
                         "    <geom name=\"floor\" type=\"plane\" size=\"50 50 1\"/>\n",
                         t->name, DT, MU);
    for (int i = 0; i < n; i++) {
        double px = stacked ? 0 : 0.3 * (i % side), py = stacked ? 0 : 0.3 * (i / side);
        double pz = 0.05 + (stacked ? 0.1 * i : 0);
        m += snprintf(t->yaml + m, sizeof t->yaml - (size_t)m,
                      "  - {urdf: %s/scene_box.urdf, prefix: b%d_, base: floating, "
                      "position: [%.17g, %.17g, %.17g]}\n",
                      o->models, i, px, py, pz);
        len += (size_t)snprintf(x + len, cap - len,
                                "    <body name=\"b%d\" pos=\"%.17g %.17g %.17g\"><freejoint/>"
                                "<geom type=\"box\" size=\"0.05 0.05 0.05\" mass=\"1\"/></body>\n",
                                i, px, py, pz);
    }
    snprintf(x + len, cap - len, "  </worldbody>\n</mujoco>\n");
    m += snprintf(t->yaml + m, sizeof t->yaml - (size_t)m,
                  "environment: [{name: ground, type: plane}]\n"
                  "contact: {mu: %g, self_collision: %s}\ndt: %g\n",
                  MU, stacked ? "true" : "false", DT);
    return m >= (int)sizeof t->yaml;
}

/* The A1 at base height z (rolled by pi when upside), legs at the pose. */
static void a1_yaml(twin *t, const bench_opts *o, double z)
{
    snprintf(t->yaml, sizeof t->yaml,
             "name: %s\nrobots:\n"
             "  - {urdf: %s/models/example-robot-data/a1.urdf, base: floating,\n"
             "     position: [0, 0, %.17g], rpy: [%s, 0, 0],\n"
             "     q: {FR_thigh_joint: %g, FL_thigh_joint: %g, RR_thigh_joint: %g, "
             "RL_thigh_joint: %g,\n"
             "         FR_calf_joint: %g, FL_calf_joint: %g, RR_calf_joint: %g, "
             "RL_calf_joint: %g}}\n"
             "environment: [{name: ground, type: plane}]\n"
             "contact: {mu: %g}\ndt: %g\n",
             t->name, o->shared, z, t->upside ? "3.141592653589793" : "0", THIGH, THIGH, THIGH,
             THIGH, CALF, CALF, CALF, CALF, MU, DT);
}

/* Height of the lowest point of the model's geometry above the plane. */
static int lowest_point(const mcd_scenario *sc, double *gap, char *msg, size_t len)
{
    mcd_collision_options co = mcd_collision_options_default();
    co.activation_distance = 10.0;
    co.self_collision = 0;
    mcd_collision_world *cw = NULL;
    mcd_data *d = NULL;
    mcd_contact buf[256];
    int n = 0;
    mcd_error err = {0};
    mcd_status s = mcd_collision_world_create(sc->model, &co, &cw, &err);
    if (s == MCD_OK) s = mcd_data_create(sc->model, &d, &err);
    if (s == MCD_OK) s = mcd_forward_kinematics(sc->model, d, sc->q0);
    if (s == MCD_OK) s = mcd_collision_detect(cw, sc->model, d, buf, 256, &n, &err);
    *gap = INFINITY;
    for (int k = 0; k < n; k++) *gap = fmin(*gap, buf[k].gap);
    if (s != MCD_OK) say(msg, len, "%s", err.msg);
    mcd_data_free(d);
    mcd_collision_world_free(cw);
    return s != MCD_OK || n == 0;
}

/* The A1 twin, its lowest point on the plane (gap 0). */
static int a1_twin(twin *t, const bench_opts *o, int upside, char *msg, size_t len)
{
    snprintf(t->name, sizeof t->name, upside ? "a1-lying" : "a1-standing");
    t->a1 = 1, t->upside = upside, t->stacked = 0, t->mjcf = NULL;
    a1_yaml(t, o, 1.0);
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    if (mcd_scenario_load_string(t->yaml, t->name, ".", &sc, &err) != MCD_OK) {
        say(msg, len, "%s", err.msg);
        return 1;
    }
    double gap;
    int bad = lowest_point(sc, &gap, msg, len);
    mcd_scenario_free(sc);
    if (bad) return 1;
    t->base_z = 1.0 - gap;
    a1_yaml(t, o, t->base_z);
    return 0;
}

/* ---- mcdyn ------------------------------------------------------------- */

typedef struct mcd_side {
    const mcd_scenario *sc;
    mcd_collision_world *cw;
    mcd_contact *buf;
    int cap;
} mcd_side;

static mcd_status provide(void *user, const mcd_model *m, const mcd_data *d, const double *q,
                          mcd_contact_point *out, int capacity, int *n, mcd_error *err)
{
    (void)q;
    mcd_side *c = user;
    int nc = 0;
    mcd_status s = mcd_collision_detect(c->cw, m, d, c->buf, c->cap, &nc, err);
    *n = 0;
    for (int i = 0; s == MCD_OK && i < nc; i++) {
        if (*n >= capacity)
            return mcd_fail(err, MCD_ERR_CAPACITY, "more than %d contacts", capacity);
        mcd_contact_point *p = &out[(*n)++];
        p->body_a = c->buf[i].body_a, p->body_b = c->buf[i].body_b;
        mcd_v3_copy(p->pos, c->buf[i].pos);
        mcd_v3_copy(p->normal, c->buf[i].normal);
        p->gap = c->buf[i].gap, p->mu = MU, p->restitution = 0.0;
        p->resting_gap = c->buf[i].closed_form ? 0.0 : MCD_CONTACT_RESTING_GAP; /* as the runner */
    }
    return s;
}

/* PD on every revolute joint towards the standing pose. */
static mcd_status pd_law(void *user, const mcd_model *m, mcd_data *d, double t, const double *q,
                         const double *qd, double *tau)
{
    (void)user, (void)d, (void)t;
    for (int k = 0; k < m->nbody; k++) {
        if (m->body[k].jtype != MCD_JOINT_REVOLUTE) continue;
        const char *name = m->joint_name[k];
        double ref = strstr(name, "thigh") ? THIGH : strstr(name, "calf") ? CALF : 0.0;
        tau[m->body[k].vadr] = KP * (ref - q[m->body[k].qadr]) - KD * qd[m->body[k].vadr];
    }
    return MCD_OK;
}

/* Runs the twin's scenario repeats times with mcdyn. */
static void time_mcdyn(const twin *t, const bench_opts *o, timing *out)
{
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    mcd_side side = {NULL, NULL, NULL, 1024};
    mcd_sim *sim = NULL;
    out->failure[0] = '\0';
    mcd_status s = mcd_scenario_load_string(t->yaml, t->name, ".", &sc, &err);
    mcd_collision_options co = mcd_collision_options_default();
    co.activation_distance = EXACT_ACTIVATION; /* per pair, as the scenario runner */
    co.bullet_activation_distance = 2.0 * MCD_CONTACT_RESTING_GAP;
    co.self_collision = t->stacked;
    side.sc = sc;
    if (s == MCD_OK) s = mcd_collision_world_create(sc->model, &co, &side.cw, &err);
    if (s == MCD_OK && !(side.buf = calloc((size_t)side.cap, sizeof *side.buf)))
        s = mcd_fail(&err, MCD_ERR_NOMEM, "out of memory");
    mcd_sim_options so = mcd_sim_default_options();
    so.dt = DT;
    so.max_contacts = side.cap;
    if (o->penetration >= 0) so.contact.position_correction = o->penetration;
    if (s == MCD_OK) s = mcd_sim_create(sc->model, &so, &sim, &err);
    const long steps = lround(o->duration / DT);
    double *us = calloc((size_t)o->repeats, sizeof(double)), sum = 0;
    if (s == MCD_OK && !us) s = mcd_fail(&err, MCD_ERR_NOMEM, "out of memory");
    if (s == MCD_OK) {
        mcd_sim_set_contact_provider(sim, provide, &side);
        if (t->a1) mcd_sim_set_controller(sim, pd_law, NULL);
    }
    for (int r = 0; s == MCD_OK && r < o->repeats; r++) {
        s = mcd_sim_set_state(sim, sc->q0, sc->qd0, 0.0);
        const double t0 = mcd_clock_seconds();
        for (long k = 0; s == MCD_OK && k < steps; k++) {
            mcd_step_stats st;
            s = mcd_sim_step(sim, &st);
            sum += st.ncontacts;
        }
        us[r] = 1e6 * (mcd_clock_seconds() - t0) / (double)steps;
        if (s != MCD_OK) say(out->failure, sizeof out->failure, "%s", mcd_sim_error(sim));
    }
    if (s != MCD_OK && !out->failure[0]) say(out->failure, sizeof out->failure, "%s", err.msg);
    if (s == MCD_OK) {
        min_median_max(us, o->repeats, out->us);
        out->contacts = sum / (double)(steps * o->repeats);
    }
    free(us);
    mcd_sim_free(sim);
    free(side.buf);
    mcd_collision_world_free(side.cw);
    mcd_scenario_free(sc);
}

/* ---- MuJoCo ------------------------------------------------------------ */

/* Compiles text as the file `name` of a one-file virtual file system. */
static mjModel *mj_from_text(const char *name, const char *text, char *msg, int len)
{
    mjVFS *vfs = malloc(sizeof *vfs);
    if (!vfs) return NULL;
    mj_defaultVFS(vfs);
    mjModel *m = NULL;
    const int size = (int)strlen(text);
    if (mj_makeEmptyFileVFS(vfs, name, size) == 0) {
        memcpy(vfs->filedata[mj_findFileVFS(vfs, name)], text, (size_t)size);
        m = mj_loadXML(name, vfs, msg, len);
    }
    mj_deleteVFS(vfs);
    free(vfs);
    return m;
}

/* Removes every <tag ...>...</tag> block from s (in place). */
static void strip_blocks(char *s, const char *tag)
{
    char open[32], close[32];
    snprintf(open, sizeof open, "<%s", tag);
    snprintf(close, sizeof close, "</%s>", tag);
    for (char *a = strstr(s, open); a; a = strstr(a, open)) {
        char *b = strstr(a, close);
        if (!b) return;
        b += strlen(close);
        memmove(a, b, strlen(b) + 1);
    }
}

static char *read_text(const char *path, size_t extra)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + extra + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) free(s), s = NULL;
    if (s) s[n] = '\0';
    fclose(f);
    return s;
}

/* Inserts ins after the first occurrence of at in s (capacity allowing). */
static int insert_after(char *s, const char *at, const char *ins)
{
    char *p = strstr(s, at);
    if (!p) return 1;
    p += strlen(at);
    memmove(p + strlen(ins), p, strlen(p) + 1);
    memcpy(p, ins, strlen(ins));
    return 0;
}

/* The A1 by MuJoCo's URDF importer (visuals dropped, a free joint from a
 * "world" link to the root link "base", static links fused), saved as
 * MJCF, given the floor, compiled again. */
static mjModel *a1_mujoco(const bench_opts *o, char *msg, int len)
{
    char path[4096], saved[] = "/tmp/mcdyn-bench-a1-XXXXXX";
    snprintf(path, sizeof path, "%s/models/example-robot-data/a1.urdf", o->shared);
    static const char tail[] =
        "<link name=\"world\"/><joint name=\"root\" type=\"floating\"><parent link=\"world\"/>"
        "<child link=\"base\"/></joint><mujoco><compiler fusestatic=\"true\" "
        "discardvisual=\"true\" inertiafromgeom=\"false\"/></mujoco>\n</robot>\n";
    char *urdf = read_text(path, sizeof tail);
    if (!urdf) return say(msg, (size_t)len, "cannot read %s", path), NULL;
    strip_blocks(urdf, "visual");
    char *end = strstr(urdf, "</robot>");
    mjModel *m = NULL;
    int fd = -1;
    if (end) {
        strcpy(end, tail);
        m = mj_from_text("a1.urdf", urdf, msg, len);
    }
    free(urdf);
    if (m && (fd = mkstemp(saved)) >= 0 && mj_saveLastXML(saved, m, msg, len)) {
        mj_deleteModel(m);
        char *mjcf = read_text(saved, 256);
        m = NULL;
        if (mjcf && !insert_after(mjcf, "<worldbody>",
                                  "\n<geom name=\"floor\" type=\"plane\" size=\"50 50 1\"/>"))
            m = mj_from_text("a1.xml", mjcf, msg, len);
        free(mjcf);
    } else if (m) {
        mj_deleteModel(m), m = NULL;
    }
    if (fd >= 0) close(fd), remove(saved);
    return m;
}

/* The options both engines share, room for every contact, and (the A1)
 * contacts only with the floor. */
static void mj_common(mjModel *m, int floor_only)
{
    m->opt.timestep = DT;
    m->opt.cone = mjCONE_ELLIPTIC;
    m->opt.integrator = mjINT_EULER;
    m->opt.gravity[0] = m->opt.gravity[1] = 0, m->opt.gravity[2] = -9.81;
    m->nconmax = m->nconmax > MJ_CONTACTS ? m->nconmax : MJ_CONTACTS;
    m->njmax = m->njmax > 3 * MJ_CONTACTS ? m->njmax : 3 * MJ_CONTACTS; /* 3 rows each */
    const int floor = mj_name2id(m, mjOBJ_GEOM, "floor");
    for (int g = 0; g < m->ngeom; g++) {
        m->geom_friction[3 * g] = MU;
        m->geom_condim[g] = 3;
    }
    if (floor < 0 || !floor_only) return;
    for (int g = 0; g < m->ngeom; g++) m->geom_contype[g] = 1, m->geom_conaffinity[g] = 0;
    m->geom_contype[floor] = 0, m->geom_conaffinity[floor] = 1;
}

/* The A1's initial state: base pose and legs at the standing pose. */
static void a1_initial(const mjModel *m, mjData *d, const twin *t)
{
    mj_resetData(m, d);
    d->qpos[2] = t->base_z;
    if (t->upside) d->qpos[3] = 0, d->qpos[4] = 1;
    for (int j = 0; j < m->njnt; j++) {
        const char *name = mj_id2name(m, mjOBJ_JOINT, j);
        if (m->jnt_type[j] != mjJNT_HINGE || !name) continue;
        d->qpos[m->jnt_qposadr[j]] = strstr(name, "thigh")  ? THIGH
                                     : strstr(name, "calf") ? CALF
                                                            : 0;
    }
}

static void mj_pd(const mjModel *m, mjData *d)
{
    for (int j = 0; j < m->njnt; j++) {
        const char *name = mj_id2name(m, mjOBJ_JOINT, j);
        if (m->jnt_type[j] != mjJNT_HINGE || !name) continue;
        double ref = strstr(name, "thigh") ? THIGH : strstr(name, "calf") ? CALF : 0.0;
        d->qfrc_applied[m->jnt_dofadr[j]] =
            KP * (ref - d->qpos[m->jnt_qposadr[j]]) - KD * d->qvel[m->jnt_dofadr[j]];
    }
}

/* MuJoCo's warnings are counted in mjData and reported by time_mujoco. */
static void quiet(const char *text)
{
    (void)text;
}

static void time_mujoco(const twin *t, const bench_opts *o, timing *out)
{
    char msg[1000] = "";
    out->failure[0] = '\0';
    mjModel *m =
        t->a1 ? a1_mujoco(o, msg, sizeof msg) : mj_from_text("twin.xml", t->mjcf, msg, sizeof msg);
    if (!m) {
        say(out->failure, sizeof out->failure, "MuJoCo: %s", msg[0] ? msg : "cannot load");
        return;
    }
    mj_common(m, t->a1);
    mjData *d = mj_makeData(m);
    const long steps = lround(o->duration / DT);
    double *us = calloc((size_t)o->repeats, sizeof(double)), sum = 0;
    for (int r = 0; d && us && r < o->repeats; r++) {
        if (t->a1)
            a1_initial(m, d, t);
        else
            mj_resetData(m, d);
        const double t0 = mcd_clock_seconds();
        for (long k = 0; k < steps; k++) {
            if (t->a1) mj_pd(m, d);
            mj_step(m, d);
            sum += d->ncon;
        }
        us[r] = 1e6 * (mcd_clock_seconds() - t0) / (double)steps;
    }
    if (d && us) {
        min_median_max(us, o->repeats, out->us);
        out->contacts = sum / (double)(steps * o->repeats);
        if (d->warning[mjWARN_CONTACTFULL].number || d->warning[mjWARN_BADQACC].number)
            say(out->failure, sizeof out->failure, "MuJoCo warned (contact buffer or bad qacc)");
    }
    free(us);
    mj_deleteData(d);
    mj_deleteModel(m);
}

/* ---- the report -------------------------------------------------------- */

static void print_machine(void)
{
    char line[512], cpu[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
            snprintf(cpu, sizeof cpu, "%s", strchr(line, ':') + 2);
            cpu[strcspn(cpu, "\n")] = '\0';
            break;
        }
    if (f) fclose(f);
    printf("cpu: %s\n", cpu);
#if defined(__OPTIMIZE__)
    const char *opt = "optimized";
#else
    const char *opt = "not optimized";
#endif
#if defined(NDEBUG)
    const char *nd = "NDEBUG";
#else
    const char *nd = "assertions on";
#endif
    printf("build: %s, %s, compiler %s (this command; the library is built alike by meson)\n", opt,
           nd, __VERSION__);
}

static void print_row(const twin *t, const timing *mc, const timing *mj)
{
    printf("%-12s", t->name);
    if (mc->failure[0])
        printf(" %32s", "failed");
    else
        printf(" %9.1f %9.1f %9.1f %4.0f", mc->us[0], mc->us[1], mc->us[2], mc->contacts);
    if (mj->failure[0])
        printf(" %32s", "failed");
    else
        printf(" %9.1f %9.1f %9.1f %4.0f", mj->us[0], mj->us[1], mj->us[2], mj->contacts);
    if (!mc->failure[0] && !mj->failure[0]) printf(" %8.2f", mc->us[1] / mj->us[1]);
    printf("\n");
    if (mc->failure[0]) printf("    mcdyn: %s\n", mc->failure);
    if (mj->failure[0]) printf("    mujoco: %s\n", mj->failure);
    fflush(stdout);
}

static int parse(int argc, char **argv, bench_opts *o)
{
    for (int i = 1; i < argc; i++) {
        if (args_is_help(argv[i])) {
            usage(stdout);
            return 0;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v && !strcmp(argv[i], "--models"))
            o->models = v;
        else if (v && !strcmp(argv[i], "--shared"))
            o->shared = v;
        else if (v && !strcmp(argv[i], "--scene"))
            o->scene = v;
        else if (v && !strcmp(argv[i], "--penetration") &&
                 (!strcmp(v, "velocity") || !strcmp(v, "position")))
            o->penetration = !strcmp(v, "position");
        else if (v && !strcmp(argv[i], "--duration") && !args_parse_double(v, &o->duration) &&
                 o->duration >= DT)
            ;
        else if (!(v && !strcmp(argv[i], "--repeats") && !args_parse_int(v, 1, &o->repeats)))
            return args_usage_error(command, "bad argument '%s'", argv[i]);
        i++;
    }
    return -1;
}

int mcd_bench_contacts(int argc, char **argv)
{
    bench_opts o = {"models", "../shared", NULL, 0.5, 5, -1};
    int code = parse(argc, argv, &o);
    if (code >= 0) return code;
    void (*saved_warning)(const char *) = mju_user_warning;
    mju_user_warning = quiet;
    print_machine();
    printf("%.3g s per run (%ld steps of %g s), %d runs per engine; us per step\n", o.duration,
           lround(o.duration / DT), DT, o.repeats);
    printf("%-12s %9s %9s %9s %4s %9s %9s %9s %4s %8s\n", "scene", "mcd-min", "mcd-med", "mcd-max",
           "K", "mj-min", "mj-med", "mj-max", "K", "ratio");
    static const int grid[] = {1, 4, 16, 64};
    double prev[2] = {-1, -1}; /* median of the previous grid: mcdyn, MuJoCo */
    code = 0;
    int matched = 0;
    for (int s = 0; s < 7; s++) {
        twin t = {0};
        char msg[512] = "";
        int bad = s < 4    ? box_twin(&t, &o, grid[s], 0)
                  : s == 4 ? box_twin(&t, &o, 5, 1)
                           : a1_twin(&t, &o, s == 6, msg, sizeof msg);
        if (o.scene && strcmp(t.name, o.scene)) {
            free(t.mjcf);
            continue;
        }
        matched = 1;
        if (bad) {
            printf("%-12s cannot be set up: %s\n", t.name, msg);
            code = 1;
            continue;
        }
        timing mc, mj;
        time_mcdyn(&t, &o, &mc);
        time_mujoco(&t, &o, &mj);
        print_row(&t, &mc, &mj);
        if (s > 0 && s < 4 && prev[0] > 0 && prev[1] > 0 && !mc.failure[0] && !mj.failure[0])
            printf("    growth per 4x contacts: mcdyn %.2fx, MuJoCo %.2fx\n", mc.us[1] / prev[0],
                   mj.us[1] / prev[1]);
        if (s < 4) {
            prev[0] = mc.failure[0] ? -1 : mc.us[1];
            prev[1] = mj.failure[0] ? -1 : mj.us[1];
        }
        code |= mc.failure[0] || mj.failure[0];
        free(t.mjcf);
    }
    mju_user_warning = saved_warning;
    if (!matched) return args_usage_error(command, "no scene named '%s'", o.scene);
    return code;
}

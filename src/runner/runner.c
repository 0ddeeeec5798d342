/* Running a scenario (include/mcdyn/runner.h): Bullet contacts with the
 * scenario's per-pair parameters feed the simulator; rows in the CSV
 * contract. */
#include "mcdyn/runner.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcdyn/collision.h"
#include "mcdyn/dynamics.h"

#include "../io/number_format.h"

/* The activation distance of the closed-form pairs [m]: they rest at gap
 * 0 up to rounding (docs/collision.md, "Accuracy"), and a contact within
 * this of touching is kept, so that rounding never drops a resting one for
 * a step (it would fall and be caught by a double impulse the next). */
#define EXACT_ACTIVATION 1e-9

struct mcd_runner {
    const mcd_scenario *sc;
    mcd_sim *sim;
    mcd_collision_world *cw;
    mcd_contact *buf; /* cap collision points; grows up to limit */
    int cap, limit, slots, log_cap;
    double duration;
    long nsteps;
    double *log_pose;             /* nbody x 7, for mcd_runner_log_row */
    mcd_log_contact *log_contact; /* log_cap entries, for mcd_runner_log_row */
};

mcd_runner_overrides mcd_runner_default_overrides(void)
{
    mcd_runner_overrides o = {NULL, -1.0, -1.0, 8};
    return o;
}

/* 1 if side (body, geom) of a contact is the scenario object o. A link
 * merged into the world (a fixed base) owns the world's geometry that is not
 * environment geometry (environment geoms come first in model->geom). */
static int is_object(const mcd_scenario *sc, const mcd_scenario_object *o, int body, int geom)
{
    if (o->frame < 0) return o->env >= 0 && sc->env_geom[o->env] == geom;
    const int owner = sc->model->frame[o->frame].body;
    return owner == body && (owner >= 0 || geom >= sc->nenv);
}

/* mu, e and enabled of a contact: the last matching pair override, else the
 * global values. */
static void pair_parameters(const mcd_scenario *sc, const mcd_contact *c, double *mu, double *e,
                            int *enabled)
{
    const mcd_contact_settings *cs = &sc->settings.contact;
    *mu = cs->mu, *e = cs->restitution, *enabled = 1;
    for (int i = 0; i < cs->npair; i++) {
        const mcd_contact_pair *p = &cs->pair[i];
        if ((is_object(sc, &p->a, c->body_a, c->geom_a) &&
             is_object(sc, &p->b, c->body_b, c->geom_b)) ||
            (is_object(sc, &p->b, c->body_a, c->geom_a) &&
             is_object(sc, &p->a, c->body_b, c->geom_b)))
            *mu = p->mu, *e = p->restitution, *enabled = p->enabled;
    }
}

/* Collision points into r->buf, the buffer grown (doubling) while the
 * detection reports more than fit, up to limit points: four times the
 * simulator's limit (duplicates are merged and disabled pairs dropped
 * after detection), so that a scene over the limit is told how many
 * points it needs. */
static mcd_status collide(mcd_runner *r, const mcd_model *m, const mcd_data *d, int limit, int *nc,
                          mcd_error *err)
{
    for (;;) {
        mcd_status s = mcd_collision_detect(r->cw, m, d, r->buf, r->cap, nc, err);
        if (s != MCD_ERR_CAPACITY || r->cap >= limit) return s;
        const int cap = r->cap > limit / 2 ? limit : 2 * r->cap;
        mcd_contact *buf = realloc(r->buf, (size_t)cap * sizeof *buf);
        if (!buf) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory for %d contact points", cap);
        r->buf = buf, r->cap = cap;
    }
}

/* The resting gap of a contact (contact.h, mcd_contact_point): 0 for the
 * collision layer's closed forms, exact to rounding (docs/collision.md,
 * "Accuracy"); the scenario's for the pairs Bullet finds. */
static double resting_gap(const mcd_runner *r, const mcd_contact *c)
{
    return c->closed_form ? 0.0 : r->sc->settings.contact.resting_gap;
}

/* The enabled contacts with their pair parameters. More than capacity:
 * MCD_ERR_CAPACITY with *n the number needed, for the simulator to grow. */
static mcd_status provide(void *user, const mcd_model *m, const mcd_data *d, const double *q,
                          mcd_contact_point *out, int capacity, int *n, mcd_error *err)
{
    (void)q;
    mcd_runner *r = user;
    int nc = 0;
    const int limit = r->limit > MCD_SIM_MAX_CONTACTS / 4 ? MCD_SIM_MAX_CONTACTS : 4 * r->limit;
    mcd_status s = collide(r, m, d, limit, &nc, err);
    *n = 0;
    for (int i = 0; s == MCD_OK && i < nc; i++) {
        const mcd_contact *c = &r->buf[i];
        double mu, e;
        int enabled;
        pair_parameters(r->sc, c, &mu, &e, &enabled);
        if (!enabled) continue;
        if (*n < capacity) {
            mcd_contact_point *p = &out[*n];
            p->body_a = c->body_a, p->body_b = c->body_b;
            mcd_v3_copy(p->pos, c->pos);
            mcd_v3_copy(p->normal, c->normal);
            p->gap = c->gap, p->mu = mu, p->restitution = e;
            p->resting_gap = resting_gap(r, c);
        }
        ++*n;
    }
    if (s == MCD_OK && *n > capacity)
        return mcd_fail(err, MCD_ERR_CAPACITY, "%d contacts, more than the capacity %d", *n,
                        capacity);
    return s;
}

/* What a method's max_iter counts: the Levenberg-Marquardt solvers share
 * their iterations; every other method counts its own kind of step
 * (pivots, block exchanges, sweeps, accelerated iterations), whose useful
 * numbers differ by orders of magnitude. */
static int budget_unit(mcd_step_method m)
{
    switch (m) {
    case MCD_METHOD_MLCP_PFB_RLM:
    case MCD_METHOD_MLCP_PFB_PLM:
    case MCD_METHOD_MNCP_RLM:
    case MCD_METHOD_MNCP_PLM:
        return -1;
    default:
        return (int)m;
    }
}

static mcd_status sim_options(const mcd_scenario *sc, const mcd_runner_overrides *ov,
                              mcd_sim_options *o, mcd_error *err)
{
    const mcd_scenario_settings *st = &sc->settings;
    *o = mcd_sim_default_options();
    o->dt = ov->dt > 0 ? ov->dt : st->dt;
    o->integrator = st->integrator;
    o->solver = st->solver.kind;
    o->solver_opts = st->solver.opts;
    if (ov->solver) {
        mcd_status s = mcd_step_method_from_name(ov->solver, &o->solver, err);
        if (s != MCD_OK) return s;
        /* the new solver's defaults, with the scenario's accuracy, and its
         * budget when both count the same thing */
        o->solver_opts = mcd_step_method_default_opts(o->solver);
        o->solver_opts.tol = st->solver.opts.tol;
        if (budget_unit(o->solver) == budget_unit(st->solver.kind))
            o->solver_opts.max_iter = st->solver.opts.max_iter;
    }
    o->ccp_omega = st->solver.omega;
    o->on_failure = st->solver.on_failure;
    o->max_step_halvings = st->solver.max_step_halvings;
    o->nslcp = st->nslcp;
    o->impact_law = st->contact.impact_law;
    o->closure_tolerance = st->closure_tolerance;
    if (st->contact.max_points > 0) o->max_contacts = st->contact.max_points;
    o->contact.nf = st->contact.directions;
    o->contact.directions = st->contact.direction_mode;
    o->contact.direction_angle = st->contact.direction_angle;
    o->contact.penetration_gain =
        st->contact.penetration == MCD_PENETRATION_NONE ? 0.0 : st->contact.penetration_gain;
    o->contact.max_correction_velocity = st->contact.penetration_max_velocity;
    o->contact.position_correction = st->contact.penetration == MCD_PENETRATION_POSITION;
    return MCD_OK;
}

/* n = round(duration / dt), refused (with the count it would need) when it
 * is not a number of steps from 1 to MCD_RUNNER_MAX_STEPS: the quotient is
 * checked as a double before it is converted. */
static mcd_status step_count(double duration, double dt, long *n, mcd_error *err)
{
    if (!(dt > 0) || !isfinite(dt) || !(duration > 0) || !isfinite(duration))
        return mcd_fail(err, MCD_ERR_ARG, "dt (%g s) and duration (%g s) must be finite and > 0",
                        dt, duration);
    const double steps = round(duration / dt);
    if (!(steps <= (double)MCD_RUNNER_MAX_STEPS))
        return mcd_fail(err, MCD_ERR_ARG,
                        "duration %g s at dt %g s needs %.3g steps, more than the limit of %ld "
                        "(docs/scenarios.md)",
                        duration, dt, duration / dt, MCD_RUNNER_MAX_STEPS);
    if (steps < 1)
        return mcd_fail(err, MCD_ERR_ARG, "duration %g s is shorter than half a step (dt %g s)",
                        duration, dt);
    *n = (long)steps;
    return MCD_OK;
}

/* Room for n log contacts in r->log_contact: grown with the simulator's
 * contact capacity, so a step allocates only when that capacity grew. */
static mcd_status reserve_log_contacts(mcd_runner *r, int n, mcd_error *err)
{
    if (n <= r->log_cap) return MCD_OK;
    mcd_log_contact *c = realloc(r->log_contact, (size_t)n * sizeof *c);
    if (!c) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory for %d logged contacts", n);
    r->log_contact = c, r->log_cap = n;
    return MCD_OK;
}

void mcd_runner_free(mcd_runner *r)
{
    if (!r) return;
    mcd_sim_free(r->sim);
    mcd_collision_world_free(r->cw);
    free(r->buf);
    free(r->log_pose), free(r->log_contact);
    free(r);
}

mcd_status mcd_runner_create(const mcd_scenario *sc, const mcd_runner_overrides *ov,
                             mcd_runner **out, mcd_error *err)
{
    if (!sc || !out) return mcd_fail(err, MCD_ERR_ARG, "mcd_runner_create: NULL argument");
    mcd_runner_overrides o = ov ? *ov : mcd_runner_default_overrides();
    mcd_runner *r = calloc(1, sizeof *r);
    if (!r) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    r->sc = sc;
    r->slots = o.contact_slots >= 0 ? o.contact_slots : 8;
    r->duration = o.duration > 0 ? o.duration : sc->settings.duration;
    mcd_sim_options so;
    mcd_collision_options co = mcd_collision_options_default();
    /* per pair (docs/collision.md, "Activation distance per pair"): the
     * closed forms rest at gap 0 and keep EXACT_ACTIVATION; Bullet's pairs
     * rest at the resting gap s and are reported up to 2 s, so that the
     * query's error never drops a resting pair (contact.h,
     * mcd_contact_point) */
    const mcd_contact_settings *cs = &sc->settings.contact;
    co.activation_distance = fmax(cs->activation_distance, EXACT_ACTIVATION);
    co.bullet_activation_distance = fmax(cs->activation_distance, 2.0 * cs->resting_gap);
    co.self_collision = cs->self_collision;
    mcd_status s = sim_options(sc, &o, &so, err);
    r->limit = so.max_contacts;
    r->cap = so.max_contacts < 64 ? so.max_contacts : 64;
    if (s == MCD_OK) s = step_count(r->duration, so.dt, &r->nsteps, err);
    if (s == MCD_OK && (!(r->buf = calloc((size_t)r->cap, sizeof *r->buf)) ||
                        !(r->log_pose = calloc((size_t)sc->model->nbody * 7 + 1, sizeof(double))) ||
                        reserve_log_contacts(r, r->cap, err) != MCD_OK))
        s = mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    if (s == MCD_OK) s = mcd_collision_world_create(sc->model, &co, &r->cw, err);
    if (s == MCD_OK) s = mcd_sim_create(sc->model, &so, &r->sim, err);
    if (s == MCD_OK) s = mcd_sim_set_actuators(r->sim, sc->actuator, sc->nactuator, err);
    if (s == MCD_OK) mcd_sim_set_joint_limits(r->sim, sc->settings.contact.joint_limits);
    if (s == MCD_OK) {
        mcd_sim_set_contact_provider(r->sim, provide, r);
        s = mcd_sim_set_state(r->sim, sc->q0, sc->qd0, 0.0);
        if (s != MCD_OK) mcd_fail(err, s, "initial state: %s", mcd_sim_error(r->sim));
    }
    if (s != MCD_OK) {
        mcd_runner_free(r);
        return s;
    }
    *out = r;
    return MCD_OK;
}

mcd_status mcd_runner_step(mcd_runner *r, mcd_step_stats *stats)
{
    return r ? mcd_sim_step(r->sim, stats) : MCD_ERR_ARG;
}

mcd_sim *mcd_runner_sim(mcd_runner *r)
{
    return r ? r->sim : NULL;
}
double mcd_runner_duration(const mcd_runner *r)
{
    return r ? r->duration : 0.0;
}
long mcd_runner_steps(const mcd_runner *r)
{
    return r ? r->nsteps : 0;
}

void mcd_runner_set_controller(mcd_runner *r, mcd_controller f, void *user)
{
    if (r) mcd_sim_set_controller(r->sim, f, user);
}

/* 1 for the joints with one coordinate, which have CSV columns. */
static int has_joint_columns(const mcd_body *B)
{
    return B->jtype == MCD_JOINT_REVOLUTE || B->jtype == MCD_JOINT_CONTINUOUS ||
           B->jtype == MCD_JOINT_PRISMATIC;
}

static const char *const body_columns[13] = {"x",  "y",  "z",  "qw", "qx", "qy", "qz",
                                             "vx", "vy", "vz", "wx", "wy", "wz"};
/* The CSV's and the log's contact columns (Fn, Ff, Fo): the problems' row
 * order, index mcd_contact_row. */
static const char *const contact_columns[3] = {
    [MCD_ROW_N] = "Fn", [MCD_ROW_F] = "Ff", [MCD_ROW_O] = "Fo"};

/* The mean force of an impulse F (F_f, F_o, F_n; index mcd_contact_axis)
 * over the step's size dt (mcd_sim_step_size), in the columns' order (Fn,
 * Ff, Fo; index mcd_contact_row). */
static void force_in_columns(const double F[3], double dt, double force[3])
{
    force[MCD_ROW_N] = F[MCD_AXIS_N] / dt;
    force[MCD_ROW_F] = F[MCD_AXIS_F] / dt;
    force[MCD_ROW_O] = F[MCD_AXIS_O] / dt;
}

void mcd_runner_csv_header(const mcd_runner *r, FILE *out)
{
    const mcd_model *m = r->sc->model;
    fputs("t", out);
    for (int k = 0; k < m->nbody; k++)
        for (int c = 0; c < 13; c++) fprintf(out, ",%s.%s", m->body_name[k], body_columns[c]);
    for (int k = 0; k < m->nbody; k++)
        if (has_joint_columns(&m->body[k]))
            fprintf(out, ",%s.q,%s.qd", m->joint_name[k], m->joint_name[k]);
    fputs(",ncontacts,iters,residual", out);
    for (int s = 0; s < r->slots; s++)
        for (int c = 0; c < 3; c++) fprintf(out, ",c%d.%s", s, contact_columns[c]);
    fputc('\n', out);
}

int mcd_runner_csv_column(const mcd_runner *r, const char *name)
{
    const mcd_model *m = r->sc->model;
    if (!strcmp(name, "t")) return 0;
    int col = 1;
    for (int k = 0; k < m->nbody; k++)
        for (int c = 0; c < 13; c++, col++) {
            size_t len = strlen(m->body_name[k]);
            if (!strncmp(name, m->body_name[k], len) && name[len] == '.' &&
                !strcmp(name + len + 1, body_columns[c]))
                return col;
        }
    for (int k = 0; k < m->nbody; k++)
        if (has_joint_columns(&m->body[k])) {
            size_t len = strlen(m->joint_name[k]);
            if (!strncmp(name, m->joint_name[k], len) && name[len] == '.') {
                if (!strcmp(name + len + 1, "q")) return col;
                if (!strcmp(name + len + 1, "qd")) return col + 1;
            }
            col += 2;
        }
    static const char *const tail[3] = {"ncontacts", "iters", "residual"};
    for (int i = 0; i < 3; i++, col++)
        if (!strcmp(name, tail[i])) return col;
    for (int s = 0; s < r->slots; s++)
        for (int c = 0; c < 3; c++, col++) {
            char buf[32];
            snprintf(buf, sizeof buf, "c%d.%s", s, contact_columns[c]);
            if (!strcmp(name, buf)) return col;
        }
    return -1;
}

/* World centre of mass, orientation and velocities of body k (body
 * velocities of the current state in d). */
static void body_state(const mcd_model *m, const mcd_data *d, int k, double v[13])
{
    const mcd_body_data *b = &d->bd[k];
    double c[3], t[3];
    mcd_pose_apply(c, &b->X_world, m->body[k].mass.com);
    mcd_v3_copy(v, c);
    mcd_quat_from_m3(v + 3, b->X_world.R);
    mcd_v3_cross(t, b->V, c); /* v_com = v_O + w x c */
    mcd_v3_add(v + 7, b->V + 3, t);
    mcd_v3_copy(v + 10, b->V);
}

/* A CSV row under construction: text gathered in a stack buffer and
 * written with one fwrite (more only for models with hundreds of bodies). */
typedef struct csv_line {
    FILE *out;
    int len;
    char text[16384];
} csv_line;

/* Writes the gathered text out when fewer than `need` bytes are left. */
static void csv_reserve(csv_line *l, int need)
{
    if (l->len + need <= (int)sizeof l->text) return;
    fwrite(l->text, 1, (size_t)l->len, l->out);
    l->len = 0;
}

static void csv_double(csv_line *l, double x)
{
    l->text[l->len++] = ',';
    l->len += mcd_format_double(x, l->text + l->len);
}

static void csv_long(csv_line *l, long v)
{
    l->text[l->len++] = ',';
    l->len += mcd_format_long(v, l->text + l->len);
}

void mcd_runner_csv_row(mcd_runner *r, const mcd_step_stats *st, FILE *out)
{
    const mcd_model *m = r->sc->model;
    mcd_data *d = mcd_sim_data(r->sim);
    mcd_body_velocities(m, d, mcd_sim_q(r->sim), mcd_sim_qd(r->sim));
    csv_line l;
    l.out = out;
    l.len = mcd_format_double(mcd_sim_time(r->sim), l.text);
    enum { VALUE = MCD_FORMAT_DOUBLE_BUFFER + 1 }; /* a comma and a number's room */
    for (int k = 0; k < m->nbody; k++) {
        double v[13];
        body_state(m, d, k, v);
        csv_reserve(&l, 13 * VALUE);
        for (int c = 0; c < 13; c++) csv_double(&l, v[c]);
    }
    const double *q = mcd_sim_q(r->sim), *qd = mcd_sim_qd(r->sim);
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        if (!has_joint_columns(B)) continue;
        csv_reserve(&l, 2 * VALUE);
        csv_double(&l, q[B->qadr]);
        csv_double(&l, qd[B->vadr]);
    }
    const int nc = st ? st->ncontacts : 0;
    csv_reserve(&l, 3 * VALUE);
    csv_long(&l, nc);
    csv_long(&l, st ? st->iterations : 0);
    csv_double(&l, st ? st->residual : 0.0);
    const mcd_contact_ws *cw = mcd_sim_contact_ws(r->sim);
    for (int s = 0; s < r->slots; s++) {
        csv_reserve(&l, 3 * VALUE + 1);
        if (s < nc) {
            double force[3];
            force_in_columns(mcd_contact_impulse(cw, s), mcd_sim_step_size(r->sim), force);
            for (int c = 0; c < 3; c++) csv_double(&l, force[c]);
        } else {
            memcpy(l.text + l.len, ",,,", 3);
            l.len += 3;
        }
    }
    l.text[l.len++] = '\n';
    fwrite(l.text, 1, (size_t)l.len, out);
}

/* The value of a column past the body columns (joint, counter or contact
 * column; j counts from the first joint column), as mcd_runner_csv_row
 * writes it; 0 when j is past the row. */
static int tail_value(mcd_runner *r, const mcd_step_stats *st, int j, double *value)
{
    const mcd_model *m = r->sc->model;
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        if (!has_joint_columns(B)) continue;
        if (j < 2) {
            *value = j == 0 ? mcd_sim_q(r->sim)[B->qadr] : mcd_sim_qd(r->sim)[B->vadr];
            return 1;
        }
        j -= 2;
    }
    const int nc = st ? st->ncontacts : 0;
    if (j < 3) {
        *value = j == 0 ? nc : j == 1 ? (st ? st->iterations : 0) : (st ? st->residual : 0.0);
        return 1;
    }
    j -= 3;
    if (j >= 3 * r->slots) return 0;
    const int s = j / 3;
    double force[3] = {NAN, NAN, NAN};
    if (s < nc)
        force_in_columns(mcd_contact_impulse(mcd_sim_contact_ws(r->sim), s),
                         mcd_sim_step_size(r->sim), force);
    *value = force[j % 3];
    return 1;
}

mcd_status mcd_runner_csv_value(mcd_runner *r, const mcd_step_stats *st, int column, double *value)
{
    if (!r || !value || column < 0) return MCD_ERR_ARG;
    const mcd_model *m = r->sc->model;
    if (column == 0) return *value = mcd_sim_time(r->sim), MCD_OK;
    if (column <= 13 * m->nbody) {
        const int k = (column - 1) / 13;
        mcd_data *d = mcd_sim_data(r->sim);
        mcd_body_velocities(m, d, mcd_sim_q(r->sim), mcd_sim_qd(r->sim));
        double v[13];
        body_state(m, d, k, v);
        *value = v[(column - 1) % 13];
        return MCD_OK;
    }
    double v;
    if (!tail_value(r, st, column - 1 - 13 * m->nbody, &v)) return MCD_ERR_ARG;
    *value = v;
    return MCD_OK;
}

mcd_status mcd_runner_log_row(mcd_runner *r, const mcd_step_stats *st, mcd_log *log, mcd_error *err)
{
    const mcd_model *m = r->sc->model;
    mcd_data *d = mcd_sim_data(r->sim);
    mcd_body_velocities(m, d, mcd_sim_q(r->sim), mcd_sim_qd(r->sim));
    double *pose = r->log_pose;
    for (int k = 0; k < m->nbody; k++) {
        mcd_v3_copy(pose + 7 * k, d->bd[k].X_world.p);
        mcd_quat_from_m3(pose + 7 * k + 3, d->bd[k].X_world.R);
    }
    const int nc = st ? st->ncontacts : 0;
    mcd_status status = reserve_log_contacts(r, nc, err);
    if (status != MCD_OK) return status;
    const mcd_contact_ws *cw = mcd_sim_contact_ws(r->sim);
    for (int s = 0; s < nc; s++) {
        mcd_log_contact *c = &r->log_contact[s];
        mcd_contact_force world;
        if ((status = mcd_sim_contact_force(r->sim, s, &world)) != MCD_OK)
            return mcd_fail(err, status, "log: the step's %d contacts are not the simulator's", nc);
        c->body_a = world.body_a, c->body_b = world.body_b;
        mcd_v3_copy(c->point, world.point);
        mcd_v3_copy(c->normal, world.normal);
        force_in_columns(mcd_contact_impulse(cw, s), mcd_sim_step_size(r->sim), c->force);
        mcd_v3_copy(c->force_world, world.force);
    }
    mcd_log_step step = {
        mcd_sim_time(r->sim), mcd_sim_q(r->sim),       mcd_sim_qd(r->sim),     pose, nc,
        r->log_contact,       st ? st->iterations : 0, st ? st->residual : 0.0};
    return mcd_log_append(log, &step, err);
}

/* The simulator object: options, workspaces, state and the step of
 * include/mcdyn/sim.h. */
#include "sim_guard.h"
#include "sim_internal.h"
#include "../base/clock.h"
#include "../contact/contact_setup.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcdyn/closure.h"
#include "mcdyn/dynamics.h"

mcd_sim_options mcd_sim_default_options(void)
{
    mcd_sim_options o;
    memset(&o, 0, sizeof o);
    o.dt = 1e-3;
    o.integrator = MCD_INTEGRATOR_EULER;
    o.solver = MCD_METHOD_MNCP_PLM;
    o.solver_opts = mcd_step_method_default_opts(o.solver);
    o.impact_law = MCD_IMPACT_NEWTON;
    o.contact = mcd_contact_default_options();
    o.nslcp = mcd_nslcp_default_options();
    o.on_failure = MCD_ON_FAILURE_STOP;
    o.max_contacts = MCD_SIM_DEFAULT_MAX_CONTACTS;
    o.closure_tolerance = 1e-10;
    o.joint_damping = 1;
    o.divergence_factor = 4;
    o.max_step_halvings = MCD_SIM_DEFAULT_STEP_HALVINGS;
    return o;
}

void mcd_sim_free(mcd_sim *s)
{
    if (!s) return;
    mcd_sim_capacity_free(s);
    mcd_sim_actuation_free(s);
    mcd_data_free(s->d);
    mcd_data_free(s->controller_d);
    free(s->q), free(s->qd), free(s->q_new), free(s->qd_new), free(s->q_mid), free(s->tau);
    free(s->tau_controller);
    free(s->v), free(s->correction);
    free(s);
}

static mcd_status check_options(const mcd_sim_options *o, mcd_error *err)
{
    if (!(o->dt > 0) || !isfinite(o->dt)) return mcd_fail(err, MCD_ERR_ARG, "dt must be > 0");
    if (o->integrator != MCD_INTEGRATOR_EULER && o->integrator != MCD_INTEGRATOR_MIDPOINT)
        return mcd_fail(err, MCD_ERR_ARG, "unknown integrator %d", (int)o->integrator);
    if ((int)o->solver < 0 || o->solver >= MCD_METHOD_COUNT)
        return mcd_fail(err, MCD_ERR_ARG, "unknown solver %d", (int)o->solver);
    if ((int)o->impact_law < 0 || o->impact_law >= MCD_IMPACT_LAW_COUNT)
        return mcd_fail(err, MCD_ERR_ARG, "unknown impact law %d", (int)o->impact_law);
    if (o->max_contacts < 1 || o->max_contacts > MCD_SIM_MAX_CONTACTS)
        return mcd_fail(err, MCD_ERR_ARG, "max_contacts = %d: must be in [1, %d]", o->max_contacts,
                        MCD_SIM_MAX_CONTACTS);
    if (!(o->closure_tolerance > 0))
        return mcd_fail(err, MCD_ERR_ARG, "closure_tolerance must be > 0");
    if (o->max_step_halvings < 0 || o->max_step_halvings > MCD_SIM_MAX_STEP_HALVINGS)
        return mcd_fail(err, MCD_ERR_ARG, "max_step_halvings = %d: must be in [0, %d]",
                        o->max_step_halvings, MCD_SIM_MAX_STEP_HALVINGS);
    return MCD_OK;
}

mcd_status mcd_sim_create(const mcd_model *m, const mcd_sim_options *opt, mcd_sim **out,
                          mcd_error *err)
{
    if (!m || !out) return mcd_fail(err, MCD_ERR_ARG, "mcd_sim_create: NULL argument");
    mcd_sim_options o = opt ? *opt : mcd_sim_default_options();
    mcd_status st = check_options(&o, err);
    if (st != MCD_OK) return st;
    mcd_sim *s = calloc(1, sizeof *s);
    if (!s) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    s->m = m;
    s->opt = o;
    s->h = o.dt;
    const size_t nq = (size_t)(m->nq ? m->nq : 1), nv = (size_t)(m->nv ? m->nv : 1);
    if ((st = mcd_data_create(m, &s->d, err)) != MCD_OK ||
        (st = mcd_data_create(m, &s->controller_d, err)) != MCD_OK ||
        (st = mcd_sim_capacity_create(s, err)) != MCD_OK ||
        (st = mcd_sim_actuation_create(s, err)) != MCD_OK) {
        mcd_sim_free(s);
        return st;
    }
    s->q = calloc(nq, sizeof *s->q), s->q_new = calloc(nq, sizeof *s->q_new);
    s->q_mid = calloc(nq, sizeof *s->q_mid);
    s->qd = calloc(nv, sizeof *s->qd), s->qd_new = calloc(nv, sizeof *s->qd_new);
    s->tau = calloc(nv, sizeof *s->tau);
    s->tau_controller = calloc(nv, sizeof *s->tau_controller);
    /* advance()'s qd_advance: qd+ or (qd + qd+) / 2, the velocity q moves with */
    s->v = calloc(nv, sizeof *s->v);
    s->correction = calloc(nv, sizeof *s->correction);
    if (!s->q || !s->q_new || !s->q_mid || !s->qd || !s->qd_new || !s->tau || !s->tau_controller ||
        !s->v || !s->correction) {
        mcd_sim_free(s);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    }
    mcd_model_neutral(m, s->q);
    *out = s;
    return MCD_OK;
}

void mcd_sim_set_contact_provider(mcd_sim *s, mcd_contact_provider f, void *user)
{
    s->provider = f;
    s->provider_user = user;
}

void mcd_sim_set_controller(mcd_sim *s, mcd_controller f, void *user)
{
    s->controller = f;
    s->controller_user = user;
}

mcd_status mcd_sim_set_state(mcd_sim *s, const double *q, const double *qd, double t)
{
    if (!s || !q || !qd || !isfinite(t)) return MCD_ERR_ARG;
    mcd_status st = mcd_model_check_q(s->m, q, &s->err);
    for (int i = 0; st == MCD_OK && i < s->m->nv; i++)
        if (!isfinite(qd[i])) st = mcd_fail(&s->err, MCD_ERR_NONFINITE, "qd[%d] is not finite", i);
    if (st != MCD_OK) return st;
    memcpy(s->q, q, (size_t)s->m->nq * sizeof *q);
    memcpy(s->qd, qd, (size_t)s->m->nv * sizeof *qd);
    s->t = t;
    s->guard_started = 0; /* a new state: a new energy budget (sim_guard.c) */
    return MCD_OK;
}

const double *mcd_sim_q(const mcd_sim *s)
{
    return s->q;
}
const double *mcd_sim_qd(const mcd_sim *s)
{
    return s->qd;
}
double mcd_sim_time(const mcd_sim *s)
{
    return s->t;
}
mcd_data *mcd_sim_data(mcd_sim *s)
{
    return s->d;
}
int mcd_sim_ncontacts(const mcd_sim *s)
{
    return s->ncontacts;
}
const mcd_contact_point *mcd_sim_contact(const mcd_sim *s, int k)
{
    return &s->contacts[k];
}
const double *mcd_sim_position_correction(const mcd_sim *s)
{
    return s->correction;
}
const mcd_contact_ws *mcd_sim_contact_ws(const mcd_sim *s)
{
    return s->cws;
}
mcd_status mcd_sim_contact_force(const mcd_sim *s, int k, mcd_contact_force *out)
{
    if (!s || !out || k < 0 || k >= s->ncontacts) return MCD_ERR_ARG;
    const mcd_contact_point *p = &s->contacts[k];
    const double *F = mcd_contact_impulse(s->cws, k); /* (F_f, F_o, F_n) */
    const double *E = mcd_contact_frame(s->cws, k);   /* rows f, o, eta */
    out->body_a = p->body_a, out->body_b = p->body_b;
    mcd_v3_copy(out->point, p->pos);
    mcd_v3_copy(out->normal, p->normal);
    for (int i = 0; i < 3; i++) { /* F_f f + F_o o + F_n eta */
        out->impulse[i] = F[MCD_AXIS_F] * E[3 * MCD_AXIS_F + i] +
                          F[MCD_AXIS_O] * E[3 * MCD_AXIS_O + i] +
                          F[MCD_AXIS_N] * E[3 * MCD_AXIS_N + i];
        out->force[i] = out->impulse[i] / s->h;
    }
    return MCD_OK;
}
const char *mcd_sim_error(const mcd_sim *s)
{
    return s ? s->err.msg : "";
}
long mcd_sim_solver_failures(const mcd_sim *s)
{
    return s->solver_failures;
}

long mcd_sim_step_halvings(const mcd_sim *s)
{
    return s->step_halvings;
}

double mcd_sim_step_size(const mcd_sim *s)
{
    return s->h;
}

/* The controller's tau into s->tau_controller, its scratch data
 * synchronised with (q, qd) first (sim.h, mcd_controller). */
static mcd_status controller_forces(mcd_sim *s, const double *q, const double *qd)
{
    const mcd_model *m = s->m;
    mcd_data *cd = s->controller_d;
    memcpy(cd->q, q, (size_t)m->nq * sizeof *q);
    memcpy(cd->qd, qd, (size_t)m->nv * sizeof *qd);
    mcd_status st = mcd_body_velocities(m, cd, cd->q, cd->qd);
    if (st != MCD_OK) return mcd_fail(&s->err, st, "controller state: %s", mcd_data_error(cd));
    mcd_error_clear(&cd->err);
    memset(s->tau_controller, 0, (size_t)m->nv * sizeof *s->tau_controller);
    st = s->controller(s->controller_user, m, cd, s->t, q, qd, s->tau_controller);
    for (int i = 0; st == MCD_OK && i < m->nv; i++)
        if (!isfinite(s->tau_controller[i]))
            return mcd_fail(&s->err, MCD_ERR_NONFINITE, "controller: tau[%d] not finite", i);
    if (st == MCD_OK) return MCD_OK;
    const char *why = mcd_data_error(cd);
    return mcd_fail(&s->err, st, "controller failed at t = %g%s%s", s->t, why[0] ? ": " : "", why);
}

/* tau = controller (called, or its torques held: mcd_sim_step_once) +
 * passive joint damping + actuators (sim_actuator.c). */
static mcd_status applied_forces(mcd_sim *s, const double *q, const double *qd, int call_controller)
{
    const mcd_model *m = s->m;
    memset(s->tau, 0, (size_t)m->nv * sizeof *s->tau);
    if (s->controller) {
        mcd_status st = call_controller ? controller_forces(s, q, qd) : MCD_OK;
        if (st != MCD_OK) return st;
        memcpy(s->tau, s->tau_controller, (size_t)m->nv * sizeof *s->tau);
    }
    if (s->opt.joint_damping)
        for (int k = 0; k < m->nbody; k++)
            for (int i = 0; i < m->body[k].nv; i++)
                s->tau[m->body[k].vadr + i] -= m->body[k].limits.damping * qd[m->body[k].vadr + i];
    return mcd_sim_actuation_apply(s, q, qd);
}

/* Contacts at configuration qs (kinematics of qs made first, *kinematics
 * set to 1 then; the contact set-up reuses them). When the provider
 * reports more than the capacity, the workspaces grow and the detection
 * runs again, up to the limit max_contacts. */
static mcd_status detect(mcd_sim *s, const double *qs, int *kinematics)
{
    s->ncontacts = 0;
    *kinematics = 0;
    if (!s->provider && !mcd_sim_joint_limits_on(s)) return MCD_OK;
    mcd_status st = mcd_forward_kinematics(s->m, s->d, qs);
    if (st != MCD_OK) return mcd_fail(&s->err, st, "%s", mcd_data_error(s->d));
    *kinematics = 1; /* the provider sees d as const (mcd_contact_provider) */
    for (;;) {
        mcd_error e = {0};
        int n = 0;
        st = s->provider
                 ? s->provider(s->provider_user, s->m, s->d, qs, s->contacts, s->cap, &n, &e)
                 : MCD_OK;
        if (st == MCD_OK) st = mcd_sim_rest_contacts(s, n, &e);   /* sim_correction.c */
        if (st == MCD_OK) st = mcd_sim_add_limits(s, qs, &n, &e); /* sim_limits.c */
        if (st == MCD_OK) {
            s->ncontacts = n;
            return MCD_OK;
        }
        if (st != MCD_ERR_CAPACITY)
            return mcd_fail(&s->err, st, "t = %.6f: contacts: %s", s->t, e.msg);
        st = mcd_sim_capacity_grow(s, n);
        if (st == MCD_ERR_CAPACITY)
            return mcd_fail(
                &s->err, st,
                "t = %.6f: the scene needs %s%d contact points, more than the limit "
                "%d (scenario key contact.max_points, mcd_sim_options.max_contacts): %s",
                s->t, n > s->cap ? "" : "more than ", n > s->cap ? n : s->cap, s->opt.max_contacts,
                e.msg);
        if (st != MCD_OK) return st;
    }
}

/* q+ by Eq. (26) or (29), closures projected, everything finite. */
static mcd_status advance(mcd_sim *s)
{
    const mcd_model *m = s->m;
    double *qd_advance = s->v; /* the velocity q advances with */
    if (s->opt.integrator == MCD_INTEGRATOR_MIDPOINT)
        for (int i = 0; i < m->nv; i++) qd_advance[i] = 0.5 * (s->qd[i] + s->qd_new[i]);
    else
        memcpy(qd_advance, s->qd_new, (size_t)m->nv * sizeof *qd_advance);
    mcd_status st = mcd_integrate(m, s->q, qd_advance, s->h, s->q_new);
    if (st == MCD_OK && s->corrected) st = mcd_integrate(m, s->q_new, s->correction, 1.0, s->q_new);
    if (st == MCD_OK && m->nclosure > 0)
        st = mcd_closure_project_position(m, s->d, s->q_new, s->opt.closure_tolerance, 20, NULL);
    if (st == MCD_OK && m->nclosure > 0)
        st = mcd_closure_project_velocity(m, s->d, s->q_new, s->qd_new);
    if (st == MCD_OK) st = mcd_model_check_q(m, s->q_new, &s->err);
    for (int i = 0; st == MCD_OK && i < m->nv; i++)
        if (!isfinite(s->qd_new[i]))
            st = mcd_fail(&s->err, MCD_ERR_NONFINITE, "qd[%d] became non-finite", i);
    if (st != MCD_OK && !s->err.msg[0]) mcd_fail(&s->err, st, "%s", mcd_data_error(s->d));
    return st;
}

mcd_status mcd_sim_step_once(mcd_sim *s, int call_controller, mcd_step_stats *stats)
{
    mcd_step_stats st;
    memset(&st, 0, sizeof st);
    mcd_error_clear(&s->err);
    const mcd_model *m = s->m;
    const double *qs = s->q; /* where the problem is set up: q- or the midpoint q^m */
    double t0 = mcd_clock_seconds(), t1, t2, t3;
    mcd_status r = MCD_OK;
    if (s->opt.integrator == MCD_INTEGRATOR_MIDPOINT) { /* Eq. (27) */
        r = mcd_integrate(m, s->q, s->qd, 0.5 * s->h, s->q_mid);
        qs = s->q_mid;
    }
    if (r == MCD_OK) r = applied_forces(s, qs, s->qd, call_controller);
    t1 = mcd_clock_seconds();
    if (r == MCD_OK && !s->cws)
        r = mcd_fail(&s->err, MCD_ERR_NOMEM, "no contact workspace (a capacity growth failed)");
    int kinematics = 0; /* detect made the kinematics of qs in s->d */
    if (r == MCD_OK) r = detect(s, qs, &kinematics);
    t2 = mcd_clock_seconds();
    s->d->hinge_diagonal = mcd_sim_damping_diagonal(s); /* M + h D: implicit damping */
    double T_minus = 0.0; /* T(q_s, qd) for the divergence guard, from the set-up */
    if (r == MCD_OK) {
        r = mcd_contact_setup_at(m, s->d, s->cws, qs, s->qd, s->tau, s->h, s->ncontacts,
                                 s->contacts, &s->opt.contact, kinematics, &T_minus);
        if (r != MCD_OK) mcd_fail(&s->err, r, "t = %.6f: %s", s->t, mcd_data_error(s->d));
    }
    if (r == MCD_OK) mcd_sim_guard_start(s, T_minus);
    t3 = mcd_clock_seconds();
    st.t_contacts = t2 - t1, st.t_setup = t3 - t2;
    if (r == MCD_OK && s->ncontacts > 0) r = mcd_sim_impact_phase(s);
    if (r == MCD_OK && m->nclosure_rows + s->ncontacts > 0) r = mcd_sim_solve(s, &st);
    double t4 = mcd_clock_seconds();
    st.t_solve = t4 - t3;
    if (r == MCD_OK) r = mcd_contact_velocity_update(m, s->d, s->cws, s->qd_new);
    const double t5 = mcd_clock_seconds();
    if (r == MCD_OK && mcd_sim_corrects_positions(s)) r = mcd_sim_position_step(s, &st);
    const double t_correction = mcd_clock_seconds() - t5;
    st.t_solve += t_correction;
    s->d->hinge_diagonal = NULL;
    if (r == MCD_OK) r = mcd_sim_guard_check(s, &st);
    if (r == MCD_OK) r = advance(s);
    st.t_dynamics = (t1 - t0) + (mcd_clock_seconds() - t4) - t_correction;
    st.ncontacts = s->ncontacts;
    *stats = st;
    if (r != MCD_OK) return r;
    memcpy(s->q, s->q_new, (size_t)m->nq * sizeof *s->q);
    memcpy(s->qd, s->qd_new, (size_t)m->nv * sizeof *s->qd);
    s->t += s->h;
    return MCD_OK;
}

mcd_status mcd_sim_step(mcd_sim *s, mcd_step_stats *stats)
{
    if (!s) return MCD_ERR_ARG;
    mcd_step_stats st;
    mcd_status r = mcd_sim_step_halving(s, &st);
    if (stats) *stats = st;
    return r;
}

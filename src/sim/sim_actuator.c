/* Joint actuators and implicit damping (sim.h, "actuators and implicit
 * damping"): the actuators' torques added to the step's tau, and the
 * diagonal h D = h diag(kd + b) that the step's articulated-body
 * factorization adds to M (data.h hinge_diagonal). Everything is allocated
 * when the actuators are set; a step only reads and writes it. */
#include "sim_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct mcd_sim_actuation {
    mcd_actuator *a; /* n, their series pointing into samples */
    int *qadr;       /* n: the position index of each actuator's dof */
    int n;
    double *samples;  /* every copied series: t then v, one block */
    double *diagonal; /* nv: h (kd + b) of the current step */
    double *torque;   /* nv: the actuators' torques of the last step */
    int explicit_damping;
};

mcd_status mcd_sim_actuation_create(mcd_sim *s, mcd_error *err)
{
    const size_t nv = (size_t)(s->m->nv ? s->m->nv : 1);
    struct mcd_sim_actuation *w = calloc(1, sizeof *w);
    if (w) w->diagonal = calloc(nv, sizeof *w->diagonal), w->torque = calloc(nv, sizeof *w->torque);
    s->actuation = w;
    if (!w || !w->diagonal || !w->torque) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    return MCD_OK;
}

static void free_actuators(struct mcd_sim_actuation *w)
{
    free(w->a), free(w->qadr), free(w->samples);
    w->a = NULL, w->qadr = NULL, w->samples = NULL, w->n = 0;
}

void mcd_sim_actuation_free(mcd_sim *s)
{
    struct mcd_sim_actuation *w = s->actuation;
    if (!w) return;
    free_actuators(w);
    free(w->diagonal), free(w->torque);
    free(w);
}

void mcd_sim_set_implicit_damping(mcd_sim *s, int on)
{
    if (s && s->actuation) s->actuation->explicit_damping = !on;
}

const double *mcd_sim_actuator_torque(const mcd_sim *s)
{
    return s && s->actuation ? s->actuation->torque : NULL;
}

/* The body whose hinge holds velocity coordinate dof, -1 if none. */
static int dof_body(const mcd_model *m, int dof)
{
    for (int k = 0; k < m->nbody; k++)
        if (dof >= m->body[k].vadr && dof < m->body[k].vadr + m->body[k].nv) return k;
    return -1;
}

static mcd_status check_signal(const mcd_signal *g, int i, const char *what, mcd_error *err)
{
    if (g->n < 0 || (g->n > 0 && (!g->t || !g->v)) || (g->n == 0 && !isfinite(g->value)))
        return mcd_fail(err, MCD_ERR_ARG, "actuator %d: %s: bad signal (n = %d)", i, what, g->n);
    for (int j = 0; j < g->n; j++) {
        if (!isfinite(g->t[j]) || !isfinite(g->v[j]))
            return mcd_fail(err, MCD_ERR_ARG, "actuator %d: %s: sample %d is not finite", i, what,
                            j);
        if (j > 0 && !(g->t[j] > g->t[j - 1]))
            return mcd_fail(err, MCD_ERR_ARG,
                            "actuator %d: %s: times not strictly increasing at sample %d (%g "
                            "after %g)",
                            i, what, j, g->t[j], g->t[j - 1]);
    }
    return MCD_OK;
}

static mcd_status check_actuator(const mcd_model *m, const mcd_actuator *a, int i, mcd_error *err)
{
    const int k = a->dof >= 0 && a->dof < m->nv ? dof_body(m, a->dof) : -1;
    if (k < 0 || m->body[k].nv != 1)
        return mcd_fail(err, MCD_ERR_ARG,
                        "actuator %d: dof %d is not the coordinate of a one-coordinate joint "
                        "(revolute, continuous, prismatic)",
                        i, a->dof);
    if ((int)a->type < 0 || a->type >= MCD_ACTUATOR_TYPE_COUNT)
        return mcd_fail(err, MCD_ERR_ARG, "actuator %d: unknown type %d", i, (int)a->type);
    if (!(a->kp >= 0) || !(a->kd >= 0) || !isfinite(a->kp) || !isfinite(a->kd))
        return mcd_fail(err, MCD_ERR_ARG,
                        "actuator %d: gains kp = %g, kd = %g must be finite, >= 0", i, a->kp,
                        a->kd);
    if ((a->type == MCD_ACTUATOR_TORQUE && (a->kp != 0 || a->kd != 0)) ||
        (a->type == MCD_ACTUATOR_VELOCITY && a->kp != 0))
        return mcd_fail(err, MCD_ERR_ARG, "actuator %d: a gain its type does not use is not 0", i);
    if (!(a->effort_limit > 0))
        return mcd_fail(err, MCD_ERR_ARG, "actuator %d: effort limit %g must be > 0", i,
                        a->effort_limit);
    mcd_status st = check_signal(&a->target, i, "target", err);
    return st == MCD_OK ? check_signal(&a->feedforward, i, "feedforward", err) : st;
}

/* Checks the n actuators (one per dof) and counts their samples. */
static mcd_status check_all(const mcd_sim *s, const mcd_actuator *a, int n, size_t *nsamples,
                            mcd_error *err)
{
    const mcd_model *m = s->m;
    *nsamples = 0;
    for (int i = 0; i < n; i++) {
        mcd_status st = check_actuator(m, &a[i], i, err);
        if (st != MCD_OK) return st;
        for (int j = 0; j < i; j++)
            if (a[j].dof == a[i].dof)
                return mcd_fail(err, MCD_ERR_ARG, "actuators %d and %d both drive dof %d", j, i,
                                a[i].dof);
        *nsamples += (size_t)a[i].target.n + (size_t)a[i].feedforward.n;
    }
    if (*nsamples > SIZE_MAX / (2 * sizeof(double)))
        return mcd_fail(err, MCD_ERR_NOMEM, "actuators: too many samples");
    return MCD_OK;
}

/* Copies the samples of g to *next and points g at the copy. */
static void copy_signal(mcd_signal *g, double **next)
{
    if (g->n == 0) return;
    double *t = *next, *v = t + g->n;
    memcpy(t, g->t, (size_t)g->n * sizeof *t);
    memcpy(v, g->v, (size_t)g->n * sizeof *v);
    g->t = t, g->v = v;
    *next = v + g->n;
}

mcd_status mcd_sim_set_actuators(mcd_sim *s, const mcd_actuator *a, int n, mcd_error *err)
{
    if (!s || n < 0 || (n > 0 && !a))
        return mcd_fail(err, MCD_ERR_ARG, "mcd_sim_set_actuators: bad arguments");
    struct mcd_sim_actuation *w = s->actuation;
    size_t nsamples;
    mcd_status st = check_all(s, a, n, &nsamples, err);
    if (st != MCD_OK) return st;
    mcd_actuator *copy = calloc((size_t)n + 1, sizeof *copy);
    int *qadr = calloc((size_t)n + 1, sizeof *qadr);
    double *samples = calloc(2 * nsamples + 1, sizeof *samples), *next = samples;
    if (!copy || !qadr || !samples) {
        free(copy), free(qadr), free(samples);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory for %d actuators", n);
    }
    if (n > 0) memcpy(copy, a, (size_t)n * sizeof *copy);
    for (int i = 0; i < n; i++) {
        copy_signal(&copy[i].target, &next);
        copy_signal(&copy[i].feedforward, &next);
        qadr[i] = s->m->body[dof_body(s->m, a[i].dof)].qadr;
    }
    free_actuators(w);
    w->a = copy, w->qadr = qadr, w->samples = samples, w->n = n;
    return MCD_OK;
}

/* The value of g at time t and its slope there (0 outside the samples). */
static double signal_at(const mcd_signal *g, double t, double *slope)
{
    *slope = 0.0;
    if (g->n == 0) return g->value;
    if (t <= g->t[0]) return g->v[0];
    if (t >= g->t[g->n - 1]) return g->v[g->n - 1];
    int lo = 0, hi = g->n - 1; /* t[lo] < t < t[hi] */
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        if (g->t[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    *slope = (g->v[hi] - g->v[lo]) / (g->t[hi] - g->t[lo]);
    return g->v[lo] + *slope * (t - g->t[lo]);
}

/* The torque of a at (q, qd) and time t before saturation. */
static double actuator_torque(const mcd_actuator *a, double q, double qd, double t)
{
    double slope, unused;
    const double r = signal_at(&a->target, t, &slope);
    const double ff = signal_at(&a->feedforward, t, &unused);
    switch (a->type) {
    case MCD_ACTUATOR_POSITION:
        return a->kp * (r - q) + a->kd * (slope - qd) + ff;
    case MCD_ACTUATOR_VELOCITY:
        return a->kd * (r - qd) + ff;
    default:
        return ff;
    }
}

mcd_status mcd_sim_actuation_apply(mcd_sim *s, const double *q, const double *qd)
{
    const mcd_model *m = s->m;
    struct mcd_sim_actuation *w = s->actuation;
    const double h = s->h;
    memset(w->diagonal, 0, (size_t)m->nv * sizeof *w->diagonal);
    memset(w->torque, 0, (size_t)m->nv * sizeof *w->torque);
    if (s->opt.joint_damping)
        for (int k = 0; k < m->nbody; k++)
            for (int i = 0; i < m->body[k].nv; i++)
                w->diagonal[m->body[k].vadr + i] = h * m->body[k].limits.damping;
    for (int i = 0; i < w->n; i++) {
        const mcd_actuator *a = &w->a[i];
        const double tau = actuator_torque(a, q[w->qadr[i]], qd[a->dof], s->t);
        const double lim = a->effort_limit;
        if (!isfinite(tau))
            return mcd_fail(&s->err, MCD_ERR_NONFINITE, "actuator %d: torque not finite", i);
        w->torque[a->dof] = fmax(-lim, fmin(lim, tau));
        if (fabs(tau) <= lim) w->diagonal[a->dof] += h * a->kd;
        s->tau[a->dof] += w->torque[a->dof];
    }
    return MCD_OK;
}

const double *mcd_sim_damping_diagonal(const mcd_sim *s)
{
    return s->actuation->explicit_damping ? NULL : s->actuation->diagonal;
}

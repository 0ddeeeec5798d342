/* Step halving (sim_internal.h; docs/scenarios.md, "Step halving"): a step
 * whose contact, impact or correction solve (or closure projection) fails
 * with MCD_ERR_NOT_CONVERGED is taken again from its start as two steps of
 * half its size, each of which may be halved again, down to
 * dt / 2^max_step_halvings. Until that smallest size a failure to converge
 * is not counted and only ends the attempt (s->retakable): the state is
 * still the step's start (mcd_sim_step_once changes it only on success),
 * so the halves start from it. Every half is an ordinary step of its size
 * (Moreau-Jean time stepping is consistent for any step size: the halves
 * are the same dynamics with a finer step where the problem of the coarse
 * one could not be solved), except that the controller runs once, at the
 * start of the step of dt, and its torques are held over the halves. A
 * half of the smallest size that fails follows on_failure as any step. */
#include "sim_internal.h"

#include <string.h>

/* Adds the statistics of one attempt to those of the step. */
static void add_attempt(mcd_step_stats *acc, const mcd_step_stats *st, mcd_status r)
{
    acc->ncontacts = st->ncontacts;
    acc->iterations += st->iterations;
    if (r == MCD_OK && st->residual > acc->residual) acc->residual = st->residual;
    acc->solver_status = st->solver_status;
    acc->t_dynamics += st->t_dynamics, acc->t_contacts += st->t_contacts;
    acc->t_setup += st->t_setup, acc->t_solve += st->t_solve;
}

/* A step of size h at halving depth `depth` (0: the step of dt, which
 * alone calls the controller), halved on a failure to converge while
 * depth < max_step_halvings. */
static mcd_status take(mcd_sim *s, double h, int depth, mcd_step_stats *acc)
{
    s->h = h;
    s->retakable = depth < s->opt.max_step_halvings;
    mcd_step_stats st;
    mcd_status r = mcd_sim_step_once(s, depth == 0, &st);
    const int halve = s->retakable && r == MCD_ERR_NOT_CONVERGED;
    s->retakable = 0;
    add_attempt(acc, &st, r);
    if (!halve) return r;
    acc->halvings++;
    s->step_halvings++;
    r = take(s, 0.5 * h, depth + 1, acc);
    if (r == MCD_OK) r = take(s, 0.5 * h, depth + 1, acc);
    return r;
}

mcd_status mcd_sim_step_halving(mcd_sim *s, mcd_step_stats *stats)
{
    const double t0 = s->t;
    memset(stats, 0, sizeof *stats);
    mcd_status r = take(s, s->opt.dt, 0, stats); /* s->h stays the last half's size */
    /* halves add up to dt, but their times need not round to t0 + dt */
    if (r == MCD_OK && stats->halvings > 0) s->t = t0 + s->opt.dt;
    return r;
}

/* Joint limits in the step (sim.h, "joint limits"): the rows of
 * mcd_contact_joint_limits appended to the step's contacts, inelastic, so
 * that every step method and impact law takes them as it takes contacts. */
#include "sim_internal.h"

/* A bound enters the problem within this gap [rad or m] (plus twice what
 * it closes in a step at the current speed). */
#define LIMIT_MARGIN 1e-2

void mcd_sim_set_joint_limits(mcd_sim *s, int on)
{
    if (s) s->joint_limits_off = !on;
}

int mcd_sim_joint_limits_on(const mcd_sim *s)
{
    return !s->joint_limits_off;
}

mcd_status mcd_sim_add_limits(mcd_sim *s, const double *q, int *n, mcd_error *err)
{
    if (s->joint_limits_off) return MCD_OK;
    int nl = 0;
    const int room = s->cap - *n > 0 ? s->cap - *n : 0;
    mcd_status st = mcd_contact_joint_limits(s->m, s->d, q, s->qd, s->h, LIMIT_MARGIN, 0.0,
                                             s->contacts + *n, room, &nl);
    *n += nl;
    if (st == MCD_ERR_CAPACITY)
        return mcd_fail(err, st, "%d contacts and joint-limit rows, more than the capacity %d", *n,
                        s->cap);
    return st;
}

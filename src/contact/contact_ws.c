/* The contact workspace: every array sized once for the largest step. */
#include "../dynamics/osc_internal.h"
#include "contact_internal.h"

#include <stdlib.h>
#include <string.h>

mcd_contact_options mcd_contact_default_options(void)
{
    mcd_contact_options o;
    memset(&o, 0, sizeof o);
    o.nf = 4;
    o.directions = MCD_DIRECTIONS_ALIGNED;
    o.penetration_gain = 0.2;
    o.max_correction_velocity = 1.0;
    o.restitution_velocity = 0.01;
    return o;
}

void mcd_contact_ws_free(mcd_contact_ws *w)
{
    if (!w) return;
    free(w->pts), free(w->row_pa), free(w->row_pb), free(w->coef), free(w->Lambda), free(w->W);
    free(w->pt_vel), free(w->nu_minus), free(w->nu_free), free(w->qd_free), free(w->frame);
    free(w->theta), free(w->mu), free(w->fc_q), free(w->mlcp.M), free(w->mlcp.q);
    free(w->mlcp.lo), free(w->mlcp.hi), free(w->WT), free(w->impulse), free(w->out_impulse);
    free(w->prior);
    free(w->out_velocity), free(w->F_pts), free(w->dq);
    free(w);
}

mcd_status mcd_contact_ws_create(const mcd_model *m, mcd_data *d, int max_contacts, int max_nf,
                                 mcd_contact_ws **out, mcd_error *err)
{
    if (!m || !d || !out || max_contacts < 0 || max_nf < 4 || max_nf % 2)
        return mcd_fail(err, MCD_ERR_ARG,
                        "mcd_contact_ws_create: need max_contacts >= 0 and an even max_nf >= 4");
    mcd_contact_ws *w = calloc(1, sizeof *w);
    if (!w) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    const size_t nc = (size_t)max_contacts, nf = (size_t)max_nf, nv = (size_t)(m->nv ? m->nv : 1);
    w->max_contacts = max_contacts;
    w->max_nf = max_nf;
    w->nb = m->nclosure_rows;
    w->max_pts = 2 * m->nclosure + 2 * max_contacts;
    w->max_rows = w->nb + 3 * max_contacts;
    w->max_mlcp = w->nb + max_contacts * (max_nf + 2);
    const size_t np = (size_t)(w->max_pts ? w->max_pts : 1),
                 nr = (size_t)(w->max_rows ? w->max_rows : 1),
                 nz = (size_t)(w->max_mlcp ? w->max_mlcp : 1), ncs = nc ? nc : 1;
    w->pts = malloc(np * sizeof *w->pts);
    w->row_pa = malloc(nr * sizeof *w->row_pa);
    w->row_pb = malloc(nr * sizeof *w->row_pb);
    w->coef = malloc(6 * nr * sizeof *w->coef);
    w->Lambda = malloc(36 * np * np * sizeof *w->Lambda);
    w->W = malloc(nr * nr * sizeof *w->W);
    w->pt_vel = malloc(6 * np * sizeof *w->pt_vel);
    w->nu_minus = malloc(nr * sizeof *w->nu_minus);
    w->nu_free = malloc(nr * sizeof *w->nu_free);
    w->qd_free = malloc(nv * sizeof *w->qd_free);
    w->frame = malloc(9 * ncs * sizeof *w->frame);
    w->theta = malloc(nf * ncs * sizeof *w->theta);
    w->mu = malloc(ncs * sizeof *w->mu);
    w->fc_q = malloc(nr * sizeof *w->fc_q);
    w->mlcp.M = malloc(nz * nz * sizeof *w->mlcp.M);
    w->mlcp.q = malloc(nz * sizeof *w->mlcp.q);
    w->mlcp.lo = malloc(nz * sizeof *w->mlcp.lo);
    w->mlcp.hi = malloc(nz * sizeof *w->mlcp.hi);
    w->WT = malloc(nr * nz * sizeof *w->WT);
    w->impulse = malloc(nr * sizeof *w->impulse);
    w->prior = malloc(nr * sizeof *w->prior);
    w->out_impulse = malloc(3 * ncs * sizeof *w->out_impulse);
    w->out_velocity = malloc(3 * ncs * sizeof *w->out_velocity);
    w->F_pts = malloc(6 * np * sizeof *w->F_pts);
    w->dq = malloc(nv * sizeof *w->dq);
    if (!w->pts || !w->row_pa || !w->row_pb || !w->coef || !w->Lambda || !w->W || !w->pt_vel ||
        !w->nu_minus || !w->nu_free || !w->qd_free || !w->frame || !w->theta || !w->mu ||
        !w->fc_q || !w->mlcp.M || !w->mlcp.q || !w->mlcp.lo || !w->mlcp.hi || !w->WT ||
        !w->impulse || !w->prior || !w->out_impulse || !w->out_velocity || !w->F_pts || !w->dq) {
        mcd_contact_ws_free(w);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory for %d contacts", max_contacts);
    }
    if (w->max_pts > d->osc->capacity && mcd_osc_reserve(d, w->max_pts) != MCD_OK) {
        mcd_contact_ws_free(w);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory for %d contact points", w->max_pts);
    }
    *out = w;
    return MCD_OK;
}

int mcd_contact_count(const mcd_contact_ws *w)
{
    return w ? w->nc : 0;
}
const double *mcd_contact_impulse(const mcd_contact_ws *w, int k)
{
    return w->out_impulse + 3 * k;
}
const double *mcd_contact_frame(const mcd_contact_ws *w, int k)
{
    return w->frame + 9 * k;
}
const double *mcd_contact_velocity(const mcd_contact_ws *w, int k)
{
    return w->out_velocity + 3 * k;
}
const double *mcd_contact_closure_impulse(const mcd_contact_ws *w)
{
    return w->impulse;
}

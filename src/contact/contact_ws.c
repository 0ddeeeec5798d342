/* The contact workspace: the per-contact arrays sized once for the
 * capacity; the group problems' blocks grown when a step needs more. */
#include "../dynamics/osc_internal.h"
#include "contact_internal.h"

#include <limits.h>
#include <stdint.h>
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
    o.position_correction = 1;
    return o;
}

mcd_status mcd_contact_reserve(mcd_contact_buf *b, size_t n)
{
    if (n <= b->n) return MCD_OK;
    if (n > SIZE_MAX / sizeof *b->p) return MCD_ERR_NOMEM;
    double *p = realloc(b->p, n * sizeof *p);
    if (!p) return MCD_ERR_NOMEM;
    b->p = p, b->n = n;
    return MCD_OK;
}

void mcd_contact_ws_free(mcd_contact_ws *w)
{
    if (!w) return;
    free(w->pts), free(w->row_pa), free(w->row_pb), free(w->coef), free(w->pt_vel);
    free(w->nu_minus), free(w->nu_free), free(w->qd_free), free(w->frame), free(w->theta);
    free(w->mu), free(w->fc_q), free(w->impulse), free(w->prior), free(w->nu_plus), free(w->corr);
    free(w->out_impulse), free(w->out_velocity), free(w->F_pts), free(w->dq);
    free(w->grp.root), free(w->grp.uf), free(w->grp.group_of), free(w->grp.touched);
    free(w->row_group), free(w->order), free(w->g_start), free(w->g_nb), free(w->g_c0),
        free(w->g_W0), free(w->g_corrects);
    free(w->pt_local), free(w->gpts), free(w->g_pa), free(w->g_pb), free(w->g_coef),
        free(w->g_work);
    free(w->g_q), free(w->g_mu), free(w->g_theta);
    mcd_contact_buf *bufs[] = {&w->Lambda, &w->Wg, &w->W, &w->M, &w->WT, &w->mq, &w->mlo, &w->mhi};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) free(bufs[i]->p);
    free(w);
}

/* *out = a * b + c when it fits in an int (all >= 0, at most INT_MAX). */
static int checked_int(long long a, long long b, long long c, int *out)
{
    const long long v = a * b + c;
    if (v > INT_MAX) return 0;
    *out = (int)v;
    return 1;
}

/* The per-contact, per-row and per-point arrays (sizes in w). */
static int allocate(mcd_contact_ws *w, const mcd_model *m)
{
    const size_t nc = (size_t)(w->max_contacts ? w->max_contacts : 1), nf = (size_t)w->max_nf;
    const size_t nv = (size_t)(m->nv ? m->nv : 1), nbody = (size_t)(m->nbody ? m->nbody : 1);
    const size_t np = (size_t)(w->max_pts ? w->max_pts : 1),
                 nr = (size_t)(w->max_rows ? w->max_rows : 1);
    w->pts = malloc(np * sizeof *w->pts), w->gpts = malloc(np * sizeof *w->gpts);
    w->row_pa = malloc(nr * sizeof *w->row_pa), w->row_pb = malloc(nr * sizeof *w->row_pb);
    w->coef = calloc(6 * nr, sizeof *w->coef), w->g_coef = malloc(6 * nr * sizeof *w->g_coef);
    w->pt_vel = malloc(6 * np * sizeof *w->pt_vel), w->F_pts = malloc(6 * np * sizeof *w->F_pts);
    w->nu_minus = malloc(nr * sizeof *w->nu_minus), w->nu_free = malloc(nr * sizeof *w->nu_free);
    w->fc_q = malloc(nr * sizeof *w->fc_q), w->g_q = malloc(nr * sizeof *w->g_q);
    w->impulse = malloc(nr * sizeof *w->impulse), w->prior = malloc(nr * sizeof *w->prior);
    w->nu_plus = malloc(nr * sizeof *w->nu_plus), w->corr = malloc(nr * sizeof *w->corr);
    w->qd_free = malloc(nv * sizeof *w->qd_free), w->dq = malloc(nv * sizeof *w->dq);
    w->frame = malloc(9 * nc * sizeof *w->frame), w->mu = malloc(nc * sizeof *w->mu);
    w->theta = malloc(nf * nc * sizeof *w->theta),
    w->g_theta = malloc(nf * nc * sizeof *w->g_theta);
    w->g_mu = malloc(nc * sizeof *w->g_mu);
    w->out_impulse = malloc(3 * nc * sizeof *w->out_impulse);
    w->out_velocity = malloc(3 * nc * sizeof *w->out_velocity);
    w->grp.root = malloc(nbody * sizeof *w->grp.root);
    w->grp.uf = malloc(nbody * sizeof *w->grp.uf);
    w->grp.group_of = malloc(nbody * sizeof *w->grp.group_of);
    w->grp.touched = malloc(nbody * sizeof *w->grp.touched);
    w->row_group = malloc(nr * sizeof *w->row_group), w->order = malloc(nr * sizeof *w->order);
    w->g_start = malloc((nr + 1) * sizeof *w->g_start), w->g_nb = malloc(nr * sizeof *w->g_nb);
    w->g_W0 = malloc(nr * sizeof *w->g_W0), w->g_c0 = malloc(nr * sizeof *w->g_c0);
    w->g_corrects = calloc(nr, sizeof *w->g_corrects);
    w->pt_local = malloc(np * sizeof *w->pt_local);
    w->g_work = malloc(9 * nr * sizeof *w->g_work);
    w->g_pa = malloc(nr * sizeof *w->g_pa), w->g_pb = malloc(nr * sizeof *w->g_pb);
    if (!w->pts || !w->gpts || !w->row_pa || !w->row_pb || !w->coef || !w->g_coef || !w->pt_vel ||
        !w->F_pts || !w->nu_minus || !w->nu_free || !w->fc_q || !w->g_q || !w->impulse ||
        !w->prior || !w->nu_plus || !w->corr || !w->qd_free || !w->dq || !w->frame || !w->mu ||
        !w->theta || !w->g_theta || !w->g_mu || !w->out_impulse || !w->out_velocity ||
        !w->grp.root || !w->grp.uf || !w->grp.group_of || !w->grp.touched || !w->row_group ||
        !w->order || !w->g_start || !w->g_nb || !w->g_c0 || !w->g_W0 || !w->g_corrects ||
        !w->pt_local || !w->g_pa || !w->g_pb || !w->g_work)
        return 0;
    mcd_contact_roots(m, w->grp.root);
    for (int k = 0; k < m->nbody; k++) w->grp.uf[k] = w->grp.group_of[k] = -1;
    for (int p = 0; p < w->max_pts; p++) w->pt_local[p] = -1;
    return 1;
}

mcd_status mcd_contact_ws_create(const mcd_model *m, mcd_data *d, int max_contacts, int max_nf,
                                 mcd_contact_ws **out, mcd_error *err)
{
    if (!m || !d || !out || max_contacts < 0 || max_nf < 4 || max_nf % 2)
        return mcd_fail(err, MCD_ERR_ARG,
                        "mcd_contact_ws_create: need max_contacts >= 0 and an even max_nf >= 4");
    mcd_contact_ws *w = calloc(1, sizeof *w);
    if (!w) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    w->max_contacts = max_contacts;
    w->max_nf = max_nf;
    w->nb = m->nclosure_rows;
    if (!checked_int(2, m->nclosure + (long long)max_contacts, 0, &w->max_pts) ||
        !checked_int(3, max_contacts, w->nb, &w->max_rows) ||
        !checked_int(max_contacts, max_nf + 2, w->nb, &w->max_mlcp)) {
        free(w);
        return mcd_fail(err, MCD_ERR_ARG, "mcd_contact_ws_create: %d contacts: sizes overflow",
                        max_contacts);
    }
    if (!allocate(w, m)) {
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
double mcd_contact_direction_angle(const mcd_contact_ws *w, int k)
{
    return w->theta[(size_t)w->max_nf * k];
}
const double *mcd_contact_closure_impulse(const mcd_contact_ws *w)
{
    return w->impulse;
}

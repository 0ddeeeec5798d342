/* The position step of the split penetration correction (contact.h,
 * mcd_contact_correction_*; docs/contact.md, "Split correction"): after the
 * frictional velocity step, whose targets carry no penetration removal, a
 * frictionless problem on the normal rows of the step's W (the groups' W_g
 * already formed) gives pseudo-impulses that move q, not qd, so that each
 * penetration loses the fraction gain of its depth, as Bullet's split
 * impulse, Box2D's NGS and Siconos' projection on constraints do. The
 * simulator corrects only the groups that penetrate deeper than their
 * velocity step can resolve (the band, contact_correction.h). */
#include "contact_correction.h"
#include "contact_internal.h"

#include <math.h>
#include <string.h>

/* Step index of the contact of group g's local row nb + 3 j. */
static int group_contact(const mcd_contact_ws *w, int g, int j)
{
    return (w->order[w->g_start[g] + w->g_nb[g] + 3 * j] - w->nb) / 3;
}

/* Group g's local row of correction unknown i: closure rows, then the
 * normal row of each contact. */
static int local_row(const mcd_contact_ws *w, int g, int i)
{
    const int nb = w->g_nb[g];
    return i < nb ? i : nb + 3 * (i - nb) + MCD_ROW_N;
}

/* The depth group g's velocity step cannot resolve (docs/contact.md,
 * "Split correction", the band): its solve is accepted when the error
 * measure, relative to at least |q_g| (the group's free velocities with the
 * targets folded in; docs/solvers.md, "Error measures"), is at most tol, so
 * it may leave row velocities up to tol |q_g| and move a contact by
 * dt tol |q_g| within the step. 0 when tol is 0. */
static double penetration_band(const mcd_contact_ws *w, int g, double tol)
{
    if (!(tol > 0)) return 0.0;
    double sum = 0.0;
    for (int l = w->g_start[g]; l < w->g_start[g + 1]; l++)
        sum += w->fc_q[w->order[l]] * w->fc_q[w->order[l]];
    return w->dt * tol * sqrt(sum);
}

/* The smallest gap of group g's contacts (+inf without contacts). */
static double deepest_gap(const mcd_contact_ws *w, int g, const mcd_contact_point *c)
{
    double least = INFINITY;
    for (int j = 0; j < mcd_contact_group_ncontacts(w, g); j++)
        least = fmin(least, c[group_contact(w, g, j)].gap);
    return least;
}

/* Some contact of group g penetrates deeper than the band of tol (the
 * band formed only for a group that penetrates at all). */
static int group_penetrates(const mcd_contact_ws *w, int g, const mcd_contact_point *c, double tol)
{
    const double gap = deepest_gap(w, g, c);
    return gap < 0 && gap < -penetration_band(w, g, tol);
}

mcd_status mcd_contact_correction_begin_within(const mcd_model *m, mcd_data *d, mcd_contact_ws *w,
                                               const double *qd_plus, const mcd_contact_point *c,
                                               double tol, int *needed)
{
    if (!m || !d || !w || !qd_plus || !needed || (w->nc > 0 && !c) || !(tol >= 0))
        return MCD_ERR_ARG;
    memset(w->corr, 0, (size_t)w->nrows * sizeof *w->corr);
    *needed = 0;
    for (int g = 0; g < w->ng; g++) {
        w->g_corrects[g] = group_penetrates(w, g, c, tol);
        *needed |= w->g_corrects[g];
    }
    return *needed ? mcd_contact_row_velocities(m, d, w, qd_plus, w->nu_plus) : MCD_OK;
}

mcd_status mcd_contact_correction_begin(const mcd_model *m, mcd_data *d, mcd_contact_ws *w,
                                        const double *qd_plus, const mcd_contact_point *c,
                                        int *needed)
{
    return mcd_contact_correction_begin_within(m, d, w, qd_plus, c, 0.0, needed);
}

/* c_k of contact.h: nu_n+ minus the separation speed the row needs. */
static double normal_offset(const mcd_contact_point *p, double nu_plus, double dt,
                            const mcd_contact_options *o)
{
    if (p->gap >= 0) return nu_plus + p->gap / dt;
    return nu_plus - fmin(o->penetration_gain * -p->gap / dt, o->max_correction_velocity);
}

/* The MLCP buffers for n unknowns. */
static mcd_status reserve(mcd_contact_ws *w, size_t n)
{
    if (mcd_contact_reserve(&w->M, n * n) || mcd_contact_reserve(&w->mq, n) ||
        mcd_contact_reserve(&w->mlo, n) || mcd_contact_reserve(&w->mhi, n))
        return MCD_ERR_NOMEM;
    return MCD_OK;
}

mcd_status mcd_contact_correction_reserve(mcd_contact_ws *w)
{
    size_t largest = 0;
    for (int g = 0; g < w->ng; g++) {
        const size_t n = (size_t)(w->g_nb[g] + mcd_contact_group_ncontacts(w, g));
        largest = n > largest ? n : largest;
    }
    return reserve(w, largest);
}

mcd_status mcd_contact_group_correction_mlcp(mcd_contact_ws *w, int g, const mcd_contact_point *c,
                                             const mcd_contact_options *o, mcd_mlcp *out)
{
    if (!w || !c || !o || !out || g < 0 || g >= w->ng) return MCD_ERR_ARG;
    const int nb = w->g_nb[g], nc = mcd_contact_group_ncontacts(w, g);
    const int n = w->g_corrects[g] ? nb + nc : 0, nr = nb + 3 * nc;
    const size_t nn = (size_t)n;
    if (reserve(w, nn) != MCD_OK) return MCD_ERR_NOMEM;
    const double *Wg = w->Wg.p + w->g_W0[g];
    double *M = w->M.p, *q = w->mq.p, *lo = w->mlo.p, *hi = w->mhi.p;
    for (int i = 0; i < n; i++) {
        const int li = local_row(w, g, i);
        for (int j = 0; j < n; j++)
            M[(size_t)i * nn + j] = Wg[(size_t)li * nr + local_row(w, g, j)];
        hi[i] = INFINITY;
        if (i < nb) { /* closure rows: the correction keeps G_b qd+ */
            q[i] = 0.0, lo[i] = -INFINITY;
            continue;
        }
        const int k = group_contact(w, g, i - nb);
        q[i] = normal_offset(&c[k], w->nu_plus[w->nb + 3 * k + MCD_ROW_N], w->dt, o);
        lo[i] = 0.0;
    }
    *out = (mcd_mlcp){.n = n, .M = M, .q = q, .lo = lo, .hi = hi};
    return MCD_OK;
}

mcd_status mcd_contact_group_take_correction(mcd_contact_ws *w, int g, const double *z)
{
    if (!w || !z || g < 0 || g >= w->ng) return MCD_ERR_ARG;
    const int nb = w->g_nb[g], nc = mcd_contact_group_ncontacts(w, g);
    for (int i = 0; i < nb + nc; i++) {
        if (!isfinite(z[i])) return MCD_ERR_NONFINITE;
        w->corr[w->order[w->g_start[g] + local_row(w, g, i)]] = z[i];
    }
    return MCD_OK;
}

mcd_status mcd_contact_correction_displacement(const mcd_model *m, mcd_data *d, mcd_contact_ws *w,
                                               double *delta)
{
    if (!m || !d || !w || !delta) return MCD_ERR_ARG;
    mcd_status s = mcd_contact_apply_rows(m, d, w, w->corr, delta);
    for (int i = 0; s == MCD_OK && i < m->nv; i++) delta[i] *= w->dt;
    return s;
}

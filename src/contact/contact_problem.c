/* The step's complementarity problems from the set-up rows, per group
 * (contact_setup.c) or whole:
 *  - MNCP (Eq. 55-56) as a 3D frictional-contact problem: W = X Lambda X^T,
 *    q = nu_free with the normal targets, mu per contact;
 *  - MLCP (Eq. 43-44): M = [[X Lambda X^T, E1], [E2, 0]] with X = [Q_b;
 *    D^T Q_u], built from W by the per-contact map T_k from (F_n, beta) to
 *    (eta, f, o) impulses, D_k = [eta, d_1 .. d_nf].
 * A group's rows are its closure rows, then its contacts, each in step
 * order; its problem is the whole problem's restricted to them, and the
 * whole W is block diagonal in that order (the rows of different groups
 * share no moving body). */
#include "contact_internal.h"

#include <math.h>
#include <string.h>

mcd_status mcd_contact_assemble_whole(mcd_contact_ws *w)
{
    if (w->whole_valid) return MCD_OK;
    const size_t n = (size_t)w->nrows;
    if (mcd_contact_reserve(&w->W, n * n) != MCD_OK) return MCD_ERR_NOMEM;
    memset(w->W.p, 0, n * n * sizeof *w->W.p);
    for (int g = 0; g < w->ng; g++) {
        const int ng = w->g_start[g + 1] - w->g_start[g], *row = w->order + w->g_start[g];
        const double *Wg = w->Wg.p + w->g_W0[g];
        for (int a = 0; a < ng; a++)
            for (int b = 0; b < ng; b++) w->W.p[(size_t)row[a] * n + row[b]] = Wg[a * ng + b];
    }
    w->whole_valid = 1;
    return MCD_OK;
}

int mcd_contact_group_count(const mcd_contact_ws *w)
{
    return w ? w->ng : 0;
}

int mcd_contact_group_ncontacts(const mcd_contact_ws *w, int g)
{
    if (!w || g < 0 || g >= w->ng) return 0;
    return (w->g_start[g + 1] - w->g_start[g] - w->g_nb[g]) / 3;
}

int mcd_contact_group_contact(const mcd_contact_ws *w, int g, int j)
{
    if (!w || g < 0 || g >= w->ng || j < 0 || j >= mcd_contact_group_ncontacts(w, g)) return -1;
    return (w->order[w->g_start[g] + w->g_nb[g] + 3 * j] - w->nb) / 3;
}

/* The fc3d problem of a view; group views gather q and mu. */
static mcd_status fc3d(mcd_contact_ws *w, int g, mcd_fc3d *out)
{
    mcd_contact_block v;
    mcd_status s = mcd_contact_block_of(w, g, &v);
    if (s != MCD_OK) return s;
    out->nc = v.nc, out->nb = v.nb, out->W = (double *)v.W;
    if (g < 0) {
        out->q = w->fc_q, out->mu = w->mu;
        return MCD_OK;
    }
    double *q = w->g_q + w->g_start[g], *mu = w->g_mu + w->g_c0[g];
    for (int l = 0; l < v.nb + 3 * v.nc; l++) q[l] = w->fc_q[v.row[l]];
    for (int j = 0; j < v.nc; j++) mu[j] = w->mu[mcd_contact_block_contact(w, &v, j)];
    out->q = q, out->mu = mu;
    return MCD_OK;
}

mcd_status mcd_contact_fc3d(mcd_contact_ws *w, mcd_fc3d *out)
{
    return w && out ? fc3d(w, -1, out) : MCD_ERR_ARG;
}

mcd_status mcd_contact_group_fc3d(mcd_contact_ws *w, int g, mcd_fc3d *out)
{
    return w && out && g >= 0 ? fc3d(w, g, out) : MCD_ERR_ARG;
}

/* Column j of T (size n) restricted: T maps MLCP impulse unknowns (p_b,
 * then F_n, beta_1..beta_nf per contact) to rows (p_b, (F_n, F_f, F_o)). */
static void t_column(const mcd_contact_ws *w, const mcd_contact_block *v, int j, int *row,
                     double *val, int *count)
{
    const int nb = v->nb, per = w->nf + 1;
    if (j < nb) {
        row[0] = j, val[0] = 1.0, *count = 1;
        return;
    }
    const int k = (j - nb) / per, l = (j - nb) % per, base = nb + 3 * k;
    if (l == 0) {
        row[0] = base + MCD_ROW_N, val[0] = 1.0, *count = 1;
        return;
    }
    const double th = w->theta[w->max_nf * mcd_contact_block_contact(w, v, k) + l - 1];
    row[0] = base + MCD_ROW_F, val[0] = cos(th);
    row[1] = base + MCD_ROW_O, val[1] = sin(th);
    *count = 2;
}

static mcd_status mlcp(mcd_contact_ws *w, int g, mcd_mlcp *out)
{
    mcd_contact_block v;
    mcd_fc3d p;
    mcd_status s = mcd_contact_block_of(w, g, &v);
    if (s == MCD_OK) s = fc3d(w, g, &p);
    if (s != MCD_OK) return s;
    const int nb = v.nb, nc = v.nc, nr = nb + 3 * nc, nbeta = nb + nc * (w->nf + 1);
    const size_t n = (size_t)(nbeta + nc);
    if (mcd_contact_reserve(&w->M, n * n) || mcd_contact_reserve(&w->WT, (size_t)nr * n) ||
        mcd_contact_reserve(&w->mq, n) || mcd_contact_reserve(&w->mlo, n) ||
        mcd_contact_reserve(&w->mhi, n))
        return MCD_ERR_NOMEM;
    double *M = w->M.p, *WT = w->WT.p, *q = w->mq.p, *lo = w->mlo.p, *hi = w->mhi.p;
    int rows[2], cnt;
    double vals[2];
    for (int j = 0; j < nbeta; j++) { /* WT = W T (nr x nbeta), column j */
        t_column(w, &v, j, rows, vals, &cnt);
        for (int i = 0; i < nr; i++) {
            double t = 0.0;
            for (int c = 0; c < cnt; c++) t += v.W[(size_t)i * nr + rows[c]] * vals[c];
            WT[(size_t)i * nbeta + j] = t;
        }
    }
    memset(M, 0, n * n * sizeof *M);
    for (int i = 0; i < nbeta; i++) { /* T^T W T and q = T^T nu_free (targets included) */
        t_column(w, &v, i, rows, vals, &cnt);
        for (int j = 0; j < nbeta; j++) {
            double t = 0.0;
            for (int c = 0; c < cnt; c++) t += vals[c] * WT[(size_t)rows[c] * nbeta + j];
            M[(size_t)i * n + j] = t;
        }
        double qi = 0.0;
        for (int c = 0; c < cnt; c++) qi += vals[c] * p.q[rows[c]];
        q[i] = qi;
        lo[i] = i < nb ? -INFINITY : 0.0;
        hi[i] = INFINITY;
    }
    for (int k = 0; k < nc; k++) { /* E1, E2 (Eq. 33-34) and the sigma rows */
        const int base = nb + k * (w->nf + 1), s = nbeta + k;
        for (int l = 1; l <= w->nf; l++) {
            M[(size_t)(base + l) * n + s] = 1.0; /* sigma E + D^T nu */
            M[(size_t)s * n + base + l] = -1.0;  /* mu F_n - E^T beta */
        }
        M[(size_t)s * n + base] = p.mu[k];
        q[s] = 0.0;
        lo[s] = 0.0;
        hi[s] = INFINITY;
    }
    *out = (mcd_mlcp){.n = (int)n, .M = M, .q = q, .lo = lo, .hi = hi};
    return MCD_OK;
}

mcd_status mcd_contact_mlcp(mcd_contact_ws *w, mcd_mlcp *out)
{
    return w && out ? mlcp(w, -1, out) : MCD_ERR_ARG;
}

mcd_status mcd_contact_group_mlcp(mcd_contact_ws *w, int g, mcd_mlcp *out)
{
    return w && out && g >= 0 ? mlcp(w, g, out) : MCD_ERR_ARG;
}

/* The view's rows of impulse: finite, plus the prior impulse, and the
 * per-contact outputs. */
static mcd_status finish_impulses(mcd_contact_ws *w, const mcd_contact_block *v)
{
    const int nr = v->nb + 3 * v->nc;
    for (int l = 0; l < nr; l++) {
        const int i = mcd_contact_block_row(v, l);
        if (!isfinite(w->impulse[i])) return MCD_ERR_NONFINITE;
        w->impulse[i] += w->prior[i]; /* the impact impulse (contact_impact.c) */
    }
    for (int j = 0; j < v->nc; j++) {
        const int k = mcd_contact_block_contact(w, v, j);
        mcd_contact_rows_to_axes(w->impulse + w->nb + 3 * k, w->out_impulse + 3 * k);
    }
    return MCD_OK;
}

static mcd_status take_fc3d(mcd_contact_ws *w, int g, const double *r)
{
    mcd_contact_block v;
    mcd_status s = mcd_contact_block_of(w, g, &v);
    if (s != MCD_OK) return s;
    const int nr = v.nb + 3 * v.nc;
    if (!r && nr > 0) return MCD_ERR_ARG;
    for (int l = 0; l < nr; l++) w->impulse[mcd_contact_block_row(&v, l)] = r[l];
    return finish_impulses(w, &v);
}

static mcd_status take_mlcp(mcd_contact_ws *w, int g, const double *z)
{
    mcd_contact_block v;
    mcd_status s = mcd_contact_block_of(w, g, &v);
    if (s != MCD_OK) return s;
    const int nr = v.nb + 3 * v.nc, nbeta = v.nb + v.nc * (w->nf + 1);
    if (!z && nr > 0) return MCD_ERR_ARG;
    for (int l = 0; l < nr; l++) w->impulse[mcd_contact_block_row(&v, l)] = 0.0;
    for (int j = 0; j < nbeta; j++) { /* impulse rows = T beta */
        int rows[2], cnt;
        double vals[2];
        t_column(w, &v, j, rows, vals, &cnt);
        for (int c = 0; c < cnt; c++)
            w->impulse[mcd_contact_block_row(&v, rows[c])] += vals[c] * z[j];
    }
    return finish_impulses(w, &v);
}

mcd_status mcd_contact_take_fc3d(mcd_contact_ws *w, const double *r)
{
    return w ? take_fc3d(w, -1, r) : MCD_ERR_ARG;
}
mcd_status mcd_contact_take_mlcp(mcd_contact_ws *w, const double *z)
{
    return w ? take_mlcp(w, -1, z) : MCD_ERR_ARG;
}
mcd_status mcd_contact_group_take_fc3d(mcd_contact_ws *w, int g, const double *r)
{
    return w && g >= 0 ? take_fc3d(w, g, r) : MCD_ERR_ARG;
}
mcd_status mcd_contact_group_take_mlcp(mcd_contact_ws *w, int g, const double *z)
{
    return w && g >= 0 ? take_mlcp(w, g, z) : MCD_ERR_ARG;
}

mcd_status mcd_contact_apply_rows(const mcd_model *m, mcd_data *d, mcd_contact_ws *w,
                                  const double *rows, double *dqd)
{
    const int r = (int)w->rows;
    memset(w->F_pts, 0, (size_t)r * w->npts * sizeof *w->F_pts);
    for (int i = 0; i < w->nrows; i++) { /* Q^T rows, per point */
        const double *a = w->coef + 6 + i * 6 - r, p = rows[i];
        double *fa = w->F_pts + (size_t)r * w->row_pa[i];
        for (int j = 0; j < r; j++) fa[j] += p * a[j];
        if (w->row_pb[i] >= 0) {
            double *fb = w->F_pts + (size_t)r * w->row_pb[i];
            for (int j = 0; j < r; j++) fb[j] -= p * a[j];
        }
    }
    return mcd_osc_apply(m, d, w->npts, w->pts, w->rows, w->F_pts, dqd);
}

mcd_status mcd_contact_velocity_update(const mcd_model *m, mcd_data *d, mcd_contact_ws *w,
                                       double *qd_out)
{
    if (!m || !d || !w || !qd_out) return MCD_ERR_ARG;
    mcd_status s = mcd_contact_apply_rows(m, d, w, w->impulse, w->dq);
    if (s != MCD_OK) return s;
    for (int i = 0; i < m->nv; i++) qd_out[i] = w->qd_free[i] + w->dq[i];
    return MCD_OK;
}

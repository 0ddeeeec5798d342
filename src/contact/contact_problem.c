/* The step's complementarity problems from the set-up rows:
 *  - MNCP (Eq. 55-56) as a 3D frictional-contact problem: W = X Lambda X^T,
 *    q = nu_free with the normal targets, mu per contact;
 *  - MLCP (Eq. 43-44): M = [[X Lambda X^T, E1], [E2, 0]] with X = [Q_b;
 *    D^T Q_u], built from W by the per-contact map T_k from (F_n, beta) to
 *    (eta, f, o) impulses, D_k = [eta, d_1 .. d_nf]. */
#include "contact_internal.h"

#include <math.h>
#include <string.h>

mcd_status mcd_contact_fc3d(mcd_contact_ws *w, mcd_fc3d *out)
{
    if (!w || !out) return MCD_ERR_ARG;
    out->nc = w->nc;
    out->nb = w->nb;
    out->W = w->W;
    out->q = w->fc_q;
    out->mu = w->mu;
    return MCD_OK;
}

/* Column j of T (size nrows) restricted: T maps MLCP impulse unknowns
 * (p_b, then F_n, beta_1..beta_nf per contact) to rows (p_b, (F_n, F_f, F_o)). */
static void t_column(const mcd_contact_ws *w, int j, int *row, double *val, int *count)
{
    const int nb = w->nb, per = w->nf + 1;
    if (j < nb) {
        row[0] = j, val[0] = 1.0, *count = 1;
        return;
    }
    const int k = (j - nb) / per, l = (j - nb) % per, base = nb + 3 * k;
    if (l == 0) {
        row[0] = base, val[0] = 1.0, *count = 1;
        return;
    }
    const double th = w->theta[w->max_nf * k + l - 1];
    row[0] = base + 1, val[0] = cos(th);
    row[1] = base + 2, val[1] = sin(th);
    *count = 2;
}

mcd_status mcd_contact_mlcp(mcd_contact_ws *w, mcd_mlcp *out)
{
    if (!w || !out) return MCD_ERR_ARG;
    const int nb = w->nb, nc = w->nc, nr = w->nrows, nbeta = nb + nc * (w->nf + 1);
    const int n = nbeta + nc;
    double *M = w->mlcp.M;
    int rows[2], cnt;
    double vals[2];
    for (int j = 0; j < nbeta; j++) { /* WT = W T (nr x nbeta), column j */
        t_column(w, j, rows, vals, &cnt);
        for (int i = 0; i < nr; i++) {
            double t = 0.0;
            for (int c = 0; c < cnt; c++) t += w->W[(size_t)i * nr + rows[c]] * vals[c];
            w->WT[(size_t)i * nbeta + j] = t;
        }
    }
    memset(M, 0, (size_t)n * n * sizeof *M);
    for (int i = 0; i < nbeta; i++) { /* T^T W T and q = T^T nu_free (targets included) */
        t_column(w, i, rows, vals, &cnt);
        for (int j = 0; j < nbeta; j++) {
            double t = 0.0;
            for (int c = 0; c < cnt; c++) t += vals[c] * w->WT[(size_t)rows[c] * nbeta + j];
            M[(size_t)i * n + j] = t;
        }
        double qi = 0.0;
        for (int c = 0; c < cnt; c++) qi += vals[c] * w->fc_q[rows[c]];
        w->mlcp.q[i] = qi;
        w->mlcp.lo[i] = i < nb ? -INFINITY : 0.0;
        w->mlcp.hi[i] = INFINITY;
    }
    for (int k = 0; k < nc; k++) { /* E1, E2 (Eq. 33-34) and the sigma rows */
        const int base = nb + k * (w->nf + 1), s = nbeta + k;
        for (int l = 1; l <= w->nf; l++) {
            M[(size_t)(base + l) * n + s] = 1.0; /* sigma E + D^T nu */
            M[(size_t)s * n + base + l] = -1.0;  /* mu F_n - E^T beta */
        }
        M[(size_t)s * n + base] = w->mu[k];
        w->mlcp.q[s] = 0.0;
        w->mlcp.lo[s] = 0.0;
        w->mlcp.hi[s] = INFINITY;
    }
    w->mlcp.n = n;
    *out = w->mlcp;
    return MCD_OK;
}

static mcd_status finish_impulses(mcd_contact_ws *w)
{
    for (int i = 0; i < w->nrows; i++) {
        if (!isfinite(w->impulse[i])) return MCD_ERR_NONFINITE;
        w->impulse[i] += w->prior[i]; /* the impact impulse (contact_impact.c) */
    }
    for (int k = 0; k < w->nc; k++) { /* rows (F_n, F_f, F_o) -> (F_f, F_o, F_n) */
        const double *r = w->impulse + w->nb + 3 * k;
        double *o = w->out_impulse + 3 * k;
        o[0] = r[1], o[1] = r[2], o[2] = r[0];
    }
    return MCD_OK;
}

mcd_status mcd_contact_take_fc3d(mcd_contact_ws *w, const double *r)
{
    if (!w || (!r && w->nrows > 0)) return MCD_ERR_ARG;
    memcpy(w->impulse, r, (size_t)w->nrows * sizeof *w->impulse);
    return finish_impulses(w);
}

mcd_status mcd_contact_take_mlcp(mcd_contact_ws *w, const double *z)
{
    if (!w || (!z && w->nrows > 0)) return MCD_ERR_ARG;
    const int nbeta = w->nb + w->nc * (w->nf + 1);
    memset(w->impulse, 0, (size_t)w->nrows * sizeof *w->impulse);
    for (int j = 0; j < nbeta; j++) { /* impulse rows = T beta */
        int rows[2], cnt;
        double vals[2];
        t_column(w, j, rows, vals, &cnt);
        for (int c = 0; c < cnt; c++) w->impulse[rows[c]] += vals[c] * z[j];
    }
    return finish_impulses(w);
}

mcd_status mcd_contact_velocity_update(const mcd_model *m, mcd_data *d, mcd_contact_ws *w,
                                       double *qd_out)
{
    if (!m || !d || !w || !qd_out) return MCD_ERR_ARG;
    const int r = (int)w->rows;
    memset(w->F_pts, 0, (size_t)r * w->npts * sizeof *w->F_pts);
    for (int i = 0; i < w->nrows; i++) { /* Q^T impulse, per point */
        const double *a = w->coef + 6 + i * 6 - r, p = w->impulse[i];
        double *fa = w->F_pts + (size_t)r * w->row_pa[i];
        for (int j = 0; j < r; j++) fa[j] += p * a[j];
        if (w->row_pb[i] >= 0) {
            double *fb = w->F_pts + (size_t)r * w->row_pb[i];
            for (int j = 0; j < r; j++) fb[j] -= p * a[j];
        }
    }
    mcd_status s = mcd_osc_apply(m, d, w->npts, w->pts, w->rows, w->F_pts, w->dq);
    if (s != MCD_OK) return s;
    for (int i = 0; i < m->nv; i++) qd_out[i] = w->qd_free[i] + w->dq[i];
    return MCD_OK;
}

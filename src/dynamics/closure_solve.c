/* Loop-closure linear algebra: the workspace, the closure compliance
 * A = Q_b Lambda Q_b^T from the O(N) Lambda, its (pseudo-)inverse by a
 * symmetric eigen-decomposition (LAPACK dsyev), and the O(N) application
 * of the constraint forces M^{-1} J^T Q_b^T p. */
#include "../base/lapack.h"
#include "closure_internal.h"
#include "osc_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void mcd_closure_ws_free(mcd_data *d)
{
    mcd_closure_ws *w = d ? d->closure : NULL;
    if (!w) return;
    free(w->pts), free(w->pt_a), free(w->pt_b), free(w->coef), free(w->row_closure);
    free(w->row_pa), free(w->row_pb);
    free(w->Lambda), free(w->A), free(w->evec), free(w->eval), free(w->work);
    free(w->rhs), free(w->sol), free(w->F), free(w->vA), free(w->vB), free(w->aA), free(w->aB);
    free(w->dq);
    free(w);
    d->closure = NULL;
}

mcd_status mcd_closure_ws_create(mcd_data *d)
{
    const mcd_model *m = d->model;
    if (m->nclosure == 0) return MCD_OK;
    mcd_closure_ws *w = calloc(1, sizeof *w);
    if (!w) return MCD_ERR_NOMEM;
    d->closure = w;
    const size_t nc = (size_t)m->nclosure, r = (size_t)m->nclosure_rows, np = 2 * nc;
    w->rows = (int)r;
    w->pts = malloc(np * sizeof *w->pts);
    w->pt_a = malloc(nc * sizeof *w->pt_a);
    w->pt_b = malloc(nc * sizeof *w->pt_b);
    w->coef = malloc(6 * r * sizeof *w->coef);
    w->row_closure = malloc(r * sizeof *w->row_closure);
    w->row_pa = malloc(r * sizeof *w->row_pa);
    w->row_pb = malloc(r * sizeof *w->row_pb);
    w->Lambda = malloc(36 * np * np * sizeof *w->Lambda);
    w->A = malloc(r * r * sizeof *w->A);
    w->evec = malloc(r * r * sizeof *w->evec);
    w->eval = malloc(r * sizeof *w->eval);
    w->rhs = malloc(r * sizeof *w->rhs);
    w->sol = malloc(r * sizeof *w->sol);
    w->F = malloc(6 * np * sizeof *w->F);
    w->vA = malloc(6 * nc * sizeof *w->vA);
    w->vB = malloc(6 * nc * sizeof *w->vB);
    w->aA = malloc(6 * nc * sizeof *w->aA);
    w->aB = malloc(6 * nc * sizeof *w->aB);
    w->dq = malloc((size_t)(m->nv > 0 ? m->nv : 1) * sizeof *w->dq);
    int n = (int)r, info = 0, lwork = -1;
    double query = 0.0;
    dsyev_("V", "U", &n, w->A, &n, w->eval, &query, &lwork, &info);
    w->lwork = info == 0 && query > 3 * r ? (int)query : 3 * (int)r + 1;
    w->work = malloc((size_t)w->lwork * sizeof *w->work);
    if (!w->pts || !w->pt_a || !w->pt_b || !w->coef || !w->row_closure || !w->row_pa ||
        !w->row_pb || !w->Lambda || !w->A || !w->evec || !w->eval || !w->rhs || !w->sol || !w->F ||
        !w->vA || !w->vB || !w->aA || !w->aB || !w->dq || !w->work) {
        mcd_closure_ws_free(d);
        return MCD_ERR_NOMEM;
    }
    if ((size_t)2 * nc > (size_t)d->osc->capacity) return mcd_osc_reserve(d, (int)(2 * nc));
    return MCD_OK;
}

mcd_status mcd_closure_compliance(const mcd_model *m, mcd_data *d)
{
    mcd_closure_ws *w = d->closure;
    mcd_status s = mcd_osc_compliance(m, d, w->npts, w->pts, MCD_OSC_SPATIAL, w->Lambda);
    if (s == MCD_OK)
        mcd_osc_row_compliance(w->npts, w->Lambda, MCD_OSC_SPATIAL, w->rows, w->row_pa, w->row_pb,
                               w->coef, w->A);
    return s;
}

mcd_status mcd_closure_solve(mcd_data *d)
{
    mcd_closure_ws *w = d->closure;
    int n = w->rows, info = 0;
    memcpy(w->evec, w->A, (size_t)n * n * sizeof *w->evec);
    dsyev_("V", "U", &n, w->evec, &n, w->eval, w->work, &w->lwork, &info);
    if (info != 0 || !isfinite(w->eval[n - 1]))
        return mcd_fail(&d->err, MCD_ERR_SINGULAR,
                        "closure compliance Q_b Lambda Q_b^T: eigen-decomposition failed");
    const double thr = 1e-10 * fmax(w->eval[n - 1], 1e-300);
    int rank = 0;
    memset(w->sol, 0, (size_t)n * sizeof *w->sol);
    for (int k = 0; k < n; k++) { /* column k of evec (column-major) is an eigenvector */
        const double *v = w->evec + (size_t)k * n;
        if (!(w->eval[k] > thr)) continue;
        rank++;
        double c = 0.0;
        for (int i = 0; i < n; i++) c += v[i] * w->rhs[i];
        c /= w->eval[k];
        for (int i = 0; i < n; i++) w->sol[i] += c * v[i];
    }
    if (rank < n)
        mcd_warn(d,
                 "redundant loop closures: constraint compliance has rank %d of %d rows; "
                 "solved in the least-squares sense",
                 rank, n);
    return MCD_OK;
}

void mcd_closure_apply(const mcd_model *m, mcd_data *d, double *dq)
{
    mcd_closure_ws *w = d->closure;
    memset(w->F, 0, 6 * (size_t)w->npts * sizeof *w->F);
    for (int i = 0; i < w->rows; i++) {
        const double *a = w->coef + 6 * i, p = w->sol[i];
        for (int k = 0; k < 6; k++) {
            w->F[6 * w->row_pa[i] + k] += p * a[k];
            if (w->row_pb[i] >= 0) w->F[6 * w->row_pb[i] + k] -= p * a[k];
        }
    }
    mcd_osc_apply(m, d, w->npts, w->pts, MCD_OSC_SPATIAL, w->F, dq);
}

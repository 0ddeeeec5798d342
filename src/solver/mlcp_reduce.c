/* MLCP to LCP: bound shift and Schur complement of the free rows
 * (mlcp_reduce.h). */
#include "mlcp_reduce.h"

#include "../base/lapack.h"
#include "dense.h"
#include "mlcp_rows.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

/* The bound beta_k the complementarity row sits on. */
static double row_bound(const mcd_mlcp *p, int row, double sign)
{
    return sign > 0 ? p->lo[row] : p->hi[row];
}

static mcd_status classify(const mcd_mlcp *p, mcd_mlcp_reduced *r, mcd_error *err)
{
    r->nf = r->nc = 0;
    for (int i = 0; i < p->n; i++) {
        switch (mcd_mlcp_row_kind(p->lo[i], p->hi[i])) {
        case MCD_ROW_FREE:
            r->free_rows[r->nf++] = i;
            break;
        case MCD_ROW_LOWER:
            r->sign[r->nc] = 1.0;
            r->comp_rows[r->nc++] = i;
            break;
        case MCD_ROW_UPPER:
            r->sign[r->nc] = -1.0;
            r->comp_rows[r->nc++] = i;
            break;
        case MCD_ROW_BOX:
            return mcd_fail(err, MCD_ERR_UNSUPPORTED,
                            "mlcp-lemke: row %d has two finite bounds [%g, %g]; use a PFB solver",
                            i, p->lo[i], p->hi[i]);
        }
    }
    return MCD_OK;
}

/* qt = q + M_{:,C} beta. */
static void shift_q(const mcd_mlcp *p, mcd_mlcp_reduced *r)
{
    for (int i = 0; i < p->n; i++) {
        const double *Mi = p->M + (size_t)i * p->n;
        double s = p->q[i];
        for (int k = 0; k < r->nc; k++) {
            int c = r->comp_rows[k];
            s += Mi[c] * row_bound(p, c, r->sign[k]);
        }
        r->qt[i] = s;
    }
}

/* LU of M_FF (column-major) with a condition check, then X. */
static mcd_status factor_free_block(const mcd_mlcp *p, mcd_mlcp_reduced *r, mcd_error *err)
{
    int nf = r->nf, n = p->n, info;
    double anorm = 0.0; /* 1-norm for dgecon */
    for (int j = 0; j < nf; j++) {
        double colsum = 0.0;
        for (int i = 0; i < nf; i++) {
            double v = p->M[(size_t)r->free_rows[i] * n + r->free_rows[j]];
            r->lu[(size_t)j * nf + i] = v;
            colsum += fabs(v);
        }
        anorm = fmax(anorm, colsum);
    }
    dgetrf_(&nf, &nf, r->lu, &nf, r->ipiv, &info);
    if (info > 0)
        return mcd_fail(err, MCD_ERR_SINGULAR,
                        "mlcp-lemke: the block of the %d equality rows is singular (zero pivot %d)",
                        nf, info);
    double rcond;
    dgecon_("1", &nf, r->lu, &nf, &anorm, &rcond, r->work, r->iwork, &info);
    if (!(rcond >= DBL_EPSILON))
        return mcd_fail(err, MCD_ERR_SINGULAR,
                        "mlcp-lemke: the block of the %d equality rows is singular to working "
                        "precision (reciprocal condition %.3g)",
                        nf, rcond);
    for (int i = 0; i < nf; i++) {
        const double *Mi = p->M + (size_t)r->free_rows[i] * n;
        for (int l = 0; l < r->nc; l++) r->X[(size_t)l * nf + i] = Mi[r->comp_rows[l]] * r->sign[l];
        r->X[(size_t)r->nc * nf + i] = r->qt[r->free_rows[i]];
    }
    int nrhs = r->nc + 1;
    dgetrs_("N", &nf, &nrhs, r->lu, &nf, r->ipiv, r->X, &nf, &info);
    return MCD_OK;
}

/* A = S (M_CC S - M_CF X_zeta), b = S (qt_C - M_CF X_q). */
static void schur_complement(const mcd_mlcp *p, mcd_mlcp_reduced *r)
{
    int nf = r->nf, nc = r->nc, n = p->n;
    double *mcf = r->work; /* row k of M_CF */
    for (int k = 0; k < nc; k++) {
        const double *Mk = p->M + (size_t)r->comp_rows[k] * n;
        double sk = r->sign[k];
        for (int i = 0; i < nf; i++) mcf[i] = Mk[r->free_rows[i]];
        for (int l = 0; l < nc; l++) {
            double elim = mcd_dense_dot(nf, mcf, r->X + (size_t)l * nf);
            r->A[(size_t)k * nc + l] = sk * (Mk[r->comp_rows[l]] * r->sign[l] - elim);
        }
        r->b[k] = sk * (r->qt[r->comp_rows[k]] - mcd_dense_dot(nf, mcf, r->X + (size_t)nc * nf));
    }
}

mcd_status mcd_mlcp_reduce(const mcd_mlcp *p, mcd_mlcp_reduced *r, mcd_error *err)
{
    mcd_status st = classify(p, r, err);
    if (st != MCD_OK) return st;
    shift_q(p, r);
    if (r->nf > 0) {
        st = factor_free_block(p, r, err);
        if (st != MCD_OK) return st;
    }
    schur_complement(p, r);
    return MCD_OK;
}

void mcd_mlcp_lcp_start(const mcd_mlcp *p, const mcd_mlcp_reduced *r, const double *z, double *zeta)
{
    for (int k = 0; k < r->nc; k++) {
        int c = r->comp_rows[k];
        zeta[k] = r->sign[k] * (z[c] - row_bound(p, c, r->sign[k]));
    }
}

void mcd_mlcp_expand(const mcd_mlcp *p, const mcd_mlcp_reduced *r, const double *zeta, double *z)
{
    for (int k = 0; k < r->nc; k++) {
        int c = r->comp_rows[k];
        z[c] = row_bound(p, c, r->sign[k]) + r->sign[k] * zeta[k];
    }
    for (int i = 0; i < r->nf; i++) {
        double s = r->X[(size_t)r->nc * r->nf + i];
        for (int l = 0; l < r->nc; l++) s += r->X[(size_t)l * r->nf + i] * zeta[l];
        z[r->free_rows[i]] = -s;
    }
}

/* Complementarity problem types: allocation and validation (problem.h). */
#include "mcdyn/problem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

mcd_status mcd_mlcp_alloc(mcd_mlcp *p, int n, mcd_error *err)
{
    if (!p || n < 0) return mcd_fail(err, MCD_ERR_ARG, "mcd_mlcp_alloc: invalid size %d", n);
    size_t nn = (size_t)n;
    memset(p, 0, sizeof *p);
    p->M = calloc(nn * nn + 1, sizeof *p->M);
    p->q = calloc(nn + 1, sizeof *p->q);
    p->lo = calloc(nn + 1, sizeof *p->lo);
    p->hi = malloc((nn + 1) * sizeof *p->hi);
    if (!p->M || !p->q || !p->lo || !p->hi) {
        mcd_mlcp_free(p);
        return mcd_fail(err, MCD_ERR_NOMEM, "mcd_mlcp_alloc: out of memory for n = %d", n);
    }
    for (int i = 0; i < n; i++) p->hi[i] = INFINITY;
    p->n = n;
    return MCD_OK;
}

void mcd_mlcp_free(mcd_mlcp *p)
{
    if (!p) return;
    free(p->M);
    free(p->q);
    free(p->lo);
    free(p->hi);
    memset(p, 0, sizeof *p);
}

mcd_status mcd_fc3d_alloc(mcd_fc3d *p, int nc, int nb, mcd_error *err)
{
    if (!p || nc < 0 || nb < 0)
        return mcd_fail(err, MCD_ERR_ARG, "mcd_fc3d_alloc: invalid sizes nc = %d, nb = %d", nc, nb);
    size_t n = (size_t)nb + 3 * (size_t)nc;
    memset(p, 0, sizeof *p);
    p->W = calloc(n * n + 1, sizeof *p->W);
    p->q = calloc(n + 1, sizeof *p->q);
    p->mu = calloc((size_t)nc + 1, sizeof *p->mu);
    if (!p->W || !p->q || !p->mu) {
        mcd_fc3d_free(p);
        return mcd_fail(err, MCD_ERR_NOMEM, "mcd_fc3d_alloc: out of memory for nc = %d, nb = %d",
                        nc, nb);
    }
    p->nc = nc;
    p->nb = nb;
    return MCD_OK;
}

void mcd_fc3d_free(mcd_fc3d *p)
{
    if (!p) return;
    free(p->W);
    free(p->q);
    free(p->mu);
    memset(p, 0, sizeof *p);
}

/* Index of the first non-finite entry of x (len), or -1. First the sum
 * of x_i - x_i, which is 0 exactly when every x_i is finite (inf - inf and
 * NaN give NaN), in four independent partial sums (a problem is checked on
 * every solve: W of a group of n rows has n^2 entries); the index only
 * when that fails. */
static long first_nonfinite(const double *x, size_t len)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t i = 0;
    for (; i + 4 <= len; i += 4) {
        s0 += x[i] - x[i];
        s1 += x[i + 1] - x[i + 1];
        s2 += x[i + 2] - x[i + 2];
        s3 += x[i + 3] - x[i + 3];
    }
    for (; i < len; i++) s0 += x[i] - x[i];
    if ((s0 + s1) + (s2 + s3) == 0.0) return -1;
    for (i = 0; i < len; i++)
        if (!isfinite(x[i])) return (long)i;
    return -1;
}

/* Checks a dense square matrix and a vector for NaN/Inf; `what` names them. */
static mcd_status check_matrix_vector(const double *A, const double *q, int n, const char *what,
                                      mcd_error *err)
{
    long bad = first_nonfinite(A, (size_t)n * (size_t)n);
    if (bad >= 0)
        return mcd_fail(err, MCD_ERR_NONFINITE, "%s: non-finite matrix entry (%ld, %ld) = %g", what,
                        bad / n, bad % n, A[bad]);
    bad = first_nonfinite(q, (size_t)n);
    if (bad >= 0)
        return mcd_fail(err, MCD_ERR_NONFINITE, "%s: non-finite q[%ld] = %g", what, bad, q[bad]);
    return MCD_OK;
}

static mcd_status check_bounds(const mcd_mlcp *p, mcd_error *err)
{
    for (int i = 0; i < p->n; i++) {
        double lo = p->lo[i], hi = p->hi[i];
        if (isnan(lo) || isnan(hi) || lo == INFINITY || hi == -INFINITY)
            return mcd_fail(err, MCD_ERR_NONFINITE, "mlcp: invalid bounds lo[%d] = %g, hi[%d] = %g",
                            i, lo, i, hi);
        if (lo > hi)
            return mcd_fail(err, MCD_ERR_ARG, "mlcp: lo[%d] = %g > hi[%d] = %g", i, lo, i, hi);
    }
    return MCD_OK;
}

mcd_status mcd_mlcp_check(const mcd_mlcp *p, mcd_error *err)
{
    if (!p || p->n < 0) return mcd_fail(err, MCD_ERR_ARG, "mlcp: missing problem or negative n");
    if (p->n > 0 && (!p->M || !p->q || !p->lo || !p->hi))
        return mcd_fail(err, MCD_ERR_ARG, "mlcp: NULL array (M, q, lo or hi)");
    mcd_status st = check_matrix_vector(p->M, p->q, p->n, "mlcp", err);
    if (st != MCD_OK) return st;
    return check_bounds(p, err);
}

static mcd_status check_friction(const mcd_fc3d *p, mcd_error *err)
{
    for (int k = 0; k < p->nc; k++) {
        if (!isfinite(p->mu[k]))
            return mcd_fail(err, MCD_ERR_NONFINITE, "fc3d: non-finite mu[%d] = %g", k, p->mu[k]);
        if (p->mu[k] < 0)
            return mcd_fail(err, MCD_ERR_ARG, "fc3d: negative friction mu[%d] = %g", k, p->mu[k]);
    }
    return MCD_OK;
}

mcd_status mcd_fc3d_check(const mcd_fc3d *p, mcd_error *err)
{
    if (!p || p->nc < 0 || p->nb < 0)
        return mcd_fail(err, MCD_ERR_ARG, "fc3d: missing problem or negative size");
    int n = mcd_fc3d_size(p);
    if (n > 0 && (!p->W || !p->q || (p->nc > 0 && !p->mu)))
        return mcd_fail(err, MCD_ERR_ARG, "fc3d: NULL array (W, q or mu)");
    mcd_status st = check_matrix_vector(p->W, p->q, n, "fc3d", err);
    if (st != MCD_OK) return st;
    return check_friction(p, err);
}

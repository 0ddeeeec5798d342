/* Cone projection, the CCP stopping rule, default options and input
 * validation shared by the PGS/PJ and APGD solvers (include/mcdyn/ccp.h). */
#include "ccp_common.h"
#include "../base/clock.h"

#include <math.h>
#include <string.h>

enum { N = MCD_FC3D_N, T1 = MCD_FC3D_T1, T2 = MCD_FC3D_T2, ROWS = MCD_FC3D_ROWS };

/* |a - b| of two contact 3-vectors (b = NULL: |a|). */
static double dist3(const double *a, const double *b)
{
    double s = 0.0;
    for (int i = 0; i < ROWS; i++) {
        double d = a[i] - (b ? b[i] : 0.0);
        s += d * d;
    }
    return sqrt(s);
}

mcd_ccp_opts mcd_ccp_default_opts(void)
{
    mcd_ccp_opts o = {10000, 1e-10, 0.6, 1.0, 0, 1e-6};
    return o;
}

void mcd_ccp_proj3(double mu, double *x)
{
    double t = hypot(x[T1], x[T2]);
    if (t <= mu * x[N] && x[N] >= 0) return; /* inside K_mu (mu = 0, t = 0: x_n >= 0 too) */
    if (mu * t <= -x[N]) {
        x[N] = x[T1] = x[T2] = 0.0;
        return;
    }
    /* Here t > 0: t = 0 falls in one of the two cases above. */
    double n = (x[N] + mu * t) / (1.0 + mu * mu);
    double s = mu * n / t;
    x[N] = n;
    x[T1] *= s;
    x[T2] *= s;
}

mcd_status mcd_ccp_project(double mu, double x[3])
{
    if (!x || isnan(mu) || mu < 0) return MCD_ERR_ARG;
    if (!isfinite(mu) || !isfinite(x[N]) || !isfinite(x[T1]) || !isfinite(x[T2]))
        return MCD_ERR_NONFINITE;
    mcd_ccp_proj3(mu, x);
    return MCD_OK;
}

/* Complementarity of contact k in velocity units: the natural map
 * |gamma_k - Pi_K(gamma_k - eta_k d_k)| / eta_k, eta_k = 3 / trace(N_kk)
 * (PGS's block step, an impulse per velocity). It is 0 exactly when
 * gamma_k in K, d_k in K^* and gamma_k . d_k = 0; near a solution it is
 * |d_k| on a sticking contact and |N_kk gamma_k| (the velocity change the
 * impulse causes) on a separating one, whatever the size of gamma_k. A
 * block with trace(N_kk) <= 0 (an impulse that moves nothing) measures
 * |gamma_k . d_k| / |gamma_k|, the velocity along the impulse. */
static double natural_map(const mcd_fc3d *p, int k, const double *g, const double *dk)
{
    int n = mcd_fc3d_size(p), i0 = p->nb + ROWS * k;
    double tr = 0.0; /* trace(N_kk) */
    for (int i = 0; i < ROWS; i++) tr += p->W[(size_t)(i0 + i) * n + i0 + i];
    if (!(tr > 0)) {
        double gn = dist3(g, NULL), gd = 0.0;
        for (int i = 0; i < ROWS; i++) gd += g[i] * dk[i];
        return gn > 0 ? fabs(gd) / gn : 0.0;
    }
    double eta = ROWS / tr, x[ROWS];
    for (int i = 0; i < ROWS; i++) x[i] = g[i] - eta * dk[i];
    mcd_ccp_proj3(p->mu[k], x);
    return dist3(g, x) / eta;
}

void mcd_ccp_measure(const mcd_fc3d *p, const double *gamma, const double *d, mcd_ccp_stats *st)
{
    double vp = 0.0, vd = 0.0, vc = 0.0;
    for (int i = 0; i < p->nb; i++) vd = fmax(vd, fabs(d[i]));
    for (int k = 0; k < p->nc; k++) {
        const double *g = gamma + p->nb + ROWS * k, *dk = d + p->nb + ROWS * k;
        double mu = p->mu[k], x[ROWS], y[ROWS];
        for (int i = 0; i < ROWS; i++) x[i] = g[i], y[i] = -dk[i];
        mcd_ccp_proj3(mu, x);
        vp = fmax(vp, dist3(g, x));
        /* Moreau: dist(d, K^*) = |Pi_{polar(K^*)}(d)| = |Pi_{-K}(d)| = |Pi_K(-d)|. */
        mcd_ccp_proj3(mu, y);
        vd = fmax(vd, dist3(y, NULL));
        vc = fmax(vc, natural_map(p, k, g, dk));
    }
    /* fmax drops NaN: make a non-finite iterate visible in the residual. */
    for (int i = 0; i < mcd_fc3d_size(p); i++)
        if (!isfinite(gamma[i]) || !isfinite(d[i])) vp = NAN;
    st->violation_primal = vp;
    st->violation_dual = vd;
    st->complementarity = vc;
    st->residual = isnan(vp) ? NAN : fmax(vp, fmax(vd, vc));
}

mcd_status mcd_ccp_residual(const mcd_fc3d *p, const double *gamma, double *d_scratch,
                            mcd_ccp_stats *st)
{
    if (!p || !gamma || !d_scratch || !st || p->nb < 0 || p->nc < 0) return MCD_ERR_ARG;
    if (mcd_fc3d_size(p) > 0 && (!p->W || !p->q || (p->nc > 0 && !p->mu))) return MCD_ERR_ARG;
    mcd_dense_matvec(mcd_fc3d_size(p), p->W, gamma, p->q, d_scratch);
    mcd_ccp_measure(p, gamma, d_scratch, st);
    return MCD_OK;
}

size_t mcd_ccp_work_size(const mcd_fc3d *p)
{
    if (!p || p->nb < 0 || p->nc < 0) return 0;
    return 6 * (size_t)mcd_fc3d_size(p);
}

static mcd_status check_arguments(const char *name, const mcd_fc3d *p, const mcd_ccp_opts *o,
                                  const double *gamma, const double *work, int need_relax,
                                  mcd_error *err)
{
    if (!p || !o || !gamma || !work)
        return mcd_fail(err, MCD_ERR_ARG, "%s: NULL problem, options, gamma or work", name);
    mcd_status s = mcd_fc3d_check(p, err);
    if (s != MCD_OK) return s;
    if (o->max_iter <= 0 || !(o->tol > 0) || !isfinite(o->tol))
        return mcd_fail(err, MCD_ERR_ARG, "%s: need max_iter > 0 and finite tol > 0 (got %d, %g)",
                        name, o->max_iter, o->tol);
    if (need_relax && (!(o->omega > 0 && o->omega < 2) || !(o->lambda > 0 && o->lambda <= 1) ||
                       (o->jacobi != 0 && o->jacobi != 1)))
        return mcd_fail(err, MCD_ERR_ARG,
                        "%s: need omega in (0, 2), lambda in (0, 1], jacobi 0 or 1 "
                        "(got %g, %g, %d)",
                        name, o->omega, o->lambda, o->jacobi);
    int n = mcd_fc3d_size(p);
    for (int i = 0; i < n; i++)
        if (!isfinite(gamma[i]))
            return mcd_fail(err, MCD_ERR_NONFINITE, "%s: initial gamma[%d] is not finite", name, i);
    return MCD_OK;
}

mcd_status mcd_ccp_start(const char *name, const mcd_fc3d *p, const mcd_ccp_opts *o,
                         const double *gamma, const double *work, int need_relax, double t0,
                         mcd_ccp_stats *st, mcd_error *err)
{
    memset(st, 0, sizeof *st);
    mcd_status s = check_arguments(name, p, o, gamma, work, need_relax, err);
    if (s != MCD_OK) {
        st->status = s;
        st->seconds = mcd_clock_seconds() - t0;
    }
    return s;
}

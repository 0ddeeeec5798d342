/* APGD for the CCP: Nesterov-accelerated projected gradient descent with
 * backtracking on the Lipschitz estimate and gradient restart (Mazhar,
 * Heyn, Negrut & Tasora 2015; restart as O'Donoghue & Candes 2015); see
 * include/mcdyn/ccp.h. */
#include "ccp_common.h"
#include "../base/clock.h"

#include <math.h>
#include <string.h>

#define MAX_BACKTRACK 100 /* doublings of L per iteration (2^100 covers any finite N) */

/* Projects every contact block of x (bilateral rows are free). */
static void project_all(const mcd_fc3d *p, double *x)
{
    for (int k = 0; k < p->nc; k++) mcd_ccp_proj3(p->mu[k], x + p->nb + MCD_FC3D_ROWS * k);
}

mcd_status mcd_ccp_solve_apgd(const mcd_fc3d *p, const mcd_ccp_opts *o, double *gamma, double *work,
                              mcd_ccp_stats *st, mcd_error *err)
{
    const char *name = "ccp-apgd";
    double t0 = mcd_clock_seconds();
    mcd_ccp_stats local;
    if (!st) st = &local;
    mcd_status s = mcd_ccp_start(name, p, o, gamma, work, 0, t0, st, err);
    if (s != MCD_OK) return s;
    int n = mcd_fc3d_size(p);
    size_t bytes = (size_t)n * sizeof(double);
    double *y = work, *g = work + n, *dl = work + 2 * n, *ndl = work + 3 * n, *d = work + 4 * n,
           *best = work + 5 * n;

    /* L_0 = |N e| / |e| with e = ones. */
    for (int i = 0; i < n; i++) y[i] = 1.0;
    double ne = 0.0;
    for (int i = 0; i < n; i++) {
        const double *row = p->W + (size_t)i * n;
        double si = 0.0;
        for (int j = 0; j < n; j++) si += row[j];
        ne += si * si;
    }
    double L = n > 0 ? sqrt(ne / n) : 1.0;
    if (!(L > 0) || !isfinite(L)) L = 1.0;

    project_all(p, gamma);
    memcpy(y, gamma, bytes);
    mcd_ccp_stats cur = {0}, bst;
    mcd_dense_matvec(n, p->W, gamma, p->q, d);
    mcd_ccp_measure(p, gamma, d, &cur);
    bst = cur;
    memcpy(best, gamma, bytes);
    double theta = 1.0;
    int it = 0, diverged = 0;
    while (!(bst.residual <= o->tol) && it < o->max_iter) {
        it++;
        mcd_dense_matvec(n, p->W, y, p->q, g); /* gradient at y */
        for (int bt = 0; bt <= MAX_BACKTRACK; bt++) {
            /* dl = Pi(y - g / L) - y, ndl = N dl */
            for (int i = 0; i < n; i++) dl[i] = y[i] - g[i] / L;
            project_all(p, dl);
            for (int i = 0; i < n; i++) dl[i] -= y[i];
            double dd = 0.0, dnd = 0.0;
            for (int i = 0; i < n; i++) {
                const double *row = p->W + (size_t)i * n;
                double si = 0.0;
                for (int j = 0; j < n; j++) si += row[j] * dl[j];
                ndl[i] = si;
                dd += dl[i] * dl[i];
                dnd += dl[i] * si;
            }
            /* f(y + dl) <= f(y) + g.dl + L/2 |dl|^2, exactly for a quadratic. */
            if (dnd <= L * dd || bt == MAX_BACKTRACK) break;
            L *= 2.0;
        }
        double theta_new = 0.5 * theta * (sqrt(theta * theta + 4.0) - theta);
        double beta = theta * (1.0 - theta) / (theta * theta + theta_new);
        /* Gradient restart: (y - gamma+) . (gamma+ - gamma) > 0. */
        double rs = 0.0;
        for (int i = 0; i < n; i++) rs -= dl[i] * (y[i] + dl[i] - gamma[i]);
        if (rs > 0) {
            beta = 0.0;
            theta_new = 1.0;
        }
        for (int i = 0; i < n; i++) {
            double gp = y[i] + dl[i];
            d[i] = g[i] + ndl[i]; /* N gamma+ + r */
            y[i] = gp + beta * (gp - gamma[i]);
            gamma[i] = gp;
        }
        theta = theta_new;
        mcd_ccp_measure(p, gamma, d, &cur);
        if (cur.residual <= o->tol) { /* confirm with d recomputed (no drift) */
            mcd_dense_matvec(n, p->W, gamma, p->q, d);
            mcd_ccp_measure(p, gamma, d, &cur);
        }
        if (isnan(cur.residual)) {
            diverged = 1;
            break;
        }
        if (cur.residual < bst.residual) {
            bst = cur;
            memcpy(best, gamma, bytes);
        }
        L *= 0.9;
    }
    memcpy(gamma, best, bytes);
    /* Report the exact residual of the returned iterate. */
    mcd_dense_matvec(n, p->W, gamma, p->q, d);
    mcd_ccp_measure(p, gamma, d, &bst);
    *st = bst;
    st->iterations = it;
    if (bst.residual <= o->tol)
        s = MCD_OK;
    else if (diverged)
        s = mcd_fail(err, MCD_ERR_NOT_CONVERGED,
                     "%s: iterate became non-finite after %d iterations; best residual %g", name,
                     it, bst.residual);
    else
        s = mcd_fail(err, MCD_ERR_NOT_CONVERGED, "%s: residual %g > tol %g after %d iterations",
                     name, bst.residual, o->tol, it);
    st->status = s;
    st->seconds = mcd_clock_seconds() - t0;
    return s;
}

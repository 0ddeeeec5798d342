/* Projected Gauss-Seidel / projected Jacobi for the CCP (Tasora & Anitescu)
 * with over-relaxation omega, step scaling lambda and block-diagonal
 * scaling eta_k = 3 / trace(N_kk); see include/mcdyn/ccp.h. */
#include "ccp_common.h"
#include "../base/clock.h"

#include <math.h>
#include <string.h>

enum { ROWS = MCD_FC3D_ROWS };

/* Updates contact k given its d_k = (N gamma + r)_k. */
static void contact_update(const mcd_fc3d *p, const mcd_ccp_opts *o, int k, const double *dk,
                           double *gamma)
{
    int n = mcd_fc3d_size(p), i0 = p->nb + ROWS * k;
    double tr = 0.0; /* trace(N_kk) */
    for (int i = 0; i < ROWS; i++) tr += p->W[(size_t)(i0 + i) * n + i0 + i];
    if (!(tr > 0)) return;
    double step = o->omega * ROWS / tr, *g = gamma + i0, x[ROWS];
    for (int j = 0; j < ROWS; j++) x[j] = g[j] - step * dk[j];
    mcd_ccp_proj3(p->mu[k], x);
    for (int j = 0; j < ROWS; j++) g[j] = o->lambda * x[j] + (1.0 - o->lambda) * g[j];
}

static double row_dot(const mcd_fc3d *p, int i, const double *gamma)
{
    int n = mcd_fc3d_size(p);
    return mcd_dense_dot(n, p->W + (size_t)i * n, gamma) + p->q[i];
}

static void bilateral_update(const mcd_fc3d *p, const mcd_ccp_opts *o, int i, double di,
                             double *gamma)
{
    int n = mcd_fc3d_size(p);
    double wii = p->W[(size_t)i * n + i];
    if (wii > 0) gamma[i] -= o->lambda * o->omega * di / wii;
}

mcd_status mcd_ccp_solve_pgs(const mcd_fc3d *p, const mcd_ccp_opts *o, double *gamma, double *work,
                             mcd_ccp_stats *st, mcd_error *err)
{
    const char *name = "ccp-pgs";
    double t0 = mcd_clock_seconds();
    mcd_ccp_stats local;
    if (!st) st = &local;
    mcd_status s = mcd_ccp_start(name, p, o, gamma, work, 1, t0, st, err);
    if (s != MCD_OK) return s;
    int n = mcd_fc3d_size(p);
    double *d = work, *best = work + n;
    mcd_ccp_stats cur = {0}, bst;
    mcd_dense_matvec(n, p->W, gamma, p->q, d);
    mcd_ccp_measure(p, gamma, d, &cur);
    bst = cur;
    memcpy(best, gamma, (size_t)n * sizeof *best);
    int it = 0, diverged = 0;
    while (!(bst.residual <= o->tol) && it < o->max_iter) {
        it++;
        if (o->jacobi) {
            /* d = N gamma + r of the previous iterate is still in d. */
            for (int i = 0; i < p->nb; i++) bilateral_update(p, o, i, d[i], gamma);
            for (int k = 0; k < p->nc; k++) contact_update(p, o, k, d + p->nb + ROWS * k, gamma);
        } else {
            for (int i = 0; i < p->nb; i++) bilateral_update(p, o, i, row_dot(p, i, gamma), gamma);
            for (int k = 0; k < p->nc; k++) {
                int i0 = p->nb + ROWS * k;
                double dk[ROWS];
                for (int j = 0; j < ROWS; j++) dk[j] = row_dot(p, i0 + j, gamma);
                contact_update(p, o, k, dk, gamma);
            }
        }
        mcd_dense_matvec(n, p->W, gamma, p->q, d);
        mcd_ccp_measure(p, gamma, d, &cur);
        if (isnan(cur.residual)) {
            diverged = 1;
            break;
        }
        if (cur.residual < bst.residual) {
            bst = cur;
            memcpy(best, gamma, (size_t)n * sizeof *best);
        }
    }
    memcpy(gamma, best, (size_t)n * sizeof *best);
    *st = bst;
    st->iterations = it;
    if (bst.residual <= o->tol)
        s = MCD_OK;
    else if (diverged)
        s = mcd_fail(err, MCD_ERR_NOT_CONVERGED,
                     "%s: iterate became non-finite after %d sweeps (omega too large?); "
                     "best residual %g",
                     name, it, bst.residual);
    else
        s = mcd_fail(err, MCD_ERR_NOT_CONVERGED, "%s: residual %g > tol %g after %d sweeps", name,
                     bst.residual, o->tol, it);
    st->status = s;
    st->seconds = mcd_clock_seconds() - t0;
    return s;
}

/* Error measures (solver.h, docs/solvers.md "Error measures"). */
#include "mcdyn/solver.h"
#include "error_measures.h"

#include "dense.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

/* z - mid(lo, z - w, hi) evaluated as mid(z - hi, w, z - lo), the same
 * number without the cancellation of z - (z - w): at z = 1e20, w = 0.1 the
 * first form rounds to 0, the second gives 0.1. */
static double natural_map_row(double z, double w, double lo, double hi)
{
    return fmin(fmax(w, z - hi), z - lo);
}

double mcd_mlcp_error_w(const mcd_mlcp *p, const double *z, const double *w)
{
    double e2 = 0.0;
    for (int i = 0; i < p->n; i++) {
        double e = natural_map_row(z[i], w[i], p->lo[i], p->hi[i]);
        e2 += e * e;
    }
    return sqrt(e2) / (1.0 + mcd_dense_norm(p->n, p->q));
}

double mcd_mlcp_error(const mcd_mlcp *p, const double *z, double *w_scratch)
{
    mcd_dense_matvec(p->n, p->M, z, p->q, w_scratch);
    return mcd_mlcp_error_w(p, z, w_scratch);
}

/* |(a, b)|: the plain formula where its squares can neither overflow nor
 * underflow to a loss of accuracy, and at a = b = 0 (a resting contact's
 * tangential part; sqrt(+0) = hypot(0, 0) = +0), hypot (several times
 * slower) elsewhere. m = fmax(|a|, |b|) written inline (a NaN one
 * ignored, as fmax does; the library call costs more than the rest). */
static double norm2(double a, double b)
{
    const double fa = fabs(a), fb = fabs(b);
    const double m = fa > fb || fb != fb ? fa : fb;
    if ((m > 1e-150 || m == 0) && m < 1e150) return sqrt(a * a + b * b);
    return hypot(a, b);
}

/* Projection of x (rows mcd_fc3d_row) on the cone
 * K_mu = {x_n >= 0, |x_t| <= mu x_n}, in place (Siconos' projectionOnCone). */
static void cone_project(double mu, double x[MCD_FC3D_ROWS])
{
    double nt = norm2(x[MCD_FC3D_T1], x[MCD_FC3D_T2]);
    if (mu * nt <= -x[MCD_FC3D_N]) { /* in the polar cone: project to the apex */
        x[MCD_FC3D_N] = x[MCD_FC3D_T1] = x[MCD_FC3D_T2] = 0.0;
        return;
    }
    if (nt <= mu * x[MCD_FC3D_N]) return; /* inside K_mu */
    double xn = (x[MCD_FC3D_N] + mu * nt) / (1.0 + mu * mu);
    x[MCD_FC3D_N] = xn;
    x[MCD_FC3D_T1] *= mu * xn / nt;
    x[MCD_FC3D_T2] *= mu * xn / nt;
}

/* |r - P_K(r - (u + mu |u_T| e_n))|^2 for one contact (Siconos'
 * fc3d_unitary_compute_and_add_error). */
static double contact_error2(double mu, const double r[MCD_FC3D_ROWS],
                             const double u[MCD_FC3D_ROWS])
{
    enum { N = MCD_FC3D_N, T1 = MCD_FC3D_T1, T2 = MCD_FC3D_T2 };
    double x[MCD_FC3D_ROWS] = {
        [N] = r[N] - u[N] - mu * norm2(u[T1], u[T2]), [T1] = r[T1] - u[T1], [T2] = r[T2] - u[T2]};
    cone_project(mu, x);
    double d0 = r[N] - x[N], d1 = r[T1] - x[T1], d2 = r[T2] - x[T2];
    return d0 * d0 + d1 * d1 + d2 * d2;
}

/* Row i of W r + q. */
static double velocity_row(const mcd_fc3d *p, int n, const double *r, int i)
{
    return mcd_dense_dot(n, p->W + (size_t)i * n, r) + p->q[i];
}

double mcd_fc3d_error(const mcd_fc3d *p, const double *r, const double *u)
{
    int n = mcd_fc3d_size(p);
    double e2 = 0.0, u2 = 0.0;
    for (int i = 0; i < p->nb; i++) {
        double ui = u ? u[i] : velocity_row(p, n, r, i);
        e2 += ui * ui; /* r_i free: r_i - P_R(r_i - u_i) = u_i */
        u2 += ui * ui;
    }
    for (int k = 0; k < p->nc; k++) {
        int c = p->nb + MCD_FC3D_ROWS * k;
        double uk[MCD_FC3D_ROWS];
        for (int a = 0; a < MCD_FC3D_ROWS; a++) uk[a] = u ? u[c + a] : velocity_row(p, n, r, c + a);
        e2 += contact_error2(p->mu[k], r + c, uk);
        u2 += uk[MCD_FC3D_N] * uk[MCD_FC3D_N] + uk[MCD_FC3D_T1] * uk[MCD_FC3D_T1] +
              uk[MCD_FC3D_T2] * uk[MCD_FC3D_T2];
    }
    /* Siconos 4.4: divide by max(|r|, |u|, norm) with norm = |q| when that
     * exceeds DBL_EPSILON. */
    double scale = fmax(fmax(mcd_dense_norm(n, r), sqrt(u2)), mcd_dense_norm(n, p->q));
    double e = sqrt(e2);
    return scale > DBL_EPSILON ? e / scale : e;
}

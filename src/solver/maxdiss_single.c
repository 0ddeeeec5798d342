/* Closed-form maximum-dissipation impulse of one contact (Preclik, Eibl &
 * Ruede, Sec. 3.2, Fig. 5). See include/mcdyn/impact.h and docs/solvers.md.
 *
 * Internally the paper's sign is used: bp = -b, objective
 * f(x) = 1/2 x^T A x - x^T bp, plane of maximum compression a_n^T x = bp_n
 * with a_n = (A_nn, A_nt, A_no). Branches of Fig. 5:
 *   bp_n < 0                      x = 0 (separation)
 *   mu = 0                        x = (bp_n / A_nn, 0, 0)
 *   P1: x0 = A^-1 bp in the cone  x = x0 (sticking)
 *   bp_n = 0, P2: A_nn > mu |a_to| x = 0 (degenerate ellipse)
 *   bp_n = 0, not P2              best of the two rays alpha0 -/+ dalpha, Eq. (9)
 *   bp_n > 0                      boundary of the conic section, Eq. (8)
 * Eq. (8) is not taken from the garbled appendix: the scaled derivative
 *   D(alpha) = f_r^3 / (mu bp_n)^2 * d f_obj / d alpha
 *            = mu bp_n (-f_r' Q + f_r Qh) + f_r f_r' P - f_r^2 P',
 *   Q = u^T Ahat u, Qh = u^T Ahat u', P = u^T bhat, P' = u'^T bhat,
 * u = (cos alpha, sin alpha), is a trigonometric polynomial of degree 2
 * (the degree-3 harmonics cancel), so its five Fourier coefficients are
 * obtained exactly from eight samples. With s = tan((alpha - alpha0) / 2)
 * D (1 + s^2)^2 is a real quartic in s; its roots come from the eigenvalues
 * of the companion matrix (LAPACK dgeev), are Newton-polished on D, and the
 * admissible one (f_r > 0) of lowest energy is kept. The angle s = inf
 * (alpha0 + pi) and the eight sample angles are added as candidates: every
 * candidate is a feasible boundary point, so extra candidates never make the
 * result worse. */
#include "mcdyn/impact.h"

#include <math.h>
#include <string.h>

/* LAPACK (not declared in base/lapack.h). */
void dgeev_(const char *jobvl, const char *jobvr, const int *n, double *a, const int *lda,
            double *wr, double *wi, double *vl, const int *ldvl, double *vr, const int *ldvr,
            double *work, const int *lwork, int *info);

#define MD_PI        3.14159265358979323846
#define MD_SYM_TOL   1e-12 /* relative asymmetry accepted in A */
#define MD_CHOL_TOL  1e-14 /* relative Cholesky pivot below which A is not PD */
#define MD_LEAD_TOL  1e-13 /* relative size of a negligible leading coefficient */
#define MD_NEWTON_IT 8     /* Newton steps polishing each root */
#define MD_NSAMPLE   8     /* samples of D for its Fourier coefficients */

typedef struct md_ctx {
    double A[9];
    double bp[3];
    double mu;
    double ah[3];  /* Ahat: [0] tt, [1] to, [2] oo */
    double bh[2];  /* bhat */
    double alpha0; /* atan2(A_no, A_nt) */
    double c;      /* mu |a_to| */
} md_ctx;

static double md_energy(const md_ctx *m, const double x[3])
{
    double e = 0.0;
    for (int i = 0; i < 3; i++) {
        double ax = 0.0;
        for (int j = 0; j < 3; j++) ax += m->A[3 * i + j] * x[j];
        e += x[i] * (0.5 * ax - m->bp[i]);
    }
    return e;
}

/* The point on the plane of maximum compression with tangential part xt, xo. */
static void md_on_plane(const md_ctx *m, double xt, double xo, double x[3])
{
    x[0] = (m->bp[0] - m->A[1] * xt - m->A[2] * xo) / m->A[0];
    x[1] = xt;
    x[2] = xo;
}

/* D(alpha) of the file comment. */
static double md_D(const md_ctx *m, double alpha)
{
    double cs = cos(alpha), sn = sin(alpha);
    double fr = m->A[0] + m->c * cos(alpha - m->alpha0);
    double frp = -m->c * sin(alpha - m->alpha0);
    double q = m->ah[0] * cs * cs + 2.0 * m->ah[1] * cs * sn + m->ah[2] * sn * sn;
    double qh = (m->ah[2] - m->ah[0]) * cs * sn + m->ah[1] * (cs * cs - sn * sn);
    double p = m->bh[0] * cs + m->bh[1] * sn;
    double pp = -m->bh[0] * sn + m->bh[1] * cs;
    return m->mu * m->bp[0] * (-frp * q + fr * qh) + fr * frp * p - fr * fr * pp;
}

/* Evaluates the boundary point at angle alpha; returns 0 if inadmissible. */
static int md_boundary_point(const md_ctx *m, double alpha, double x[3], double *e)
{
    double fr = m->A[0] + m->c * cos(alpha - m->alpha0);
    if (!(fr > 0.0)) return 0;
    double r = m->mu * m->bp[0] / fr;
    if (!isfinite(r)) return 0;
    md_on_plane(m, r * cos(alpha), r * sin(alpha), x);
    *e = md_energy(m, x);
    return isfinite(*e);
}

/* Trigonometric polynomial g(th) = a0 + a1 cos th + b1 sin th + a2 cos 2th
 * + b2 sin 2th and its derivative. */
static double md_trig(const double f[5], double th, double *dg)
{
    double c1 = cos(th), s1 = sin(th), c2 = cos(2.0 * th), s2 = sin(2.0 * th);
    *dg = -f[1] * s1 + f[2] * c1 - 2.0 * f[3] * s2 + 2.0 * f[4] * c2;
    return f[0] + f[1] * c1 + f[2] * s1 + f[3] * c2 + f[4] * s2;
}

/* Real parts of the roots of p[0] s^4 + ... + p[4] (highest first), after
 * dropping negligible leading coefficients; returns their number. */
static int md_quartic_roots(const double p[5], double roots[4])
{
    double pmax = 0.0;
    for (int i = 0; i < 5; i++) pmax = fmax(pmax, fabs(p[i]));
    if (pmax == 0.0) return 0;
    int lead = 0;
    while (lead < 4 && fabs(p[lead]) <= MD_LEAD_TOL * pmax) lead++;
    int n = 4 - lead;
    if (n == 0) return 0;
    if (n == 1) {
        roots[0] = -p[4] / p[3];
        return 1;
    }
    /* Companion matrix (column-major) of the monic polynomial. */
    double C[16], wr[4], wi[4], work[64], dummy[1];
    memset(C, 0, sizeof C);
    for (int j = 0; j < n; j++) C[0 + j * n] = -p[lead + 1 + j] / p[lead];
    for (int i = 1; i < n; i++) C[i + (i - 1) * n] = 1.0;
    int one = 1, lwork = 64, info = 0;
    dgeev_("N", "N", &n, C, &n, wr, wi, dummy, &one, dummy, &one, work, &lwork, &info);
    if (info != 0) return 0;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(wr[i])) roots[k++] = wr[i];
    return k;
}

/* Minimum of f over the boundary of the conic section (bp_n > 0, mu > 0). */
static int md_boundary(const md_ctx *m, double x[3])
{
    /* Fourier coefficients of D in th = alpha - alpha0 from eight samples. */
    double f[5] = {0, 0, 0, 0, 0};
    for (int k = 0; k < MD_NSAMPLE; k++) {
        double th = 2.0 * MD_PI * k / MD_NSAMPLE;
        double d = md_D(m, m->alpha0 + th);
        f[0] += d / MD_NSAMPLE;
        f[1] += 2.0 * d * cos(th) / MD_NSAMPLE;
        f[2] += 2.0 * d * sin(th) / MD_NSAMPLE;
        f[3] += 2.0 * d * cos(2.0 * th) / MD_NSAMPLE;
        f[4] += 2.0 * d * sin(2.0 * th) / MD_NSAMPLE;
    }
    /* D (1 + s^2)^2 with cos th = (1 - s^2)/(1 + s^2), sin th = 2s/(1 + s^2). */
    double p[5] = {f[0] - f[1] + f[3], 2.0 * f[2] - 4.0 * f[4], 2.0 * f[0] - 6.0 * f[3],
                   2.0 * f[2] + 4.0 * f[4], f[0] + f[1] + f[3]};
    double roots[4];
    int nr = md_quartic_roots(p, roots);

    double th_cand[4 + 1 + MD_NSAMPLE];
    int nc = 0;
    for (int i = 0; i < nr; i++) {
        double th = 2.0 * atan(roots[i]), dg;
        double g = md_trig(f, th, &dg);
        for (int it = 0; it < MD_NEWTON_IT && dg != 0.0; it++) {
            double tn = th - g / dg, dgn;
            double gn = md_trig(f, tn, &dgn);
            if (!(fabs(gn) < fabs(g))) break;
            th = tn;
            g = gn;
            dg = dgn;
        }
        th_cand[nc++] = th;
    }
    th_cand[nc++] = MD_PI;
    for (int k = 0; k < MD_NSAMPLE; k++) th_cand[nc++] = 2.0 * MD_PI * k / MD_NSAMPLE;

    int found = 0;
    double ebest = INFINITY;
    for (int i = 0; i < nc; i++) {
        double xc[3], e;
        if (md_boundary_point(m, m->alpha0 + th_cand[i], xc, &e) && e < ebest) {
            ebest = e;
            memcpy(x, xc, sizeof xc);
            found = 1;
        }
    }
    return found;
}

/* bp_n = 0 and not P2: the better of the two rays of Eq. (9). */
static void md_rays(const md_ctx *m, double x[3])
{
    double arg = -m->A[0] / m->c;
    double dalpha = acos(fmax(-1.0, fmin(1.0, arg)));
    double ebest = 0.0; /* x = 0 is on both rays */
    x[0] = x[1] = x[2] = 0.0;
    for (int side = -1; side <= 1; side += 2) {
        double al = m->alpha0 + side * dalpha;
        double cs = cos(al), sn = sin(al);
        double q = m->ah[0] * cs * cs + 2.0 * m->ah[1] * cs * sn + m->ah[2] * sn * sn;
        double pr = m->bh[0] * cs + m->bh[1] * sn;
        double r = fmax(0.0, pr / q);
        double xc[3];
        md_on_plane(m, r * cs, r * sn, xc);
        double e = md_energy(m, xc);
        if (isfinite(e) && e < ebest && xc[0] >= 0.0) {
            ebest = e;
            memcpy(x, xc, sizeof xc);
        }
    }
}

mcd_status mcd_maxdiss_single(const double A[9], const double b[3], double mu, double x[3],
                              mcd_error *err)
{
    if (x) x[0] = x[1] = x[2] = 0.0;
    if (!A || !b || !x) return mcd_fail(err, MCD_ERR_ARG, "mcd_maxdiss_single: NULL argument");
    for (int i = 0; i < 9; i++)
        if (!isfinite(A[i]))
            return mcd_fail(err, MCD_ERR_NONFINITE, "mcd_maxdiss_single: A[%d] is not finite", i);
    for (int i = 0; i < 3; i++)
        if (!isfinite(b[i]))
            return mcd_fail(err, MCD_ERR_NONFINITE, "mcd_maxdiss_single: b[%d] is not finite", i);
    if (!isfinite(mu))
        return mcd_fail(err, MCD_ERR_NONFINITE, "mcd_maxdiss_single: mu is not finite");
    if (mu < 0.0) return mcd_fail(err, MCD_ERR_ARG, "mcd_maxdiss_single: mu = %g < 0", mu);
    double amax = 0.0;
    for (int i = 0; i < 9; i++) amax = fmax(amax, fabs(A[i]));
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (fabs(A[3 * i + j] - A[3 * j + i]) > MD_SYM_TOL * amax)
                return mcd_fail(err, MCD_ERR_ARG,
                                "mcd_maxdiss_single: A is not symmetric (A[%d][%d] != A[%d][%d])",
                                i, j, j, i);

    md_ctx m;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) m.A[3 * i + j] = 0.5 * (A[3 * i + j] + A[3 * j + i]);
    for (int i = 0; i < 3; i++) m.bp[i] = -b[i];
    m.mu = mu;

    /* Cholesky A = L L^T (row-major lower L), which also checks definiteness. */
    double L[9] = {0};
    for (int j = 0; j < 3; j++) {
        double d = m.A[4 * j];
        for (int k = 0; k < j; k++) d -= L[3 * j + k] * L[3 * j + k];
        if (!(d > MD_CHOL_TOL * amax))
            return mcd_fail(err, MCD_ERR_ARG,
                            "mcd_maxdiss_single: A is not positive definite (pivot %d = %g)", j, d);
        L[4 * j] = sqrt(d);
        for (int i = j + 1; i < 3; i++) {
            double s = m.A[3 * i + j];
            for (int k = 0; k < j; k++) s -= L[3 * i + k] * L[3 * j + k];
            L[3 * i + j] = s / L[4 * j];
        }
    }

    /* Separation (bp_n < 0, i.e. b_n > 0). */
    if (m.bp[0] < 0.0) return MCD_OK;
    double an = m.A[0];
    if (mu == 0.0) {
        x[0] = m.bp[0] / an;
        return MCD_OK;
    }

    /* Unconstrained minimum x0 = A^-1 bp and predicate P1. */
    double y[3], x0[3];
    for (int i = 0; i < 3; i++) {
        double s = m.bp[i];
        for (int k = 0; k < i; k++) s -= L[3 * i + k] * y[k];
        y[i] = s / L[4 * i];
    }
    for (int i = 2; i >= 0; i--) {
        double s = y[i];
        for (int k = i + 1; k < 3; k++) s -= L[3 * k + i] * x0[k];
        x0[i] = s / L[4 * i];
    }
    if (x0[0] >= 0.0 && hypot(x0[1], x0[2]) <= mu * x0[0]) {
        memcpy(x, x0, sizeof x0);
        return MCD_OK;
    }

    m.ah[0] = m.A[4] - m.A[1] * m.A[1] / an;
    m.ah[1] = m.A[5] - m.A[1] * m.A[2] / an;
    m.ah[2] = m.A[8] - m.A[2] * m.A[2] / an;
    m.bh[0] = m.bp[1] - m.A[1] * m.bp[0] / an;
    m.bh[1] = m.bp[2] - m.A[2] * m.bp[0] / an;
    double nat = hypot(m.A[1], m.A[2]);
    m.alpha0 = nat > 0.0 ? atan2(m.A[2], m.A[1]) : 0.0;
    m.c = mu * nat;

    if (m.bp[0] == 0.0) {
        if (an > m.c) /* P2: the conic section is the point 0 */
            return MCD_OK;
        md_rays(&m, x);
        return MCD_OK;
    }
    if (!md_boundary(&m, x)) {
        x[0] = x[1] = x[2] = 0.0;
        return mcd_fail(err, MCD_ERR_NOT_CONVERGED,
                        "mcd_maxdiss_single: no admissible point on the cone boundary");
    }
    return MCD_OK;
}

/* Stronge's energetic restitution for a simultaneous multi-point frictional
 * impact, integrated in the impulse domain (include/mcdyn/restitution.h,
 * docs/theory/impacts.md). Notation: p the total normal impulse (the
 * independent variable), P(p) the impulse, nu(p) = nu- + W P(p), rho the
 * normal impulse distribution, g(p) = dW/dp = sum_k rho_k nu_n,k the global
 * normal power per unit impulse, W(p) the global normal work. */
#include "mcdyn/restitution.h"

#include "mcdyn/problem.h"

#include "../base/small_cholesky.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SG_SYM_TOL    1e-9  /* relative asymmetry accepted in W */
#define SG_PGS_SWEEPS 20000 /* plastic LCP sweeps */
#define SG_PGS_TOL    1e-15 /* plastic LCP: change of x relative to sum x */
#define SG_STICK_VTOL 1e-7  /* |nu_t| below this times max |nu-|: a stick candidate */
#define SG_SLIP_HYST  10.0  /* a stuck contact slips again above this times vtol */
#define SG_TIKHONOV   1e-10 /* regularization of the stick solve, relative to max W_tt */
#define SG_RELAX      1e-3  /* a sticking contact's residual nu_t decays over this times sum P* */
#define SG_CONE_SLACK 1e-9  /* relative excess of the cone that ends sticking */
#define SG_SLIP_ITERS 20    /* fixed-point iterations of a restarting slip direction */
#define SG_ROOT_ITERS 100   /* event location iterations */
#define SG_H_FIRST    1e-2  /* first step, fraction of sum P* */
#define SG_H_MIN      1e-14 /* smallest step, fraction of sum P* */

enum { SG_FREE = 0, SG_SLIP, SG_STICK, SG_SLIP_START, SG_SATURATED };
enum { N = MCD_FC3D_N, T1 = MCD_FC3D_T1, T2 = MCD_FC3D_T2, ROWS = MCD_FC3D_ROWS };

struct mcd_stronge_ws {
    int cap;
    double *rho, *x, *Wn, *Wn1, *A, *b;
    double *P, *nu, *k1, *k2, *k3, *k4, *Pt, *nut, *Pe;
    int *stuck, *mode, *S;
};

/* The data of one solve. */
typedef struct sg_ctx {
    mcd_stronge_ws *w;
    int nc, m;
    const double *W, *nu0, *mu;
    double vscale, vtol, prelax;
} sg_ctx;

mcd_stronge_opts mcd_stronge_default_opts(void)
{
    mcd_stronge_opts o = {1e-9, 100000};
    return o;
}

void mcd_stronge_ws_free(mcd_stronge_ws *w)
{
    if (!w) return;
    free(w->rho), free(w->x), free(w->Wn), free(w->Wn1), free(w->A), free(w->b);
    free(w->P), free(w->nu), free(w->k1), free(w->k2), free(w->k3), free(w->k4), free(w->Pt),
        free(w->nut), free(w->Pe);
    free(w->stuck), free(w->mode), free(w->S);
    free(w);
}

mcd_status mcd_stronge_ws_create(int max_contacts, mcd_stronge_ws **out, mcd_error *err)
{
    if (!out || max_contacts < 0)
        return mcd_fail(err, MCD_ERR_ARG, "mcd_stronge_ws_create: need max_contacts >= 0");
    mcd_stronge_ws *w = calloc(1, sizeof *w);
    if (!w) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    const size_t n = (size_t)(max_contacts ? max_contacts : 1), m = ROWS * n;
    w->cap = max_contacts;
    w->rho = malloc(n * sizeof *w->rho), w->x = malloc(n * sizeof *w->x);
    w->Wn = malloc(n * sizeof *w->Wn), w->Wn1 = malloc(n * sizeof *w->Wn1);
    w->b = malloc(2 * n * sizeof *w->b);
    w->A = malloc(4 * n * n * sizeof *w->A);
    w->P = malloc(m * sizeof *w->P), w->nu = malloc(m * sizeof *w->nu);
    w->k1 = malloc(m * sizeof *w->k1), w->k2 = malloc(m * sizeof *w->k2);
    w->k3 = malloc(m * sizeof *w->k3), w->k4 = malloc(m * sizeof *w->k4);
    w->Pt = malloc(m * sizeof *w->Pt), w->nut = malloc(m * sizeof *w->nut);
    w->Pe = malloc(m * sizeof *w->Pe);
    w->stuck = malloc(n * sizeof *w->stuck), w->mode = malloc(n * sizeof *w->mode);
    w->S = malloc(n * sizeof *w->S);
    if (!w->rho || !w->x || !w->Wn || !w->Wn1 || !w->b || !w->A || !w->P || !w->nu || !w->k1 ||
        !w->k2 || !w->k3 || !w->k4 || !w->Pt || !w->nut || !w->Pe || !w->stuck || !w->mode ||
        !w->S) {
        mcd_stronge_ws_free(w);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory for %d contacts", max_contacts);
    }
    *out = w;
    return MCD_OK;
}

static mcd_status check_input(const mcd_stronge_ws *w, int nc, const double *W, const double *nu,
                              const double *mu, const double *e, const mcd_stronge_opts *o,
                              double *P, mcd_error *err)
{
    if (!w || !P || (nc > 0 && (!W || !nu || !mu || !e)))
        return mcd_fail(err, MCD_ERR_ARG, "mcd_stronge_solve: NULL argument");
    if (nc < 0 || nc > w->cap)
        return mcd_fail(err, MCD_ERR_ARG, "mcd_stronge_solve: %d contacts, capacity %d", nc,
                        w->cap);
    if (!(o->tol > 0) || !isfinite(o->tol) || o->max_steps <= 0)
        return mcd_fail(err, MCD_ERR_ARG, "mcd_stronge_solve: need tol > 0 and max_steps > 0");
    const int m = ROWS * nc;
    for (int i = 0; i < m * m; i++)
        if (!isfinite(W[i])) return mcd_fail(err, MCD_ERR_NONFINITE, "W[%d] is not finite", i);
    for (int i = 0; i < m; i++)
        if (!isfinite(nu[i])) return mcd_fail(err, MCD_ERR_NONFINITE, "nu[%d] is not finite", i);
    for (int k = 0; k < nc; k++) {
        if (!isfinite(mu[k]) || !isfinite(e[k]))
            return mcd_fail(err, MCD_ERR_NONFINITE, "contact %d: mu or e is not finite", k);
        if (mu[k] < 0 || e[k] < 0 || e[k] > 1)
            return mcd_fail(err, MCD_ERR_ARG, "contact %d: mu = %g, e = %g out of range", k, mu[k],
                            e[k]);
    }
    double wmax =
        0.0; /* a structurally zero row (a frictionless limit's tangents) rounds to +-eps */
    for (int i = 0; i < m; i++) wmax = fmax(wmax, W[i * m + i]);
    for (int i = 0; i < m; i++) {
        if (W[i * m + i] < -SG_SYM_TOL * wmax)
            return mcd_fail(err, MCD_ERR_ARG, "W[%d][%d] = %g < 0: W is not PSD", i, i,
                            W[i * m + i]);
        for (int j = 0; j < i; j++)
            if (fabs(W[i * m + j] - W[j * m + i]) >
                SG_SYM_TOL * (fabs(W[i * m + j]) + fabs(W[j * m + i]) + 1e-300))
                return mcd_fail(err, MCD_ERR_ARG, "W is not symmetric at (%d, %d)", i, j);
    }
    return MCD_OK;
}

/* The frictionless perfectly plastic impact, W_nn x + nu_n- >= 0 _|_ x >= 0
 * (projected Gauss-Seidel); returns sum x. */
static double plastic_impulse(const sg_ctx *c)
{
    double *x = c->w->x, dmax = 0.0;
    const int m = c->m;
    for (int k = 0; k < c->nc; k++) dmax = fmax(dmax, c->W[(ROWS * k + N) * m + ROWS * k + N]);
    memset(x, 0, (size_t)c->nc * sizeof *x);
    double sum = 0.0;
    for (int it = 0; it < SG_PGS_SWEEPS; it++) {
        double change = 0.0;
        sum = 0.0;
        for (int k = 0; k < c->nc; k++) {
            const double wkk = c->W[(ROWS * k + N) * m + ROWS * k + N];
            double r = c->nu0[ROWS * k + N];
            for (int j = 0; j < c->nc; j++) r += c->W[(ROWS * k + N) * m + ROWS * j + N] * x[j];
            const double xn = wkk > 1e-12 * dmax ? fmax(0.0, x[k] - r / wkk) : 0.0;
            change = fmax(change, fabs(xn - x[k]));
            x[k] = xn;
            sum += xn;
        }
        if (change <= SG_PGS_TOL * sum) break;
    }
    return sum;
}

/* nu = nu- + W P. */
static void velocity(const sg_ctx *c, const double *P, double *nu)
{
    for (int i = 0; i < c->m; i++) {
        double v = c->nu0[i];
        for (int j = 0; j < c->m; j++) v += c->W[i * c->m + j] * P[j];
        nu[i] = v;
    }
}

/* Tangential rows of W dP at contact k. */
static void tangential_rate(const sg_ctx *c, const double *dP, int k, double a[2])
{
    for (int r = 0; r < 2; r++) {
        const double *row = c->W + (size_t)(ROWS * k + T1 + r) * c->m;
        double v = 0.0;
        for (int j = 0; j < c->m; j++) v += row[j] * dP[j];
        a[r] = v;
    }
}

/* A contact whose stick impulse leaves the cone: slip restarts in the
 * direction s with dP_t = -mu rho s along which its own tangential velocity
 * grows (fixed-point iteration from s0 = minus the stick impulse's
 * direction; Stronge 2000, Sec. 5.2, slip after stick in 3D). If slip
 * grows in no such direction the contact stays stuck with the friction
 * saturated, dP_t = -mu rho s0 (the stick impulse projected on the cone).
 * Returns SG_SLIP_START or SG_SATURATED. */
static int restart_slip(const sg_ctx *c, double *dP, int k, const double s0[2])
{
    const double f = c->mu[k] * c->w->rho[k];
    double s[2] = {s0[0], s0[1]};
    for (int it = 0; it < SG_SLIP_ITERS; it++) {
        double a[2];
        dP[ROWS * k + T1] = -f * s[0], dP[ROWS * k + T2] = -f * s[1];
        tangential_rate(c, dP, k, a);
        const double n = hypot(a[0], a[1]);
        if (!(n > 0)) break;
        s[0] = a[0] / n, s[1] = a[1] / n;
    }
    double a[2];
    dP[ROWS * k + T1] = -f * s[0], dP[ROWS * k + T2] = -f * s[1];
    tangential_rate(c, dP, k, a);
    if (a[0] * s[0] + a[1] * s[1] > 0) return SG_SLIP_START;
    dP[ROWS * k + T1] = -f * s0[0], dP[ROWS * k + T2] = -f * s0[1];
    return SG_SATURATED;
}

/* Solves (A + eps I) x = b (n x n symmetric PSD, row-major, overwritten)
 * by the floored small Cholesky (base/small_cholesky.h), eps = SG_TIKHONOV
 * max A_ii and pivots floored at about eps: for the consistent systems of
 * redundant contacts (several points of one rigid face) this is close to
 * the least-norm solution, which shares the stick impulse among them; x in
 * b. */
static void spd_solve(double *A, double *b, int n)
{
    double dmax = 0.0;
    for (int i = 0; i < n; i++) dmax = fmax(dmax, A[i * n + i]);
    const double eps = SG_TIKHONOV * dmax + 1e-300;
    for (int i = 0; i < n; i++) A[i * n + i] += eps;
    mcd_small_cholesky_floored(n, A, SG_TIKHONOV);
    mcd_small_cholesky_solve(n, A, b);
}

/* Tangential impulse rates of the stick candidates S[0..ns) holding
 * dnu_t = -nu_t / prelax (nu_t = 0 held, a residual below vtol removed);
 * returns the candidate that most exceeds its cone (-1: none). */
static int stick_rates(const sg_ctx *c, const double *nu, double *dP, const int *S, int ns)
{
    double *A = c->w->A, *b = c->w->b;
    const int n = 2 * ns, m = c->m;
    for (int a = 0; a < ns; a++) { /* tangential impulses of S excluded */
        dP[ROWS * S[a] + T1] = dP[ROWS * S[a] + T2] = 0.0;
    }
    for (int a = 0; a < ns; a++)
        for (int r = 0; r < 2; r++) {
            const int row = ROWS * S[a] + T1 + r;
            double v = 0.0;
            for (int j = 0; j < m; j++) v += c->W[row * m + j] * dP[j];
            b[2 * a + r] = -v - nu[row] / c->prelax;
            for (int bb = 0; bb < ns; bb++)
                for (int q = 0; q < 2; q++)
                    A[(2 * a + r) * n + 2 * bb + q] = c->W[row * m + ROWS * S[bb] + T1 + q];
        }
    spd_solve(A, b, n);
    int worst = -1;
    double excess = 1.0 + SG_CONE_SLACK;
    for (int a = 0; a < ns; a++) {
        const int k = S[a];
        const double t = hypot(b[2 * a], b[2 * a + 1]), lim = c->mu[k] * c->w->rho[k];
        dP[ROWS * k + T1] = b[2 * a], dP[ROWS * k + T2] = b[2 * a + 1];
        if (t > excess * lim) excess = t / lim, worst = a;
    }
    return worst;
}

/* dP/dp at the velocity nu; mode[k] records each contact's state. */
static void rate(const sg_ctx *c, const double *nu, double *dP)
{
    mcd_stronge_ws *w = c->w;
    int ns = 0;
    for (int k = 0; k < c->nc; k++) {
        const double *v = nu + ROWS * k, vt = hypot(v[T1], v[T2]), f = c->mu[k] * w->rho[k];
        dP[ROWS * k + N] = w->rho[k];
        dP[ROWS * k + T1] = dP[ROWS * k + T2] = 0.0;
        if (!(f > 0)) {
            w->mode[k] = SG_FREE;
        } else if (!w->stuck[k] && vt > c->vtol) {
            w->mode[k] = SG_SLIP;
            dP[ROWS * k + T1] = -f * v[T1] / vt, dP[ROWS * k + T2] = -f * v[T2] / vt;
        } else {
            w->mode[k] = SG_STICK;
            w->S[ns++] = k;
        }
    }
    while (ns > 0) {
        const int a = stick_rates(c, nu, dP, w->S, ns);
        if (a < 0) break;
        const int k = w->S[a];
        const double t = hypot(dP[ROWS * k + T1], dP[ROWS * k + T2]);
        const double s0[2] = {-dP[ROWS * k + T1] / t, -dP[ROWS * k + T2] / t};
        w->S[a] = w->S[--ns];
        w->mode[k] = restart_slip(c, dP, k, s0);
    }
}

static double power(const sg_ctx *c, const double *nu)
{
    double g = 0.0;
    for (int k = 0; k < c->nc; k++) g += c->w->rho[k] * nu[ROWS * k + N];
    return g;
}

/* One trial step of length h from (P, nu) with the rate k1 there: the
 * Bogacki-Shampine 3(2) pair (third order kept), or Euler when euler is
 * set; result in (Pt, nut); returns the error estimate max |W (P3 - P2)|. */
static double trial(const sg_ctx *c, double h, int euler)
{
    mcd_stronge_ws *w = c->w;
    const int m = c->m;
    for (int i = 0; i < m; i++) w->Pe[i] = w->P[i] + h * (euler ? 1.0 : 0.5) * w->k1[i];
    velocity(c, w->Pe, w->nut);
    if (euler) {
        memcpy(w->Pt, w->Pe, (size_t)m * sizeof *w->Pt);
        return 0.0;
    }
    rate(c, w->nut, w->k2);
    for (int i = 0; i < m; i++) w->Pe[i] = w->P[i] + 0.75 * h * w->k2[i];
    velocity(c, w->Pe, w->nut);
    rate(c, w->nut, w->k3);
    for (int i = 0; i < m; i++)
        w->Pt[i] =
            w->P[i] + h * (2.0 / 9.0 * w->k1[i] + 1.0 / 3.0 * w->k2[i] + 4.0 / 9.0 * w->k3[i]);
    velocity(c, w->Pt, w->nut);
    rate(c, w->nut, w->k4);
    for (int i = 0; i < m; i++) /* P3 - P2 */
        w->Pe[i] = h * (-5.0 / 72.0 * w->k1[i] + 1.0 / 12.0 * w->k2[i] + 1.0 / 9.0 * w->k3[i] -
                        1.0 / 8.0 * w->k4[i]);
    double err = 0.0;
    for (int i = 0; i < m; i++) {
        double v = 0.0;
        for (int j = 0; j < m; j++) v += c->W[i * m + j] * w->Pe[j];
        err = fmax(err, fabs(v));
    }
    return err;
}

/* Normal work at the end of a trial step of length h (per contact in Wn1,
 * trapezoidal rule on rho_k nu_n,k). */
static double trial_work(const sg_ctx *c, double h)
{
    double W = 0.0;
    for (int k = 0; k < c->nc; k++) {
        const double r = c->w->rho[k];
        c->w->Wn1[k] =
            c->w->Wn[k] + 0.5 * h * r * (c->w->nu[ROWS * k + N] + c->w->nut[ROWS * k + N]);
        W += c->w->Wn1[k];
    }
    return W;
}

/* Which event the root finder locates. */
typedef enum { SG_END_COMPRESSION, SG_END_RESTITUTION } sg_event;

/* F(s) of the event at the end of a trial step of length s. */
static double event_value(const sg_ctx *c, sg_event ev, double s, int euler, double target)
{
    trial(c, s, euler);
    const double W = trial_work(c, s);
    return ev == SG_END_COMPRESSION ? power(c, c->w->nut) : W - target;
}

/* Locates the step length s in (0, h] at which F changes sign (F(0) = f0
 * < 0 <= F(h) = fh) by the Illinois variant of regula falsi; leaves the
 * trial step of length s in (Pt, nut, Wn1). */
static void locate(const sg_ctx *c, sg_event ev, double h, int euler, double target, double f0,
                   double fh, double ftol)
{
    double a = 0.0, b = h, fa = f0, fb = fh, s = h;
    int side = 0;
    for (int it = 0; it < SG_ROOT_ITERS; it++) {
        s = (a * fb - b * fa) / (fb - fa);
        if (!(s > a && s < b)) s = 0.5 * (a + b);
        const double fs = event_value(c, ev, s, euler, target);
        if (fabs(fs) <= ftol || b - a <= 1e-15 * h) return;
        if (fs < 0) {
            a = s, fa = fs;
            if (side == -1) fb *= 0.5;
            side = -1;
        } else {
            b = s, fb = fs;
            if (side == 1) fa *= 0.5;
            side = 1;
        }
    }
    event_value(c, ev, s, euler, target);
}

/* Largest step before a slipping contact's slip speed reaches zero along
 * the rate k1 (its index in *which), +inf if none decreases. */
static double stick_cap(const sg_ctx *c, int *which)
{
    double cap = INFINITY;
    *which = -1;
    for (int k = 0; k < c->nc; k++) {
        if (c->w->mode[k] != SG_SLIP) continue;
        const double *v = c->w->nu + ROWS * k, vt = hypot(v[T1], v[T2]);
        double a[2];
        tangential_rate(c, c->w->k1, k, a);
        const double r = (a[0] * v[T1] + a[1] * v[T2]) / vt;
        if (r < 0 && vt / -r < cap) cap = vt / -r, *which = k;
    }
    return cap;
}

/* Accepts the trial step of length h: (P, nu, Wn) <- (Pt, nut, Wn1); stick
 * events. A contact becomes stuck (a stick candidate) when a capped step
 * ends its slip, or when its slip speed is below thr = max(vtol, h mu rho
 * max W_tt), the speed its own friction removes in one such step (several
 * points of one body reach stick together); it is released when its slip
 * speed exceeds SG_SLIP_HYST thr (hysteresis against chattering), and a
 * contact restarting slip is not stuck again before. */
static void accept(const sg_ctx *c, double h, int capped)
{
    mcd_stronge_ws *w = c->w;
    const int m = c->m;
    memcpy(w->P, w->Pt, (size_t)m * sizeof *w->P);
    memcpy(w->nu, w->nut, (size_t)m * sizeof *w->nu);
    memcpy(w->Wn, w->Wn1, (size_t)c->nc * sizeof *w->Wn);
    for (int k = 0; k < c->nc; k++) {
        const int t1 = ROWS * k + T1, t2 = ROWS * k + T2;
        const double vt = hypot(w->nu[t1], w->nu[t2]);
        const double wtt = fmax(c->W[t1 * m + t1], c->W[t2 * m + t2]);
        const double thr = fmax(c->vtol, h * c->mu[k] * w->rho[k] * wtt);
        if (vt > SG_SLIP_HYST * thr)
            w->stuck[k] = 0;
        else if (vt <= thr && w->mode[k] != SG_SLIP_START)
            w->stuck[k] = 1;
    }
    if (capped >= 0) w->stuck[capped] = 1;
}

/* e^2 = sum e_k^2 W_c,k / sum W_c,k over the contacts' compression work. */
static double global_e2(const sg_ctx *c, const double *e)
{
    double num = 0.0, den = 0.0;
    for (int k = 0; k < c->nc; k++) {
        const double wc = fmin(c->w->Wn[k], 0.0);
        num += e[k] * e[k] * wc, den += wc;
    }
    return den < 0 ? num / den : 0.0;
}

static double sum_work(const sg_ctx *c)
{
    double W = 0.0;
    for (int k = 0; k < c->nc; k++) W += c->w->Wn[k];
    return W;
}

/* The impulse-domain integration through compression and restitution;
 * fills st (work, steps) and leaves P in ws->P. */
static mcd_status integrate(const sg_ctx *c, const double *e, double psum,
                            const mcd_stronge_opts *o, mcd_stronge_stats *st, mcd_error *err)
{
    mcd_stronge_ws *w = c->w;
    const double atol = o->tol * c->vscale, hmin = SG_H_MIN * psum;
    double h = SG_H_FIRST * psum, Wmin = 0.0, e2 = 0.0;
    int restitution = 0, evals = 0;
    while (evals++ < o->max_steps) {
        rate(c, w->nu, w->k1);
        int which;
        const double cap = stick_cap(c, &which);
        const int capped = cap <= h;
        const double hh = capped ? cap : h;
        const double errest = trial(c, hh, capped);
        if (!capped && errest > atol && hh > hmin) {
            h = fmax(hmin, hh * fmax(0.2, 0.9 * cbrt(atol / errest)));
            st->rejected++;
            continue;
        }
        const double g0 = power(c, w->nu), g1 = power(c, w->nut), W0 = sum_work(c);
        const double W1 = trial_work(c, hh), target = (1.0 - e2) * Wmin;
        if (!restitution && g1 >= 0) { /* end of compression inside the step */
            locate(c, SG_END_COMPRESSION, hh, capped, 0.0, g0, g1, 1e-14 * c->vscale);
            accept(c, hh, -1);
            st->steps++;
            st->work_compression = Wmin = sum_work(c);
            e2 = global_e2(c, e);
            st->e = sqrt(e2);
            restitution = 1;
            if (e2 == 0.0) return MCD_OK;
            continue;
        }
        if (restitution && W0 >= target) return MCD_OK;
        if (restitution && W1 >= target) { /* end of restitution inside the step */
            locate(c, SG_END_RESTITUTION, hh, capped, target, W0 - target, W1 - target,
                   1e-13 * fabs(Wmin));
            accept(c, hh, -1);
            st->steps++;
            return MCD_OK;
        }
        accept(c, hh, capped ? which : -1);
        st->steps++;
        if (restitution && W1 < Wmin) st->work_compression = Wmin = W1;
        if (!capped) h = hh * fmin(4.0, 0.9 * cbrt(atol / fmax(errest, 1e-300)));
    }
    return mcd_fail(err, MCD_ERR_NOT_CONVERGED,
                    "Stronge impact: %d steps (%d rejected) without the end of restitution",
                    st->steps, st->rejected);
}

mcd_status mcd_stronge_solve(mcd_stronge_ws *w, int nc, const double *W, const double *nu,
                             const double *mu, const double *e, const mcd_stronge_opts *opt,
                             double *P, mcd_stronge_stats *st, mcd_error *err)
{
    mcd_stronge_stats local;
    mcd_stronge_stats *s = st ? st : &local;
    memset(s, 0, sizeof *s);
    const mcd_stronge_opts o = opt ? *opt : mcd_stronge_default_opts();
    mcd_status r = check_input(w, nc, W, nu, mu, e, &o, P, err);
    if (P && nc > 0 && w && nc <= w->cap) memset(P, 0, ROWS * (size_t)nc * sizeof *P);
    if (r != MCD_OK || nc == 0) return r;
    sg_ctx c = {w, nc, ROWS * nc, W, nu, mu, 0.0, 0.0, 0.0};
    for (int i = 0; i < c.m; i++) c.vscale = fmax(c.vscale, fabs(nu[i]));
    c.vtol = SG_STICK_VTOL * c.vscale;
    const double psum = plastic_impulse(&c);
    if (!(psum > 0)) return MCD_OK; /* no contact approaches */
    for (int k = 0; k < nc; k++) w->rho[k] = w->x[k] / psum;
    c.prelax = SG_RELAX * psum;
    memset(w->P, 0, (size_t)c.m * sizeof *w->P);
    memcpy(w->nu, nu, (size_t)c.m * sizeof *w->nu);
    memset(w->Wn, 0, (size_t)nc * sizeof *w->Wn);
    memset(w->stuck, 0, (size_t)nc * sizeof *w->stuck);
    if ((r = integrate(&c, e, psum, &o, s, err)) != MCD_OK) return r;
    double dT = 0.0;
    for (int i = 0; i < c.m; i++) {
        P[i] = w->P[i];
        dT += 0.5 * w->P[i] * (nu[i] + w->nu[i]);
        if (i % ROWS == N) s->p += w->P[i]; /* the normal rows */
    }
    const double Wf = sum_work(&c);
    s->energy_change = dT;
    s->work_restitution = Wf - s->work_compression;
    s->work_friction = dT - Wf;
    return MCD_OK;
}

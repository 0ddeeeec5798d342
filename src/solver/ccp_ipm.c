/* Primal-dual interior-point method for the CCP (include/mcdyn/ccp.h,
 * mcd_ccp_solve_ipm): the cone QP min 1/2 gamma^T N gamma + r^T gamma over
 * K as a monotone second-order-cone complementarity problem, with
 * Nesterov-Todd scaling and Mehrotra's predictor-corrector (Vandenberghe
 * 2010, "The CVXOPT linear and quadratic cone program solvers", Sec. 4-5
 * for the scaling of a second-order cone; Domahidi, Chu & Boyd 2013, ECOS,
 * for the combined step). One Cholesky factor per iteration, used by both
 * directions: dense (LAPACK dpotrf), or sparse (CHOLMOD, sparse_cholesky.h)
 * on large block-sparse N. Notation as in ccp.h's block for the solver. */
#include "../base/clock.h"
#include "../base/lapack.h"
#include "block_pattern.h"
#include "ccp_common.h"
#include "ccp_ipm.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define STEP_FRACTION 0.99  /* of the step to the cones' boundary */
#define SIGMA_MIN     0.1   /* floor of Mehrotra's centering parameter (see iterate) */
#define MIN_STEP      1e-10 /* a step alpha below this is a stall */
#define MAX_STALLS    3     /* consecutive stalled steps that end the solve */
#define REGULARIZE    1e-14 /* static shift of S N S + H, relative to its diagonal */
#define REGULARIZE_UP 100.0 /* factor of the shift when the factorization fails */
#define MAX_SHIFTS    6     /* factorization attempts per iteration */
#define REFINE_STEPS  3     /* iterative refinement of each solve, at most */
#define IPM_VECTORS   14    /* vectors of n doubles in the work */
#define BLOCK_DOUBLES 9     /* A_k^-1 (3 x 3) per contact */

enum { ROWS = MCD_FC3D_ROWS };

typedef struct ipm {
    const mcd_fc3d *p;
    int n, nb, nc;
    double *F;                   /* n x n: dense Cholesky factor of S N S + H (+ shift) */
    mcd_sparse_cholesky *sparse; /* the sparse factor, set up for N (F unused), or NULL */
    double *ainv;                /* A_k^-1 per contact, 3 x 3 row-major (the scaling) */
    double *x, *z;               /* primal v (scaled gamma, all rows), dual s (cone rows) */
    double *lam;                 /* lambda = A^-1 v = A^T s (cone rows) */
    double *rd;                  /* z - (S N S x + S r): the linear residual (z_b = 0) */
    double *rhs, *dx, *res;      /* right-hand side, Newton step, refinement residual */
    double *dxt, *dzt;           /* scaled directions A^-1 dx, A^T dz (cone rows) */
    double *dxa, *dza;           /* the predictor's scaled directions */
    double *gamma, *d, *best;    /* S x projected on K, N gamma + r, best gamma */
    double shift;                /* the static shift of the last factor */
} ipm;

size_t mcd_ccp_ipm_work_size(const mcd_fc3d *p)
{
    if (!p || p->nb < 0 || p->nc < 0 || p->nc > (INT32_MAX - p->nb) / 3) return 0;
    size_t n = (size_t)mcd_fc3d_size(p),
           extra = IPM_VECTORS + BLOCK_DOUBLES / ROWS; /* 9 nc <= 3 n */
    if (n > 0 && n > (SIZE_MAX / sizeof(double) - extra) / n - extra) return 0;
    return n * n + extra * n;
}

static void bind(ipm *w, const mcd_fc3d *p, double *work, mcd_sparse_cholesky *sparse)
{
    int n = mcd_fc3d_size(p);
    w->p = p, w->n = n, w->nb = p->nb, w->nc = p->nc;
    w->F = work;
    w->sparse = sparse;
    w->ainv = work + (size_t)n * n;
    double *vec = w->ainv + (size_t)BLOCK_DOUBLES * p->nc;
    double **v[] = {&w->x,   &w->z,   &w->lam, &w->rd,  &w->rhs,   &w->dx, &w->res,
                    &w->dxt, &w->dzt, &w->dxa, &w->dza, &w->gamma, &w->d,  &w->best};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) *v[i] = vec + i * (size_t)n;
}

/* ---- second-order cone L = {u_0 >= |(u_1, u_2)|} and its Jordan algebra ---- */

static double soc_det(const double *u) /* u^T J u, J = diag(1, -1, -1) */
{
    double t = hypot(u[1], u[2]);
    return (u[0] - t) * (u[0] + t);
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* a o b = (a . b, a_0 b_1 + b_0 a_1). */
static void jordan_product(const double *a, const double *b, double *out)
{
    double o0 = dot3(a, b);
    out[1] = a[0] * b[1] + b[0] * a[1];
    out[2] = a[0] * b[2] + b[0] * a[2];
    out[0] = o0;
}

/* u = lam \ v: the solution of lam o u = v (lam in int L). */
static void jordan_divide(const double *lam, const double *v, double *u)
{
    double u0 = (lam[0] * v[0] - lam[1] * v[1] - lam[2] * v[2]) / soc_det(lam);
    u[1] = (v[1] - u0 * lam[1]) / lam[0];
    u[2] = (v[2] - u0 * lam[2]) / lam[0];
    u[0] = u0;
}

static void matvec3(const double *A, const double *x, double *y)
{
    for (int i = 0; i < 3; i++) y[i] = dot3(A + 3 * i, x);
}

static void matvec3_t(const double *A, const double *x, double *y) /* y = A^T x */
{
    for (int i = 0; i < 3; i++) y[i] = A[i] * x[0] + A[3 + i] * x[1] + A[6 + i] * x[2];
}

/* The largest alpha with lam + alpha u in L (lam in int L), or INFINITY:
 * the Lorentz boost B that maps lam / sqrt(det lam) to e = (1, 0, 0) keeps
 * L, so lam + alpha u in L iff e + alpha rho in L, rho = B u / sqrt(det lam),
 * i.e. alpha (|rho_1| - rho_0) <= 1. */
static double max_step(const double *lam, const double *u)
{
    double s = sqrt(soc_det(lam)), l[3] = {lam[0] / s, lam[1] / s, lam[2] / s};
    double r0 = l[0] * u[0] - l[1] * u[1] - l[2] * u[2]; /* (J l) . u */
    double c = (r0 + u[0]) / (l[0] + 1.0);
    double r1 = u[1] - c * l[1], r2 = u[2] - c * l[2];
    double m = (hypot(r1, r2) - r0) / s;
    return m > 0 ? 1.0 / m : INFINITY;
}

/* The Nesterov-Todd scaling of x, z in int L (Vandenberghe 2010, Sec. 4.3):
 * xb = x / sqrt(det x), zb = z / sqrt(det z), g = sqrt((1 + xb . zb) / 2),
 * wb = (xb + J zb) / (2 g), v = (wb + e) / sqrt(2 (wb_0 + 1)),
 * beta = (det x / det z)^(1/4), W = beta (2 v v^T - J), so that
 * W z = W^-1 x = lam. Stores W^-1 = (2 J v v^T J - J) / beta and lam;
 * 0 if x or z is not in int L. */
static int nt_scaling(const double *x, const double *z, double *winv, double *lam)
{
    double dx = soc_det(x), dz = soc_det(z);
    if (!(dx > 0 && dz > 0 && x[0] > 0 && z[0] > 0)) return 0;
    double sx = sqrt(dx), sz = sqrt(dz), xb[3], zb[3];
    for (int i = 0; i < 3; i++) xb[i] = x[i] / sx, zb[i] = z[i] / sz;
    double g = sqrt(0.5 * (1.0 + dot3(xb, zb)));
    double wb[3] = {(xb[0] + zb[0]) / (2 * g), (xb[1] - zb[1]) / (2 * g),
                    (xb[2] - zb[2]) / (2 * g)};
    double c = 1.0 / sqrt(2.0 * (wb[0] + 1.0));
    double jv[3] = {(wb[0] + 1.0) * c, -wb[1] * c, -wb[2] * c}; /* J v */
    double beta = sqrt(sx / sz);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            winv[3 * i + j] = (2 * jv[i] * jv[j] - (i == j ? (i ? -1.0 : 1.0) : 0.0)) / beta;
    matvec3(winv, x, lam);
    return 1;
}

/* ---- the problem in v: gamma = S v, S = diag(I_nb, (1, mu_k, mu_k) per contact) ---- */

static double s_entry(const ipm *w, int i)
{
    return i < w->nb || (i - w->nb) % ROWS == MCD_FC3D_N ? 1.0 : w->p->mu[(i - w->nb) / ROWS];
}

/* out = S N S u (+ S r if with_r); w->gamma is used as scratch. */
static void scaled_matvec(ipm *w, const double *u, int with_r, double *out)
{
    for (int i = 0; i < w->n; i++) w->gamma[i] = s_entry(w, i) * u[i];
    mcd_block_matvec(mcd_sparse_cholesky_product(w->sparse), w->n, w->p->W, w->gamma,
                     with_r ? w->p->q : NULL, out);
    for (int i = 0; i < w->n; i++) out[i] *= s_entry(w, i);
}

/* H_k = A_k^-T A_k^-1 applied to u_k, added to out_k. */
static void add_h(const ipm *w, int k, const double *u, double *out)
{
    double t[3], h[3];
    matvec3(w->ainv + BLOCK_DOUBLES * k, u, t);
    matvec3_t(w->ainv + BLOCK_DOUBLES * k, t, h);
    for (int i = 0; i < 3; i++) out[i] += h[i];
}

/* (H_k)_ij = (A_k^-T A_k^-1)_ij = sum_m (A_k^-1)_mi (A_k^-1)_mj. */
static double h_entry(const double *ainv, int i, int j)
{
    return ainv[i] * ainv[j] + ainv[3 + i] * ainv[3 + j] + ainv[6 + i] * ainv[6 + j];
}

/* The dense S N S + H, shifted: row-major symmetric, its own column-major
 * copy for dpotrf. */
static void form_dense(ipm *w, double dmax)
{
    int n = w->n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            w->F[(size_t)i * n + j] = s_entry(w, i) * w->p->W[(size_t)i * n + j] * s_entry(w, j);
    for (int k = 0; k < w->nc; k++) {
        const double *wi = w->ainv + BLOCK_DOUBLES * k;
        double *f = w->F + (size_t)(w->nb + ROWS * k) * n + w->nb + ROWS * k;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) f[(size_t)i * n + j] += h_entry(wi, i, j);
    }
    for (int i = 0; i < n; i++) w->F[(size_t)i * n + i] *= 1.0 + w->shift;
    for (int i = 0; i < n; i++) w->F[(size_t)i * n + i] += w->shift * dmax;
}

/* The same matrix's entries in the sparse factor's pattern, built there
 * directly (the pattern holds every diagonal block, so every H_k). */
static void form_sparse(ipm *w, double dmax)
{
    mcd_sparse_cholesky_entries e = mcd_sparse_cholesky_entries_of(w->sparse);
    size_t n = (size_t)w->n;
    for (size_t p = 0; p < e.count; p++) {
        int i = e.row[p], j = e.col[p];
        double v = s_entry(w, i) * w->p->W[(size_t)i * n + (size_t)j] * s_entry(w, j);
        int bi = mcd_block_of(w->nb, i);
        if (i >= w->nb && bi == mcd_block_of(w->nb, j)) {
            int k = bi - w->nb, o = w->nb + ROWS * k;
            v += h_entry(w->ainv + BLOCK_DOUBLES * k, i - o, j - o);
        }
        e.value[p] = i == j ? v * (1.0 + w->shift) + w->shift * dmax : v;
    }
}

/* F = S N S + H + shift (diag(S N S + H) + max diag(S N S) I), factored by
 * dpotrf or the sparse factor. The relative shift starts at REGULARIZE and
 * grows while the factorization fails: a contact near the cone's boundary
 * makes H_k ill-conditioned (entries ~1e10 with an eigenvalue ~1e-10), and
 * a shift relative to each diagonal entry covers the rounding of its row's
 * elimination where one relative to the largest diagonal of N does not. 0
 * if it never succeeds. */
static int factor(ipm *w)
{
    int n = w->n, ok = 0;
    double dmax = 0.0;
    for (int i = 0; i < n; i++)
        dmax = fmax(dmax, s_entry(w, i) * s_entry(w, i) * w->p->W[(size_t)i * n + i]);
    dmax = dmax > 0 ? dmax : 1.0;
    w->shift = REGULARIZE;
    for (int attempt = 0; attempt < MAX_SHIFTS && !ok; attempt++, w->shift *= REGULARIZE_UP) {
        if (w->sparse) {
            form_sparse(w, dmax);
            ok = mcd_sparse_cholesky_factor(w->sparse);
        } else {
            int info = 0;
            form_dense(w, dmax);
            dpotrf_("L", &n, w->F, &n, &info);
            ok = info == 0;
        }
    }
    return ok;
}

/* rhs := F^-1 rhs with the factor; NaN if the sparse solve fails (then the
 * iterate is non-finite and the solve ends on that status). */
static void solve_factored(ipm *w, double *rhs)
{
    int n = w->n, one = 1, info = 0;
    if (!w->sparse)
        dpotrs_("L", &n, &one, w->F, &n, rhs, &n, &info);
    else if (!mcd_sparse_cholesky_solve(w->sparse, rhs))
        for (int i = 0; i < n; i++) rhs[i] = NAN;
}

/* dx = (S N S + H)^-1 rhs: the shifted factor, then iterative refinement
 * against the unshifted operator while it reduces the residual. */
static void solve(ipm *w)
{
    int n = w->n;
    memcpy(w->dx, w->rhs, (size_t)n * sizeof *w->dx);
    solve_factored(w, w->dx);
    double last = INFINITY;
    for (int step = 0; step < REFINE_STEPS; step++) {
        scaled_matvec(w, w->dx, 0, w->res);
        for (int k = 0; k < w->nc; k++)
            add_h(w, k, w->dx + w->nb + ROWS * k, w->res + w->nb + ROWS * k);
        double norm = 0.0;
        for (int i = 0; i < n; i++) {
            w->res[i] = w->rhs[i] - w->res[i];
            norm = fmax(norm, fabs(w->res[i]));
        }
        if (!(norm < 0.5 * last)) break;
        last = norm;
        solve_factored(w, w->res);
        for (int i = 0; i < n; i++) w->dx[i] += w->res[i];
    }
}

/* The Newton direction for the complementarity target lam o (dxt + dzt) = rc,
 * given u = lam \ rc per contact (in dzt on entry):
 *     (S N S + H) dx = rd + [0; A^-T u],   dxt = A^-1 dx,   dzt = u - dxt. */
static void direction(ipm *w)
{
    memcpy(w->rhs, w->rd, (size_t)w->n * sizeof *w->rhs);
    for (int k = 0; k < w->nc; k++) {
        double t[3], *u = w->dzt + w->nb + ROWS * k, *r = w->rhs + w->nb + ROWS * k;
        matvec3_t(w->ainv + BLOCK_DOUBLES * k, u, t);
        for (int i = 0; i < 3; i++) r[i] += t[i];
    }
    solve(w);
    for (int k = 0; k < w->nc; k++) {
        int o = w->nb + ROWS * k;
        matvec3(w->ainv + BLOCK_DOUBLES * k, w->dx + o, w->dxt + o);
        for (int i = 0; i < 3; i++) w->dzt[o + i] -= w->dxt[o + i];
    }
}

/* The largest alpha <= 1 keeping lam + alpha dxt and lam + alpha dzt in L
 * (A^-1 x + alpha A^-1 dx and A^T z + alpha A^T dz: A maps L onto L). */
static double step_to_boundary(const ipm *w, const double *dxt, const double *dzt)
{
    double alpha = 1.0;
    for (int k = 0; k < w->nc; k++) {
        int o = w->nb + ROWS * k;
        alpha = fmin(alpha, fmin(max_step(w->lam + o, dxt + o), max_step(w->lam + o, dzt + o)));
    }
    return alpha;
}

/* The barrier parameter (x . z) / nc after a step alpha along the scaled
 * directions (x . z = lam_x . lam_z in the scaled space). */
static double gap_after(const ipm *w, double alpha, const double *dxt, const double *dzt)
{
    double sum = 0.0;
    for (int k = 0; k < w->nc; k++) {
        int o = w->nb + ROWS * k;
        double a[3], b[3];
        for (int i = 0; i < 3; i++)
            a[i] = w->lam[o + i] + alpha * dxt[o + i], b[i] = w->lam[o + i] + alpha * dzt[o + i];
        sum += dot3(a, b);
    }
    return sum / w->nc;
}

/* gamma = S x projected on K (x_k is inside L; the projection only removes
 * the rounding of the multiplication by mu), d = N gamma + r, and the
 * stopping rule's measures. */
static void measure(ipm *w, mcd_ccp_stats *st)
{
    for (int i = 0; i < w->n; i++) w->gamma[i] = s_entry(w, i) * w->x[i];
    for (int k = 0; k < w->nc; k++) mcd_ccp_proj3(w->p->mu[k], w->gamma + w->nb + ROWS * k);
    mcd_block_matvec(mcd_sparse_cholesky_product(w->sparse), w->n, w->p->W, w->gamma, w->p->q,
                     w->d);
    mcd_ccp_measure(w->p, w->gamma, w->d, st);
}

/* rd = z - (S N S x + S r), with z_b = 0 on the bilateral rows. */
static void linear_residual(ipm *w)
{
    scaled_matvec(w, w->x, 1, w->rd);
    for (int i = 0; i < w->n; i++) w->rd[i] = (i < w->nb ? 0.0 : w->z[i]) - w->rd[i];
}

/* Moves every cone block of u into int L: u_k += (a + t) e with a the
 * largest |u_1| - u_0 over the blocks, when a >= 0 (Vandenberghe 2010,
 * Sec. 5.3's shift, with t instead of 1 for the units). */
static void shift_inside(ipm *w, double *u, double t)
{
    double a = -INFINITY;
    for (int k = 0; k < w->nc; k++) {
        const double *b = u + w->nb + ROWS * k;
        a = fmax(a, hypot(b[1], b[2]) - b[0]);
    }
    if (a < 0) return;
    for (int k = 0; k < w->nc; k++) u[w->nb + ROWS * k] += a + t;
}

/* The start: x = -(S N S + tau I)^-1 S r with tau the mean diagonal of S N S
 * (the least-squares point of the KKT system with the scaling sqrt(tau) I), z = -x
 * on the cones, both shifted into int L, and their Nesterov-Todd scaling
 * (A = W). 0 if the factorization fails. */
static int start(ipm *w)
{
    int n = w->n;
    double tau = 0.0;
    for (int i = 0; i < n; i++) tau += s_entry(w, i) * s_entry(w, i) * w->p->W[(size_t)i * n + i];
    tau = tau > 0 ? tau / n : 1.0;
    for (int k = 0; k < w->nc; k++) {
        double *wi = w->ainv + BLOCK_DOUBLES * k, r = sqrt(tau); /* H = A^-T A^-1 = tau I */
        for (int i = 0; i < BLOCK_DOUBLES; i++) wi[i] = i % 4 == 0 ? r : 0.0;
    }
    if (!factor(w)) return 0;
    memset(w->rd, 0, (size_t)n * sizeof *w->rd);
    scaled_matvec(w, w->rd, 1, w->rhs); /* S r */
    for (int i = 0; i < n; i++) w->rhs[i] = -w->rhs[i];
    solve(w);
    double scale = 0.0;
    for (int i = 0; i < n; i++) {
        w->x[i] = w->dx[i];
        w->z[i] = i < w->nb ? 0.0 : -w->dx[i];
        scale = fmax(scale, fabs(w->dx[i]));
    }
    double t = scale > 0 ? scale : 1.0;
    shift_inside(w, w->x, t);
    shift_inside(w, w->z, t * tau);
    for (int k = 0; k < w->nc; k++) {
        int o = w->nb + ROWS * k;
        nt_scaling(w->x + o, w->z + o, w->ainv + BLOCK_DOUBLES * k, w->lam + o); /* both inside L */
    }
    return 1;
}

/* After a step alpha from lam along (dxt, dzt) in the scaled space of
 * contact k: the Nesterov-Todd scaling Wt of xt = lam + alpha dxt and
 * zt = lam + alpha dzt (well inside L in these coordinates), lam <- Wt^-1 xt
 * and A^-1 <- Wt^-1 A^-1, so that A^-1 x = A^T z = lam again. Recomputing
 * the scaling from x and z instead loses it to cancellation in det x near
 * the cone's boundary (a sliding contact at mu ~ 1e-18: det x ~ 1e-19
 * against x_0^2 ~ 5e-4). 0 if xt or zt left int L (NaN). */
static int rescale(ipm *w, int k, double alpha)
{
    int o = w->nb + ROWS * k;
    double xt[3], zt[3], wt[BLOCK_DOUBLES], a[BLOCK_DOUBLES], *ainv = w->ainv + BLOCK_DOUBLES * k;
    for (int i = 0; i < 3; i++)
        xt[i] = w->lam[o + i] + alpha * w->dxt[o + i],
        zt[i] = w->lam[o + i] + alpha * w->dzt[o + i];
    if (!nt_scaling(xt, zt, wt, w->lam + o)) return 0;
    memcpy(a, ainv, sizeof a);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            ainv[3 * i + j] =
                wt[3 * i] * a[j] + wt[3 * i + 1] * a[3 + j] + wt[3 * i + 2] * a[6 + j];
    return 1;
}

/* Why a solve ended before the stopping rule held. */
typedef enum ipm_end { IPM_RUNNING, IPM_CAP, IPM_STALL, IPM_FACTOR, IPM_NONFINITE } ipm_end;

/* One iteration from (x, z): one factor, the predictor
 * (rc = -lam o lam), sigma = max(SIGMA_MIN, (mu_aff / mu)^3), the corrector
 * (rc = -lam o lam + sigma mu e - dxa o dza), and the step
 * min(1, STEP_FRACTION alpha_max), after which rescale() updates the
 * scaling. *alpha gets the step taken. The floor on sigma keeps the
 * iterates centred: on a sliding contact (gamma_k and d_k both on the
 * boundary) the natural map measures the angle between gamma_T and -d_T,
 * which follows the off-centrality of lambda_k, not mu; with Mehrotra's
 * sigma alone (1e-4..1e-2 at the end) the residual fell as sqrt(mu) and
 * stalled at 1.5e-9..1e-8 (31 failed solves in 1000 steps of the poured
 * pile; NESpheres_10_1, Rover4396), with the floor 0.1 it falls with mu. */
static ipm_end iterate(ipm *w, double *alpha)
{
    int nb = w->nb;
    linear_residual(w);
    if (!factor(w)) return IPM_FACTOR;
    double mu = w->nc ? gap_after(w, 0.0, w->lam, w->lam) : 0.0, sigma = 0.0;
    if (w->nc) {
        for (int k = 0; k < w->nc; k++) /* u = lam \ (-lam o lam) = -lam */
            for (int i = 0; i < 3; i++) w->dzt[nb + ROWS * k + i] = -w->lam[nb + ROWS * k + i];
        direction(w);
        memcpy(w->dxa, w->dxt, (size_t)w->n * sizeof *w->dxa);
        memcpy(w->dza, w->dzt, (size_t)w->n * sizeof *w->dza);
        double a = step_to_boundary(w, w->dxa, w->dza);
        sigma = fmax(SIGMA_MIN, pow(fmin(1.0, fmax(0.0, gap_after(w, a, w->dxa, w->dza) / mu)), 3));
    }
    for (int k = 0; k < w->nc; k++) {
        int o = nb + ROWS * k;
        double ll[3], cc[3], rc[3];
        jordan_product(w->lam + o, w->lam + o, ll);
        jordan_product(w->dxa + o, w->dza + o, cc);
        for (int i = 0; i < 3; i++) rc[i] = -ll[i] - cc[i] + (i == 0 ? sigma * mu : 0.0);
        jordan_divide(w->lam + o, rc, w->dzt + o);
    }
    direction(w);
    double a = fmin(1.0, STEP_FRACTION * step_to_boundary(w, w->dxt, w->dzt));
    for (int i = 0; i < w->n; i++) w->x[i] += a * w->dx[i];
    for (int k = 0; k < w->nc; k++) { /* z += a A^-T dzt, then the new scaling */
        int o = nb + ROWS * k;
        double t[3];
        matvec3_t(w->ainv + BLOCK_DOUBLES * k, w->dzt + o, t);
        for (int i = 0; i < 3; i++) w->z[o + i] += a * t[i];
        if (!rescale(w, k, a)) return IPM_NONFINITE;
    }
    *alpha = a;
    return IPM_RUNNING;
}

static mcd_status finish(ipm *w, const mcd_ccp_opts *o, double *gamma, int it, ipm_end end,
                         double t0, mcd_ccp_stats *st, mcd_error *err)
{
    const char *name = "ccp-ipm";
    memcpy(gamma, w->best, (size_t)w->n * sizeof *gamma);
    mcd_dense_matvec(w->n, w->p->W, gamma, w->p->q, w->d); /* the statistics of gamma, exactly */
    mcd_ccp_measure(w->p, gamma, w->d, st);
    st->iterations = it;
    mcd_status s = MCD_OK;
    if (st->residual <= o->tol)
        s = MCD_OK;
    else if (end == IPM_FACTOR)
        s = mcd_fail(err, MCD_ERR_NOT_CONVERGED,
                     "%s: S N S + H not positive definite after %d iterations (shift %g); best "
                     "residual %g",
                     name, it, w->shift, st->residual);
    else if (end == IPM_STALL)
        s = mcd_fail(err, MCD_ERR_NOT_CONVERGED,
                     "%s: step length below %g %d times after %d iterations; best residual %g",
                     name, MIN_STEP, MAX_STALLS, it, st->residual);
    else if (end == IPM_NONFINITE)
        s = mcd_fail(err, MCD_ERR_NOT_CONVERGED,
                     "%s: iterate became non-finite after %d iterations; best residual %g", name,
                     it, st->residual);
    else
        s = mcd_fail(err, MCD_ERR_NOT_CONVERGED, "%s: residual %g > tol %g after %d iterations",
                     name, st->residual, o->tol, it);
    st->status = s;
    st->seconds = mcd_clock_seconds() - t0;
    return s;
}

/* The solve on the bound w: the start, then iterations until the CCP's
 * stopping rule, max_iter, a stall, a failed factor or a non-finite iterate. */
static mcd_status run(ipm *w, const mcd_ccp_opts *o, double *gamma, double t0, mcd_ccp_stats *st,
                      mcd_error *err)
{
    int n = w->n;
    if (!start(w)) {
        memset(w->best, 0, (size_t)n * sizeof *w->best);
        return finish(w, o, gamma, 0, IPM_FACTOR, t0, st, err);
    }
    mcd_ccp_stats cur = {0}, bst;
    measure(w, &bst);
    memcpy(w->best, w->gamma, (size_t)n * sizeof *w->best);
    int it = 0, stalls = 0;
    ipm_end end = IPM_CAP;
    while (!(bst.residual <= o->tol) && it < o->max_iter) {
        double alpha = 0.0;
        end = iterate(w, &alpha);
        if (end != IPM_RUNNING) break;
        it++;
        measure(w, &cur);
        if (isnan(cur.residual)) {
            end = IPM_NONFINITE;
            break;
        }
        if (cur.residual < bst.residual) {
            bst = cur;
            memcpy(w->best, w->gamma, (size_t)n * sizeof *w->best);
        }
        stalls = alpha < MIN_STEP ? stalls + 1 : 0;
        if (stalls == MAX_STALLS) {
            end = IPM_STALL;
            break;
        }
        end = IPM_CAP;
    }
    return finish(w, o, gamma, it, end, t0, st, err);
}

mcd_status mcd_ccp_solve_ipm_sparse(const mcd_fc3d *p, const mcd_ccp_opts *o, double *gamma,
                                    double *work, mcd_sparse_cholesky *chol, mcd_ccp_stats *st,
                                    mcd_error *err)
{
    double t0 = mcd_clock_seconds();
    mcd_ccp_stats local;
    if (!st) st = &local;
    mcd_status s = mcd_ccp_start("ccp-ipm", p, o, gamma, work, 0, t0, st, err);
    if (s != MCD_OK) return s;
    int n = mcd_fc3d_size(p);
    if (n == 0) {
        mcd_ccp_measure(p, gamma, gamma, st);
        st->seconds = mcd_clock_seconds() - t0;
        return MCD_OK;
    }
    ipm w;
    bind(&w, p, work, mcd_sparse_cholesky_setup(chol, n, p->W, p->nb) ? chol : NULL);
    return run(&w, o, gamma, t0, st, err);
}

mcd_status mcd_ccp_solve_ipm(const mcd_fc3d *p, const mcd_ccp_opts *o, double *gamma, double *work,
                             mcd_ccp_stats *st, mcd_error *err)
{
    return mcd_ccp_solve_ipm_sparse(p, o, gamma, work, NULL, st, err);
}

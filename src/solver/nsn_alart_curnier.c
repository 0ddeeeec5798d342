/* Semismooth Newton method on the Alart-Curnier function
 * (nsn_alart_curnier.h). */
#include "nsn_alart_curnier.h"

#include "../base/lapack.h"
#include "block_product.h"
#include "dense.h"
#include "mcdyn/solver.h"

#include <math.h>
#include <string.h>

#define NSN_EPS_MIN    1e-14 /* least regularisation, relative to rho W's unit diagonal */
#define NSN_EPS_MAX    1e-2  /* largest one before the boost */
#define NSN_BOOST_MAX  1e12  /* give up when the boost exceeds this */
#define NSN_SIGMA      1e-4  /* Armijo's sufficient-decrease constant */
#define NSN_MAX_HALVES 30    /* step halvings of one line search */
#define NSN_PAST_KINK  1e-9  /* relative step past a contact's change of piece */
#define NSN_MEMORY     15    /* iterates whose largest psi is the nonmonotone reference */
#define NSN_STALL      50    /* a rung ends when psi has not halved in this many iterations */

enum { N = MCD_FC3D_N, T1 = MCD_FC3D_T1, T2 = MCD_FC3D_T2, ROWS = MCD_FC3D_ROWS };

/* One contact's Alart-Curnier residual and its Jacobian blocks. */
typedef struct ac_block {
    double phi[ROWS];
    double A[ROWS * ROWS], B[ROWS * ROWS]; /* dPhi_k = A E_k + B W_k, row-major (mcd_fc3d_row) */
} ac_block;

/* Entry (a, b) of a contact's ROWS x ROWS block, row-major. */
static int at(int a, int b)
{
    return ROWS * a + b;
}

static double norm2(double a, double b)
{
    double m = fmax(fabs(a), fabs(b));
    if (m > 1e-150 && m < 1e150) return sqrt(a * a + b * b);
    return hypot(a, b);
}

/* The tangential part when r_t - rho_t u_t lies outside the disc of
 * radius R = mu max(0, d): Phi_t = r_t - R x / |x|, x = r_t - rho_t u_t,
 * and with P = (R / |x|)(I - x x^T / |x|^2), m = mu [d > 0]:
 *     dPhi_t = (I - P) E_t - m x / |x| E_n + rho_t P W_t + m rho_n x / |x| W_n. */
static void ac_slip(double m, const double rho[ROWS], double R, const double r[ROWS], double x1,
                    double x2, double nx, ac_block *b)
{
    double t[2] = {x1 / nx, x2 / nx}, s = R / nx; /* t[a] along row T1 + a */
    for (int a = 0; a < 2; a++) {
        b->phi[T1 + a] = r[T1 + a] - R * t[a];
        b->A[at(T1 + a, N)] = -m * t[a];
        b->B[at(T1 + a, N)] = m * rho[N] * t[a];
        for (int c = 0; c < 2; c++) {
            double P = s * ((a == c) - t[a] * t[c]);
            b->A[at(T1 + a, T1 + c)] = (a == c) - P;
            b->B[at(T1 + a, T1 + c)] = rho[T1] * P;
        }
    }
}

/* Phi_k and its Jacobian blocks (nsn_alart_curnier.h, the CKPS form). On
 * a border (d = 0, |x| = R) the smooth piece on the side of separation
 * and slip is not taken: the stick / contact piece is. */
static void ac_contact(double mu, const double rho[ROWS], const double r[ROWS],
                       const double u[ROWS], ac_block *b)
{
    memset(b, 0, sizeof *b);
    double d = r[N] - rho[N] * u[N];
    if (d > 0) {
        b->phi[N] = rho[N] * u[N]; /* r_n - (r_n - rho_n u_n) */
        b->B[at(N, N)] = rho[N];
    } else {
        b->phi[N] = r[N];
        b->A[at(N, N)] = 1.0;
    }
    double R = mu * fmax(d, 0.0), x1 = r[T1] - rho[T1] * u[T1], x2 = r[T2] - rho[T1] * u[T2];
    double nx = norm2(x1, x2);
    if (nx <= R) { /* stick: Phi_t = rho_t u_t */
        b->phi[T1] = rho[T1] * u[T1];
        b->phi[T2] = rho[T1] * u[T2];
        b->B[at(T1, T1)] = b->B[at(T2, T2)] = rho[T1];
        return;
    }
    ac_slip(d > 0 ? mu : 0.0, rho, R, r, x1, x2, nx, b);
}

/* The rungs of the rho ladder (nsn_alart_curnier.h): factors on the base
 * rho of the normal and the tangential rows. */
static const double rho_ladder[NSN_RUNGS][2] = {{1, 1}, {1e3, 1e3}, {1, 1e6}, {1e-2, 1e6}};

/* rho_i = 1 / W_ii on bilateral rows; on contact k the base
 * 3 / trace(W_kk) (1 where that is not positive) times the rung's factor
 * of the normal row and of the tangent rows. */
static void ac_parameters(const mcd_fc3d *p, int rung, double *rho)
{
    int n = mcd_fc3d_size(p);
    for (int i = 0; i < p->nb; i++) {
        double w = p->W[(size_t)i * n + i];
        rho[i] = w > 0 ? 1.0 / w : 1.0;
    }
    for (int k = 0; k < p->nc; k++) {
        int c = p->nb + ROWS * k;
        double tr = 0.0;
        for (int a = 0; a < ROWS; a++) tr += p->W[(size_t)(c + a) * n + c + a];
        double rk = tr > 0 ? ROWS / tr : 1.0; /* 1 / mean diagonal */
        rho[c + N] = rk * rho_ladder[rung][0];
        rho[c + T1] = rho[c + T2] = rk * rho_ladder[rung][1];
    }
}

/* Phi(r) into phi given u = W r + q; returns psi = 1/2 |Phi|^2. */
static double ac_residual(const mcd_fc3d *p, const double *rho, const double *r, const double *u,
                          double *phi)
{
    double s = 0.0;
    for (int i = 0; i < p->nb; i++) {
        phi[i] = rho[i] * u[i];
        s += phi[i] * phi[i];
    }
    for (int k = 0; k < p->nc; k++) {
        int c = p->nb + ROWS * k;
        ac_block b;
        ac_contact(p->mu[k], rho + c, r + c, u + c, &b);
        for (int a = 0; a < ROWS; a++) {
            phi[c + a] = b.phi[a];
            s += b.phi[a] * b.phi[a];
        }
    }
    return 0.5 * s;
}

/* Rows [c, c + ROWS) of J = A + B (W + eps diag(1 / rho)) for contact k. */
static void contact_rows(const mcd_fc3d *p, int k, const double *rho, const double *r,
                         const double *u, double eps, double *J)
{
    int n = mcd_fc3d_size(p), c = p->nb + ROWS * k;
    ac_block b;
    ac_contact(p->mu[k], rho + c, r + c, u + c, &b);
    for (int a = 0; a < ROWS; a++) {
        double *row = J + (size_t)(c + a) * n;
        memset(row, 0, (size_t)n * sizeof *row);
        for (int e = 0; e < ROWS; e++) {
            double Bae = b.B[at(a, e)];
            if (Bae == 0) continue;
            const double *wrow = p->W + (size_t)(c + e) * n;
            for (int j = 0; j < n; j++) row[j] += Bae * wrow[j];
            row[c + e] += eps * Bae / rho[c + e];
        }
        for (int e = 0; e < ROWS; e++) row[c + e] += b.A[at(a, e)];
    }
}

/* The regularised Newton matrix at (r, u) into J (row-major). */
static void newton_matrix(const mcd_fc3d *p, const double *rho, const double *r, const double *u,
                          double eps, double *J)
{
    int n = mcd_fc3d_size(p);
    for (int i = 0; i < p->nb; i++) { /* Phi_i = rho_i u_i */
        double *row = J + (size_t)i * n;
        const double *wrow = p->W + (size_t)i * n;
        for (int j = 0; j < n; j++) row[j] = rho[i] * wrow[j];
        row[i] += eps;
    }
    for (int k = 0; k < p->nc; k++) contact_rows(p, k, rho, r, u, eps, J);
}

/* step = -J^-1 phi: by the sparse LU when it is set up (sparse) and
 * succeeds; else dense, where the row-major J is the column-major J^T: its
 * LU is that of J^T, and the solve with J is dgetrs with 'T'. 0 if J is
 * exactly singular. */
static int newton_step(int n, const mcd_nsn_ws *w, int sparse, const double *phi, double *step)
{
    double *J = w->J;
    int *ipiv = w->ipiv, info = 0, one = 1;
    if (sparse) {
        for (int i = 0; i < n; i++) step[i] = -phi[i];
        if (mcd_sparse_lu_solve(w->sparse, J, step) && mcd_dense_isfinite(n, step)) return 1;
    }
    dgetrf_(&n, &n, J, &n, ipiv, &info);
    if (info != 0) return 0;
    for (int i = 0; i < n; i++) step[i] = -phi[i];
    dgetrs_("T", &n, &one, J, &n, ipiv, step, &n, &info);
    return info == 0 && mcd_dense_isfinite(n, step);
}

/* The solver's state: the current point and its merit, and the merits of
 * the last NSN_MEMORY iterates of the rung (a ring, recent[0 .. n_recent)). */
typedef struct nsn_state {
    const mcd_fc3d *p;
    const mcd_nsn_ws *w;
    double *r, *u;
    double psi, error, best_error;
    int sparse;                       /* 1: the sparse step is set up for this run */
    const mcd_block_product *product; /* W x + b (block_product.h: dense unless set up) */
    double recent[NSN_MEMORY];
    int n_recent;
} nsn_state;

/* Records psi of the current iterate among the recent ones. */
static void remember_psi(nsn_state *s)
{
    s->recent[s->n_recent % NSN_MEMORY] = s->psi;
    s->n_recent++;
}

/* The nonmonotone reference of Grippo, Lampariello & Lucidi (SIAM J.
 * Numer. Anal. 23, 1986; max over the last m(k) iterates, here m(k) =
 * NSN_MEMORY): the largest psi of the current and the recent iterates. */
static double reference_psi(const nsn_state *s)
{
    double ref = s->psi;
    int m = s->n_recent < NSN_MEMORY ? s->n_recent : NSN_MEMORY;
    for (int i = 0; i < m; i++) ref = fmax(ref, s->recent[i]);
    return ref;
}

/* psi at r + alpha dr (trial point in r_trial, u_trial, phi_trial). */
static double trial_psi(const nsn_state *s, double alpha)
{
    const mcd_nsn_ws *w = s->w;
    int n = mcd_fc3d_size(s->p);
    for (int i = 0; i < n; i++) {
        w->r_trial[i] = s->r[i] + alpha * w->step[i];
        w->u_trial[i] = s->u[i] + alpha * w->w_step[i];
    }
    return ac_residual(s->p, w->rho, w->r_trial, w->u_trial, w->phi_trial);
}

/* The least root in (0, 1) of a x^2 + b x + c, or 2 if there is none. */
static double least_root(double a, double b, double c)
{
    double best = 2.0, disc = b * b - 4.0 * a * c;
    if (a == 0) return b != 0 && -c / b > 0 && -c / b < 1 ? -c / b : best;
    if (disc < 0) return best;
    double sq = sqrt(disc), x[2] = {(-b - sq) / (2.0 * a), (-b + sq) / (2.0 * a)};
    for (int i = 0; i < 2; i++)
        if (x[i] > 0 && x[i] < best) best = x[i];
    return best < 1 ? best : 2.0;
}

/* The first step length in (0, 1) at which contact k changes piece along
 * r + alpha dr (2 if none): d(alpha) = 0, or |x(alpha)| = mu d(alpha) with
 * x = r_t - rho u_t and d = r_n - rho u_n, both affine in alpha. */
static double contact_kink(const nsn_state *s, int k)
{
    const mcd_nsn_ws *w = s->w;
    int c = s->p->nb + ROWS * k;
    double rn = w->rho[c + N], rt = w->rho[c + T1], mu = s->p->mu[k];
    double d0 = s->r[c + N] - rn * s->u[c + N], dd = w->step[c + N] - rn * w->w_step[c + N];
    double x0[2], dx[2]; /* along rows T1, T2 */
    for (int a = 0; a < 2; a++) {
        x0[a] = s->r[c + T1 + a] - rt * s->u[c + T1 + a];
        dx[a] = w->step[c + T1 + a] - rt * w->w_step[c + T1 + a];
    }
    double an = dd != 0 && -d0 / dd > 0 && -d0 / dd < 1 ? -d0 / dd : 2.0;
    double qa = dx[0] * dx[0] + dx[1] * dx[1] - mu * mu * dd * dd;
    double qb = 2.0 * (x0[0] * dx[0] + x0[1] * dx[1] - mu * mu * d0 * dd);
    double qc = x0[0] * x0[0] + x0[1] * x0[1] - mu * mu * d0 * d0;
    return fmin(an, least_root(qa, qb, qc));
}

/* Takes the trial point as the new iterate. */
static void accept(nsn_state *s, double alpha)
{
    const mcd_nsn_ws *w = s->w;
    int n = mcd_fc3d_size(s->p);
    trial_psi(s, alpha);
    memcpy(s->r, w->r_trial, (size_t)n * sizeof *s->r);
    mcd_block_matvec(s->product, n, s->p->W, s->r, s->p->q, s->u); /* exact u, no drift */
    s->psi = ac_residual(s->p, w->rho, s->r, s->u, w->phi);
}

/* Step length along w->step: the first of 1, 1/2, 1/4, ... that passes
 * the nonmonotone Armijo test of Grippo, Lampariello & Lucidi (1986),
 * psi(alpha) <= psi_ref - 2 sigma alpha psi (-2 psi: the directional
 * derivative of psi along an exact Newton step; psi_ref: reference_psi);
 * if that is not the full step, the point just past a contact's first
 * change of piece replaces it when its psi is lower (psi is piecewise
 * smooth along the line and can be flat on the current piece, e.g.
 * sticking contacts moving along the null space of W towards the cone's
 * border); with no halving accepted, such a point is taken if it decreases
 * psi. Returns 1 if a step was taken. */
static int line_search(nsn_state *s)
{
    const mcd_fc3d *p = s->p;
    const mcd_nsn_ws *w = s->w;
    int n = mcd_fc3d_size(p);
    mcd_block_matvec(s->product, n, p->W, w->step, NULL, w->w_step); /* u(r + a dr) = u + a W dr */
    double best_alpha = 0.0, best_psi = s->psi, alpha = 1.0, ref = reference_psi(s);
    for (int h = 0; h <= NSN_MAX_HALVES; h++, alpha *= 0.5) {
        double psi = trial_psi(s, alpha);
        if (psi <= ref - 2.0 * NSN_SIGMA * alpha * s->psi) {
            best_psi = psi, best_alpha = alpha;
            break;
        }
    }
    for (int k = 0; k < p->nc && best_alpha < 1.0; k++) {
        double a = contact_kink(s, k) * (1.0 + NSN_PAST_KINK);
        if (a >= 1.0) continue;
        double psi = trial_psi(s, a);
        if (psi < best_psi) best_psi = psi, best_alpha = a;
    }
    if (best_alpha == 0.0) return 0;
    remember_psi(s);
    accept(s, best_alpha);
    return 1;
}

/* The relative size of Phi that sets eps: |Phi| / max(|r|, |rho q|). */
static double relative_residual(const mcd_nsn_ws *w, int n, const double *r, const double *q,
                                double psi)
{
    double rq = 0.0;
    for (int i = 0; i < n; i++) rq += (w->rho[i] * q[i]) * (w->rho[i] * q[i]);
    double scale = fmax(mcd_dense_norm(n, r), sqrt(rq));
    return scale > 0 ? sqrt(2.0 * psi) / scale : 0.0;
}

static void keep_if_best(nsn_state *s, int n)
{
    s->error = mcd_fc3d_error(s->p, s->r, s->u);
    if (!(s->error < s->best_error)) return;
    s->best_error = s->error;
    memcpy(s->w->r_best, s->r, (size_t)n * sizeof *s->r);
}

/* Newton iterations from s->r with the current rho until the error is
 * <= tol, max_iter iterations are done, no step decreases psi or the rung
 * stalls (psi has not fallen below half its last mark, the least psi that
 * halved the one before, for NSN_STALL iterations); returns the
 * iterations done. */
static int newton_run(nsn_state *s, double tol, int max_iter)
{
    const mcd_fc3d *p = s->p;
    const mcd_nsn_ws *w = s->w;
    int n = mcd_fc3d_size(p), it = 0, it_mark = 0;
    double boost = 1.0, mark = s->psi;
    while (s->error > tol && it < max_iter && boost <= NSN_BOOST_MAX && it - it_mark < NSN_STALL) {
        double rel = relative_residual(w, n, s->r, p->q, s->psi);
        double eps = boost * fmin(fmax(rel, NSN_EPS_MIN), NSN_EPS_MAX);
        newton_matrix(p, w->rho, s->r, s->u, eps, w->J);
        it++;
        if (newton_step(n, w, s->sparse, w->phi, w->step) && line_search(s)) {
            boost = fmax(1.0, boost / 10.0);
            keep_if_best(s, n);
            if (s->psi < 0.5 * mark) mark = s->psi, it_mark = it;
        } else {
            boost *= 10.0;
        }
    }
    return it;
}

/* Starts a rung: its rho, and the state at r. */
static void start_rung(nsn_state *s, int rung)
{
    int n = mcd_fc3d_size(s->p);
    ac_parameters(s->p, rung, s->w->rho);
    s->n_recent = 0; /* psi of another rho: not comparable */
    mcd_block_matvec(s->product, n, s->p->W, s->r, s->p->q, s->u);
    s->psi = ac_residual(s->p, s->w->rho, s->r, s->u, s->w->phi);
}

mcd_status mcd_nsn_alart_curnier(const mcd_fc3d *p, double tol, int max_iter, const mcd_nsn_ws *w,
                                 double *r, double *u, mcd_nsn_result *res)
{
    int n = mcd_fc3d_size(p);
    nsn_state s = {.p = p, .w = w, .r = r, .u = u, .best_error = INFINITY};
    s.sparse = w->sparse && mcd_sparse_lu_setup(w->sparse, n, p->W, p->nb);
    s.product = mcd_sparse_lu_product(w->sparse);
    start_rung(&s, 0);
    *res = (mcd_nsn_result){0, s.psi, 0.0};
    if (!isfinite(s.psi)) return MCD_ERR_NONFINITE;
    keep_if_best(&s, n);
    for (int rung = 0; rung < NSN_RUNGS && s.best_error > tol; rung++) {
        if (rung > 0) {
            memcpy(r, w->r_best, (size_t)n * sizeof *r);
            start_rung(&s, rung);
            keep_if_best(&s, n);
        }
        res->iterations += newton_run(&s, tol, max_iter);
    }
    memcpy(r, w->r_best, (size_t)n * sizeof *r);
    /* the returned u and error by the dense product, as every caller's
     * check recomputes them (the block product's sums are ordered apart) */
    mcd_dense_matvec(n, p->W, r, p->q, u);
    res->psi = ac_residual(p, w->rho, r, u, w->phi);
    res->error = mcd_fc3d_error(p, r, u);
    return res->error <= tol ? MCD_OK : MCD_ERR_NOT_CONVERGED;
}

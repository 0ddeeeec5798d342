/* Semismooth Newton (Levenberg-Marquardt) method for the multi-contact
 * maximum-dissipation law of Preclik, Eibl & Ruede, Eq. (5)
 * (include/mcdyn/impact.h, docs/solvers.md "Maximum-dissipation law").
 *
 * Contact k's block problem minimises 1/2 x^T A_k x + b_k^T x over the cone
 * K_k = {|x_t| <= mu_k x_n} on the plane of maximum compression
 * (A_k x + b_k)_n = 0 when b_k,n <= 0 (active), else x = 0; A_k is the
 * symmetrised W_kk plus delta_k I (delta_k the proximal weight of a
 * singular block, 0 otherwise: maxdiss_internal.h), b_k = u_k - A_k r_k.
 * With a_k = A_k e_n the plane's normal, its optimality system at x = r_k is
 *     sigma_k = u_k - lambda_k a_k in K_k*,  sigma_k _|_ r_k in K_k,
 *     u_k,n = 0,
 * lambda_k the plane's multiplier. The unknowns are z = (r, lambda) and the
 * equations Phi(z) = 0 with
 *     Phi_i   = u_i                                     (bilateral rows)
 *     Phi_k,c = (r_k - P_K(r_k - rho_k sigma_k)) / rho_k  (natural map)
 *     Phi_k,n = phi_FB(u_k,n, a_k . r_k),   phi_FB(a, b) = a + b - |(a, b)|
 * rho_k a rung of the rho ladder times 3 / trace(A_k) (the natural map's
 * zeros do not depend on it), every component a velocity. phi_FB's zeros
 * are those of min(a, b), so it carries the active set: active
 * (b_k,n = u_k,n - a_k . r_k <= 0) it is u_k,n = 0, the plane; inactive
 * (b_k,n > 0) it is a_k . r_k = 0, which on
 * the cone leaves only r_k = 0 when the section {x in K: a_k . x = 0} is
 * the point 0, i.e. A_nn > mu |(A_nt, A_no)| (the paper's P2: then a_k is
 * inside K*, and a negative enough lambda_k satisfies the natural map).
 * Blocks outside P2 can have spurious zeros of Phi; they and every other
 * point are judged by the law's own residual R (maxdiss_internal.h), so a
 * zero of Phi that is not a solution of Eq. (5) is never reported as one.
 * A zero block (W_kk = 0) gets Phi = (r_k, lambda_k).
 *
 * Fischer-Burmeister rather than the min: the merit's square of the min
 * kinks where a contact lifts off, phi_FB^2 is smooth there.
 *
 * Phi is piecewise smooth (the projection's three pieces: interior, polar
 * cone, boundary; phi_FB at (0, 0)). Each iteration takes an element J of
 * its generalized Jacobian and the Levenberg-Marquardt step
 *     d = argmin |J d + Phi|^2 + nu |d|^2,   nu = theta w^2 |Phi| / |Phi_0|
 * (w the largest diagonal entry of W, |Phi_0| the start's; Fan & Yuan's
 * nu ~ |Phi|, locally quadratic also where the solutions are not isolated:
 * redundant contacts make W singular and r non-unique, and the multiplier
 * of an inactive contact is not unique), solved as the least-squares
 * problem [J; sqrt(nu) I] d = [-Phi; 0] by a QR factorization, which does
 * not square J's condition number (maxdiss_step.h): LAPACK's dense dgels,
 * or SuiteSparseQR on J's block pattern (that of W plus the multipliers)
 * when the options lend a solver workspace (coulomb_ws, whose lm_sparse
 * state is set up once per call, at its first step), m = nb + 4 nc > 64 and W is
 * block-sparse enough for lm_sparse. d is a descent direction of
 * psi = 1/2 |Phi|^2; step length by Armijo's rule with halvings. theta
 * shrinks by 10 after an accepted step and grows by 10 when no step length
 * passes (the step turns towards steepest descent); the method gives up
 * when theta exceeds MN_THETA_MAX.
 *
 * The rho ladder: where a solution's velocities are tiny next to its
 * impulses (bodies on redundant contacts whose q has a part outside the
 * range of W slide at 1e-7 m/s), r_k - rho_k sigma_k is r_k to 1e-6 with
 * the base rho, the projection switches piece under perturbations of that
 * size and the iteration stalls at a positive merit; a larger rho balances
 * the two terms. No factor suits every captured step (docs/solvers.md), so
 * the rungs rho_ladder run in turn, twice, each from the best point so far
 * with lambda refitted, max_iter iterations each. Success only when
 * R(r) <= tol; the iterate of least R is returned. The dense step costs
 * O((nb + 4 nc)^3) per iteration and allocates nothing; the sparse step
 * costs the sparse QR of the pile's block pattern and allocates inside
 * SuiteSparse (lm_sparse.h), like the Coulomb solves of the same
 * workspace. */
#include "mcdyn/impact.h"

#include "../base/clock.h"
#include "dense.h"
#include "maxdiss_internal.h"
#include "maxdiss_step.h"
#include "workspace.h"

#include <math.h>
#include <string.h>

#define MN_THETA_START  1e-3  /* initial theta */
#define MN_THETA_MIN    1e-20 /* least theta */
#define MN_THETA_MAX    1e8   /* give up when theta exceeds this */
#define MN_SIGMA        1e-4  /* Armijo's sufficient-decrease constant */
#define MN_HALVES       30    /* step halvings of one line search */
#define MN_MAX_UNKNOWNS 1024  /* largest nb + 4 nc attempted (work 3 m^2 doubles, 25 MB) */

enum { N = MCD_FC3D_N, T1 = MCD_FC3D_T1, T2 = MCD_FC3D_T2, ROWS = MCD_FC3D_ROWS };

/* The workspace (mcd_maxdiss_newton_work_size) and the state of a solve. */
typedef struct mn_solve {
    const mcd_fc3d *p;
    const mcd_maxdiss_opts *o;
    int n, m;      /* rows of W; unknowns n + nc */
    double *delta; /* nc: maxdiss_internal.h */
    double *rho;   /* nc */
    double *a;     /* 3 nc: a_k = A_k e_n */
    double *z, *u, *phi;
    double *zt, *ut, *phit;     /* trial point */
    double *J;                  /* m x m row-major */
    mcd_maxdiss_step_work step; /* the step's buffers (maxdiss_step.h) */
    mcd_lm_sparse *lent;        /* coulomb_ws's sparse state, until the first step */
    mcd_lm_sparse *sparse;      /* set up for the sparse step, or NULL: dense */
    double *dz, *du, *jd;       /* step, W dr, J dz */
    double *best;               /* n: the r of least R */
    double *rwork;              /* 2n: mcd_maxdiss_residual */
    double w;                   /* largest diagonal entry of W */
    mcd_error *err;
} mn_solve;

int mcd_maxdiss_newton_fits(const mcd_fc3d *p)
{
    return p->nb <= MN_MAX_UNKNOWNS && p->nc <= (MN_MAX_UNKNOWNS - p->nb) / 4;
}

size_t mcd_maxdiss_newton_work_size(const mcd_fc3d *p)
{
    if (!p || p->nb < 0 || p->nc < 0 || !mcd_maxdiss_newton_fits(p)) return 0;
    size_t n = (size_t)mcd_fc3d_size(p), m = n + (size_t)p->nc;
    return 5 * (size_t)p->nc + 3 * m * m + (8 + MCD_MAXDISS_STEP_LWORK) * m + 8 * n;
}

static void layout(mn_solve *s, double *work)
{
    size_t n = (size_t)s->n, m = (size_t)s->m, nc = (size_t)s->p->nc;
    s->delta = work, work += nc;
    s->rho = work, work += nc;
    s->a = work, work += 3 * nc;
    s->z = work, work += m;
    s->phi = work, work += m;
    s->zt = work, work += m;
    s->phit = work, work += m;
    s->dz = work, work += m;
    s->jd = work, work += m;
    s->step.rhs = work, work += 2 * m;
    s->u = work, work += n;
    s->ut = work, work += n;
    s->du = work, work += n;
    s->best = work, work += n;
    s->rwork = work, work += 2 * n;
    s->J = work, work += m * m;
    s->step.aug = work, work += 2 * m * m;
    s->step.lwork = work;
}

/* The symmetrised W_kk + delta_k I (row-major 3x3). */
static void block_matrix(const mn_solve *s, int k, double A[9])
{
    int c = s->p->nb + ROWS * k;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < ROWS; j++)
            A[ROWS * i + j] = 0.5 * (s->p->W[(size_t)(c + i) * s->n + c + j] +
                                     s->p->W[(size_t)(c + j) * s->n + c + i]);
    for (int i = 0; i < ROWS; i++) A[4 * i] += fmax(s->delta[k], 0.0);
}

/* The rungs of the rho ladder: factors on the base rho_k = 3 / trace(A_k). */
static const double rho_ladder[] = {1e4, 1.0, 1e2, 1e6};
enum { MN_RUNGS = sizeof rho_ladder / sizeof rho_ladder[0] };
/* Passes over the ladder: a rung that stalls from one point can converge
 * from the point a later rung reached (captured a1_drop_upright steps 489
 * and 518 of maxdiss-bgs's trajectory: solved in the second pass). */
#define MN_PASSES 2

/* rho_k of a rung, a_k and the largest diagonal entry w. */
static void block_constants(mn_solve *s, int rung)
{
    s->w = 0.0;
    for (int i = 0; i < s->n; i++) s->w = fmax(s->w, s->p->W[(size_t)i * s->n + i]);
    for (int k = 0; k < s->p->nc; k++) {
        double A[9];
        block_matrix(s, k, A);
        double tr = A[0] + A[4] + A[8];
        s->rho[k] = (tr > 0 ? ROWS / tr : 1.0) * rho_ladder[rung];
        for (int i = 0; i < ROWS; i++) s->a[ROWS * k + i] = A[i];
    }
}

/* Projection p of y on K_mu = {|y_t| <= mu y_n} and its Jacobian D
 * (row-major 3x3) on the piece y is in (the interior piece on a border). */
static void cone_projection(double mu, const double y[3], double p[3], double D[9])
{
    double yt = hypot(y[T1], y[T2]);
    memset(D, 0, 9 * sizeof *D);
    if (yt <= mu * y[N]) { /* inside */
        memcpy(p, y, 3 * sizeof *p);
        D[0] = D[4] = D[8] = 1.0;
        return;
    }
    if (mu * yt <= -y[N]) { /* in the polar cone */
        p[0] = p[1] = p[2] = 0.0;
        return;
    }
    if (mu == 0.0) { /* y_n > 0, y_t != 0: the ray x_t = 0 */
        p[N] = y[N], p[T1] = p[T2] = 0.0;
        D[0] = 1.0;
        return;
    }
    /* On the boundary ray through y_t / |y_t|: s = (y_n + mu |y_t|) / (1 + mu^2),
     * p = s (1, mu t). */
    double t[2] = {y[T1] / yt, y[T2] / yt}, c = 1.0 / (1.0 + mu * mu);
    double sv = c * (y[N] + mu * yt);
    p[N] = sv, p[T1] = mu * sv * t[0], p[T2] = mu * sv * t[1];
    double ds[3] = {c, c * mu * t[0], c * mu * t[1]}; /* ds / dy */
    for (int j = 0; j < 3; j++) D[j] = ds[j];
    for (int a = 0; a < 2; a++)
        for (int j = 0; j < 3; j++) {
            double v = mu * t[a] * ds[j];
            if (j > 0) v += mu * sv * ((a == j - 1) - t[a] * t[j - 1]) / yt;
            D[3 * (1 + a) + j] = v;
        }
}

/* y_k = r_k - rho_k (u_k - lambda_k a_k). */
static void natural_argument(const mn_solve *s, int k, const double *z, const double *u,
                             double y[3])
{
    int c = s->p->nb + ROWS * k;
    double lam = z[s->n + k];
    for (int i = 0; i < ROWS; i++)
        y[i] = z[c + i] - s->rho[k] * (u[c + i] - lam * s->a[ROWS * k + i]);
}

static double block_dot_a(const mn_solve *s, int k, const double *z)
{
    const double *a = s->a + ROWS * k, *r = z + s->p->nb + ROWS * k;
    return a[0] * r[0] + a[1] * r[1] + a[2] * r[2];
}

/* Phi(z) into phi given u = W r + q; returns psi = 1/2 |Phi|^2. */
static double merit(const mn_solve *s, const double *z, const double *u, double *phi)
{
    const mcd_fc3d *p = s->p;
    for (int i = 0; i < p->nb; i++) phi[i] = u[i];
    for (int k = 0; k < p->nc; k++) {
        int c = p->nb + ROWS * k;
        if (s->delta[k] == MCD_MAXDISS_ZERO_BLOCK) {
            for (int i = 0; i < ROWS; i++) phi[c + i] = z[c + i];
            phi[s->n + k] = z[s->n + k];
            continue;
        }
        double y[3], pk[3], D[9];
        natural_argument(s, k, z, u, y);
        cone_projection(p->mu[k], y, pk, D);
        for (int i = 0; i < ROWS; i++) phi[c + i] = (z[c + i] - pk[i]) / s->rho[k];
        double an = u[c + N], bn = block_dot_a(s, k, z);
        phi[s->n + k] = an + bn - hypot(an, bn);
    }
    double psi = 0.0;
    for (int i = 0; i < s->m; i++) psi += phi[i] * phi[i];
    return 0.5 * psi;
}

/* Contact k's rows of J: the natural map's (I - D) E_k / rho + D W_k and
 * -D a_k; the min's W row (active piece, also on a tie) or a_k on r_k. */
static void contact_rows(const mn_solve *s, int k, const double *z, const double *u)
{
    int n = s->n, m = s->m, c = s->p->nb + ROWS * k;
    double *Jn = s->J + (size_t)(n + k) * m;
    if (s->delta[k] == MCD_MAXDISS_ZERO_BLOCK) {
        for (int i = 0; i < ROWS; i++) s->J[(size_t)(c + i) * m + c + i] = 1.0;
        Jn[n + k] = 1.0;
        return;
    }
    double y[3], pk[3], D[9];
    const double *a = s->a + ROWS * k;
    natural_argument(s, k, z, u, y);
    cone_projection(s->p->mu[k], y, pk, D);
    for (int i = 0; i < ROWS; i++) {
        double *row = s->J + (size_t)(c + i) * m;
        for (int e = 0; e < ROWS; e++) {
            if (D[ROWS * i + e] == 0.0) continue;
            const double *wrow = s->p->W + (size_t)(c + e) * n;
            for (int j = 0; j < n; j++) row[j] += D[ROWS * i + e] * wrow[j];
            row[n + k] -= D[ROWS * i + e] * a[e];
        }
        for (int e = 0; e < ROWS; e++) row[c + e] += ((i == e) - D[ROWS * i + e]) / s->rho[k];
    }
    double an = u[c + N], bn = block_dot_a(s, k, z), h = hypot(an, bn);
    double ga = h > 0 ? 1.0 - an / h : 1.0 - M_SQRT1_2, gb = h > 0 ? 1.0 - bn / h : 1.0 - M_SQRT1_2;
    const double *wn = s->p->W + (size_t)(c + N) * n;
    for (int j = 0; j < n; j++) Jn[j] = ga * wn[j];
    for (int e = 0; e < ROWS; e++) Jn[c + e] += gb * a[e];
}

static void jacobian(const mn_solve *s, const double *z, const double *u)
{
    memset(s->J, 0, (size_t)s->m * s->m * sizeof *s->J);
    for (int i = 0; i < s->p->nb; i++)
        memcpy(s->J + (size_t)i * s->m, s->p->W + (size_t)i * s->n, (size_t)s->n * sizeof *s->J);
    for (int k = 0; k < s->p->nc; k++) contact_rows(s, k, z, u);
}

/* The Levenberg-Marquardt step into s->dz (maxdiss_step.h); 0 if it
 * fails. */
static int lm_step(mn_solve *s, double nu)
{
    if (s->lent) { /* set up at the first step: a start that solves costs nothing */
        if (mcd_maxdiss_step_setup(s->lent, s->p->nb, s->p->nc, s->p->W, s->step.aug))
            s->sparse = s->lent;
        s->lent = NULL;
    }
    return mcd_maxdiss_step_solve(s->sparse, s->p->nb, s->p->nc, s->J, s->phi, nu, &s->step, s->dz);
}

/* psi at z + alpha dz, the trial point in zt, ut, phit. */
static double trial(const mn_solve *s, double alpha)
{
    for (int i = 0; i < s->m; i++) s->zt[i] = s->z[i] + alpha * s->dz[i];
    for (int i = 0; i < s->n; i++) s->ut[i] = s->u[i] + alpha * s->du[i];
    return merit(s, s->zt, s->ut, s->phit);
}

/* Armijo's rule along dz from psi; on success the trial point becomes the
 * iterate (u recomputed from r, no drift) and its psi is returned through
 * psi. Returns 1 if a step was taken. */
static int line_search(mn_solve *s, double *psi)
{
    int n = s->n, m = s->m;
    mcd_dense_matvec(n, s->p->W, s->dz, NULL, s->du);
    double slope = 0.0; /* d psi / d alpha at 0 = Phi . J dz */
    for (int i = 0; i < m; i++) {
        double jd = 0.0;
        for (int j = 0; j < m; j++) jd += s->J[(size_t)i * m + j] * s->dz[j];
        slope += s->phi[i] * jd;
    }
    if (!(slope < 0.0)) return 0;
    double alpha = 1.0;
    for (int h = 0; h <= MN_HALVES; h++, alpha *= 0.5) {
        double pt = trial(s, alpha);
        if (pt <= *psi + MN_SIGMA * alpha * slope) {
            memcpy(s->z, s->zt, (size_t)m * sizeof *s->z);
            mcd_dense_matvec(n, s->p->W, s->z, s->p->q, s->u);
            *psi = merit(s, s->z, s->u, s->phi);
            return 1;
        }
    }
    return 0;
}

/* lambda_k fitted at the start r: sigma_k = u_k - lambda_k a_k should be 0
 * for a sticking r_k (inside K) and s (mu, -t) for a sliding one (on the
 * border, t the direction of r_k's tangential part): least squares for
 * lambda_k (and s); 0 for r_k = 0 or a zero block. */
static double lambda_start(const mn_solve *s, int k)
{
    int c = s->p->nb + ROWS * k;
    const double *r = s->z + c, *u = s->u + c, *a = s->a + ROWS * k;
    double mu = s->p->mu[k], rt = hypot(r[T1], r[T2]);
    if (s->delta[k] == MCD_MAXDISS_ZERO_BLOCK || !(r[N] > 0.0)) return 0.0;
    double aa = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
    double au = a[0] * u[0] + a[1] * u[1] + a[2] * u[2];
    if (rt < mu * r[N] || rt == 0.0) return aa > 0 ? au / aa : 0.0;
    double v[3] = {mu, -r[T1] / rt, -r[T2] / rt};
    double av = a[0] * v[0] + a[1] * v[1] + a[2] * v[2];
    double vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    double vu = v[0] * u[0] + v[1] * u[1] + v[2] * u[2];
    double det = aa * vv - av * av;
    return det > 0 ? (vv * au - av * vu) / det : (aa > 0 ? au / aa : 0.0);
}

static mcd_status check_arguments(const mcd_fc3d *p, const mcd_maxdiss_opts *o, const double *r,
                                  const double *work, mcd_error *err)
{
    if (!p || !o || !r || !work)
        return mcd_fail(err, MCD_ERR_ARG, "maxdiss-newton: NULL problem, options, r or work");
    if (p->nb >= 0 && p->nc >= 0 && !mcd_maxdiss_newton_fits(p))
        return mcd_fail(err, MCD_ERR_UNSUPPORTED,
                        "maxdiss-newton: %d bilateral rows and %d contacts: more than %d unknowns",
                        p->nb, p->nc, MN_MAX_UNKNOWNS);
    mcd_status s = mcd_fc3d_check(p, err);
    if (s != MCD_OK) return s;
    if (o->max_iter <= 0 || !(o->tol > 0) || !isfinite(o->tol) ||
        !(o->regularization > 0 && o->regularization < 1))
        return mcd_fail(err, MCD_ERR_ARG,
                        "maxdiss-newton: need max_iter > 0, finite tol > 0 and regularization "
                        "in (0, 1) (got %d, %g, %g)",
                        o->max_iter, o->tol, o->regularization);
    for (int i = 0; i < mcd_fc3d_size(p); i++)
        if (!isfinite(r[i]))
            return mcd_fail(err, MCD_ERR_NONFINITE, "maxdiss-newton: initial r[%d] is not finite",
                            i);
    return MCD_OK;
}

/* R at the iterate; keeps it as the best if it is lower. */
static mcd_status judge(mn_solve *s, mcd_maxdiss_stats *st)
{
    double R;
    mcd_status r = mcd_maxdiss_residual(s->p, s->o, s->delta, s->z, s->rwork, &R, s->err);
    if (r != MCD_OK) return r;
    if (R < st->residual) {
        st->residual = R;
        memcpy(s->best, s->z, (size_t)s->n * sizeof *s->best);
    }
    return MCD_OK;
}

/* One rung's Newton iterations from s->z (r set, lambda fitted): until
 * R <= tol, max_iter iterations or no descent. */
static mcd_status newton_run(mn_solve *s, mcd_maxdiss_stats *st)
{
    double psi = merit(s, s->z, s->u, s->phi), psi0 = psi, theta = MN_THETA_START;
    mcd_status r = judge(s, st);
    for (int it = 0; r == MCD_OK && !(st->residual <= s->o->tol) && it < s->o->max_iter &&
                     theta <= MN_THETA_MAX && psi > 0.0;
         it++) {
        jacobian(s, s->z, s->u);
        double nu = theta * s->w * s->w * fmin(1.0, sqrt(psi / psi0));
        st->iterations++;
        if (lm_step(s, nu) && line_search(s, &psi)) {
            theta = fmax(MN_THETA_MIN, theta / 10.0);
            r = judge(s, st);
        } else {
            theta *= 10.0;
        }
    }
    return r;
}

/* Starts a rung from the best r: its rho, u and the fitted lambda. */
static void start_rung(mn_solve *s, int rung)
{
    const mcd_fc3d *p = s->p;
    block_constants(s, rung);
    memcpy(s->z, s->best, (size_t)s->n * sizeof *s->z);
    mcd_dense_matvec(s->n, p->W, s->z, p->q, s->u);
    for (int k = 0; k < p->nc; k++) s->z[s->n + k] = lambda_start(s, k);
}

/* The rungs in turn, MN_PASSES times, each from the best point so far. */
static mcd_status iterate(mn_solve *s, mcd_maxdiss_stats *st)
{
    mcd_status r = MCD_OK;
    for (int rung = 0; r == MCD_OK && rung < MN_PASSES * MN_RUNGS && !(st->residual <= s->o->tol);
         rung++) {
        start_rung(s, rung % MN_RUNGS);
        r = newton_run(s, st);
    }
    if (r != MCD_OK) return r;
    if (st->residual <= s->o->tol) return MCD_OK;
    return mcd_fail(s->err, MCD_ERR_NOT_CONVERGED,
                    "maxdiss-newton: residual %g > tol %g after %d iterations", st->residual,
                    s->o->tol, st->iterations);
}

mcd_status mcd_maxdiss_newton(const mcd_fc3d *p, const mcd_maxdiss_opts *o, double *r, double *work,
                              mcd_maxdiss_stats *st, mcd_error *err)
{
    double t0 = mcd_clock_seconds();
    mcd_maxdiss_stats local;
    if (!st) st = &local;
    memset(st, 0, sizeof *st);
    mcd_status s = check_arguments(p, o, r, work, err);
    if (s != MCD_OK) {
        st->status = s;
        st->seconds = mcd_clock_seconds() - t0;
        return s;
    }
    int n = mcd_fc3d_size(p);
    mn_solve m = {.p = p, .o = o, .n = n, .m = n + p->nc, .err = err};
    layout(&m, work);
    m.lent = o->coulomb_ws ? o->coulomb_ws->sparse : NULL;
    mcd_maxdiss_block_deltas(p, o, m.delta);
    memcpy(m.z, r, (size_t)n * sizeof *r);
    for (int k = 0; k < p->nc; k++) {
        if (m.delta[k] == MCD_MAXDISS_ZERO_BLOCK) {
            st->zero_blocks++;
            memset(m.z + p->nb + ROWS * k, 0, ROWS * sizeof *r);
        } else if (m.delta[k] > 0) {
            st->regularized_blocks++;
        }
    }
    memcpy(m.best, m.z, (size_t)n * sizeof *r);
    st->residual = INFINITY;
    s = iterate(&m, st);
    memcpy(r, m.best, (size_t)n * sizeof *r);
    mcd_dense_matvec(n, p->W, r, p->q, m.u);
    double e = 0.0;
    for (int i = 0; i < n; i++) e += 0.5 * r[i] * (m.u[i] + p->q[i]);
    st->energy = e;
    st->status = s;
    st->seconds = mcd_clock_seconds() - t0;
    return s;
}

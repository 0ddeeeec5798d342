/* Projected Levenberg-Marquardt (PLM), Mylapilli & Jain Sec. 5.2, with the
 * globalisation of Kanzow & Petra's LMMCP (lm.h).
 *
 * Direction: the least-squares solution of the stacked system
 *     [J; sqrt(lambda) I] d = [-Phi; 0]            (Sec. 5.2, H d = B)
 * with lambda fixed (1e-16 by default). Its normal equations are
 *     (J^T J + lambda I) d = -J^T Phi = -grad psi,
 * the same minimiser (the stacked matrix has full column rank for lambda >
 * 0), solved first by our Cholesky kernel (small_dense.h) or, beyond
 * PLM_SMALL_N unknowns with a sparse block pattern, by CHOLMOD
 * (lm_sparse.h). Forming J^T J
 * squares the condition number, so that route is taken only when the
 * Cholesky pivots bound cond(J^T J + lambda I) by 1 / PLM_PIVOT_MIN and the
 * result is a descent direction; otherwise the stacked system is solved
 * by LAPACK's QR least-squares driver dgels. Step: x + t d with a
 * nonmonotone Armijo rule
 *     psi(x + t d) <= max(last PLM_MEMORY psi) + sigma t grad psi . d,
 * t = 1, beta, beta^2, ..., monotone (max over the current psi only) in the
 * first PLM_MONOTONE_STEPS iterations. If t falls below t_min the last
 * trial point is accepted when its psi is finite (as LMMCP does). Stall
 * test (in place of LMMCP's watchdog restart): when the best psi has not
 * fallen by the factor 1 - PLM_STALL_DECREASE within PLM_STALL_WINDOW
 * iterations, PLM stops, not converged, at its best point, so that the
 * next stage of a fallback chain starts early (docs/solvers.md, "Stall
 * test"); a watchdog restart from the best point would repeat the step
 * that stalled.
 * At a stationary point with psi > 0 (the step's predicted decrease below
 * PLM_STATIONARY psi), once per new best psi: a move along the null space
 * of J to the end of the flat set of psi (leave_flat_set). */
#include "lm.h"

#include "../base/lapack.h"
#include "dense.h"
#include "small_dense.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define PLM_MEMORY         10    /* LMMCP m */
#define PLM_MONOTONE_STEPS 5     /* LMMCP: monotone in the first 5 iterations */
#define PLM_STALL_WINDOW   10    /* iterations without progress that end a solve */
#define PLM_STALL_DECREASE 1e-3  /* progress: the best psi falls by this fraction */
#define PLM_BETA           0.55  /* step reduction */
#define PLM_SIGMA          1e-4  /* Armijo constant */
#define PLM_T_MIN          1e-12 /* smallest step length */
#define PLM_PIVOT_MIN      1e-10 /* normal equations while cond(J^T J + lambda I) <~ 1e10 */
#define PLM_SMALL_N        64    /* normal equations up to this size (O(n^3) unblocked) */
#define PLM_STATIONARY     1e-10 /* x is stationary when -grad psi . d <= this times psi */
#define PLM_FLAT           1e-3  /* relative change of psi that ends the flat set */
#define PLM_FLAT_DOUBLINGS 80    /* step doublings along the flat direction */
#define PLM_FLAT_BISECTION 60    /* bisections locating the end of the flat set */

/* d = argmin |[J; sqrt(lambda) I] d - [-top; sqrt(lambda) bottom]| by QR, a
 * NULL part of the right-hand side standing for 0: our Householder kernel
 * up to PLM_SMALL_N unknowns (small_dense.h; LAPACK's per-call overhead
 * exceeds the work there), beyond that sparse (lm_sparse.h) when set up
 * for this solve, else (or if it fails) LAPACK's dgels, for which the
 * stacked matrix is written column-major (2n x n, lda 2n) from the
 * row-major J. 0 if the triangular factor is rank deficient. */
static int stacked_qr_solve(int n, const double *top, const double *bottom, double lambda,
                            const mcd_lm_ws *w, double *d)
{
    if (n <= PLM_SMALL_N)
        return mcd_small_stacked_least_squares(n, w->J, top, bottom, lambda, w->A, w->rhs, d);
    if (mcd_lm_sparse_least_squares(w->sparse, w->J, top, bottom, lambda, w->rhs, d)) return 1;
    int m = 2 * n, one = 1, info;
    double root = sqrt(lambda);
    for (int j = 0; j < n; j++) {
        double *col = w->A + (size_t)j * m;
        for (int i = 0; i < n; i++) col[i] = w->J[(size_t)i * n + j];
        memset(col + n, 0, (size_t)n * sizeof *col);
        col[n + j] = root;
    }
    for (int i = 0; i < n; i++) {
        w->rhs[i] = top ? -top[i] : 0.0;
        w->rhs[n + i] = bottom ? root * bottom[i] : 0.0;
    }
    dgels_("N", &m, &n, &one, w->A, &m, w->rhs, &m, w->lwork, &w->lwork_len, &info);
    if (info != 0) return 0;
    memcpy(d, w->rhs, (size_t)n * sizeof *d);
    return 1;
}

/* The same d from the normal equations (J^T J + lambda I) d = -grad, by
 * our Cholesky kernel, then one step of iterative refinement with the
 * residual computed from J itself (not from the rounded J^T J):
 *     res = -grad - J^T (J d) - lambda d,   d += (J^T J + lambda I)^{-1} res,
 * which divides the error of d by about 1 / (cond(J^T J) eps) (without it
 * the pendulum simulations of tests/sim stall at errors 1e-9 to 1e-6: the
 * pivot bound underestimates the conditioning). 0 if the factorization
 * meets a pivot below PLM_PIVOT_MIN times the largest diagonal entry. */
static int normal_equations_step(int n, const double *grad, double lambda, const mcd_lm_ws *w,
                                 double *d)
{
    double *Jd = w->rhs, *res = w->rhs + n;
    mcd_small_normal_matrix(n, w->J, lambda, w->H);
    if (!mcd_small_cholesky(n, w->H, PLM_PIVOT_MIN)) return 0;
    for (int i = 0; i < n; i++) d[i] = -grad[i];
    mcd_small_cholesky_solve(n, w->H, d);
    mcd_dense_matvec(n, w->J, d, NULL, Jd);
    mcd_dense_matvec_t(n, w->J, Jd, res);
    for (int i = 0; i < n; i++) res[i] = -grad[i] - res[i] - lambda * d[i];
    mcd_small_cholesky_solve(n, w->H, res);
    for (int i = 0; i < n; i++) d[i] += res[i];
    return 1;
}

/* J has no nonzero entry off its diagonal: Todorov's map at a point where
 * every contact is separated (z_n >= 0, dF = 0: J = -I), e.g. every cold
 * start from x = 0 without closure rows. */
static int is_diagonal(int n, const double *J)
{
    for (int i = 0; i < n; i++) {
        const double *Ji = J + (size_t)i * n;
        for (int j = 0; j < n; j++)
            if (Ji[j] != 0 && j != i) return 0;
    }
    return 1;
}

/* normal_equations_step for a diagonal J = diag(a), in O(n) with the same
 * floating-point operations the dense kernels do on it (their products by
 * the zero entries add exact zeros): H = diag(a_i^2 + lambda), U =
 * diag(sqrt(H_ii)), d_i = (-g_i / U_ii) / U_ii, then the refinement
 * res_i = (-g_i - a_i (a_i d_i)) - lambda d_i, d_i += (res_i / U_ii) / U_ii.
 * The same d, bit for bit (tests/solver/test_lm_diagonal.c), without the
 * O(n^3) factorization. 0 where the Cholesky kernel would fail (a pivot
 * not above PLM_PIVOT_MIN times the largest). */
static int diagonal_normal_step(int n, const double *grad, double lambda, const mcd_lm_ws *w,
                                double *d)
{
    double *u = w->rhs, h_max = 0.0;
    for (int i = 0; i < n; i++) {
        const double a = w->J[(size_t)i * n + i];
        u[i] = a * a + lambda;
        h_max = fmax(h_max, u[i]);
    }
    const double d_min = PLM_PIVOT_MIN * h_max;
    for (int i = 0; i < n; i++) {
        if (!(u[i] > d_min) || !isfinite(u[i])) return 0;
        u[i] = sqrt(u[i]);
    }
    for (int i = 0; i < n; i++) {
        const double a = w->J[(size_t)i * n + i];
        double di = -grad[i] / u[i] / u[i];
        const double res = -grad[i] - a * (a * di) - lambda * di;
        d[i] = di + res / u[i] / u[i];
    }
    return 1;
}

/* The normal-equations step: our dense kernel up to PLM_SMALL_N unknowns
 * (O(n) when J is diagonal), beyond that the sparse Cholesky when this
 * solve set it up (lm_sparse.h). */
static int normal_step(int n, double lambda, const mcd_lm_ws *w)
{
    if (n <= PLM_SMALL_N && is_diagonal(n, w->J))
        return diagonal_normal_step(n, w->grad, lambda, w, w->step);
    if (n <= PLM_SMALL_N) return normal_equations_step(n, w->grad, lambda, w, w->step);
    return mcd_lm_sparse_step(w->sparse, w->J, w->grad, lambda, PLM_PIVOT_MIN, w->rhs, w->step);
}

/* The PLM direction into w->step; returns grad psi . step. The normal
 * equations (normal_step); the stacked QR above beyond PLM_SMALL_N
 * unknowns without a sparse pattern, or when they are too ill-conditioned
 * or do not give a descent direction; steepest descent if the QR is
 * rank-deficient. */
static double direction(int n, const double *phi, double lambda, const mcd_lm_ws *w)
{
    if (normal_step(n, lambda, w)) {
        double slope = mcd_dense_dot(n, w->grad, w->step);
        if (slope < 0) return slope;
    }
    if (!stacked_qr_solve(n, phi, NULL, lambda, w, w->step))
        for (int i = 0; i < n; i++) w->step[i] = -w->grad[i];
    return mcd_dense_dot(n, w->grad, w->step);
}

/* Nonmonotone reference value: psi itself in a monotone phase, else the
 * largest of the remembered values. */
typedef struct psi_memory {
    double v[PLM_MEMORY];
    int steps; /* iterations since the start */
} psi_memory;

static void memory_reset(psi_memory *m, double psi)
{
    for (int i = 0; i < PLM_MEMORY; i++) m->v[i] = psi;
    m->steps = 0;
}

static double memory_push(psi_memory *m, double psi)
{
    m->steps++;
    m->v[m->steps % PLM_MEMORY] = psi;
    if (m->steps <= PLM_MONOTONE_STEPS) return psi;
    double mx = m->v[0];
    for (int i = 1; i < PLM_MEMORY; i++) mx = fmax(mx, m->v[i]);
    return mx;
}

/* The iterate and its merit, as the line search moves it. */
typedef struct plm_point {
    double *x, *phi;
    double psi, err;
} plm_point;

/* Backtracking from t = 1 along d; moves p to the accepted point. Returns
 * 0 (p unchanged) if no trial point had a finite merit. */
static int line_search(const mcd_nls *sys, const mcd_lm_ws *w, plm_point *p, double ref_psi,
                       double slope)
{
    int n = sys->n;
    double t = 1.0, psi_t;
    for (;;) {
        for (int i = 0; i < n; i++) w->x_trial[i] = p->x[i] + t * w->step[i];
        sys->residual(sys->ctx, w->x_trial, w->phi_trial);
        psi_t = mcd_lm_merit(n, w->phi_trial);
        if (isfinite(psi_t) && psi_t <= ref_psi + PLM_SIGMA * t * slope) break;
        t *= PLM_BETA;
        if (t < PLM_T_MIN) break;
    }
    if (!isfinite(psi_t)) return 0;
    memcpy(p->x, w->x_trial, (size_t)n * sizeof *p->x);
    memcpy(p->phi, w->phi_trial, (size_t)n * sizeof *p->phi);
    p->psi = psi_t;
    p->err = sys->error(sys->ctx, p->x); /* the state is at the last trial */
    return 1;
}

/* Moves p to x_from (which may be p->x itself) and re-evaluates it there. */
static void restore(const mcd_nls *sys, plm_point *p, const double *x_from)
{
    if (x_from != p->x) memcpy(p->x, x_from, (size_t)sys->n * sizeof *p->x);
    sys->residual(sys->ctx, p->x, p->phi);
    p->psi = mcd_lm_merit(sys->n, p->phi);
    p->err = sys->error(sys->ctx, p->x);
}

/* psi at x + t e into w->x_trial, w->phi_trial. */
static double psi_along(const mcd_nls *sys, const mcd_lm_ws *w, const double *x, const double *e,
                        double t)
{
    for (int i = 0; i < sys->n; i++) w->x_trial[i] = x[i] + t * e[i];
    sys->residual(sys->ctx, w->x_trial, w->phi_trial);
    return mcd_lm_merit(sys->n, w->phi_trial);
}

/* The end of the flat set of psi from p along t e (t > 0, |e| = 1): t
 * doubles from 1e-8 (1 + |x|) until psi changes by more than PLM_FLAT psi,
 * then bisection locates the first such t. Returns that t, with its psi in
 * *psi_end, or 0 if psi stays flat. */
static double flat_end(const mcd_nls *sys, const mcd_lm_ws *w, const plm_point *p, const double *e,
                       double *psi_end)
{
    double lo = 0.0, hi = 1e-8 * (1.0 + sqrt(mcd_dense_dot(sys->n, p->x, p->x)));
    int j = 0;
    while (fabs(psi_along(sys, w, p->x, e, hi) - p->psi) <= PLM_FLAT * p->psi) {
        if (++j == PLM_FLAT_DOUBLINGS) return 0.0;
        lo = hi;
        hi *= 2.0;
    }
    for (j = 0; j < PLM_FLAT_BISECTION && hi - lo > DBL_EPSILON * hi; j++) {
        double mid = 0.5 * (lo + hi);
        if (fabs(psi_along(sys, w, p->x, e, mid) - p->psi) > PLM_FLAT * p->psi) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    *psi_end = psi_along(sys, w, p->x, e, hi);
    return hi;
}

/* At a stationary point with psi > 0 (grad psi = J^T Phi = 0), psi is
 * constant along the null space of J as long as Phi stays on one smooth
 * piece, and no LM step leaves it (e.g. Todorov's map at a set of sticking
 * contacts whose W is singular: the velocity they cannot absorb is Phi's
 * component outside the range of J). Moves p along the null-space part of
 * Phi, e = lambda (J^T J + lambda I)^{-1} Phi (the least-squares solution
 * of [J; sqrt(lambda) I] e = [0; sqrt(lambda) Phi]), to the end of the
 * flat set in the direction +e or -e where psi decreases there (the lower
 * of the two), so that the next piece's Jacobian sees the rest of Phi.
 * Returns 0 (p unchanged) if psi decreases at neither end or the flat set
 * is unbounded on one side (psi flattening out towards infinity, as plain
 * FB's far from the solution, docs/solvers.md Sec. 2.2.2: no piece ends). */
static int leave_flat_set(const mcd_nls *sys, double lambda, const mcd_lm_ws *w, plm_point *p)
{
    int n = sys->n;
    double *e = w->grad; /* grad psi is not needed again at this x */
    if (!stacked_qr_solve(n, NULL, p->phi, lambda, w, e)) return 0;
    double norm = sqrt(mcd_dense_dot(n, e, e));
    if (!(norm > 0 && isfinite(norm))) return 0;
    for (int i = 0; i < n; i++) e[i] /= norm;
    double best_t = 0.0, best_psi = p->psi;
    for (int sign = 1; sign >= -1; sign -= 2) {
        double psi_end = p->psi, t = flat_end(sys, w, p, e, &psi_end);
        if (t == 0) return 0;
        if (psi_end < best_psi) {
            best_t = sign * t;
            best_psi = psi_end;
        }
        for (int i = 0; i < n; i++) e[i] = -e[i];
    }
    if (best_t == 0) return 0;
    p->psi = psi_along(sys, w, p->x, e, best_t);
    memcpy(p->x, w->x_trial, (size_t)n * sizeof *p->x);
    memcpy(p->phi, w->phi_trial, (size_t)n * sizeof *p->phi);
    p->err = sys->error(sys->ctx, p->x);
    return 1;
}

mcd_status mcd_lm_projected(const mcd_nls *sys, const mcd_lm_opts *o, const mcd_lm_ws *w, double *x,
                            mcd_lm_result *res)
{
    int n = sys->n;
    if (n > PLM_SMALL_N) mcd_lm_sparse_setup(w->sparse, n, sys->pattern, sys->pattern_singles);
    plm_point p = {x, w->phi, 0.0, 0.0};
    restore(sys, &p, x);
    mcd_status status = isfinite(p.psi) ? MCD_OK : MCD_ERR_NONFINITE;
    psi_memory mem;
    memory_reset(&mem, p.psi);
    double ref_psi = p.psi, psi_best = p.psi, psi_progress = p.psi;
    int k = 0, k_progress = 0, state_at_x = 1, flat_untried = 1;
    memcpy(w->x_best, x, (size_t)n * sizeof *x);
    while (status == MCD_OK && !(p.psi <= o->psi_tol || p.err <= o->tol)) {
        if (k == o->max_iter || k - k_progress >= PLM_STALL_WINDOW) {
            status = MCD_ERR_NOT_CONVERGED;
            break;
        }
        k++;
        if (!state_at_x) restore(sys, &p, x);
        sys->jacobian(sys->ctx, x, w->J);
        mcd_dense_matvec_t(n, w->J, p.phi, w->grad); /* grad psi = J^T Phi */
        double slope = direction(n, p.phi, o->lambda0, w);
        int moved = 0;
        if (flat_untried && -slope <= PLM_STATIONARY * p.psi) { /* once per best psi */
            flat_untried = 0;
            moved = leave_flat_set(sys, o->lambda0, w, &p);
        }
        state_at_x = moved || line_search(sys, w, &p, ref_psi, slope);
        ref_psi = memory_push(&mem, p.psi);
        if (p.psi < psi_best) {
            flat_untried = 1;
            psi_best = p.psi;
            memcpy(w->x_best, x, (size_t)n * sizeof *x);
        }
        if (psi_best <= (1.0 - PLM_STALL_DECREASE) * psi_progress) {
            psi_progress = psi_best;
            k_progress = k;
        }
    }
    if (!(p.err <= o->tol) && psi_best < p.psi) {
        restore(sys, &p, w->x_best);
    } else if (!state_at_x) {
        restore(sys, &p, x);
    }
    if (status == MCD_OK && !(p.err <= o->tol)) status = MCD_ERR_NOT_CONVERGED; /* psi_tol stop */
    res->iterations = k;
    res->psi = p.psi;
    res->error = p.err;
    return status;
}

/* Multi-contact maximum-dissipation law of Preclik, Eibl & Ruede, Eq. (5),
 * by nonlinear block Gauss-Seidel or weighted block Jacobi over the
 * contacts, each block solved in closed form by mcd_maxdiss_single; the
 * bilateral rows are free rows relaxed by scalar Gauss-Seidel (Jacobi).
 * When the sweeps stall (at the cap, or earlier in a slow tail), the
 * failure path runs the Newton method (maxdiss_newton.c) from Coulomb
 * solutions (mncp-nsn's, then mncp-plm's) and from the sweeps' best
 * iterate. See include/mcdyn/impact.h for the residual, the failure path
 * and the regularisation. */
#include "mcdyn/impact.h"
#include "../base/clock.h"
#include "../base/small_cholesky.h"
#include "maxdiss_internal.h"

#include <math.h>
#include <string.h>

enum { N = MCD_FC3D_N, ROWS = MCD_FC3D_ROWS };

#define MB_PD_TOL   1e-10 /* relative Cholesky pivot below which a block is regularised */
#define MB_DIVERGE  1e8   /* R above this times its start value: diverged */
#define MB_ZERO_BLK MCD_MAXDISS_ZERO_BLOCK
#define MB_WINDOW   50 /* sweeps over which the slow-tail test measures the rate */
#define MB_POLISH   50 /* sweeps of the block iteration after each Newton run of the failure path */

/* Shared state of one solve. */
typedef struct mb_solve {
    const mcd_fc3d *p;
    const mcd_maxdiss_opts *o;
    int n;
    double *u;     /* W r + q */
    double *F;     /* the Jacobi map F(r) */
    double *best;  /* iterate of least residual */
    double *delta; /* per contact: 0 regular, > 0 regularised, MB_ZERO_BLK zero */
    mcd_error *err;
    int tail_exit; /* 1: leave the sweeps for the failure path in a slow tail */
} mb_solve;

mcd_maxdiss_opts mcd_maxdiss_default_opts(void)
{
    mcd_maxdiss_opts o = {1000, 1e-10, 0, 0.5, 1e-8, 100, NULL};
    return o;
}

/* Doubles of the block iteration's own work. */
static size_t bgs_work_size(const mcd_fc3d *p)
{
    return 3 * (size_t)mcd_fc3d_size(p) + (size_t)p->nc;
}

size_t mcd_maxdiss_work_size(const mcd_fc3d *p)
{
    if (!p || p->nb < 0 || p->nc < 0) return 0;
    return bgs_work_size(p) + mcd_maxdiss_newton_work_size(p) + 2 * (size_t)mcd_fc3d_size(p);
}

static mcd_status check_arguments(const mcd_fc3d *p, const mcd_maxdiss_opts *o, const double *r,
                                  const double *work, mcd_error *err)
{
    if (!p || !o || !r || !work)
        return mcd_fail(err, MCD_ERR_ARG, "maxdiss-bgs: NULL problem, options, r or work");
    mcd_status s = mcd_fc3d_check(p, err);
    if (s != MCD_OK) return s;
    if (o->max_iter <= 0 || !(o->tol > 0) || !isfinite(o->tol))
        return mcd_fail(err, MCD_ERR_ARG,
                        "maxdiss-bgs: need max_iter > 0 and finite tol > 0 (got %d, %g)",
                        o->max_iter, o->tol);
    if ((o->jacobi != 0 && o->jacobi != 1) || !(o->omega > 0 && o->omega <= 1) ||
        !(o->regularization > 0 && o->regularization < 1) || o->newton_iter < 0)
        return mcd_fail(err, MCD_ERR_ARG,
                        "maxdiss-bgs: need jacobi 0 or 1, omega in (0, 1], regularization in "
                        "(0, 1), newton_iter >= 0 (got %d, %g, %g, %d)",
                        o->jacobi, o->omega, o->regularization, o->newton_iter);
    for (int i = 0; i < mcd_fc3d_size(p); i++)
        if (!isfinite(r[i]))
            return mcd_fail(err, MCD_ERR_NONFINITE, "maxdiss-bgs: initial r[%d] is not finite", i);
    return MCD_OK;
}

/* The symmetrised diagonal block W_kk (row-major 3x3). */
static void diag_block(const mb_solve *m, int k, double A[9])
{
    int i0 = m->p->nb + ROWS * k;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            A[3 * i + j] = 0.5 * (m->p->W[(size_t)(i0 + i) * m->n + i0 + j] +
                                  m->p->W[(size_t)(i0 + j) * m->n + i0 + i]);
}

/* delta_k of impact.h: 0 if every Cholesky pivot of W_kk (base/small_cholesky.h)
 * is above MB_PD_TOL times its largest diagonal entry (the largest entry of a
 * positive semidefinite block), else the regularisation. */
static double block_delta(const mb_solve *m, int k)
{
    double A[9], amax = 0.0, dmax = 0.0;
    diag_block(m, k, A);
    for (int i = 0; i < 9; i++) amax = fmax(amax, fabs(A[i]));
    for (int i = 0; i < 3; i++) dmax = fmax(dmax, A[4 * i]);
    if (amax == 0.0) return MB_ZERO_BLK;
    return mcd_small_cholesky(3, A, MB_PD_TOL) ? 0.0 : m->o->regularization * dmax;
}

/* (W r + q)_i */
static double row_dot(const mb_solve *m, int i, const double *r)
{
    const double *row = m->p->W + (size_t)i * m->n;
    double s = m->p->q[i];
    for (int j = 0; j < m->n; j++) s += row[j] * r[j];
    return s;
}

/* Block update of contact k (Eq. (5)) given its velocity uk = (W r + q)_k at
 * the current r: x = mcd_maxdiss_single(W_kk (+ delta I), b_k, mu_k) with
 * b_k = uk - W_kk r_k (- delta r_k). */
static mcd_status block_update(const mb_solve *m, int k, const double uk[3], const double *r,
                               double x[3])
{
    double delta = m->delta[k];
    if (delta == MB_ZERO_BLK) {
        memset(x, 0, ROWS * sizeof *x);
        return MCD_OK;
    }
    const double *rk = r + m->p->nb + ROWS * k;
    double A[9], b[3];
    diag_block(m, k, A);
    for (int i = 0; i < 3; i++)
        b[i] = uk[i] - (A[3 * i] * rk[0] + A[3 * i + 1] * rk[1] + A[3 * i + 2] * rk[2]);
    for (int i = 0; i < 3; i++) {
        A[4 * i] += delta;
        b[i] -= delta * rk[i];
    }
    mcd_error e = {0};
    mcd_status s = mcd_maxdiss_single(A, b, m->p->mu[k], x, &e);
    if (s != MCD_OK) return mcd_fail(m->err, s, "maxdiss-bgs: contact %d: %s", k, e.msg);
    return MCD_OK;
}

/* R(r) of impact.h; fills m->u = W r + q and m->F = F(r). */
static mcd_status residual(const mb_solve *m, const double *r, double *R)
{
    const mcd_fc3d *p = m->p;
    double res = 0.0;
    for (int i = 0; i < m->n; i++) m->u[i] = row_dot(m, i, r);
    for (int i = 0; i < p->nb; i++) {
        double wii = p->W[(size_t)i * m->n + i];
        m->F[i] = wii > 0 ? r[i] - m->u[i] / wii : r[i];
        res = fmax(res, fabs(m->u[i]));
    }
    for (int k = 0; k < p->nc; k++) {
        int i0 = p->nb + ROWS * k;
        mcd_status s = block_update(m, k, m->u + i0, r, m->F + i0);
        if (s != MCD_OK) return s;
        double A[9], d[3];
        diag_block(m, k, A);
        for (int i = 0; i < 3; i++) d[i] = r[i0 + i] - m->F[i0 + i];
        for (int i = 0; i < 3; i++)
            res = fmax(res, fabs(A[3 * i] * d[0] + A[3 * i + 1] * d[1] + A[3 * i + 2] * d[2]));
        res = fmax(res, -m->u[i0 + N]); /* the normal velocity */
    }
    for (int i = 0; i < m->n; i++)
        if (!isfinite(m->u[i]) || !isfinite(m->F[i])) res = NAN;
    *R = res;
    return MCD_OK;
}

void mcd_maxdiss_block_deltas(const mcd_fc3d *p, const mcd_maxdiss_opts *o, double *delta)
{
    mb_solve m = {.p = p, .o = o, .n = mcd_fc3d_size(p)};
    for (int k = 0; k < p->nc; k++) delta[k] = block_delta(&m, k);
}

mcd_status mcd_maxdiss_residual(const mcd_fc3d *p, const mcd_maxdiss_opts *o, double *delta,
                                const double *r, double *work, double *R, mcd_error *err)
{
    int n = mcd_fc3d_size(p);
    mb_solve m = {.p = p, .o = o, .n = n, .u = work, .F = work + n, .delta = delta, .err = err};
    return residual(&m, r, R);
}

/* One sweep of nonlinear block Gauss-Seidel: bilateral rows, then contacts,
 * each from the newest r. */
static mcd_status sweep_gauss_seidel(const mb_solve *m, double *r)
{
    const mcd_fc3d *p = m->p;
    for (int i = 0; i < p->nb; i++) {
        double wii = p->W[(size_t)i * m->n + i];
        if (wii > 0) r[i] -= row_dot(m, i, r) / wii;
    }
    for (int k = 0; k < p->nc; k++) {
        int i0 = p->nb + ROWS * k;
        double uk[ROWS], x[ROWS];
        for (int i = 0; i < ROWS; i++) uk[i] = row_dot(m, i0 + i, r);
        mcd_status s = block_update(m, k, uk, r, x);
        if (s != MCD_OK) return s;
        memcpy(r + i0, x, sizeof x);
    }
    return MCD_OK;
}

/* Weighted block Jacobi: r <- r + omega (F(r) - r), F(r) from the last
 * residual evaluation. */
static void sweep_jacobi(const mb_solve *m, double *r)
{
    for (int i = 0; i < m->n; i++) r[i] += m->o->omega * (m->F[i] - r[i]);
}

static int all_finite(int n, const double *x)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

/* The slow-tail test, every MB_WINDOW sweeps: over the last window the
 * best R fell from R_window to R, a mean rate per sweep
 * (R / R_window)^(1 / MB_WINDOW); at that rate tol needs
 * MB_WINDOW log(tol / R) / log(R / R_window) more sweeps. 1 when that is
 * more than the sweeps left (or R did not fall): the cap would end the
 * sweeps above tol anyway (on the sphere piles R falls about as 1 / k,
 * slower than any linear rate, docs/solvers.md). */
static int slow_tail(const mb_solve *m, double R_window, double R, int sweeps_left)
{
    if (!(R < R_window)) return 1;
    return MB_WINDOW * log(m->o->tol / R) / log(R / R_window) > sweeps_left;
}

/* The iteration from r (already copied to m->best); returns MCD_OK when
 * R <= tol, else the reason it stopped. With m->tail_exit it stops early
 * in a slow tail (slow_tail), for the failure path. */
static mcd_status iterate(const mb_solve *m, double *r, mcd_maxdiss_stats *st)
{
    double R, R0, R_window;
    mcd_status s = residual(m, r, &R);
    if (s != MCD_OK) return s;
    R0 = R_window = R;
    st->residual = R;
    while (!(st->residual <= m->o->tol) && st->iterations < m->o->max_iter) {
        if (m->o->jacobi)
            sweep_jacobi(m, r);
        else if ((s = sweep_gauss_seidel(m, r)) != MCD_OK)
            return s;
        st->iterations++;
        if (!all_finite(m->n, r) || (s = residual(m, r, &R)) != MCD_OK || isnan(R) ||
            R > MB_DIVERGE * R0)
            return s != MCD_OK ? s
                               : mcd_fail(m->err, MCD_ERR_NOT_CONVERGED,
                                          "maxdiss-bgs: diverged after %d sweeps (residual %g, "
                                          "start %g%s); best residual %g",
                                          st->iterations, R, R0,
                                          m->o->jacobi ? ", omega too large?" : "", st->residual);
        if (R < st->residual) {
            st->residual = R;
            memcpy(m->best, r, (size_t)m->n * sizeof *r);
        }
        if (m->tail_exit && st->iterations % MB_WINDOW == 0 && !(st->residual <= m->o->tol)) {
            if (slow_tail(m, R_window, st->residual, m->o->max_iter - st->iterations))
                return mcd_fail(m->err, MCD_ERR_NOT_CONVERGED,
                                "maxdiss-bgs: residual %g > tol %g after %d sweeps (slow tail)",
                                st->residual, m->o->tol, st->iterations);
            R_window = st->residual;
        }
    }
    if (st->residual <= m->o->tol) return MCD_OK;
    return mcd_fail(m->err, MCD_ERR_NOT_CONVERGED,
                    "maxdiss-bgs: residual %g > tol %g after %d sweeps", st->residual, m->o->tol,
                    st->iterations);
}

/* The Newton method (maxdiss_newton.c) from r, iterations per rung; r
 * becomes its iterate of least R, never worse than the start. */
static mcd_status newton_from(const mcd_fc3d *p, const mcd_maxdiss_opts *o, int iterations,
                              double *r, double *work, mcd_maxdiss_stats *st, double *R,
                              mcd_error *err)
{
    mcd_maxdiss_opts on = *o;
    on.max_iter = iterations;
    mcd_maxdiss_stats ns;
    mcd_status s = mcd_maxdiss_newton(p, &on, r, work, &ns, err);
    st->newton_iterations += ns.iterations;
    *R = ns.residual;
    return s;
}

/* The failure path's Coulomb starts, cheapest first: mncp-nsn alone (a
 * few hundred semismooth Newton iterations on its sparse step, 0.4-0.8 s
 * on a sphere-pile group of n = 300-375), whose point, converged or not, is
 * a solution of Eq. (5) or within a few Newton iterations of one on part of
 * the pile groups, so the Newton method from it gets only newton_iter / 20
 * per rung (a probe: where it fails it costs 40 dense iterations, not 800);
 * then mncp-plm with its whole fallback chain (0.3-55 s on those groups)
 * and the full budget. Each Newton run is polished by a few block
 * Gauss-Seidel sweeps (polish). Both solvers with their defaults
 * (docs/solvers.md, "Per scene (session 13: maximum dissipation on the
 * piles)"). */
static const struct {
    mcd_solver_kind solver;
    int budget_divisor; /* Newton iterations per rung: newton_iter / this (at least 1) */
} coulomb_starts[] = {{MCD_SOLVER_MNCP_NSN, 20}, {MCD_SOLVER_MNCP_PLM, 1}};
enum { COULOMB_STARTS = sizeof coulomb_starts / sizeof coulomb_starts[0] };

/* A Coulomb solution by solver kind into rc, as the Newton method's start;
 * 0 if there is none to start from (no workspace, one too small, or the
 * solve returned no point). */
static int coulomb_start(const mcd_fc3d *p, const mcd_maxdiss_opts *o, mcd_solver_kind kind,
                         double *rc, double *uc, mcd_maxdiss_stats *st)
{
    if (!o->coulomb_ws || mcd_solver_ws_capacity(o->coulomb_ws) < mcd_fc3d_size(p)) return 0;
    mcd_solver_opts so = mcd_solver_default_opts(kind);
    mcd_solver_stats ss;
    mcd_status s = mcd_solve_fc3d(o->coulomb_ws, kind, p, &so, rc, uc, &ss, NULL);
    st->coulomb_iterations += ss.iterations;
    if (s != MCD_OK && s != MCD_ERR_NOT_CONVERGED) return 0;
    for (int i = 0; i < mcd_fc3d_size(p); i++)
        if (!isfinite(rc[i])) return 0;
    return 1;
}

/* The block iteration (Gauss-Seidel, or Jacobi when chosen) from x, the
 * best point of a Newton run (R there in *R), at most MB_POLISH sweeps; x and *R become the best
 * iterate and its R. On sphere-pile groups the Newton method stalls at R = 1-20 tol (its merit
 * |Phi| near a solution is not the law's R) where 1-4 sweeps reach tol (docs/solvers.md, session
 * 13). scratch: n doubles. Returns a failing block solve's status, else MCD_OK. */
static mcd_status polish(const mb_solve *m, double *x, double *scratch, double *R,
                         mcd_maxdiss_stats *st)
{
    if (*R <= m->o->tol) return MCD_OK;
    mcd_maxdiss_opts o = *m->o;
    o.max_iter = MB_POLISH;
    mb_solve mp = *m;
    mp.o = &o, mp.best = scratch, mp.tail_exit = 0;
    mcd_maxdiss_stats ps = {0};
    memcpy(scratch, x, (size_t)m->n * sizeof *x);
    mcd_status s = iterate(&mp, x, &ps);
    st->iterations += ps.iterations;
    if (s != MCD_OK && s != MCD_ERR_NOT_CONVERGED) return s;
    memcpy(x, scratch, (size_t)m->n * sizeof *x);
    *R = fmin(*R, ps.residual);
    return MCD_OK;
}

/* Newton from x with iterations per rung (newton_from), then the polish;
 * *R the R of the resulting x. */
static mcd_status newton_polished(const mb_solve *m, int iterations, double *x, double *scratch,
                                  double *work, mcd_maxdiss_stats *st, double *R)
{
    mcd_status s = newton_from(m->p, m->o, iterations, x, work, st, R, m->err);
    if (s != MCD_OK && s != MCD_ERR_NOT_CONVERGED) return s;
    return polish(m, x, scratch, R, st);
}

/* The failure path (impact.h): Newton, each run polished by a few sweeps
 * (polish), from a Coulomb solution of each coulomb_starts in turn, then
 * from the block iteration's best r (in r); stops at the first point with
 * R <= tol, r receives the point of least R. work: the Newton method's, then
 * 2 n doubles for the Coulomb r and u (u also the polish's scratch); the
 * best point of the Coulomb starts goes to m->best (the block iteration's
 * best-iterate buffer, free once r holds that iterate). */
static mcd_status failure_path(const mb_solve *m, double *r, double *work, mcd_maxdiss_stats *st)
{
    const mcd_fc3d *p = m->p;
    const mcd_maxdiss_opts *o = m->o;
    size_t n = (size_t)m->n;
    double *rc = work + mcd_maxdiss_newton_work_size(p), *uc = rc + n, *rbest = m->best;
    double Rbest = INFINITY, R;
    mcd_status s;
    for (int c = 0; c < COULOMB_STARTS && !(Rbest <= o->tol); c++) {
        if (!coulomb_start(p, o, coulomb_starts[c].solver, rc, uc, st)) continue;
        int budget = o->newton_iter / coulomb_starts[c].budget_divisor;
        s = newton_polished(m, budget > 0 ? budget : 1, rc, uc, work, st, &R);
        if (s != MCD_OK) return s;
        if (R < Rbest) {
            Rbest = R;
            memcpy(rbest, rc, n * sizeof *r);
        }
    }
    if (Rbest <= o->tol) {
        memcpy(r, rbest, n * sizeof *r);
        st->residual = Rbest;
        return MCD_OK;
    }
    s = newton_polished(m, o->newton_iter, r, uc, work, st, &R);
    if (s != MCD_OK) return s;
    if (Rbest < R) memcpy(r, rbest, n * sizeof *r);
    st->residual = fmin(Rbest, R);
    if (st->residual <= o->tol) return MCD_OK;
    return mcd_fail(m->err, MCD_ERR_NOT_CONVERGED,
                    "maxdiss-bgs: residual %g > tol %g after %d sweeps and %d Newton iterations",
                    st->residual, o->tol, st->iterations, st->newton_iterations);
}

mcd_status mcd_maxdiss_solve(const mcd_fc3d *p, const mcd_maxdiss_opts *o, double *r, double *work,
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
    int failure_path_runs = o->newton_iter > 0 && mcd_maxdiss_newton_fits(p);
    mb_solve m = {p,
                  o,
                  n,
                  work,
                  work + n,
                  work + 2 * (size_t)n,
                  work + 3 * (size_t)n,
                  err,
                  failure_path_runs};
    for (int k = 0; k < p->nc; k++) {
        m.delta[k] = block_delta(&m, k);
        if (m.delta[k] == MB_ZERO_BLK) {
            st->zero_blocks++;
            memset(r + p->nb + ROWS * k, 0, ROWS * sizeof *r);
        } else if (m.delta[k] > 0) {
            st->regularized_blocks++;
        }
    }
    memcpy(m.best, r, (size_t)n * sizeof *r);
    s = iterate(&m, r, st);
    memcpy(r, m.best, (size_t)n * sizeof *r);
    if (s == MCD_ERR_NOT_CONVERGED && failure_path_runs)
        s = failure_path(&m, r, work + bgs_work_size(p), st);
    double e = 0.0;
    for (int i = 0; i < n; i++) e += 0.5 * r[i] * (row_dot(&m, i, r) + p->q[i]);
    st->energy = e;
    st->status = s;
    st->seconds = mcd_clock_seconds() - t0;
    return s;
}

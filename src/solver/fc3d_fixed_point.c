/* The Cadoux fixed point over the CCP's ADMM, mncp-fixpoint
 * (fc3d_fixed_point.h; Acary, Cadoux, Lemarechal & Malick 2011). */
#include "fc3d_fixed_point.h"

#include "block_product.h"
#include "ccp_common.h"
#include "dense.h"

#include <math.h>
#include <string.h>

enum { N = MCD_FC3D_N, T1 = MCD_FC3D_T1, T2 = MCD_FC3D_T2, ROWS = MCD_FC3D_ROWS };

/* One solve's state: the problem, the QP (W, q + E s) and its ADMM. */
typedef struct fixed_point {
    const mcd_fc3d *p;
    const mcd_fixed_point_ws *w;
    mcd_fc3d qp; /* W, mu and sizes of p, q = w->q_s */
    mcd_admm admm;
    const mcd_block_product *product; /* the QP loop's W z + q (block_product.h) */
    int n;
    double scale;                   /* velocity scale max(|q|_inf, |s_0|_inf) */
    double best_error;              /* error of w->r_best */
    double theta;                   /* the relaxation of the next update of s */
    int adaptive;                   /* 1: theta from adapt_theta's rule; 0: fixed */
    double least;                   /* the least change of s so far */
    double recent[FP_THETA_WINDOW]; /* the last changes of s, a ring */
    int updates;                    /* updates of s so far */
    int capped;                     /* QPs in a row that ended at FP_INNER_MAX_ITER */
    double block_max;               /* the largest change of s in the current block */
    double last_block_max;          /* the same over the previous block */
    int stalled;                    /* a block's largest change was the last one's, give or take */
    double psi;                     /* 1/2 |F(s) - s|^2 at the last update */
    double target;                  /* the next QP's residual target */
    double next_finish;             /* a local finish when the change of s falls below this */
} fixed_point;

/* q_s = q + E s, the QP's linear term. */
static void shift_q(fixed_point *f)
{
    const mcd_fc3d *p = f->p;
    memcpy(f->w->q_s, p->q, (size_t)f->n * sizeof *p->q);
    for (int k = 0; k < p->nc; k++) f->w->q_s[p->nb + ROWS * k + N] += f->w->s[k];
}

/* F(s)_k - s_k = mu_k |u_kT| - s_k at u = W r + q. */
static double fixed_point_gap(const fixed_point *f, const double *u, int k)
{
    const double *uk = u + f->p->nb + ROWS * k;
    return f->p->mu[k] * hypot(uk[T1], uk[T2]) - f->w->s[k];
}

/* The relaxation of the next update from this change of s: halved (down
 * to FP_THETA_MIN) when the change is not below every one of the last
 * FP_THETA_WINDOW changes, doubled (up to theta_max) when it is the least
 * so far, else kept. A non-monotone test (as Grippo, Lampariello & Lucidi's
 * line search): the map need not be a contraction, near a stick-slip
 * transition the plain iteration cycles (a cycle's largest change meets
 * the test once per period), but a transient rise of the change must not
 * halve theta: on the poured pile's step 104 the monotone rule (halve at
 * any rise) took theta to its floor at outer iteration 10 and the error
 * then grew, while theta = 1 converges there (docs/solvers.md). */
static void adapt_theta(fixed_point *f, double change, double theta_max)
{
    double window_max = 0.0;
    int seen = f->updates < FP_THETA_WINDOW ? f->updates : FP_THETA_WINDOW;
    for (int i = 0; i < seen; i++) window_max = fmax(window_max, f->recent[i]);
    if (!f->adaptive)
        f->theta = theta_max;
    else if (seen == FP_THETA_WINDOW && !(change < window_max))
        f->theta = fmax(0.5 * f->theta, FP_THETA_MIN);
    else if (change < f->least)
        f->theta = fmin(2.0 * f->theta, theta_max);
    f->least = fmin(f->least, change);
    f->recent[f->updates % FP_THETA_WINDOW] = change;
    f->updates++;
}

/* Blocks of FP_STALL_BLOCK updates of s: stalled when a block's largest
 * change is within a factor FP_STALL_BAND of the previous block's (the
 * first block's predecessor is INFINITY, set by start_solve). */
static void watch_stall(fixed_point *f, double change)
{
    f->block_max = fmax(f->block_max, change);
    if (f->updates % FP_STALL_BLOCK != 0) return;
    f->stalled = f->block_max < FP_STALL_BAND * f->last_block_max &&
                 f->block_max * FP_STALL_BAND > f->last_block_max;
    f->last_block_max = f->block_max;
    f->block_max = 0.0;
}

/* s <- (1 - theta) s + theta F(s), theta from adapt_theta. Returns
 * max_k |F(s)_k - s_k| and sets *psi = 1/2 sum_k (F(s)_k - s_k)^2. */
static double update_s(fixed_point *f, const double *u, double theta_max, double *psi)
{
    double change = 0.0;
    *psi = 0.0;
    for (int k = 0; k < f->p->nc; k++) {
        double d = fixed_point_gap(f, u, k);
        change = fmax(change, fabs(d));
        *psi += 0.5 * d * d;
    }
    adapt_theta(f, change, theta_max);
    watch_stall(f, change);
    for (int k = 0; k < f->p->nc; k++) f->w->s[k] += f->theta * fixed_point_gap(f, u, k);
    shift_q(f);
    return change;
}

/* r's error; kept in r_best when lower. */
static double record(fixed_point *f, const double *r, const double *u)
{
    double e = mcd_fc3d_error(f->p, r, u);
    if (e < f->best_error || isnan(f->best_error)) {
        f->best_error = e;
        memcpy(f->w->r_best, r, (size_t)f->n * sizeof *r);
    }
    return e;
}

/* ADMM iterations on the current QP until its CCP residual is <= target
 * or FP_INNER_MAX_ITER; done: the ADMM iterations before (rho's balance
 * counts across the QPs). Returns the iterations, -1 on a failed factor,
 * -2 on a non-finite iterate. */
static int solve_qp(fixed_point *f, double target, int done)
{
    mcd_admm *a = &f->admm;
    mcd_ccp_stats cs;
    for (int it = 1; it <= FP_INNER_MAX_ITER; it++) {
        double primal, dual;
        mcd_admm_iterate(a, &primal, &dual);
        mcd_block_matvec(f->product, f->n, f->p->W, a->z, f->qp.q, a->d);
        mcd_ccp_measure(&f->qp, a->z, a->d, &cs);
        if (isnan(cs.residual)) return -2;
        if (cs.residual <= target) return it;
        if (!mcd_admm_rebalance(a, done + it, primal, dual)) return -1;
    }
    return FP_INNER_MAX_ITER;
}

/* The local finish from the point r (u = W r + q), in place: the
 * active-set polish, then mncp-nsn from its point with nsn_iter
 * iterations per rung; 1 if r then meets tol. */
static int finish_locally(fixed_point *f, double tol, int nsn_iter, double *r, double *u)
{
    double e = mcd_fc3d_error(f->p, r, u);
    mcd_fc3d_polish(f->p, tol, &f->w->polish, r, u, &e);
    if (record(f, r, u) <= tol) return 1;
    mcd_nsn_result nr;
    mcd_nsn_alart_curnier(f->p, tol, nsn_iter, &f->w->nsn, r, u, &nr);
    return record(f, r, u) <= tol;
}

/* Sets up from r: u = W r + q, s_0 = mu |u_T(r)|, the scale, the record
 * of r, the QP loop's block product (the NSN's state's, which the local
 * finishes set up again for the same W) and the ADMM on the first QP.
 * MCD_OK if r already meets tol. */
static mcd_status start_solve(fixed_point *f, const mcd_fixed_point_opts *o, double *r, double *u,
                              double *change)
{
    const mcd_fc3d *p = f->p;
    const mcd_fixed_point_ws *w = f->w;
    f->qp = (mcd_fc3d){p->nc, p->nb, p->W, w->q_s, p->mu};
    mcd_block_product *product = mcd_sparse_lu_product(w->nsn.sparse);
    mcd_block_product_setup(product, f->n, p->nb, p->W);
    f->product = product;
    memset(w->s, 0, (size_t)p->nc * sizeof *w->s);
    mcd_dense_matvec(f->n, p->W, r, p->q, u);
    f->theta = 1.0, f->least = INFINITY, f->updates = 0;
    *change = update_s(f, u, 1.0, &f->psi);
    f->theta = o->relaxation, f->least = INFINITY, f->updates = 0;
    f->block_max = 0.0, f->last_block_max = INFINITY;
    f->scale = fmax(mcd_dense_max_abs(f->n, p->q), mcd_dense_max_abs(p->nc, w->s));
    mcd_admm_bind(&f->admm, &f->qp, w->F, w->admm, w->chol);
    if (record(f, r, u) <= o->tol) return MCD_OK;
    return mcd_admm_start(&f->admm, r, FP_PROX) ? MCD_ERR_NOT_CONVERGED : MCD_ERR_SINGULAR;
}

/* One outer iteration: the QP for s_j from the ADMM's state, r_{j+1} its
 * solution, the update of s and, when the change of s has fallen enough,
 * a local finish. MCD_OK when an error <= tol was met. */
static mcd_status outer_iteration(fixed_point *f, const mcd_fixed_point_opts *o, double *r,
                                  double *u, mcd_fixed_point_result *res)
{
    int it = solve_qp(f, fmax(f->target, o->tol * f->scale), res->inner);
    if (it < 0) return it == -1 ? MCD_ERR_SINGULAR : MCD_ERR_NONFINITE;
    res->outer++, res->inner += it;
    f->capped = it == FP_INNER_MAX_ITER ? f->capped + 1 : 0;
    memcpy(r, f->admm.z, (size_t)f->n * sizeof *r);
    mcd_dense_matvec(f->n, f->p->W, r, f->p->q, u);
    if (record(f, r, u) <= o->tol) return MCD_OK;
    res->change = update_s(f, u, o->relaxation, &f->psi);
    f->target = fmin(f->target, FP_INNER_FRACTION * res->change);
    if (res->change > f->next_finish) return MCD_ERR_NOT_CONVERGED;
    f->next_finish = res->change * FP_FINISH_RATIO;
    res->finishes++;
    return finish_locally(f, o->tol, FP_NSN_MAX_ITER, r, u) ? MCD_OK : MCD_ERR_NOT_CONVERGED;
}

/* ADMM no longer reaches the QPs' targets, or s stalls or cycles
 * (fc3d_fixed_point.h, FP_CAPPED_STOP and FP_STALL_BLOCK). */
static int stopped_early(const fixed_point *f)
{
    return f->capped >= FP_CAPPED_STOP || f->stalled;
}

mcd_status mcd_fc3d_fixed_point_solve(const mcd_fc3d *p, const mcd_fixed_point_opts *o,
                                      const mcd_fixed_point_ws *w, double *r, double *u,
                                      mcd_fixed_point_result *res)
{
    fixed_point f = {
        .p = p, .w = w, .n = mcd_fc3d_size(p), .best_error = NAN, .adaptive = o->adaptive};
    memset(res, 0, sizeof *res);
    mcd_status st = start_solve(&f, o, r, u, &res->change);
    f.target = FP_INNER_FIRST * f.scale, f.next_finish = FP_FINISH_START * f.scale;
    while (st == MCD_ERR_NOT_CONVERGED && res->outer < o->max_iter && !stopped_early(&f))
        st = outer_iteration(&f, o, r, u, res);
    size_t bytes = (size_t)f.n * sizeof *r;
    if (st != MCD_OK) { /* the last chance: a local finish from the best point */
        memcpy(r, w->r_best, bytes);
        mcd_dense_matvec(f.n, p->W, r, p->q, u);
        res->finishes++;
        if (finish_locally(&f, o->tol, FP_NSN_LAST_ITER, r, u)) st = MCD_OK;
    }
    memcpy(r, w->r_best, bytes);
    mcd_dense_matvec(f.n, p->W, r, p->q, u);
    res->error = f.best_error;
    res->psi = f.psi;
    return st;
}

static mcd_fixed_point_ws lend_ws(const mcd_solver_ws *ws)
{
    int m = ws->n_max;
    double *base = mcd_ws_vec(ws, 8); /* slots 8-12: 10 n_max doubles */
    mcd_fixed_point_ws w = {
        .F = ws->mat4,
        .chol = ws->sparse_cholesky,
        .admm = base,
        .s = base + (size_t)MCD_ADMM_VECTORS * m,
        .q_s = mcd_ws_vec(ws, 13),
        .r_best = mcd_ws_vec(ws, 13) + m,
        .polish = mcd_polish_ws_lend(ws),
        .nsn = {.J = ws->mat1,
                .ipiv = mcd_ws_ivec(ws, 0),
                .rho = mcd_ws_vec(ws, 0),
                .phi = mcd_ws_vec(ws, 1),
                .phi_trial = mcd_ws_vec(ws, 2),
                .step = mcd_ws_vec(ws, 3),
                .w_step = mcd_ws_vec(ws, 4),
                .r_trial = mcd_ws_vec(ws, 5),
                .u_trial = mcd_ws_vec(ws, 6),
                .r_best = mcd_ws_vec(ws, 7),
                .sparse = ws->sparse_lu},
    };
    return w;
}

mcd_status mcd_solve_fc3d_fixed_point(const mcd_solver_ws *ws, const mcd_fc3d *p,
                                      const mcd_solver_opts *o, int adaptive, double *r, double *u,
                                      mcd_solver_stats *stats, mcd_error *err)
{
    double theta = o->relaxation == 0 ? 1.0 : o->relaxation;
    if (!(theta > 0 && theta <= 1))
        return mcd_fail(err, MCD_ERR_ARG, "mncp-fixpoint: relaxation = %g is not in (0, 1]",
                        o->relaxation);
    if (!o->warm_start) memset(r, 0, (size_t)mcd_fc3d_size(p) * sizeof *r);
    mcd_fixed_point_opts fo = {
        .tol = o->tol, .max_iter = o->max_iter, .relaxation = theta, .adaptive = adaptive};
    mcd_fixed_point_ws w = lend_ws(ws);
    mcd_fixed_point_result res;
    mcd_status st = mcd_fc3d_fixed_point_solve(p, &fo, &w, r, u, &res);
    stats->stages = 1;
    stats->iterations = res.outer;
    stats->psi = res.psi;
    stats->error = res.error;
    if (st == MCD_ERR_SINGULAR)
        return mcd_fail(err, st, "mncp-fixpoint: W + (rho + eta) I has no Cholesky factor");
    if (st == MCD_ERR_NONFINITE)
        return mcd_fail(err, st, "mncp-fixpoint: an ADMM iterate became non-finite");
    return st;
}

/* Solver names, options and dispatch (solver.h): validates a call, lends
 * the workspace arrays to the chosen algorithm and fills the statistics. */
#include "mcdyn/solver.h"
#include "../base/clock.h"

#include "dense.h"
#include "lemke.h"
#include "lm.h"
#include "mlcp_pfb.h"
#include "mlcp_reduce.h"
#include "mncp_todorov.h"
#include "fc3d_fixed_point.h"
#include "fc3d_polish.h"
#include "nsn_alart_curnier.h"
#include "proximal.h"
#include "workspace.h"

#include <math.h>
#include <string.h>

static const char *const solver_names[MCD_SOLVER_KIND_COUNT] = {
    [MCD_SOLVER_MLCP_PFB_RLM] = "mlcp-pfb-rlm",   [MCD_SOLVER_MLCP_PFB_PLM] = "mlcp-pfb-plm",
    [MCD_SOLVER_MLCP_LEMKE] = "mlcp-lemke",       [MCD_SOLVER_MNCP_RLM] = "mncp-rlm",
    [MCD_SOLVER_MNCP_PLM] = "mncp-plm",           [MCD_SOLVER_MNCP_NSN] = "mncp-nsn",
    [MCD_SOLVER_MNCP_FIXPOINT] = "mncp-fixpoint",
};

#define LM_MAX_ITER          100   /* default LM iterations */
#define LEMKE_PIVOTS_PER_ROW 50    /* default Lemke pivots: 50 n */
#define RLM_LAMBDA0          1e-3  /* Sec. 5.1 */
#define PLM_LAMBDA           1e-16 /* Sec. 5.2 */
#define PROX_MAX_OUTER       30    /* outer iterations of the MLCP proximal stage */
#define PROX_BUDGET          3     /* its inner iterations: at most this times max_iter */
/* The fc3d proximal stage (Siconos' rule, the NSN inside): its outer
 * iterations, its inner NSN iterations in all, and per rho rung of one
 * inner solve. */
#define PROX_NSN_MAX_OUTER 200
#define PROX_NSN_BUDGET    5000
#define PROX_NSN_ITER      20
/* iterations per rho rung of the NSN stages of mncp-plm's chain: on singular
 * W they converge linearly, not stall (docs/solvers.md, "the A1 study") */
#define NSN_STAGE_ITER 1000
/* Problems of at least this many unknowns are large for mncp-plm's chain:
 * its proximal stage (the NSN inside, Siconos' rule) runs right after
 * PLM, then the fixed-point stage with theta = 1 fixed, both before the
 * NSN stages; the first polish is left out (dense least squares: 4.3 s
 * of FCLIB's Capsules, 858 unknowns, without a gain, and none of 25
 * captured pile groups solved; docs/solvers.md, "The piles' cost
 * (session 12)"), and the later ones do nothing there (fc3d_polish.h,
 * POLISH_MAX_N, session 13). On the sphere piles' groups (201-360 unknowns)
 * the NSN stages fail and take 10-50 s, and the proximal stage solves the
 * groups where the fixed point fails; every group of the other scenes
 * that reaches the chain has at most 78 (docs/solvers.md, "The sphere
 * pile", "Session 10"). */
#define CHAIN_LARGE_N 150
/* The workspace vector in which a stage keeps the chain's best point: one
 * that neither mncp-nsn nor mncp-fixpoint (vectors 8-13) uses. */
#define CHAIN_KEEP_SLOT 14

static int kind_valid(mcd_solver_kind k)
{
    return (int)k >= 0 && k < MCD_SOLVER_KIND_COUNT;
}

static int is_rlm(mcd_solver_kind k)
{
    return k == MCD_SOLVER_MLCP_PFB_RLM || k == MCD_SOLVER_MNCP_RLM;
}

const char *mcd_solver_name(mcd_solver_kind k)
{
    return kind_valid(k) ? solver_names[k] : NULL;
}

mcd_status mcd_solver_from_name(const char *name, mcd_solver_kind *k, mcd_error *err)
{
    for (int i = 0; name && k && i < MCD_SOLVER_KIND_COUNT; i++) {
        if (strcmp(name, solver_names[i]) == 0) {
            *k = (mcd_solver_kind)i;
            return MCD_OK;
        }
    }
    return mcd_fail(err, MCD_ERR_ARG,
                    "unknown solver '%s'; valid: mlcp-pfb-rlm, mlcp-pfb-plm, mlcp-lemke, "
                    "mncp-rlm, mncp-plm, mncp-nsn, mncp-fixpoint",
                    name ? name : "(null)");
}

int mcd_solver_is_mlcp(mcd_solver_kind k)
{
    return k == MCD_SOLVER_MLCP_PFB_RLM || k == MCD_SOLVER_MLCP_PFB_PLM ||
           k == MCD_SOLVER_MLCP_LEMKE;
}

mcd_solver_opts mcd_solver_default_opts(mcd_solver_kind k)
{
    mcd_solver_opts o = {
        .tol = 1e-10,
        .psi_tol = 1e-30, /* Sec. 5.1 */
        .max_iter = k == MCD_SOLVER_MLCP_LEMKE ? 0 : LM_MAX_ITER,
        .pfb_lambda = 0.95,
        .lm_lambda0 = k == MCD_SOLVER_MLCP_LEMKE ? 0.0
                      : is_rlm(k)                ? RLM_LAMBDA0
                                                 : PLM_LAMBDA,
        .warm_start = 0,
    };
    return o;
}

/* opts (or the defaults) with 0-means-default fields filled, validated. */
static mcd_status resolve_opts(mcd_solver_kind k, int n, const mcd_solver_opts *in,
                               mcd_solver_opts *o, mcd_error *err)
{
    *o = in ? *in : mcd_solver_default_opts(k);
    if (o->max_iter <= 0)
        o->max_iter = k == MCD_SOLVER_MLCP_LEMKE ? LEMKE_PIVOTS_PER_ROW * n : LM_MAX_ITER;
    if (o->lm_lambda0 == 0) o->lm_lambda0 = is_rlm(k) ? RLM_LAMBDA0 : PLM_LAMBDA;
    if (!(o->tol >= 0) || !(o->psi_tol >= 0))
        return mcd_fail(err, MCD_ERR_ARG, "%s: tol (%g) and psi_tol (%g) must be >= 0",
                        solver_names[k], o->tol, o->psi_tol);
    if (!(o->pfb_lambda > 0 && o->pfb_lambda <= 1))
        return mcd_fail(err, MCD_ERR_ARG, "%s: pfb_lambda = %g is not in (0, 1]", solver_names[k],
                        o->pfb_lambda);
    if (!(o->lm_lambda0 > 0 && isfinite(o->lm_lambda0)))
        return mcd_fail(err, MCD_ERR_ARG, "%s: lm_lambda0 = %g must be positive", solver_names[k],
                        o->lm_lambda0);
    if (o->fallback != MCD_FALLBACK_CHAIN && o->fallback != MCD_FALLBACK_NONE)
        return mcd_fail(err, MCD_ERR_ARG, "%s: unknown fallback %d", solver_names[k],
                        (int)o->fallback);
    return MCD_OK;
}

/* Checks common to both entry points: arguments, solver family, capacity. */
static mcd_status check_call(const mcd_solver_ws *ws, mcd_solver_kind k, int want_mlcp, int n,
                             const double *out, mcd_error *err)
{
    if (!ws || !out) return mcd_fail(err, MCD_ERR_ARG, "solver: NULL workspace or output array");
    if (!kind_valid(k)) return mcd_fail(err, MCD_ERR_ARG, "solver: unknown kind %d", (int)k);
    if (mcd_solver_is_mlcp(k) != want_mlcp)
        return mcd_fail(err, MCD_ERR_UNSUPPORTED, "%s cannot solve %s problems", solver_names[k],
                        want_mlcp ? "MLCP" : "frictional contact (fc3d)");
    if (n > ws->n_max)
        return mcd_fail(err, MCD_ERR_CAPACITY, "%s: problem size %d exceeds the workspace (%d)",
                        solver_names[k], n, ws->n_max);
    return MCD_OK;
}

/* Vector slots 0-6 belong to the LM methods, 7 on to the problem they solve;
 * mncp-nsn (solve_fc3d_nsn) uses 0-7 for itself. The chains keep 11-13. */
static mcd_lm_ws lend_lm_ws(const mcd_solver_ws *ws, mcd_solver_kind k)
{
    int rlm = is_rlm(k);
    mcd_lm_ws w = {
        .J = ws->mat1,
        .A = rlm ? ws->mat2 : ws->mat3,
        .H = rlm ? ws->mat3 : ws->mat2,
        .phi = mcd_ws_vec(ws, 0),
        .phi_trial = mcd_ws_vec(ws, 1),
        .grad = mcd_ws_vec(ws, 2),
        .step = mcd_ws_vec(ws, 3),
        .x_trial = mcd_ws_vec(ws, 4),
        .x_best = mcd_ws_vec(ws, 5),
        .rhs = mcd_ws_vec(ws, 6),
        .lwork = ws->lwork,
        .lwork_len = ws->lwork_len,
        .sparse = ws->sparse,
    };
    return w;
}

static mcd_status run_lm(const mcd_solver_ws *ws, mcd_solver_kind k, const mcd_nls *sys,
                         const mcd_solver_opts *o, double *x, mcd_solver_stats *stats)
{
    mcd_lm_opts lo = {
        .tol = o->tol, .psi_tol = o->psi_tol, .lambda0 = o->lm_lambda0, .max_iter = o->max_iter};
    mcd_lm_ws w = lend_lm_ws(ws, k);
    mcd_lm_result res;
    mcd_status st =
        is_rlm(k) ? mcd_lm_regular(sys, &lo, &w, x, &res) : mcd_lm_projected(sys, &lo, &w, x, &res);
    stats->iterations = res.iterations;
    stats->psi = res.psi;
    stats->error = res.error;
    return st;
}

/* z = mid(lo, 0, hi), the cold start of the PFB solvers. */
static void clamped_zero(const mcd_mlcp *p, double *z)
{
    for (int i = 0; i < p->n; i++) z[i] = fmin(fmax(0.0, p->lo[i]), p->hi[i]);
}

static mcd_status solve_mlcp_pfb(const mcd_solver_ws *ws, mcd_solver_kind k, const mcd_mlcp *p,
                                 const mcd_solver_opts *o, double *z, mcd_solver_stats *stats)
{
    mcd_mlcp_pfb ctx = {
        .p = p, .lambda = o->pfb_lambda, .w = mcd_ws_vec(ws, 7), .y = mcd_ws_vec(ws, 8)};
    if (!o->warm_start) clamped_zero(p, z);
    mcd_nls sys = {p->n, &ctx, mcd_mlcp_pfb_residual, mcd_mlcp_pfb_error, mcd_mlcp_pfb_jacobian,
                   p->M, p->n};
    return run_lm(ws, k, &sys, o, z, stats);
}

/* The guessed basis of Lemke's LCP (zeta_start: 1 basic, 0 not, lemke.h)
 * from an MLCP basis (mcd_solve_mlcp_lemke_basis): row comp_rows[k]'s. */
static void lcp_basis_start(const mcd_mlcp_reduced *red, const unsigned char *basis,
                            double *zeta_start)
{
    for (int k = 0; k < red->nc; k++) zeta_start[k] = basis[red->comp_rows[k]] ? 1.0 : 0.0;
}

/* The MLCP basis of Lemke's final basis (lemke.h, w->basis): 1 on the
 * rows whose zeta is basic, 0 on the others and on the free rows. */
static void mlcp_basis_of_lemke(const mcd_mlcp *p, const mcd_mlcp_reduced *red,
                                const int *lcp_basis, unsigned char *basis)
{
    memset(basis, 0, (size_t)p->n);
    for (int i = 0; i < red->nc; i++) {
        int v = lcp_basis[i];
        if (v >= red->nc && v < 2 * red->nc) basis[red->comp_rows[v - red->nc]] = 1;
    }
}

/* mlcp-lemke; basis (NULL, or the MLCP basis in and out:
 * mcd_solve_mlcp_lemke_basis) is Lemke's first guess (lemke.h,
 * basis_start), before z's positive entries, and receives its final
 * basis. */
static mcd_status solve_mlcp_lemke(const mcd_solver_ws *ws, const mcd_mlcp *p,
                                   const mcd_solver_opts *o, double *z, unsigned char *basis,
                                   mcd_solver_stats *stats, mcd_error *err)
{
    size_t n2 = (size_t)ws->n_max * (size_t)ws->n_max;
    mcd_mlcp_reduced red = {
        .free_rows = mcd_ws_ivec(ws, 0),
        .comp_rows = mcd_ws_ivec(ws, 1),
        .sign = mcd_ws_vec(ws, 0),
        .qt = mcd_ws_vec(ws, 1),
        .A = ws->mat1,
        .b = mcd_ws_vec(ws, 2),
        .lu = ws->mat3,
        .ipiv = mcd_ws_ivec(ws, 2),
        .X = ws->mat3 + n2,
        .work = mcd_ws_vec(ws, 7), /* slots 7-8: 4 n */
        .iwork = mcd_ws_ivec(ws, 5),
    };
    mcd_status st = mcd_mlcp_reduce(p, &red, err);
    if (st == MCD_ERR_SINGULAR) clamped_zero(p, z); /* a defined z, whose error is reported */
    if (st != MCD_OK) return st;
    mcd_lemke_ws lw = {
        .Binv = ws->mat2,
        .B = ws->mat3, /* the LU of M_FF is no longer needed */
        .xB = mcd_ws_vec(ws, 3),
        .col = mcd_ws_vec(ws, 4),
        .tmp = mcd_ws_vec(ws, 5),
        .basis = mcd_ws_ivec(ws, 3),
        .ties = mcd_ws_ivec(ws, 4),
        .ipiv = mcd_ws_ivec(ws, 2),
        .noise_x = mcd_ws_vec(ws, 9),
        .noise_col = mcd_ws_ivec(ws, 6),
        .noise_before = mcd_ws_ivec(ws, 7),
        .cover = mcd_ws_vec(ws, 10),
    };
    double *zeta = mcd_ws_vec(ws, 6), *zeta_start = NULL;
    if (o->warm_start) {
        zeta_start = mcd_ws_vec(ws, 11);
        mcd_mlcp_lcp_start(p, &red, z, zeta_start);
        if (basis) {
            lcp_basis_start(&red, basis, zeta_start + ws->n_max); /* slot 11's second half */
            lw.basis_start = zeta_start + ws->n_max;
        }
    }
    st = mcd_lemke(red.nc, red.A, red.b, zeta_start, o->max_iter, &lw, zeta, &stats->iterations);
    mcd_mlcp_expand(p, &red, zeta, z);
    if (basis) mlcp_basis_of_lemke(p, &red, lw.basis, basis);
    return st;
}

static mcd_status solve_fc3d_lm(const mcd_solver_ws *ws, mcd_solver_kind k, const mcd_fc3d *p,
                                const mcd_solver_opts *o, double *r, double *u,
                                mcd_solver_stats *stats)
{
    int n = mcd_fc3d_size(p);
    double *x = mcd_ws_vec(ws, 7), *scale = mcd_ws_vec(ws, 10);
    mcd_mncp ctx = {
        .p = p, .scale = scale, .r = r, .u = u, .dF = mcd_ws_vec(ws, 8)}; /* 8-9: 9 nc */
    mcd_mncp_units(p, scale);
    if (o->warm_start) {
        mcd_mncp_start_from(p, scale, r, u, x);
    } else {
        memset(x, 0, (size_t)n * sizeof *x);
    }
    mcd_nls sys = {n, &ctx, mcd_mncp_residual, mcd_mncp_error, mcd_mncp_jacobian, p->W, p->nb};
    return run_lm(ws, k, &sys, o, x, stats); /* leaves r = F(x), u = W r + q */
}

/* mncp-nsn from r (warm start) or from 0. */
static mcd_status solve_fc3d_nsn(const mcd_solver_ws *ws, const mcd_fc3d *p,
                                 const mcd_solver_opts *o, double *r, double *u,
                                 mcd_solver_stats *stats)
{
    int n = mcd_fc3d_size(p);
    mcd_nsn_ws w = {
        .J = ws->mat1,
        .ipiv = mcd_ws_ivec(ws, 0),
        .rho = mcd_ws_vec(ws, 0),
        .phi = mcd_ws_vec(ws, 1),
        .phi_trial = mcd_ws_vec(ws, 2),
        .step = mcd_ws_vec(ws, 3),
        .w_step = mcd_ws_vec(ws, 4),
        .r_trial = mcd_ws_vec(ws, 5),
        .u_trial = mcd_ws_vec(ws, 6),
        .r_best = mcd_ws_vec(ws, 7),
        .sparse = ws->sparse_lu,
    };
    if (!o->warm_start) memset(r, 0, (size_t)n * sizeof *r);
    mcd_nsn_result res;
    mcd_status st = mcd_nsn_alart_curnier(p, o->tol, o->max_iter, &w, r, u, &res);
    stats->iterations += res.iterations;
    stats->psi = res.psi;
    stats->error = res.error;
    return st;
}

/* The status of a finished solve: MCD_OK only if the error of the
 * returned point (stats->error, recomputed from it) is within tol. */
static mcd_status honest(mcd_status st, const mcd_solver_stats *stats, const mcd_solver_opts *o)
{
    return st == MCD_OK && !(stats->error <= o->tol) ? MCD_ERR_NOT_CONVERGED : st;
}

/* The proximal stage (proximal.h) on an MLCP or a frictional-contact
 * problem: the shifted problem lives in sub_mlcp / sub_fc3d, whose M / W
 * and q point into the workspace. The MLCP's inner solver is PFB-PLM
 * (MCD_PROX_RULE_STEPS), the fc3d's mncp-nsn (MCD_PROX_RULE_ERROR). */
typedef struct prox_ctx {
    const mcd_solver_ws *ws;
    mcd_solver_kind inner; /* the problem family's inner solver */
    mcd_solver_opts o;     /* warm-started inner options */
    const mcd_mlcp *mlcp;
    const mcd_fc3d *fc3d;
    mcd_mlcp sub_mlcp;
    mcd_fc3d sub_fc3d;
    double *u; /* fc3d: the caller's u, scratch of the inner solves */
} prox_ctx;

static mcd_status prox_solve(void *c, double tol, double *x, int *iterations)
{
    prox_ctx *pc = c;
    mcd_solver_stats s = {0};
    mcd_solver_opts o = pc->o;
    o.tol = tol;
    mcd_status st = pc->mlcp ? solve_mlcp_pfb(pc->ws, pc->inner, &pc->sub_mlcp, &o, x, &s)
                             : solve_fc3d_nsn(pc->ws, &pc->sub_fc3d, &o, x, pc->u, &s);
    *iterations += s.iterations;
    return st;
}

static double prox_error(void *c, const double *x)
{
    prox_ctx *pc = c;
    return pc->mlcp ? mcd_mlcp_error(pc->mlcp, x, mcd_ws_vec(pc->ws, 9))
                    : mcd_fc3d_error(pc->fc3d, x, NULL);
}

/* The inner solver's options: the caller's when the method is that
 * solver (its max_iter, pfb_lambda, lm_lambda0), else the solver's
 * defaults; warm started, with the caller's tol, without a chain of its
 * own. */
static prox_ctx prox_context(const mcd_solver_ws *ws, mcd_solver_kind k, mcd_solver_kind inner,
                             const mcd_solver_opts *o)
{
    prox_ctx pc = {.ws = ws, .inner = inner, .o = k == inner ? *o : mcd_solver_default_opts(inner)};
    pc.o.tol = o->tol;
    pc.o.warm_start = 1;
    pc.o.fallback = MCD_FALLBACK_NONE;
    return pc;
}

static mcd_status run_proximal(prox_ctx *pc, int n, const double *M, const double *q,
                               mcd_prox_rule rule, int max_outer, int max_inner, double *x,
                               mcd_solver_stats *stats)
{
    const mcd_solver_ws *ws = pc->ws;
    mcd_prox_problem pp = {.n = n,
                           .M = M,
                           .q = q,
                           .Mp = ws->mat4,
                           .qp = mcd_ws_vec(ws, 13),
                           .anchor = mcd_ws_vec(ws, 11),
                           .best = mcd_ws_vec(ws, 12),
                           .rule = rule,
                           .ctx = pc,
                           .solve = prox_solve,
                           .error = prox_error};
    stats->stages++;
    return mcd_proximal_solve(&pp, pc->o.tol, max_outer, max_inner, x, &stats->iterations,
                              &stats->error);
}

static mcd_status proximal_mlcp(const mcd_solver_ws *ws, mcd_solver_kind k, const mcd_mlcp *p,
                                const mcd_solver_opts *o, double *z, mcd_solver_stats *stats)
{
    prox_ctx pc = prox_context(ws, k, MCD_SOLVER_MLCP_PFB_PLM, o);
    pc.mlcp = p;
    pc.sub_mlcp = (mcd_mlcp){p->n, ws->mat4, mcd_ws_vec(ws, 13), p->lo, p->hi};
    return run_proximal(&pc, p->n, p->M, p->q, MCD_PROX_RULE_STEPS, PROX_MAX_OUTER,
                        PROX_BUDGET * pc.o.max_iter, z, stats);
}

static mcd_status proximal_fc3d(const mcd_solver_ws *ws, const mcd_fc3d *p,
                                const mcd_solver_opts *o, double *r, double *u,
                                mcd_solver_stats *stats)
{
    prox_ctx pc = prox_context(ws, MCD_SOLVER_MNCP_PLM, MCD_SOLVER_MNCP_NSN, o);
    pc.o.max_iter = PROX_NSN_ITER;
    pc.fc3d = p;
    pc.u = u;
    pc.sub_fc3d = (mcd_fc3d){p->nc, p->nb, ws->mat4, mcd_ws_vec(ws, 13), p->mu};
    mcd_status st = run_proximal(&pc, mcd_fc3d_size(p), p->W, p->q, MCD_PROX_RULE_ERROR,
                                 PROX_NSN_MAX_OUTER, PROX_NSN_BUDGET, r, stats);
    mcd_dense_matvec(mcd_fc3d_size(p), p->W, r, p->q, u);
    return st;
}

static int has_box_row(const mcd_mlcp *p)
{
    for (int i = 0; i < p->n; i++)
        if (isfinite(p->lo[i]) && isfinite(p->hi[i])) return 1;
    return 0;
}

/* Lemke as the last stage after the PFB stages: its z is kept only if its
 * error is below the best so far (stats->error), which is in z. */
static mcd_status lemke_stage(const mcd_solver_ws *ws, const mcd_mlcp *p, const mcd_solver_opts *o,
                              double *z, mcd_solver_stats *stats)
{
    double *keep = mcd_ws_vec(ws, CHAIN_KEEP_SLOT), best = stats->error;
    memcpy(keep, z, (size_t)p->n * sizeof *z);
    mcd_solver_opts lo = mcd_solver_default_opts(MCD_SOLVER_MLCP_LEMKE);
    lo.tol = o->tol;
    lo.max_iter = LEMKE_PIVOTS_PER_ROW * p->n;
    mcd_solver_stats ls = {0};
    solve_mlcp_lemke(ws, p, &lo, z, NULL, &ls, NULL);
    stats->stages++;
    stats->iterations += ls.iterations;
    double e = mcd_mlcp_error(p, z, mcd_ws_vec(ws, 9));
    if (!(e < best)) {
        memcpy(z, keep, (size_t)p->n * sizeof *z);
        e = best;
    }
    stats->error = e;
    return e <= o->tol ? MCD_OK : MCD_ERR_NOT_CONVERGED;
}

/* The basis a point names (mcd_solve_mlcp_lemke_basis, after a later
 * stage of the chain): 1 where z_i is off its bound, of a row with one. */
static void basis_of_point(const mcd_mlcp *p, const double *z, unsigned char *basis)
{
    for (int i = 0; i < p->n; i++)
        basis[i] = isfinite(p->lo[i]) ? z[i] > p->lo[i] : isfinite(p->hi[i]) && z[i] < p->hi[i];
}

/* An MLCP by the method k, then its fallback chain (solver.h); basis as
 * solve_mlcp_lemke's. */
static mcd_status solve_mlcp_chain(const mcd_solver_ws *ws, mcd_solver_kind k, const mcd_mlcp *p,
                                   const mcd_solver_opts *o, double *z, unsigned char *basis,
                                   mcd_solver_stats *stats, mcd_error *err)
{
    mcd_status st = k == MCD_SOLVER_MLCP_LEMKE ? solve_mlcp_lemke(ws, p, o, z, basis, stats, err)
                                               : solve_mlcp_pfb(ws, k, p, o, z, stats);
    stats->stages = 1;
    if (st == MCD_ERR_UNSUPPORTED) return st;
    stats->error = mcd_mlcp_error(p, z, mcd_ws_vec(ws, 9));
    st = honest(st, stats, o);
    if (st == MCD_OK || st == MCD_ERR_INFEASIBLE || o->fallback == MCD_FALLBACK_NONE || is_rlm(k))
        return st; /* a Lemke ray: certified (Farkas), or its strict path's as well (lemke.c) */
    st = proximal_mlcp(ws, k, p, o, z, stats);
    if (st != MCD_OK && k == MCD_SOLVER_MLCP_PFB_PLM && !has_box_row(p))
        st = lemke_stage(ws, p, o, z, stats);
    if (basis) basis_of_point(p, z, basis);
    return st;
}

/* After a stage of the chain: its point r (u = W r + q) stays if its
 * error is below best, the error of the point kept in keep; otherwise the
 * kept point comes back into r and u. Returns the error of what r holds. */
static double keep_better(const mcd_fc3d *p, const double *keep, double best, double *r, double *u)
{
    double e = mcd_fc3d_error(p, r, u);
    if (e < best) return e;
    int n = mcd_fc3d_size(p);
    memcpy(r, keep, (size_t)n * sizeof *r);
    mcd_dense_matvec(n, p->W, r, p->q, u);
    return best;
}

/* mncp-nsn as a stage of mncp-plm's chain, warm-started from the best
 * point so far (in r) or started from zero (cold), with NSN_STAGE_ITER
 * iterations per rung; its result is kept only if its error is lower. */
static mcd_status nsn_stage(const mcd_solver_ws *ws, const mcd_fc3d *p, const mcd_solver_opts *o,
                            int warm, double *r, double *u, mcd_solver_stats *stats)
{
    int n = mcd_fc3d_size(p);
    double *keep = mcd_ws_vec(ws, CHAIN_KEEP_SLOT), best = stats->error;
    memcpy(keep, r, (size_t)n * sizeof *r);
    mcd_solver_opts no = mcd_solver_default_opts(MCD_SOLVER_MNCP_NSN);
    no.tol = o->tol;
    no.max_iter = NSN_STAGE_ITER;
    no.warm_start = warm;
    mcd_solver_stats ns = {0};
    solve_fc3d_nsn(ws, p, &no, r, u, &ns);
    stats->stages++;
    stats->iterations += ns.iterations;
    stats->error = keep_better(p, keep, best, r, u);
    return stats->error <= o->tol ? MCD_OK : MCD_ERR_NOT_CONVERGED;
}

/* One start of mncp-fixpoint in mncp-plm's chain: from the best point so
 * far (warm) or from zero, with the adaptive theta or theta = 1 fixed, and
 * max_iter outer iterations (0: mncp-fixpoint's default). */
typedef struct {
    int warm, adaptive, max_iter;
} fixpoint_start;

/* One run of mncp-fixpoint from start, in r and u; the better of its
 * result and the point kept in keep (error best) is left in r, u and
 * returned as its error. */
static double fixpoint_run(const mcd_solver_ws *ws, const mcd_fc3d *p, const mcd_solver_opts *o,
                           const fixpoint_start *start, const double *keep, double best, double *r,
                           double *u, mcd_solver_stats *stats)
{
    mcd_solver_opts fo = mcd_solver_default_opts(MCD_SOLVER_MNCP_FIXPOINT);
    fo.tol = o->tol;
    fo.warm_start = start->warm;
    if (start->max_iter > 0) fo.max_iter = start->max_iter;
    mcd_solver_stats fs = {0};
    mcd_error ignored = {0}; /* a failed stage is not an error of the chain */
    mcd_solve_fc3d_fixed_point(ws, p, &fo, start->adaptive, r, u, &fs, &ignored);
    stats->stages++;
    stats->iterations += fs.iterations;
    return keep_better(p, keep, best, r, u);
}

/* The starts of the fixed-point stage. Small problems, after the warm NSN
 * stage and its polish: from the best point, from zero, from the best
 * point again, adaptive; on the A1 drops' hard steps the fixed point is
 * what converges, and each start solves steps the others do not: of 92
 * steps that the warm NSN stage fails, the three runs solve 81, the cold
 * NSN stage after them 4 more, the proximal stage none, at 0.65 s of CPU
 * per step against 0.60 s with the fixed point last, which solved 80
 * (docs/solvers.md, "The A1 drops that stop or grind"). Large problems,
 * after the first polish and the proximal stage: from zero with theta = 1 fixed, then from
 * the best point, adaptive; on the sphere piles' groups every halving of
 * theta slows the iteration, and the plain one converges where the
 * adaptive one stalls (docs/solvers.md, "The sphere pile"), linearly and
 * slowly: 300 outer iterations, beyond mncp-fixpoint's default of 100
 * (step 164: 121, step 172: 196). */
static const fixpoint_start small_starts[] = {{1, 1, 0}, {0, 1, 0}, {1, 1, 0}};
static const fixpoint_start large_starts[] = {{0, 0, 300}, {1, 1, 0}};
#define SMALL_STARTS ((int)(sizeof small_starts / sizeof *small_starts))
#define LARGE_STARTS ((int)(sizeof large_starts / sizeof *large_starts))

/* mncp-fixpoint (fc3d_fixed_point.h) as a stage of mncp-plm's chain, one
 * run per start (small_starts or large_starts); a result is kept only if
 * its error is lower. */
static mcd_status fixpoint_stage(const mcd_solver_ws *ws, const mcd_fc3d *p,
                                 const mcd_solver_opts *o, const fixpoint_start *starts,
                                 int nstarts, double *r, double *u, mcd_solver_stats *stats)
{
    int n = mcd_fc3d_size(p);
    double *keep = mcd_ws_vec(ws, CHAIN_KEEP_SLOT);
    for (int k = 0; k < nstarts && stats->error > o->tol; k++) {
        memcpy(keep, r, (size_t)n * sizeof *r);
        stats->error = fixpoint_run(ws, p, o, &starts[k], keep, stats->error, r, u, stats);
    }
    return stats->error <= o->tol ? MCD_OK : MCD_ERR_NOT_CONVERGED;
}

/* The active-set polish (fc3d_polish.h) of the point in r, u = W r + q
 * (stats->error its error): a stage of its own, run after a stage that
 * did not converge; its passes count as iterations. */
static mcd_status polish_stage(const mcd_solver_ws *ws, const mcd_fc3d *p, const mcd_solver_opts *o,
                               double *r, double *u, mcd_solver_stats *stats)
{
    mcd_polish_ws w = mcd_polish_ws_lend(ws);
    stats->stages++;
    stats->iterations += mcd_fc3d_polish(p, o->tol, &w, r, u, &stats->error);
    return stats->error <= o->tol ? MCD_OK : MCD_ERR_NOT_CONVERGED;
}

/* A frictional-contact problem by the method k, then its fallback chain. */
static mcd_status solve_fc3d_chain(const mcd_solver_ws *ws, mcd_solver_kind k, const mcd_fc3d *p,
                                   const mcd_solver_opts *o, double *r, double *u,
                                   mcd_solver_stats *stats)
{
    if (k == MCD_SOLVER_MNCP_NSN) {
        stats->stages = 1;
        mcd_status st = solve_fc3d_nsn(ws, p, o, r, u, stats);
        stats->error = mcd_fc3d_error(p, r, u);
        st = honest(st, stats, o);
        if (st != MCD_ERR_NOT_CONVERGED) return st;
        return polish_stage(ws, p, o, r, u, stats);
    }
    mcd_status st = solve_fc3d_lm(ws, k, p, o, r, u, stats);
    stats->stages = 1;
    stats->error = mcd_fc3d_error(p, r, u); /* u = W r + q on return */
    st = honest(st, stats, o);
    if (st == MCD_OK || st == MCD_ERR_NONFINITE || o->fallback == MCD_FALLBACK_NONE || is_rlm(k))
        return st;
    int large = mcd_fc3d_size(p) >= CHAIN_LARGE_N;
    if (!large && polish_stage(ws, p, o, r, u, stats) == MCD_OK) return MCD_OK;
    if (large && proximal_fc3d(ws, p, o, r, u, stats) == MCD_OK) return MCD_OK;
    if (large && fixpoint_stage(ws, p, o, large_starts, LARGE_STARTS, r, u, stats) == MCD_OK)
        return MCD_OK;
    if (nsn_stage(ws, p, o, 1, r, u, stats) == MCD_OK) return MCD_OK;
    if (polish_stage(ws, p, o, r, u, stats) == MCD_OK) return MCD_OK;
    if (!large && fixpoint_stage(ws, p, o, small_starts, SMALL_STARTS, r, u, stats) == MCD_OK)
        return MCD_OK;
    if (nsn_stage(ws, p, o, 0, r, u, stats) == MCD_OK) return MCD_OK;
    if (proximal_fc3d(ws, p, o, r, u, stats) == MCD_OK) return MCD_OK;
    stats->error = mcd_fc3d_error(p, r, u);
    return polish_stage(ws, p, o, r, u, stats);
}

/* Message for the statuses an algorithm returns without one. */
static void describe_outcome(mcd_status st, mcd_solver_kind k, const mcd_solver_opts *o,
                             const mcd_solver_stats *s, mcd_error *err)
{
    if (st == MCD_ERR_NOT_CONVERGED)
        mcd_fail(err, st, "%s: not converged in %d iterations (psi %.3g, error %.3g, tol %.3g)",
                 solver_names[k], s->iterations, s->psi, s->error, o->tol);
    else if (st == MCD_ERR_INFEASIBLE)
        mcd_fail(err, st,
                 "%s: ray termination after %d pivots: no solution (if M is copositive-plus)",
                 solver_names[k], s->iterations);
    else if (st == MCD_ERR_NONFINITE)
        mcd_fail(err, st, "%s: the residual at the start point is not finite", solver_names[k]);
}

static double start(mcd_solver_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    return mcd_clock_seconds();
}

static mcd_status finish(mcd_status st, mcd_solver_stats *stats, double t0)
{
    stats->status = st;
    stats->seconds = mcd_clock_seconds() - t0;
    return st;
}

static mcd_status check_warm_start(mcd_solver_kind k, const mcd_solver_opts *o, int n,
                                   const double *x, mcd_error *err)
{
    if (o->warm_start && !mcd_dense_isfinite(n, x))
        return mcd_fail(err, MCD_ERR_NONFINITE, "%s: non-finite warm start", solver_names[k]);
    return MCD_OK;
}

/* Every check of an MLCP solve; fills o. */
static mcd_status prepare_mlcp(const mcd_solver_ws *ws, mcd_solver_kind k, const mcd_mlcp *p,
                               const mcd_solver_opts *opts, const double *z, mcd_solver_opts *o,
                               mcd_error *err)
{
    if (!p) return mcd_fail(err, MCD_ERR_ARG, "solver: NULL problem");
    mcd_status st = check_call(ws, k, 1, p->n, z, err);
    if (st == MCD_OK) st = mcd_mlcp_check(p, err);
    if (st == MCD_OK) st = resolve_opts(k, p->n, opts, o, err);
    if (st == MCD_OK) st = check_warm_start(k, o, p->n, z, err);
    return st;
}

static mcd_status prepare_fc3d(const mcd_solver_ws *ws, mcd_solver_kind k, const mcd_fc3d *p,
                               const mcd_solver_opts *opts, const double *r, const double *u,
                               mcd_solver_opts *o, mcd_error *err)
{
    if (!p || !u || u == r)
        return mcd_fail(err, MCD_ERR_ARG, "solver: NULL problem, or u missing or aliasing r");
    int n = mcd_fc3d_size(p);
    mcd_status st = check_call(ws, k, 0, n, r, err);
    if (st == MCD_OK) st = mcd_fc3d_check(p, err);
    if (st == MCD_OK) st = resolve_opts(k, n, opts, o, err);
    if (st == MCD_OK) st = check_warm_start(k, o, n, r, err);
    return st;
}

/* mcd_solve_mlcp and mcd_solve_mlcp_lemke_basis (basis NULL for the
 * first; needs_basis for the second, whose NULL basis is invalid input). */
static mcd_status solve_mlcp_checked(mcd_solver_ws *ws, mcd_solver_kind k, const mcd_mlcp *p,
                                     const mcd_solver_opts *opts, double *z, unsigned char *basis,
                                     int needs_basis, mcd_solver_stats *stats, mcd_error *err)
{
    mcd_solver_stats local;
    if (!stats) stats = &local;
    double t0 = start(stats);
    mcd_solver_opts o;
    mcd_status st = needs_basis && !basis
                        ? mcd_fail(err, MCD_ERR_ARG, "%s: basis is NULL", mcd_solver_name(k))
                        : prepare_mlcp(ws, k, p, opts, z, &o, err);
    if (st == MCD_OK && p->n > 0) {
        st = solve_mlcp_chain(ws, k, p, &o, z, basis, stats, err);
        describe_outcome(st, k, &o, stats, err);
    }
    return finish(st, stats, t0);
}

mcd_status mcd_solve_mlcp(mcd_solver_ws *ws, mcd_solver_kind k, const mcd_mlcp *p,
                          const mcd_solver_opts *opts, double *z, mcd_solver_stats *stats,
                          mcd_error *err)
{
    return solve_mlcp_checked(ws, k, p, opts, z, NULL, 0, stats, err);
}

mcd_status mcd_solve_mlcp_lemke_basis(mcd_solver_ws *ws, const mcd_mlcp *p,
                                      const mcd_solver_opts *opts, double *z, unsigned char *basis,
                                      mcd_solver_stats *stats, mcd_error *err)
{
    return solve_mlcp_checked(ws, MCD_SOLVER_MLCP_LEMKE, p, opts, z, basis, 1, stats, err);
}

mcd_status mcd_solve_fc3d(mcd_solver_ws *ws, mcd_solver_kind k, const mcd_fc3d *p,
                          const mcd_solver_opts *opts, double *r, double *u,
                          mcd_solver_stats *stats, mcd_error *err)
{
    mcd_solver_stats local;
    if (!stats) stats = &local;
    double t0 = start(stats);
    mcd_solver_opts o;
    mcd_status st = prepare_fc3d(ws, k, p, opts, r, u, &o, err);
    if (st == MCD_OK && mcd_fc3d_size(p) > 0) {
        st = k == MCD_SOLVER_MNCP_FIXPOINT
                 ? mcd_solve_fc3d_fixed_point(ws, p, &o, 1, r, u, stats, err)
                 : solve_fc3d_chain(ws, k, p, &o, r, u, stats);
        describe_outcome(st, k, &o, stats, err);
    }
    return finish(st, stats, t0);
}

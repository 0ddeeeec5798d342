/* Private: the fixed point of Acary, Cadoux, Lemarechal & Malick (2011),
 * "A formulation of the linear discrete Coulomb friction problem via
 * convex optimization" (ZAMM 91(2); Siconos' FC3D_ACLMFP), over the CCP's
 * ADMM: the solver `mncp-fixpoint` (solver.h; docs/solvers.md, "The
 * Cadoux fixed point").
 *
 * Coulomb's law (mcd_fc3d: u = W r + q, r_k in K_mu, De Saxce's
 * u^_k = u_k + mu_k |u_kT| e_n in K*, r_k . u^_k = 0) is not the
 * optimality system of an optimization problem: the term mu_k |u_kT|
 * depends on the solution. Fixing it as a parameter s_k >= 0 gives one,
 * the convex cone QP
 *     min 1/2 r^T W r + (q + E s)^T r   over r in K,
 * E s the vector with s_k on contact k's normal row and 0 elsewhere,
 * whose optimality conditions are r in K, u + E s in K*, r . (u + E s) = 0
 * with u = W r + q (bilateral rows free, u_i = 0). W r, hence u, is the
 * same at every minimizer even when W is singular (the objective is
 * strictly convex along range(W)), so
 *     F(s)_k = mu_k |u_kT(s)|
 * is a single-valued map, and at a fixed point s = F(s) the QP's
 * conditions are Coulomb's law: its solution r solves the problem exactly.
 *
 * The iteration, with a relaxation theta, adaptive or fixed:
 *     s_0 = mu |u_T(r_0)|,
 *     r_{j+1} = the QP's solution for s_j,
 *     s_{j+1} = (1 - theta_j) s_j + theta_j F(s_j).
 * theta starts at the caller's value (default 1); when adaptive, it is
 * halved (down to FP_THETA_MIN) when the change max_k |F(s)_k - s_k| is
 * not below every one of the last FP_THETA_WINDOW changes, and doubled (up
 * to the caller's value) when it is the least so far: the map need not be
 * a contraction, and near a stick-slip transition the plain iteration
 * cycles, but a transient rise must not stop an iteration that converges.
 * Fixed, theta = 1 is the plain iteration, which converges on the sphere
 * piles' steps where every halving of theta slows it (docs/solvers.md).
 * Each QP is solved by the ADMM engine of `ccp-admm` (ccp_admm.h) on the
 * problem (W, q + E s_j), warm-started: the factor, the dual iterate and
 * the penalty carry over from the previous QP, only q changes. A QP is
 * solved inexactly: until its CCP residual (ccp.h, velocity units) is at
 * most FP_INNER_FRACTION times the least change of s so far (the first:
 * FP_INNER_FIRST times the velocity scale max(|q|_inf, |s_0|_inf)), but
 * not below tol times that scale, and at most FP_INNER_MAX_ITER ADMM
 * iterations per QP.
 *
 * ADMM converges linearly, so the exact measure (mcd_fc3d_error, relative)
 * reaches 1e-10 only slowly on a singular W. When the change of s has
 * fallen below FP_FINISH_START times the velocity scale, and after each
 * further decrease by FP_FINISH_RATIO, a local finish is tried from the
 * current r: the active-set polish (fc3d_polish.h), which fixes the
 * contact modes the fixed point has identified and solves Coulomb's law
 * with them as a linear system, then mncp-nsn (nsn_alart_curnier.h,
 * FP_NSN_MAX_ITER iterations per rung) from the polished point.
 *
 * Stopping: success only when the error of the returned r is <= tol; the
 * best r (least error) over all iterates and finishes is returned. After
 * max_iter outer iterations a last local finish from the best r, its NSN
 * with FP_NSN_LAST_ITER iterations per rung (the chain's NSN budget:
 * singular A1 steps need thousands, docs/solvers.md "The A1 study"), then
 * MCD_ERR_NOT_CONVERGED if it too ends above tol. */
#ifndef MCDYN_SOLVER_FC3D_FIXED_POINT_H
#define MCDYN_SOLVER_FC3D_FIXED_POINT_H

#include "ccp_admm.h"
#include "fc3d_polish.h"
#include "nsn_alart_curnier.h"
#include "mcdyn/solver.h"
#include "workspace.h"

#define FP_INNER_MAX_ITER 2000 /* ADMM iterations per QP */
#define FP_INNER_FRACTION 0.1  /* a QP's residual target: this times the last change of s */
#define FP_INNER_FIRST    1e-4 /* the first QP's target, times the velocity scale */
#define FP_THETA_MIN      1e-3 /* least relaxation */
#define FP_THETA_WINDOW   10   /* theta halves when the change of s tops the last this many */
#define FP_FINISH_START   1e-4 /* first local finish when the change of s is this times the scale */
#define FP_FINISH_RATIO   1e-2 /* next local finish after the change of s fell by this factor */
#define FP_NSN_MAX_ITER   20   /* mncp-nsn iterations per rung in a local finish */
#define FP_NSN_LAST_ITER  1000 /* the same in the last finish, after the cap */
/* A run stops early, before its last finish, after this many QPs in a row
 * that end at FP_INNER_MAX_ITER: ADMM no longer reaches the targets, the
 * QPs' solutions are inexact and s no longer converges. On the poured
 * pile's step 206 (docs/solvers.md, "The piles' cost (session 13)") the
 * run from zero had every QP capped from its 34th outer iteration and its
 * best error stalled at 1.4e-8 from the 98th: 300 outer iterations, 37 s
 * of CPU for nothing. */
#define FP_CAPPED_STOP 5
/* A run also stops early when the largest change of s over a block of
 * FP_STALL_BLOCK outer iterations is within a factor FP_STALL_BAND of the
 * previous block's: s cycles or stagnates. A block whose changes rose or
 * fell by more goes on: a transient. On the poured pile's step 279
 * (session 11's capture) the run with theta = 1 cycled with period 4 at a
 * change of 1.1e-3-1.3e-3 of the scale from its 35th outer iteration to
 * its 300th (8 s of CPU); it now stops at the 90th. Late convergence is
 * kept: on step 183 the change rose twentyfold after the 22nd and the run
 * converged at the 109th; on step 172's group (tests/solver/data) the
 * largest change rose over four blocks, 1.2e-4 to 5.6e-4, and the run
 * converged at the 205th, which a rule "stop unless the largest change fell
 * by 10 %" stopped at the 90th. */
#define FP_STALL_BLOCK 30
#define FP_STALL_BAND  1.1
/* The ADMM's proximal weight eta / lambda_max(W) (ccp.h), which is also
 * rho's floor (rho in [eta, lambda_max]). 1e-8, not ccp-admm's 1e-6: on
 * the A1 drops' hard steps (W of rank 14-17 of 27-42) s converges in a few
 * outer iterations, but the QP's solution lies far (0.09 N s) along W's
 * null space from where ADMM first stops, on a direction where the QP's
 * objective falls by only ~3e-11 per unit, and ADMM, with rho at its floor
 * there, moves along it by about that slope / (rho + eta) per iteration.
 * With 1e-6 each QP ran its FP_INNER_MAX_ITER iterations and mncp-plm's
 * chain solved 59 of 62 such steps, most in a fixed-point run's last
 * finish after its 100 outer iterations; with 1e-8 it solves 62 of 62, 58
 * before the first run's cap, at a quarter of the CPU (docs/solvers.md,
 * "The A1 drops that stop or grind", session 9). N + (rho + eta) I then
 * has a condition number below 1 / (2e-8). */
#define FP_PROX 1e-8

typedef struct mcd_fixed_point_opts {
    double tol;        /* success: mcd_fc3d_error(r) <= tol, tol >= 0 */
    int max_iter;      /* > 0: outer iterations (updates of s) */
    double relaxation; /* theta in (0, 1]: the start and the most of an adaptive theta */
    int adaptive;      /* 1: theta adapts (halved, doubled); 0: theta = relaxation throughout */
} mcd_fixed_point_opts;

typedef struct mcd_fixed_point_ws {
    double *F;                 /* n x n: the ADMM's dense Cholesky factor */
    mcd_sparse_cholesky *chol; /* the ADMM's sparse factor (sparse_cholesky.h) */
    double *admm;              /* MCD_ADMM_VECTORS n: the ADMM's vectors */
    double *s;                 /* nc: the parameter s */
    double *q_s;               /* n: q + E s, the QP's linear term */
    double *r_best;            /* n: the iterate of least error */
    mcd_polish_ws polish;
    mcd_nsn_ws nsn;
} mcd_fixed_point_ws;

typedef struct mcd_fixed_point_result {
    int outer;     /* updates of s */
    int inner;     /* ADMM iterations, all QPs */
    int finishes;  /* local finishes tried */
    double change; /* max_k |mu_k |u_kT| - s_k| at the last outer iteration */
    double psi;    /* 1/2 sum_k (mu_k |u_kT| - s_k)^2 there */
    double error;  /* mcd_fc3d_error of the returned r */
} mcd_fixed_point_result;

/* Solves p from r (n = nb + 3 nc entries; 0 for a cold start), leaving the
 * best r in r and u = W r + q in u. Returns MCD_OK when res->error <= tol,
 * MCD_ERR_NOT_CONVERGED after max_iter outer iterations, MCD_ERR_NONFINITE
 * if an iterate became non-finite, MCD_ERR_SINGULAR if W + (rho + eta) I
 * has no Cholesky factor (W not positive semidefinite); r is then the best
 * point so far. The options are not checked here (mcd_solve_fc3d does it);
 * p must be valid (mcd_fc3d_check) with n > 0. No allocation. */
mcd_status mcd_fc3d_fixed_point_solve(const mcd_fc3d *p, const mcd_fixed_point_opts *o,
                                      const mcd_fixed_point_ws *w, double *r, double *u,
                                      mcd_fixed_point_result *res);

/* mncp-fixpoint as a method of mcd_solve_fc3d (solver.c; adaptive 1) and
 * as a stage of mncp-plm's chain (adaptive 0 or 1): checks o->relaxation
 * (0 selects 1; outside (0, 1]: MCD_ERR_ARG, r untouched), lends the
 * workspace (ws->mat1-mat4, vector slots 0-5 and 8-13, int slots 1-2) and
 * fills stats (iterations: outer iterations; psi: res.psi; error). */
mcd_status mcd_solve_fc3d_fixed_point(const mcd_solver_ws *ws, const mcd_fc3d *p,
                                      const mcd_solver_opts *o, int adaptive, double *r, double *u,
                                      mcd_solver_stats *stats, mcd_error *err);

#endif

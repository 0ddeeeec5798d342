/* mcdyn — complementarity solvers (Mylapilli & Jain 2017, Sec. 2.1-2.2,
 * 3.3, 4.3, 5; docs/solvers.md).
 *
 * Named combinations, selectable everywhere by name:
 *   mlcp-pfb-rlm   MLCP, penalized Fischer-Burmeister, regular LM (Sec. 5.1)
 *   mlcp-pfb-plm   MLCP, penalized Fischer-Burmeister, projected LM (Sec. 5.2)
 *   mlcp-lemke     MLCP by Lemke's pivoting (equality rows eliminated by a
 *                  Schur complement)
 *   mncp-rlm       exact Coulomb cone, Todorov's parameterisation (Eq. 49-58), RLM
 *   mncp-plm       same, PLM
 *   mncp-nsn       exact Coulomb cone, semismooth Newton on the Alart-Curnier
 *                  function with a proximal regularisation and a line search
 *                  (Alart & Curnier 1991; Siconos' NSN-AC; docs/solvers.md)
 *   mncp-fixpoint  exact Coulomb cone, the fixed point on s = mu |u_T| of
 *                  convex cone QPs with q + s e_n (Acary, Cadoux, Lemarechal
 *                  & Malick 2011), each solved by ccp-admm's ADMM
 *                  warm-started, then the active-set polish (docs/solvers.md,
 *                  "The Cadoux fixed point"); max_iter counts outer
 *                  iterations (updates of s)
 * An MLCP solver applied to a frictional-contact problem, or an MNCP solver
 * applied to an MLCP, returns MCD_ERR_UNSUPPORTED.
 *
 * Row kinds (problem.h): the PFB solvers accept every kind (free, lower-,
 * upper-bounded and box rows). mlcp-lemke accepts free, lower- and
 * upper-bounded rows and returns MCD_ERR_UNSUPPORTED for box rows (both
 * bounds finite).
 *
 * A workspace is sized once for a largest problem and reused; solving never
 * allocates. One workspace per thread.
 */
#ifndef MCDYN_SOLVER_H
#define MCDYN_SOLVER_H

#include "mcdyn/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mcd_solver_kind {
    MCD_SOLVER_MLCP_PFB_RLM = 0,
    MCD_SOLVER_MLCP_PFB_PLM,
    MCD_SOLVER_MLCP_LEMKE,
    MCD_SOLVER_MNCP_RLM,
    MCD_SOLVER_MNCP_PLM,
    MCD_SOLVER_MNCP_NSN,
    MCD_SOLVER_MNCP_FIXPOINT,
    MCD_SOLVER_KIND_COUNT
} mcd_solver_kind;

/* "mlcp-pfb-rlm", ...; NULL for a value outside the enum. */
const char *mcd_solver_name(mcd_solver_kind k);
/* MCD_ERR_ARG with the list of valid names in err if name is unknown. */
mcd_status mcd_solver_from_name(const char *name, mcd_solver_kind *k, mcd_error *err);
/* 1 for the MLCP solvers, 0 for the MNCP solvers (and unknown values). */
int mcd_solver_is_mlcp(mcd_solver_kind k);

/* What a solve does when its method does not converge (docs/solvers.md,
 * "Robustness"): the method's fallback chain, or nothing. The chains:
 *   mncp-plm      PLM -> polish -> NSN (mncp-nsn) -> polish -> mncp-fixpoint
 *                 from the best point, from zero, from the best point ->
 *                 NSN from zero -> proximal NSN -> polish; on problems of 150
 *                 or more unknowns the proximal stage and then the fixed-point
 *                 stage come right after PLM instead (the fixed point from
 *                 zero with theta = 1 fixed, then from the best point), the
 *                 proximal stage runs again at the end, and no polish runs
 *                 (its dense least squares cost 4.3 s on FCLIB's Capsules
 *                 and solved none of the piles' captured groups); a fixed-
 *                 point run stops early when its QPs stay at ADMM's cap or
 *                 the change of s stagnates
 *   mlcp-pfb-plm  PFB-PLM -> proximal PFB-PLM -> Lemke (no box rows)
 *   mlcp-lemke    Lemke -> proximal PFB-PLM
 *   mncp-rlm, mlcp-pfb-rlm: none (the paper's algorithm, kept as it is).
 *   mncp-nsn      NSN -> polish
 *   mncp-fixpoint none: the fixed point polishes its own iterates
 * The polish (docs/solvers.md, "Active-set polish") fixes each contact's
 * mode (separated, sliding, sticking) at the best point so far and solves
 * the linear system of those modes in the least-squares sense, changing
 * one contact's mode at a time (at most 8), for the stalls a little above
 * tol on redundant contact sets; its changes count as iterations. It is
 * dense (O(n^3)) and leaves problems of 150 or more unknowns as they are.
 * The proximal stage solves a sequence of problems with M + rho I and
 * q - rho z_k anchored at the previous iterate z_k, whose fixed point is a
 * solution of the original problem (MLCPs: PFB-PLM inside, at most 30 outer
 * iterations and 3 max_iter inner iterations in all; frictional problems:
 * mncp-nsn inside with Siconos' rule for rho, at most 200 outer and 5000
 * inner iterations, docs/solvers.md); the NSN stages are mncp-nsn with
 * its default options and the caller's tol, the first warm-started at the
 * best point so far, the second from zero; every other stage starts from
 * the best point of the previous one, and the point of least error is
 * returned.
 * The chain does not run after a Lemke ray (MCD_ERR_INFEASIBLE). */
typedef enum mcd_solver_fallback {
    MCD_FALLBACK_CHAIN = 0, /* the method's chain (default) */
    MCD_FALLBACK_NONE       /* the method alone */
} mcd_solver_fallback;

typedef struct mcd_solver_opts {
    double tol;        /* success: the error measure <= tol (default 1e-10) */
    double psi_tol;    /* also stop when psi = |Phi|^2 / 2 <= psi_tol (default 1e-30,
                          Sec. 5.1); a success only if the error is <= tol as well */
    int max_iter;      /* default 100; <= 0 selects the default (Lemke: max pivots, default 50 n) */
    double pfb_lambda; /* PFB parameter in (0, 1], default 0.95; 1 is plain (negated) FB */
    double lm_lambda0; /* initial LM parameter (RLM 1e-3, PLM 1e-16 when 0) */
    int warm_start;    /* 1: start from the z / r passed in */
    mcd_solver_fallback fallback; /* default MCD_FALLBACK_CHAIN */
    double relaxation;            /* mncp-fixpoint: theta of s <- (1 - theta) s + theta mu |u_T|, in
                                     (0, 1]; 0 selects 1 (else MCD_ERR_ARG) */
} mcd_solver_opts;

/* Paper defaults for the given solver. Lemke uses only tol (its result is
 * reported MCD_ERR_NOT_CONVERGED if its error exceeds tol) and max_iter. */
mcd_solver_opts mcd_solver_default_opts(mcd_solver_kind k);

typedef struct mcd_solver_stats {
    mcd_status status; /* MCD_OK, MCD_ERR_NOT_CONVERGED, MCD_ERR_INFEASIBLE, ... */
    int iterations;    /* LM iterations (RLM: every trial step, accepted or not) or Lemke
                          pivots, summed over the stages of the fallback chain */
    double psi;        /* final merit 1/2 |Phi|^2 of the method's own stage (0 for Lemke) */
    double error;      /* error measure (mcd_mlcp_error / mcd_fc3d_error) of the z or r
                          returned, recomputed from it after every solve, failed or not
                          (0 after invalid input, where nothing is returned) */
    double seconds;    /* wall time of the solve */
    int stages;        /* stages of the fallback chain run: 1 the method alone, 2 and 3
                          the next ones (0 after invalid input or for n = 0) */
} mcd_solver_stats;

typedef struct mcd_solver_ws mcd_solver_ws;

/* Workspace for problems of up to n unknowns (n = nb + 3 nc for contact).
 * The only allocation of the solver layer: O(n^2) doubles. */
mcd_status mcd_solver_ws_create(int n, mcd_solver_ws **out, mcd_error *err);
void mcd_solver_ws_free(mcd_solver_ws *ws);
/* Largest problem size the workspace accepts. */
int mcd_solver_ws_capacity(const mcd_solver_ws *ws);

/* Every solve reports MCD_OK only if stats.error <= opts.tol.
 *
 * Solves an MLCP: z (n) receives the solution (and is the start point of
 * the PFB solvers when opts->warm_start; otherwise they start from 0
 * clamped into [lo, hi]; Lemke starts from the basis {w}, or with
 * opts->warm_start from the complementary basis z names, its positive
 * entries basic, falling back to {w}: src/solver/lemke.h). opts
 * may be NULL (defaults of k). stats may be NULL. Non-convergence is
 * reported as a status (MCD_ERR_NOT_CONVERGED, MCD_ERR_INFEASIBLE for a
 * Lemke ray), with the best iterate (LM: least psi; Lemke: the last
 * almost-complementary point) left in z. Invalid input (MCD_ERR_ARG,
 * MCD_ERR_NONFINITE, MCD_ERR_CAPACITY, MCD_ERR_UNSUPPORTED) leaves z
 * untouched. MCD_ERR_SINGULAR: Lemke's free-row block is singular (z is
 * then mid(lo, 0, hi)). */
mcd_status mcd_solve_mlcp(mcd_solver_ws *ws, mcd_solver_kind k, const mcd_mlcp *p,
                          const mcd_solver_opts *opts, double *z, mcd_solver_stats *stats,
                          mcd_error *err);

/* mcd_solve_mlcp by mlcp-lemke (and its fallback chain) with the
 * complementary basis in and out: for a caller that solves a sequence of
 * nearby problems (the simulator's warm start, src/sim/sim_warm.c), where
 * the previous solution's basis is a better guess than z's positive
 * entries: a degenerate basic variable (at its bound) is part of it, and
 * a statically indeterminate contact set's basis is nonsingular where the
 * set of positive impulses need not be. basis (p->n bytes, not NULL):
 * on entry, read only with opts->warm_start, a first guess, nonzero
 * where z_i is basic (Lemke's zeta_i, z_i's distance to its bound) and 0
 * where its slack w_i is (free rows' entries are ignored): if its basis
 * solves the problem as it stands, that is the solution (0 pivots); else
 * Lemke goes on from z's positive entries as mcd_solve_mlcp does, and
 * where their warm path fails, a warm path from this basis runs before
 * the cold path (lemke.h, basis_start); on return, the basis of Lemke's
 * last path (the
 * solution's on MCD_OK), 1 where z_i is basic, or, where a later stage of
 * the chain ran, 1 where z_i is off its bound. Invalid input
 * (MCD_ERR_ARG, also for a NULL basis) leaves z and basis untouched.
 * Statuses as for mcd_solve_mlcp. */
mcd_status mcd_solve_mlcp_lemke_basis(mcd_solver_ws *ws, const mcd_mlcp *p,
                                      const mcd_solver_opts *opts, double *z, unsigned char *basis,
                                      mcd_solver_stats *stats, mcd_error *err);

/* Solves a frictional contact problem with an MNCP solver: r and u
 * (nb + 3 nc each, distinct) receive the solution and u = W r + q. With
 * opts->warm_start the start is r (u is not read): Todorov's variable is
 * set to (W r + q) - r on the contact rows (r in the solver's impulse
 * units, docs/solvers.md), which reproduces r exactly when r is a
 * solution; otherwise the start is 0. Statuses as for mcd_solve_mlcp. */
mcd_status mcd_solve_fc3d(mcd_solver_ws *ws, mcd_solver_kind k, const mcd_fc3d *p,
                          const mcd_solver_opts *opts, double *r, double *u,
                          mcd_solver_stats *stats, mcd_error *err);

/* Error measures (docs/solvers.md, "Error measures").
 * MLCP: the natural-map residual | z - mid(lo, z - w, hi) | / (1 + |q|),
 *       w = M z + q written to w_scratch (n).
 * fc3d: Siconos 4.4's fc3d_compute_error(problem, r, w, tol, options,
 *       norm = |q|, &error): with u = W r + q,
 *           e = sqrt(sum_k | r_k - P_K(r_k - (u_k + mu_k |u_kT| e_n)) |^2),
 *           error = e / max(|r|, |u|, |q|)  if that max > DBL_EPSILON, else e,
 *       P_K the projection on the cone K_mu. Bilateral rows add u_i^2 under
 *       the root and enter the three norms. u may be NULL: it is then
 *       computed as W r + q (as Siconos does); if given it must be W r + q. */
double mcd_mlcp_error(const mcd_mlcp *p, const double *z, double *w_scratch);
double mcd_fc3d_error(const mcd_fc3d *p, const double *r, const double *u);

#ifdef __cplusplus
}
#endif
#endif

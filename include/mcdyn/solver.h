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
 * An MLCP solver applied to a frictional-contact problem, or an MNCP solver
 * applied to an MLCP, returns MCD_ERR_UNSUPPORTED.
 *
 * A workspace is sized once for a largest problem and reused; solving never
 * allocates.
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
    MCD_SOLVER_KIND_COUNT
} mcd_solver_kind;

/* "mlcp-pfb-rlm", ... */
const char *mcd_solver_name(mcd_solver_kind k);
/* MCD_ERR_ARG with the list of valid names in err if name is unknown. */
mcd_status mcd_solver_from_name(const char *name, mcd_solver_kind *k, mcd_error *err);
/* 1 for the MLCP solvers, 0 for the MNCP solvers. */
int mcd_solver_is_mlcp(mcd_solver_kind k);

typedef struct mcd_solver_opts {
    double tol;          /* stop when the error measure <= tol (default 1e-10) */
    double psi_tol;      /* stop when psi = |Phi|^2 / 2 <= psi_tol (default 1e-30, Sec. 5.1) */
    int max_iter;        /* default 100 (Lemke: max pivots, default 50 n) */
    double pfb_lambda;   /* PFB parameter in (0, 1], default 0.95 */
    double lm_lambda0;   /* initial LM parameter (RLM 1e-3, PLM 1e-16 when 0) */
    int warm_start;      /* 1: start from the z / r passed in */
} mcd_solver_opts;

/* Paper defaults for the given solver. */
mcd_solver_opts mcd_solver_default_opts(mcd_solver_kind k);

typedef struct mcd_solver_stats {
    mcd_status status;   /* MCD_OK, MCD_ERR_NOT_CONVERGED, MCD_ERR_INFEASIBLE, ... */
    int iterations;      /* LM iterations or Lemke pivots */
    double psi;          /* final merit 1/2 |Phi|^2 (0 for Lemke) */
    double error;        /* physical complementarity error (see docs/solvers.md) */
    double seconds;      /* wall time of the solve */
} mcd_solver_stats;

typedef struct mcd_solver_ws mcd_solver_ws;

/* Workspace for problems of up to n unknowns (n = nb + 3 nc for contact). */
mcd_status mcd_solver_ws_create(int n, mcd_solver_ws **out, mcd_error *err);
void mcd_solver_ws_free(mcd_solver_ws *ws);

/* Solves an MLCP: z (n) receives the solution (and is the start point when
 * opts->warm_start). stats may be NULL. Non-convergence is reported as a
 * status, with the best iterate left in z. */
mcd_status mcd_solve_mlcp(mcd_solver_ws *ws, mcd_solver_kind k, const mcd_mlcp *p,
                          const mcd_solver_opts *opts, double *z, mcd_solver_stats *stats,
                          mcd_error *err);

/* Solves a frictional contact problem with an MNCP solver: r and u
 * (nb + 3 nc each) receive the solution and u = W r + q. */
mcd_status mcd_solve_fc3d(mcd_solver_ws *ws, mcd_solver_kind k, const mcd_fc3d *p,
                          const mcd_solver_opts *opts, double *r, double *u,
                          mcd_solver_stats *stats, mcd_error *err);

/* Error measures.
 * MLCP: the natural-map residual | z - mid(lo, z - w, hi) | / (1 + |q|).
 * fc3d: Siconos' fc3d_compute_error: | r - P_K(r - (u + mu |u_T| e_n)) |
 *       over the contacts (bilateral rows contribute |u_i|), / (1 + |q|). */
double mcd_mlcp_error(const mcd_mlcp *p, const double *z, double *w_scratch);
double mcd_fc3d_error(const mcd_fc3d *p, const double *r, const double *u);

#ifdef __cplusplus
}
#endif
#endif

/* mcdyn — cone complementarity problem (CCP) solvers: projected
 * Gauss-Seidel / Jacobi (Tasora & Anitescu) and APGD (Nesterov-accelerated
 * projected gradient descent, Mazhar, Heyn, Negrut & Tasora 2015).
 *
 * The problem data are those of a 3D frictional contact problem (problem.h,
 * mcd_fc3d): N = W (symmetric positive semidefinite), r = q, mu per contact,
 * rows [0, nb) bilateral, then per contact k rows nb + 3k + (normal, t1, t2).
 * The CCP is: find gamma with
 *     gamma_k in K_k = {g_n >= 0, |g_T| <= mu_k g_n}      (bilateral: free),
 *     d = N gamma + r,  d_k in K_k^* = {d_n >= mu_k |d_T|}  (bilateral: d_i = 0),
 *     gamma_k . d_k = 0,
 * the optimality condition of min 1/2 gamma^T N gamma + r^T gamma over the
 * product of cones (K^* is the dual cone, i.e. minus the polar cone of K).
 * This is the relaxed (Anitescu-Tasora) model, not exact Coulomb friction:
 * the normal component of d_k on a sliding contact is mu |d_T| instead of 0.
 *
 * Stopping rule (mcd_ccp_residual): with d = N gamma + r,
 *   violation_primal = max_k dist(gamma_k, K_k),
 *   violation_dual   = max( max_bilateral |d_i|, max_k dist(d_k, K_k^*) ),
 *                      where dist(d_k, K_k^*) = |Pi_{K_k}(-d_k)| (Moreau),
 *   complementarity  = max_k |gamma_k - Pi_{K_k}(gamma_k - eta_k d_k)| / eta_k,
 *                      eta_k = 3 / trace(N_kk) (the natural map of the contact,
 *                      in the units of d: |d_k| on a sticking contact, the
 *                      velocity N_kk gamma_k on a separating one, 0 exactly at a
 *                      solution; a block with trace(N_kk) <= 0 measures
 *                      |gamma_k . d_k| / |gamma_k|),
 *   residual         = max of the three (violation_primal is in the units of
 *                      gamma and 0 for the projected iterates of the solvers),
 * and a solver stops as soon as residual <= opts.tol. All norms Euclidean.
 *
 * The solvers never allocate and never print: the caller passes
 * mcd_ccp_work_size(p) doubles of work. gamma is the initial guess on entry
 * (any values, e.g. zeros or a warm start) and the best iterate (smallest
 * residual) on return.
 */
#ifndef MCDYN_CCP_H
#define MCDYN_CCP_H

#include "mcdyn/problem.h"
#include "mcdyn/status.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Solver options; see mcd_ccp_default_opts for the defaults. */
typedef struct mcd_ccp_opts {
    int max_iter;  /* > 0: sweeps (PGS/PJ) or iterations (APGD) */
    double tol;    /* > 0: stop when the residual (above) is <= tol */
    double omega;  /* PGS/PJ over-relaxation, in (0, 2) */
    double lambda; /* PGS/PJ step scaling, in (0, 1]: gamma <- lambda Pi(.) + (1-lambda) gamma */
    int jacobi;    /* PGS/PJ: 0 Gauss-Seidel (sequential), 1 Jacobi (simultaneous) */
    double prox;   /* ADMM proximal weight eta / lambda_max(N), in (0, 1) */
} mcd_ccp_opts;

/* max_iter 10000, tol 1e-10, omega 0.6, lambda 1.0, jacobi 0, prox 1e-6. omega = 0.6
 * < 2/3 makes Gauss-Seidel monotone for any N (see mcd_ccp_solve_pgs); with
 * omega = 1 it diverges on some of the Siconos Rover problems. */
mcd_ccp_opts mcd_ccp_default_opts(void);

/* Result of a solve. violation_* and complementarity are the components of
 * residual (see the stopping rule above) at the returned gamma. */
typedef struct mcd_ccp_stats {
    mcd_status status; /* the returned status */
    int iterations;    /* sweeps (PGS/PJ) or iterations (APGD) performed */
    double residual;
    double violation_primal, violation_dual, complementarity;
    double seconds; /* wall time of the solve */
} mcd_ccp_stats;

/* Projects x = (n, t1, t2) onto K_mu = {x_n >= 0, |x_T| <= mu x_n} in place:
 * unchanged if |x_T| <= mu x_n, zero if mu |x_T| <= -x_n, else
 * x_n' = (x_n + mu |x_T|) / (1 + mu^2), x_T' = mu x_n' x_T / |x_T|.
 * MCD_ERR_ARG for x NULL or mu < 0 or NaN, MCD_ERR_NONFINITE for a
 * non-finite mu or x (x is then left unchanged). */
mcd_status mcd_ccp_project(double mu, double x[3]);

/* Evaluates the stopping rule at gamma: fills st->residual,
 * st->violation_primal, st->violation_dual and st->complementarity (other
 * fields untouched). d_scratch (mcd_fc3d_size(p) doubles) receives
 * d = N gamma + r. The problem is not validated (use mcd_fc3d_check);
 * MCD_ERR_ARG for NULL pointers. */
mcd_status mcd_ccp_residual(const mcd_fc3d *p, const double *gamma, double *d_scratch,
                            mcd_ccp_stats *st);

/* Doubles of work both solvers need: 6 (nb + 3 nc) (PGS/PJ uses the first
 * 2 (nb + 3 nc)). 0 for NULL or a problem with negative sizes. */
size_t mcd_ccp_work_size(const mcd_fc3d *p);

/* Projected Gauss-Seidel (jacobi = 0) or projected Jacobi (jacobi = 1) with
 * block-diagonal scaling eta_k = 3 / trace(N_kk): per contact
 *     gamma_k <- lambda Pi_K(gamma_k - omega eta_k (N gamma + r)_k) + (1 - lambda) gamma_k,
 * per bilateral row (free variable, relaxed Gauss-Seidel / Jacobi)
 *     gamma_i <- gamma_i - lambda omega (N gamma + r)_i / N_ii.
 * A block with trace(N_kk) = 0 (or N_ii = 0) is left unchanged. For
 * Gauss-Seidel the objective decreases monotonically if
 * omega eta_k lambda_max(N_kk) < 2 for every block (always true for
 * omega < 2/3); Jacobi needs omega small enough for the coupling
 * (omega eta lambda_max(N) < 2 suffices). The residual is evaluated after
 * every sweep.
 * Returns MCD_OK, MCD_ERR_NOT_CONVERGED (max_iter reached, or an iterate
 * became non-finite, i.e. diverged; gamma = best iterate, stats filled),
 * MCD_ERR_ARG (NULL pointers, bad sizes, mu < 0, bad options),
 * MCD_ERR_NONFINITE (NaN/Inf in W, q, mu or the initial gamma; gamma is
 * then unchanged). err (may be NULL) gets a message;
 * st (may be NULL) gets the statistics. work: mcd_ccp_work_size(p) doubles. */
mcd_status mcd_ccp_solve_pgs(const mcd_fc3d *p, const mcd_ccp_opts *o, double *gamma, double *work,
                             mcd_ccp_stats *st, mcd_error *err);

/* APGD (Mazhar et al. 2015): Nesterov-accelerated projected gradient on
 * f(gamma) = 1/2 gamma^T N gamma + r^T gamma over the cones. Starting from
 * L_0 = |N e| / |e| (e = ones; 1 if that is 0), theta_0 = 1, y_0 = gamma_0:
 *     g = N y + r;  gamma+ = Pi(y - g / L), doubling L until
 *         (gamma+ - y)^T N (gamma+ - y) <= L |gamma+ - y|^2   (backtracking),
 *     theta+ = theta (sqrt(theta^2 + 4) - theta) / 2,
 *     beta = theta (1 - theta) / (theta^2 + theta+),
 *     y+ = gamma+ + beta (gamma+ - gamma),
 *     restart (y+ = gamma+, theta+ = 1) if (y - gamma+)^T (gamma+ - gamma) > 0,
 *     L <- 0.9 L for the next iteration.
 * The initial guess is first projected onto the cones. The best iterate
 * by residual is kept. omega, lambda and jacobi are
 * ignored. Statuses as for mcd_ccp_solve_pgs. */
mcd_status mcd_ccp_solve_apgd(const mcd_fc3d *p, const mcd_ccp_opts *o, double *gamma, double *work,
                              mcd_ccp_stats *st, mcd_error *err);

/* Doubles of work mcd_ccp_solve_admm needs: n^2 + 9 n, n = nb + 3 nc.
 * 0 for NULL, negative sizes or a size that does not fit in size_t. */
size_t mcd_ccp_admm_work_size(const mcd_fc3d *p);

/* ADMM on the cone QP min 1/2 gamma^T N gamma + r^T gamma, gamma in K
 * (splitting gamma = z, z in K; as Carpentier et al. 2024's ADMM contact
 * solver without the De Saxce correction, since the CCP is convex), with
 * a proximal term eta |x - x_prev|^2 / 2, eta = prox lambda_max(N):
 *     x+ = (N + (rho + eta) I)^-1 (eta x + rho z - y - r),
 *     z+ = Pi_K(x+ + y / rho),
 *     y+ = y + rho (x+ - z+)                (y -> -d at the solution).
 * rho follows the spectral rule rho = sqrt(L m) (L / m)^p, L = lambda_max(N)
 * (power iteration), m = eta, p = 0.2 at the start, p +/- 0.05 (and a new
 * Cholesky factor, LAPACK dpotrf) when the primal residual |x+ - z+| and
 * the dual residual |eta (x+ - x) + rho (z+ - z)| differ by more than 10x.
 * The stopping rule is the CCP's (above), evaluated at z (in K) every
 * iteration; the best z by residual is returned. The start is gamma
 * projected on K, y = 0. omega, lambda and jacobi are ignored; prox must be
 * in (0, 1) (MCD_ERR_ARG otherwise). work: mcd_ccp_admm_work_size(p)
 * doubles. Statuses as for mcd_ccp_solve_pgs, and MCD_ERR_SINGULAR if
 * N + (rho + eta) I is not positive definite (N not positive
 * semidefinite beyond eta). */
mcd_status mcd_ccp_solve_admm(const mcd_fc3d *p, const mcd_ccp_opts *o, double *gamma, double *work,
                              mcd_ccp_stats *st, mcd_error *err);

/* Doubles of work mcd_ccp_solve_ipm needs: n^2 + 17 n, n = nb + 3 nc.
 * 0 for NULL, negative sizes or a size that does not fit in size_t. */
size_t mcd_ccp_ipm_work_size(const mcd_fc3d *p);

/* Primal-dual interior-point method (Nesterov-Todd scaling, Mehrotra's
 * predictor-corrector; Vandenberghe 2010 "The CVXOPT linear and quadratic
 * cone program solvers", Domahidi et al. 2013 "ECOS"). With
 * S = diag(I_nb, (1, mu_k, mu_k) per contact), gamma = S v maps the
 * standard second-order cone L = {v_0 >= |(v_1, v_2)|} onto K_k (also for
 * mu_k = 0), and the CCP is the monotone cone complementarity problem
 *     s = S N S v + S r,  v_k in L,  s_k in L,  v_k o s_k = 0,  s_b = 0
 * (Jordan product a o b = (a . b, a_0 b_T + b_0 a_T); s = S d). Each
 * contact keeps a scaling A_k with A_k^-1 v_k = A_k^T s_k = lambda_k
 * (the Nesterov-Todd W_k at the start, then updated in the scaled space:
 * A_k <- A_k Wt_k with Wt_k the Nesterov-Todd scaling of the stepped
 * lambda_k's, which keeps it exact near the cone's boundary). Per
 * iteration, with rd = s - S N S v - S r and mu = sum_k lambda_k . lambda_k / nc:
 *     (S N S + H) dv = rd + [0; A^-T (lambda \ rc)],  H = blockdiag(0_nb, A_k^-T A_k^-1),
 *     A^T ds = lambda \ rc - A^-1 dv,
 * one Cholesky factor of S N S + H (LAPACK dpotrf, of the matrix with
 * its diagonal times 1 + delta plus delta max diag(S N S), delta = 1e-14
 * grown 100x while the factorization fails, up to 6 tries, and up to 3
 * steps of iterative refinement against the unshifted matrix) for
 * two right-hand sides: the predictor rc = -lambda o lambda, its step to
 * the boundary alpha_a and the gap mu_a after it,
 * sigma = max(0.1, (mu_a / mu)^3), then the corrector
 * rc = -lambda o lambda + sigma mu e - (A^-1 dv_a) o (A^T ds_a),
 * e = (1, 0, 0); the step is min(1, 0.99 alpha_max) on both v and s. The
 * floor 0.1 on sigma keeps the iterates centred, without which the
 * residual of sliding contacts fell only as sqrt(mu). The start ignores
 * the values in gamma (interior-point methods do not warm-start):
 * v = -(S N S + tau I)^-1 S r, tau the mean diagonal of S N S, s = -v on
 * the cones, each shifted into int L along e. The stopping rule is the
 * CCP's (above), at gamma = S v projected on K (a rounding-level change),
 * after every iteration; the best gamma by residual is returned. Options:
 * max_iter (iterations; the step method uses 100), tol; omega, lambda,
 * jacobi and prox are ignored. work: mcd_ccp_ipm_work_size(p) doubles.
 * Returns MCD_OK (residual <= tol), MCD_ERR_NOT_CONVERGED (max_iter
 * reached, 3 consecutive steps alpha < 1e-10, S N S + H not factorable at
 * any shift, or a non-finite iterate; gamma = best iterate, stats filled),
 * MCD_ERR_ARG and MCD_ERR_NONFINITE as mcd_ccp_solve_pgs. */
mcd_status mcd_ccp_solve_ipm(const mcd_fc3d *p, const mcd_ccp_opts *o, double *gamma, double *work,
                             mcd_ccp_stats *st, mcd_error *err);

#ifdef __cplusplus
}
#endif
#endif

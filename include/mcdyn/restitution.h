/* mcdyn — Stronge's energetic restitution for a simultaneous multi-point
 * frictional impact (docs/theory/impacts.md).
 *
 * Stronge's energetic coefficient of restitution (Stronge 1990, "Rigid body
 * collisions with friction"; Stronge 2000, "Impact Mechanics", Ch. 4-5)
 * applied globally to all contacts of one impact, as proposed by Chatterjee
 * & Bowling (2019), integrated in the impulse domain. Conventions are those
 * of the library's frictional contact problems (problem.h): nc contacts,
 * rows (n, t, o) per contact, normal first; W (3 nc x 3 nc, row-major,
 * symmetric positive semi-definite) maps impulses to velocity changes, so
 * that the relative contact velocity after the impulse P is nu = nu- + W P.
 *
 * The law (docs/theory/impacts.md derives and discusses it):
 *  1. Normal impulse distribution. rho = P* / sum(P*), where P* is the
 *     normal impulse of the frictionless perfectly plastic impact, the
 *     solution of the LCP  W_nn P* + nu_n- >= 0 _|_ P* >= 0. In the
 *     frictionless case every loaded contact then ends its compression at
 *     the same instant (nu_n,k(p) = (1 - p / sum P*) nu_n,k-).
 *  2. Impulse-domain integration with the scalar p (the total normal
 *     impulse) as the independent variable: dP_n,k = rho_k dp; per contact,
 *     slip  dP_t,k = -mu_k rho_k s_k dp with s_k = nu_t,k / |nu_t,k|, stick
 *     (nu_t,k = 0 held, the tangential impulse rates of all sticking
 *     contacts from one linear solve) while the cone |dP_t,k| <= mu_k rho_k
 *     dp holds, slip restarting in the direction s_k that its own
 *     tangential velocity rate then takes (or, if it grows in none, stays
 *     stuck with the friction saturated). A slipping contact sticks when
 *     its slip speed reaches zero (the step is cut at that event, reached
 *     by an Euler step with the slip direction frozen) or falls below what
 *     its own friction removes in one step. The Bogacki-Shampine 3(2) pair
 *     with error control on nu.
 *  3. Phases by the global normal work W(p) = sum_k int rho_k nu_n,k dp:
 *     compression while dW/dp = sum_k rho_k nu_n,k < 0; its end is located
 *     by root finding. The compression work W_c (<= 0) is the least W
 *     reached (W at the end of compression, lowered if W decreases again
 *     during restitution). Restitution goes on until
 *         W(p) = (1 - e^2) W_c,   i.e.  W_r = W(p) - W_c = -e^2 W_c,
 *     with e^2 = sum_k e_k^2 W_c,k / sum_k W_c,k over the contacts' normal
 *     work W_c,k < 0 at the end of compression (e when every e_k = e).
 * Kinetic energy change dT = 1/2 P^T W P + P^T nu- = W(p_f) + W_f with the
 * friction work W_f <= 0, so dT = (1 - e^2) W_c + W_f <= 0: the law never
 * creates energy; e = 1, mu = 0 conserves it; one frictionless contact
 * gives Newton's nu_n+ = -e nu_n-.
 */
#ifndef MCDYN_RESTITUTION_H
#define MCDYN_RESTITUTION_H

#include "mcdyn/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mcd_stronge_opts {
    double tol;    /* local error per step, relative to max |nu-| (1e-9), > 0 */
    int max_steps; /* integration steps, accepted and rejected (100000), > 0 */
} mcd_stronge_opts;

mcd_stronge_opts mcd_stronge_default_opts(void);

typedef struct mcd_stronge_stats {
    int steps;               /* accepted integration steps */
    int rejected;            /* rejected (error too large) */
    double p;                /* total normal impulse sum_k P_n,k at the end */
    double work_compression; /* W_c <= 0: the least global normal work reached */
    double work_restitution; /* W_r = W(p_f) - W_c = -e^2 W_c */
    double work_friction;    /* dT - W(p_f) <= 0 */
    double energy_change;    /* dT = 1/2 P^T W P + P^T nu- <= 0 */
    double e;                /* the global coefficient used */
} mcd_stronge_stats;

/* Workspace for impacts of up to max_contacts contacts (allocates). */
typedef struct mcd_stronge_ws mcd_stronge_ws;
mcd_status mcd_stronge_ws_create(int max_contacts, mcd_stronge_ws **out, mcd_error *err);
void mcd_stronge_ws_free(mcd_stronge_ws *ws);

/* Impact impulse P (3 nc, (n, t, o) per contact) of nc contacts with
 * Delassus matrix W (3 nc x 3 nc row-major), pre-impact relative velocity
 * nu (3 nc), friction mu (nc, >= 0) and energetic coefficients e (nc, in
 * [0, 1]); o may be NULL (defaults), st may be NULL. P = 0 when no contact
 * approaches. Allocation-free. Errors (P is then zero, err gets a message):
 *   MCD_ERR_ARG        NULL pointers, nc outside [0, capacity], mu < 0, e
 *                      outside [0, 1], W not symmetric (relative 1e-9) or
 *                      with a negative diagonal, bad options;
 *   MCD_ERR_NONFINITE  NaN or Inf in W, nu, mu or e;
 *   MCD_ERR_NOT_CONVERGED  max_steps reached before restitution ended. */
mcd_status mcd_stronge_solve(mcd_stronge_ws *ws, int nc, const double *W, const double *nu,
                             const double *mu, const double *e, const mcd_stronge_opts *o,
                             double *P, mcd_stronge_stats *st, mcd_error *err);

#ifdef __cplusplus
}
#endif
#endif

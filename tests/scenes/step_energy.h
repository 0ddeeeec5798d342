/* The energy balance of one semi-implicit Euler step with contact, for the
 * contact-rich scene tests (test_scenes.c).
 *
 * A step (Mylapilli & Jain 2017, Eq. 25-26) from (q, qd) with applied
 * forces tau (the passive joint damping here, implicit as the simulator
 * applies it by default: tau = -b qd+, sim.h) and contact impulses p is
 *   qd+ = qd + h M^-1 (tau - C) + M^-1 G_u^T p,   q+ = q (+) h qd+,
 * with C = c + g the bias forces (c Coriolis and centrifugal, g = dV/dq
 * gravity) at (q, qd) and G_u the contact Jacobian at q. Expanding
 * T(q, qd+) - T(q, qd) = (qd+ - qd)^T M qd+ - 1/2 |qd+ - qd|_M^2 gives,
 * exactly,
 *   E+ - E = p^T nu+ - 1/2 |qd+ - qd|_M^2 + h tau^T qd+ + R_T + R_V,
 *   R_T = T(q+, qd+) - T(q, qd+) - h c^T qd+,
 *   R_V = V(q+) - V(q) - h g^T qd+,
 * nu+ = G_u qd+ the contact velocities after the step. R_T and R_V are the
 * integrator's own remainders (c and g taken at the start of the step):
 * second order in h for a smooth motion, and zero for a free body whose
 * inertia is isotropic about its link origin (a cube, a ball): T does not
 * depend on q and c^T qd+ = (w x I w) . w+ = 0. They are computed, not
 * bounded.
 *
 * The contact part is bounded by Coulomb's law and the targets: with the
 * normal-row target t_k = max(-e nu_n-, b_k) (contact.h; e = 0 here, so
 * t_k <= max(b_k, 0)), b_k = min(gain d_k / h, max_velocity) for a
 * penetration d_k = -gap > 0 and -gap / h <= 0 otherwise, an exact solution
 * has p_k . nu+_k = F_n t_k - mu F_n |nu+_t| <= F_n max(b_k, 0):
 *   W_corr = sum_k F_n,k max(b_k, 0) <= max_velocity sum_k F_n,k,
 * the work of the penetration correction, capped by its velocity cap.
 * A solution within the solver's tolerance: Siconos' error measure
 * (solver.h) is |eps| / M <= tol, eps = r - P_K(r - u^), u^ = u + mu |u_t| e_n,
 * M = max(|r|, |u|, |q|) over the problem's impulses r = p, velocities
 * u = nu+ - t and free velocities q = nu_free - t. The projection gives
 * u^ . s = eps . s for s = P_K(r - u^) = r - eps, so
 * r . u <= r . u^ = eps . (r - eps + u^) <= |eps| (|r| + |eps| + (1 + mu) |u|)
 * <= (3 + tol) tol M^2 for mu <= 1:
 *   W_tol = (3 + tol) tol M^2,
 * with M bounded by |p|, |nu+| + |b| and |nu_free| + |b| (|t_k| <= |b_k|
 * or the impact target, 0 here).
 * Rounding: E, R_T and R_V are differences of sums of nbody terms of size
 * up to E_scale = T + sum_i m_i g |z_i| (V is measured from the world
 * origin); each energy is good to some 10 nbody ulps, and the balance
 * combines six of them:
 *   W_round = 64 nbody DBL_EPSILON E_scale.
 * The position correction (split scheme, contact.h position_correction):
 * the velocity step has no penetration target (b_k = 0 for a penetration,
 * so W_corr = 0), and afterwards q+ = q' (+) delta, q' = q (+) h qd+, with
 * delta = h M^-1 G_n^T Delta and qd+ unchanged. The balance above holds for
 * the whole step with R_T taken to q+ (the kinetic energy's dependence on
 * q, qd+ held) and R_V = V(q+) - V(q) - g^T (h qd+ + delta), the second-
 * order remainder of both displacements, computed as before; what is left
 * of the correction is its first-order work g^T delta (g = dV/dq at q,
 * uniform gravity), and Cauchy-Schwarz in the metric M(q) gives
 *   g^T delta <= |g|_{M^-1} |delta|_M = W_pos,
 * |delta|_M^2 = h^2 Delta^T W_nn Delta = h^2 sum_k Delta_k s_k by
 * complementarity (s_k the separation speed the correction asks of row k):
 * the potential energy rises at most by lifting the weight through the
 * removed penetration (equality for one box resting on the ground: m g
 * gain d; Cauchy-Schwarz holds for any delta, the correction fixes its
 * size). R_V's part from delta vanishes for bodies
 * whose centre of mass is their link origin (the boxes, balls), V linear
 * in q there.
 * The check is E+ - E <= W_corr + W_pos + W_tol + W_round + h tau^T qd+ +
 * R_T + R_V: the step's energy may rise only by the correction's work, the
 * solver's tolerance, rounding and the integrator's own remainders. Impacts
 * are not exempt: e = 0 (Newton's law, perfectly inelastic) only removes
 * energy. */
#ifndef MCDYN_TESTS_STEP_ENERGY_H
#define MCDYN_TESTS_STEP_ENERGY_H

#include "mcdyn/mcdyn.h"

/* What one step may add to the mechanical energy, and what it added. */
typedef struct step_energy {
    double rise;    /* E+ - E [J] */
    double w_corr;  /* work of the penetration correction, sum F_n max(b, 0) [J] */
    double w_pos;   /* the position correction's bound |g|_{M^-1} |delta|_M [J] */
    double w_tol;   /* the solver tolerance's allowance [J] */
    double w_round; /* rounding [J] */
    double r_int;   /* h tau^T qd+ + R_T + R_V, the integrator's remainders [J] */
} step_energy;

/* Scratch for the balance of one model (allocates once). */
typedef struct step_energy_ws step_energy_ws;
step_energy_ws *step_energy_ws_create(const mcd_model *m);
void step_energy_ws_free(step_energy_ws *w);

/* Keeps the state before a step: q, qd at time t of sim s. */
void step_energy_before(step_energy_ws *w, mcd_sim *s);

/* The step's parameters the balance needs (the scenario's settings). */
typedef struct step_energy_params {
    double h;            /* time step [s] */
    double gain;         /* penetration gain (0: no correction) */
    double max_velocity; /* correction velocity cap [m/s] */
    double tol;          /* solver tolerance */
} step_energy_params;

/* The balance of the step just taken by s (statistics st). Returns MCD_OK
 * or a dynamics status. */
mcd_status step_energy_after(step_energy_ws *w, mcd_sim *s, const mcd_step_stats *st,
                             const step_energy_params *par, step_energy *out);

/* The allowance: w_corr + w_pos + w_tol + w_round + r_int. */
double step_energy_bound(const step_energy *e);

#endif

/* mcdyn — loop-closure constraints in the operational-space (OS) route.
 *
 * The closures of a model (model.h: ball, hinge, weld, distance) give
 * r = model->nclosure_rows constraint rows G_b qd = Q_b J qd = 0, with Q_b
 * selecting rows of the relative spatial velocity of the two closure frames
 * (world axes at the frame origins). The constraint forces p_b solve
 *     (Q_b Lambda Q_b^T) p_b = rhs                 (Mylapilli & Jain, Eq. 43 rows p_b)
 * with Lambda from the O(N) recursion (osc.h), and act through
 * Delta qdd = M^{-1} J^T Q_b^T p_b, another O(N) sweep; G_b and M are never
 * formed (mcd_closure_jacobian exists for tests and users).
 *
 * Redundant closures (rank-deficient Q_b Lambda Q_b^T, e.g. a planar four-bar
 * closed by a ball joint) are detected from the eigenvalues (rank threshold
 * 1e-10 relative) and solved in the least-squares sense; each such solve
 * records a warning in d->warn and increments d->warn_count.
 *
 * Constraint-error management (docs/theory/operational-space.md):
 *  - mcd_closed_chain_forward_dynamics: acceleration level with Baumgarte
 *    stabilisation  phi'' + 2 alpha phi' + beta^2 phi = 0  (alpha = beta = 0:
 *    none, for short accurate integrations with a high-order integrator);
 *  - mcd_closure_step: semi-implicit Euler with velocity-level enforcement
 *    (G_b qd+ = 0) and Newton position projection to a tolerance, then
 *    velocity projection at the projected configuration.
 */
#ifndef MCDYN_CLOSURE_H
#define MCDYN_CLOSURE_H

#include "mcdyn/data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Position errors phi(q) of every closure row (r entries): ball and weld
 * translation x_A - x_B (world axes), weld rotation log(R_A R_B^T), hinge
 * angular rows e_k . (z_B x z_A) for e_1, e_2 orthogonal to z_A, distance
 * |x_A - x_B| - length. */
mcd_status mcd_closure_errors(const mcd_model *m, mcd_data *d, const double *q, double *phi);

/* The constraint Jacobian G_b = Q_b J (r x nv, row-major). O(N r); for tests
 * and users — the dynamics never form it. */
mcd_status mcd_closure_jacobian(const mcd_model *m, mcd_data *d, const double *q, double *G);

/* Closed-chain forward dynamics: qdd = qdd_free + M^{-1} G_b^T p_b with
 *   G_b qdd + gamma = -2 alpha G_b qd - beta^2 phi
 * (gamma: the velocity-product part of the rows' acceleration). p_b (r, may
 * be NULL) receives the constraint forces. */
mcd_status mcd_closed_chain_forward_dynamics(const mcd_model *m, mcd_data *d, const double *q,
                                             const double *qd, const double *tau, double alpha,
                                             double beta, double *qdd, double *p_b);

/* Projects qd onto G_b(q) qd = 0 in the kinetic-energy metric (in place). */
mcd_status mcd_closure_project_velocity(const mcd_model *m, mcd_data *d, const double *q,
                                        double *qd);

/* Newton projection of q onto phi(q) = 0 in the kinetic-energy metric (in
 * place) until max |phi| <= tol; iterations (may be NULL) receives the count.
 * MCD_ERR_NOT_CONVERGED after max_iter. */
mcd_status mcd_closure_project_position(const mcd_model *m, mcd_data *d, double *q, double tol,
                                        int max_iter, int *iterations);

/* One semi-implicit Euler step of the closed-chain system:
 *   qd+ = qd + dt qdd_free + M^{-1} G_b^T p,  G_b qd+ = 0,  q+ = q (+) dt qd+,
 * then position projection (tolerance tol, at most 20 Newton iterations) and
 * velocity projection. q and qd are updated in place. */
mcd_status mcd_closure_step(const mcd_model *m, mcd_data *d, double *q, double *qd,
                            const double *tau, double dt, double tol);

#ifdef __cplusplus
}
#endif
#endif

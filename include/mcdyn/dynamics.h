/* mcdyn — rigid-body dynamics algorithms over (model, data).
 *
 * Each algorithm takes the state it needs explicitly and computes the
 * kinematics it depends on, so calls are independent of each other. None
 * allocates. Inputs are checked for NaN/Inf and non-unit quaternions; on
 * failure the outputs are left untouched, the status is returned and the
 * message is in d->err.
 *
 * Vectors are dense double arrays; matrices are row-major.
 * Equation of motion:  M(q) qdd + C(q, qd) = tau   (C includes gravity).
 *
 * Instruction sets: built for x86-64 by GCC or Clang, the library holds the
 * recursion passes twice, portable and for AVX2 (the same C; no FMA, no
 * reassociation, so the results are bit-identical). mcd_data_create picks
 * the AVX2 build when the CPU has AVX2 and the environment variable
 * MCDYN_PORTABLE is not set (d->use_avx2 says which; setting it to 0
 * selects the portable build).
 */
#ifndef MCDYN_DYNAMICS_H
#define MCDYN_DYNAMICS_H

#include "mcdyn/data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Body poses (d->bd[i].X_world) and hinge maps (d->Hstar, 6 per velocity coordinate). */
mcd_status mcd_forward_kinematics(const mcd_model *m, mcd_data *d, const double *q);

/* Forward kinematics and body spatial velocities d->bd[i].V. */
mcd_status mcd_body_velocities(const mcd_model *m, mcd_data *d, const double *q, const double *qd);

/* Newton-Euler inverse dynamics: tau = M qdd + C. f_ext (may be NULL) holds
 * one spatial force [n; F] per body acting on it, in world coordinates about
 * the world origin; it is subtracted (tau = M qdd + C - J^T f_ext). */
mcd_status mcd_inverse_dynamics(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                                const double *qdd, const double *f_ext, double *tau);

/* Bias forces C(q, qd): Coriolis, centrifugal and gravity (nv). */
mcd_status mcd_bias_forces(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                           double *C);

/* Gravity forces G(q) alone (nv). */
mcd_status mcd_gravity_forces(const mcd_model *m, mcd_data *d, const double *q, double *G);

/* Mass matrix M(q), nv x nv row-major, by the composite-rigid-body algorithm. */
mcd_status mcd_mass_matrix(const mcd_model *m, mcd_data *d, const double *q, double *M);

/* Articulated-body forward dynamics in O(N) (Jain's innovations
 * factorization): qdd = M^{-1} (tau - C). f_ext as in mcd_inverse_dynamics.
 * Leaves the factorization of M(q) in d, so mcd_minv_solve may follow. */
mcd_status mcd_forward_dynamics(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                                const double *tau, const double *f_ext, double *qdd);

/* Factorizes M(q) in O(N) by the articulated-body sweep (P, D, G of Jain's
 * innovations factorization) without forming M. */
mcd_status mcd_minv_factor(const mcd_model *m, mcd_data *d, const double *q);

/* y = M^{-1} x in O(N) with the factorization left by mcd_minv_factor or
 * mcd_forward_dynamics (MCD_ERR_ARG if there is none). x and y may alias. */
mcd_status mcd_minv_solve(const mcd_model *m, mcd_data *d, const double *x, double *y);

/* Reference frame of a node Jacobian or velocity. */
typedef enum mcd_reference {
    MCD_REF_WORLD = 0, /* world-aligned axes at the node origin */
    MCD_REF_LOCAL      /* the node's own axes at its origin */
} mcd_reference;

/* World pose of a node (forward kinematics included). */
mcd_status mcd_node_pose(const mcd_model *m, mcd_data *d, const double *q, int node,
                         mcd_pose *pose);

/* Node Jacobian J (6 x nv, row-major): [w; v] of the node = J qd, rows as
 * chosen by ref. Computes forward kinematics. */
mcd_status mcd_node_jacobian(const mcd_model *m, mcd_data *d, const double *q, int node,
                             mcd_reference ref, double *J);

/* Same, for a point fixed on a body, given in body coordinates. */
mcd_status mcd_point_jacobian(const mcd_model *m, mcd_data *d, const double *q, int body,
                              const double point[3], mcd_reference ref, double *J);

/* Bias acceleration Jdot qd of a node (6 entries [wdot; a], rows as chosen
 * by ref): the time derivative of the node's velocity J(q) qd at qdd = 0,
 * velocity-product (Coriolis and centripetal) terms only, no gravity. With
 * MCD_REF_WORLD it is the angular acceleration and the classical
 * acceleration of the node origin in world axes, so the node accelerates
 * with J qdd + acc. O(N) (one kinematics, velocity and acceleration sweep);
 * leaves the kinematics and body velocities of (q, qd) in d. */
mcd_status mcd_node_bias_acceleration(const mcd_model *m, mcd_data *d, const double *q,
                                      const double *qd, int node, mcd_reference ref, double acc[6]);

/* Same, for a point fixed on a body, given in body coordinates (the frame
 * with the body's axes at the point, as mcd_point_jacobian). */
mcd_status mcd_point_bias_acceleration(const mcd_model *m, mcd_data *d, const double *q,
                                       const double *qd, int body, const double point[3],
                                       mcd_reference ref, double acc[6]);

/* Kinetic and potential energy (potential zero at the world origin). */
mcd_status mcd_energy(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                      double *kinetic, double *potential);

/* q_out = q (+) qd dt: angles and displacements add; quaternions are
 * multiplied by the exact exponential of the body angular velocity, so they
 * stay unit norm; free-joint positions advance with their parent-frame
 * velocity. q_out may alias q. */
mcd_status mcd_integrate(const mcd_model *m, const double *q, const double *qd, double dt,
                         double *q_out);

/* v = (q1 (-) q0) / dt, the inverse of mcd_integrate (for finite differences). */
mcd_status mcd_difference(const mcd_model *m, const double *q0, const double *q1, double dt,
                          double *v);

/* Renormalises every quaternion in q (MCD_ERR_NONFINITE if one is zero). */
mcd_status mcd_normalize_q(const mcd_model *m, double *q);

/* World-frame centre of mass of the whole model. */
mcd_status mcd_center_of_mass(const mcd_model *m, mcd_data *d, const double *q, double com[3]);

#ifdef __cplusplus
}
#endif
#endif

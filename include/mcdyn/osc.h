/* mcdyn — operational-space compliance of contact and closure nodes.
 *
 * Lambda = J M^{-1} J^T for K points on the bodies (Mylapilli & Jain 2017,
 * Sec. 3.2, after Eq. 42; Jain, Crean, Kuo, von Bremen, Myint, "Minimal coordinate
 * formulation of contact dynamics in operational space", RSS 2012), from the
 * articulated-body factorization of M^{-1}, without forming or factoring M:
 *
 *   Omega(k) = tau-bar^*(k) Omega(parent) tau-bar(k) + H^* D^{-1} H   (base to tip)
 *   Omega(i, j) = Psi(i, a)^* Omega(a) Psi(j, a),   a = lowest common ancestor,
 *   Psi(j, a) = tau-bar(child of a) ... tau-bar(j)   (force transfer, tip to base)
 *   Lambda(i, j) = phi^*(x_i) Omega(i, j) phi(x_j)
 *
 * Cost O(N) + O(K^2): Omega only along the union of the points' paths, the
 * Psi products once per path segment between "key" bodies (point bodies and
 * branch points), and one 6x6 product chain per pair.
 * docs/theory/operational-space.md has the derivation.
 *
 * Two names, one matrix and its inverse. In Jain's spatial operator algebra
 * (and in this library) "Lambda" is the operational-space COMPLIANCE
 * J M^{-1} J^T: it maps a force or impulse at the points to the points'
 * acceleration or velocity change. Khatib's operational-space INERTIA,
 * also written Lambda in the control literature, is its inverse
 * (J M^{-1} J^T)^{-1}: the apparent inertia of the points, mapping a
 * desired acceleration to the force that produces it (F = Lambda_Khatib
 * (xdd* - Jdot qd) + ... in operational-space control). mcd_osc_compliance
 * gives the first, mcd_osc_inertia the second.
 */
#ifndef MCDYN_OSC_H
#define MCDYN_OSC_H

#include "mcdyn/data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A point fixed on a body, given by its current world position. */
typedef struct mcd_osc_point {
    int body;
    double x[3];
} mcd_osc_point;

/* Which rows of each point enter Lambda. */
typedef enum mcd_osc_rows {
    MCD_OSC_SPATIAL = 6, /* [w; v]: angular then linear velocity, world axes */
    MCD_OSC_LINEAR = 3   /* v only: the linear velocity of the point, world axes */
} mcd_osc_rows;

/* Sets the largest number of points per call (allocates; not for the
 * simulation loop). mcd_data_create reserves MCD_OSC_DEFAULT_CAPACITY. */
#define MCD_OSC_DEFAULT_CAPACITY 64
mcd_status mcd_osc_reserve(mcd_data *d, int capacity);

/* Lambda (rK x rK, row-major, r = rows) of K points, with the factorization
 * of M(q) in d (mcd_minv_factor or mcd_forward_dynamics at the same q).
 * MCD_ERR_CAPACITY if K exceeds the reserved capacity. */
mcd_status mcd_osc_compliance(const mcd_model *m, mcd_data *d, int K, const mcd_osc_point *pts,
                              mcd_osc_rows rows, double *Lambda);

/* Lambda of K model nodes at configuration q (factorizes M(q) in O(N)). */
mcd_status mcd_node_compliance(const mcd_model *m, mcd_data *d, const double *q, int K,
                               const int *nodes, mcd_osc_rows rows, double *Lambda);

/* Khatib's operational-space inertia (J M^{-1} J^T)^{-1} (rK x rK,
 * row-major) of K points: the compliance of mcd_osc_compliance (same
 * preconditions: a factorization of M(q) in d) inverted in place by
 * Cholesky. O(N) + O(K^2) for the compliance, O((rK)^3) for the inverse.
 * MCD_ERR_SINGULAR when the rows are dependent or not moved by any joint
 * (e.g. 6 rows of a point on an arm with fewer than 6 joints), with d->err
 * naming the row. Allocates nothing. */
mcd_status mcd_osc_inertia(const mcd_model *m, mcd_data *d, int K, const mcd_osc_point *pts,
                           mcd_osc_rows rows, double *inertia);

/* The same for K model nodes at configuration q (factorizes M(q) in O(N),
 * as mcd_node_compliance). */
mcd_status mcd_node_osc_inertia(const mcd_model *m, mcd_data *d, const double *q, int K,
                                const int *nodes, mcd_osc_rows rows, double *inertia);

/* Spatial or linear velocities (rows per point) of K points for joint
 * velocities qd, with the kinematics of the last factorization (no new
 * kinematics sweep, so the factorization stays valid). O(N + K). */
mcd_status mcd_osc_velocities(const mcd_model *m, mcd_data *d, const double *qd, int K,
                              const mcd_osc_point *pts, mcd_osc_rows rows, double *v);

/* dqd = M^{-1} J^T F: the joint-velocity change caused by impulses F (rows
 * per point: [n; F] spatial, or F linear, world axes at the points), with
 * the factorization in d. O(N + K), M and J never formed. */
mcd_status mcd_osc_apply(const mcd_model *m, mcd_data *d, int K, const mcd_osc_point *pts,
                         mcd_osc_rows rows, const double *F, double *dqd);

/* Constraint rows over point pairs: row i measures c_i . (V(pa_i) - V(pb_i))
 * with c_i a 6-vector on the spatial velocities [w; v] of two points (pb_i
 * = -1: nothing subtracted). W = X Lambda X^T (n x n, row-major) from the
 * Lambda of npts points with the given rows (MCD_OSC_LINEAR: only the
 * linear parts c_i[3..5] enter). */
void mcd_osc_row_compliance(int npts, const double *Lambda, mcd_osc_rows rows, int n, const int *pa,
                            const int *pb, const double *coef, double *W);

/* Reference: the same Lambda from the dense J M^{-1} J^T (mass matrix,
 * Cholesky and triangular solves through LAPACK). O(N^3); allocates its own
 * workspace. For validation and benchmarks, not for the simulation loop. */
mcd_status mcd_osc_compliance_dense(const mcd_model *m, mcd_data *d, const double *q, int K,
                                    const mcd_osc_point *pts, mcd_osc_rows rows, double *Lambda);

#ifdef __cplusplus
}
#endif
#endif

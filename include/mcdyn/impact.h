/* mcdyn — impact laws for frictional contact.
 *
 * Maximum-dissipation impulse of one contact (Preclik, Eibl & Ruede,
 * "Maximum dissipation impacts", Sec. 3.2, Eq. (3a)-(3d) and Fig. 5).
 *
 * Conventions (those of the library's frictional contact problems, normal
 * first): vectors and matrices are in the contact frame (n, t, o), index 0
 * the normal, 1 and 2 the two tangents. A is the 3x3 Delassus matrix of the
 * contact (row-major, symmetric positive definite), b the PRE-impact relative
 * contact velocity, so that the post-impact relative velocity is A x + b and
 * the change of kinetic energy caused by the impulse x is
 *     dT(x) = 1/2 x^T A x + b^T x.
 * (The paper writes 1/2 x^T A x - x^T b_paper with b_paper = -b.)
 *
 * mcd_maxdiss_single returns the unique minimiser of dT over
 *     x_n >= 0,  |(x_t, x_o)| <= mu x_n,                 (friction cone)
 *     (A x + b)_n >= 0,  x_n (A x + b)_n = 0,            (discrete Signorini)
 *     (A x)_n <= -b_n                                      (no pressure increase)
 * i.e. x = 0 if the contact separates (b_n > 0), otherwise the minimiser of
 * dT on the plane of maximum compression (A x + b)_n = 0 inside the cone.
 * A grazing contact (b_n = 0 exactly) is not separating: it can receive a
 * non-zero impulse (the Painleve rod, Sec. 4.2). The returned impulse never
 * increases the kinetic energy: dT(x) <= dT(0) = 0.
 */
#ifndef MCDYN_IMPACT_H
#define MCDYN_IMPACT_H

#include "mcdyn/problem.h"
#include "mcdyn/status.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Maximum-dissipation impulse of one contact (Preclik et al., Eq. (3)):
 * A[9] row-major SPD Delassus matrix in the frame (n, t, o), b[3] the
 * pre-impact relative contact velocity in the same frame, mu >= 0 the friction
 * coefficient. On MCD_OK x[3] holds the impulse (x_n, x_t, x_o). Errors
 * (x is then set to zero, err receives a message; err may be NULL):
 *   MCD_ERR_ARG        A, b or x NULL, mu < 0, A not symmetric (relative
 *                      asymmetry above 1e-12) or not positive definite;
 *   MCD_ERR_NONFINITE  a NaN or Inf in A, b or mu;
 *   MCD_ERR_NOT_CONVERGED  the boundary search found no admissible stationary
 *                      point (not observed; reported instead of a wrong x).
 * Allocation-free and thread-safe. */
mcd_status mcd_maxdiss_single(const double A[9], const double b[3], double mu, double x[3],
                              mcd_error *err);

/* Multi-contact maximum-dissipation law (Preclik et al., Eq. (5)) on the
 * data of a frictional contact problem (problem.h): A = W (its 3x3 diagonal
 * blocks are the contacts' Delassus matrices), b = q (relative velocities
 * without impulses, normal-row targets folded in), mu per contact,
 * bilateral rows [0, nb) free with u_i = 0. Solved by nonlinear block
 * Gauss-Seidel (jacobi = 0) or weighted block Jacobi (jacobi = 1), each
 * block by mcd_maxdiss_single. r (nb + 3 nc) is the start on entry and the
 * best iterate on return; work holds mcd_maxdiss_work_size(p) doubles.
 * Statuses as for the CCP solvers (ccp.h). */
typedef struct mcd_maxdiss_opts {
    int max_iter; /* sweeps, > 0 */
    double tol;   /* stop when the change of r over a sweep (or residual) <= tol */
    int jacobi;   /* 0: block Gauss-Seidel, 1: weighted block Jacobi */
    double omega; /* Jacobi weight in (0, 1] */
} mcd_maxdiss_opts;

mcd_maxdiss_opts mcd_maxdiss_default_opts(void);

typedef struct mcd_maxdiss_stats {
    mcd_status status;
    int iterations;
    double residual;
    double seconds;
} mcd_maxdiss_stats;

size_t mcd_maxdiss_work_size(const mcd_fc3d *p);

mcd_status mcd_maxdiss_solve(const mcd_fc3d *p, const mcd_maxdiss_opts *o, double *r, double *work,
                             mcd_maxdiss_stats *st, mcd_error *err);

#ifdef __cplusplus
}
#endif
#endif

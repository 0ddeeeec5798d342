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
#include "mcdyn/solver.h"
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

/* Multi-contact maximum-dissipation law (Preclik et al., Eq. (5); docs/solvers.md,
 * "Maximum-dissipation law (Preclik et al.)").
 *
 * Data: a frictional contact problem (problem.h). W plays the paper's A
 * (its 3x3 diagonal blocks W_kk are the contacts' Delassus matrices), q the
 * relative velocities without impulses (normal-row targets folded in; the
 * paper's b is -q), mu per contact; bilateral rows [0, nb) have r free and
 * u_i = 0. Unknowns r (nb + 3 nc), velocities u = W r + q.
 *
 * A solution satisfies, for every contact k with
 *     b_k = q_k + sum_{j != k} W_kj r_j  (bilateral rows included),
 *     r_k = mcd_maxdiss_single(W_kk, b_k, mu_k)                   (Eq. (5)),
 * and u_i = 0 on the bilateral rows. It is found by nonlinear block
 * Gauss-Seidel (jacobi = 0: bilateral rows first, one scalar Gauss-Seidel
 * step each, then the contacts in order, each using the newest r) or
 * weighted block Jacobi (jacobi = 1: all blocks from the same r,
 * r <- r + omega (F(r) - r)).
 *
 * Residual (stopping rule), in velocity units, at an iterate r:
 *     R(r) = max( max_{i < nb} |u_i|,  max_k |W_kk (r_k - F_k(r))|_inf,
 *                 max_k max(0, -u_k,n) ),
 * F_k(r) the block update of contact k computed from r (the Jacobi map).
 * R = 0 exactly at a solution (the last term, the Signorini violation, is
 * then 0 too; it exposes approaches no impulse can stop); impulse
 * components that change no velocity (null space of a singular W) do not
 * enter it. The solver stops as soon as R <= tol, evaluating R before each
 * sweep.
 *
 * Diagonal blocks that are not positive definite (a contact on a body that
 * cannot move in some direction) are regularised by a proximal term: the
 * block solves mcd_maxdiss_single(W_kk + delta I, b_k - delta r_k_old, mu_k)
 * with delta = regularization * max_i (W_kk)_ii, whose fixed points satisfy
 * the normal-velocity condition of the unregularised block exactly. A zero
 * block (a contact whose impulse moves nothing) gets r_k = 0 and is counted
 * in stats.zero_blocks. A singular W with regular blocks (redundant
 * contacts) needs nothing special: R measures velocities only.
 *
 * Failure path (newton_iter > 0): when the sweeps end above tol (max_iter
 * sweeps, or earlier, checked every 50 sweeps, when R's rate over the last
 * 50 cannot reach tol within the sweeps left), mcd_maxdiss_newton runs
 * from Coulomb solutions of the same problem (coulomb_ws set: a solution
 * where every contact sticks or separates is one of this law too, and on
 * redundant contacts the sweeps' stalled iterate can carry internal
 * impulses far from every solution; docs/solvers.md): mncp-nsn's, with
 * newton_iter / 20 iterations per rung, then mncp-plm's (its fallback
 * chain); then, if none reaches tol, from the sweeps' best iterate; the
 * point of least R is kept.
 * Allocation-free without coulomb_ws (with it, the Coulomb solves and the
 * Newton method's sparse steps allocate inside SuiteSparse): work holds
 * mcd_maxdiss_work_size(p) doubles. r is the
 * start on entry and the iterate of least R on return.
 * Returns MCD_OK (R <= tol); MCD_ERR_NOT_CONVERGED (max_iter sweeps done,
 * or diverged: an iterate became non-finite or R grew above 1e8 times its
 * start value; r = best iterate, stats filled); MCD_ERR_ARG (NULL
 * pointers, bad sizes, mu < 0, bad options); MCD_ERR_NONFINITE (NaN/Inf in
 * W, q, mu or the start r; r is then unchanged). A block solve that fails
 * stops the solve with its status (MCD_ERR_NOT_CONVERGED, or
 * MCD_ERR_NONFINITE if W r + q overflowed), r = best iterate. err (may be NULL) gets a message, st
 * (may be NULL) the statistics. */
typedef struct mcd_maxdiss_opts {
    int max_iter;              /* sweeps, > 0 (1000) */
    double tol;                /* stop when R(r) <= tol, velocity units, > 0 (1e-10) */
    int jacobi;                /* 0: block Gauss-Seidel, 1: weighted block Jacobi (0) */
    double omega;              /* Jacobi weight in (0, 1] (0.5); unused by Gauss-Seidel */
    double regularization;     /* relative proximal weight of singular blocks, in (0, 1) (1e-8) */
    int newton_iter;           /* failure path: when the sweeps do not reach tol,
                                * mcd_maxdiss_newton with this many iterations per rung
                                * (a twentieth from mncp-nsn's Coulomb solution), first from
                                * Coulomb solutions (coulomb_ws), then from the sweeps'
                                * best iterate; 0 turns it off, >= 0 (100) */
    mcd_solver_ws *coulomb_ws; /* the failure path's Coulomb starts: mncp-nsn, then
                                * mncp-plm (solver.h, their defaults) solve the same
                                * problem in this workspace, and Newton starts from
                                * their answers; NULL
                                * (the default) or a workspace too small for the
                                * problem: no Coulomb start. Set (of any size), the
                                * Newton method's large steps are sparse in it */
} mcd_maxdiss_opts;

/* max_iter 1000, tol 1e-10, jacobi 0, omega 0.5, regularization 1e-8, newton_iter 100,
 * coulomb_ws NULL. */
mcd_maxdiss_opts mcd_maxdiss_default_opts(void);

typedef struct mcd_maxdiss_stats {
    mcd_status status;      /* the returned status */
    int iterations;         /* sweeps performed (Newton: Newton iterations) */
    int newton_iterations;  /* Newton iterations of the failure path (0 if not run) */
    int coulomb_iterations; /* iterations of the failure path's Coulomb solve (0 if not run) */
    double residual;        /* R at the returned r */
    double energy;          /* 1/2 r^T W r + q^T r at the returned r */
    int regularized_blocks; /* diagonal blocks regularised (not positive definite) */
    int zero_blocks;        /* diagonal blocks that are zero (r_k kept 0) */
    double seconds;         /* wall time of the solve */
} mcd_maxdiss_stats;

/* Doubles of work mcd_maxdiss_solve needs: 3 (nb + 3 nc) + nc for the
 * sweeps plus mcd_maxdiss_newton_work_size(p) and 2 (nb + 3 nc) (the
 * Coulomb start's r and u) for the failure path. 0 for NULL or negative
 * sizes. */
size_t mcd_maxdiss_work_size(const mcd_fc3d *p);

mcd_status mcd_maxdiss_solve(const mcd_fc3d *p, const mcd_maxdiss_opts *o, double *r, double *work,
                             mcd_maxdiss_stats *st, mcd_error *err);

/* Semismooth Newton method for the same law (docs/solvers.md,
 * "Maximum-dissipation law", "Newton method"): Levenberg-Marquardt steps
 * on the per-contact optimality systems of Eq. (5) in (r, lambda),
 * lambda_k the multiplier of contact k's plane of maximum compression,
 *     u_k - lambda_k W_kk e_n in K_k*,  _|_ r_k in K_k      (natural map),
 *     FB(u_k,n, (W_kk r_k)_n) = 0   (the active set b_k,n <= 0: u_k,n = 0),
 *     u_i = 0 on bilateral rows,
 * with Armijo's line search on 1/2 |Phi|^2 and a ladder of four natural-map
 * parameters, run twice, each rung from the best point so far. Success only when the
 * residual R above is <= tol, so a point returned with MCD_OK is a
 * solution in the same sense as mcd_maxdiss_solve's. r is the start on
 * entry (e.g. mcd_maxdiss_solve's best iterate; lambda is fitted to it) and
 * the iterate of least R on return. Options: max_iter Newton iterations per
 * rung, tol, regularization (singular blocks as above), coulomb_ws (NULL:
 * every step by LAPACK's dense QR, no allocation; set: above 64 unknowns
 * nb + 4 nc the steps are sparse QRs (SuiteSparseQR) on W's block pattern
 * in its sparse state, which allocate inside SuiteSparse, as its Coulomb
 * solves do; dense when W is too full); jacobi, omega and newton_iter
 * unused. stats.iterations counts Newton iterations. Work:
 * mcd_maxdiss_newton_work_size(p) doubles, about 3 (nb + 4 nc)^2; 0 for
 * NULL or negative sizes and above nb + 4 nc = 1024, where the solve
 * returns MCD_ERR_UNSUPPORTED. Other statuses as mcd_maxdiss_solve's;
 * MCD_ERR_NOT_CONVERGED also when no step decreases the merit. */
size_t mcd_maxdiss_newton_work_size(const mcd_fc3d *p);

mcd_status mcd_maxdiss_newton(const mcd_fc3d *p, const mcd_maxdiss_opts *o, double *r, double *work,
                              mcd_maxdiss_stats *st, mcd_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* Private: semismooth Newton method on the Alart-Curnier function of the
 * frictional contact problem (mcd_fc3d), the solver `mncp-nsn`
 * (docs/solvers.md, "mncp-nsn").
 *
 * Alart & Curnier (1991) write Coulomb's law for contact k, with
 * u = W r + q and a positive parameter rho_k, as Phi_k(r) = 0 where
 * (the form of Christensen, Klarbring, Pang & Stromberg 1998, Eq. (9)):
 *     d_k     = r_n - rho_k u_n
 *     Phi_n   = r_n - max(0, d_k)                        (= r_n - P_R+(d_k))
 *     Phi_t   = r_t - P_B(mu max(0, d_k))(r_t - rho_k u_t)
 * P_B(R) the projection on the disc of radius R; bilateral rows add
 * Phi_i = rho_i u_i. The solutions of Phi = 0 are the solutions of the
 * problem for every rho > 0. rho_k = 3 / trace(W_kk) (rho_i = 1 / W_ii),
 * the inverse mean diagonal: Phi is in impulse units, rho W is
 * dimensionless with unit mean diagonal.
 *
 * Phi is piecewise smooth; an element of its generalized Jacobian has, per
 * contact, the form dPhi_k = A_k E_k + B_k W_k (E_k selects r_k, W_k the
 * rows of W), and the method (Siconos' fc3d_nonsmooth_Newton_AlartCurnier,
 * Christensen et al. Sec. 4) iterates
 *     (A + B (W + eps diag(1 / rho))) dr = -Phi,      r <- r + alpha dr.
 * The term eps B diag(1 / rho) is a proximal regularisation: the Newton
 * matrix of the problem with W + eps / rho I, positive definite on the null
 * space of a positive semidefinite W (redundant contact sets), where the
 * plain Newton matrix A + B W is singular. eps = |Phi| / max(|r|, |rho q|)
 * clamped to [NSN_EPS_MIN, NSN_EPS_MAX] and multiplied by a boost, so the
 * regularisation vanishes at a solution (Levenberg-Marquardt-like local
 * convergence, Yamashita & Fukushima 2001). Globalisation: a nonmonotone
 * Armijo line search (Grippo, Lampariello & Lucidi 1986): the first of the
 * step lengths 1, 1/2, 1/4, ... with
 *     psi(r + alpha dr) <= psi_ref - 2 sigma alpha psi(r),
 * psi = 1/2 |Phi|^2 (-2 psi: its directional derivative along an exact
 * Newton step), psi_ref the largest psi of the current and the last
 * NSN_MEMORY (15) iterates of the rung. If that is not the full step, the
 * point just past a contact's first change of piece along the line
 * replaces it when its psi is lower; with no step length accepted, such a
 * point is taken if it decreases psi (psi is piecewise smooth along the
 * line and flat on a piece where sticking contacts move along the null
 * space of W towards the cone's border, the motion that redundant contact
 * sets need). When no step is taken the boost grows by 10 (the step turns
 * towards the proximal fixed-point step r - Phi / eps); it shrinks by 10
 * after each accepted step. The nonmonotone reference lets the iteration
 * cross the kinks where a monotone search crawls: on the poured pile's
 * groups a monotone search took steps of 1/32 or less that lowered psi by
 * a few per cent, each ending just short of the same contact's change of
 * piece (docs/solvers.md, "Session 10: against Siconos' NSN-AC").
 *
 * The rho ladder. Phi = 0 has the same solutions for every rho, but the
 * Newton iteration does not behave the same: with a small rho_t a contact
 * whose tangential velocity is tiny (W nearly singular, q with a tiny
 * part outside W's range) stays in the stick piece, where psi cannot
 * reach 0, and r drifts slowly along W's null space towards the cone's
 * border; a large rho_t puts it in the slip piece, whose Newton step puts
 * r_t on the border at once. No one rho suits every captured step
 * problem (docs/solvers.md), so the method runs up to NSN_RUNGS rungs,
 * rho = base * (1, 1), (1e3, 1e3), (1, 1e6), (1e-2, 1e6) for (normal,
 * tangent) rows, each from the best point of the previous ones, until the
 * error is <= tol. A rung ends after max_iter iterations, or when no step
 * decreases psi even with the largest boost, or when it stalls: psi has
 * not fallen below half its last mark (the psi that last halved the mark
 * before it) for NSN_STALL (50) iterations. A nonmonotone iteration that
 * does not converge on a rung cycles among a few pieces, and the stall
 * test hands the best point to the next rung instead of spending max_iter
 * there, so a stalling rung ends alike whatever max_iter (> NSN_STALL).
 * The method stops when the library's error measure (mcd_fc3d_error) is
 * <= tol. The Newton matrix is factored by KLU (sparse_lu.h) on problems
 * of more than MCD_SPARSE_LU_MIN_N unknowns whose W has a sparse block
 * pattern, by dense LU (LAPACK dgetrf) otherwise and whenever the sparse
 * step fails; its products W r and W dr are then block-sparse too
 * (block_product.h, set up with the sparse step). No allocation on the
 * dense path. */
#ifndef MCDYN_SOLVER_NSN_ALART_CURNIER_H
#define MCDYN_SOLVER_NSN_ALART_CURNIER_H

#include "mcdyn/problem.h"
#include "sparse_lu.h"

typedef struct mcd_nsn_ws {
    double *J;   /* n x n: the Newton matrix, factored in place */
    int *ipiv;   /* n */
    double *rho; /* n: rho of each row */
    double *phi; /* n: Phi at r */
    double *phi_trial, *step, *w_step, *r_trial, *u_trial, *r_best; /* n each */
    mcd_sparse_lu
        *sparse; /* the sparse step and product (sparse_lu.h), set up per run; NULL: dense */
} mcd_nsn_ws;

typedef struct mcd_nsn_result {
    int iterations; /* Newton iterations (factorizations) */
    double psi;     /* 1/2 |Phi|^2 at the returned r */
    double error;   /* mcd_fc3d_error at the returned r */
} mcd_nsn_result;

#define NSN_RUNGS 4 /* rungs of the rho ladder */

/* Runs the method from r (n = nb + 3 nc), at most max_iter iterations per
 * rung of the rho ladder; leaves the iterate of least error in r and u
 * = W r + q in u, by the dense product (mcd_dense_matvec), and that
 * point's error in res->error. Returns MCD_OK (error <= tol),
 * MCD_ERR_NOT_CONVERGED or MCD_ERR_NONFINITE (Phi of the start is not
 * finite). */
mcd_status mcd_nsn_alart_curnier(const mcd_fc3d *p, double tol, int max_iter, const mcd_nsn_ws *w,
                                 double *r, double *u, mcd_nsn_result *res);

#endif

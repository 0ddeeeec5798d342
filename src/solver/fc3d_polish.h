/* Private: the active-set polish of a frictional-contact problem
 * (mcd_fc3d), a stage of mncp-plm's fallback chain and the last step of
 * mncp-nsn (docs/solvers.md, "Active-set polish").
 *
 * Near a solution the iterative methods can stall a little above the
 * tolerance on redundant contact sets: W singular, the solution set a
 * face of the cone product, and a contact sticking on the cone's border
 * with u_t = 0 (a non-strictly complementary point, where the
 * semismooth Newton methods lose their fast local convergence). There
 * the contact modes are already right, and Coulomb's law with those modes
 * fixed is a linear system. From the point r (u = W r + q) every contact
 * k is put in one mode:
 *     separated  r_n <= 0 or u_n > v_sep:   r_k = 0
 *     sliding    |u_t| > v_sep:              r_k = r_n (1, mu s), s = -u_t / |u_t|;
 *                                            equation u_n = 0
 *     sticking   otherwise:                  r_k free; equations u_k = 0
 * and bilateral rows are free with u_i = 0, where v_sep = POLISH_VREL
 * max(|u|, |q|). With y the free unknowns (r = T y, T the columns above)
 * and S the equations' rows, A = S W T is square; the correction is the
 * least-squares solution of least norm of A dy = -S u (SVD, singular
 * values below POLISH_RCOND times the largest taken as 0): A is singular
 * on redundant sets, and on them the system can also be inconsistent at
 * the level of rounding, when the targets of the corners of one rigid face
 * (q, from gaps of order 1e-16 m) do not lie in the range of W. Then some
 * contact of the face must separate, and the modes change one contact at
 * a time (a principal pivoting): the contact of most negative normal
 * impulse is separated; else, if the system is inconsistent, the contact
 * of largest normal velocity; else the sticking contact whose friction
 * leaves its cone the most slides along its friction. The new point is
 * projected on the cones; the point of least error (mcd_fc3d_error) is
 * kept, up to POLISH_PIVOTS changes.
 *
 * When the single changes end above tol, block principal pivoting (Judice
 * & Pires; Kostreva) from the best point: after each solve every contact
 * whose mode the point violates changes at once — a pressing contact with
 * r_n < 0 separates, a separated one with u_n < 0 sticks, a sticking one
 * whose friction leaves its cone slides along the friction, a sliding one
 * whose slip turned along its friction sticks, and a sliding one whose
 * slip is not opposite to s is turned, s = -u_t / |u_t| — and the next
 * solve starts from the point just found. After POLISH_BLOCK_STALLS
 * passes without fewer changes only the first violated contact changes
 * (Murty's least-index rule); a contact that changed between sticking and
 * sliding does not change back in the next pass; when no mode is violated
 * but the system is inconsistent, the single change above for
 * inconsistent systems is made. At most POLISH_BLOCK passes; every point
 * is projected on the cones and kept only if its error is lower.
 * Redundant faces sliding at vanishing speeds (a robot's legs splaying
 * under damping at 1e-8 m/s) need their many sliding directions and modes
 * changed together: one contact at a time reaches the tolerance on none
 * of the captured steps of that kind.
 * LAPACK dgesvd on the m x m matrix A, m <= n; no allocation. */
#ifndef MCDYN_SOLVER_FC3D_POLISH_H
#define MCDYN_SOLVER_FC3D_POLISH_H

#include "mcdyn/problem.h"
#include "workspace.h"

typedef struct mcd_polish_ws {
    double *A, *U, *VT; /* n x n each */
    double *sigma;      /* n: singular values */
    double *work;       /* lwork >= 5 n: dgesvd's */
    int lwork;
    int *col;        /* n: row of r of each unknown (sliding: the normal row) */
    int *mode;       /* n >= 2 nc: mode of each contact, then the block pass of its last change */
    double *s;       /* 2 n: the sliding direction s of each contact (2 per contact) */
    double *rhs, *y; /* n each */
    double *r_try, *u_try; /* n each */
} mcd_polish_ws;

/* The polish's arrays lent by the solver workspace: mat1-mat3, the LAPACK
 * work array, integer vectors 1-2 and double vectors 0-5 (the chain's
 * polish stage and mncp-fixpoint's local finish use the same slots). */
mcd_polish_ws mcd_polish_ws_lend(const mcd_solver_ws *ws);

/* Problems of this many unknowns or more are left as they are: the polish
 * is dense (an SVD of the modes' m x m system per mode change, O(n^3)),
 * and on the sphere piles' large block-sparse groups it solved none of
 * those it was given: 25 captured groups (session 12) and 19 failing ones,
 * where mncp-plm's chain ends with the same errors without it and 15-45 %
 * less CPU (session 13; docs/solvers.md, "The piles' cost"). */
#define POLISH_MAX_N 150

/* Polishes r (n = nb + 3 nc) in place, u = W r + q on entry and return;
 * *error is the error of r on entry and is lowered when a pass improves
 * it. Returns the number of passes that improved r; 0 without work when
 * n >= POLISH_MAX_N. */
int mcd_fc3d_polish(const mcd_fc3d *p, double tol, const mcd_polish_ws *w, double *r, double *u,
                    double *error);

#endif

/* mcdyn — the non-singular friction LCP of Peiret, Kovecses & Font-Llagunes
 * (2017) in minimal coordinates (docs/contact.md, "Non-singular friction LCP").
 *
 * Per contact i, with the tangential velocity u_t = (nu_f, nu_o) before the
 * step and the threshold v_th:
 *  - sticking (|u_t| < v_th): ndir directions e_j at angles pi j / ndir in
 *    the (f, o) plane, bounds mu (Eq. 18-20);
 *  - sliding: E = [e_t e_l], the sliding and lateral directions, bounds
 *    (mu, 0) (Eq. 31-34).
 * The mixed LCP of Eq. (35), relaxed as in Eq. (39)-(42) and written in
 * operational space (M^{-1} J^T never formed: W = X Lambda X^T from
 * contact.h), is
 *   (W + eps) p + d - [0; 0; E (w_up - w_lo)]  = [0 (closures); u~_n; 0 (tangent)]
 *   h sigma~_lo = mu p_n + E^T p_t + rho w_lo,   w_up >= 0 compl. to sigma~_lo
 *   h sigma~_up = mu p_n - E^T p_t + rho w_up,   w_lo >= 0 compl. to sigma~_up
 *   u~_n = nu_free,n + (W + eps)_n. p + d_n >= 0 compl. to p_n >= 0
 * with p = h lambda the impulses (closure rows, then (n, f, o) per contact),
 * eps the relaxations of Eq. (40) (eps_n on normal rows, eps_t on tangent
 * rows, eps_b on closure rows) and d the terms of Eq. (41)-(42). The free
 * impulses (p_b, p_t) are eliminated by a Schur complement (Cholesky of
 * their block), which leaves the LCP  w = M z + q,  z = [p_n; w_up; w_lo]
 * (the problem's contacts' p_n, then all w_up, then all w_lo; contact k's
 * directions contiguous), solved by Lemke or by block pivoting
 * (lcp_block_pivot.h). The problem is built per independent group of the
 * step (contact.h; W is block diagonal over the groups, and so is the
 * LCP), or for the whole step at once.
 * rho > 0 makes M nonsingular; rho = 0 is Anitescu & Potra's model, where
 * the columns of w_up and w_lo are opposite.
 *
 * Workspaces are sized at creation; setting up, building a group and taking
 * allocate nothing (the whole-step build grows the contact workspace's
 * whole W when a step needs more).
 */
#ifndef MCDYN_NSLCP_H
#define MCDYN_NSLCP_H

#include "mcdyn/contact.h"
#include "mcdyn/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MCD_NSLCP_MAX_DIR 16 /* directions per sticking contact */

typedef struct mcd_nslcp_options {
    double k_n;            /* normal stiffness [N/m] (1e10), Eq. (40)-(41) */
    double b_n;            /* normal damping [N s/m] (1e8) */
    double k_t;            /* friction (bristle) stiffness [N/m] (1e8), Eq. (40), (42) */
    double b_t;            /* friction damping [N s/m] (1e5) */
    double k_b;            /* closure stiffness [N/m] (1e10), Eq. (40), relaxing redundant
                              closure rows (delta_b = u_b = 0 in Eq. 41) */
    double b_b;            /* closure damping [N s/m] (1e8) */
    double v_th;           /* stick/slide threshold v_s on |u_t| [m/s] (1e-3) */
    double rho;            /* phantom inertia [kg] (1e-2), Eq. (18)-(20); 0: Anitescu-Potra */
    int ndir;              /* directions in the tangent plane while sticking, in
                              [2, MCD_NSLCP_MAX_DIR] (2) */
    double match_distance; /* a contact inherits the friction force of the previous
                              step's contact of the same bodies within this distance of
                              its position moved back by h nu- [m] (1e-2), for Eq. (42) */
} mcd_nslcp_options;

/* The defaults above (Table 1 of the paper for the contact parameters). */
mcd_nslcp_options mcd_nslcp_default_options(void);
/* MCD_ERR_NONFINITE / MCD_ERR_ARG with a message for NaN, negative values,
 * k h^2 + b h = 0 (both of a pair zero) or ndir out of range. */
mcd_status mcd_nslcp_check_options(const mcd_nslcp_options *o, mcd_error *err);

typedef struct mcd_nslcp_ws mcd_nslcp_ws;

/* Workspace for up to max_contacts contacts, nb closure rows and up to
 * max_dir sticking directions (allocates). */
mcd_status mcd_nslcp_ws_create(int max_contacts, int nb, int max_dir, mcd_nslcp_ws **out,
                               mcd_error *err);
void mcd_nslcp_ws_free(mcd_nslcp_ws *w);
/* Makes dst remember the step that src's next set-up would match against
 * (the friction forces of Eq. 42), so that a larger workspace made for a
 * step with more contacts continues src's trajectory. MCD_ERR_ARG for
 * NULL, MCD_ERR_CAPACITY if dst holds fewer contacts than that step. */
mcd_status mcd_nslcp_ws_carry_memory(mcd_nslcp_ws *dst, const mcd_nslcp_ws *src, mcd_error *err);
/* Largest LCP size of the workspace: max_contacts (1 + 2 max_dir). */
int mcd_nslcp_capacity(const mcd_nslcp_ws *w);

/* The step's per-contact terms, once per step after mcd_contact_setup
 * with the same nc contacts c: each contact's mode, directions,
 * relaxation and d (Eq. 40-42; lambda_t of Eq. 42 from the previous
 * step whose contacts were all taken, matched by bodies and position).
 * copt gives the Newton restitution rule (restitution_velocity,
 * no_restitution): a contact closing faster gets the target
 * u_n+ >= -e nu_n- as the prescribed velocity u_i of Eq. (41). */
mcd_status mcd_nslcp_setup(mcd_nslcp_ws *w, mcd_contact_ws *cws, int nc, const mcd_contact_point *c,
                           const mcd_nslcp_options *o, const mcd_contact_options *copt,
                           mcd_error *err);
/* Builds the reduced LCP of independent group g of the step (contact.h:
 * g in [0, mcd_contact_group_count(cws)); its closure rows and contacts,
 * its block of W only), after mcd_nslcp_setup. Its z holds the group's
 * contacts in group order (mcd_contact_group_contact). MCD_ERR_ARG for g
 * out of range or a NULL argument; MCD_ERR_SINGULAR when the block of the
 * closure and tangent rows is not positive definite. */
mcd_status mcd_nslcp_build_group(mcd_nslcp_ws *w, mcd_contact_ws *cws, int g, mcd_error *err);
/* From a solution z of group g's LCP (the problem built last; else
 * MCD_ERR_ARG): the group's impulses in cws (mcd_contact_velocity_update
 * once every group is taken) and the friction forces remembered for the
 * next step. MCD_ERR_NONFINITE if z or the result is not finite. */
mcd_status mcd_nslcp_take_group(mcd_nslcp_ws *w, mcd_contact_ws *cws, int g, const double *z,
                                mcd_error *err);
/* The whole step as one problem, all groups at once (its W assembled from
 * the groups' blocks, zero between them; cubic in the scene's contacts):
 * mcd_nslcp_setup, then the reduced LCP of every row (z: all contacts in
 * step order); take records its solution z as take_group does. The LCP is
 * block diagonal over the groups: the reference of the per-group solve. */
mcd_status mcd_nslcp_build(mcd_nslcp_ws *w, mcd_contact_ws *cws, int nc, const mcd_contact_point *c,
                           const mcd_nslcp_options *o, const mcd_contact_options *copt,
                           mcd_error *err);
mcd_status mcd_nslcp_take(mcd_nslcp_ws *w, mcd_contact_ws *cws, const double *z, mcd_error *err);
/* The LCP built last as an MLCP with lo = 0, hi = +inf (pointers into w;
 * n = 0 after a set-up and before a build). */
mcd_status mcd_nslcp_lcp(mcd_nslcp_ws *w, mcd_mlcp *out);

/* A start for the problem built last (z: its n unknowns), from the
 * previous step's solution: each contact matched to a previous one (the
 * match of Eq. 42) starts at that contact's p_n, and at its (w_up, w_lo)
 * when it has the same mode and number of directions; the others at 0.
 * Returns the number of contacts matched (0 also for NULL or nothing
 * built: z is then untouched). */
int mcd_nslcp_start(const mcd_nslcp_ws *w, double *z);
/* Step contact k's mode (1 sliding, 0 sticking) and number of directions
 * after the set-up, and the velocity parameters (w_up, w_lo) of its
 * direction j once its problem is taken (else MCD_ERR_ARG). */
int mcd_nslcp_sliding(const mcd_nslcp_ws *w, int k);
int mcd_nslcp_ndirections(const mcd_nslcp_ws *w, int k);
mcd_status mcd_nslcp_velocity_params(const mcd_nslcp_ws *w, int k, int j, double *w_up,
                                     double *w_lo);

/* The workspace of a simulator whose method is nslcp-lemke or
 * nslcp-judice (NULL otherwise), for inspection after a step. */
struct mcd_sim;
mcd_nslcp_ws *mcd_sim_nslcp_ws(struct mcd_sim *s);

#ifdef __cplusplus
}
#endif
#endif

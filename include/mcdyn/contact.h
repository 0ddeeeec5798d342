/* mcdyn — contact formulations in minimal coordinates (Mylapilli & Jain
 * 2017, Sec. 2.6-4): from a contact set, Lambda, Q_u, Q_b and the free-motion
 * terms, build the MLCP of Eq. (43)-(44) (polyhedral friction cone) or the
 * MNCP of Eq. (55)-(56) (exact Coulomb cone, as a 3D frictional-contact
 * problem), and map a solution back to impulses and the velocity update of
 * the semi-implicit Euler step, Eq. (25). M^{-1} is never formed: Lambda comes
 * from the O(N) + O(K^2) recursion and the update from an O(N) sweep.
 *
 * Conventions:
 *  - contact k joins body A (body_a) and body B (body_b, -1: the world); its
 *    normal eta points from B to A; its frame is (f, o, eta) with f the unit
 *    projection of the world x axis on the tangent plane (world y when the
 *    normal is within 25 degrees of x) and o = eta x f; impulses and
 *    velocities are reported in this frame, F = F_f f + F_o o + F_n eta;
 *  - nu is the velocity of A's point relative to B's point; the constraint
 *    is imposed on nu+ = G_u(q-) qd+ with G_u held over the step (Eq. 25);
 *  - rows of the frictional-contact problem: closure rows first, then per
 *    contact (eta, f, o) — Siconos' order (normal first; mcd_contact_row);
 *  - MLCP unknowns z = [p_b; (F_n, beta_1..beta_nf) per contact; sigma per
 *    contact], size n_b + n_c (n_f + 2); p_b free, the rest complementarity.
 *
 * Normal-row target (documented in docs/contact.md): nu_n+ >= max(-e nu_n-,
 * b) with Newton restitution e applied when the contact closes within the
 * step at more than restitution_velocity, and the penetration/approach bias
 *   b = -gap/dt                           for gap >= 0 (speculative contact),
 *   b = min(gain (-gap)/dt, max_velocity)  for gap < 0  (penetration removal),
 * with the branch chosen per manifold (docs/contact.md, "Manifolds"). With
 * position_correction the penetration branch is b = 0 (no positive target)
 * and the penetration is removed after the velocity step by the position
 * step of mcd_contact_correction_* (docs/contact.md, "Split correction").
 */
#ifndef MCDYN_CONTACT_H
#define MCDYN_CONTACT_H

#include "mcdyn/data.h"
#include "mcdyn/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The row order of a contact, named once (docs/contact.md, "Row order").
 * Outputs follow the frame (f, o, eta): impulses (F_f, F_o, F_n),
 * velocities (nu_f, nu_o, nu_n) and the frame's rows, index
 * mcd_contact_axis. The problems (W, q, the solvers' r and u: Siconos'
 * order, normal first) hold a contact's three rows as (F_n, F_f, F_o),
 * index mcd_contact_row from the contact's first row. */
typedef enum mcd_contact_axis {
    MCD_AXIS_F = 0, /* the first tangent f */
    MCD_AXIS_O = 1, /* the second tangent o = eta x f */
    MCD_AXIS_N = 2  /* the normal eta */
} mcd_contact_axis;

typedef enum mcd_contact_row {
    MCD_ROW_N = 0, /* normal */
    MCD_ROW_F = 1, /* first tangent f */
    MCD_ROW_O = 2  /* second tangent o */
} mcd_contact_row;

/* One contact constraint, as produced by collision detection (or by hand). */
typedef struct mcd_contact_point {
    int body_a, body_b; /* body_b = -1: the world */
    double pos[3];      /* world contact point (both bodies' nodes sit here) */
    double normal[3];   /* unit normal from B to A */
    double gap;         /* signed distance, negative = penetration [m] */
    double mu;          /* Coulomb friction coefficient >= 0 */
    double restitution; /* Newton coefficient e in [0, 1] */
    double resting_gap; /* s in [0, MCD_CONTACT_MAX_RESTING_GAP] [m]: the simulator
                           measures gap from s (it keeps gap - s, mcd_sim_contact), so
                           the shapes come to rest s apart; 0 for exact contacts, which
                           rest at gap 0 (collision.h: closed_form 1);
                           MCD_CONTACT_RESTING_GAP for the points Bullet finds, which must
                           then be reported up to gap 2 s (bullet_activation_distance;
                           docs/contact.md, "Resting gap") */
} mcd_contact_point;

/* The resting gap of a collision query's contact points (docs/contact.md,
 * "Resting gap": at gap 0 Bullet's GJK/EPA may return no point for a
 * touching box-box pair; at 1e-12 m GJK's normals tilt by up to 1e-2 rad;
 * 1e-8 m was clean on every resting pair of box_tower and box_block, and
 * is below what any scene resolves), and the largest resting gap
 * accepted. */
#define MCD_CONTACT_RESTING_GAP     1e-8 /* [m] */
#define MCD_CONTACT_MAX_RESTING_GAP 1e-3 /* [m] */

typedef enum mcd_direction_mode {
    MCD_DIRECTIONS_ALIGNED = 0, /* one direction along -nu_t- (the paper's recommendation) */
    MCD_DIRECTIONS_FIXED        /* first direction at direction_angle from f (Case 2) */
} mcd_direction_mode;

typedef struct mcd_contact_options {
    int nf;                         /* MLCP friction directions incl. opposites: even, >= 4 (4) */
    mcd_direction_mode directions;  /* default aligned */
    double direction_angle;         /* fixed mode [rad] (0) */
    double penetration_gain;        /* fraction of a penetration removed per step (0.2) */
    double max_correction_velocity; /* cap of the separation speed it may cause [m/s] (1.0) */
    double restitution_velocity;    /* restitution only above this approach speed [m/s] (0.01) */
    int no_restitution;             /* 1: no Newton target, nu_n+ >= b only: an impact law
                                       other than Newton's ran first (sim.h) (0) */
    int position_correction;        /* 1: split correction (below): the penetration branch of
                                       b is 0 and the simulator removes the fraction
                                       penetration_gain by a position step; needs
                                       penetration_gain in [0, 1]; 0: velocity targets (1) */
} mcd_contact_options;

mcd_contact_options mcd_contact_default_options(void);

/* Workspace for up to max_contacts contacts with up to max_nf directions
 * (allocates). The per-group blocks (Lambda, W_g, MLCP matrices) grow when
 * a step needs more than any before; every other call is allocation-free. */
typedef struct mcd_contact_ws mcd_contact_ws;
mcd_status mcd_contact_ws_create(const mcd_model *m, mcd_data *d, int max_contacts, int max_nf,
                                 mcd_contact_ws **out, mcd_error *err);
void mcd_contact_ws_free(mcd_contact_ws *ws);

/* Sets up one step at (q, qd) with applied forces tau: free-motion
 * accelerations (O(N) forward dynamics), contact frames and directions,
 * Lambda of the closure and contact nodes, W = X Lambda X^T, the free
 * velocities nu_free = G (qd + dt qdd_free) and the normal-row targets.
 * Leaves the factorization of M(q) in d. */
mcd_status mcd_contact_setup(const mcd_model *m, mcd_data *d, mcd_contact_ws *ws, const double *q,
                             const double *qd, const double *tau, double dt, int ncontacts,
                             const mcd_contact_point *contacts, const mcd_contact_options *opt);

/* Independent groups. Two rows of the step (closure rows and contacts) are
 * coupled when their points' bodies share a moving subtree: each body maps
 * to its root subtree (the ancestor whose parent is the world; the world
 * joins nothing), and a contact or closure row joins the subtrees of its
 * two sides. The groups are the connected classes, numbered in the order
 * of their first row (closure rows come first). The step's problem is the
 * direct sum of the groups' problems: W is block diagonal over groups, so
 * each group is solved on its own and all impulses go into the one
 * velocity update. mcd_contact_setup computes each group's Lambda from its
 * own points only (O(size of its subtrees) + O(K_g^2); blocks between two
 * points without a common moving ancestor are exact zeros) and its W_g
 * (storage sum of n_g^2, grown when a step needs more).
 *
 * A group's rows are its closure rows, then its contacts (eta, f, o) in
 * step order; mcd_contact_group_contact gives the step index of its
 * contact j (-1 out of range). mcd_contact_group_fc3d / _mlcp give its
 * problem (pointers into the workspace, valid until the next call for
 * another group or the next set-up); _take_* record its solution. A step
 * solved group by group calls _take_* once per group. */
int mcd_contact_group_count(const mcd_contact_ws *ws);
int mcd_contact_group_ncontacts(const mcd_contact_ws *ws, int g);
int mcd_contact_group_contact(const mcd_contact_ws *ws, int g, int j);
mcd_status mcd_contact_group_fc3d(mcd_contact_ws *ws, int g, mcd_fc3d *out);
mcd_status mcd_contact_group_mlcp(mcd_contact_ws *ws, int g, mcd_mlcp *out);
mcd_status mcd_contact_group_take_fc3d(mcd_contact_ws *ws, int g, const double *r);
mcd_status mcd_contact_group_take_mlcp(mcd_contact_ws *ws, int g, const double *z);

/* The whole problem of the current step, all groups at once, pointing into
 * the workspace: its W (nrows^2) is assembled from the groups' blocks on
 * the first call after a set-up (O(nrows^2); allocates when larger than
 * any before). */
mcd_status mcd_contact_mlcp(mcd_contact_ws *ws, mcd_mlcp *out);
mcd_status mcd_contact_fc3d(mcd_contact_ws *ws, mcd_fc3d *out);

/* Impact laws other than Newton's (docs/theory/impacts.md), between the
 * set-up and the solve of a step:
 *  - mcd_contact_impact_problem: the whole impact problem at the pre-step
 *    velocities, pointing into the workspace: W, q = nu- (G qd, no targets,
 *    no free motion) and mu, rows as in mcd_contact_fc3d;
 *  - mcd_contact_add_impulse: adds a prior impulse P (closure rows, then
 *    (F_n, F_f, F_o) per contact, as r of the frictional-contact problem):
 *    nu_free and the problems' q are shifted by W P, and P is added to the
 *    impulses that mcd_contact_take_* record (velocity update and outputs).
 *    Repeated calls accumulate; mcd_contact_setup clears it. */
mcd_status mcd_contact_impact_problem(mcd_contact_ws *ws, mcd_fc3d *out);
mcd_status mcd_contact_add_impulse(mcd_contact_ws *ws, const double *P);

/* Impulses from a solution: z of the MLCP, or r of the frictional-contact
 * problem (closure rows, then (F_n, F_f, F_o) per contact). */
mcd_status mcd_contact_take_mlcp(mcd_contact_ws *ws, const double *z);
mcd_status mcd_contact_take_fc3d(mcd_contact_ws *ws, const double *r);

/* qd_out = qd + dt qdd_free + M^{-1} (G_u^T F_u + G_b^T p_b) (Eq. 25), O(N).
 * qd_out may alias the qd given to setup. */
mcd_status mcd_contact_velocity_update(const mcd_model *m, mcd_data *d, mcd_contact_ws *ws,
                                       double *qd_out);

/* The position step of the split penetration correction (docs/contact.md,
 * "Split correction"), between mcd_contact_velocity_update (qd+) and the
 * position update of a step set up with position_correction. It asks of
 * every normal row k of a group in which some contact penetrates (gap < 0
 * at the step's start) that the gap after the step, to first order
 * gap + dt nu_n+ + dt (W_nn Delta)_k, be at least -(1 - gain) d_k for a
 * penetration d_k = -gap > 0 (removed at most at max_correction_velocity)
 * and at least 0 otherwise: the frictionless MLCP
 *   w = W_nn Delta + c >= 0,  Delta >= 0,  w . Delta = 0   (normal rows)
 *   w = W_bb p + W_bn Delta = 0                            (closure rows, p free)
 * on the group's W restricted to its closure and normal rows, with
 *   c_k = nu_n+,k - min(gain d_k / dt, max_correction_velocity)  for gap_k < 0,
 *   c_k = nu_n+,k + gap_k / dt                                  otherwise.
 * The pseudo-impulses [p; Delta] move q by dt M^{-1} (G_b^T p + G_n^T Delta)
 * and leave qd+ alone.
 *  - mcd_contact_correction_begin: the rows' velocities nu+ = G qd+ (O(N),
 *    only when some contact penetrates); *needed = 0 when none does (the
 *    rest is then skipped) and clears the pseudo-impulses;
 *  - mcd_contact_group_correction_mlcp: group g's MLCP (n = 0 when none of
 *    its contacts penetrates), pointing into the workspace (valid until
 *    the next problem is asked for); unknowns: its closure rows, then one
 *    normal row per contact in group order;
 *  - mcd_contact_group_take_correction: records its solution z;
 *  - mcd_contact_correction_displacement: delta = dt M^{-1} (G^T
 *    pseudo-impulses) (nv, O(N)), the tangent displacement for
 *    mcd_integrate(m, q, delta, 1, q). */
mcd_status mcd_contact_correction_begin(const mcd_model *m, mcd_data *d, mcd_contact_ws *ws,
                                        const double *qd_plus, const mcd_contact_point *contacts,
                                        int *needed);
mcd_status mcd_contact_group_correction_mlcp(mcd_contact_ws *ws, int g,
                                             const mcd_contact_point *contacts,
                                             const mcd_contact_options *opt, mcd_mlcp *out);
mcd_status mcd_contact_group_take_correction(mcd_contact_ws *ws, int g, const double *z);
mcd_status mcd_contact_correction_displacement(const mcd_model *m, mcd_data *d, mcd_contact_ws *ws,
                                               double *delta);

/* Joint limits as frictionless contacts (docs/scenarios.md, "Joint
 * limits"): for every revolute or prismatic hinge with position limits
 * (mcd_joint_limits.has_position_limits) and each bound whose gap (q -
 * lower, upper - q) is at most margin + 2 dt max(closing speed, 0), a
 * contact of the hinge's body (A) with its parent (B, -1: the world) whose
 * normal velocity is +qd (lower bound) or -qd (upper bound): for a
 * revolute joint at p = o + u, u a unit vector normal to the world axis a
 * through the joint origin o, eta = +-(a x u); for a prismatic one at o,
 * eta = +-a. Its row of G is thus +-e_k (the unit vector of the joint's
 * coordinate in qd-space), its Lambda entry e_k^T M^{-1} e_k; gap as
 * above, mu = 0, the given restitution. Needs the kinematics of q in d.
 * Writes at most capacity contacts and sets *n to the number found;
 * MCD_ERR_CAPACITY when more than capacity. */
mcd_status mcd_contact_joint_limits(const mcd_model *m, const mcd_data *d, const double *q,
                                    const double *qd, double dt, double margin, double restitution,
                                    mcd_contact_point *out, int capacity, int *n);

/* Results of the step, per contact k < ncontacts: impulses (F_f, F_o, F_n)
 * in the contact frame [N s], the frame (rows f, o, eta), and the
 * pre-step relative velocity (nu_f, nu_o, nu_n); index mcd_contact_axis. */
int mcd_contact_count(const mcd_contact_ws *ws);
const double *mcd_contact_impulse(const mcd_contact_ws *ws, int k);
const double *mcd_contact_frame(const mcd_contact_ws *ws, int k);
const double *mcd_contact_velocity(const mcd_contact_ws *ws, int k);
/* The angle [rad] of contact k's first friction direction of the MLCP's
 * polyhedral cone in its (f, o) plane, the others following at 2 pi / nf
 * (contact.direction_mode: along -nu_t of the pre-step velocity, or the
 * fixed angle); set by mcd_contact_setup. */
double mcd_contact_direction_angle(const mcd_contact_ws *ws, int k);
/* Closure impulses p_b (model->nclosure_rows entries). */
const double *mcd_contact_closure_impulse(const mcd_contact_ws *ws);

#ifdef __cplusplus
}
#endif
#endif

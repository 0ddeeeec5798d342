/* Private: the simulator object shared by the files of src/sim. Each
 * formulation beside the MLCP/MNCP keeps its own workspace behind an opaque
 * pointer, made by its create hook and freed by its free hook. */
#ifndef MCDYN_SRC_SIM_INTERNAL_H
#define MCDYN_SRC_SIM_INTERNAL_H

#include "mcdyn/sim.h"

struct mcd_sim_nslcp;      /* src/sim/sim_nslcp.c */
struct mcd_sim_maxdiss;    /* src/sim/sim_maxdiss.c */
struct mcd_sim_impact;     /* src/sim/sim_impact.c */
struct mcd_sim_actuation;  /* src/sim/sim_actuator.c */
struct mcd_sim_warm;       /* src/sim/sim_warm.c */
struct mcd_sim_warm_basis; /* src/sim/sim_warm_basis.c */

struct mcd_sim {
    const mcd_model *m;
    mcd_sim_options opt;
    mcd_data *d;
    mcd_contact_ws *cws;
    mcd_solver_ws *sws;
    mcd_contact_point *contacts; /* cap */
    int ncontacts;
    int cap; /* contacts the workspaces hold now, <= opt.max_contacts (sim_capacity.c) */
    double *q, *qd, *q_new, *qd_new, *q_mid, *tau, *v;
    double *correction; /* nv: the last step's position correction (sim_correction.c) */
    int corrected;      /* the last step's correction is nonzero */
    double *z, *u;      /* unknowns of the largest problem of the capacity */
    double *ccp_work;   /* mcd_ccp_work_size doubles of the largest problem */
    struct mcd_sim_nslcp *nslcp;
    struct mcd_sim_maxdiss *maxdiss;
    struct mcd_sim_impact *impact;
    struct mcd_sim_actuation *actuation;
    struct mcd_sim_warm *warm;
    struct mcd_sim_warm_basis *warm_basis;
    double t;
    mcd_contact_provider provider;
    void *provider_user;
    mcd_controller controller;
    void *controller_user;
    mcd_data *controller_d; /* the controller's scratch data (sim.h, mcd_controller) */
    long solver_failures;
    /* Step halving (sim_halving.c): the size of the step being taken (opt.dt,
     * or dt / 2^k while a step is taken again as halves), whether a failure
     * of it to converge will be met by halving it (then it is not counted
     * and ends the attempt), the halvings so far, and the controller's
     * torques of the step of dt, held over its halves. */
    double h;
    int retakable;
    long step_halvings;
    double *tau_controller;
    int joint_limits_off; /* mcd_sim_set_joint_limits(s, 0) (sim_limits.c) */
    /* The divergence guard's energy budget since the last mcd_sim_set_state
     * (sim_guard.c): started, initial energy E0, scale S0, work W+. */
    int guard_started;
    double guard_E0, guard_S0, guard_work;
    /* The step's T- = T(q_s, qd) and U(q_s), taken after the contact set-up
     * from its body velocities (mcd_sim_guard_start). */
    double guard_T0, guard_U;
    mcd_error err;
};

/* One step of size s->h from the current state (sim.c): the controller is
 * called when call_controller, else its torques of the last call
 * (s->tau_controller) are applied again. On failure the state is left as
 * it was. */
mcd_status mcd_sim_step_once(mcd_sim *s, int call_controller, mcd_step_stats *stats);

/* The step of dt with step halving (sim_halving.c; mcd_sim_options.
 * max_step_halvings): steps of s->h = dt / 2^k by mcd_sim_step_once. */
mcd_status mcd_sim_step_halving(mcd_sim *s, mcd_step_stats *stats);

/* The contact-sized workspaces (sim_capacity.c): made for the initial
 * capacity; grown to at least needed contacts (geometrically, at most
 * opt.max_contacts; MCD_ERR_CAPACITY when already at that limit, the
 * message in s->err for other failures, the old capacity kept); freed. */
mcd_status mcd_sim_capacity_create(mcd_sim *s, mcd_error *err);
mcd_status mcd_sim_capacity_grow(mcd_sim *s, int needed);
void mcd_sim_capacity_free(mcd_sim *s);

/* Solves the step's contact problem (set up in s->cws) with s->opt.solver
 * and leaves the impulses in s->cws for mcd_contact_velocity_update.
 * Non-convergence under MCD_ON_FAILURE_WARN is counted and returns MCD_OK;
 * st gets iterations, residual and solver status. (sim_solve.c) */
mcd_status mcd_sim_solve(mcd_sim *s, mcd_step_stats *st);

/* Whether a solve that returned r left impulses the step may use: a
 * solution, or under MCD_ON_FAILURE_WARN the best iterate of a solve that
 * did not converge in a step that will not be halved. (sim_solve.c) */
int mcd_sim_solution_usable(const mcd_sim *s, mcd_status r);

/* Whether the status r of a solve is a failure to converge that the step
 * goes on with and counts (MCD_ON_FAILURE_WARN, a step that will not be
 * halved: s->retakable 0). (sim_solve.c) */
int mcd_sim_failure_warned(const mcd_sim *s, mcd_status r);

/* The failure policy applied to the status r of a solve of method name. */
mcd_status mcd_sim_solver_outcome(mcd_sim *s, mcd_status r, const mcd_error *e, mcd_step_stats *st);

/* The split penetration correction (sim_correction.c): whether the step
 * runs it (position_correction on, a gain > 0, a method other than
 * nslcp-*, whose compliant law is its own penetration model); the position
 * step after the velocity update: s->correction = the displacement of the
 * groups' frictionless MLCPs; a failure applies the failure policy and
 * sets st->solver_status. */
int mcd_sim_corrects_positions(const mcd_sim *s);
mcd_status mcd_sim_position_step(mcd_sim *s, mcd_step_stats *st);
/* The resting gap (sim_correction.c; contact.h, mcd_contact_point): the
 * gaps of the n contacts the provider wrote, measured from their
 * resting_gap; an invalid one is MCD_ERR_ARG naming it. */
mcd_status mcd_sim_rest_contacts(mcd_sim *s, int n, mcd_error *err);

/* Non-singular friction LCP (sim_nslcp.c): workspace hooks and the solve. */
mcd_status mcd_sim_nslcp_create(mcd_sim *s, mcd_error *err);
void mcd_sim_nslcp_free(mcd_sim *s);
mcd_status mcd_sim_solve_nslcp(mcd_sim *s, mcd_step_stats *st);
/* Capacity growth (sim_capacity.c): the workspace taken out of s before
 * the contact-sized workspaces are made again (NULL if none), and its
 * friction memory (Eq. 42 of the paper) carried into the new one, after
 * which it is freed. */
struct mcd_sim_nslcp *mcd_sim_nslcp_detach(mcd_sim *s);
mcd_status mcd_sim_nslcp_carry(mcd_sim *s, struct mcd_sim_nslcp *old);

/* The solve of one group g of the step (contact.h): its problem solved,
 * its impulses taken when usable, the solver's iterations, residual and
 * message reported; returns the solver's status. */
typedef mcd_status (*mcd_sim_group_solve)(mcd_sim *s, int g, int *iterations, double *residual,
                                          mcd_error *e);

/* Every group solved by f; st gets the largest iterations and residual over
 * the groups; the failure policy applied to the first failing group's
 * status (a failure that leaves no usable impulses stops at once). */
mcd_status mcd_sim_solve_groups(mcd_sim *s, mcd_sim_group_solve f, mcd_step_stats *st);

/* Maximum-dissipation law (sim_maxdiss.c): workspace hooks and the solve
 * of one group. */
mcd_status mcd_sim_maxdiss_create(mcd_sim *s, mcd_error *err);
void mcd_sim_maxdiss_free(mcd_sim *s);
mcd_status mcd_sim_solve_maxdiss(mcd_sim *s, int g, int *iterations, double *residual,
                                 mcd_error *e);

/* Impact laws other than Newton's (sim_impact.c): workspace hooks and the
 * impact phase, run after the contact set-up and before the solve. */
mcd_status mcd_sim_impact_create(mcd_sim *s, mcd_error *err);
void mcd_sim_impact_free(mcd_sim *s);
mcd_status mcd_sim_impact_phase(mcd_sim *s);

/* Actuators and implicit damping (sim_actuator.c): workspace hooks; the
 * actuators' torques added to s->tau at (q, qd) and the step's damping
 * diagonal h (kd + b) made; that diagonal for d->hinge_diagonal (NULL when
 * damping is explicit). */
mcd_status mcd_sim_actuation_create(mcd_sim *s, mcd_error *err);
void mcd_sim_actuation_free(mcd_sim *s);
mcd_status mcd_sim_actuation_apply(mcd_sim *s, const double *q, const double *qd);
const double *mcd_sim_damping_diagonal(const mcd_sim *s);

/* Joint limits (sim_limits.c): whether they are on; their rows appended to
 * the n contacts of s->contacts at q (kinematics of q in s->d), *n
 * increased; MCD_ERR_CAPACITY (with *n the number needed) when they do not
 * fit. */
int mcd_sim_joint_limits_on(const mcd_sim *s);
mcd_status mcd_sim_add_limits(mcd_sim *s, const double *q, int *n, mcd_error *err);

/* Warm start (sim_warm.c): storage for the capacity; the step's contacts
 * matched to the last recorded ones (their starts computed in the new
 * frames: call after the set-up); the step's impulses recorded (after the
 * solve). _fc3d / _mlcp write the start of group g's problem into r / z
 * (zero when warm start is off or none of the group's contacts matched)
 * and return whether it is a warm start; _group says whether group g is
 * warm started; _set_cold(s, 1) makes every start cold until
 * _set_cold(s, 0). _keep_mlcp keeps the slip speeds sigma of group g's
 * MLCP solution z (its last nc rows), recorded with the impulses. */
mcd_status mcd_sim_warm_create(mcd_sim *s, mcd_error *err);
void mcd_sim_warm_free(mcd_sim *s);
void mcd_sim_warm_match(mcd_sim *s);
void mcd_sim_warm_record(mcd_sim *s);
int mcd_sim_warm_fc3d(const mcd_sim *s, int g, const mcd_fc3d *p, double *r);
int mcd_sim_warm_mlcp(const mcd_sim *s, int g, const mcd_mlcp *p, double *z);
void mcd_sim_warm_keep_mlcp(mcd_sim *s, int g, const mcd_mlcp *p, const double *z);
int mcd_sim_warm_group(const mcd_sim *s, int g);
void mcd_sim_warm_set_cold(mcd_sim *s, int cold);
/* Contact j's rows in the MLCP p of a group of nc contacts with nf
 * friction directions (contact_problem.c's layout: the closure rows, then
 * per contact F_n and beta_1..beta_nf, then one sigma row per contact):
 * *row is its F_n row (beta_l at *row + l), *sigma_row its sigma row. */
static inline void mcd_sim_mlcp_contact_rows(const mcd_mlcp *p, int nc, int nf, int j, int *row,
                                             int *sigma_row)
{
    const int nb = p->n - nc * (nf + 2);
    *row = nb + j * (nf + 1), *sigma_row = nb + nc * (nf + 1) + j;
}

/* The recorded contact that step contact k matched (-1: none), *sign -1
 * if it was recorded with the bodies in the other order, else 1. */
int mcd_sim_warm_match_of(const mcd_sim *s, int k, double *sign);

/* Warm start of mlcp-lemke from the previous basis (sim_warm_basis.c):
 * storage for the capacity; _guess writes group g's guessed basis (from
 * the matched contacts' recorded bases, else z's positive entries, z the
 * impulse start of mcd_sim_warm_mlcp) into the buffer _of_group returns,
 * which mcd_solve_mlcp_lemke_basis then overwrites with the solution's;
 * _keep keeps it per contact of group g; _forget_step (at matching)
 * clears what the step kept; _record (with the impulses) records it. */
mcd_status mcd_sim_warm_basis_create(mcd_sim *s, mcd_error *err);
void mcd_sim_warm_basis_free(mcd_sim *s);
unsigned char *mcd_sim_warm_basis_of_group(const mcd_sim *s);
void mcd_sim_warm_basis_guess(const mcd_sim *s, int g, const mcd_mlcp *p, const double *z);
void mcd_sim_warm_basis_keep(mcd_sim *s, int g, const mcd_mlcp *p);
void mcd_sim_warm_basis_forget_step(mcd_sim *s);
void mcd_sim_warm_basis_record(mcd_sim *s);

#endif

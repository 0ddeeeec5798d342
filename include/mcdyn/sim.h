/* mcdyn — time stepping of articulated robots with frictional contact
 * (Mylapilli & Jain 2017, Sec. 2.7): semi-implicit Euler (Eq. 25-26) or
 * Moreau's midpoint rule (Eq. 27-29), the contact problem of each step from
 * contact.h solved by a named solver (solver.h), loop closures as the p_b
 * rows plus position projection, and a controller callback.
 *
 * Contacts come from a provider callback, so the stepper works with Bullet
 * (collision.h, through the scenario runner) or with contacts computed by
 * hand. Everything is allocated by mcd_sim_create for a modest number of
 * contacts; a step whose contacts do not fit grows the contact workspaces
 * (up to max_contacts) and any other step allocates nothing. A step that fails leaves the state
 * untouched and returns the status; with MCD_ON_FAILURE_WARN a solver that did not converge is
 * reported in the step statistics instead, its best iterate used, and the
 * step goes on — non-finite results always stop.
 */
#ifndef MCDYN_SIM_H
#define MCDYN_SIM_H

#include "mcdyn/contact.h"
#include "mcdyn/nslcp.h"
#include "mcdyn/solver.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mcd_integrator {
    MCD_INTEGRATOR_EULER = 0, /* semi-implicit Euler, Eq. (25)-(26) */
    MCD_INTEGRATOR_MIDPOINT   /* Moreau's midpoint rule, Eq. (27)-(29) */
} mcd_integrator;

/* How each step's contact problem is formulated and solved
 * (docs/contact.md, docs/solvers.md). The first seven are the complementarity
 * solvers of solver.h applied to the MLCP of Eq. (43)-(44) or the MNCP of
 * Eq. (55)-(56), with the same values as mcd_solver_kind; the others are
 * the formulations beside them. Every method is selectable by name. */
typedef enum mcd_step_method {
    MCD_METHOD_MLCP_PFB_RLM = MCD_SOLVER_MLCP_PFB_RLM,   /* "mlcp-pfb-rlm" */
    MCD_METHOD_MLCP_PFB_PLM = MCD_SOLVER_MLCP_PFB_PLM,   /* "mlcp-pfb-plm" */
    MCD_METHOD_MLCP_LEMKE = MCD_SOLVER_MLCP_LEMKE,       /* "mlcp-lemke" */
    MCD_METHOD_MNCP_RLM = MCD_SOLVER_MNCP_RLM,           /* "mncp-rlm" */
    MCD_METHOD_MNCP_PLM = MCD_SOLVER_MNCP_PLM,           /* "mncp-plm" */
    MCD_METHOD_MNCP_NSN = MCD_SOLVER_MNCP_NSN,           /* "mncp-nsn" */
    MCD_METHOD_MNCP_FIXPOINT = MCD_SOLVER_MNCP_FIXPOINT, /* "mncp-fixpoint" */
    MCD_METHOD_CCP_PGS = MCD_SOLVER_KIND_COUNT,          /* "ccp-pgs": cone complementarity
                                                            (Anitescu-Tasora), projected Gauss-Seidel */
    MCD_METHOD_CCP_APGD,                                 /* "ccp-apgd": the same, APGD (ccp.h) */
    MCD_METHOD_NSLCP_LEMKE,  /* "nslcp-lemke": non-singular friction LCP (Peiret et al. 2017) */
    MCD_METHOD_NSLCP_JUDICE, /* "nslcp-judice": the same, Judice-Pires block pivoting */
    MCD_METHOD_MAXDISS_BGS,  /* "maxdiss-bgs": maximum-dissipation law (Preclik et al. Eq. 5),
                                nonlinear block Gauss-Seidel */
    MCD_METHOD_CCP_ADMM,     /* "ccp-admm": cone complementarity, ADMM with one Cholesky
                                factor per penalty (ccp.h) */
    MCD_METHOD_CCP_IPM,      /* "ccp-ipm": cone complementarity, primal-dual interior point
                                (ccp.h) */
    MCD_METHOD_COUNT
} mcd_step_method;

/* "mncp-plm", "ccp-pgs", ...; NULL for a value outside the enum. */
const char *mcd_step_method_name(mcd_step_method m);
/* MCD_ERR_ARG with the list of valid names in err if name is unknown. */
mcd_status mcd_step_method_from_name(const char *name, mcd_step_method *m, mcd_error *err);
/* The solver options a method starts from (tol and max_iter are used by
 * every method; the other fields by the MLCP/MNCP solvers only). warm_start
 * is 1 for mncp-plm (the default method) and 0 for the others
 * (docs/solvers.md, "Warm start"). */
mcd_solver_opts mcd_step_method_default_opts(mcd_step_method m);

/* How impacts (contacts closing faster than restitution_velocity) are
 * resolved (docs/theory/impacts.md). */
typedef enum mcd_impact_law {
    MCD_IMPACT_NEWTON = 0, /* "newton": normal-row target nu_n+ >= -e nu_n- (contact.h) */
    MCD_IMPACT_MAXDISS,    /* "maxdiss": maximum-dissipation impacts (Preclik et al.) */
    MCD_IMPACT_STRONGE,    /* "stronge": Stronge's energetic restitution, multi-point */
    MCD_IMPACT_LAW_COUNT
} mcd_impact_law;

const char *mcd_impact_law_name(mcd_impact_law law);
mcd_status mcd_impact_law_from_name(const char *name, mcd_impact_law *law, mcd_error *err);

typedef enum mcd_on_failure {
    MCD_ON_FAILURE_STOP = 0, /* a solver failure fails the step */
    MCD_ON_FAILURE_WARN      /* use the best iterate, count it, continue */
} mcd_on_failure;

/* Contacts at configuration q (kinematics of q are in d). Writes at most
 * capacity contacts, sets *n; returns a status. MCD_ERR_CAPACITY if there
 * were more: *n may then be set to the number needed (> capacity) when it
 * is known. The simulator then grows its capacity (to at least *n, at most
 * mcd_sim_options.max_contacts) and calls the provider again within the
 * same step; the calls see the same q and d. */
typedef mcd_status (*mcd_contact_provider)(void *user, const mcd_model *m, const mcd_data *d,
                                           const double *q, mcd_contact_point *contacts,
                                           int capacity, int *n, mcd_error *err);

/* tau (nv) applied during the step starting at time t in state (q, qd)
 * (with the midpoint integrator, q is the midpoint configuration q^m of
 * Eq. 27). tau starts at zero; the simulator adds joint damping after.
 *
 * d is a scratch mcd_data owned by the simulator, separate from the one the
 * step uses, so the controller may pass it to every function of
 * dynamics.h, osc.h and closure.h (inverse dynamics for gravity
 * compensation, mcd_node_jacobian, mcd_node_bias_acceleration,
 * mcd_node_osc_inertia, ...) without a data of its own. On entry it holds
 * the kinematics and body velocities of (q, qd): d->bd[k].X_world,
 * d->bd[k].V, the hinge maps d->Hstar, and copies of q and qd in d->q and
 * d->qd. Everything in it may be overwritten by the controller; the
 * simulator reads nothing from it, and its contents are not kept from one
 * call to the next. Its operational-space capacity is
 * MCD_OSC_DEFAULT_CAPACITY points (osc.h); nodes must be added to the model
 * before mcd_sim_create. The controller must not allocate to keep the step
 * allocation-free. */
typedef mcd_status (*mcd_controller)(void *user, const mcd_model *m, mcd_data *d, double t,
                                     const double *q, const double *qd, double *tau);

#define MCD_SIM_DEFAULT_MAX_CONTACTS  100000
#define MCD_SIM_MAX_CONTACTS          10000000
#define MCD_SIM_DEFAULT_STEP_HALVINGS 3
#define MCD_SIM_MAX_STEP_HALVINGS     10

typedef struct mcd_sim_options {
    double dt;                   /* [s] (1e-3) */
    mcd_integrator integrator;   /* (Euler) */
    mcd_step_method solver;      /* formulation and solver (mncp-plm) */
    mcd_solver_opts solver_opts; /* (mcd_step_method_default_opts). warm_start = 1 starts
                                    each group's solve from the previous step's impulses of
                                    the matched contacts (same body pair, nearest point
                                    within 5 mm), and again from zero if that solve fails
                                    (docs/scenarios.md, solver.warm_start); the default for
                                    mncp-plm, the default method; 0 (the default of the
                                    others): every solve from zero. nslcp-* always start
                                    cold */
    double ccp_omega;            /* ccp-pgs over-relaxation omega in (0, 2); 0: the default
                                    of mcd_ccp_default_opts (0.6) */
    mcd_impact_law impact_law;   /* (newton) */
    mcd_contact_options contact; /* (mcd_contact_default_options) */
    mcd_nslcp_options nslcp;     /* nslcp-lemke / nslcp-judice (mcd_nslcp_default_options) */
    mcd_on_failure on_failure;   /* (stop) */
    int max_contacts;            /* hard limit of contacts per step, in [1, MCD_SIM_MAX_CONTACTS]
                                    (MCD_SIM_DEFAULT_MAX_CONTACTS). The workspaces start smaller
                                    and grow (allocating) in the first step that needs more; a
                                    step that needs more than the limit fails */
    double closure_tolerance;    /* position projection of closures [m] (1e-10) */
    int joint_damping;           /* 1: apply the model's joint damping as -b qd (1) */
    double divergence_factor;    /* stop a step that multiplies the kinetic energy by more than
                                    this over what the applied forces supply (docs/scenarios.md,
                                    divergence guard); 0: no guard (4) */
    int max_step_halvings;       /* step halving (docs/scenarios.md, "Step halving"): a step
                                    that fails with MCD_ERR_NOT_CONVERGED (a contact, impact or
                                    correction solve, or the closure projection) is taken
                                    again as two steps of half its size, each of which may be
                                    halved again, down to dt / 2^max_step_halvings; only a
                                    failure of a step of that smallest size follows on_failure.
                                    The controller runs once per step of dt and its torques are
                                    held over the halves; joint damping and actuators act at
                                    every half. In [0, MCD_SIM_MAX_STEP_HALVINGS]; 0: never
                                    (MCD_SIM_DEFAULT_STEP_HALVINGS) */
} mcd_sim_options;

mcd_sim_options mcd_sim_default_options(void);

/* Statistics of the last step. */
typedef struct mcd_step_stats {
    int ncontacts;
    int iterations;  /* solver iterations (0 without a problem) */
    double residual; /* solver error measure (0 without a problem) */
    mcd_status solver_status;
    double t_dynamics, t_contacts, t_setup, t_solve; /* seconds, by phase */
    int halvings; /* times the step (or one of its halves) was taken again as two halves
                     (max_step_halvings); then ncontacts is that of the last half,
                     iterations and times add up every attempt, residual is the largest of
                     the halves kept */
} mcd_step_stats;

typedef struct mcd_sim mcd_sim;

mcd_status mcd_sim_create(const mcd_model *m, const mcd_sim_options *opt, mcd_sim **out,
                          mcd_error *err);
void mcd_sim_free(mcd_sim *s);

void mcd_sim_set_contact_provider(mcd_sim *s, mcd_contact_provider f, void *user);
/* The controller called at the start of every step (NULL: none); user is
 * passed back to it. */
void mcd_sim_set_controller(mcd_sim *s, mcd_controller f, void *user);

/* The state: q (nq), qd (nv), time. mcd_sim_set_state checks it. */
mcd_status mcd_sim_set_state(mcd_sim *s, const double *q, const double *qd, double t);
const double *mcd_sim_q(const mcd_sim *s);
const double *mcd_sim_qd(const mcd_sim *s);
double mcd_sim_time(const mcd_sim *s);
mcd_data *mcd_sim_data(mcd_sim *s);

/* One step of length dt (taken as halves when a solve of it does not
 * converge: mcd_sim_options.max_step_halvings). stats may be NULL. On
 * failure the state is left as it was at the start of the step, or of the
 * half that failed, and the message is in mcd_sim_error(s). */
mcd_status mcd_sim_step(mcd_sim *s, mcd_step_stats *stats);

/* The position correction of the last step (nv entries, tangent
 * coordinates as mcd_integrate's velocity times dt): q+ = (q- (+) dt qd+)
 * (+) delta with the split correction (contact.h, position_correction);
 * all zero without it or when nothing penetrated. */
const double *mcd_sim_position_correction(const mcd_sim *s);

/* The contacts of the last step (their points, frames and impulses). */
int mcd_sim_ncontacts(const mcd_sim *s);
const mcd_contact_point *mcd_sim_contact(const mcd_sim *s, int k);
const mcd_contact_ws *mcd_sim_contact_ws(const mcd_sim *s);

/* One contact of the last step in world coordinates: what acted on which
 * body, where. */
typedef struct mcd_contact_force {
    int body_a, body_b; /* body_b = -1: the world */
    double point[3];    /* world contact point [m] */
    double normal[3];   /* unit normal from B to A */
    double impulse[3];  /* impulse on A over the step, world axes [N s]; B receives -impulse */
    double force[3];    /* impulse / dt: the mean force on A [N] */
} mcd_contact_force;

/* Contact k < mcd_sim_ncontacts(s) of the last step (impulses of the whole
 * step, impact phase included). MCD_ERR_ARG for k out of range or NULL. */
mcd_status mcd_sim_contact_force(const mcd_sim *s, int k, mcd_contact_force *out);

/* ---- actuators and implicit damping ---------------------------------
 *
 * Joint actuators, applied after the controller, one per velocity
 * coordinate of a one-coordinate joint (revolute, continuous, prismatic),
 * with q the joint's position, qd its velocity, t the step's start time:
 *   torque:   tau = ff(t)
 *   position: tau = kp (r(t) - q) + kd (dr/dt(t) - qd) + ff(t)
 *   velocity: tau = kd (r(t) - qd) + ff(t)
 * saturated at +-effort_limit. A signal r or ff is a constant or a time
 * series linearly interpolated (dr/dt: the slope of the segment holding t,
 * 0 for a constant or outside the series, which holds its end values).
 *
 * Implicit damping (on by default): the damping terms D = diag(kd + b) (b
 * the joint damping of mcd_joint_limits, with mcd_sim_options.joint_damping)
 * act on the velocity at the end of the step, as MuJoCo's implicit damping:
 *   M (qd+ - qd) = h (tau_e - D qd+ - C) + G^T F
 * (tau_e: the torques without the damping terms), that is
 *   qd+ = qd + h M~^{-1} (tau - C) + M~^{-1} G^T F,  M~ = M + h D,
 * with tau = tau_e - D qd the explicit torques. The step is the explicit
 * step with M~ in place of M: the articulated-body factorization takes h D
 * on the diagonal of each hinge's D(k) (data.h hinge_diagonal), so the free
 * velocities and the contact problem's Lambda = G M~^{-1} G^T are those of
 * the damped system. An actuator saturated at the step's start is a constant
 * torque over the step: its kd stays out of D. Explicit damping (off)
 * applies tau as computed, the step unchanged; a stiff servo (kd / M large
 * against 1 / h) then diverges. */
typedef enum mcd_actuator_type {
    MCD_ACTUATOR_TORQUE = 0, /* tau = ff */
    MCD_ACTUATOR_POSITION,   /* tau = kp (r - q) + kd (dr/dt - qd) + ff */
    MCD_ACTUATOR_VELOCITY,   /* tau = kd (r - qd) + ff */
    MCD_ACTUATOR_TYPE_COUNT
} mcd_actuator_type;

/* A constant (n = 0: value) or n >= 1 samples (t strictly increasing,
 * linear interpolation, the end values held outside [t[0], t[n-1]]). */
typedef struct mcd_signal {
    double value;
    int n;
    const double *t, *v;
} mcd_signal;

typedef struct mcd_actuator {
    int dof; /* velocity index of a one-coordinate joint */
    mcd_actuator_type type;
    double kp, kd;          /* >= 0 (kp: position only; kd: position and velocity) */
    mcd_signal target;      /* r: position target, or velocity target (velocity type) */
    mcd_signal feedforward; /* ff */
    double effort_limit;    /* > 0; INFINITY: none */
} mcd_actuator;

/* Replaces the simulator's actuators by a copy of the n given (series
 * copied too); n = 0 removes them. Checks them: MCD_ERR_ARG naming the
 * actuator and what is wrong (dof out of range or not of a one-coordinate
 * joint, two actuators on one dof, negative or non-finite gains, effort
 * limit <= 0, a series not strictly increasing or not finite). */
mcd_status mcd_sim_set_actuators(mcd_sim *s, const mcd_actuator *a, int n, mcd_error *err);
/* 1 (default): kd and joint damping implicit, as above; 0: explicit. */
void mcd_sim_set_implicit_damping(mcd_sim *s, int on);
/* The torques the actuators applied in the last step (nv entries, 0 where
 * none; a saturated actuator's torque is the limit). */
const double *mcd_sim_actuator_torque(const mcd_sim *s);

/* ---- joint limits ----------------------------------------------------
 * On by default: every revolute or prismatic joint with position limits
 * (mcd_joint_limits) gets, for each bound it is near (contact.h,
 * mcd_contact_joint_limits), a frictionless inelastic contact row between
 * its body and its parent whose normal velocity is +-qd of the joint; the
 * rows join the step's contacts (they are counted and reported among them:
 * mcd_sim_ncontacts, mcd_sim_contact) and every step method and impact law
 * solves them with the contacts. 0 switches them off. */
void mcd_sim_set_joint_limits(mcd_sim *s, int on);

const char *mcd_sim_error(const mcd_sim *s);
/* Steps whose solver did not converge (on_failure = warn). */
long mcd_sim_solver_failures(const mcd_sim *s);
/* Steps (or halves of steps) taken again as two halves since the simulator
 * was created (mcd_sim_options.max_step_halvings). */
long mcd_sim_step_halvings(const mcd_sim *s);
/* The size of the last step taken [s]: dt, or after a step taken as halves
 * the size of its last half, the step the contact impulses belong to
 * (force = impulse / this; mcd_sim_contact_force divides by it). dt before
 * the first step. */
double mcd_sim_step_size(const mcd_sim *s);

#ifdef __cplusplus
}
#endif
#endif

/* mcdyn — running a scenario: the scenario's model and initial state,
 * collision detection with Bullet (collision.h) feeding the simulator
 * (sim.h) with per-pair friction and restitution, and the trajectory in the
 * CSV contract:
 *
 *   t, then for every moving body (by URDF link name)
 *     <body>.x,.y,.z        world centre of mass [m]
 *     <body>.qw,.qx,.qy,.qz body orientation (unit quaternion, world)
 *     <body>.vx,.vy,.vz     world velocity of the centre of mass [m/s]
 *     <body>.wx,.wy,.wz     world angular velocity [rad/s]
 *   then for every joint with one coordinate (revolute, continuous,
 *   prismatic; by the model's joint name, scenario prefix included), in
 *   the model's body order:
 *     <joint>.q, <joint>.qd  joint coordinate and velocity [rad or m, /s]
 *   ncontacts, iters, residual,
 *   then for each contact slot k: c<k>.Fn, c<k>.Ff, c<k>.Fo — contact force
 *   (impulse / dt) in the contact frame (normal, f, o) [N]; empty when the
 *   step has fewer contacts.
 *
 * Numbers have 17 significant digits (strtod gives back the exact double),
 * trailing zeros dropped, in printf's %g style ("0.25", "1e-07"); infinities
 * and NaN are written inf, -inf and nan.
 *
 * This layer sits above every other: it is the library behind `mcdyn sim`
 * and the validation tests.
 */
#ifndef MCDYN_RUNNER_H
#define MCDYN_RUNNER_H

#include <stdio.h>

#include "mcdyn/log.h"
#include "mcdyn/scenario.h"
#include "mcdyn/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Values that override the scenario's (a NULL or negative field keeps it). */
typedef struct mcd_runner_overrides {
    const char *solver; /* step method name (sim.h); it starts from its own default options
                           with the scenario's tol, and the scenario's max_iter only when
                           both methods count the same thing (Levenberg-Marquardt iterations,
                           or the same method) */
    double dt;          /* time step [s] */
    double duration;    /* [s] */
    int contact_slots;  /* CSV contact slots (default 8) */
} mcd_runner_overrides;

mcd_runner_overrides mcd_runner_default_overrides(void);

/* The most steps a run may take (duration / dt); mcd_runner_create refuses
 * more with the number it would need. */
#define MCD_RUNNER_MAX_STEPS 1000000000L

typedef struct mcd_runner mcd_runner;

/* Builds the collision world and the simulator for sc (which must outlive
 * the runner) and sets the initial state. */
mcd_status mcd_runner_create(const mcd_scenario *sc, const mcd_runner_overrides *ov,
                             mcd_runner **out, mcd_error *err);
void mcd_runner_free(mcd_runner *r);

/* One step; stats may be NULL. */
mcd_status mcd_runner_step(mcd_runner *r, mcd_step_stats *stats);

/* The simulator of the run: contacts, state, mcd_sim_contact_force. */
mcd_sim *mcd_runner_sim(mcd_runner *r);

/* A controller for the scenario's run in one call (NULL: none): f is
 * called at the start of every step with a scratch data synchronised with
 * the state (sim.h, mcd_controller). The scenario's model is
 * mcd_scenario.model; to use nodes in the controller, add them with
 * mcd_model_add_node before mcd_runner_create. The whole wiring:
 *
 *   mcd_scenario *sc; mcd_runner *r; mcd_error err;
 *   mcd_scenario_load("arm.yaml", &sc, &err);
 *   mcd_runner_create(sc, NULL, &r, &err);
 *   mcd_runner_set_controller(r, my_law, &my_gains);
 *   for (long i = 0; i < mcd_runner_steps(r); i++) mcd_runner_step(r, NULL);
 *   mcd_runner_free(r); mcd_scenario_free(sc);
 */
void mcd_runner_set_controller(mcd_runner *r, mcd_controller f, void *user);
double mcd_runner_duration(const mcd_runner *r);
long mcd_runner_steps(const mcd_runner *r); /* steps of the whole duration */

/* The CSV header and one row for the current state and last step. */
void mcd_runner_csv_header(const mcd_runner *r, FILE *out);
void mcd_runner_csv_row(mcd_runner *r, const mcd_step_stats *st, FILE *out);

/* Appends the current state and last step (st may be NULL) to log, with up
 * to the runner's contact slots contacts. */
mcd_status mcd_runner_log_row(mcd_runner *r, const mcd_step_stats *st, mcd_log *log,
                              mcd_error *err);

/* Column index of a CSV column name (e.g. "link12.z"), -1 if none. */
int mcd_runner_csv_column(const mcd_runner *r, const char *name);

/* The number mcd_runner_csv_row would write in column `column` (an index of
 * mcd_runner_csv_column) for the current state and last step (st may be
 * NULL), without formatting the row: the same double (the row's 17 digits
 * read back), NaN for an empty contact slot. For code that follows a few
 * columns every step (sweeps). Returns MCD_ERR_ARG (value untouched) when r
 * or value is NULL or the column is not one of the row's. */
mcd_status mcd_runner_csv_value(mcd_runner *r, const mcd_step_stats *st, int column, double *value);

#ifdef __cplusplus
}
#endif
#endif

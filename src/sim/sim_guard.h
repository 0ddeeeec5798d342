/* Private: the divergence guard of the simulator (sim_guard.c), called by
 * mcd_sim_step once the step's velocities qd+ are known, before the
 * positions are advanced. */
#ifndef MCDYN_SRC_SIM_GUARD_H
#define MCDYN_SRC_SIM_GUARD_H

#include "sim_internal.h"

/* MCD_OK if the step from (q_s, qd) to qd+ = s->qd_new keeps the kinetic
 * energy of the step and the mechanical energy since the last
 * mcd_sim_set_state in a sane range, else MCD_ERR_NONFINITE (or
 * MCD_ERR_NOT_CONVERGED) with the step's time, the energies and what grew
 * in s->err (docs/scenarios.md, "Divergence guard"). s->d must hold the
 * kinematics of the step's configuration q_s (the step's contact setup
 * leaves them) and mcd_sim_guard_start must have run after the set-up;
 * st holds the step's solver status. Updates the energy
 * budget in s. Allocates nothing. */
mcd_status mcd_sim_guard_check(mcd_sim *s, const mcd_step_stats *st);

/* Records the step's T- = T(q_s, qd) (given: the contact set-up's, from
 * the body velocities of its free motion, mcd_contact_setup_at) and
 * U(q_s) for mcd_sim_guard_check, right after the set-up. Nothing when the
 * guard is off. Allocates nothing. */
void mcd_sim_guard_start(mcd_sim *s, double T_minus);

#endif

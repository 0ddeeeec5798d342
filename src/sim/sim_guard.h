/* Private: the divergence guard of the simulator (sim_guard.c), called by
 * mcd_sim_step once the step's velocities qd+ are known, before the
 * positions are advanced. */
#ifndef MCDYN_SRC_SIM_GUARD_H
#define MCDYN_SRC_SIM_GUARD_H

#include "sim_internal.h"

/* MCD_OK if the step from (q, qd) to qd+ = s->qd_new keeps the kinetic
 * energy in a sane range, else MCD_ERR_NONFINITE with the step's time,
 * the energies and what grew in s->err (docs/scenarios.md, "Divergence
 * guard"). st holds the step's solver status. Allocates nothing. */
mcd_status mcd_sim_guard_check(mcd_sim *s, const mcd_step_stats *st);

#endif

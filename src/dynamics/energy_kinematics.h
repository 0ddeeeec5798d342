/* Private: the energy of a configuration whose kinematics are already in
 * the data (energy_kinematics.c), for callers that evaluate it every step
 * (the simulator's divergence guard, src/sim/sim_guard.c). */
#ifndef MCDYN_SRC_DYNAMICS_ENERGY_KINEMATICS_H
#define MCDYN_SRC_DYNAMICS_ENERGY_KINEMATICS_H

#include "mcdyn/dynamics.h"

/* Kinetic energy T = 1/2 sum_k V_k^T M_k V_k of the generalized velocities
 * qd and potential energy U = -sum_k m_k g . c_k (zero at the world origin)
 * at the configuration of the last kinematics pass in d (X_world, hinge maps
 * and world inertias, as left by mcd_forward_kinematics or any dynamics
 * function of that configuration), which are not recomputed: one velocity
 * sweep for T, one pass over the centres of mass for U, as mcd_energy gives
 * after its kinematics. Leaves the body velocities of qd in d. kinetic (then
 * qd) or potential may be NULL to skip that part. Allocates nothing. */
void mcd_energy_of_kinematics(const mcd_model *m, mcd_data *d, const double *qd, double *kinetic,
                              double *potential);

/* T = 1/2 sum_k V_k^T M_k V_k of the body velocities V_k already in d
 * (bd[k].V, with the world inertias of the same kinematics), without a
 * velocity sweep: the kinetic energy of the qd of the last velocity pass
 * (mcd_energy_of_kinematics's T for that qd, the same sum). */
double mcd_kinetic_energy_of_velocities(const mcd_model *m, const mcd_data *d);

#endif

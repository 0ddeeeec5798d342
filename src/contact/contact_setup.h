/* Private: the contact set-up for a caller that has already made the
 * kinematics of the set-up's configuration in the data (the simulator,
 * whose contact detection needs them first; src/sim/sim.c). */
#ifndef MCDYN_SRC_CONTACT_SETUP_H
#define MCDYN_SRC_CONTACT_SETUP_H

#include "mcdyn/contact.h"

/* mcd_contact_setup (contact.h), the same workspace bit for bit, without
 * the kinematics pass of q when kinematics_done: d must then hold the
 * kinematics of q (mcd_forward_kinematics(m, d, q) or any dynamics
 * function of q, and nothing of another configuration since); q itself is
 * then neither read nor checked. kinematics_done = 0 with kinetic = NULL
 * is mcd_contact_setup. kinetic (may be NULL) receives the kinetic energy
 * T(q, qd) = 1/2 sum_k V_k^T M_k V_k of the body velocities of qd that the
 * free motion's velocity pass makes (and the pre-step row velocities nu-
 * are taken from; the simulator's divergence guard, src/sim/sim_guard.c).
 * Allocates nothing beyond mcd_contact_setup. */
mcd_status mcd_contact_setup_at(const mcd_model *m, mcd_data *d, mcd_contact_ws *w, const double *q,
                                const double *qd, const double *tau, double dt, int nc,
                                const mcd_contact_point *c, const mcd_contact_options *opt,
                                int kinematics_done, double *kinetic);

#endif

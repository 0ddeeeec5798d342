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
 * then neither read nor checked. kinematics_done = 0 is mcd_contact_setup.
 * Either way its last velocity pass is of qd: on return the body
 * velocities in d (bd[k].V) are those of qd at q, as mcd_body_velocities
 * leaves them (the simulator's divergence guard takes T(q, qd) from them,
 * src/sim/sim_guard.c). Allocates nothing beyond mcd_contact_setup. */
mcd_status mcd_contact_setup_at(const mcd_model *m, mcd_data *d, mcd_contact_ws *w, const double *q,
                                const double *qd, const double *tau, double dt, int nc,
                                const mcd_contact_point *c, const mcd_contact_options *opt,
                                int kinematics_done);

#endif

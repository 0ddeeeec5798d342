/* Private: the position step's start with the velocity step's resolution
 * (the simulator, src/sim/sim_correction.c). */
#ifndef MCDYN_SRC_CONTACT_CORRECTION_H
#define MCDYN_SRC_CONTACT_CORRECTION_H

#include "mcdyn/contact.h"

/* mcd_contact_correction_begin (contact.h) where a group is corrected only
 * when one of its contacts penetrates deeper than dt tol |q_g|: the depth
 * the step's velocity solve, accepted at the error measure tol relative to
 * the group's problem vector q_g, may leave within the step
 * (docs/contact.md, "Split correction", the band). tol = 0 is
 * mcd_contact_correction_begin (every penetration); tol < 0 or NaN is
 * MCD_ERR_ARG. */
mcd_status mcd_contact_correction_begin_within(const mcd_model *m, mcd_data *d, mcd_contact_ws *w,
                                               const double *qd_plus, const mcd_contact_point *c,
                                               double tol, int *needed);

#endif

/* The recorded state of a trajectory CSV (the runner's contract,
 * include/mcdyn/runner.h) for `mcdyn draw --trajectory`. */
#ifndef MCDYN_TOOLS_DRAW_TRAJECTORY_H
#define MCDYN_TOOLS_DRAW_TRAJECTORY_H

#include <stddef.h>

#include "mcdyn/dynamics.h"

/* q (nq) of the row of the CSV at path whose t is nearest to time (*t_row
 * gets that t): one-coordinate joints from their <joint>.q columns, free
 * and spherical joints from their body's pose columns (centre of mass and
 * orientation), relative to the parent's recorded pose. d is scratch for
 * the kinematics. Returns 0, or 1 with a message naming the file, the line
 * or the missing column. */
int draw_trajectory_state(const mcd_model *m, mcd_data *d, const char *path, double time, double *q,
                          double *t_row, char *msg, size_t msglen);

#endif

/* The summary of a sweep as an HDF5 file (Debian's libhdf5, as the
 * trajectory log of log.h), for readers that want arrays: the group
 * /summary holds one dataset per summary column, in case order, named as
 * the column ('/' written '_'): float64 [ncase] where every row holds a
 * number (an empty field is NaN), float64 [ncase x n] for q_final and
 * qd_final when every case has n numbers, else variable-length strings.
 * The root attribute "sweep" is the summary's identity line. Written all
 * or nothing (a temporary file renamed), from one thread: the library is
 * serial. */
#ifndef MCDYN_TOOLS_SWEEP_SUMMARY_H5_H
#define MCDYN_TOOLS_SWEEP_SUMMARY_H5_H

#include <stddef.h>

#include "sweep_summary.h"

/* Writes every row of s (all run) to path. Returns 0, or -1 with msg. */
int sweep_summary_h5(const sweep_summary *s, const char *path, char *msg, size_t len);

#endif

/* One case of a sweep run to its end, summarised as one CSV row.
 *
 * The row's columns (sweep_run_header): case, the varied paths' values,
 * completed (1 when every step of the duration ran), status ("ok" or the
 * mcd_status text of the first error), message, steps, t_end (simulated
 * time reached [s]), solver_failures, then <column>.final, .min, .max for
 * each recorded CSV column, q_final and qd_final (the final state, numbers
 * separated by spaces), and last wall (the case's seconds, loading
 * included), step_wall (seconds in steps) and cpu (the CPU seconds of the
 * thread that ran the case, over the same span as wall). Every column but
 * the last three depends on the sweep file only. A case that fails (bad value,
 * rejected model, failed step) is a row with its status and message. */
#ifndef MCDYN_TOOLS_SWEEP_RUN_H
#define MCDYN_TOOLS_SWEEP_RUN_H

#include <pthread.h>
#include <stdio.h>

#include "sweep_case.h"

/* What the runs of one sweep share. */
typedef struct sweep_run_shared {
    const sweep_spec *sp;
    /* Held around every HDF5 call (Debian's libhdf5 is serial) and every
     * file creation (atomic_file_open sets the process's umask to 0 for a
     * moment to read it: a file created meanwhile by another thread would
     * get no umask). */
    pthread_mutex_t *io_lock;
} sweep_run_shared;

/* The header line (without newline) of the summary. */
void sweep_run_header(const sweep_spec *sp, FILE *out);

/* Runs case c and returns its row (without newline; free with free);
 * *completed is 1 when every step ran. Aborts only without memory. */
char *sweep_run_case(const sweep_run_shared *sh, const sweep_case *c, int *completed);

#endif

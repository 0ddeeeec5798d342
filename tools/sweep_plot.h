/* A picture of a finished sweep (gnuplot through plot.h, no shell): one
 * summary column against the first grid axis (numbers), one line per value
 * of the second grid axis (if any); each point is the mean over the random
 * samples of that grid point (and over further grid axes), or, with a threshold, the fraction of
 * them whose value is above it ("success rate": a failed case, with no value, counts as a failure).
 */
#ifndef MCDYN_TOOLS_SWEEP_PLOT_H
#define MCDYN_TOOLS_SWEEP_PLOT_H

#include <stddef.h>

#include "sweep_summary.h"

typedef struct sweep_plot_options {
    const char *png;    /* the picture */
    const char *column; /* the summary column plotted (e.g. base.qw.final) */
    int has_above;
    double above; /* with has_above: the fraction of samples above it */
} sweep_plot_options;

/* Checks o against the sweep before it runs: 0, or -1 with msg. */
int sweep_plot_check(const sweep_spec *sp, const sweep_plot_options *o, char *msg, size_t len);
/* Draws the finished summary s. Returns 0, or -1 with the reason in msg
 * (no grid axis, a non-numeric axis, an unknown column, gnuplot failing). */
int sweep_plot(const sweep_summary *s, const sweep_plot_options *o, char *msg, size_t len);

#endif

/* The costs of a sweep's cases measured by an earlier run, to hand the
 * costly cases out first (--costs, docs/scale-out.md, "Order of the
 * cases").
 *
 * On two workers the shuffled order loses when a case that costs a large
 * part of the sweep comes late: the other worker runs out of cases while it
 * runs. A sweep is often run again (another build, a changed solver
 * setting), and the summary of the earlier run holds each case's cost (its
 * cpu column, or wall in summaries without it). Handing out the costliest
 * first is Graham's LPT rule (Graham 1969, "Bounds on multiprocessing
 * timing anomalies"): within 4/3 - 1/(3m) of the best makespan on m
 * workers when the costs are right. Costs only order the cases: rows and
 * summaries do not depend on them. */
#ifndef MCDYN_TOOLS_SWEEP_COSTS_H
#define MCDYN_TOOLS_SWEEP_COSTS_H

#include <stddef.h>

#include "sweep_spec.h"

/* Reads the summary (or journal) at path of a sweep with as many cases as
 * sp into cost (sp->ncase entries): each row's cpu (wall without it) by
 * case number, NaN for the cases it lacks. Returns 0, or -1 with the
 * reason in msg. */
int sweep_costs_read(const sweep_spec *sp, const char *path, double *cost, char *msg, size_t len);

#endif

/* The overrides of one case of a sweep (tools/sweep_spec.h): the shared
 * ones, then a value for each grid axis, then a draw of each random
 * variable.
 *
 * Random draws come from a counter-based generator: the value of variable
 * k in sample j is a hash of (seed, j, k) (SplitMix64), uniform on [a, b)
 * or normal by Box and Muller, written with 17 significant digits. A case's
 * values therefore depend on the sweep file only, never on which thread or
 * rank runs it, nor on the cases run before it. */
#ifndef MCDYN_TOOLS_SWEEP_CASE_H
#define MCDYN_TOOLS_SWEEP_CASE_H

#include "sweep_spec.h"

#define SWEEP_NUMBER_LEN 32

typedef struct sweep_case {
    long index;
    mcd_scenario_override *ov; /* nset shared, then naxis + nrandom varied */
    int nov;
    char (*number)[SWEEP_NUMBER_LEN]; /* the random values' text */
} sweep_case;

/* Room for the overrides of any case of sp (aborts without memory). */
void sweep_case_init(const sweep_spec *sp, sweep_case *c);
/* The overrides of case index (0 <= index < sp->ncase). */
void sweep_case_fill(const sweep_spec *sp, long index, sweep_case *c);
void sweep_case_free(sweep_case *c);

/* The text of varied value k of the filled case. */
static inline const char *sweep_case_varied(const sweep_spec *sp, const sweep_case *c, int k)
{
    return c->ov[sp->nset + k].value;
}

#endif

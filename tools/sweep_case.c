/* The overrides of a sweep's case (tools/sweep_case.h). */
#include "sweep_case.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SplitMix64's output function (Steele, Lea and Flood 2014). */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Uniform on [0, 1) with 53 random bits: stream `which` of variable k in
 * sample j. */
static double uniform01(uint64_t seed, long j, int k, int which)
{
    uint64_t h = mix(mix(mix(seed) ^ (uint64_t)j) ^ (uint64_t)(2 * k + which));
    return (double)(h >> 11) * 0x1p-53;
}

static double draw(const sweep_random *x, uint64_t seed, long j, int k)
{
    const double u = uniform01(seed, j, k, 0);
    if (x->dist == SWEEP_UNIFORM) return x->a + (x->b - x->a) * u;
    /* Box-Muller: sqrt(-2 ln u1) cos(2 pi u2), u1 in (0, 1]. */
    const double u1 = 1.0 - u, u2 = uniform01(seed, j, k, 1);
    return x->a + x->b * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

void sweep_case_init(const sweep_spec *sp, sweep_case *c)
{
    c->nov = sp->nset + sp->naxis + sp->nrandom;
    c->ov = calloc((size_t)c->nov + 1, sizeof *c->ov);
    c->number = calloc((size_t)sp->nrandom + 1, sizeof *c->number);
    if (!c->ov || !c->number) abort(); /* the command cannot go on without memory */
    for (int i = 0; i < sp->nset; i++) c->ov[i] = sp->set[i];
    for (int k = 0; k < sp->naxis + sp->nrandom; k++)
        c->ov[sp->nset + k].path = sweep_spec_varied_path(sp, k);
}

void sweep_case_fill(const sweep_spec *sp, long index, sweep_case *c)
{
    long point = index / sp->samples, j = index % sp->samples;
    c->index = index;
    for (int k = sp->naxis - 1; k >= 0; k--) {
        const sweep_axis *a = &sp->axis[k];
        c->ov[sp->nset + k].value = a->value[point % a->nvalue];
        point /= a->nvalue;
    }
    for (int k = 0; k < sp->nrandom; k++) {
        snprintf(c->number[k], SWEEP_NUMBER_LEN, "%.17g", draw(&sp->random[k], sp->seed, j, k));
        c->ov[sp->nset + sp->naxis + k].value = c->number[k];
    }
}

void sweep_case_free(sweep_case *c)
{
    free(c->ov);
    free(c->number);
    memset(c, 0, sizeof *c);
}

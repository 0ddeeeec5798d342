/* The scaling row of `mcdyn bench dynamics` (bench_dynamics_scaling.h). */
#include "bench_dynamics_scaling.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench_dynamics_peers.h"
#include "bench_timer.h"
#include "chain_model.h"
#include "mcdyn/dynamics.h"

#define SHORT_CHAIN 100
#define LONG_CHAIN  1000

/* One chain, its workspace and a random state. */
typedef struct chain_case {
    mcd_model *m;
    mcd_data *d;
    double *q, *qd, *qdd, *tau;
} chain_case;

static void case_free(chain_case *c)
{
    mcd_data_free(c->d);
    mcd_model_free(c->m);
    free(c->q);
}

static int case_make(chain_case *c, int n)
{
    mcd_error err = {0};
    if (chain_model_make(n, &c->m, &err) != MCD_OK || mcd_data_create(c->m, &c->d, &err)) {
        fprintf(stderr, "mcdyn bench dynamics: chain N=%d: %s\n", n, err.msg);
        return 1;
    }
    c->q = malloc(sizeof(double) * (size_t)(c->m->nq + 3 * c->m->nv));
    if (!c->q) return 1;
    c->qd = c->q + c->m->nq, c->qdd = c->qd + c->m->nv, c->tau = c->qdd + c->m->nv;
    return bench_random_state(c->m, c->q, c->qd, c->qdd, c->tau) != MCD_OK;
}

/* One forward-dynamics call of the chain (bench_call). */
static int call_forward(void *ctx)
{
    chain_case *c = ctx;
    return mcd_forward_dynamics(c->m, c->d, c->q, c->qd, c->tau, NULL, c->qdd) != MCD_OK;
}

int bench_dynamics_scaling(int samples)
{
    printf("\nscaling: forward dynamics of the revolute chain, N=%d against N=%d, timed in %d\n"
           "interleaved pairs (one sample of each, >= 1 ms, alternated); ratio = t(%d) / t(%d)\n"
           "per pair, median [min, max] over the pairs (issue 17's linear-scaling goal, <= 11x,\n"
           "is read from this row).\n\n",
           LONG_CHAIN, SHORT_CHAIN, samples, LONG_CHAIN, SHORT_CHAIN);
    printf("%-8s %27s %27s %27s\n", "quantity", "N=100_us", "N=1000_us", "ratio");
    chain_case c[2] = {{0}, {0}};
    bench_spread t_short, t_long, ratio;
    int failed = case_make(&c[0], SHORT_CHAIN) || case_make(&c[1], LONG_CHAIN) ||
                 bench_time_pair_us(call_forward, &c[1], call_forward, &c[0], samples, &t_long,
                                    &t_short, &ratio);
    if (failed)
        printf("fwd.dyn  a call failed: %s\n", c[1].d ? mcd_data_error(c[1].d) : "no workspace");
    else
        printf("%-8s %9.3f [%7.3f, %7.3f] %9.3f [%7.3f, %7.3f] %9.2f [%7.2f, %7.2f]\n", "fwd.dyn",
               t_short.median, t_short.min, t_short.max, t_long.median, t_long.min, t_long.max,
               ratio.median, ratio.min, ratio.max);
    case_free(&c[0]);
    case_free(&c[1]);
    return failed;
}

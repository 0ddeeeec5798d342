/* The scaling row of `mcdyn bench dynamics` (bench_dynamics_scaling.h). */
#include "bench_dynamics_scaling.h"

#include <stdio.h>
#include <stdlib.h>

#include "../src/base/clock.h"
#include "bench_dynamics_peers.h"
#include "chain_model.h"
#include "mcdyn/dynamics.h"

#define SHORT_CHAIN    100
#define LONG_CHAIN     1000
#define SAMPLE_SECONDS 0.001
#define WARMUP_SECONDS 0.02

/* One chain, its workspace and a random state. */
typedef struct chain_case {
    mcd_model *m;
    mcd_data *d;
    double *q, *qd, *qdd, *tau;
    long calls; /* per sample */
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

/* Microseconds per call over c->calls calls, negative if a call fails. */
static double sample_us(chain_case *c)
{
    const double t0 = mcd_clock_seconds();
    for (long i = 0; i < c->calls; i++)
        if (mcd_forward_dynamics(c->m, c->d, c->q, c->qd, c->tau, NULL, c->qdd) != MCD_OK)
            return -1.0;
    return 1e6 * (mcd_clock_seconds() - t0) / (double)c->calls;
}

/* Warms up and sets c->calls so that a sample lasts >= SAMPLE_SECONDS. */
static int calibrate(chain_case *c)
{
    double total = 0.0, us = 0.0;
    for (c->calls = 1; total < WARMUP_SECONDS || us * 1e-6 * (double)c->calls < SAMPLE_SECONDS;) {
        us = sample_us(c);
        if (us < 0) return 1;
        total += us * 1e-6 * (double)c->calls;
        if (us * 1e-6 * (double)c->calls < SAMPLE_SECONDS) c->calls *= 2;
    }
    return 0;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Prints median [min, max] of t (sorted in place). */
static void print_spread(double *t, int n, const char *format)
{
    qsort(t, (size_t)n, sizeof *t, compare_doubles);
    const double median = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    printf(format, median, t[0], t[n - 1]);
}

/* Times the pairs into t (3 x samples: short, long, ratio). */
static int time_pairs(chain_case *c, int samples, double *t)
{
    for (int s = 0; s < samples; s++) {
        t[s] = sample_us(&c[0]);
        t[samples + s] = sample_us(&c[1]);
        if (t[s] < 0 || t[samples + s] < 0) return 1;
        t[2 * samples + s] = t[samples + s] / t[s];
    }
    return 0;
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
    double *t = malloc(sizeof(double) * 3 * (size_t)samples);
    int failed = !t || case_make(&c[0], SHORT_CHAIN) || case_make(&c[1], LONG_CHAIN) ||
                 calibrate(&c[0]) || calibrate(&c[1]) || time_pairs(c, samples, t);
    if (failed) {
        printf("fwd.dyn  a call failed: %s\n", c[1].d ? mcd_data_error(c[1].d) : "no workspace");
    } else {
        printf("%-8s", "fwd.dyn");
        for (int i = 0; i < 3; i++)
            print_spread(t + i * samples, samples,
                         i < 2 ? " %9.3f [%7.3f, %7.3f]" : " %9.2f [%7.2f, %7.2f]");
        printf("\n");
    }
    free(t);
    case_free(&c[0]);
    case_free(&c[1]);
    return failed;
}

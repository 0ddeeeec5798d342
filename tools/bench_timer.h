/* Time per call of a function, for the benchmarks, and the machine they
 * ran on. */
#ifndef MCDYN_TOOLS_BENCH_TIMER_H
#define MCDYN_TOOLS_BENCH_TIMER_H

#include <stdio.h>

/* The function under test; returns nonzero on failure (the timing stops). */
typedef int (*bench_call)(void *ctx);

/* Microseconds per call over the samples of one measurement. */
typedef struct bench_spread {
    double min, median, max;
} bench_spread;

/* Times `samples` samples (CLOCK_MONOTONIC) into *out. After a warm-up of
 * at least 20 ms, the calls are batched so that each sample lasts at least
 * 1 ms; each sample gives the mean time per call of its batch. Returns 0,
 * or -1 if a call fails or memory runs out. */
int bench_time_us(bench_call call, void *ctx, int samples, bench_spread *out);

/* Times a and b in interleaved samples: one sample of a, then one of b,
 * `samples` times (each calibrated as in bench_time_us), so that a drift
 * of the machine's speed during the measurement moves both alike. *out_a
 * and *out_b as bench_time_us; *ratio the min, median and max of the
 * per-pair ratios t_a / t_b. Returns 0, or -1 if a call fails or memory
 * runs out. */
int bench_time_pair_us(bench_call a, void *ctx_a, bench_call b, void *ctx_b, int samples,
                       bench_spread *out_a, bench_spread *out_b, bench_spread *ratio);

/* Prints the CPU model (/proc/cpuinfo), the compiler and the flags this
 * program was built with (the library shares the project's flags), and
 * the load average, one per line, each starting with prefix. */
void bench_print_machine(FILE *out, const char *prefix);

#endif

/* Median time per call of a function, for the benchmarks. */
#ifndef MCDYN_TOOLS_BENCH_TIMER_H
#define MCDYN_TOOLS_BENCH_TIMER_H

/* The function under test; returns nonzero on failure (the timing stops). */
typedef int (*bench_call)(void *ctx);

/* Median microseconds per call over `samples` samples (CLOCK_MONOTONIC).
 * After a warm-up of at least 20 ms, the calls are batched so that each
 * sample lasts at least 1 ms. Returns a negative value if a call fails. */
double bench_median_us(bench_call call, void *ctx, int samples);

#endif

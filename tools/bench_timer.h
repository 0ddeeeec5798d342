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

/* Prints the CPU model (/proc/cpuinfo), the compiler and the flags this
 * program was built with (the library shares the project's flags), and
 * the load average, one per line, each starting with prefix. */
void bench_print_machine(FILE *out, const char *prefix);

#endif

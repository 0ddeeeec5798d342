/* The scaling row of `mcdyn bench dynamics`: forward dynamics of the
 * revolute chain at N = 1000 against N = 100, timed interleaved. */
#ifndef MCDYN_TOOLS_BENCH_DYNAMICS_SCALING_H
#define MCDYN_TOOLS_BENCH_DYNAMICS_SCALING_H

/* Prints the row: t(100), t(1000) and the ratio t(1000) / t(100), each as
 * median [min, max] over `samples` pairs. A pair is one sample of N = 1000
 * and one of N = 100 (each a batch of >= 1 ms; bench_time_pair_us,
 * bench_timer.h), so slow drifts of the
 * machine's speed hit both sides of a ratio; the ratio's spread is that of
 * the per-pair ratios. Returns 0, or 1 when a call fails. */
int bench_dynamics_scaling(int samples);

#endif

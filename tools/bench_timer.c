/* Median time per call of a function (bench_timer.h). */
#include "bench_timer.h"

#include <stdlib.h>
#include <time.h>

#define WARMUP_SECONDS 0.02
#define SAMPLE_SECONDS 0.001

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Seconds taken by `calls` calls, negative if one fails. */
static double run_batch(bench_call call, void *ctx, long calls)
{
    double t0 = now_seconds();
    for (long i = 0; i < calls; i++)
        if (call(ctx) != 0) return -1.0;
    return now_seconds() - t0;
}

/* Warms up and returns the batch size for one sample (0 on failure). */
static long calibrate(bench_call call, void *ctx)
{
    long calls = 1;
    double elapsed = 0.0, total = 0.0;
    while (total < WARMUP_SECONDS || elapsed < SAMPLE_SECONDS) {
        elapsed = run_batch(call, ctx, calls);
        if (elapsed < 0) return 0;
        total += elapsed;
        if (elapsed < SAMPLE_SECONDS) calls *= 2;
    }
    return calls;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Fills t with `samples` per-call times [us]; returns 0, or -1 on failure. */
static int take_samples(bench_call call, void *ctx, long calls, int samples, double *t)
{
    for (int n = 0; n < samples; n++) {
        double seconds = run_batch(call, ctx, calls);
        if (seconds < 0) return -1;
        t[n] = 1e6 * seconds / (double)calls;
    }
    return 0;
}

double bench_median_us(bench_call call, void *ctx, int samples)
{
    long calls = calibrate(call, ctx);
    double *t = malloc(sizeof(double) * (size_t)samples);
    double median = -1.0;
    if (calls > 0 && t && take_samples(call, ctx, calls, samples, t) == 0) {
        qsort(t, (size_t)samples, sizeof *t, compare_doubles);
        int h = samples / 2;
        median = samples % 2 ? t[h] : 0.5 * (t[h - 1] + t[h]);
    }
    free(t);
    return median;
}

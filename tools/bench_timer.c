/* Time per call of a function, and the machine (bench_timer.h). */
#include "../src/base/clock.h"
#include "bench_timer.h"

#include <stdlib.h>
#include <string.h>

#define WARMUP_SECONDS 0.02
#define SAMPLE_SECONDS 0.001

/* Seconds taken by `calls` calls, negative if one fails. */
static double run_batch(bench_call call, void *ctx, long calls)
{
    double t0 = mcd_clock_seconds();
    for (long i = 0; i < calls; i++)
        if (call(ctx) != 0) return -1.0;
    return mcd_clock_seconds() - t0;
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

/* min, median and max of the n values of t (sorted in place). */
static bench_spread spread_of(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, compare_doubles);
    const int h = n / 2;
    return (bench_spread){t[0], n % 2 ? t[h] : 0.5 * (t[h - 1] + t[h]), t[n - 1]};
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

int bench_time_us(bench_call call, void *ctx, int samples, bench_spread *out)
{
    long calls = calibrate(call, ctx);
    double *t = malloc(sizeof(double) * (size_t)samples);
    int failed = calls <= 0 || !t || take_samples(call, ctx, calls, samples, t) != 0;
    if (!failed) *out = spread_of(t, samples);
    free(t);
    return failed ? -1 : 0;
}

int bench_time_pair_us(bench_call a, void *ctx_a, bench_call b, void *ctx_b, int samples,
                       bench_spread *out_a, bench_spread *out_b, bench_spread *ratio)
{
    const long calls_a = calibrate(a, ctx_a), calls_b = calibrate(b, ctx_b);
    double *t = malloc(sizeof(double) * 3 * (size_t)samples);
    int failed = calls_a <= 0 || calls_b <= 0 || !t;
    for (int n = 0; !failed && n < samples; n++) {
        failed = take_samples(a, ctx_a, calls_a, 1, t + n) != 0 ||
                 take_samples(b, ctx_b, calls_b, 1, t + samples + n) != 0;
        if (!failed) t[2 * samples + n] = t[n] / t[samples + n];
    }
    if (!failed) {
        *out_a = spread_of(t, samples);
        *out_b = spread_of(t + samples, samples);
        *ratio = spread_of(t + 2 * samples, samples);
    }
    free(t);
    return failed ? -1 : 0;
}

/* The value of the first "key : value" line of a /proc file, or "unknown". */
static void proc_value(const char *file, const char *key, char *value, size_t len)
{
    char line[512];
    FILE *f = fopen(file, "r");
    snprintf(value, len, "unknown");
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, key, strlen(key)) != 0 || !colon) continue;
        colon += 1 + (colon[1] == ' ');
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(value, len, "%s", colon);
        break;
    }
    if (f) fclose(f);
}

void bench_print_machine(FILE *out, const char *prefix)
{
    char cpu[256], load[128] = "unknown";
    proc_value("/proc/cpuinfo", "model name", cpu, sizeof cpu);
    FILE *f = fopen("/proc/loadavg", "r");
    if (f && fgets(load, sizeof load, f)) load[strcspn(load, "\n")] = '\0';
    if (f) fclose(f);
    fprintf(out, "%scpu: %s\n", prefix, cpu);
#if defined(__clang__)
    fprintf(out, "%scompiler: clang %s\n", prefix, __clang_version__);
#elif defined(__GNUC__)
    fprintf(out, "%scompiler: gcc %s\n", prefix, __VERSION__);
#endif
    fprintf(out, "%sflags: optimization %s, assertions %s, AVX2 %s, FMA %s\n", prefix,
#if defined(__OPTIMIZE__)
            "on",
#else
            "off",
#endif
#if defined(NDEBUG)
            "off",
#else
            "on",
#endif
#if defined(__AVX2__)
            "on",
#else
            "off",
#endif
#if defined(__FMA__)
            "on"
#else
            "off"
#endif
    );
    fprintf(out, "%sload average (1, 5, 15 min; runnable/total; last pid): %s\n", prefix, load);
}

/* Does a second busy worker slow this machine's first? A fixed amount of
 * work, run by one worker, by two threads at once and by two processes at
 * once, and the CPU seconds each worker used (CLOCK_THREAD_CPUTIME_ID), so
 * that the answer holds under other users' load: CPU time is what the
 * work cost, not how long it waited for a core (docs/performance.md,
 * "Sweeps", session 9).
 *
 * The kinds of work:
 *   latency     a chain of dependent multiply-adds (registers only)
 *   throughput  16 independent chains (the vector units kept busy: halved
 *               if the two vCPUs were hyperthreads of one core)
 *   l2, l3, mem a random cyclic walk (Sattolo's permutation) over 512 kB,
 *               8 MB and 256 MB: each load waits for the one before
 *
 *   build-test/tools/sweep-contention KIND ITERATIONS solo|threads|processes
 * Built by meson (not installed): a measuring aid, not part of mcdyn. The
 * session 9 figures were taken with a hand build of the same file
 * (cc -O2 -march=native -pthread). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *kind;
static long iterations;
static volatile double sink; /* keeps the results alive */

static double seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double dependent_chain(long n)
{
    double x = 1.0;
    for (long i = 0; i < n; i++) x = x * 0.9999999 + 1e-9;
    return x;
}

static double independent_chains(long n)
{
    double a[16], sum = 0;
    for (int k = 0; k < 16; k++) a[k] = k;
    for (long i = 0; i < n; i++)
        for (int k = 0; k < 16; k++) a[k] = a[k] * 0.9999999 + 1e-9;
    for (int k = 0; k < 16; k++) sum += a[k];
    return sum;
}

/* n steps of a walk over a single cycle through bytes of memory; the CPU
 * seconds of the walk alone (not of making the cycle). */
static double walk(long n, size_t bytes)
{
    const size_t m = bytes / sizeof(size_t);
    size_t *next = malloc(m * sizeof *next);
    if (!next) abort();
    for (size_t i = 0; i < m; i++) next[i] = i;
    uint64_t s = 88172645463325252u; /* xorshift64 (Marsaglia 2003) */
    for (size_t i = m - 1; i > 0; i--) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        size_t j = s % i, t = next[i]; /* Sattolo: j < i, one cycle */
        next[i] = next[j], next[j] = t;
    }
    const double t0 = seconds(CLOCK_THREAD_CPUTIME_ID);
    size_t k = 0;
    for (long i = 0; i < n; i++) k = next[k];
    sink = (double)k;
    free(next);
    return seconds(CLOCK_THREAD_CPUTIME_ID) - t0;
}

/* The CPU seconds of one worker's work. */
static double work(void)
{
    const double t0 = seconds(CLOCK_THREAD_CPUTIME_ID);
    if (!strcmp(kind, "latency"))
        sink = dependent_chain(iterations);
    else if (!strcmp(kind, "throughput"))
        sink = independent_chains(iterations);
    else if (!strcmp(kind, "l2"))
        return walk(iterations, 512u << 10);
    else if (!strcmp(kind, "l3"))
        return walk(iterations, 8u << 20);
    else if (!strcmp(kind, "mem"))
        return walk(iterations, 256u << 20);
    else {
        fprintf(stderr, "unknown kind %s\n", kind);
        exit(2);
    }
    return seconds(CLOCK_THREAD_CPUTIME_ID) - t0;
}

static void *thread_work(void *cpu)
{
    *(double *)cpu = work();
    return NULL;
}

static void two_threads(double cpu[2])
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        if (pthread_create(&t[i], NULL, thread_work, &cpu[i])) abort();
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
}

static void two_processes(double cpu[2])
{
    int fd[2];
    if (pipe(fd)) abort();
    for (int i = 0; i < 2; i++)
        if (fork() == 0) {
            const double c = work();
            _exit(write(fd[1], &c, sizeof c) == sizeof c ? 0 : 1);
        }
    for (int i = 0; i < 2; i++)
        if (read(fd[0], &cpu[i], sizeof cpu[i]) != sizeof cpu[i]) abort();
    while (wait(NULL) > 0) continue;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s KIND ITERATIONS solo|threads|processes\n", argv[0]);
        return 2;
    }
    kind = argv[1], iterations = atol(argv[2]);
    const double w0 = seconds(CLOCK_MONOTONIC);
    double cpu[2] = {0, 0};
    if (!strcmp(argv[3], "threads"))
        two_threads(cpu);
    else if (!strcmp(argv[3], "processes"))
        two_processes(cpu);
    else
        cpu[0] = work();
    printf("%-10s %-9s cpu %.3f", kind, argv[3], cpu[0]);
    if (cpu[1] > 0) printf(" %.3f", cpu[1]);
    printf("  wall %.3f\n", seconds(CLOCK_MONOTONIC) - w0);
    return 0;
}

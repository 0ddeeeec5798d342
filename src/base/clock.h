/* The monotonic clock of the library's timings (private, not installed):
 * solver statistics (mcd_solver_stats.seconds and its kin) and the
 * simulator's time split. Wall time of the calling thread's process, never
 * set back (CLOCK_MONOTONIC). */
#ifndef MCDYN_BASE_CLOCK_H
#define MCDYN_BASE_CLOCK_H

#include <time.h>

/* Seconds since an arbitrary fixed point. */
static inline double mcd_clock_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif

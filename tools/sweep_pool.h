/* The cases of a sweep handed out as they are asked for: one at a time to
 * the threads of a pool on this process (--jobs N) and, under MPI, a few
 * at a time to the other ranks (sweep_mpi.h). Whoever finishes a case
 * takes the next one, so slow cases do not idle the others. The rows go
 * into the summary as they come.
 *
 * The cases are handed out in a shuffled order (a fixed permutation seeded
 * by the sweep's fingerprint), not in case order: the cost of a case
 * follows its parameters, and in case order the costly corner of a grid
 * (e.g. the largest friction coefficients, where a robot's drop ends on
 * its trunk) comes last, where one long case leaves the other threads
 * idle (docs/scale-out.md, "Order of the cases"). Given the cases' costs
 * measured by an earlier run (tools/sweep_costs.h), the costliest go first
 * instead, and those of unknown cost before them. The rows, and so the
 * summary, do not depend on the order. */
#ifndef MCDYN_TOOLS_SWEEP_POOL_H
#define MCDYN_TOOLS_SWEEP_POOL_H

#include <pthread.h>

#include "sweep_run.h"
#include "sweep_summary.h"

/* The most threads of one process (--jobs). */
#define SWEEP_MAX_JOBS 1024

typedef struct sweep_queue {
    pthread_mutex_t lock;
    sweep_summary *summary;
    long *pending;      /* the cases not in the summary yet, in hand-out order */
    double *weight;     /* their expected costs (1 each without --costs) */
    double weight_left; /* of pending[next] on */
    long npending, next;
    long failed; /* rows whose case did not complete */
    int error;   /* the journal could not be written: no case is handed out any more */
    char msg[512];
    int progress; /* 1: a line per finished case on standard error */
} sweep_queue;

/* The queue of the cases missing from summary; cost (NULL, or one per
 * case, NaN where unknown) orders them. */
void sweep_queue_init(sweep_queue *q, sweep_summary *summary, int progress, const double *cost);
void sweep_queue_free(sweep_queue *q);
/* The next case to run, or -1 when none is left (or after an error). */
long sweep_queue_take(sweep_queue *q);
/* Up to max next cases into cases, for one of the sweep's threads threads
 * (all ranks): guided self-scheduling, the next cases as long as their
 * expected cost is at most 1 / (2 threads) of what is left (at least one
 * case), so that chunks are large while many cases are left (few
 * messages) and single cases at the end (the ranks finish together).
 * Without costs (each 1) that is max(1, R / (2 threads)) of the R cases
 * left; with them, the costliest cases, first in the queue, go one by one
 * instead of in one rank's chunk. Returns their number, 0 when none is
 * left (or after an error). */
long sweep_queue_take_guided(sweep_queue *q, int threads, long *cases, long max);
/* Records the row (taken over) of case index; completed is 1 when the case
 * ran to its end. */
void sweep_queue_deliver(sweep_queue *q, long index, char *row, int completed);

/* Where a pool's threads take their cases and leave their rows: rank 0's
 * queue (sweep_queue_feed) or, on the other ranks, the cases rank 0 sent
 * them (sweep_mpi.c). take returns the next case, or -1 when none is left;
 * deliver takes over the row; both are called from the pool's threads. */
typedef struct sweep_feed {
    long (*take)(void *ctx);
    void (*deliver)(void *ctx, long index, char *row, int completed);
    void *ctx;
} sweep_feed;

/* The feed of the queue q. */
sweep_feed sweep_queue_feed(sweep_queue *q);

typedef struct sweep_pool {
    pthread_t *thread;
    int nthread;
    sweep_feed feed;
    const sweep_run_shared *sh;
} sweep_pool;

/* Starts jobs threads running cases from feed until it has none left.
 * Returns 0, or -1 when no thread could be started. */
int sweep_pool_start(sweep_pool *p, sweep_feed feed, const sweep_run_shared *sh, int jobs);
/* Waits for the threads to finish. */
void sweep_pool_join(sweep_pool *p);

#endif

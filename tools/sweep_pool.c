/* The queue of cases and the thread pool (tools/sweep_pool.h). */
#include "sweep_pool.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64 (Steele, Lea, Flood 2014): the next number of the sequence
 * whose state is *x. */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Puts the n cases in the order of a Fisher-Yates shuffle seeded by seed. */
static void shuffle(long *cases, long n, uint64_t seed)
{
    for (long k = n - 1; k > 0; k--) {
        long j = (long)(splitmix64(&seed) % (uint64_t)(k + 1));
        long t = cases[k];
        cases[k] = cases[j];
        cases[j] = t;
    }
}

void sweep_queue_init(sweep_queue *q, sweep_summary *summary, int progress)
{
    memset(q, 0, sizeof *q);
    pthread_mutex_init(&q->lock, NULL);
    q->summary = summary;
    q->progress = progress;
    const long n = summary->sp->ncase;
    q->pending = calloc((size_t)(n - summary->done) + 1, sizeof *q->pending);
    if (!q->pending) abort(); /* the command cannot go on without memory */
    for (long i = 0; i < n; i++)
        if (!summary->row[i]) q->pending[q->npending++] = i;
    shuffle(q->pending, q->npending, summary->sp->fingerprint);
}

void sweep_queue_free(sweep_queue *q)
{
    pthread_mutex_destroy(&q->lock);
    free(q->pending);
}

long sweep_queue_take(sweep_queue *q)
{
    pthread_mutex_lock(&q->lock);
    long i = q->error || q->next >= q->npending ? -1 : q->pending[q->next++];
    pthread_mutex_unlock(&q->lock);
    return i;
}

long sweep_queue_take_guided(sweep_queue *q, int threads, long *cases, long max)
{
    pthread_mutex_lock(&q->lock);
    const long left = q->error ? 0 : q->npending - q->next;
    long n = left / (2L * (threads > 0 ? threads : 1));
    n = n < 1 ? 1 : n > max ? max : n;
    n = n < left ? n : left;
    for (long k = 0; k < n; k++) cases[k] = q->pending[q->next++];
    pthread_mutex_unlock(&q->lock);
    return n;
}

void sweep_queue_deliver(sweep_queue *q, long index, char *row, int completed)
{
    pthread_mutex_lock(&q->lock);
    if (q->error) {
        free(row);
    } else {
        q->failed += !completed;
        q->error = sweep_summary_add(q->summary, index, row, q->msg, sizeof q->msg) != 0;
        if (q->progress)
            fprintf(stderr, "mcdyn sweep: case %ld %s (%ld of %ld done)\n", index,
                    completed ? "completed" : "failed", q->summary->done, q->summary->sp->ncase);
    }
    pthread_mutex_unlock(&q->lock);
}

static long queue_take(void *q)
{
    return sweep_queue_take(q);
}

static void queue_deliver(void *q, long index, char *row, int completed)
{
    sweep_queue_deliver(q, index, row, completed);
}

sweep_feed sweep_queue_feed(sweep_queue *q)
{
    return (sweep_feed){queue_take, queue_deliver, q};
}

static void *worker(void *arg)
{
    sweep_pool *p = arg;
    sweep_case c;
    sweep_case_init(p->sh->sp, &c);
    for (long i; (i = p->feed.take(p->feed.ctx)) >= 0;) {
        int completed;
        sweep_case_fill(p->sh->sp, i, &c);
        char *row = sweep_run_case(p->sh, &c, &completed);
        p->feed.deliver(p->feed.ctx, i, row, completed);
    }
    sweep_case_free(&c);
    return NULL;
}

int sweep_pool_start(sweep_pool *p, sweep_feed feed, const sweep_run_shared *sh, int jobs)
{
    p->feed = feed, p->sh = sh, p->nthread = 0;
    p->thread = calloc((size_t)jobs, sizeof *p->thread);
    if (!p->thread) abort(); /* the command cannot go on without memory */
    for (int k = 0; k < jobs; k++)
        if (pthread_create(&p->thread[p->nthread], NULL, worker, p) == 0) p->nthread++;
    return p->nthread > 0 ? 0 : -1;
}

void sweep_pool_join(sweep_pool *p)
{
    for (int k = 0; k < p->nthread; k++) pthread_join(p->thread[k], NULL);
    free(p->thread);
    p->thread = NULL;
}

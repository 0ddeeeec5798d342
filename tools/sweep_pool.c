/* The queue of cases and the thread pool (tools/sweep_pool.h). */
#include "sweep_pool.h"

#include <math.h>
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

/* A case with its cost and its place in the shuffled order. */
typedef struct ranked_case {
    long index, place;
    double cost;
} ranked_case;

/* Unknown costs first, then the costliest; ties in the shuffled order. */
static int costliest_first(const void *pa, const void *pb)
{
    const ranked_case *a = pa, *b = pb;
    const double ka = isnan(a->cost) ? INFINITY : a->cost, kb = isnan(b->cost) ? INFINITY : b->cost;
    if (ka != kb) return ka > kb ? -1 : 1;
    return (a->place > b->place) - (a->place < b->place);
}

/* Puts the n cases, shuffled, in the order of their costs (LPT), and
 * their expected costs into weight: the measured one, else the largest
 * measured (an unknown case may be as costly as any). */
static void order_by_cost(long *cases, double *weight, long n, const double *cost)
{
    ranked_case *r = calloc((size_t)n + 1, sizeof *r);
    if (!r) abort(); /* the command cannot go on without memory */
    double largest = 0;
    for (long k = 0; k < n; k++) {
        r[k] = (ranked_case){cases[k], k, cost[cases[k]]};
        if (r[k].cost > largest) largest = r[k].cost;
    }
    qsort(r, (size_t)n, sizeof *r, costliest_first);
    for (long k = 0; k < n; k++) {
        cases[k] = r[k].index;
        weight[k] = isnan(r[k].cost) ? largest : r[k].cost;
    }
    free(r);
}

void sweep_queue_init(sweep_queue *q, sweep_summary *summary, int progress, const double *cost)
{
    memset(q, 0, sizeof *q);
    pthread_mutex_init(&q->lock, NULL);
    q->summary = summary;
    q->progress = progress;
    const long n = summary->sp->ncase;
    q->pending = calloc((size_t)(n - summary->done) + 1, sizeof *q->pending);
    q->weight = calloc((size_t)(n - summary->done) + 1, sizeof *q->weight);
    if (!q->pending || !q->weight) abort(); /* the command cannot go on without memory */
    for (long i = 0; i < n; i++)
        if (!summary->row[i]) q->weight[q->npending] = 1, q->pending[q->npending++] = i;
    shuffle(q->pending, q->npending, summary->sp->fingerprint);
    if (cost) order_by_cost(q->pending, q->weight, q->npending, cost);
    for (long k = 0; k < q->npending; k++) q->weight_left += q->weight[k];
}

void sweep_queue_free(sweep_queue *q)
{
    pthread_mutex_destroy(&q->lock);
    free(q->pending);
    free(q->weight);
}

/* The next case of the queue (locked, one left). */
static long next_case(sweep_queue *q)
{
    q->weight_left -= q->weight[q->next];
    return q->pending[q->next++];
}

long sweep_queue_take(sweep_queue *q)
{
    pthread_mutex_lock(&q->lock);
    long i = q->error || q->next >= q->npending ? -1 : next_case(q);
    pthread_mutex_unlock(&q->lock);
    return i;
}

long sweep_queue_take_guided(sweep_queue *q, int threads, long *cases, long max)
{
    pthread_mutex_lock(&q->lock);
    const long left = q->error ? 0 : q->npending - q->next;
    const double share = q->weight_left / (2.0 * (threads > 0 ? threads : 1));
    double chunk = 0;
    long n = 0;
    while (n < max && n < left && (n == 0 || chunk + q->weight[q->next] <= share)) {
        chunk += q->weight[q->next];
        cases[n++] = next_case(q);
    }
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

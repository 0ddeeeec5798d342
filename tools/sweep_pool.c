/* The queue of cases and the thread pool (tools/sweep_pool.h). */
#include "sweep_pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void *worker(void *arg)
{
    sweep_pool *p = arg;
    sweep_case c;
    sweep_case_init(p->sh->sp, &c);
    for (long i; (i = sweep_queue_take(p->q)) >= 0;) {
        int completed;
        sweep_case_fill(p->sh->sp, i, &c);
        char *row = sweep_run_case(p->sh, &c, &completed);
        sweep_queue_deliver(p->q, i, row, completed);
    }
    sweep_case_free(&c);
    return NULL;
}

int sweep_pool_start(sweep_pool *p, sweep_queue *q, const sweep_run_shared *sh, int jobs)
{
    p->q = q, p->sh = sh, p->nthread = 0;
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

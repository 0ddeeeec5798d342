/* Sweeps across MPI ranks (tools/sweep_mpi.h). */
#include "sweep_mpi.h"

#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TAG_ROW = 1, TAG_CASE = 2 };
/* The most cases in one chunk message (8 kB). */
enum { CHUNK_MAX = 1024 };

/* How long the main thread of a rank sleeps when nothing is to be done:
 * it then answers within a millisecond, while the threads run cases. */
static const long POLL_NS = 1000000;

/* Messages sent and not yet taken by their receiver. OpenMPI's blocking
 * MPI_Send of a row returned only once the receiver's MPI had taken it, at
 * the receiver's next poll (POLL_NS), and spun meanwhile, on the core a
 * thread of this rank runs cases on (docs/performance.md, "Sweeps": rank 1
 * spent 2.9 ms of CPU per row in MPI_Send). So every message goes by
 * MPI_Isend, its buffer kept here until MPI_Test says it is gone. */
typedef struct outbox {
    MPI_Request *request;
    void **buffer;
    long n, cap;
} outbox;

static void *grow(void *items, long *cap, long need, size_t size)
{
    if (need <= *cap) return items;
    *cap = need > 2 * *cap ? need : 2 * *cap;
    items = realloc(items, (size_t)*cap * size);
    if (!items) abort(); /* the command cannot go on without memory */
    return items;
}

/* Sends count items of buffer (malloc'd, taken over) to dest. */
static void outbox_send(outbox *o, void *buffer, int count, MPI_Datatype type, int dest, int tag)
{
    if (o->n == o->cap) {
        long cap = o->cap; /* both arrays grow alike */
        o->request = grow(o->request, &cap, o->n + 1, sizeof *o->request);
        o->buffer = grow(o->buffer, &o->cap, o->n + 1, sizeof *o->buffer);
    }
    MPI_Isend(buffer, count, type, dest, tag, MPI_COMM_WORLD, &o->request[o->n]);
    o->buffer[o->n++] = buffer;
}

/* Frees the buffers of the messages gone. */
static void outbox_progress(outbox *o)
{
    long kept = 0;
    for (long k = 0; k < o->n; k++) {
        int done = 0;
        MPI_Test(&o->request[k], &done, MPI_STATUS_IGNORE);
        if (done) {
            free(o->buffer[k]);
        } else {
            o->request[kept] = o->request[k];
            o->buffer[kept++] = o->buffer[k];
        }
    }
    o->n = kept;
}

/* Waits, polling, until every message is gone; frees the outbox. */
static void outbox_drain(outbox *o)
{
    for (outbox_progress(o); o->n > 0; outbox_progress(o))
        nanosleep(&(struct timespec){0, POLL_NS}, NULL);
    free(o->request);
    free(o->buffer);
}

int sweep_mpi_init(int *argc, char ***argv, int *rank, int *size)
{
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) return -1;
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    return provided >= MPI_THREAD_FUNNELED ? 0 : -1;
}

void sweep_mpi_finalize(void)
{
    MPI_Finalize();
}

/* ---- Rank 0 ---- */

/* What rank 0 knows of another rank. */
typedef struct rank_state {
    int jobs;         /* its threads (1 until its first message) */
    long outstanding; /* cases sent to it whose rows have not come back */
    int stopped;      /* told to stop */
} rank_state;

typedef struct server {
    sweep_queue *q;
    rank_state *rank;
    outbox out;
    int threads; /* of all ranks */
    int active;  /* ranks not told to stop */
    char expect[32];
} server;

/* The next message of any rank (NUL-terminated, to free), or NULL when
 * none is waiting. */
static char *poll_message(int *source)
{
    int flag = 0, n = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, TAG_ROW, MPI_COMM_WORLD, &flag, &st);
    if (!flag) return NULL;
    MPI_Get_count(&st, MPI_CHAR, &n);
    char *text = malloc((size_t)n + 1);
    if (!text) abort(); /* the command cannot go on without memory */
    MPI_Recv(text, n, MPI_CHAR, st.MPI_SOURCE, TAG_ROW, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    text[n] = '\0';
    *source = st.MPI_SOURCE;
    return text;
}

/* Sends the n cases (none: stop) to rank dest. */
static void send_chunk(server *s, const long *cases, long n, int dest)
{
    long long *chunk = malloc((size_t)(n > 0 ? n : 1) * sizeof *chunk);
    if (!chunk) abort(); /* the command cannot go on without memory */
    for (long k = 0; k < n; k++) chunk[k] = cases[k];
    outbox_send(&s->out, chunk, (int)n, MPI_LONG_LONG, dest, TAG_CASE);
}

static void stop(server *s, int r)
{
    send_chunk(s, NULL, 0, r);
    s->rank[r].stopped = 1;
    s->active--;
}

/* Sends rank r its next chunk while it has fewer than one case queued per
 * thread (besides those running), or tells it to stop once the queue is
 * empty and every row it had is back. */
static void give(server *s, int r)
{
    rank_state *st = &s->rank[r];
    long cases[CHUNK_MAX];
    if (st->stopped) return;
    if (st->outstanding < 2L * st->jobs) {
        long n = sweep_queue_take_guided(s->q, s->threads, cases, CHUNK_MAX);
        st->outstanding += n;
        if (n > 0) send_chunk(s, cases, n, r);
    }
    if (st->outstanding == 0) stop(s, r);
}

/* A first message: '#', the fingerprint, a space, the rank's threads.
 * Returns 0, or -1 (message in q->msg) for another sweep. */
static int hello(server *s, const char *text, int source)
{
    const size_t n = strlen(s->expect);
    long jobs = strncmp(text, s->expect, n) || text[n] != ' ' ? 0 : strtol(text + n, NULL, 10);
    if (jobs < 1 || jobs > SWEEP_MAX_JOBS) {
        snprintf(s->q->msg, sizeof s->q->msg,
                 "rank %d read another sweep (fingerprint %.16s, rank 0 %s)", source, text + 1,
                 s->expect + 1);
        return -1;
    }
    s->rank[source].jobs = (int)jobs;
    s->threads += (int)jobs - 1;
    return 0;
}

/* A row message: '1' or '0' (completed) then the row, which starts with
 * its case number. Returns 0, or -1 (message in q->msg) for a number out
 * of range. */
static int deliver(server *s, const char *text, int source)
{
    long i = strtol(text + 1, NULL, 10);
    if (i < 0 || i >= s->q->summary->sp->ncase || s->rank[source].outstanding < 1) {
        snprintf(s->q->msg, sizeof s->q->msg, "rank %d sent a row of no case", source);
        return -1;
    }
    char *row = strdup(text + 1);
    if (!row) abort(); /* the command cannot go on without memory */
    s->rank[source].outstanding--;
    sweep_queue_deliver(s->q, i, row, text[0] == '1');
    return 0;
}

int sweep_mpi_serve(sweep_queue *q, int size, int jobs, uint64_t fingerprint)
{
    server s = {.q = q, .threads = jobs + size - 1, .active = size - 1};
    int bad = 0;
    s.rank = calloc((size_t)size, sizeof *s.rank);
    if (!s.rank) abort(); /* the command cannot go on without memory */
    for (int r = 0; r < size; r++) s.rank[r].jobs = 1;
    snprintf(s.expect, sizeof s.expect, "#%016" PRIx64, fingerprint);
    while (s.active > 0) {
        int source;
        char *text = poll_message(&source);
        outbox_progress(&s.out);
        if (!text) {
            nanosleep(&(struct timespec){0, POLL_NS}, NULL);
            continue;
        }
        int refused = !s.rank[source].stopped &&
                      (text[0] == '#' ? hello(&s, text, source) : deliver(&s, text, source));
        free(text);
        if (refused) {
            bad = 1;
            stop(&s, source);
        }
        give(&s, source);
    }
    outbox_drain(&s.out);
    free(s.rank);
    return bad ? -1 : 0;
}

/* ---- The other ranks ---- */

/* The cases rank 0 sent this rank, waiting for a thread, and the rows its
 * threads finished, waiting for the main thread to send them. */
typedef struct inbox {
    pthread_mutex_t lock;
    pthread_cond_t cases_ready, rows_ready;
    long *cases, ncase, head, capcase;
    char **rows;
    long nrow, caprow;
    int stopped;
} inbox;

static long inbox_take(void *ctx)
{
    inbox *b = ctx;
    pthread_mutex_lock(&b->lock);
    while (b->head == b->ncase && !b->stopped) pthread_cond_wait(&b->cases_ready, &b->lock);
    long i = b->stopped ? -1 : b->cases[b->head++];
    pthread_mutex_unlock(&b->lock);
    return i;
}

/* The row message: '1' or '0' (completed) then the row. */
static void inbox_deliver(void *ctx, long index, char *row, int completed)
{
    inbox *b = ctx;
    size_t n = strlen(row);
    char *text = malloc(n + 2);
    if (!text) abort(); /* the command cannot go on without memory */
    (void)index;        /* the row starts with it */
    text[0] = completed ? '1' : '0';
    memcpy(text + 1, row, n + 1);
    free(row);
    pthread_mutex_lock(&b->lock);
    b->rows = grow(b->rows, &b->caprow, b->nrow + 1, sizeof *b->rows);
    b->rows[b->nrow++] = text;
    pthread_cond_signal(&b->rows_ready);
    pthread_mutex_unlock(&b->lock);
}

/* Sends text (malloc'd, taken over) to rank 0. */
static void send_text(outbox *o, char *text)
{
    outbox_send(o, text, (int)strlen(text), MPI_CHAR, 0, TAG_ROW);
}

/* Sends the finished rows; returns their number. */
static long send_rows(inbox *b, outbox *o)
{
    pthread_mutex_lock(&b->lock);
    char **rows = b->rows;
    long n = b->nrow;
    b->rows = NULL, b->nrow = b->caprow = 0;
    pthread_mutex_unlock(&b->lock);
    for (long k = 0; k < n; k++) send_text(o, rows[k]);
    free(rows);
    outbox_progress(o);
    return n;
}

/* The chunk receive, posted before rank 0 sends: a chunk that comes is
 * matched at once, at this rank's next MPI call, and rank 0's send of it
 * completes. */
typedef struct chunk_receive {
    long long chunk[CHUNK_MAX];
    MPI_Request request;
} chunk_receive;

static void post_receive(chunk_receive *c)
{
    MPI_Irecv(c->chunk, CHUNK_MAX, MPI_LONG_LONG, 0, TAG_CASE, MPI_COMM_WORLD, &c->request);
}

/* Takes the chunk if it has come (an empty one: stop) and posts the next
 * receive; returns 1 when one had come. */
static int receive_chunk(inbox *b, chunk_receive *c)
{
    int flag = 0, n = 0;
    MPI_Status st;
    MPI_Test(&c->request, &flag, &st);
    if (!flag) return 0;
    MPI_Get_count(&st, MPI_LONG_LONG, &n);
    pthread_mutex_lock(&b->lock);
    if (b->head == b->ncase) b->head = b->ncase = 0;
    b->cases = grow(b->cases, &b->capcase, b->ncase + n, sizeof *b->cases);
    for (int k = 0; k < n; k++) b->cases[b->ncase++] = (long)c->chunk[k];
    b->stopped = n == 0;
    pthread_cond_broadcast(&b->cases_ready);
    pthread_mutex_unlock(&b->lock);
    if (n > 0) post_receive(c);
    return 1;
}

/* Sleeps until a thread has a row or POLL_NS have passed. */
static void wait_for_rows(inbox *b)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_nsec += POLL_NS;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&b->lock);
    if (b->nrow == 0) pthread_cond_timedwait(&b->rows_ready, &b->lock, &until);
    pthread_mutex_unlock(&b->lock);
}

static void inbox_init(inbox *b)
{
    pthread_condattr_t monotonic;
    memset(b, 0, sizeof *b);
    pthread_mutex_init(&b->lock, NULL);
    pthread_condattr_init(&monotonic);
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
    pthread_cond_init(&b->rows_ready, &monotonic);
    pthread_condattr_destroy(&monotonic);
    pthread_cond_init(&b->cases_ready, NULL);
}

static void inbox_free(inbox *b)
{
    for (long k = 0; k < b->nrow; k++) free(b->rows[k]);
    free(b->rows);
    free(b->cases);
    pthread_cond_destroy(&b->cases_ready);
    pthread_cond_destroy(&b->rows_ready);
    pthread_mutex_destroy(&b->lock);
}

int sweep_mpi_work(const sweep_run_shared *sh, int jobs)
{
    inbox b;
    sweep_pool pool;
    chunk_receive c;
    outbox out = {0};
    char *hello_text = malloc(64);
    if (!hello_text) abort(); /* the command cannot go on without memory */
    inbox_init(&b);
    if (sweep_pool_start(&pool, (sweep_feed){inbox_take, inbox_deliver, &b}, sh, jobs)) {
        inbox_free(&b);
        free(hello_text);
        return -1;
    }
    snprintf(hello_text, 64, "#%016" PRIx64 " %d", sh->sp->fingerprint, pool.nthread);
    post_receive(&c);
    send_text(&out, hello_text);
    /* Rank 0 says stop once every row is back, so nothing is left to send
     * then. */
    for (int stopped = 0; !stopped;) {
        int busy = send_rows(&b, &out) > 0;
        busy |= receive_chunk(&b, &c);
        pthread_mutex_lock(&b.lock);
        stopped = b.stopped;
        pthread_mutex_unlock(&b.lock);
        if (!busy && !stopped) wait_for_rows(&b);
    }
    outbox_drain(&out);
    sweep_pool_join(&pool);
    inbox_free(&b);
    return 0;
}

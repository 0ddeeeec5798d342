/* Sweeps across MPI ranks (tools/sweep_mpi.h). */
#include "sweep_mpi.h"

#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TAG_ROW = 1, TAG_CASE = 2 };

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

/* A row message: '1' or '0' (completed) then the row, which starts with
 * its case number. Returns 0, or -1 (message in q->msg) for a number out
 * of range. */
static int deliver(sweep_queue *q, const char *text, int source)
{
    long i = strtol(text + 1, NULL, 10);
    if (i < 0 || i >= q->summary->sp->ncase) {
        snprintf(q->msg, sizeof q->msg, "rank %d sent a row of no case", source);
        return -1;
    }
    char *row = strdup(text + 1);
    if (!row) abort(); /* the command cannot go on without memory */
    sweep_queue_deliver(q, i, row, text[0] == '1');
    return 0;
}

int sweep_mpi_serve(sweep_queue *q, int size, uint64_t fingerprint)
{
    char expect[32];
    int active = size - 1, bad = 0;
    snprintf(expect, sizeof expect, "#%016" PRIx64, fingerprint);
    while (active > 0) {
        int source;
        char *text = poll_message(&source);
        if (!text) {
            /* Nothing to answer: sleep 1 ms rather than spin on a core the
             * cases need. */
            nanosleep(&(struct timespec){0, 1000000}, NULL);
            continue;
        }
        long long next = -1;
        if (text[0] == '#' && strcmp(text, expect)) {
            snprintf(q->msg, sizeof q->msg,
                     "rank %d read another sweep (fingerprint %s, rank 0 %s)", source, text + 1,
                     expect + 1);
            bad = 1;
        } else if (text[0] != '#' && deliver(q, text, source)) {
            bad = 1;
        } else {
            next = sweep_queue_take(q);
        }
        free(text);
        MPI_Send(&next, 1, MPI_LONG_LONG, source, TAG_CASE, MPI_COMM_WORLD);
        active -= next < 0;
    }
    return bad ? -1 : 0;
}

static void send_text(const char *text)
{
    MPI_Send(text, (int)strlen(text), MPI_CHAR, 0, TAG_ROW, MPI_COMM_WORLD);
}

void sweep_mpi_work(const sweep_run_shared *sh)
{
    char hello[32];
    sweep_case c;
    sweep_case_init(sh->sp, &c);
    snprintf(hello, sizeof hello, "#%016" PRIx64, sh->sp->fingerprint);
    send_text(hello);
    for (;;) {
        long long next;
        MPI_Recv(&next, 1, MPI_LONG_LONG, 0, TAG_CASE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (next < 0 || next >= sh->sp->ncase) break;
        int completed;
        sweep_case_fill(sh->sp, (long)next, &c);
        char *row = sweep_run_case(sh, &c, &completed);
        size_t n = strlen(row);
        char *text = malloc(n + 2);
        if (!text) abort(); /* the command cannot go on without memory */
        text[0] = completed ? '1' : '0';
        memcpy(text + 1, row, n + 1);
        send_text(text);
        free(text);
        free(row);
    }
    sweep_case_free(&c);
}

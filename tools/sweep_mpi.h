/* A sweep across the ranks of an MPI job (OpenMPI; built when the meson
 * option mpi finds it). Rank 0 owns the queue and the summary and runs
 * cases on its own threads (--jobs); every other rank runs cases on its
 * own --jobs threads too, from the chunks rank 0 sends it.
 *
 * Chunks: rank 0 hands out a few cases at a time (guided self-scheduling,
 * sweep_queue_take_guided: large chunks while many cases are left, single
 * cases at the end) and sends a rank its next chunk while it still has a
 * case queued per thread, so that a thread finishing a case never waits for
 * rank 0's answer. Each row goes back to rank 0 as soon as its case ends
 * (the journal stays current: a kill loses only the cases being run).
 *
 * Only the main thread of each rank calls MPI (MPI_THREAD_FUNNELED): it
 * wakes when a thread has a row to send and every millisecond to look for
 * messages, and otherwise sleeps, leaving the cores to the cases. It never
 * waits in a blocking MPI call, which would spin on one: it receives into
 * receives posted beforehand or after MPI_Iprobe has found the message,
 * and sends with MPI_Isend (OpenMPI's blocking MPI_Send spun until the
 * receiver's next poll). The first message of a rank carries its sweep's
 * fingerprint and its number of threads: a rank that read different files
 * gets no case. */
#ifndef MCDYN_TOOLS_SWEEP_MPI_H
#define MCDYN_TOOLS_SWEEP_MPI_H

#include "sweep_pool.h"

/* Initialises MPI; *rank and *size of MPI_COMM_WORLD. Returns 0 or -1. */
int sweep_mpi_init(int *argc, char ***argv, int *rank, int *size);
void sweep_mpi_finalize(void);
/* Rank 0, whose pool runs jobs threads: answers the other ranks until each
 * has been told to stop (when the queue is empty or in error and the rank
 * has sent every row). Returns 0, or -1 when a rank had another sweep or
 * sent a row of no case (message in q->msg). */
int sweep_mpi_serve(sweep_queue *q, int size, int jobs, uint64_t fingerprint);
/* Ranks other than 0: runs the cases rank 0 hands out on jobs threads.
 * Returns 0, or -1 when no thread could be started. */
int sweep_mpi_work(const sweep_run_shared *sh, int jobs);

#endif

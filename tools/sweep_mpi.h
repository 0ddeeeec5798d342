/* A sweep across the ranks of an MPI job (OpenMPI; built when the meson
 * option mpi finds it). Rank 0 owns the queue and the summary and hands
 * out one case at a time: each other rank asks for a case, runs it, sends
 * its row back and gets the next one, so slow cases do not idle the
 * others. Rank 0 runs cases on its own threads meanwhile (--jobs). Only
 * rank 0's main thread and the other ranks' only thread call MPI
 * (MPI_THREAD_FUNNELED). The first message of a rank carries its sweep's
 * fingerprint: a rank that read different files gets no case. */
#ifndef MCDYN_TOOLS_SWEEP_MPI_H
#define MCDYN_TOOLS_SWEEP_MPI_H

#include "sweep_pool.h"

/* Initialises MPI; *rank and *size of MPI_COMM_WORLD. Returns 0 or -1. */
int sweep_mpi_init(int *argc, char ***argv, int *rank, int *size);
void sweep_mpi_finalize(void);
/* Rank 0: answers the other ranks until each has been told to stop (when
 * the queue is empty or in error). Returns 0, or -1 when a rank had another
 * sweep or sent a row of no case (message in q->msg). */
int sweep_mpi_serve(sweep_queue *q, int size, uint64_t fingerprint);
/* Ranks other than 0: runs the cases rank 0 hands out. */
void sweep_mpi_work(const sweep_run_shared *sh);

#endif

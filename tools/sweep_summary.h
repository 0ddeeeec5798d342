/* The summary of a sweep: one CSV row per case (tools/sweep_run.h), in case
 * order, written all or nothing (atomic_file.h) when the sweep ends.
 *
 * While it runs, each finished row is appended to a journal, PATH.part,
 * flushed row by row, so that a sweep killed midway (any process, rank 0
 * included) loses only the cases being run. `--resume` reads the journal
 * (or, when there is none, a finished summary at PATH), keeps its rows and
 * runs the missing cases only. Both files start with the line
 *   # mcdyn sweep <fingerprint> cases <n>
 * naming the sweep (sweep_spec.fingerprint: the sweep file's and the
 * scenario's bytes); a file of another sweep is refused. */
#ifndef MCDYN_TOOLS_SWEEP_SUMMARY_H
#define MCDYN_TOOLS_SWEEP_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "sweep_spec.h"

typedef struct sweep_summary {
    const sweep_spec *sp;
    const char *path;
    char *journal_path;
    FILE *journal;
    char **row; /* sp->ncase rows, NULL where not run */
    long done;
    long resumed; /* rows kept from an earlier run */
} sweep_summary;

/* Starts the summary at path: the rows of an earlier run when resume,
 * and a new journal. Returns 0, or -1 with the reason in msg. */
int sweep_summary_open(sweep_summary *s, const sweep_spec *sp, const char *path, int resume,
                       char *msg, size_t len);
/* Records the row (taken over) of case index and appends it to the
 * journal. Returns 0, or -1 with the reason in msg when the journal cannot
 * be written. */
int sweep_summary_add(sweep_summary *s, long index, char *row, char *msg, size_t len);
/* Writes the summary file and removes the journal. Returns 0 or -1. */
int sweep_summary_finish(sweep_summary *s, char *msg, size_t len);
void sweep_summary_free(sweep_summary *s);

#endif

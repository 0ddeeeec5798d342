/* Output files that are either written completely or not at all: the data
 * goes to a temporary file beside the target (same directory, so the final
 * rename is atomic) and replaces the target only when every write, the
 * flush, the sync and the close succeeded. A failed or abandoned output
 * leaves any previous file byte for byte intact and no partial file.
 *
 * A target that exists and is not a regular file (/dev/stdout, /dev/full, a
 * FIFO) cannot be replaced: it is written in place, with the same error
 * checks. docs/reliability.md. */
#ifndef MCDYN_TOOLS_ATOMIC_FILE_H
#define MCDYN_TOOLS_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct atomic_file {
    FILE *f;          /* where to write (binary mode) */
    const char *path; /* the target */
    char *tmp;        /* the temporary file; NULL when written in place */
} atomic_file;

/* Opens a temporary file for path (permissions as fopen would give, 0666
 * less the umask). Returns 0, or -1 with "cannot write PATH: reason" in
 * msg. */
int atomic_file_open(atomic_file *a, const char *path, char *msg, size_t msglen);

/* Flushes, syncs and closes the file and renames it over the target.
 * Returns 0, or -1 with a message in msg (and the temporary file removed).
 * The atomic_file is closed either way. */
int atomic_file_commit(atomic_file *a, char *msg, size_t msglen);

/* Closes and removes the temporary file, leaving the target untouched.
 * Does nothing on a closed atomic_file. */
void atomic_file_discard(atomic_file *a);

#endif

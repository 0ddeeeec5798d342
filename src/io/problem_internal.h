/* Problem-file reading internals, shared by src/io/siconos_dat.c and
 * src/io/problem_*.c (not installed).
 *
 *   problem_text.c     the file as white-space separated tokens, each with
 *                      its line, and located error messages
 *   problem_matrix.c   a Siconos NumericsMatrix (storage type, sizes, body)
 *                      into a dense row-major array; dense bodies
 *   problem_sbm.c      sparse-block bodies (storage type 1)
 *   problem_csparse.c  sparse bodies (storage type 2, CSparse print-out)
 *   problem_mlcp.c     the MLCP layout
 *   siconos_dat.c      the LCP and FC layouts, telling the kind, the entry
 *   problem_file.c     kind names, sizes and release of a read problem
 */
#ifndef MCDYN_IO_PROBLEM_INTERNAL_H
#define MCDYN_IO_PROBLEM_INTERNAL_H

#include "mcdyn/problem_io.h"

#include <stddef.h>

/* A reader of FCLIB files (mcd_problem_read_fclib or its isolated twin). */
typedef mcd_status (*problem_fclib_reader)(const char *path, mcd_problem_file *out, mcd_error *err);

/* mcd_problem_read_file's dispatch: a Siconos file by its reader, an FCLIB
 * file (by its extension, kind AUTO or FC3D) by read_fclib; caller names
 * the public function in the NULL-argument message. */
mcd_status problem_read_file_with(const char *caller, const char *path, mcd_problem_kind kind,
                                  mcd_problem_file *out, problem_fclib_reader read_fclib,
                                  mcd_error *err);

/* Largest matrix side the readers accept: problems are stored dense. */
#define PROBLEM_MAX_SIZE 10000

/* A whole file in memory and a cursor over its tokens. */
typedef struct problem_text {
    const char *path; /* the name used in messages */
    char *buf;        /* the contents, NUL-terminated */
    size_t len;
    size_t pos;   /* cursor */
    int line;     /* line of the cursor (1-based) */
    int tok_line; /* line of the last token read */
    mcd_error *err;
} problem_text;

/* Loads path; MCD_ERR_IO if it cannot be read. */
mcd_status problem_text_load(problem_text *t, const char *path, mcd_error *err);
void problem_text_free(problem_text *t);
/* Back to the first token. */
void problem_text_rewind(problem_text *t);

/* Next token: its start and length; 0 at the end of the file. */
int problem_text_token(problem_text *t, const char **tok, size_t *len);
/* Next token if it is on the cursor's line (0 otherwise, cursor unmoved). */
int problem_text_token_on_line(problem_text *t, const char **tok, size_t *len);
/* Moves the cursor past the next end of line. */
void problem_text_skip_line(problem_text *t);

/* Records "path:line: message" in t->err; returns status. */
/* MCD_OK if the rest of the file can hold `count` more numbers (each at
 * least one character and a separator), else MCD_ERR_PARSE naming what
 * needs them: a header's size is checked before anything of that size is
 * allocated, so a short file cannot make the reader allocate gigabytes. */
mcd_status problem_require_numbers(problem_text *t, const char *what, long count);
mcd_status problem_fail(problem_text *t, mcd_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* An integer in [min, max], named `what` in messages. */
mcd_status problem_read_int(problem_text *t, const char *what, long min, long max, int *out);
/* A literal word, e.g. ":" or "col". */
mcd_status problem_expect_word(problem_text *t, const char *word, const char *context);

/* Names an entry for messages: "q[3]" (col < 0) or "M(2,5)". */
typedef struct problem_entry {
    const char *name;
    int row;
    int col;
} problem_entry;

/* A finite number for entry e: MCD_ERR_PARSE if missing or not a number,
 * MCD_ERR_NONFINITE if NaN or infinite. */
mcd_status problem_read_entry(problem_text *t, problem_entry e, double *out);
/* n finite numbers v[0..n) named name[0..n). */
mcd_status problem_read_vector(problem_text *t, const char *name, int n, double *v);

/* Reads a NumericsMatrix named `name` that must be rows x cols into the
 * zeroed row-major array A. */
mcd_status problem_read_matrix(problem_text *t, const char *name, int rows, int cols, double *A);
/* The bodies after the storage type and sizes. */
mcd_status problem_read_dense(problem_text *t, const char *name, int rows, int cols, double *A);
mcd_status problem_read_sbm(problem_text *t, const char *name, int rows, int cols, double *A);
mcd_status problem_read_csparse(problem_text *t, const char *name, int rows, int cols, double *A);

/* The layouts (t rewound); out is filled on success only. */
mcd_status problem_read_lcp(problem_text *t, mcd_problem_file *out);
mcd_status problem_read_mlcp(problem_text *t, mcd_problem_file *out);
mcd_status problem_read_fc(problem_text *t, mcd_problem_file *out);

#endif

/* Helpers of the `mcdyn sweep` tests: running sweeps, reading summaries. */
#ifndef MCDYN_TESTS_SWEEP_FIXTURE_H
#define MCDYN_TESTS_SWEEP_FIXTURE_H

/* A summary CSV (or its journal) read whole: the data rows as written and
 * their fields unquoted. */
typedef struct summary {
    char **name; /* the header's column names */
    int ncol;
    char **line; /* the rows as written, without newline */
    char ***field;
    int nrow;
} summary;

/* Reads the summary at path; fails the test unless it starts with the
 * sweep's identity line and a header. */
summary summary_read(const char *path);
void summary_free(summary *s);
/* Field name of row i (NULL when there is no such column). */
const char *summary_field(const summary *s, int i, const char *name);
/* 1 for the timing columns (wall, step_wall, cpu), which depend on the
 * machine and its load. */
int summary_is_timing(const char *name);
/* Same header and rows, field by field, except the timings. */
void summary_assert_same(const summary *a, const summary *b);

/* $MCDYN_SOURCE/tests/sweep/data/<name> (4 rotating static buffers). */
const char *data_path(const char *name);
/* <this process's temporary directory>/<name> into path (4096 bytes). */
void temp_path(char *path, const char *name);
/* Writes a sweep file <temporary directory>/<name> from fmt into path. */
void write_sweep(char *path, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Complete rows in the journal file at path (lines after the two first;
 * 0 when it cannot be read). */
int journal_rows(const char *path);

/* `mcdyn sweep SWEEP --out OUT ARGS...` must succeed; its standard output,
 * valid until the next call. */
const char *sweep_ok_args(const char *sweep, const char *out, const char *const *args);
#define sweep_ok(sweep, out, ...) sweep_ok_args(sweep, out, (const char *[]){__VA_ARGS__, NULL})
/* ... must exit with 1 and a message on standard error holding fragment. */
void sweep_fails_args(const char *sweep, const char *out, const char *fragment,
                      const char *const *args);
#define sweep_fails(sweep, out, fragment, ...)                                                     \
    sweep_fails_args(sweep, out, fragment, (const char *[]){__VA_ARGS__, NULL})

#endif

/* A Siconos NumericsMatrix in a problem file: storage type, sizes, and the
 * dense body (src/io/problem_internal.h). */
#include "problem_internal.h"

#include <stdio.h>

enum { STORAGE_DENSE = 0, STORAGE_SPARSE_BLOCK = 1, STORAGE_SPARSE = 2 };

/* A size that must equal `want`. */
static mcd_status read_size(problem_text *t, const char *name, const char *which, int want)
{
    char what[80];
    snprintf(what, sizeof what, "%s count of %s", which, name);
    int got;
    mcd_status s = problem_read_int(t, what, 0, PROBLEM_MAX_SIZE, &got);
    if (s != MCD_OK) return s;
    if (got != want)
        return problem_fail(t, MCD_ERR_PARSE, "%s = %d, the problem needs %d (wrong size)", what,
                            got, want);
    return MCD_OK;
}

mcd_status problem_read_matrix(problem_text *t, const char *name, int rows, int cols, double *A)
{
    char what[80];
    snprintf(what, sizeof what, "storage type of %s", name);
    int storage;
    mcd_status s = problem_read_int(t, what, STORAGE_DENSE, STORAGE_SPARSE, &storage);
    if (s == MCD_OK) s = read_size(t, name, "row", rows);
    if (s == MCD_OK) s = read_size(t, name, "column", cols);
    if (s != MCD_OK) return s;
    switch (storage) {
    case STORAGE_DENSE:
        return problem_read_dense(t, name, rows, cols, A);
    case STORAGE_SPARSE_BLOCK:
        return problem_read_sbm(t, name, rows, cols, A);
    default:
        return problem_read_csparse(t, name, rows, cols, A);
    }
}

/* The sizes again, then the entries column by column. */
mcd_status problem_read_dense(problem_text *t, const char *name, int rows, int cols, double *A)
{
    mcd_status s = read_size(t, name, "row", rows);
    if (s == MCD_OK) s = read_size(t, name, "column", cols);
    for (int j = 0; j < cols && s == MCD_OK; j++)
        for (int i = 0; i < rows && s == MCD_OK; i++)
            s = problem_read_entry(t, (problem_entry){name, i, j}, &A[(size_t)i * cols + j]);
    return s;
}

/* Sparse matrices (Siconos storage type 2) in problem files
 * (src/io/problem_internal.h).
 *
 * Layout: the origin (1 triplet, 2 compressed column; 3, compressed row, is
 * not handled) and the rest of its line; CSparse's version line; a header
 * line "[triplet:] ROWS-by-COLS, nzmax: K nnz: NZ[, 1-norm: X]"; then
 *   triplet: NZ lines "i j : x" (repeated (i, j) entries are summed, as
 *            CSparse does when it compresses);
 *   column:  for each column j, "col j : locations a to b" and b - a + 1
 *            lines "i : x", a counting on from the previous column. */
#include "problem_internal.h"

#include <stdio.h>
#include <string.h>

enum { ORIGIN_TRIPLET = 1, ORIGIN_CSC = 2, ORIGIN_CSR = 3 };

typedef struct csparse_header {
    int triplet;
    int nnz;
} csparse_header;

static mcd_status read_origin(problem_text *t, const char *name, int *origin)
{
    char what[80];
    snprintf(what, sizeof what, "sparse origin of %s", name);
    mcd_status s = problem_read_int(t, what, ORIGIN_TRIPLET, ORIGIN_CSR, origin);
    if (s == MCD_OK && *origin == ORIGIN_CSR)
        return problem_fail(t, MCD_ERR_UNSUPPORTED,
                            "%s: compressed-row sparse storage (origin 3) is not supported", name);
    return s;
}

/* Past the origin's line and CSparse's version line. */
static mcd_status skip_version_line(problem_text *t, const char *name)
{
    const char *tok;
    size_t len;
    problem_text_skip_line(t);
    if (!problem_text_token(t, &tok, &len))
        return problem_fail(t, MCD_ERR_PARSE,
                            "file ends before the sparse header of %s (truncated?)", name);
    if (len < 7 || memcmp(tok, "CSparse", 7) != 0)
        return problem_fail(t, MCD_ERR_PARSE, "%s: expected CSparse's version line", name);
    problem_text_skip_line(t);
    return MCD_OK;
}

/* Copies the next token of the current line into buf ("" if none). */
static void line_token(problem_text *t, char *buf, size_t cap)
{
    const char *tok;
    size_t len;
    buf[0] = '\0';
    if (!problem_text_token_on_line(t, &tok, &len)) return;
    if (len >= cap) len = cap - 1;
    memcpy(buf, tok, len);
    buf[len] = '\0';
}

static mcd_status read_header(problem_text *t, const char *name, int rows, int cols,
                              csparse_header *h)
{
    char tok[96];
    int m, n, nzmax;
    line_token(t, tok, sizeof tok);
    h->triplet = strcmp(tok, "triplet:") == 0;
    if (h->triplet) line_token(t, tok, sizeof tok);
    if (sscanf(tok, "%d-by-%d,", &m, &n) != 2)
        return problem_fail(t, MCD_ERR_PARSE,
                            "%s: expected 'ROWS-by-COLS,' in the sparse header, found '%s'", name,
                            tok);
    if (m != rows || n != cols)
        return problem_fail(
            t, MCD_ERR_PARSE,
            "%s: sparse header says %d-by-%d, the problem needs %d-by-%d (wrong size)", name, m, n,
            rows, cols);
    line_token(t, tok, sizeof tok);
    int ok = strcmp(tok, "nzmax:") == 0;
    if (ok) line_token(t, tok, sizeof tok);
    ok = ok && sscanf(tok, "%d", &nzmax) == 1;
    if (ok) line_token(t, tok, sizeof tok);
    ok = ok && strcmp(tok, "nnz:") == 0;
    if (ok) line_token(t, tok, sizeof tok);
    ok = ok && sscanf(tok, "%d", &h->nnz) == 1 && h->nnz >= 0 && h->nnz <= nzmax &&
         (size_t)h->nnz <= t->len;
    if (!ok)
        return problem_fail(
            t, MCD_ERR_PARSE,
            "%s: expected 'nzmax: K nnz: NZ' with 0 <= NZ <= K in the sparse header", name);
    problem_text_skip_line(t);
    return MCD_OK;
}

static mcd_status read_index(problem_text *t, const char *name, const char *what, int k, int n,
                             int *out)
{
    char buf[96];
    snprintf(buf, sizeof buf, "%s index of entry %d of %s", what, k, name);
    return problem_read_int(t, buf, 0, n - 1, out);
}

static mcd_status read_triplets(problem_text *t, const char *name, int rows, int cols, int nnz,
                                double *A)
{
    mcd_status s = MCD_OK;
    for (int k = 0; k < nnz && s == MCD_OK; k++) {
        int i, j;
        double x;
        s = read_index(t, name, "row", k, rows, &i);
        if (s == MCD_OK) s = read_index(t, name, "column", k, cols, &j);
        if (s == MCD_OK) s = problem_expect_word(t, ":", name);
        if (s == MCD_OK) s = problem_read_entry(t, (problem_entry){name, i, j}, &x);
        if (s == MCD_OK) A[(size_t)i * cols + j] += x;
    }
    return s;
}

/* "col j : locations a to b": a must be `first`; *count = b - a + 1. */
static mcd_status read_column_head(problem_text *t, const char *name, int j, int first, int left,
                                   int *count)
{
    char what[96];
    int jj, a, b;
    snprintf(what, sizeof what, "column %d of %s", j, name);
    mcd_status s = problem_expect_word(t, "col", what);
    if (s == MCD_OK) s = problem_read_int(t, what, j, j, &jj);
    if (s == MCD_OK) s = problem_expect_word(t, ":", what);
    if (s == MCD_OK) s = problem_expect_word(t, "locations", what);
    if (s == MCD_OK) s = problem_read_int(t, what, first, first, &a);
    if (s == MCD_OK) s = problem_expect_word(t, "to", what);
    if (s == MCD_OK) s = problem_read_int(t, what, first - 1, (long)first + left - 1, &b);
    if (s == MCD_OK) *count = b - a + 1;
    return s;
}

static mcd_status read_columns(problem_text *t, const char *name, int rows, int cols, int nnz,
                               double *A)
{
    int done = 0;
    mcd_status s = MCD_OK;
    for (int j = 0; j < cols && s == MCD_OK; j++) {
        int count = 0;
        s = read_column_head(t, name, j, done, nnz - done, &count);
        for (int k = 0; k < count && s == MCD_OK; k++, done++) {
            int i;
            s = read_index(t, name, "row", done, rows, &i);
            if (s == MCD_OK) s = problem_expect_word(t, ":", name);
            if (s == MCD_OK)
                s = problem_read_entry(t, (problem_entry){name, i, j}, &A[(size_t)i * cols + j]);
        }
    }
    if (s == MCD_OK && done != nnz)
        s = problem_fail(t, MCD_ERR_PARSE, "%s: the columns hold %d entries, the header says %d",
                         name, done, nnz);
    return s;
}

mcd_status problem_read_csparse(problem_text *t, const char *name, int rows, int cols, double *A)
{
    int origin;
    csparse_header h;
    mcd_status s = read_origin(t, name, &origin);
    if (s == MCD_OK) s = skip_version_line(t, name);
    if (s == MCD_OK) s = read_header(t, name, rows, cols, &h);
    if (s == MCD_OK && h.triplet != (origin == ORIGIN_TRIPLET))
        s = problem_fail(t, MCD_ERR_PARSE, "%s: origin %d does not match the %s sparse header",
                         name, origin, h.triplet ? "triplet" : "compressed-column");
    if (s != MCD_OK) return s;
    if (h.triplet) return read_triplets(t, name, rows, cols, h.nnz, A);
    return read_columns(t, name, rows, cols, h.nnz, A);
}

/* Sparse-block matrices (Siconos storage type 1) in problem files
 * (src/io/problem_internal.h).
 *
 * Layout: nbblocks, blocknumber0, blocknumber1; the cumulative block-row
 * sizes (blocknumber0 numbers, the last = rows) and block-column sizes;
 * filled1 (= blocknumber0 + 1) and filled2 (= nbblocks); index1_data
 * (filled1 numbers: first block of each block row, then nbblocks) and
 * index2_data (filled2 numbers: the block column of each block); then, block
 * row by block row, each block as its number and its entries column by
 * column. */
#include "problem_internal.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct sbm_layout {
    int nblocks, nbrow, nbcol;
    int *row_end;   /* nbrow cumulative sizes */
    int *col_end;   /* nbcol cumulative sizes */
    int *row_first; /* nbrow + 1 */
    int *block_col; /* nblocks */
} sbm_layout;

static void sbm_free(sbm_layout *b)
{
    free(b->row_end);
    free(b->col_end);
    free(b->row_first);
    free(b->block_col);
}

static mcd_status sbm_alloc(problem_text *t, sbm_layout *b)
{
    b->row_end = malloc(sizeof(int) * b->nbrow);
    b->col_end = malloc(sizeof(int) * b->nbcol);
    b->row_first = malloc(sizeof(int) * (b->nbrow + 1));
    b->block_col = malloc(sizeof(int) * b->nblocks);
    if (b->row_end && b->col_end && b->row_first && b->block_col) return MCD_OK;
    return problem_fail(t, MCD_ERR_NOMEM, "out of memory for the sparse-block layout");
}

static mcd_status read_count(problem_text *t, const char *name, const char *what, long max,
                             int *out)
{
    char buf[96];
    snprintf(buf, sizeof buf, "%s of %s", what, name);
    return problem_read_int(t, buf, 1, max, out);
}

/* n cumulative sizes, strictly increasing, ending at total. */
static mcd_status read_ends(problem_text *t, const char *name, const char *what, int n, int total,
                            int *end)
{
    char buf[96];
    for (int k = 0; k < n; k++) {
        snprintf(buf, sizeof buf, "%s size %d of %s", what, k, name);
        int lo = k ? end[k - 1] + 1 : 1;
        mcd_status s = problem_read_int(t, buf, lo, total, &end[k]);
        if (s != MCD_OK) return s;
    }
    if (end[n - 1] != total)
        return problem_fail(t, MCD_ERR_PARSE,
                            "%s sizes of %s end at %d, the matrix has %d (wrong size)", what, name,
                            end[n - 1], total);
    return MCD_OK;
}

static mcd_status read_fill_counts(problem_text *t, const char *name, const sbm_layout *b)
{
    int filled1, filled2;
    mcd_status s = read_count(t, name, "filled1", b->nbrow + 1, &filled1);
    if (s == MCD_OK && filled1 != b->nbrow + 1)
        s = problem_fail(t, MCD_ERR_PARSE, "filled1 of %s = %d, expected %d (block rows + 1)", name,
                         filled1, b->nbrow + 1);
    if (s == MCD_OK) s = read_count(t, name, "filled2", b->nblocks, &filled2);
    if (s == MCD_OK && filled2 != b->nblocks)
        s = problem_fail(t, MCD_ERR_PARSE, "filled2 of %s = %d, expected %d (the block count)",
                         name, filled2, b->nblocks);
    return s;
}

/* index1_data: non-decreasing from 0 to nblocks. */
static mcd_status read_row_first(problem_text *t, const char *name, sbm_layout *b)
{
    char buf[96];
    for (int r = 0; r <= b->nbrow; r++) {
        snprintf(buf, sizeof buf, "index1_data[%d] of %s", r, name);
        int lo = r ? b->row_first[r - 1] : 0, hi = r ? b->nblocks : 0;
        mcd_status s = problem_read_int(t, buf, lo, hi, &b->row_first[r]);
        if (s != MCD_OK) return s;
    }
    if (b->row_first[b->nbrow] != b->nblocks)
        return problem_fail(t, MCD_ERR_PARSE, "index1_data of %s ends at %d, expected %d blocks",
                            name, b->row_first[b->nbrow], b->nblocks);
    return MCD_OK;
}

/* index2_data: block columns, each at most once per block row. */
static mcd_status read_block_cols(problem_text *t, const char *name, sbm_layout *b)
{
    char buf[96];
    int *last_row = malloc(sizeof(int) * b->nbcol);
    if (!last_row) return problem_fail(t, MCD_ERR_NOMEM, "out of memory for %s", name);
    for (int c = 0; c < b->nbcol; c++) last_row[c] = -1;
    mcd_status s = MCD_OK;
    for (int r = 0; r < b->nbrow && s == MCD_OK; r++) {
        for (int k = b->row_first[r]; k < b->row_first[r + 1] && s == MCD_OK; k++) {
            snprintf(buf, sizeof buf, "index2_data[%d] of %s", k, name);
            s = problem_read_int(t, buf, 0, b->nbcol - 1, &b->block_col[k]);
            if (s == MCD_OK && last_row[b->block_col[k]] == r)
                s = problem_fail(t, MCD_ERR_PARSE, "%s: block (%d,%d) is given twice", name, r,
                                 b->block_col[k]);
            if (s == MCD_OK) last_row[b->block_col[k]] = r;
        }
    }
    free(last_row);
    return s;
}

static mcd_status read_layout(problem_text *t, const char *name, int rows, int cols, sbm_layout *b)
{
    long max_blocks = (long)rows * cols < (long)t->len ? (long)rows * cols : (long)t->len;
    mcd_status s = read_count(t, name, "block count", max_blocks, &b->nblocks);
    if (s == MCD_OK) s = read_count(t, name, "block-row count", rows, &b->nbrow);
    if (s == MCD_OK) s = read_count(t, name, "block-column count", cols, &b->nbcol);
    if (s == MCD_OK) s = sbm_alloc(t, b);
    if (s == MCD_OK) s = read_ends(t, name, "block-row", b->nbrow, rows, b->row_end);
    if (s == MCD_OK) s = read_ends(t, name, "block-column", b->nbcol, cols, b->col_end);
    if (s == MCD_OK) s = read_fill_counts(t, name, b);
    if (s == MCD_OK) s = read_row_first(t, name, b);
    if (s == MCD_OK) s = read_block_cols(t, name, b);
    return s;
}

/* Block k of block row r: its number, then its entries column by column. */
static mcd_status read_block(problem_text *t, const char *name, const sbm_layout *b, int r, int k,
                             int cols, double *A)
{
    char buf[96];
    int number;
    snprintf(buf, sizeof buf, "number of block %d of %s", k, name);
    mcd_status s = problem_read_int(t, buf, k, k, &number);
    int c = b->block_col[k];
    int row0 = r ? b->row_end[r - 1] : 0, col0 = c ? b->col_end[c - 1] : 0;
    for (int j = col0; j < b->col_end[c] && s == MCD_OK; j++)
        for (int i = row0; i < b->row_end[r] && s == MCD_OK; i++)
            s = problem_read_entry(t, (problem_entry){name, i, j}, &A[(size_t)i * cols + j]);
    return s;
}

mcd_status problem_read_sbm(problem_text *t, const char *name, int rows, int cols, double *A)
{
    sbm_layout b = {0};
    mcd_status s = read_layout(t, name, rows, cols, &b);
    for (int r = 0; r < b.nbrow && s == MCD_OK; r++)
        for (int k = b.row_first[r]; k < b.row_first[r + 1] && s == MCD_OK; k++)
            s = read_block(t, name, &b, r, k, cols, A);
    sbm_free(&b);
    return s;
}

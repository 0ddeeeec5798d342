/* The Siconos MLCP file layout (src/io/problem_internal.h, the format in
 * include/mcdyn/problem_io.h). */
#include "problem_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct mlcp_header {
    int with_m;    /* isStorageType1: blocks, M, q */
    int with_abcd; /* isStorageType2: A, B, C, D, a, b */
    int n;         /* equality rows */
    int m;         /* complementarity rows */
} mlcp_header;

static mcd_status read_header(problem_text *t, mlcp_header *h)
{
    mcd_status s = problem_read_int(t, "isStorageType1 flag", 0, 1, &h->with_m);
    if (s == MCD_OK) s = problem_read_int(t, "isStorageType2 flag", 0, 1, &h->with_abcd);
    if (s == MCD_OK && !h->with_m && !h->with_abcd)
        s = problem_fail(t, MCD_ERR_PARSE,
                         "neither storage flag is set: the file holds no problem");
    if (s == MCD_OK) s = problem_read_int(t, "n (equality rows)", 0, PROBLEM_MAX_SIZE, &h->n);
    if (s == MCD_OK)
        s = problem_read_int(t, "m (complementarity rows)", 0, PROBLEM_MAX_SIZE, &h->m);
    if (s == MCD_OK && (h->n + h->m < 1 || h->n + h->m > PROBLEM_MAX_SIZE))
        s = problem_fail(t, MCD_ERR_PARSE, "n + m = %d is out of range [1, %d]", h->n + h->m,
                         PROBLEM_MAX_SIZE);
    return s;
}

/* blocksRows (0, ..., n + m) and one flag per block; sets lo for each row.
 * The equality rows must number n. */
static mcd_status read_blocks(problem_text *t, const mlcp_header *h, double *lo)
{
    int size = h->n + h->m, start, end = 0, nblocks = 0, equality = 0;
    int *starts = malloc(sizeof(int) * (size + 1));
    if (!starts) return problem_fail(t, MCD_ERR_NOMEM, "out of memory for the MLCP blocks");
    mcd_status s = problem_read_int(t, "blocksRows[0]", 0, 0, &start);
    starts[0] = 0;
    while (s == MCD_OK && end < size) {
        char what[64];
        snprintf(what, sizeof what, "blocksRows[%d]", nblocks + 1);
        s = problem_read_int(t, what, starts[nblocks] + 1, size, &end);
        if (s == MCD_OK) starts[++nblocks] = end;
    }
    for (int b = 0; b < nblocks && s == MCD_OK; b++) {
        char what[64];
        int comp;
        snprintf(what, sizeof what, "blocksIsComp[%d]", b);
        s = problem_read_int(t, what, 0, 1, &comp);
        if (s != MCD_OK) break;
        for (int i = starts[b]; i < starts[b + 1]; i++) lo[i] = comp ? 0.0 : -INFINITY;
        if (!comp) equality += starts[b + 1] - starts[b];
    }
    free(starts);
    if (s == MCD_OK && equality != h->n)
        s = problem_fail(t, MCD_ERR_PARSE, "the blocks hold %d equality rows, n = %d (wrong size)",
                         equality, h->n);
    return s;
}

/* A rows x cols block written row by row, into M (side size) at (r0, c0). */
static mcd_status read_rows(problem_text *t, const char *name, int rows, int cols, int r0, int c0,
                            int size, double *M)
{
    mcd_status s = MCD_OK;
    for (int i = 0; i < rows && s == MCD_OK; i++)
        for (int j = 0; j < cols && s == MCD_OK; j++)
            s = problem_read_entry(t, (problem_entry){name, i, j},
                                   &M[(size_t)(r0 + i) * size + c0 + j]);
    return s;
}

/* M = [A C; D B], q = [a; b]. */
static mcd_status read_abcd(problem_text *t, int n, int m, double *M, double *q)
{
    int size = n + m;
    mcd_status s = read_rows(t, "A", n, n, 0, 0, size, M);
    if (s == MCD_OK) s = read_rows(t, "B", m, m, n, n, size, M);
    if (s == MCD_OK) s = read_rows(t, "C", n, m, 0, n, size, M);
    if (s == MCD_OK) s = read_rows(t, "D", m, n, n, 0, size, M);
    if (s == MCD_OK) s = problem_read_vector(t, "a", n, q);
    if (s == MCD_OK) s = problem_read_vector(t, "b", m, q + n);
    return s;
}

/* With both storages, A..D and a, b must repeat M and q. */
static mcd_status check_same(problem_text *t, const mcd_mlcp *p, const double *M2, const double *q2)
{
    int size = p->n;
    for (int k = 0; k < size * size; k++)
        if (M2[k] != p->M[k])
            return problem_fail(t, MCD_ERR_PARSE,
                                "A, B, C, D disagree with M at M(%d,%d): %.17g vs %.17g", k / size,
                                k % size, M2[k], p->M[k]);
    for (int i = 0; i < size; i++)
        if (q2[i] != p->q[i])
            return problem_fail(t, MCD_ERR_PARSE, "a, b disagree with q at q[%d]: %.17g vs %.17g",
                                i, q2[i], p->q[i]);
    return MCD_OK;
}

static mcd_status read_both_abcd(problem_text *t, const mlcp_header *h, mcd_mlcp *p)
{
    size_t size = (size_t)p->n;
    double *M2 = calloc(size * size + size, sizeof(double));
    if (!M2) return problem_fail(t, MCD_ERR_NOMEM, "out of memory for A, B, C, D");
    mcd_status s = read_abcd(t, h->n, h->m, M2, M2 + size * size);
    if (s == MCD_OK) s = check_same(t, p, M2, M2 + size * size);
    free(M2);
    return s;
}

static mcd_status read_body(problem_text *t, const mlcp_header *h, mcd_mlcp *p)
{
    int size = p->n;
    mcd_status s = MCD_OK;
    for (int i = 0; i < size; i++) {
        p->lo[i] = i < h->n ? -INFINITY : 0.0;
        p->hi[i] = INFINITY;
    }
    if (!h->with_m) return read_abcd(t, h->n, h->m, p->M, p->q);
    s = read_blocks(t, h, p->lo);
    if (s == MCD_OK) s = problem_read_matrix(t, "M", size, size, p->M);
    if (s == MCD_OK) s = problem_read_vector(t, "q", size, p->q);
    if (s == MCD_OK && h->with_abcd) s = read_both_abcd(t, h, p);
    return s;
}

mcd_status problem_read_mlcp(problem_text *t, mcd_problem_file *out)
{
    mlcp_header h;
    mcd_mlcp p = {0};
    mcd_status s = read_header(t, &h);
    if (s == MCD_OK) s = problem_require_numbers(t, "the MLCP's q", (long)h.n + h.m);
    if (s == MCD_OK) s = mcd_mlcp_alloc(&p, h.n + h.m, t->err);
    if (s != MCD_OK) return s;
    s = read_body(t, &h, &p);
    if (s != MCD_OK) {
        mcd_mlcp_free(&p);
        return s;
    }
    out->kind = MCD_PROBLEM_MLCP;
    out->dimension = 0;
    out->mlcp = p;
    return MCD_OK;
}

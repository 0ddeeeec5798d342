/* The block-sparse product y = W x + b (block_product.h). */
#include "block_product.h"

#include "block_pattern.h"
#include "dense.h"

#include <stdlib.h>

struct mcd_block_product {
    int n;                     /* unknowns of the set-up; 0: none */
    int n_single;              /* the 1 x 1 blocks [0, n_single) */
    int *row_start;            /* block row a's blocks: col[row_start[a] .. row_start[a + 1]) */
    int *col;                  /* each nonzero block's first unknown, by block rows, ascending */
    size_t rows_cap, cols_cap; /* allocated lengths of row_start and col */
};

mcd_block_product *mcd_block_product_create(void)
{
    return calloc(1, sizeof(mcd_block_product));
}

void mcd_block_product_free(mcd_block_product *m)
{
    if (!m) return;
    free(m->row_start);
    free(m->col);
    free(m);
}

void mcd_block_product_clear(mcd_block_product *m)
{
    if (m) m->n = 0;
}

int mcd_block_product_ready(const mcd_block_product *m, int n)
{
    return m && m->n > 0 && m->n == n;
}

/* Makes *a hold at least len ints (*cap its length); 0 when out of memory. */
static int grow(int **a, size_t *cap, size_t len)
{
    if (len <= *cap) return 1;
    int *bigger = realloc(*a, len * sizeof **a);
    if (!bigger) return 0;
    *a = bigger;
    *cap = len;
    return 1;
}

/* Nonzero blocks of the blocks x blocks pattern B. */
static size_t count_blocks(const unsigned char *B, int blocks)
{
    size_t count = 0, bb = (size_t)blocks * (size_t)blocks;
    for (size_t e = 0; e < bb; e++) count += B[e] != 0;
    return count;
}

int mcd_block_product_setup_pattern(mcd_block_product *m, int n, int n_single,
                                    const unsigned char *B)
{
    mcd_block_product_clear(m);
    int blocks = mcd_block_count(n, n_single);
    if (!m || !B || n <= MCD_BLOCK_PRODUCT_MIN_N || blocks <= 0) return 0;
    size_t entries = mcd_block_pattern_entries(n_single, B, blocks);
    if (entries > MCD_BLOCK_PRODUCT_MAX_FILL * (double)n * (double)n) return 0;
    size_t count = count_blocks(B, blocks);
    if (!grow(&m->row_start, &m->rows_cap, (size_t)blocks + 1) ||
        !grow(&m->col, &m->cols_cap, count))
        return 0;
    int k = 0;
    for (int a = 0; a < blocks; a++) {
        m->row_start[a] = k;
        for (int b = 0; b < blocks; b++)
            if (B[(size_t)a * blocks + b]) m->col[k++] = mcd_block_start(n_single, b);
    }
    m->row_start[blocks] = k;
    m->n = n;
    m->n_single = n_single;
    return 1;
}

int mcd_block_product_setup(mcd_block_product *m, int n, int n_single, const double *W)
{
    mcd_block_product_clear(m);
    if (!m || !W || n <= MCD_BLOCK_PRODUCT_MIN_N) return 0;
    unsigned char *B = mcd_block_pattern(n, n_single, W);
    int ok = mcd_block_product_setup_pattern(m, n, n_single, B);
    free(B);
    return ok;
}

/* W_i x over the blocks col[k0 .. k1) of row i's block row (Wi: row i). */
static double row_product(const mcd_block_product *m, const double *Wi, const double *x, int k0,
                          int k1)
{
    double s = 0.0;
    for (int k = k0; k < k1; k++) {
        int j = m->col[k];
        s += Wi[j] * x[j];
        if (j >= m->n_single) s += Wi[j + 1] * x[j + 1] + Wi[j + 2] * x[j + 2];
    }
    return s;
}

void mcd_block_matvec(const mcd_block_product *m, int n, const double *W, const double *x,
                      const double *b, double *y)
{
    if (!mcd_block_product_ready(m, n)) {
        mcd_dense_matvec(n, W, x, b, y);
        return;
    }
    for (int i = 0; i < n; i++) {
        int a = mcd_block_of(m->n_single, i);
        double s = row_product(m, W + (size_t)i * n, x, m->row_start[a], m->row_start[a + 1]);
        y[i] = s + (b ? b[i] : 0.0);
    }
}

/* Private: the block partition and block pattern of the sparse steps
 * (lm_sparse.h, sparse_lu.h). Unknowns [0, n_single) are 1 x 1 blocks
 * (bilateral or MLCP rows), the rest consecutive 3 x 3 blocks (contacts);
 * a block of W's pattern is nonzero when any entry of W in it is. */
#ifndef MCDYN_SOLVER_BLOCK_PATTERN_H
#define MCDYN_SOLVER_BLOCK_PATTERN_H

#include <stddef.h>

/* The block holding unknown i. */
static inline int mcd_block_of(int n_single, int i)
{
    return i < n_single ? i : n_single + (i - n_single) / 3;
}

/* The first unknown of block b, and one past its last. */
static inline int mcd_block_start(int n_single, int b)
{
    return b < n_single ? b : n_single + 3 * (b - n_single);
}

static inline int mcd_block_end(int n_single, int b)
{
    return mcd_block_start(n_single, b) + (b < n_single ? 1 : 3);
}

/* The unknowns of block b: 1 or 3. */
static inline size_t mcd_block_size(int n_single, int b)
{
    return (size_t)(mcd_block_end(n_single, b) - mcd_block_start(n_single, b));
}

/* Blocks of n unknowns, or 0 when the partition does not fit n (n_single
 * outside [0, n], or 3 does not divide n - n_single). */
int mcd_block_count(int n, int n_single);

/* The blocks x blocks boolean block pattern of the row-major n x n W,
 * diagonal blocks set (one scan of W, O(n^2)); malloc'ed, NULL when out
 * of memory or the partition does not fit n. */
unsigned char *mcd_block_pattern(int n, int n_single, const double *W);

/* The entries of an n x n matrix that the nonzero blocks of the blocks x
 * blocks pattern B cover: the sum of their sizes. */
size_t mcd_block_pattern_entries(int n_single, const unsigned char *B, int blocks);

#endif

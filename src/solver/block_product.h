/* Private: the product y = W x + b of the solvers' iterations on large
 * block-sparse problems (block partition and pattern: block_pattern.h).
 * Contacts that share no body have a zero 3 x 3 block of W, so on the
 * sphere piles' groups (230-570 unknowns) some 7 % of W's blocks are
 * nonzero and the dense product (dense.h, n^2 multiply-adds) spends most
 * of its time on zeros.
 *
 * Per solve (mcd_block_product_setup): the nonzero blocks of each block row
 * of W, as the first unknown of each block column (block-row lists, CSR of
 * blocks). Per product (mcd_block_matvec): row i of y sums W_ij x_j over
 * the blocks of its block row only, reading W_ij from the dense row-major
 * W passed to the call; the set-up keeps no values, so a W whose nonzero
 * blocks lie in the set-up pattern may change between products (the
 * proximal stage's W + rho I keeps W's pattern: its diagonal blocks are
 * always in it).
 *
 * The door: mcd_block_matvec() uses the block product when its state is
 * set up for n unknowns, and mcd_dense_matvec otherwise (NULL state, small
 * or dense problems, no set-up).
 *
 * Allocation: the state once per solver workspace (inside sparse_lu.h's
 * state); a set-up grows its two index arrays when a problem needs more
 * than any before (never shrinks them), so once the largest problem has
 * been seen set-ups allocate nothing; the product never allocates.
 * Problems of at most MCD_BLOCK_PRODUCT_MIN_N unknowns never set up. */
#ifndef MCDYN_SOLVER_BLOCK_PRODUCT_H
#define MCDYN_SOLVER_BLOCK_PRODUCT_H

typedef struct mcd_block_product mcd_block_product;

/* Problems of more unknowns than this may use the block product. */
#define MCD_BLOCK_PRODUCT_MIN_N 64
/* The pattern may fill at most this fraction of n^2 (denser: the dense
 * product's contiguous rows are faster). */
#define MCD_BLOCK_PRODUCT_MAX_FILL 0.3

/* A new state with no pattern, or NULL when out of memory. */
mcd_block_product *mcd_block_product_create(void);

/* Frees the state (m may be NULL). */
void mcd_block_product_free(mcd_block_product *m);

/* Set-up for n unknowns from the blocks x blocks block pattern B
 * (block_pattern.h: rows and columns [0, n_single) 1 x 1 blocks, the rest
 * 3 x 3). Returns 1 when the block product is ready; 0 (products then
 * dense) when m or B is NULL, n <= MCD_BLOCK_PRODUCT_MIN_N, the partition
 * does not fit n, the pattern fills more than MCD_BLOCK_PRODUCT_MAX_FILL of
 * n^2, or memory fails. Drops the previous set-up. */
int mcd_block_product_setup_pattern(mcd_block_product *m, int n, int n_single,
                                    const unsigned char *B);

/* The same from the row-major n x n W: its block pattern
 * (mcd_block_pattern, one O(n^2) scan) when n > MCD_BLOCK_PRODUCT_MIN_N. */
int mcd_block_product_setup(mcd_block_product *m, int n, int n_single, const double *W);

/* Drops the set-up: products are dense until the next one (m may be
 * NULL). */
void mcd_block_product_clear(mcd_block_product *m);

/* 1 when m is set up for n unknowns (its products are block-sparse). */
int mcd_block_product_ready(const mcd_block_product *m, int n);

/* y = W x + b for the row-major n x n W (b may be NULL: y = W x; y must
 * not alias x): over the set-up pattern's blocks when m is ready for n
 * (entries of W outside them are taken as zero), else mcd_dense_matvec. */
void mcd_block_matvec(const mcd_block_product *m, int n, const double *W, const double *x,
                      const double *b, double *y);

#endif

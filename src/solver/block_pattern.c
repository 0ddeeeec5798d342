/* The block partition and pattern of the sparse steps (block_pattern.h). */
#include "block_pattern.h"

#include <stdlib.h>

int mcd_block_count(int n, int n_single)
{
    if (n_single < 0 || n_single > n || (n - n_single) % 3) return 0;
    return n_single + (n - n_single) / 3;
}

unsigned char *mcd_block_pattern(int n, int n_single, const double *W)
{
    int blocks = mcd_block_count(n, n_single);
    if (blocks <= 0) return NULL;
    unsigned char *B = calloc((size_t)blocks * (size_t)blocks, 1);
    if (!B) return NULL;
    for (int i = 0; i < n; i++) {
        const double *Wi = W + (size_t)i * n;
        unsigned char *Bi = B + (size_t)mcd_block_of(n_single, i) * blocks;
        for (int j = 0; j < n; j++)
            if (Wi[j] != 0) Bi[mcd_block_of(n_single, j)] = 1;
    }
    for (int b = 0; b < blocks; b++) B[(size_t)b * blocks + b] = 1;
    return B;
}

size_t mcd_block_pattern_entries(int n_single, const unsigned char *B, int blocks)
{
    size_t entries = 0;
    for (int a = 0; a < blocks; a++)
        for (int b = 0; b < blocks; b++)
            if (B[(size_t)a * blocks + b])
                entries += mcd_block_size(n_single, a) * mcd_block_size(n_single, b);
    return entries;
}

/* The sparse Newton step of mncp-nsn with KLU (sparse_lu.h).
 *
 * Blocks: block_pattern.h, as lm_sparse.c. The pattern of J is kept by
 * columns (CSC, KLU's input): entry (i, j) is in it when the block of W
 * holding (i, j) is nonzero or i and j lie in one diagonal block; at[p] is
 * the position of entry p in the dense row-major J, from which each step
 * gathers its values. */
#include "sparse_lu.h"

#include "block_product.h"
#include "block_pattern.h"
#include "dense.h"

#include <suitesparse/klu.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct mcd_sparse_lu {
    klu_common c;
    int n, n_single;
    int *Ap, *Ai;               /* J's pattern by columns */
    size_t *at;                 /* entry p is J[at[p]] in the row-major J */
    double *Ax;                 /* the gathered values */
    double *b, *res;            /* the right-hand side kept, the residual: n each */
    klu_symbolic *sym;          /* the set-up's analysis; NULL: no setup ready */
    klu_numeric *num;           /* the last factorization, NULL before the first */
    mcd_block_product *product; /* W x + b on the set-up's block pattern */
};

mcd_sparse_lu *mcd_sparse_lu_create(void)
{
    mcd_sparse_lu *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->product = mcd_block_product_create();
    if (!s->product) {
        free(s);
        return NULL;
    }
    klu_defaults(&s->c);
    return s;
}

static void release(mcd_sparse_lu *s)
{
    free(s->Ap);
    free(s->Ai);
    free(s->at);
    free(s->Ax);
    free(s->b);
    free(s->res);
    s->Ap = s->Ai = NULL;
    s->at = NULL;
    s->Ax = s->b = s->res = NULL;
    klu_free_numeric(&s->num, &s->c);
    klu_free_symbolic(&s->sym, &s->c);
}

void mcd_sparse_lu_free(mcd_sparse_lu *s)
{
    if (!s) return;
    release(s);
    mcd_block_product_free(s->product);
    free(s);
}

/* J's pattern by columns from the block pattern B, with at[]. */
static int fill_columns(mcd_sparse_lu *s, const unsigned char *B, int blocks, size_t nnz)
{
    int n = s->n;
    s->Ap = malloc(((size_t)n + 1) * sizeof *s->Ap);
    s->Ai = malloc(nnz * sizeof *s->Ai);
    s->at = malloc(nnz * sizeof *s->at);
    s->Ax = malloc(nnz * sizeof *s->Ax);
    s->b = malloc((size_t)n * sizeof *s->b);
    s->res = malloc((size_t)n * sizeof *s->res);
    if (!s->Ap || !s->Ai || !s->at || !s->Ax || !s->b || !s->res) return 0;
    size_t p = 0;
    for (int j = 0; j < n; j++) {
        s->Ap[j] = (int)p;
        int bj = mcd_block_of(s->n_single, j);
        for (int i = 0; i < n; i++) {
            if (!B[(size_t)mcd_block_of(s->n_single, i) * blocks + bj]) continue;
            s->Ai[p] = i;
            s->at[p++] = (size_t)i * (size_t)n + (size_t)j;
        }
    }
    s->Ap[n] = (int)p;
    return 1;
}

int mcd_sparse_lu_setup(mcd_sparse_lu *s, int n, const double *W, int n_single)
{
    if (!s) return 0;
    release(s);
    mcd_block_product_clear(s->product);
    int blocks = mcd_block_count(n, n_single);
    if (!W || n <= MCD_SPARSE_LU_MIN_N || blocks <= 0) return 0;
    s->n = n;
    s->n_single = n_single;
    unsigned char *B = mcd_block_pattern(n, n_single, W);
    if (!B) return 0;
    mcd_block_product_setup_pattern(s->product, n, n_single, B);
    size_t nnz = mcd_block_pattern_entries(n_single, B, blocks); /* J's pattern */
    int ok =
        nnz <= MCD_SPARSE_LU_MAX_FILL * (double)n * (double)n && fill_columns(s, B, blocks, nnz);
    free(B);
    if (ok) s->sym = klu_analyze(n, s->Ap, s->Ai, &s->c);
    if (!ok || !s->sym) {
        release(s);
        return 0;
    }
    return 1;
}

/* The backward-error test |J x - b| <= MCD_SPARSE_LU_RESIDUAL (|J|_F |x|
 * + |b|) for the gathered J, x in x and b in s->b: what a stable LU
 * reaches whatever J's condition. */
static int residual_small(mcd_sparse_lu *s, const double *x)
{
    int n = s->n;
    for (int i = 0; i < n; i++) s->res[i] = -s->b[i];
    for (int j = 0; j < n; j++)
        for (int p = s->Ap[j]; p < s->Ap[j + 1]; p++) s->res[s->Ai[p]] += s->Ax[p] * x[j];
    double r = mcd_dense_norm(n, s->res);
    double scale = mcd_dense_norm(s->Ap[n], s->Ax) * mcd_dense_norm(n, x) + mcd_dense_norm(n, s->b);
    return isfinite(r) && r <= MCD_SPARSE_LU_RESIDUAL * scale;
}

/* Solves with the current factorization into x (s->b kept) and checks. */
static int solve_checked(mcd_sparse_lu *s, double *x)
{
    memcpy(x, s->b, (size_t)s->n * sizeof *x);
    return klu_solve(s->sym, s->num, s->n, 1, x, &s->c) && s->c.status == KLU_OK &&
           residual_small(s, x);
}

/* A fresh factorization with partial pivoting, replacing the last one. */
static int factor_fresh(mcd_sparse_lu *s)
{
    klu_free_numeric(&s->num, &s->c);
    s->num = klu_factor(s->Ap, s->Ai, s->Ax, s->sym, &s->c);
    return s->num && s->c.status == KLU_OK;
}

mcd_block_product *mcd_sparse_lu_product(const mcd_sparse_lu *s)
{
    return s ? s->product : NULL;
}

int mcd_sparse_lu_solve(mcd_sparse_lu *s, const double *J, double *b)
{
    if (!s || !s->sym) return 0;
    size_t nnz = (size_t)s->Ap[s->n];
    for (size_t p = 0; p < nnz; p++) s->Ax[p] = J[s->at[p]];
    memcpy(s->b, b, (size_t)s->n * sizeof *b);
    if (s->num && klu_refactor(s->Ap, s->Ai, s->Ax, s->sym, s->num, &s->c) &&
        s->c.status == KLU_OK && solve_checked(s, b))
        return 1;
    return factor_fresh(s) && solve_checked(s, b);
}

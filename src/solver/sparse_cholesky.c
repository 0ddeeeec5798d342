/* The sparse Cholesky factorization with CHOLMOD (sparse_cholesky.h).
 *
 * Blocks: block_pattern.h, as sparse_lu.c. perm is the order of CHOLMOD's
 * first analysis of the pattern (perm[k] is the unknown at place k); the
 * matrix factored is P A P^T, of which the upper triangle is kept by
 * columns (CSC, CHOLMOD's stype 1): entry p, in column k, row k' <= k, is
 * A(perm[k'], perm[k]), kept as (row[p], col[p]). The second analysis, of
 * that matrix in its natural order, gives the factor L that every
 * factorization refills (cholmod_factorize reads the upper triangle of a
 * naturally ordered matrix in place: CHOLMOD 3, Cholesky/cholmod_factorize.c).
 * Solves substitute on L directly: cholmod_solve2, even with its X, Y and E
 * kept, allocated twice per call (measured, CHOLMOD 3.0 of SuiteSparse
 * 5.12). */
#include "sparse_cholesky.h"

#include "block_pattern.h"
#include "block_product.h"

#include <suitesparse/cholmod.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct mcd_sparse_cholesky {
    cholmod_common c;
    int n;
    int *perm;                  /* the fill-reducing order, n */
    int *row, *col;             /* entry p is A(row[p], col[p]) */
    cholmod_sparse *A;          /* upper triangle of P A P^T, values of the entries */
    cholmod_factor *L;          /* the set-up's analysis and the last factor; NULL: no setup */
    int factored;               /* 1: L holds a successful factorization */
    long factorizations;        /* attempted since the set-up */
    double *w;                  /* P b, then P x: n */
    mcd_block_product *product; /* W x + b on the set-up's block pattern */
};

mcd_sparse_cholesky *mcd_sparse_cholesky_create(void)
{
    mcd_sparse_cholesky *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->product = mcd_block_product_create();
    if (!s->product || !cholmod_start(&s->c)) {
        mcd_block_product_free(s->product);
        free(s);
        return NULL;
    }
    s->c.print = 0;                       /* failures are statuses, never printed */
    s->c.supernodal = CHOLMOD_SIMPLICIAL; /* rowfac: LL^T with final_ll, no copies */
    s->c.final_ll = 1;                    /* LL^T: a pivot <= 0 fails (LDL^T would not) */
    s->c.final_asis = 1;                  /* keep L as factored, ready for the next one */
    return s;
}

static void release(mcd_sparse_cholesky *s)
{
    free(s->perm);
    free(s->row);
    free(s->col);
    free(s->w);
    s->perm = s->row = s->col = NULL;
    s->w = NULL;
    cholmod_free_sparse(&s->A, &s->c);
    cholmod_free_factor(&s->L, &s->c);
    s->factored = 0;
    s->factorizations = 0;
}

void mcd_sparse_cholesky_free(mcd_sparse_cholesky *s)
{
    if (!s) return;
    release(s);
    cholmod_finish(&s->c);
    mcd_block_product_free(s->product);
    free(s);
}

/* B and its transpose: W's exact zeros may differ across the diagonal by
 * rounding, the factored matrix's pattern must not. */
static void symmetrize(unsigned char *B, int blocks)
{
    for (int a = 0; a < blocks; a++)
        for (int b = 0; b < a; b++) {
            unsigned char either = B[(size_t)a * blocks + b] | B[(size_t)b * blocks + a];
            B[(size_t)a * blocks + b] = B[(size_t)b * blocks + a] = either;
        }
}

/* 1 when unknowns i and j lie in a nonzero block of the pattern B. */
static int in_pattern(const unsigned char *B, int blocks, int n_single, int i, int j)
{
    return B[(size_t)mcd_block_of(n_single, i) * blocks + mcd_block_of(n_single, j)];
}

/* CHOLMOD's fill-reducing order of the pattern B into s->perm: its
 * default analysis (AMD; METIS too when AMD's fill is high) of the upper
 * triangle's pattern. */
static int order(mcd_sparse_cholesky *s, const unsigned char *B, int blocks, int n_single,
                 size_t nnz)
{
    int n = s->n;
    cholmod_sparse *P = cholmod_allocate_sparse(n, n, nnz, 1, 1, 1, CHOLMOD_PATTERN, &s->c);
    if (!P) return 0;
    int *Pp = P->p, *Pi = P->i, p = 0, fits = 1;
    for (int j = 0; j < n && fits; j++) {
        Pp[j] = p;
        for (int i = 0; i <= j && fits; i++) {
            if (!in_pattern(B, blocks, n_single, i, j)) continue;
            fits = (size_t)p < nnz; /* more entries than counted: refused */
            if (fits) Pi[p++] = i;
        }
    }
    Pp[n] = p;
    cholmod_factor *L = fits && (size_t)p == nnz ? cholmod_analyze(P, &s->c) : NULL;
    cholmod_free_sparse(&P, &s->c);
    int ok = L && s->c.status == CHOLMOD_OK;
    if (ok) memcpy(s->perm, L->Perm, (size_t)n * sizeof *s->perm);
    cholmod_free_factor(&L, &s->c);
    return ok;
}

/* The upper triangle of P A P^T by columns with each entry's place in A. */
static int fill_permuted(mcd_sparse_cholesky *s, const unsigned char *B, int blocks, int n_single,
                         size_t nnz)
{
    int n = s->n;
    s->A = cholmod_allocate_sparse(n, n, nnz, 1, 1, 1, CHOLMOD_REAL, &s->c);
    if (!s->A) return 0;
    int *Ap = s->A->p, *Ai = s->A->i, p = 0;
    for (int k = 0; k < n; k++) {
        Ap[k] = p;
        for (int i = 0; i <= k; i++) {
            if (!in_pattern(B, blocks, n_single, s->perm[i], s->perm[k])) continue;
            if ((size_t)p == nnz) return 0; /* more entries than counted: refused */
            Ai[p] = i;
            s->row[p] = s->perm[i];
            s->col[p++] = s->perm[k];
        }
    }
    Ap[n] = p;
    return (size_t)p == nnz;
}

/* The analysis of the permuted matrix in its natural order, and the
 * factor's numeric storage (LL^T, simplicial), allocated once here. */
static int analyze_permuted(mcd_sparse_cholesky *s)
{
    int nmethods = s->c.nmethods, ordering = s->c.method[0].ordering, postorder = s->c.postorder;
    s->c.nmethods = 1, s->c.method[0].ordering = CHOLMOD_NATURAL, s->c.postorder = 0;
    s->L = cholmod_analyze(s->A, &s->c);
    s->c.nmethods = nmethods, s->c.method[0].ordering = ordering, s->c.postorder = postorder;
    return s->L && s->c.status == CHOLMOD_OK && s->L->ordering == CHOLMOD_NATURAL &&
           cholmod_change_factor(CHOLMOD_REAL, 1, 0, 1, 1, s->L, &s->c);
}

/* The entries of the pattern's upper triangle: (all entries + the
 * diagonal's n) / 2, as both triangles hold the same off-diagonal count. */
static size_t upper_entries(int n, size_t entries)
{
    return (entries + (size_t)n) / 2;
}

int mcd_sparse_cholesky_setup(mcd_sparse_cholesky *s, int n, const double *W, int n_single)
{
    if (!s) return 0;
    release(s);
    mcd_block_product_clear(s->product);
    int blocks = mcd_block_count(n, n_single);
    if (!W || n <= MCD_SPARSE_CHOLESKY_MIN_N || blocks <= 0) return 0;
    s->n = n;
    unsigned char *B = mcd_block_pattern(n, n_single, W);
    if (!B) return 0;
    symmetrize(B, blocks);
    mcd_block_product_setup_pattern(s->product, n, n_single, B);
    size_t entries = mcd_block_pattern_entries(n_single, B, blocks);
    size_t nnz = upper_entries(n, entries);
    int ok = entries <= MCD_SPARSE_CHOLESKY_MAX_FILL * (double)n * (double)n && nnz <= INT_MAX;
    if (ok) {
        s->perm = malloc((size_t)n * sizeof *s->perm);
        s->row = malloc(nnz * sizeof *s->row);
        s->col = malloc(nnz * sizeof *s->col);
        s->w = malloc((size_t)n * sizeof *s->w);
        ok = s->perm && s->row && s->col && s->w && order(s, B, blocks, n_single, nnz) &&
             fill_permuted(s, B, blocks, n_single, nnz) && analyze_permuted(s);
    }
    free(B);
    if (!ok) release(s);
    return ok;
}

mcd_sparse_cholesky_entries mcd_sparse_cholesky_entries_of(mcd_sparse_cholesky *s)
{
    mcd_sparse_cholesky_entries e = {0};
    if (!s || !s->L) return e;
    e.count = (size_t)((int *)s->A->p)[s->n];
    e.row = s->row, e.col = s->col;
    e.value = s->A->x;
    return e;
}

void mcd_sparse_cholesky_gather(mcd_sparse_cholesky *s, const double *A, double shift)
{
    mcd_sparse_cholesky_entries e = mcd_sparse_cholesky_entries_of(s);
    if (!e.count) return;
    size_t n = (size_t)s->n;
    for (size_t p = 0; p < e.count; p++)
        e.value[p] =
            A[(size_t)e.row[p] * n + (size_t)e.col[p]] + (e.row[p] == e.col[p] ? shift : 0);
}

int mcd_sparse_cholesky_factor(mcd_sparse_cholesky *s)
{
    if (!s || !s->L) return 0;
    s->factorizations++;
    s->factored = cholmod_factorize(s->A, s->L, &s->c) && s->c.status == CHOLMOD_OK &&
                  s->L->minor == (size_t)s->n;
    return s->factored;
}

/* w := (L L^T)^-1 w by forward and back substitution on the simplicial
 * factor: column j holds its Lnz[j] entries from Lp[j], the diagonal first
 * (CHOLMOD's simplicial LL^T storage, cholmod_core.h). */
static void substitute(const cholmod_factor *L, double *w)
{
    const int *Lp = L->p, *Li = L->i, *Lnz = L->nz, n = (int)L->n;
    const double *Lx = L->x;
    for (int j = 0; j < n; j++) { /* L y = w */
        w[j] /= Lx[Lp[j]];
        for (int p = Lp[j] + 1; p < Lp[j] + Lnz[j]; p++) w[Li[p]] -= Lx[p] * w[j];
    }
    for (int j = n - 1; j >= 0; j--) { /* L^T x = y */
        for (int p = Lp[j] + 1; p < Lp[j] + Lnz[j]; p++) w[j] -= Lx[p] * w[Li[p]];
        w[j] /= Lx[Lp[j]];
    }
}

int mcd_sparse_cholesky_solve(mcd_sparse_cholesky *s, double *b)
{
    if (!s || !s->factored) return 0;
    for (int k = 0; k < s->n; k++) s->w[k] = b[s->perm[k]];
    substitute(s->L, s->w);
    for (int k = 0; k < s->n; k++) b[s->perm[k]] = s->w[k];
    return 1;
}

long mcd_sparse_cholesky_factorizations(const mcd_sparse_cholesky *s)
{
    return s ? s->factorizations : 0;
}

mcd_block_product *mcd_sparse_cholesky_product(const mcd_sparse_cholesky *s)
{
    return s ? s->product : NULL;
}

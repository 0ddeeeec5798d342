/* The PLM step by a sparse Cholesky factorization with CHOLMOD, or a
 * sparse QR with SuiteSparseQR (lm_sparse.h).
 *
 * Blocks: rows [0, n_single) are 1 x 1 blocks, the rest 3 x 3 blocks.
 * The block pattern P of J (that of W plus the diagonal) is kept by rows
 * and by columns; block (I, J) of N = J^T J is nonzero when some row block
 * K of P holds both I and J. The pattern of N's upper triangle is kept
 * column by column with sorted rows (the diagonal entry last of its
 * column); its values go straight into the matrix CHOLMOD factors,
 * N permuted to the fill-reducing order (below, P N P^T: this P is that
 * permutation). */
#include "lm_sparse.h"

#include "block_pattern.h"
#include "dense.h"

#include <suitesparse/SuiteSparseQR_C.h>
#include <suitesparse/cholmod.h>

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct mcd_lm_sparse {
    cholmod_common c;
    int ready;
    int n, n_single, blocks;
    int *row_ptr, *row_blk;   /* P by row blocks: column blocks, ascending */
    int *col_ptr, *col_blk;   /* P by column blocks: row blocks, ascending */
    double *scatter;          /* n, zero between columns */
    cholmod_sparse *N;        /* pattern of N's upper triangle */
    cholmod_sparse *NP;       /* P N P^T's upper triangle, P the fill-reducing order */
    int *to_permuted;         /* entry p of N is entry to_permuted[p] of P N P^T */
    int *perm;                /* n: row k of P N P^T is row perm[k] of N */
    double *permuted;         /* n: a right-hand side in the order of P */
    cholmod_factor *L;        /* of P N P^T in its natural order */
    cholmod_dense *X, *Y, *E; /* cholmod_solve2's reusable workspace */
    cholmod_common cl;        /* SuiteSparseQR's (long indices) */
    cholmod_sparse *A;        /* the stacked [J; sqrt(lambda) I], 2n x n */
    SuiteSparseQR_C_factorization *QR;
};

static int block_start(const mcd_lm_sparse *s, int b)
{
    return mcd_block_start(s->n_single, b);
}

static int block_end(const mcd_lm_sparse *s, int b)
{
    return mcd_block_end(s->n_single, b);
}

mcd_lm_sparse *mcd_lm_sparse_create(void)
{
    mcd_lm_sparse *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    cholmod_start(&s->c);
    s->c.print = 0;                      /* failures are return values, not stderr */
    s->c.quick_return_if_not_posdef = 1; /* the step is abandoned anyway */
    cholmod_l_start(&s->cl);
    s->cl.print = 0;
    return s;
}

static void release(mcd_lm_sparse *s)
{
    s->ready = 0;
    free(s->row_ptr);
    free(s->row_blk);
    free(s->col_ptr);
    free(s->col_blk);
    free(s->scatter);
    s->row_ptr = s->row_blk = s->col_ptr = s->col_blk = NULL;
    s->scatter = NULL;
    free(s->to_permuted);
    free(s->perm);
    free(s->permuted);
    s->to_permuted = s->perm = NULL;
    s->permuted = NULL;
    cholmod_free_sparse(&s->N, &s->c);
    cholmod_free_sparse(&s->NP, &s->c);
    cholmod_free_factor(&s->L, &s->c);
    cholmod_free_dense(&s->X, &s->c);
    cholmod_free_dense(&s->Y, &s->c);
    cholmod_free_dense(&s->E, &s->c);
    SuiteSparseQR_C_free(&s->QR, &s->cl);
    cholmod_l_free_sparse(&s->A, &s->cl);
}

void mcd_lm_sparse_free(mcd_lm_sparse *s)
{
    if (!s) return;
    release(s);
    cholmod_finish(&s->c);
    cholmod_l_finish(&s->cl);
    free(s);
}

/* Compressed lists of the nonzero entries of the blocks x blocks boolean
 * matrix B, by rows (by_rows) or by columns, ascending. */
static int compress(int blocks, const unsigned char *B, int by_rows, int **ptr_out, int **idx_out)
{
    size_t count = 0, bb = (size_t)blocks * (size_t)blocks;
    for (size_t e = 0; e < bb; e++) count += B[e];
    int *ptr = malloc(((size_t)blocks + 1) * sizeof *ptr);
    int *idx = malloc((count ? count : 1) * sizeof *idx);
    *ptr_out = ptr;
    *idx_out = idx;
    if (!ptr || !idx) return 0;
    int pos = 0;
    for (int a = 0; a < blocks; a++) {
        ptr[a] = pos;
        for (int b = 0; b < blocks; b++) {
            size_t e = by_rows ? (size_t)a * blocks + b : (size_t)b * blocks + a;
            if (B[e]) idx[pos++] = b;
        }
    }
    ptr[blocks] = pos;
    return 1;
}

/* The block pattern P of W plus the diagonal, by rows and by columns. */
static int block_pattern(mcd_lm_sparse *s, const double *W)
{
    unsigned char *B = mcd_block_pattern(s->n, s->n_single, W);
    if (!B) return 0;
    int ok = compress(s->blocks, B, 1, &s->row_ptr, &s->row_blk) &&
             compress(s->blocks, B, 0, &s->col_ptr, &s->col_blk);
    free(B);
    return ok;
}

/* mark[I] = 1 for the row blocks I <= Jb of block column Jb of N. */
static void mark_normal_blocks(const mcd_lm_sparse *s, int Jb, unsigned char *mark)
{
    for (int p = s->col_ptr[Jb]; p < s->col_ptr[Jb + 1]; p++) {
        int K = s->col_blk[p];
        for (int q = s->row_ptr[K]; q < s->row_ptr[K + 1] && s->row_blk[q] <= Jb; q++)
            mark[s->row_blk[q]] = 1;
    }
}

/* The rows i <= j of column j (in block Jb) of N's upper triangle into
 * rows (if not NULL); returns their count. */
static int column_rows(const mcd_lm_sparse *s, int j, int Jb, const unsigned char *mark, int *rows)
{
    int count = 0;
    for (int I = 0; I <= Jb; I++) {
        if (!mark[I]) continue;
        int end = block_end(s, I) < j + 1 ? block_end(s, I) : j + 1;
        for (int i = block_start(s, I); i < end; i++, count++)
            if (rows) rows[count] = i;
    }
    return count;
}

/* Rows of N's upper triangle, column by column, into Ap/Ai (NULL: count
 * only). Returns the number of entries. */
static size_t normal_rows(const mcd_lm_sparse *s, unsigned char *mark, int *Ap, int *Ai)
{
    size_t pos = 0;
    for (int Jb = 0; Jb < s->blocks; Jb++) {
        mark_normal_blocks(s, Jb, mark);
        for (int j = block_start(s, Jb); j < block_end(s, Jb); j++) {
            if (Ap) Ap[j] = (int)pos;
            pos += (size_t)column_rows(s, j, Jb, mark, Ai ? Ai + pos : NULL);
        }
        memset(mark, 0, (size_t)(Jb + 1));
    }
    if (Ap) Ap[s->n] = (int)pos;
    return pos;
}

/* The pattern of N's upper triangle as a CHOLMOD matrix; 0 if it fills
 * more than MCD_LM_SPARSE_MAX_FILL of the triangle or memory fails. */
static int normal_pattern(mcd_lm_sparse *s)
{
    unsigned char *mark = calloc((size_t)s->blocks, 1);
    if (!mark) return 0;
    size_t nnz = normal_rows(s, mark, NULL, NULL);
    double triangle = 0.5 * (double)s->n * (double)(s->n + 1);
    if ((double)nnz <= MCD_LM_SPARSE_MAX_FILL * triangle && nnz <= INT_MAX)
        s->N =
            cholmod_allocate_sparse((size_t)s->n, (size_t)s->n, nnz, 1, 1, 1, CHOLMOD_REAL, &s->c);
    if (s->N) normal_rows(s, mark, s->N->p, s->N->i);
    free(mark);
    return s->N != NULL;
}

/* Rows of column j (block Jb) of the stacked [J; sqrt(lambda) I]: those of
 * J's pattern, then n + j. Into Ai from position pos (NULL: count only);
 * returns the count. */
static long stacked_rows(const mcd_lm_sparse *s, int j, int Jb, SuiteSparse_long *Ai, long pos)
{
    long count = 0;
    for (int p = s->col_ptr[Jb]; p < s->col_ptr[Jb + 1]; p++) {
        int K = s->col_blk[p];
        for (int k = block_start(s, K); k < block_end(s, K); k++, count++)
            if (Ai) Ai[pos + count] = k;
    }
    if (Ai) Ai[pos + count] = s->n + j;
    return count + 1;
}

/* The pattern of the stacked matrix and SuiteSparseQR's symbolic
 * analysis (column ordering of its default, no rank detection). */
static int stacked_pattern(mcd_lm_sparse *s)
{
    long nnz = 0;
    for (int Jb = 0; Jb < s->blocks; Jb++)
        for (int j = block_start(s, Jb); j < block_end(s, Jb); j++)
            nnz += stacked_rows(s, j, Jb, NULL, 0);
    s->A = cholmod_l_allocate_sparse(2 * (size_t)s->n, (size_t)s->n, (size_t)nnz, 1, 1, 0,
                                     CHOLMOD_REAL, &s->cl);
    if (!s->A) return 0;
    SuiteSparse_long *Ap = s->A->p, *Ai = s->A->i;
    long pos = 0;
    for (int Jb = 0; Jb < s->blocks; Jb++) {
        for (int j = block_start(s, Jb); j < block_end(s, Jb); j++) {
            Ap[j] = pos;
            pos += stacked_rows(s, j, Jb, Ai, pos);
        }
    }
    Ap[s->n] = pos;
    s->QR = SuiteSparseQR_C_symbolic(SPQR_ORDERING_DEFAULT, 0, s->A, &s->cl);
    return s->QR != NULL;
}

/* P N P^T from the ordering of the first analysis (L->Perm, fill-reducing
 * and postordered): an entry (i, j) of N moves to (min, max) of (pinv_i,
 * pinv_j), rows unsorted within a column. */
static int permute_normal_pattern(mcd_lm_sparse *s)
{
    int n = s->n, *perm = s->L->Perm, *Np = s->N->p, *Ni = s->N->i;
    size_t nnz = (size_t)Np[n];
    int *pinv = malloc((size_t)n * sizeof *pinv), *next = calloc((size_t)n + 1, sizeof *next);
    s->perm = malloc((size_t)n * sizeof *s->perm);
    s->permuted = malloc((size_t)n * sizeof *s->permuted);
    s->to_permuted = malloc((nnz ? nnz : 1) * sizeof *s->to_permuted);
    s->NP = cholmod_allocate_sparse((size_t)n, (size_t)n, nnz, 0, 1, 1, CHOLMOD_REAL, &s->c);
    int ok = pinv && next && s->perm && s->permuted && s->to_permuted && s->NP;
    if (ok) {
        memcpy(s->perm, perm, (size_t)n * sizeof *perm);
        int *Pp = s->NP->p, *Pi = s->NP->i;
        for (int k = 0; k < n; k++) pinv[perm[k]] = k;
        for (int j = 0; j < n; j++)
            for (int p = Np[j]; p < Np[j + 1]; p++)
                next[1 + (pinv[Ni[p]] > pinv[j] ? pinv[Ni[p]] : pinv[j])]++;
        for (int j = 0; j < n; j++) next[j + 1] += next[j];
        memcpy(Pp, next, ((size_t)n + 1) * sizeof *Pp);
        for (int j = 0; j < n; j++) {
            for (int p = Np[j]; p < Np[j + 1]; p++) {
                int a = pinv[Ni[p]], b = pinv[j];
                int pos = next[a > b ? a : b]++;
                Pi[pos] = a < b ? a : b;
                s->to_permuted[p] = pos;
            }
        }
    }
    free(pinv);
    free(next);
    return ok;
}

/* CHOLMOD's symbolic analysis: ordering on N, then the analysis of P N
 * P^T in its natural order without postordering (already in P), so that
 * cholmod_factorize does not permute (and allocate) at every call. */
static int analyse(mcd_lm_sparse *s)
{
    s->L = cholmod_analyze(s->N, &s->c); /* fill-reducing ordering */
    if (!s->L || s->c.status != CHOLMOD_OK || !permute_normal_pattern(s)) return 0;
    cholmod_free_factor(&s->L, &s->c);
    cholmod_common keep = s->c;
    s->c.nmethods = 1;
    s->c.method[0].ordering = CHOLMOD_NATURAL;
    s->c.postorder = 0;
    s->L = cholmod_analyze(s->NP, &s->c);
    s->c.nmethods = keep.nmethods;
    s->c.method[0].ordering = keep.method[0].ordering;
    s->c.postorder = keep.postorder;
    return s->L && s->c.status == CHOLMOD_OK;
}

int mcd_lm_sparse_setup(mcd_lm_sparse *s, int n, const double *W, int n_single)
{
    if (!s) return 0;
    release(s);
    int blocks = mcd_block_count(n, n_single);
    if (!W || n <= 0 || blocks <= 0) return 0;
    s->n = n;
    s->n_single = n_single;
    s->blocks = blocks;
    s->scatter = calloc((size_t)n, sizeof *s->scatter);
    if (s->scatter && block_pattern(s, W) && normal_pattern(s)) {
        s->ready = analyse(s) && stacked_pattern(s);
    }
    if (!s->ready) release(s);
    return s->ready;
}

/* N's values from J: column j of the upper triangle is
 *     N_ij = sum_k J_ki J_kj   (i <= j, k over the rows of J's pattern)
 * accumulated in the scatter vector by the rows k with J_kj != 0, then
 * gathered into N's pattern; lambda added on the diagonal. Returns
 * max_j N_jj. */
static double fill_normal_matrix(mcd_lm_sparse *s, const double *J, double lambda)
{
    int n = s->n, *Np = s->N->p, *Ni = s->N->i, *to = s->to_permuted;
    double *Nx = s->NP->x, *acc = s->scatter, diag_max = 0.0;
    for (int Jb = 0; Jb < s->blocks; Jb++) {
        for (int j = block_start(s, Jb); j < block_end(s, Jb); j++) {
            for (int p = s->col_ptr[Jb]; p < s->col_ptr[Jb + 1]; p++) {
                int K = s->col_blk[p];
                for (int k = block_start(s, K); k < block_end(s, K); k++) {
                    const double *Jk = J + (size_t)k * n;
                    double a = Jk[j];
                    if (a == 0) continue;
                    for (int q = s->row_ptr[K]; q < s->row_ptr[K + 1] && s->row_blk[q] <= Jb; q++) {
                        int I = s->row_blk[q];
                        int end = block_end(s, I) < j + 1 ? block_end(s, I) : j + 1;
                        for (int i = block_start(s, I); i < end; i++) acc[i] += a * Jk[i];
                    }
                }
            }
            for (int p = Np[j]; p < Np[j + 1]; p++) {
                Nx[to[p]] = acc[Ni[p]];
                acc[Ni[p]] = 0.0;
            }
            Nx[to[Np[j + 1] - 1]] += lambda; /* the diagonal: last of N's column */
            diag_max = fmax(diag_max, Nx[to[Np[j + 1] - 1]]);
        }
    }
    return diag_max;
}

/* 1 if every pivot d_j of the factor (L_jj^2 for L L^T, D_jj for L D L^T)
 * is a finite number above d_min. Supernode s stores its columns
 * column-major with leading dimension pi[s+1] - pi[s], diagonal first. */
static int pivots_above(const cholmod_factor *L, double d_min)
{
    const double *x = L->x;
    if (L->minor < L->n) return 0;
    if (L->is_super) {
        const int *super = L->super, *pi = L->pi, *px = L->px;
        for (size_t sn = 0; sn < L->nsuper; sn++) {
            int ld = pi[sn + 1] - pi[sn];
            for (int j = super[sn]; j < super[sn + 1]; j++) {
                double l = x[px[sn] + (size_t)(j - super[sn]) * (size_t)(ld + 1)];
                if (!(l * l > d_min) || !isfinite(l * l)) return 0;
            }
        }
        return 1;
    }
    const int *p = L->p;
    for (size_t j = 0; j < L->n; j++) {
        double d = L->is_ll ? x[p[j]] * x[p[j]] : x[p[j]];
        if (!(d > d_min) || !isfinite(d)) return 0;
    }
    return 1;
}

/* b := N^{-1} b with the current factor of P N P^T: (P N P^T) (P x) = P b. */
static int factor_solve(mcd_lm_sparse *s, double *b)
{
    int n = s->n;
    for (int k = 0; k < n; k++) s->permuted[k] = b[s->perm[k]];
    cholmod_dense B = {.nrow = (size_t)n,
                       .ncol = 1,
                       .nzmax = (size_t)n,
                       .d = (size_t)n,
                       .x = s->permuted,
                       .xtype = CHOLMOD_REAL,
                       .dtype = CHOLMOD_DOUBLE};
    if (!cholmod_solve2(CHOLMOD_A, s->L, &B, NULL, &s->X, NULL, &s->Y, &s->E, &s->c)) return 0;
    const double *y = s->X->x;
    for (int k = 0; k < n; k++) b[s->perm[k]] = y[k];
    return 1;
}

int mcd_lm_sparse_step(mcd_lm_sparse *s, const double *J, const double *grad, double lambda,
                       double pivot_min, double *scratch, double *d)
{
    if (!s || !s->ready) return 0;
    int n = s->n;
    double diag_max = fill_normal_matrix(s, J, lambda);
    if (!cholmod_factorize(s->NP, s->L, &s->c) || s->c.status != CHOLMOD_OK) return 0;
    if (!pivots_above(s->L, pivot_min * diag_max)) return 0;
    for (int i = 0; i < n; i++) d[i] = -grad[i];
    if (!factor_solve(s, d)) return 0;
    double *Jd = scratch, *res = scratch + n;
    mcd_dense_matvec(n, J, d, NULL, Jd);
    mcd_dense_matvec_t(n, J, Jd, res);
    for (int i = 0; i < n; i++) res[i] = -grad[i] - res[i] - lambda * d[i];
    if (!factor_solve(s, res)) return 0;
    for (int i = 0; i < n; i++) d[i] += res[i];
    return 1;
}

/* Values of the stacked matrix from J: column j holds J's column j on
 * its pattern rows, then sqrt(lambda). */
static void fill_stacked_matrix(mcd_lm_sparse *s, const double *J, double root)
{
    const SuiteSparse_long *Ap = s->A->p, *Ai = s->A->i;
    double *Ax = s->A->x;
    for (int j = 0; j < s->n; j++) {
        SuiteSparse_long last = Ap[j + 1] - 1;
        for (SuiteSparse_long p = Ap[j]; p < last; p++) Ax[p] = J[(size_t)Ai[p] * s->n + j];
        Ax[last] = root;
    }
}

int mcd_lm_sparse_least_squares(mcd_lm_sparse *s, const double *J, const double *top,
                                const double *bottom, double lambda, double *scratch, double *d)
{
    if (!s || !s->ready) return 0;
    int n = s->n;
    double root = sqrt(lambda);
    fill_stacked_matrix(s, J, root);
    if (!SuiteSparseQR_C_numeric(SPQR_NO_TOL, s->A, s->QR, &s->cl)) return 0;
    for (int i = 0; i < n; i++) {
        scratch[i] = top ? -top[i] : 0.0;
        scratch[n + i] = bottom ? root * bottom[i] : 0.0;
    }
    cholmod_dense B = {.nrow = 2 * (size_t)n,
                       .ncol = 1,
                       .nzmax = 2 * (size_t)n,
                       .d = 2 * (size_t)n,
                       .x = scratch,
                       .xtype = CHOLMOD_REAL,
                       .dtype = CHOLMOD_DOUBLE};
    cholmod_dense *Y = SuiteSparseQR_C_qmult(SPQR_QTX, s->QR, &B, &s->cl); /* Q^T b */
    cholmod_dense *X = Y ? SuiteSparseQR_C_solve(SPQR_RETX_EQUALS_B, s->QR, Y, &s->cl) : NULL;
    int ok = X && mcd_dense_isfinite(n, X->x);
    if (ok) memcpy(d, X->x, (size_t)n * sizeof *d);
    cholmod_l_free_dense(&X, &s->cl);
    cholmod_l_free_dense(&Y, &s->cl);
    return ok;
}

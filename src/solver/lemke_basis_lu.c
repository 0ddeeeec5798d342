/* The sparse LU of Lemke's basis matrices with KLU (lemke_basis_lu.h).
 *
 * A is kept by columns (CSC) once per solve; a factorization copies the
 * basis' columns into Bp/Bi/Bx (e_j, -A e_j from A's columns, -cover with
 * its nonzero entries), runs KLU's analysis (the ordering of that pattern)
 * and its factorization. */
#include "lemke_basis_lu.h"

#include <suitesparse/klu.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct mcd_lemke_basis_lu {
    klu_common c;
    int m;
    int *Ap, *Ai; /* A by columns */
    double *Ax;
    int *Bp, *Bi; /* the basis by columns: room for nnz(A) + m entries */
    double *Bx;
    klu_symbolic *sym; /* the last factorization's, NULL before the first */
    klu_numeric *num;
};

void mcd_lemke_basis_lu_free(mcd_lemke_basis_lu *s)
{
    if (!s) return;
    klu_free_numeric(&s->num, &s->c);
    klu_free_symbolic(&s->sym, &s->c);
    free(s->Ap);
    free(s->Ai);
    free(s->Ax);
    free(s->Bp);
    free(s->Bi);
    free(s->Bx);
    free(s);
}

/* The number of nonzero entries of the m x m row-major A, or limit + 1
 * as soon as it exceeds limit (a dense A is not read to its end). */
static size_t nonzeros(int m, const double *A, size_t limit)
{
    size_t nnz = 0, mm = (size_t)m * (size_t)m;
    for (size_t k = 0; k < mm && nnz <= limit; k++) nnz += A[k] != 0;
    return nnz;
}

/* A by columns into s->Ap, Ai, Ax (allocated for nnz entries). */
static void fill_columns(mcd_lemke_basis_lu *s, const double *A)
{
    int m = s->m, p = 0;
    for (int j = 0; j < m; j++) {
        s->Ap[j] = p;
        for (int i = 0; i < m; i++) {
            double a = A[(size_t)i * m + j];
            if (a == 0) continue;
            s->Ai[p] = i, s->Ax[p++] = a;
        }
    }
    s->Ap[m] = p;
}

void mcd_lemke_basis_lu_columns(const mcd_lemke_basis_lu *s, const int **Ap, const int **Ai,
                                const double **Ax)
{
    *Ap = s->Ap, *Ai = s->Ai, *Ax = s->Ax;
}

mcd_lemke_basis_lu *mcd_lemke_basis_lu_create(int m, const double *A)
{
    if (m <= MCD_LEMKE_BASIS_LU_MIN_M) return NULL;
    double fill_limit = MCD_LEMKE_BASIS_LU_MAX_FILL * (double)m * (double)m;
    size_t limit = fill_limit < (double)(INT_MAX - m) ? (size_t)fill_limit : (size_t)(INT_MAX - m);
    size_t nnz = nonzeros(m, A, limit); /* a basis has at most nnz + m entries, int-indexed */
    if (nnz > limit) return NULL;
    mcd_lemke_basis_lu *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->m = m;
    size_t room = nnz + (size_t)m;
    s->Ap = malloc(((size_t)m + 1) * sizeof *s->Ap);
    s->Ai = malloc((nnz ? nnz : 1) * sizeof *s->Ai);
    s->Ax = malloc((nnz ? nnz : 1) * sizeof *s->Ax);
    s->Bp = malloc(((size_t)m + 1) * sizeof *s->Bp);
    s->Bi = malloc(room * sizeof *s->Bi);
    s->Bx = malloc(room * sizeof *s->Bx);
    if (!s->Ap || !s->Ai || !s->Ax || !s->Bp || !s->Bi || !s->Bx || !klu_defaults(&s->c)) {
        mcd_lemke_basis_lu_free(s);
        return NULL;
    }
    s->c.tol = 1.0; /* partial pivoting: the largest entry of the column (lemke_basis_lu.h) */
    fill_columns(s, A);
    return s;
}

/* Appends column i of the basis (variable v) at entry p; returns the next p. */
static int append_column(mcd_lemke_basis_lu *s, int v, const double *cover, int p)
{
    int m = s->m;
    if (v < m) { /* w_v: e_v */
        s->Bi[p] = v, s->Bx[p++] = 1.0;
    } else if (v < 2 * m) { /* zeta_j: -A e_j */
        for (int q = s->Ap[v - m]; q < s->Ap[v - m + 1]; q++)
            s->Bi[p] = s->Ai[q], s->Bx[p++] = -s->Ax[q];
    } else { /* z0: -cover */
        for (int l = 0; l < m; l++)
            if (cover[l] != 0) s->Bi[p] = l, s->Bx[p++] = -cover[l];
    }
    return p;
}

mcd_lemke_basis_lu_status mcd_lemke_basis_lu_factor(mcd_lemke_basis_lu *s, const int *basis,
                                                    const double *cover)
{
    int m = s->m, p = 0;
    for (int i = 0; i < m; i++) {
        s->Bp[i] = p;
        p = append_column(s, basis[i], cover, p);
    }
    s->Bp[m] = p;
    klu_free_numeric(&s->num, &s->c);
    klu_free_symbolic(&s->sym, &s->c);
    s->sym = klu_analyze(m, s->Bp, s->Bi, &s->c);
    if (s->sym) s->num = klu_factor(s->Bp, s->Bi, s->Bx, s->sym, &s->c);
    if (s->num && s->c.status == KLU_OK) return MCD_LEMKE_BASIS_LU_OK;
    mcd_lemke_basis_lu_status st =
        s->c.status == KLU_SINGULAR ? MCD_LEMKE_BASIS_LU_SINGULAR : MCD_LEMKE_BASIS_LU_FAILED;
    klu_free_numeric(&s->num, &s->c);
    return st;
}

int mcd_lemke_basis_lu_factored(const mcd_lemke_basis_lu *s)
{
    return s->num != NULL;
}

void mcd_lemke_basis_lu_solve(mcd_lemke_basis_lu *s, double *x)
{
    klu_solve(s->sym, s->num, s->m, 1, x, &s->c);
}

void mcd_lemke_basis_lu_inverse(mcd_lemke_basis_lu *s, double *Binv)
{
    int m = s->m;
    memset(Binv, 0, (size_t)m * (size_t)m * sizeof *Binv);
    for (int i = 0; i < m; i++) Binv[(size_t)i * m + i] = 1.0;
    klu_tsolve(s->sym, s->num, m, m, Binv, &s->c);
}

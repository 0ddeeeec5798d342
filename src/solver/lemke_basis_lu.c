/* The sparse LU of Lemke's basis matrices with KLU, and the eta file of
 * the pivots since (lemke_basis_lu.h).
 *
 * A is kept by columns (CSC) once per solve; a factorization copies the
 * basis' columns into Bp/Bi/Bx (e_j, -A e_j from A's columns, -cover with
 * its nonzero entries), runs KLU's analysis (the ordering of that pattern)
 * and its factorization, and empties the eta file.
 *
 * Eta file. A pivot on row r with a = B^{-1} times the entering column
 * (Gauss-Jordan, lemke.c) multiplies B^{-1} from the left by E = I - (a -
 * e_r) e_r^T / a_r. Eta k keeps r_k, a_r and the other nonzero a_i; then
 * B_k^{-1} = E_k ... E_1 B_0^{-1}, B_0 the factored basis. The file holds
 * at most nnz(L + U) + m entries (within its room), so that a solve costs
 * at most about twice the factors' own: on the sphere pile's groups
 * (m = 632, nnz(L + U) = 20,000 on average) the etas are dense (m entries
 * each), some 16 on average at a solve; a file of twice that size or of
 * unbounded room took 0.50 ms per pivot, this one 0.43, half of it 0.47
 * (`mcdyn bench scenes --method mlcp-lemke --scene sphere_pile --duration
 * 0.04`, session 19). */
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
    klu_symbolic *sym; /* the last good factorization's, NULL before the first */
    klu_numeric *num;
    int neta;        /* etas since the factorization */
    int *eta_row;    /* m: pivot row r_k of eta k */
    double *eta_ar;  /* m: its pivot a_r */
    int *eta_start;  /* m + 1: its other entries are eta_idx/val[eta_start[k] .. [k + 1] - 1] */
    int *eta_idx;    /* pool entries: row i */
    double *eta_val; /* pool entries: a_i */
    size_t pool;     /* room for entries */
    size_t limit;    /* entries allowed since the factorization: min(pool, nnz(L + U) + m) */
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
    free(s->eta_row);
    free(s->eta_ar);
    free(s->eta_start);
    free(s->eta_idx);
    free(s->eta_val);
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
    s->pool = MCD_LEMKE_BASIS_LU_ETA_ROOM * room;
    s->eta_row = malloc((size_t)m * sizeof *s->eta_row);
    s->eta_ar = malloc((size_t)m * sizeof *s->eta_ar);
    s->eta_start = malloc(((size_t)m + 1) * sizeof *s->eta_start);
    s->eta_idx = malloc(s->pool * sizeof *s->eta_idx);
    s->eta_val = malloc(s->pool * sizeof *s->eta_val);
    if (!s->Ap || !s->Ai || !s->Ax || !s->Bp || !s->Bi || !s->Bx || !s->eta_row || !s->eta_ar ||
        !s->eta_start || !s->eta_idx || !s->eta_val || !klu_defaults(&s->c)) {
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
    klu_symbolic *sym = klu_analyze(m, s->Bp, s->Bi, &s->c);
    klu_numeric *num = sym ? klu_factor(s->Bp, s->Bi, s->Bx, sym, &s->c) : NULL;
    if (num && s->c.status == KLU_OK) {
        klu_free_numeric(&s->num, &s->c);
        klu_free_symbolic(&s->sym, &s->c);
        s->sym = sym, s->num = num, s->neta = 0, s->eta_start[0] = 0;
        const size_t lu = (size_t)num->lnz + (size_t)num->unz + (size_t)m;
        s->limit = lu < s->pool ? lu : s->pool;
        return MCD_LEMKE_BASIS_LU_OK;
    }
    mcd_lemke_basis_lu_status st =
        s->c.status == KLU_SINGULAR ? MCD_LEMKE_BASIS_LU_SINGULAR : MCD_LEMKE_BASIS_LU_FAILED;
    klu_free_numeric(&num, &s->c);
    klu_free_symbolic(&sym, &s->c);
    return st;
}

int mcd_lemke_basis_lu_factored(const mcd_lemke_basis_lu *s)
{
    return s->num != NULL;
}

int mcd_lemke_basis_lu_update(mcd_lemke_basis_lu *s, int r, const double *a)
{
    int m = s->m, k = s->neta;
    size_t p = (size_t)s->eta_start[k], nz = 0;
    for (int i = 0; i < m; i++) nz += i != r && a[i] != 0;
    if (k == m || nz > s->limit - p) return 0;
    for (int i = 0; i < m; i++)
        if (i != r && a[i] != 0) s->eta_idx[p] = i, s->eta_val[p++] = a[i];
    s->eta_row[k] = r, s->eta_ar[k] = a[r];
    s->eta_start[++s->neta] = (int)p;
    return 1;
}

int mcd_lemke_basis_lu_updates(const mcd_lemke_basis_lu *s)
{
    return s->neta;
}

/* x = E_k x for eta k (the pivot's Gauss-Jordan step, as lemke.c's pivot). */
static void apply_eta(const mcd_lemke_basis_lu *s, int k, double *x)
{
    const int r = s->eta_row[k];
    const double xr = x[r] / s->eta_ar[k];
    x[r] = xr;
    if (xr == 0) return;
    for (int p = s->eta_start[k]; p < s->eta_start[k + 1]; p++)
        x[s->eta_idx[p]] -= s->eta_val[p] * xr;
}

/* x = E_k^T x: only x_r changes, to (x_r - sum_{i != r} a_i x_i) / a_r. */
static void apply_eta_transposed(const mcd_lemke_basis_lu *s, int k, double *x)
{
    const int r = s->eta_row[k];
    double sum = x[r];
    for (int p = s->eta_start[k]; p < s->eta_start[k + 1]; p++)
        sum -= s->eta_val[p] * x[s->eta_idx[p]];
    x[r] = sum / s->eta_ar[k];
}

void mcd_lemke_basis_lu_solve(mcd_lemke_basis_lu *s, double *x)
{
    klu_solve(s->sym, s->num, s->m, 1, x, &s->c);
    for (int k = 0; k < s->neta; k++) apply_eta(s, k, x);
}

void mcd_lemke_basis_lu_solve_transposed(mcd_lemke_basis_lu *s, double *x)
{
    for (int k = s->neta - 1; k >= 0; k--) apply_eta_transposed(s, k, x);
    klu_tsolve(s->sym, s->num, s->m, 1, x, &s->c);
}

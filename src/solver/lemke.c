/* Lemke's method with the lexicographic ratio test (lemke.h).
 *
 * Tableau w - A zeta - e z0 = b. Variables are numbered w_j = j,
 * zeta_j = m + j, z0 = 2m; their columns are e_j, -A e_j and -e. The
 * basis starts as {w}; z0 enters, the row of the lexicographically most
 * negative b_i leaves, and then the complement of each leaving variable
 * enters, until z0 leaves (solution) or no row limits the entering variable
 * (ray). Rows of [x_B, B^{-1}] stay lexicographically positive, which rules
 * out cycling. */
#include "lemke.h"

#include "../base/lapack.h"
#include "dense.h"

#include <math.h>
#include <string.h>

#define LEMKE_PIVOT_TOL 1e-11 /* pivots below this fraction of max |a_i| are ignored */
#define LEMKE_TIE_TOL   1e-12 /* relative tolerance for equal ratios */

static int z0_index(int m)
{
    return 2 * m;
}
static int complement(int m, int v)
{
    return v < m ? v + m : v - m;
}

/* a = B^{-1} times the column of variable v. */
static void entering_column(int m, const double *A, const mcd_lemke_ws *w, int v)
{
    if (v < m) { /* w_v: column e_v */
        for (int i = 0; i < m; i++) w->col[i] = w->Binv[(size_t)i * m + v];
        return;
    }
    for (int l = 0; l < m; l++) w->tmp[l] = v < 2 * m ? A[(size_t)l * m + (v - m)] : 1.0;
    mcd_dense_matvec(m, w->Binv, w->tmp, NULL, w->col);
    for (int i = 0; i < m; i++) w->col[i] = -w->col[i]; /* columns -A e_j and -e */
}

/* Keeps, among the nt rows in ties, those whose value v_i / a_i is minimal
 * (within LEMKE_TIE_TOL); returns how many remain. */
static int keep_minimal(int nt, int *ties, const double *v, int stride, const double *a)
{
    double best = INFINITY;
    for (int t = 0; t < nt; t++) best = fmin(best, v[(size_t)ties[t] * stride] / a[ties[t]]);
    double limit = best + LEMKE_TIE_TOL * (1.0 + fabs(best));
    int kept = 0;
    for (int t = 0; t < nt; t++)
        if (v[(size_t)ties[t] * stride] / a[ties[t]] <= limit) ties[kept++] = ties[t];
    return kept;
}

/* Lexicographic minimum-ratio test for the entering column w->col: the row
 * minimising (x_B,i, B^{-1}_i) / a_i over a_i > 0, preferring the row of z0
 * when it ties on x_B,i / a_i. -1 if no a_i is positive (ray). */
static int ratio_test(int m, const mcd_lemke_ws *w)
{
    const double *a = w->col;
    double amax = 0.0;
    for (int i = 0; i < m; i++) amax = fmax(amax, fabs(a[i]));
    int nt = 0;
    for (int i = 0; i < m; i++)
        if (a[i] > LEMKE_PIVOT_TOL * amax) w->ties[nt++] = i;
    if (nt == 0) return -1;
    nt = keep_minimal(nt, w->ties, w->xB, 1, a);
    for (int t = 0; t < nt; t++)
        if (w->basis[w->ties[t]] == z0_index(m)) return w->ties[t];
    for (int c = 0; c < m && nt > 1; c++) nt = keep_minimal(nt, w->ties, w->Binv + c, m, a);
    return w->ties[0];
}

/* Gauss-Jordan pivot on row r with column a = w->col: updates B^{-1}, x_B. */
static void pivot(int m, const mcd_lemke_ws *w, int r)
{
    const double *a = w->col;
    double *Br = w->Binv + (size_t)r * m;
    double ar = a[r];
    for (int j = 0; j < m; j++) Br[j] /= ar;
    w->xB[r] /= ar;
    for (int i = 0; i < m; i++) {
        if (i == r || a[i] == 0) continue;
        double *Bi = w->Binv + (size_t)i * m;
        for (int j = 0; j < m; j++) Bi[j] -= a[i] * Br[j];
        w->xB[i] -= a[i] * w->xB[r];
    }
}

/* First pivot: z0 enters (column -e) and the row of the lexicographically
 * smallest (b_i, e_i) leaves; among equal b_i that is the largest index,
 * which keeps every row lexicographically positive. */
static int first_row(int m, const double *b)
{
    int r = 0;
    for (int i = 1; i < m; i++)
        if (b[i] <= b[r]) r = i;
    return r;
}

static void start_basis(int m, const double *b, const mcd_lemke_ws *w)
{
    memset(w->Binv, 0, (size_t)m * m * sizeof *w->Binv);
    for (int i = 0; i < m; i++) {
        w->Binv[(size_t)i * m + i] = 1.0;
        w->basis[i] = i;
    }
    memcpy(w->xB, b, (size_t)m * sizeof *w->xB);
}

/* Recomputes x_B = B^{-1} b from an LU factorization of the final basis
 * (the product-form B^{-1} accumulates rounding over many pivots). Keeps
 * the updated values if that basis is numerically singular. */
static void refine(int m, const double *A, const double *b, const mcd_lemke_ws *w)
{
    for (int i = 0; i < m; i++) { /* column i of B (column-major) */
        double *col = w->B + (size_t)i * m;
        int v = w->basis[i];
        for (int l = 0; l < m; l++)
            col[l] = v < m ? (l == v) : v < 2 * m ? -A[(size_t)l * m + (v - m)] : -1.0;
    }
    memcpy(w->tmp, b, (size_t)m * sizeof *w->tmp);
    int one = 1, info;
    dgesv_(&m, &one, w->B, &m, w->ipiv, w->tmp, &m, &info);
    if (info == 0) memcpy(w->xB, w->tmp, (size_t)m * sizeof *w->xB);
}

static void extract(int m, const mcd_lemke_ws *w, double *zeta)
{
    memset(zeta, 0, (size_t)m * sizeof *zeta);
    for (int i = 0; i < m; i++)
        if (w->basis[i] >= m && w->basis[i] < 2 * m) zeta[w->basis[i] - m] = fmax(0.0, w->xB[i]);
}

mcd_status mcd_lemke(int m, const double *A, const double *b, int max_pivots, const mcd_lemke_ws *w,
                     double *zeta, int *pivots)
{
    *pivots = 0;
    memset(zeta, 0, (size_t)m * sizeof *zeta);
    if (m == 0) return MCD_OK;
    int r = first_row(m, b);
    if (b[r] >= 0) return MCD_OK; /* zeta = 0 solves it */
    start_basis(m, b, w);
    int entering = z0_index(m);
    mcd_status status = MCD_OK;
    for (;;) {
        if (*pivots == max_pivots) {
            status = MCD_ERR_NOT_CONVERGED;
            break;
        }
        entering_column(m, A, w, entering);
        if (*pivots > 0) r = ratio_test(m, w);
        if (r < 0) {
            status = MCD_ERR_INFEASIBLE;
            break;
        }
        pivot(m, w, r);
        ++*pivots;
        int leaving = w->basis[r];
        w->basis[r] = entering;
        if (leaving == z0_index(m)) break;
        entering = complement(m, leaving);
    }
    if (status == MCD_OK) refine(m, A, b, w);
    extract(m, w, zeta);
    return status;
}

/* Block principal pivoting for the LCP (include/mcdyn/lcp_block_pivot.h):
 * Judice & Pires (1994), "A block principal pivoting algorithm for
 * large-scale strictly monotone linear complementarity problems", Computers
 * & Operations Research 21(5), with Murty's single principal pivot as the
 * fall-back that makes it finite on P-matrices.
 *
 * The principal blocks M_FF are LU-factored (LAPACK dgetrf) column-major in
 * the workspace; F is a 0/1 mask. Sets visited in the single-exchange phase
 * are kept as bitsets in a ring for the cycling test. */
#include "mcdyn/lcp_block_pivot.h"

#include "../base/lapack.h"
#include "dense.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BPP_DEFAULT_TRIES 10    /* Judice & Pires' p-bar */
#define BPP_DEFAULT_TOL   1e-12 /* feasibility, relative to 1 + |q|_inf */

struct mcd_bpp_ws {
    int n_max, words, hist_cap;
    double *A;    /* n_max^2: M_FF (or M), column-major, then its LU */
    double *x;    /* n_max: right-hand side, then z_F */
    double *work; /* 4 n_max: dgecon */
    int *ipiv;    /* n_max */
    int *iwork;   /* n_max: dgecon */
    int *idx;     /* n_max: the indices of F */
    unsigned char *in_F;
    uint64_t *hist; /* hist_cap bitsets of words 64-bit words */
};

const char *mcd_bpp_result_str(mcd_bpp_result r)
{
    static const char *const s[] = {"solved", "singular", "cycling", "iteration limit",
                                    "invalid input"};
    return (int)r >= 0 && r <= MCD_BPP_INVALID ? s[r] : "unknown";
}

mcd_bpp_opts mcd_bpp_default_opts(void)
{
    mcd_bpp_opts o = {0, BPP_DEFAULT_TRIES, BPP_DEFAULT_TOL, 0.0};
    return o;
}

void mcd_bpp_ws_free(mcd_bpp_ws *w)
{
    if (!w) return;
    free(w->A), free(w->x), free(w->work), free(w->ipiv), free(w->iwork), free(w->idx);
    free(w->in_F), free(w->hist);
    free(w);
}

mcd_status mcd_bpp_ws_create(int n_max, mcd_bpp_ws **out, mcd_error *err)
{
    if (!out || n_max < 1)
        return mcd_fail(err, MCD_ERR_ARG, "mcd_bpp_ws_create: need out and n_max >= 1");
    mcd_bpp_ws *w = calloc(1, sizeof *w);
    if (!w) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    const size_t n = (size_t)n_max;
    w->n_max = n_max;
    w->words = (n_max + 63) / 64;
    w->hist_cap = 2 * n_max + 2;
    w->A = malloc(n * n * sizeof *w->A);
    w->x = malloc(n * sizeof *w->x);
    w->work = malloc(4 * n * sizeof *w->work);
    w->ipiv = malloc(n * sizeof *w->ipiv);
    w->iwork = malloc(n * sizeof *w->iwork);
    w->idx = malloc(n * sizeof *w->idx);
    w->in_F = malloc(n);
    w->hist = malloc((size_t)w->hist_cap * (size_t)w->words * sizeof *w->hist);
    if (!w->A || !w->x || !w->work || !w->ipiv || !w->iwork || !w->idx || !w->in_F || !w->hist) {
        mcd_bpp_ws_free(w);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    }
    *out = w;
    return MCD_OK;
}

/* LU of the m x m column-major w->A in place and its reciprocal condition
 * number (0 when a pivot is exactly zero). */
static double factor(mcd_bpp_ws *w, int m)
{
    double anorm = 0.0, rcond = 0.0;
    for (int j = 0; j < m; j++) {
        double s = 0.0;
        for (int i = 0; i < m; i++) s += fabs(w->A[(size_t)j * m + i]);
        anorm = fmax(anorm, s);
    }
    int info = 0;
    dgetrf_(&m, &m, w->A, &m, w->ipiv, &info);
    if (info != 0 || anorm == 0.0) return 0.0;
    dgecon_("1", &m, w->A, &m, &anorm, &rcond, w->work, w->iwork, &info);
    return info == 0 ? rcond : 0.0;
}

static mcd_status check_input(const mcd_bpp_ws *w, int n, const double *M, const double *q,
                              const double *z, const double *wv, mcd_error *err)
{
    if (!w || n < 0 || (n > 0 && (!M || !q || !z || !wv)) || z == wv)
        return mcd_fail(err, MCD_ERR_ARG, "block pivoting: NULL argument, n < 0 or z aliasing w");
    if (n > w->n_max)
        return mcd_fail(err, MCD_ERR_CAPACITY, "block pivoting: n = %d exceeds the workspace's %d",
                        n, w->n_max);
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
        if (!isfinite(M[i]))
            return mcd_fail(err, MCD_ERR_NONFINITE, "block pivoting: M[%zu][%zu] is not finite",
                            i / (size_t)n, i % (size_t)n);
    for (int i = 0; i < n; i++)
        if (!isfinite(q[i]))
            return mcd_fail(err, MCD_ERR_NONFINITE, "block pivoting: q[%d] is not finite", i);
    return MCD_OK;
}

mcd_status mcd_bpp_rcond(mcd_bpp_ws *w, int n, const double *M, double *rcond, mcd_error *err)
{
    if (!w || !M || !rcond || n < 1)
        return mcd_fail(err, MCD_ERR_ARG, "mcd_bpp_rcond: bad argument");
    if (n > w->n_max)
        return mcd_fail(err, MCD_ERR_CAPACITY, "mcd_bpp_rcond: n = %d exceeds %d", n, w->n_max);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const double v = M[(size_t)i * n + j];
            if (!isfinite(v))
                return mcd_fail(err, MCD_ERR_NONFINITE, "mcd_bpp_rcond: M[%d][%d] not finite", i,
                                j);
            w->A[(size_t)j * n + i] = v;
        }
    *rcond = factor(w, n);
    return MCD_OK;
}

/* z_F = -M_FF^{-1} q_F, z_G = 0, w_G = q_G + M_GF z_F, w_F = 0. Returns 0
 * when M_FF is singular (rcond < sing_tol). */
static int complementary_point(mcd_bpp_ws *w, int n, const double *M, const double *q,
                               double sing_tol, double *z, double *wv)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (w->in_F[i]) w->idx[m++] = i;
    for (int j = 0; j < m; j++)
        for (int i = 0; i < m; i++) w->A[(size_t)j * m + i] = M[(size_t)w->idx[i] * n + w->idx[j]];
    for (int i = 0; i < m; i++) w->x[i] = -q[w->idx[i]];
    if (m > 0) {
        if (factor(w, m) < sing_tol) return 0;
        int one = 1, info = 0;
        dgetrs_("N", &m, &one, w->A, &m, w->ipiv, w->x, &m, &info);
    }
    memset(z, 0, (size_t)n * sizeof *z);
    for (int i = 0; i < m; i++) z[w->idx[i]] = w->x[i];
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        if (!w->in_F[i]) {
            s = q[i];
            for (int j = 0; j < m; j++) s += M[(size_t)i * n + w->idx[j]] * w->x[j];
        }
        wv[i] = s;
    }
    return 1;
}

/* Number of infeasible indices; *last receives the largest of them. */
static int infeasible(const mcd_bpp_ws *w, int n, const double *z, const double *wv, double tau,
                      int *last)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        if (w->in_F[i] ? z[i] < -tau : wv[i] < -tau) count++, *last = i;
    return count;
}

static void block_exchange(mcd_bpp_ws *w, int n, const double *z, const double *wv, double tau)
{
    for (int i = 0; i < n; i++)
        if (w->in_F[i] ? z[i] < -tau : wv[i] < -tau) w->in_F[i] = (unsigned char)!w->in_F[i];
}

/* Records F in the ring of single-exchange sets; 1 if it was there. */
static int seen_before(mcd_bpp_ws *w, int n, int *hist_len)
{
    uint64_t *cur = w->hist + (size_t)(*hist_len % w->hist_cap) * (size_t)w->words;
    memset(cur, 0, (size_t)w->words * sizeof *cur);
    for (int i = 0; i < n; i++)
        if (w->in_F[i]) cur[i / 64] |= (uint64_t)1 << (i % 64);
    const int stored = *hist_len < w->hist_cap ? *hist_len : w->hist_cap;
    for (int h = 0; h < stored; h++) {
        const uint64_t *old = w->hist + (size_t)h * (size_t)w->words;
        if (old != cur && memcmp(old, cur, (size_t)w->words * sizeof *cur) == 0) return 1;
    }
    (*hist_len)++;
    return 0;
}

static double residual(int n, const double *M, const double *q, const double *z, double *wv)
{
    double r = 0.0, qn = 0.0;
    for (int i = 0; i < n; i++) {
        double s = q[i];
        for (int j = 0; j < n; j++) s += M[(size_t)i * n + j] * z[j];
        wv[i] = s;
        r = fmax(r, fabs(fmin(z[i], s)));
        qn = fmax(qn, fabs(q[i]));
    }
    return r / (1.0 + qn);
}

/* The pivoting loop from F = {} on a nonsingular M. */
static mcd_bpp_result pivot_loop(mcd_bpp_ws *w, int n, const double *M, const double *q,
                                 const mcd_bpp_opts *o, double *z, double *wv, mcd_bpp_stats *st)
{
    const double qn = mcd_dense_max_abs(n, q);
    const double tau = o->tol * (1.0 + qn);
    const int max_iter = o->max_iter > 0 ? o->max_iter : 10 * n + 10;
    int best = n + 1, tries = o->max_block_tries, hist_len = 0, last = -1;
    memset(w->in_F, 0, (size_t)n);
    for (;;) {
        if (!complementary_point(w, n, M, q, o->sing_tol, z, wv)) return MCD_BPP_SINGULAR;
        const int ninf = infeasible(w, n, z, wv, tau, &last);
        if (ninf == 0) return MCD_BPP_SOLVED;
        if (st->iterations >= max_iter) return MCD_BPP_MAX_ITER;
        st->iterations++;
        if (ninf < best || tries > 0) {
            if (ninf < best)
                best = ninf, tries = o->max_block_tries, hist_len = 0;
            else
                tries--;
            block_exchange(w, n, z, wv, tau);
            st->block_pivots++;
            continue;
        }
        if (seen_before(w, n, &hist_len)) return MCD_BPP_CYCLING;
        w->in_F[last] = (unsigned char)!w->in_F[last]; /* Murty: the largest infeasible index */
        st->single_pivots++;
    }
}

static mcd_status outcome(mcd_bpp_result r, const mcd_bpp_stats *st, double sing_tol,
                          mcd_error *err)
{
    switch (r) {
    case MCD_BPP_SOLVED:
        return MCD_OK;
    case MCD_BPP_SINGULAR:
        return mcd_fail(err, MCD_ERR_SINGULAR,
                        "block pivoting: singular %s after %d exchanges (rcond of M %.3g); the "
                        "method needs a nonsingular matrix",
                        st->rcond < sing_tol ? "M" : "principal block", st->iterations, st->rcond);
    default:
        return mcd_fail(err, MCD_ERR_NOT_CONVERGED, "block pivoting: %s after %d exchanges",
                        mcd_bpp_result_str(r), st->iterations);
    }
}

mcd_status mcd_bpp_solve(mcd_bpp_ws *w, int n, const double *M, const double *q,
                         const mcd_bpp_opts *opts, double *z, double *wv, mcd_bpp_stats *stats,
                         mcd_error *err)
{
    mcd_bpp_stats local;
    if (!stats) stats = &local;
    memset(stats, 0, sizeof *stats);
    stats->result = MCD_BPP_INVALID;
    mcd_bpp_opts o = opts ? *opts : mcd_bpp_default_opts();
    mcd_status s = check_input(w, n, M, q, z, wv, err);
    if (s == MCD_OK &&
        (!(o.tol >= 0) || !isfinite(o.tol) || !isfinite(o.sing_tol) || o.max_block_tries < 0))
        s = mcd_fail(err, MCD_ERR_ARG, "block pivoting: tol >= 0, max_block_tries >= 0 needed");
    if (s != MCD_OK || n == 0) {
        if (s == MCD_OK) stats->result = MCD_BPP_SOLVED;
        return s;
    }
    if (o.sing_tol <= 0) o.sing_tol = n * DBL_EPSILON;
    mcd_bpp_rcond(w, n, M, &stats->rcond, NULL);
    mcd_bpp_result r = MCD_BPP_SINGULAR;
    if (stats->rcond >= o.sing_tol)
        r = pivot_loop(w, n, M, q, &o, z, wv, stats);
    else
        memset(z, 0, (size_t)n * sizeof *z);
    for (int i = 0; i < n; i++) z[i] = fmax(z[i], 0.0);
    stats->residual = residual(n, M, q, z, wv);
    stats->result = r;
    return outcome(r, stats, o.sing_tol, err);
}

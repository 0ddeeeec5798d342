/* Operational-space compliance Lambda = J M^{-1} J^T in O(N) + O(K^2)
 * (include/mcdyn/osc.h; docs/theory/operational-space.md).
 *
 * With spatial vectors referred to the world origin, the articulated-body
 * factorization gives for each body the 6x6 operators
 *   tau-bar(k)   = I - G(k) H(k),          G = P H^* D^{-1} (data.h)
 *   tau-bar^*(k) = I - H^*(k) G(k)^T
 * A unit force on body j reaches its ancestors as Psi(j, a) f (the tip-to-
 * base bias sweep with T = 0), and the resulting acceleration spreads down
 * from a with tau-bar^* (the base-to-tip sweep with eps = 0 off the path),
 * so the body-to-body compliance is Omega(i, j) = Psi(i,a)^* Omega(a) Psi(j,a). */
#include "dynamics_internal.h"
#include "osc_internal.h"

#include <stdlib.h>
#include <string.h>

#define OSC_INSERTION_SORT_MAX 64 /* longest path sorted by insertion */

/* X = tau-bar(k) X = X - G (H X) for a 6x6 row-major X; H^* and G have
 * n columns of 6 (inlined with n = 1 by tau_bar_left). */
static inline void tau_bar_left_n(const double *Hs, const double *G, int n, double *X)
{
    double HX[36]; /* n x 6 */
    for (int r = 0; r < n; r++)
        for (int j = 0; j < 6; j++) {
            double t = 0.0;
            for (int i = 0; i < 6; i++) t += Hs[6 * r + i] * X[6 * i + j];
            HX[6 * r + j] = t;
        }
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double t = 0.0;
            for (int r = 0; r < n; r++) t += G[6 * r + i] * HX[6 * r + j];
            X[6 * i + j] -= t;
        }
}

static void tau_bar_left(const double *Hs, const double *G, int n, double *X)
{
    if (n == 1)
        tau_bar_left_n(Hs, G, 1, X);
    else
        tau_bar_left_n(Hs, G, n, X);
}

/* X = X tau-bar(k) = X - (X G) H for a 6x6 row-major X. */
static void tau_bar_right(const double *Hs, const double *G, int n, double *X)
{
    double XG[36]; /* 6 x n */
    for (int i = 0; i < 6; i++)
        for (int c = 0; c < n; c++) {
            double t = 0.0;
            for (int k = 0; k < 6; k++) t += X[6 * i + k] * G[6 * c + k];
            XG[n * i + c] = t;
        }
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double t = 0.0;
            for (int c = 0; c < n; c++) t += XG[n * i + c] * Hs[6 * c + j];
            X[6 * i + j] -= t;
        }
}

/* X = tau-bar(k) = I - g s^T for a one-column hinge (s = H^*, g = G):
 * tau_bar_left_n on the identity without its products by exact zeros and
 * ones (H I = s^T), bitwise the same. */
static void tau_bar_one_dof(const double *MCD_RESTRICT s, const double *MCD_RESTRICT g,
                            double *MCD_RESTRICT X)
{
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) X[6 * i + j] = (i == j ? 1.0 : 0.0) - g[i] * s[j];
}

static void mat6_identity(double *X)
{
    memset(X, 0, 36 * sizeof *X);
    for (int i = 0; i < 6; i++) X[7 * i] = 1.0;
}

static int by_decreasing_index(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x < y) - (x > y);
}

/* Sorts the n body indices of list into decreasing order. The list is K
 * decreasing runs (one per point), so insertion sort costs O(n^2) when a
 * later run holds deeper bodies than an earlier one (points spread along a
 * chain of 4096 bodies: 3.7 ms instead of 0.66 ms for K = 8, measured);
 * it is kept for short paths (a robot's), where it beats qsort's calls. */
static void sort_decreasing(int *list, int n)
{
    if (n > OSC_INSERTION_SORT_MAX) {
        qsort(list, (size_t)n, sizeof *list, by_decreasing_index);
        return;
    }
    for (int i = 1; i < n; i++) {
        const int x = list[i];
        int j = i - 1;
        for (; j >= 0 && list[j] < x; j--) list[j + 1] = list[j];
        list[j + 1] = x;
    }
}

/* Marks the union of the points' paths to the root (w->marked, MCD_OSC_*
 * values of osc_internal.h), lists it in w->path children before parents
 * (parents have lower indices), and gives a key slot to each key body: a
 * body carrying a point, or a branch point where two marked subtrees meet.
 * Visits only that union, in O(path + path log path). Returns the number
 * of key slots. */
static int mark_key_bodies(const mcd_model *m, mcd_osc_ws *w, int K, const mcd_osc_point *pts)
{
    w->npath = 0;
    for (int i = 0; i < K; i++) {
        const int b = pts[i].body;
        if (w->marked[b] == MCD_OSC_OFF_PATH) w->path[w->npath++] = b;
        w->marked[b] = MCD_OSC_CARRIES_POINT;
        for (int p = m->body[b].parent; p >= 0 && w->marked[p] == MCD_OSC_OFF_PATH;
             p = m->body[p].parent) {
            w->marked[p] = MCD_OSC_ON_PATH;
            w->path[w->npath++] = p;
        }
    }
    sort_decreasing(w->path, w->npath);
    int nslot = 0;
    for (int i = 0; i < w->npath; i++) { /* children first: nbranch[k] is complete */
        const int k = w->path[i];
        if (w->marked[k] == MCD_OSC_CARRIES_POINT || w->nbranch[k] >= 2) w->key_slot[k] = nslot++;
        if (m->body[k].parent >= 0) w->nbranch[m->body[k].parent]++;
    }
    return nslot;
}

/* Back to the state between calls, on the path only. */
static void unmark(mcd_osc_ws *w)
{
    for (int i = 0; i < w->npath; i++) {
        const int k = w->path[i];
        w->marked[k] = MCD_OSC_OFF_PATH, w->nbranch[k] = 0, w->key_slot[k] = -1;
    }
    w->npath = 0;
}

/* Omega(k) for a one-column hinge (s, g = G(k), D^{-1}), from Omega(p),
 * exploiting symmetry: with h = Omega(p) g,
 *   tau-bar^* Omega(p) tau-bar + s s^T / D
 *     = Omega(p) - s h^T - h s^T + (g^T h + 1/D) s s^T. */
static void omega_one_dof(const double *MCD_RESTRICT s, const double *MCD_RESTRICT g, double Dinv,
                          const double *MCD_RESTRICT Op, double *MCD_RESTRICT Om)
{
    double h[6], alpha = Dinv;
    for (int i = 0; i < 6; i++) {
        h[i] = Op[6 * i] * g[0] + Op[6 * i + 1] * g[1] + Op[6 * i + 2] * g[2] +
               Op[6 * i + 3] * g[3] + Op[6 * i + 4] * g[4] + Op[6 * i + 5] * g[5];
        alpha += g[i] * h[i];
    }
#pragma GCC unroll 6 /* both loops: 21 straight-line entries */
    for (int i = 0; i < 6; i++)
#pragma GCC unroll 6
        for (int j = i; j < 6; j++)
            Om[6 * i + j] = Om[6 * j + i] =
                Op[6 * i + j] - s[i] * h[j] - h[i] * s[j] + alpha * s[i] * s[j];
}

/* Om += H^* D^{-1} H for an n-column hinge: E = D^{-1} H (n x 6) first,
 * then the 6 x 6 product H^* E, O(36 n + 6 n^2) instead of O(36 n^2);
 * inlined with n = 6 (the free joint) by add_hinge_term. */
static inline void add_hinge_term_n(const double *Hs, const double *Dinv, int n, double *Om)
{
    double E[36];
    for (int r = 0; r < n; r++)
        for (int j = 0; j < 6; j++) {
            double t = 0.0;
            for (int c = 0; c < n; c++) t += Dinv[n * r + c] * Hs[6 * c + j];
            E[6 * r + j] = t;
        }
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double t = 0.0;
            for (int r = 0; r < n; r++) t += Hs[6 * r + i] * E[6 * r + j];
            Om[6 * i + j] += t;
        }
}

static void add_hinge_term(const double *Hs, const double *Dinv, int n, double *Om)
{
    if (n == 6)
        add_hinge_term_n(Hs, Dinv, 6, Om);
    else
        add_hinge_term_n(Hs, Dinv, n, Om);
}

/* Om = H^* D^{-1} H for a floating base whose translation columns of H^*
 * are exactly [0; e_c] (mcd_body_plan.unit_translation): add_hinge_term_n's
 * sums from zero without their products by those exact zeros and ones,
 * bitwise the same. With E = D^{-1} H: E_rj for j < 3 sums over the
 * rotation columns c = 3..5 only, and for j >= 3 starts from D^{-1}_r,j-3;
 * likewise (H^* E)_ij over r = 3..5, from E_i-3,j for i >= 3. */
static void free_hinge_term(const double *Hs, const double *Dinv, double *Om)
{
    double E[36];
    for (int r = 0; r < 6; r++)
        for (int j = 0; j < 6; j++) {
            const double *Dr = Dinv + 6 * r;
            double t = j < 3 ? Dr[3] * Hs[18 + j] : Dr[j - 3] + Dr[3] * Hs[18 + j];
            E[6 * r + j] = (t + Dr[4] * Hs[24 + j]) + Dr[5] * Hs[30 + j];
        }
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double t = i < 3 ? Hs[18 + i] * E[18 + j] : E[6 * (i - 3) + j] + Hs[18 + i] * E[18 + j];
            Om[6 * i + j] = (t + Hs[24 + i] * E[24 + j]) + Hs[30 + i] * E[30 + j];
        }
}

/* Omega(k) = tau-bar^* Omega(parent) tau-bar + H^* D^{-1} H on marked bodies. */
static void omega_sweep(const mcd_model *m, mcd_data *d, mcd_osc_ws *w)
{
    static const double zero[36] = {0};
    for (int i = w->npath - 1; i >= 0; i--) { /* parents first */
        const int k = w->path[i];
        const mcd_body *B = &m->body[k];
        const int n = B->nv;
        const double *Hs = d->Hstar + 6 * B->vadr, *G = d->G + 6 * B->vadr;
        const double *Dinv = d->Dinv + d->plan[k].dinv_adr;
        const double *Op = B->parent >= 0 ? w->Omega + 36 * B->parent : zero;
        double *Om = w->Omega + 36 * k;
        if (n == 1) {
            omega_one_dof(Hs, G, Dinv[0], Op, Om);
            continue;
        }
        if (B->parent >= 0) { /* Y = Omega(p) tau-bar; Om = Y^T tau-bar (Omega(p) symmetric) */
            double T[36];
            memcpy(T, Op, sizeof T);
            tau_bar_right(Hs, G, n, T);
            for (int i = 0; i < 6; i++)
                for (int j = 0; j < 6; j++) Om[6 * i + j] = T[6 * j + i];
            tau_bar_right(Hs, G, n, Om);
        } else if (d->plan[k].unit_translation) { /* Omega(world) = 0 */
            free_hinge_term(Hs, Dinv, Om);
            continue;
        } else { /* Omega(world) = 0: only the last term */
            memset(Om, 0, 36 * sizeof *Om);
        }
        add_hinge_term(Hs, Dinv, n, Om);
    }
}

/* Psi_seg of each key body: tau-bar products up to its nearest key ancestor
 * (none is needed above the topmost key body of a tree). */
static void segment_products(const mcd_model *m, const mcd_data *d, mcd_osc_ws *w)
{
    for (int i = 0; i < w->npath; i++) {
        const int k = w->path[i];
        int s = w->key_slot[k];
        if (s < 0) continue;
        int top = m->body[k].parent;
        while (top >= 0 && w->key_slot[top] < 0) top = m->body[top].parent;
        w->slot_body[s] = k;
        w->slot_parent[s] = top >= 0 ? w->key_slot[top] : -1;
        if (top < 0) continue;
        double *Psi = w->Psi_seg + 36 * s;
        int b = k;
        if (m->body[k].nv == 1) { /* tau-bar(k) I */
            tau_bar_one_dof(d->Hstar + 6 * m->body[k].vadr, d->G + 6 * m->body[k].vadr, Psi);
            b = m->body[k].parent;
        } else {
            mat6_identity(Psi);
        }
        for (; b != top; b = m->body[b].parent) {
            const mcd_body *B = &m->body[b];
            tau_bar_left(d->Hstar + 6 * B->vadr, d->G + 6 * B->vadr, B->nv, Psi);
        }
    }
}

/* Matrices "6 x r" below have r = rows columns (3: point forces, 6: point
 * wrenches [n; F]), row-major with leading dimension r. */

/* Z = the last r columns of phi(x) = [[I, x~], [0, I]], which maps a
 * wrench [n; F] at the point x to [n + x x F; F] about the world origin. */
static void point_map(const double x[3], int r, double *Z)
{
    double X[9];
    mcd_m3_skew(X, x);
    memset(Z, 0, 6 * (size_t)r * sizeof *Z);
    const int force = r - 3; /* column of F's first entry in Z */
    for (int i = 0; i < 3; i++) {
        if (r == MCD_OSC_SPATIAL) Z[r * i + i] = 1.0;                    /* n -> n */
        for (int j = 0; j < 3; j++) Z[r * i + force + j] = X[3 * i + j]; /* F -> x x F */
        Z[r * (3 + i) + force + i] = 1.0;                                /* F -> F */
    }
}

/* C = A B for a 6x6 row-major A and a 6 x r B (C is 6 x r); inlined with
 * r constant by mat6_times_6xr. */
static inline void mat6_times_6xr_fixed(const double *MCD_RESTRICT A, const double *MCD_RESTRICT B,
                                        int r, double *MCD_RESTRICT C)
{
    for (int i = 0; i < 6; i++)
#pragma GCC unroll 6 /* straight-line rows of C (r is constant here) */
        for (int j = 0; j < r; j++) {
            double t = 0.0;
#pragma GCC unroll 6
            for (int k = 0; k < 6; k++) t += A[6 * i + k] * B[r * k + j];
            C[r * i + j] = t;
        }
}

static void mat6_times_6xr(const double *A, const double *B, int r, double *C)
{
    if (r == MCD_OSC_LINEAR)
        mat6_times_6xr_fixed(A, B, MCD_OSC_LINEAR, C);
    else
        mat6_times_6xr_fixed(A, B, MCD_OSC_SPATIAL, C);
}

/* C = A Z for a 6x6 row-major A and the point map Z = point_map(x, r)
 * without Z's products by exact zeros and ones: column j of the force part
 * is the two off-diagonal entries of x~'s column j, then A's column 3 + j
 * (and the moment part, for r = 6, A's first three columns), added in the
 * order of mat6_times_6xr's sums, so that C is bitwise the same. */
static void mat6_times_point_map(const double *A, const double x[3], int r, double *C)
{
    static const int rows[3][2] = {{1, 2}, {0, 2}, {0, 1}}; /* x~'s nonzero rows in column j */
    double X[9];
    mcd_m3_skew(X, x);
    const int force = r - 3;
    for (int i = 0; i < 6; i++) {
        const double *a = A + 6 * i;
        double *c = C + r * i;
        for (int j = 0; j < force; j++) c[j] = a[j];
        for (int j = 0; j < 3; j++) {
            const int k = rows[j][0], l = rows[j][1];
            c[force + j] = (a[k] * X[3 * k + j] + a[l] * X[3 * l + j]) + a[3 + j];
        }
    }
}

/* Each point's chain of key ancestors with Z(point -> ancestor) =
 * Psi(point body -> ancestor) phi(x) (6 x r): the point's unit forces as seen
 * at that ancestor; and, at the point's own body, Omega Z, the half of its
 * diagonal block of Lambda (write_block). Omega Z at the other ancestors is
 * made by omega_z when a block first needs it. */
static void point_chains(const mcd_osc_ws *w, int K, const mcd_osc_point *pts, int r)
{
    for (int i = 0; i < K; i++) {
        int *slots = w->chain_slot + (size_t)i * w->max_chain;
        double *Z = w->chain_Psi + (size_t)i * w->max_chain * 36;
        unsigned char *made = w->chain_OmegaZ_made + (size_t)i * w->max_chain;
        int s = w->key_slot[pts[i].body], len;
        slots[0] = s;
        made[0] = 1;
        point_map(pts[i].x, r, Z);
        mat6_times_point_map(w->Omega + 36 * w->slot_body[s], pts[i].x, r,
                             w->chain_OmegaZ + (size_t)i * w->max_chain * 36);
        for (len = 1; w->slot_parent[s] >= 0; len++) {
            slots[len] = w->slot_parent[s];
            made[len] = 0;
            if (len == 1) /* Z is the point map */
                mat6_times_point_map(w->Psi_seg + 36 * s, pts[i].x, r, Z + 36);
            else
                mat6_times_6xr(w->Psi_seg + 36 * s, Z + 36 * (len - 1), r, Z + 36 * len);
            s = slots[len];
        }
        w->chain_len[i] = len;
    }
}

/* Omega(a) Z of point i at entry c of its chain (a its key ancestor there),
 * made on first use: of the products at every ancestor, a block of Lambda
 * needs only those where another point meets this one. */
static const double *omega_z(const mcd_osc_ws *w, int i, int c, int r)
{
    const size_t at = (size_t)i * w->max_chain + c;
    double *OZ = w->chain_OmegaZ + at * 36;
    if (!w->chain_OmegaZ_made[at]) {
        const int body = w->slot_body[w->chain_slot[at]];
        mat6_times_6xr(w->Omega + 36 * body, w->chain_Psi + at * 36, r, OZ);
        w->chain_OmegaZ_made[at] = 1;
    }
    return OZ;
}

/* Index pair of the lowest common key ancestor in the chains of points i
 * and j; returns 0 if the points are in different trees. Key slots are
 * numbered in decreasing body index and a parent's index is lower than its
 * child's, so along a chain the slots increase towards the root: the chain
 * at the smaller slot steps up until the two meet. */
static int common_ancestor(const mcd_osc_ws *w, int i, int j, int *ci, int *cj)
{
    const int *a = w->chain_slot + (size_t)i * w->max_chain;
    const int *b = w->chain_slot + (size_t)j * w->max_chain;
    int p = 0, q = 0;
    while (p < w->chain_len[i] && q < w->chain_len[j]) {
        if (a[p] == b[q]) {
            *ci = p;
            *cj = q;
            return 1;
        }
        if (a[p] < b[q])
            p++;
        else
            q++;
    }
    return 0;
}

/* Block (i, j) of Lambda = Z_i^T (Omega(a) Z_j) (r x r) into out (leading
 * dimension ld), from OZj = Omega(a) Z_j; inlined with r constant by
 * write_block. */
static inline void write_block_fixed(const double *MCD_RESTRICT Zi, const double *MCD_RESTRICT OZj,
                                     int r, size_t ld, double *MCD_RESTRICT out)
{
    for (int a = 0; a < r; a++)
#pragma GCC unroll 6 /* straight-line rows of the block (r is constant here) */
        for (int b = 0; b < r; b++) {
            double t = 0.0;
#pragma GCC unroll 6
            for (int c = 0; c < 6; c++) t += Zi[r * c + a] * OZj[r * c + b];
            out[(size_t)a * ld + b] = t;
        }
}

static void write_block(const double *Zi, const double *OZj, int r, size_t ld, double *out)
{
    if (r == MCD_OSC_LINEAR)
        write_block_fixed(Zi, OZj, MCD_OSC_LINEAR, ld, out);
    else
        write_block_fixed(Zi, OZj, MCD_OSC_SPATIAL, ld, out);
}

mcd_status mcd_osc_compliance(const mcd_model *m, mcd_data *d, int K, const mcd_osc_point *pts,
                              mcd_osc_rows rows, double *Lambda)
{
    if (!m || !d || (K > 0 && (!pts || !Lambda)) || K < 0)
        return d ? mcd_fail(&d->err, MCD_ERR_ARG, "mcd_osc_compliance: invalid arguments")
                 : MCD_ERR_ARG;
    if (rows != MCD_OSC_SPATIAL && rows != MCD_OSC_LINEAR)
        return mcd_fail(&d->err, MCD_ERR_ARG, "mcd_osc_compliance: rows must be 3 or 6");
    if (!d->factor_valid)
        return mcd_fail(&d->err, MCD_ERR_ARG,
                        "mcd_osc_compliance: no factorization (call mcd_minv_factor first)");
    mcd_osc_ws *w = d->osc;
    if (K > w->capacity)
        return mcd_fail(&d->err, MCD_ERR_CAPACITY,
                        "%d points exceed the reserved capacity %d (mcd_osc_reserve)", K,
                        w->capacity);
    for (int i = 0; i < K; i++) {
        if (pts[i].body < 0 || pts[i].body >= m->nbody)
            return mcd_fail(&d->err, MCD_ERR_ARG, "point %d: body %d out of range", i, pts[i].body);
        if (!mcd_v3_isfinite(pts[i].x))
            return mcd_fail(&d->err, MCD_ERR_NONFINITE, "point %d: position is not finite", i);
    }
    const int r = (int)rows, ld = r * K;
    mark_key_bodies(m, w, K, pts);
    omega_sweep(m, d, w);
    segment_products(m, d, w);
    point_chains(w, K, pts, r);
    unmark(w);
    for (int i = 0; i < K; i++)
        for (int j = i; j < K; j++) {
            double *blk = Lambda + (size_t)r * i * ld + (size_t)r * j;
            int ci, cj;
            if (!common_ancestor(w, i, j, &ci, &cj)) {
                for (int a = 0; a < r; a++) memset(blk + (size_t)a * ld, 0, r * sizeof *blk);
            } else {
                const double *Zi = w->chain_Psi + ((size_t)i * w->max_chain + ci) * 36;
                const double *OZj = omega_z(w, j, cj, r);
                write_block(Zi, OZj, r, ld, blk);
            }
            if (j != i) /* symmetric */
                for (int a = 0; a < r; a++)
                    for (int b = 0; b < r; b++)
                        Lambda[((size_t)r * j + b) * ld + (size_t)r * i + a] =
                            blk[(size_t)a * ld + b];
        }
    return MCD_OK;
}

mcd_status mcd_node_compliance(const mcd_model *m, mcd_data *d, const double *q, int K,
                               const int *nodes, mcd_osc_rows rows, double *Lambda)
{
    if (!m || !d || K < 0 || (K > 0 && !nodes)) return MCD_ERR_ARG;
    mcd_status s = mcd_minv_factor(m, d, q);
    if (s != MCD_OK) return s;
    if (K > d->osc->capacity)
        return mcd_fail(&d->err, MCD_ERR_CAPACITY, "%d nodes exceed the reserved capacity %d", K,
                        d->osc->capacity);
    mcd_osc_point *p = d->osc->points;
    for (int i = 0; i < K; i++) {
        if (nodes[i] < 0 || nodes[i] >= m->nnode)
            return mcd_fail(&d->err, MCD_ERR_ARG, "node index %d out of range", nodes[i]);
        const mcd_node *N = &m->node[nodes[i]];
        p[i].body = N->body;
        mcd_pose_apply(p[i].x, &d->bd[N->body].X_world, N->pose.p);
    }
    s = mcd_osc_compliance(m, d, K, p, rows, Lambda);
    return s;
}

mcd_status mcd_osc_velocities(const mcd_model *m, mcd_data *d, const double *qd, int K,
                              const mcd_osc_point *pts, mcd_osc_rows rows, double *v)
{
    if (!m || !d || K < 0 || (K > 0 && (!pts || !v))) return MCD_ERR_ARG;
    if (!d->factor_valid)
        return mcd_fail(&d->err, MCD_ERR_ARG, "mcd_osc_velocities: no kinematics/factorization");
    mcd_status s = mcd_check_vector_nv(m, d, "qd", qd);
    if (s != MCD_OK) return s;
    mcd_velocity_pass(m, d, qd);
    const int r = (int)rows;
    for (int i = 0; i < K; i++) { /* [w; v_O + w x x] */
        const double *V = d->bd[pts[i].body].V;
        double t[3], out[6];
        mcd_v3_cross(t, V, pts[i].x);
        mcd_v3_copy(out, V);
        mcd_v3_add(out + 3, V + 3, t);
        memcpy(v + (size_t)r * i, out + 6 - r, (size_t)r * sizeof *v);
    }
    return MCD_OK;
}

mcd_status mcd_osc_apply(const mcd_model *m, mcd_data *d, int K, const mcd_osc_point *pts,
                         mcd_osc_rows rows, const double *F, double *dqd)
{
    if (!m || !d || K < 0 || (K > 0 && (!pts || !F)) || !dqd) return MCD_ERR_ARG;
    if (!d->factor_valid) return mcd_fail(&d->err, MCD_ERR_ARG, "mcd_osc_apply: no factorization");
    for (int k = 0; k < m->nbody; k++) memset(d->bd[k].z, 0, sizeof d->bd[k].z);
    const int r = (int)rows;
    for (int i = 0; i < K; i++) { /* b(k) = -f_ext, f_ext = [n + x x F; F] about the origin */
        const double *f = F + (size_t)r * i;
        double n[3] = {0, 0, 0}, t[3];
        const double *lin = f + r - 3;
        if (r == 6) mcd_v3_copy(n, f);
        if (!mcd_v3_isfinite(n) || !mcd_v3_isfinite(lin))
            return mcd_fail(&d->err, MCD_ERR_NONFINITE, "impulse on point %d is not finite", i);
        double *z = d->bd[pts[i].body].z;
        mcd_v3_cross(t, pts[i].x, lin);
        for (int j = 0; j < 3; j++) {
            z[j] -= n[j] + t[j];
            z[3 + j] -= lin[j];
        }
    }
    mcd_aba_bias_pass(m, d, NULL);
    mcd_aba_accel_pass(m, d, NULL, 0, dqd);
    return MCD_OK;
}

/* c_a^T Lambda(p, q) c_b for the r x r block of points p, q (the last r
 * entries of the 6-vectors c); r = 3 unrolled (contact rows). */
static double block_form(int npts, int r, const double *Lambda, int p, int q, const double *ca,
                         const double *cb)
{
    const int ld = r * npts, off = 6 - r;
    const double *L = Lambda + (size_t)r * p * ld + (size_t)r * q;
    if (r == 3) {
        const double *a = ca + 3, *b = cb + 3, *L1 = L + ld, *L2 = L + 2 * ld;
        return a[0] * (L[0] * b[0] + L[1] * b[1] + L[2] * b[2]) +
               a[1] * (L1[0] * b[0] + L1[1] * b[1] + L1[2] * b[2]) +
               a[2] * (L2[0] * b[0] + L2[1] * b[1] + L2[2] * b[2]);
    }
    double t = 0.0;
    for (int i = 0; i < r; i++) {
        double row = 0.0;
        for (int j = 0; j < r; j++) row += L[(size_t)i * ld + j] * cb[off + j];
        t += ca[off + i] * row;
    }
    return t;
}

void mcd_osc_row_compliance(int npts, const double *Lambda, mcd_osc_rows rows, int n, const int *pa,
                            const int *pb, const double *coef, double *W)
{
    const int r = (int)rows;
    for (int i = 0; i < n; i++) {
        const double *ci = coef + 6 * i;
        for (int j = i; j < n; j++) { /* (A_i - B_i)^T Lambda (A_j - B_j), absent points 0 */
            const double *cj = coef + 6 * j;
            double t = 0.0;
            if (pa[i] >= 0 && pa[j] >= 0) t += block_form(npts, r, Lambda, pa[i], pa[j], ci, cj);
            if (pa[i] >= 0 && pb[j] >= 0) t -= block_form(npts, r, Lambda, pa[i], pb[j], ci, cj);
            if (pb[i] >= 0 && pa[j] >= 0) t -= block_form(npts, r, Lambda, pb[i], pa[j], ci, cj);
            if (pb[i] >= 0 && pb[j] >= 0) t += block_form(npts, r, Lambda, pb[i], pb[j], ci, cj);
            W[(size_t)i * n + j] = W[(size_t)j * n + i] = t;
        }
    }
}

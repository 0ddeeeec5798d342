/* Lemke's method with the lexicographic ratio test (lemke.h).
 *
 * Tableau w - A zeta - e z0 = b. Variables are numbered w_j = j,
 * zeta_j = m + j, z0 = 2m; their columns are e_j, -A e_j and -e. The
 * basis starts as {w}; z0 enters, the row of the lexicographically most
 * negative b_i leaves, and then the complement of each leaving variable
 * enters, until z0 leaves (solution) or no row limits the entering variable
 * (ray). Rows of [x_B, B^{-1}] stay lexicographically positive, which rules
 * out cycling in exact arithmetic; in floating point the bound shifts
 * below change b, and a path can cycle (the cycle check, at the end).
 *
 * B^{-1}. On small or dense LCPs it is kept explicitly (row-major, w->Binv)
 * and updated by Gauss-Jordan in O(m^2) per pivot. On large sparse ones
 * (w->sparse, the group LCPs of piles: lemke_basis_lu.h) it is never
 * formed: KLU's factorization of the last refactorized basis and the etas
 * of the pivots since (the product form) give B^{-1} v and B^{-T} v, the
 * entering column is one solve, the tied rows of the ratio test are
 * solves with B^{-T}, and the noise estimate below is LAPACK's estimate of
 * the norm it takes; a full eta file also calls for an LU (walk_path).
 * On sphere_pile's first 0.1 s (groups of m = 632 on
 * average) this took 1.73 s per step where the explicit B^{-1} (its KLU
 * rebuild, O(m nnz(L + U)), and its O(m^2) updates and products) took 4.7
 * (docs/solvers.md, session 19).
 *
 * Floating point. Contact LCPs with redundant contacts (a box on four
 * coplanar corners: W rank-deficient) are highly degenerate: many basic
 * values are zero in exact arithmetic and computed as rounding noise, next
 * to genuine values many decades smaller than the largest ones (e.g.
 * tangential velocities of 1e-12 m/s next to normal ones of 1e-2). Ties
 * must be judged against the actual noise of the computed values, never
 * against an absolute threshold: at the scale of such data an absolute
 * threshold makes distinct ratios tie, a basic value goes negative, the
 * path leaves Lemke's and can end on a false ray. The rules:
 *  - bound shifting: x_B is kept >= 0. A negative basic value (a rounded
 *    zero) is raised to 0 and the change is added to a shifted right-hand
 *    side b' (b' = b + B dx), so that x_B stays the basic solution of
 *    B x = b' exactly, up to rounding. The final x_B is recomputed from b
 *    itself, and the caller checks the error of the result;
 *  - noise level delta of x_B: the rounding of x_B is measured by the
 *    residual r = b' - B x_B (B assembled from the basic columns, O(m^2)),
 *    its effect on x_B estimated as max_i (|B^{-1}| |r|)_i (in the product
 *    form dlacn2's estimate of it, abs_inverse_times), times
 *    LEMKE_NOISE_FACTOR, plus LEMKE_ZERO_TOL times the scale of b and x_B
 *    (the rounding floor). Values within delta are zero;
 *  - when that estimate exceeds LEMKE_REFACTOR_TOL times the scale (the
 *    product-form updates have lost accuracy, e.g. after a small pivot),
 *    B^{-1} and x_B are recomputed from an LU factorization of the basis
 *    (KLU's on a sparse A, lemke_basis_lu.h: the same rules, other
 *    rounding), but only
 *    if the estimate also exceeds LEMKE_REFACTOR_GROWTH times the
 *    one measured right after the last LU (its floor, relative to the
 *    scale; 0 for the starting basis, the identity). An LU cannot bring
 *    the estimate below that floor: where |B^{-1}| is large (the
 *    non-singular LCP of models/box_block.yaml, m = 620) a fresh LU's
 *    estimate is 3e-11..8e-10 of the scale, and with the threshold alone
 *    the basis was refactorized at every other pivot (70 LUs of 130
 *    pivots, each O(m^3)); with the floor, 7..12 LUs, each after a real
 *    loss (7e-10 to 3e-6 of the scale, back to the floor after the LU);
 *  - a pivot candidate needs a_i > LEMKE_PIVOT_TOL max |a|. The contact
 *    problems' redundancy is structural (four coplanar corners, the +-d
 *    friction directions), so many entries of B^{-1} times a column are
 *    zero in exact arithmetic and come out at 1e-10..1e-8 of the largest
 *    (W formed in floating point, rank-deficient by construction);
 *    pivoting on one makes B^{-1} huge and the path ends on a false ray
 *    or an inaccurate point. Measured on 400 random box landings
 *    (tests/solver/test_lemke_degenerate.c): 1e-11 lets 14 fail, 1e-9
 *    3, 1e-8 2, 1e-7 none;
 *  - a second pass for a ray of the shifts: a small a_i taken as zero
 *    moves x_i by theta a_i, and the bound shift that follows changes the
 *    problem by that much, which can make the path end on a ray of the
 *    shifted problem (solo12 at rest on 16 contacts: a_i = 9.5e-8 of the
 *    largest drove a zero normal impulse to -9.3e-10 at scale 1e-2, and
 *    the path ended on a ray with z0 = 4.7e-10). When a path ends on a ray
 *    after shifts larger than delta + LEMKE_SHIFT_TOL times the scale, the
 *    method starts again from the first pivot with that limit: a small
 *    positive a_i whose row the step of the large pivots would drive below
 *    it limits the step like a large pivot. Not in the first pass: there
 *    those entries are mostly the structural zeros above (a box landing:
 *    3.5e-11 of the largest; the box block: 8.9e-10, and pivoting on it
 *    made B^{-1} 1e9 and the path end on a ray with z0 = 1.8), and their
 *    shifts are harmless;
 *  - the complementary neighbour of a ray (session 10): before a ray is
 *    reported, the complementary basis next to it (z0 replaced by the
 *    variable that left at the last pivot: the entering variable cannot
 *    replace z0, which does not decrease along the ray) is solved afresh
 *    by LU with the true b, and kept as the solution if no value is below
 *    -(delta + LEMKE_SHIFT_TOL times the scale): clipping them changes b
 *    by no more than the second pass allows. The ray is one of the
 *    shifted problem; when z0 is at the level of the shifts, the solution
 *    of the unshifted one can sit in that neighbour. models/box_block:
 *    groups of 72 rows whose first path ended on a ray with z0 = 1.6e-9
 *    after shifts of 2.4e-9 (an entry of 6e-8 of the column's largest
 *    taken as zero), and whose second pass pivoted on 6e-8 and then
 *    6e-10 of the column and ended on a numerically singular basis
 *    (errors 2e-2 to 6e13); the neighbour solves them to 1e-12 or better
 *    (tests/solver/test_lemke_box_block.c);
 *  - the minimum-ratio test is Harris' two-pass test: theta = min over
 *    candidates of (x_i + delta) / a_i, and every row with
 *    x_i <= theta a_i ties; whichever of them leaves, every other basic
 *    value stays >= -delta, i.e. zero up to noise. The row of z0 leaves
 *    if it ties; of the other ties only those whose a_i is within
 *    LEMKE_TIE_PIVOT_RATIO of the largest tied a_i are kept (Harris'
 *    choice of a large pivot: a row of x_i = 0 and a_i = 1e-10 ties with
 *    every row, and the lexicographic rule alone may pick it), and those
 *    are told apart by the lexicographic rule on the rows of B^{-1} / a_i,
 *    entries equal within LEMKE_LEX_TOL times the size of those rows;
 *  - before a ray is reported the basis is refactorized and the ratio test
 *    repeated; a ray is kept only if the fresh column is still <= 0 and z0
 *    is not zero up to the shifts: if z0 <= delta + LEMKE_SHIFT_TOL times
 *    the scale, the almost-complementary point solves the LCP with
 *    b + e z0, a change of b no larger than the second pass's shift limit,
 *    and is returned (solo12 at rest, another step: a permitted shift of
 *    9.2e-13 left z0 = 4.6e-13 on a ray; the point's error is 2.7e-12);
 *  - the cycle check (session 11). In exact arithmetic the bases of the
 *    path from the start are all distinct: each almost-complementary basis
 *    has at most two neighbours, and the path is one component of that
 *    graph; but other components are closed loops. A bound shift changes
 *    b, and for the shifted b the current basis can lie on such a loop:
 *    on a group LCP of models/sphere_pile.yaml (n = 312, 52 contacts) a
 *    tie taken within Harris' band (two rows whose ratios differ by
 *    1.3e-12, 7e-7 of their value) shifted b by 1.1e-12, and from pivot
 *    862 on the path repeats 12 nondegenerate pivots (steps of 1e-7 to
 *    3e-6, the same bases and values, every choice the lexicographic
 *    minimum of [x_B, B^{-1}] up to rounding) until the pivot cap. So each
 *    path hashes its state, the basis (the exclusive or of a 64-bit key
 *    per basic variable, O(1) per pivot) and the entering variable, and
 *    compares it with a saved state (cycle_check). On a repeat the
 *    path is run again from the start with the strict lexicographic test
 *    (ties only within the rounding floor LEMKE_ZERO_TOL of the scale, no
 *    preference for large pivots: every tie is decided by the rows of
 *    B^{-1}) on b' = b + eps max|b_i| u, u_i in [1, 2) pseudo-random and
 *    eps = LEMKE_PERTURBATION. That is the lexicographic perturbation
 *    b + (eps, eps^2, ...) made generic (its powers underflow): it
 *    separates the problem's degenerate ties by some 1e-11 of the scale,
 *    far above the rounding floor, so that the perturbation and not the
 *    rounding decides them, and it changes b by less than the second
 *    pass's allowance LEMKE_SHIFT_TOL; the final basis is solved with the
 *    true b (refine) and the caller checks the error. Harris' band alone
 *    (no perturbation) and the strict test alone still cycle on a group of
 *    n = 624, eps = 1e-12 and 1e-11 do not, 1e-13 does. A repeat in that
 *    path ends it with MCD_ERR_NOT_CONVERGED. A hash collision could only
 *    send a path to the strict test early;
 *  - the strict path after an inaccurate solution (session 11). The bound
 *    shifts of a Harris path that ends normally (z0 leaves) can leave a
 *    final basis that, solved with the true b, has values below 0 well
 *    beyond rounding (the "near the tolerance" points of docs/solvers.md,
 *    session 10: errors 1e-10 to 2e-9 on the piles' groups). When the
 *    point's residual max_i |min(zeta_i, (A zeta + b)_i)| exceeds
 *    LEMKE_SHIFT_TOL max |b_i|, the strict path on the perturbed b runs
 *    from the start, and its point is kept if its residual is smaller.
 *    On the 22 such groups dumped from the piles (n = 462 to 738, Harris
 *    errors 1e-10 to 5e-7), 20 come out at errors 4e-16 to 4e-12 (about
 *    twice the pivots in all), two stay above 1e-10 (2.4e-10, 6.4e-10).
 *    Not the strict test alone for every path: it fails on box landings
 *    (tests/solver/test_lemke_degenerate.c: error 9e-3 on one of the 400),
 *    where Harris' preference for large pivots is needed;
 *  - the strict path after a ray that proves nothing (session 12). A ray
 *    of Lemke's method proves the LCP infeasible when A is copositive-plus;
 *    the friction LCP of the polyhedral cone is copositive but not
 *    copositive-plus (for F_n = beta = 0, sigma_k > 0: z^T A z = 0 but
 *    (A + A^T) z != 0), and Stewart and Trinkle's argument that Lemke's
 *    method solves it holds for its own b, not for a shifted one. On group
 *    LCPs of models/sphere_pile.yaml (n = 546 and 570) the noise estimate
 *    of an ill-conditioned basis (entering columns up to 1e5) made delta
 *    1.5e-6 and 7e-6 of the scale; Harris' band then took ratios up to
 *    0.3 % apart as a tie, the values of the rows not taken went to
 *    -1.4e-8 and -1.5e-7 and were shifted (b changed by 2.8e-7 and 1e-6),
 *    and the path ended on a ray along one contact's slack sigma_k alone
 *    (F_n = beta = 0 there): the shifts had left b'_k = -z0 (-7e-9, -8e-9)
 *    in its row mu F_n - sum beta + b'_k + z0 >= 0, a ray of the shifted b
 *    only. The second pass follows the same path (its limit is on small
 *    pivots, not on Harris' band). Such a ray is no proof: for its
 *    direction d, b^T d = 0 and A^T d has entries +mu. So a ray is
 *    first checked as a certificate (ray_certifies_infeasibility: d >= 0,
 *    A^T d <= 0, b^T d < 0, Farkas) and then reported at once; one that is
 *    not, after the second pass, sends the strict path on the perturbed b
 *    from the start, as after a cycle (n = 546: 734 + 734 + 1,084 pivots,
 *    error 2.6e-16; n = 570: 1,550 + 1,550 + 2,307, error 1.0e-12). A ray
 *    of that path is reported as a ray: where A is not copositive-plus
 *    Lemke's method can end on one for a solvable LCP (the bimatrix game
 *    lcp_CPS_3 of docs/solvers.md). */
#include "lemke.h"

#include "../base/lapack.h"
#include "dense.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define LEMKE_PIVOT_TOL    1e-7  /* a_i <= this times max |a_i| counts as 0: no pivot */
#define LEMKE_ZERO_TOL     1e-13 /* rounding floor of delta, relative to the scale of x_B, b */
#define LEMKE_NOISE_FACTOR 10.0  /* safety factor on the estimated error of x_B */
#define LEMKE_REFACTOR_TOL 1e-10 /* estimated error of x_B (relative) that triggers an LU */
#define LEMKE_SHIFT_TOL    1e-10 /* second pass: shift by a small pivot taken as 0 (relative) */
#define LEMKE_LEX_TOL      1e-12 /* lexicographic entries within this (relative) tie */
#define LEMKE_REFACTOR_GROWTH                                                                      \
    10.0 /* ... if it is also this many times the estimate right after the last LU */
#define LEMKE_TIE_PIVOT_RATIO                                                                      \
    1e-2 /* tied rows with a_i below this times the largest do not pivot */
#define LEMKE_PERTURBATION                                                                         \
    1e-11                  /* after a cycle: b perturbed by up to twice this times max |b_i| */
#define LEMKE_WARM_PATHS 3 /* warm paths, each from the last one's end (solved_from_guess) */
#define LEMKE_GUESS_PIVOT_TOL                                                                      \
    1e-12 /* a warm start's guessed zeta_j with a smaller pivot stays nonbasic (choose_guess) */

static int z0_index(int m)
{
    return 2 * m;
}
static int complement(int m, int v)
{
    return v < m ? v + m : v - m;
}

/* Entry l of the tableau column of variable v: e_v, -A e_j or -d (d =
 * w->cover: e on the cold path, B e on a warm one). */
static double column_entry(int m, const double *A, const mcd_lemke_ws *w, int v, int l)
{
    return v < m ? (l == v) : v < 2 * m ? -A[(size_t)l * m + (v - m)] : -w->cover[l];
}

/* a = B^{-1} times the column of variable v. */
static void entering_column(int m, const double *A, const mcd_lemke_ws *w, int v)
{
    if (w->sparse) { /* the product form: a sparse solve and the etas */
        for (int l = 0; l < m; l++) w->col[l] = column_entry(m, A, w, v, l);
        mcd_lemke_basis_lu_solve(w->sparse, w->col);
        return;
    }
    if (v < m) { /* w_v: column e_v */
        for (int i = 0; i < m; i++) w->col[i] = w->Binv[(size_t)i * m + v];
        return;
    }
    for (int l = 0; l < m; l++) w->tmp[l] = v < 2 * m ? A[(size_t)l * m + (v - m)] : w->cover[l];
    mcd_dense_matvec(m, w->Binv, w->tmp, NULL, w->col);
    for (int i = 0; i < m; i++) w->col[i] = -w->col[i]; /* columns -A e_j and -d */
}

/* Bound shift: raises a negative x_i to 0 and adds the change times the
 * column of basis[i] to the shifted right-hand side b' = w->xB + m. */
static void shift_to_zero(int m, const double *A, const mcd_lemke_ws *w, int i)
{
    double dx = -w->xB[i];
    if (!(dx > 0)) return;
    double *bs = w->xB + m;
    int v = w->basis[i];
    w->xB[i] = 0.0;
    if (v < m) {
        bs[v] += dx;
        return;
    }
    for (int l = 0; l < m; l++) bs[l] += dx * column_entry(m, A, w, v, l);
}

/* Rows l..l+3 of the residual of noise(): r_i = b'_i minus the terms t =
 * 0..nt-1 (x_t times entry i of a column -A e_j, j = col[t] < m, or of
 * z0's column -d, d = cover, col[t] = m), each row's basic w_i (x_w[i], 0 if none) subtracted
 * before its term before[i]. The four rows' sums run side by side, each in its own order: a single
 * row's chain of dependent subtractions is bound by the latency of an addition. */
static void residual_rows(int m, const double *A, const double *cover, const double *bs,
                          const int *col, const double *x, int nt, const int *before,
                          const double *x_w, int l, double *r)
{
    const double *A0 = A + (size_t)l * m, *A1 = A0 + m, *A2 = A1 + m, *A3 = A2 + m;
    double s0 = bs[l], s1 = bs[l + 1], s2 = bs[l + 2], s3 = bs[l + 3];
    for (int t = 0; t < nt; t++) {
        if (t == before[l]) s0 -= x_w[l];
        if (t == before[l + 1]) s1 -= x_w[l + 1];
        if (t == before[l + 2]) s2 -= x_w[l + 2];
        if (t == before[l + 3]) s3 -= x_w[l + 3];
        const int j = col[t];
        if (j < m) {
            s0 -= x[t] * -A0[j], s1 -= x[t] * -A1[j], s2 -= x[t] * -A2[j], s3 -= x[t] * -A3[j];
        } else {
            s0 -= x[t] * -cover[l], s1 -= x[t] * -cover[l + 1], s2 -= x[t] * -cover[l + 2],
                s3 -= x[t] * -cover[l + 3];
        }
    }
    r[l] = fabs(before[l] >= nt ? s0 - x_w[l] : s0);
    r[l + 1] = fabs(before[l + 1] >= nt ? s1 - x_w[l + 1] : s1);
    r[l + 2] = fabs(before[l + 2] >= nt ? s2 - x_w[l + 2] : s2);
    r[l + 3] = fabs(before[l + 3] >= nt ? s3 - x_w[l + 3] : s3);
}

/* Row l of the residual alone (residual_rows' rule). */
static double residual_row(int m, const double *A, const double *cover, const double *bs,
                           const int *col, const double *x, int nt, const int *before,
                           const double *x_w, int l)
{
    const double *Al = A + (size_t)l * m;
    double s = bs[l];
    for (int t = 0; t < nt; t++) {
        if (t == before[l]) s -= x_w[l];
        s -= x[t] * (col[t] < m ? -Al[col[t]] : -cover[l]);
    }
    return fabs(before[l] >= nt ? s - x_w[l] : s);
}

/* sum_j |Bi_j| |r_j| with |r| given; four partial sums break the chain
 * of additions (the terms are >= 0: the order moves the sum by rounding,
 * relative m eps, only). */
static double abs_row_times(int m, const double *Bi, const double *abs_r)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int j = 0;
    for (; j + 4 <= m; j += 4) {
        s0 += fabs(Bi[j]) * abs_r[j];
        s1 += fabs(Bi[j + 1]) * abs_r[j + 1];
        s2 += fabs(Bi[j + 2]) * abs_r[j + 2];
        s3 += fabs(Bi[j + 3]) * abs_r[j + 3];
    }
    for (; j < m; j++) s0 += fabs(Bi[j]) * abs_r[j];
    return (s0 + s1) + (s2 + s3);
}

/* noise()'s |r| on a sparse A (w->sparse: A by columns), residual_dense's
 * values bit for bit: each row's terms are subtracted in the same order
 * (the basis rows'), column by column, and the zero entries of A, which the
 * dense rows subtract and these skip, change no sum (s - x 0 = s; a zero
 * s stays |s| = 0). O(nnz of the basic columns + m), not O(m nt). */
static void residual_sparse(int m, const mcd_lemke_ws *w, double *r)
{
    const int *Ap, *Ai;
    const double *Ax;
    mcd_lemke_basis_lu_columns(w->sparse, &Ap, &Ai, &Ax);
    memcpy(r, w->xB + m, (size_t)m * sizeof *r);
    for (int k = 0; k < m; k++) {
        const int v = w->basis[k];
        const double x = w->xB[k];
        if (x == 0) continue;
        if (v < m) {
            r[v] -= x;
        } else if (v == z0_index(m)) {
            for (int l = 0; l < m; l++) r[l] -= x * -w->cover[l];
        } else {
            for (int p = Ap[v - m]; p < Ap[v - m + 1]; p++) r[Ai[p]] -= x * -Ax[p];
        }
    }
    for (int l = 0; l < m; l++) r[l] = fabs(r[l]);
}

/* noise()'s |r|, r = b' - B x_B, row by row on a dense A (uses the noise
 * scratch). r is rounding: the order of its terms decides its value.
 * Each r_l adds them in the order of the basis rows, as the sum over the
 * basic columns would, but row by row: A is row-major, and a column's
 * entries lie m apart. A basic w_v adds its x to row v alone, at its place
 * in that order (before[v]: the terms of columns of A or -e ahead of it). */
static void residual_dense(int m, const double *A, const mcd_lemke_ws *w, double *r)
{
    const double *bs = w->xB + m;
    double *x = w->noise_x, *x_w = w->noise_x + m;
    int *col = w->noise_col, *before = w->noise_before, nt = 0;
    for (int l = 0; l < m; l++) before[l] = m, x_w[l] = 0.0; /* no w_l: r_l - 0 = r_l */
    for (int k = 0; k < m; k++) {
        int v = w->basis[k];
        if (w->xB[k] == 0) continue;
        if (v < m) {
            before[v] = nt, x_w[v] = w->xB[k];
        } else {
            col[nt] = v - m, x[nt++] = w->xB[k]; /* zeta_j: j; z0: m */
        }
    }
    int l = 0;
    for (; l + 4 <= m; l += 4) residual_rows(m, A, w->cover, bs, col, x, nt, before, x_w, l, r);
    for (; l < m; l++) r[l] = residual_row(m, A, w->cover, bs, col, x, nt, before, x_w, l);
}

/* max_i (|B^{-1}| |r|)_i in the product form (no B^{-1} to take the
 * absolute values of): it is ||B^{-1} D||_inf = ||D B^{-T}||_1, D =
 * diag(|r|), which LAPACK's dlacn2 estimates from a few products with D
 * B^{-T} and B^{-1} D (Hager's method with Higham's refinements, the
 * estimate of dgerfs' forward error bound FERR: Higham, Accuracy and
 * Stability of Numerical Algorithms, 2002, section 15.3). The estimate
 * is a lower bound, in practice exact or within a small factor, well
 * inside LEMKE_NOISE_FACTOR; 2 to 5 products. Uses the noise scratch. */
static double abs_inverse_times(int m, const mcd_lemke_ws *w, const double *abs_r)
{
    double *v = w->noise_x, *x = w->noise_x + m, est = 0.0;
    int *isgn = w->noise_col, kase = 0, isave[3];
    for (;;) {
        dlacn2_(&m, v, x, isgn, &est, &kase, isave);
        if (kase == 0) return est;
        if (kase == 1) { /* x = D B^{-T} x */
            mcd_lemke_basis_lu_solve_transposed(w->sparse, x);
            for (int i = 0; i < m; i++) x[i] *= abs_r[i];
        } else { /* x = (D B^{-T})^T x = B^{-1} D x */
            for (int i = 0; i < m; i++) x[i] *= abs_r[i];
            mcd_lemke_basis_lu_solve(w->sparse, x);
        }
    }
}

/* The scale of the basic values, max(|b'|, |x_B|), and the estimated error
 * of x_B, max_i (|B^{-1}| |r|)_i with r = b' - B x_B (in w->tmp): on a
 * sparse A (w->sparse) r by columns (residual_sparse) and the product by
 * dlacn2's estimate (abs_inverse_times), else r by rows (residual_dense,
 * the same values) and the product exactly from B^{-1}. */
static void noise(int m, const double *A, const mcd_lemke_ws *w, double *scale, double *error)
{
    double *r = w->tmp;
    *scale = fmax(mcd_dense_max_abs(m, w->xB + m), mcd_dense_max_abs(m, w->xB));
    if (w->sparse) {
        residual_sparse(m, w, r);
        *error = abs_inverse_times(m, w, r);
        return;
    }
    residual_dense(m, A, w, r);
    *error = 0.0;
    for (int i = 0; i < m; i++) *error = fmax(*error, abs_row_times(m, w->Binv + (size_t)i * m, r));
}

/* The rows of B^{-1} of the nt tied rows w->ties: in the product form
 * (w->sparse) row t is solved, B^{-T} e_i, into row t of w->B (scratch
 * there: no dense LU), and w->ipiv[t] = t names it (keep_lexmin moves it
 * with ties[t]); else they are rows of w->Binv. */
static void tied_rows(int m, const mcd_lemke_ws *w, int nt)
{
    if (!w->sparse) return;
    for (int t = 0; t < nt; t++) {
        double *row = w->B + (size_t)t * m;
        memset(row, 0, (size_t)m * sizeof *row);
        row[w->ties[t]] = 1.0;
        mcd_lemke_basis_lu_solve_transposed(w->sparse, row);
        w->ipiv[t] = t;
    }
}

/* Row ties[t] of B^{-1} (tied_rows). */
static const double *tied_row(int m, const mcd_lemke_ws *w, int t)
{
    return w->sparse ? w->B + (size_t)w->ipiv[t] * m : w->Binv + (size_t)w->ties[t] * m;
}

/* Keeps, among the nt rows in ties, those whose B^{-1}_{i,c} / a_i is
 * minimal within tol; returns how many remain. */
static int keep_lexmin(int m, const mcd_lemke_ws *w, int nt, int c, const double *a, double tol)
{
    double best = INFINITY;
    for (int t = 0; t < nt; t++) best = fmin(best, tied_row(m, w, t)[c] / a[w->ties[t]]);
    int kept = 0;
    for (int t = 0; t < nt; t++) {
        if (!(tied_row(m, w, t)[c] / a[w->ties[t]] <= best + tol)) continue;
        w->ipiv[kept] = w->ipiv[t]; /* tied_row's slot (product form; else unused) */
        w->ties[kept++] = w->ties[t];
    }
    return kept;
}

/* Harris' second pass: of the nt tied rows, keeps those whose pivot a_i
 * is within LEMKE_TIE_PIVOT_RATIO of the largest tied one; returns how
 * many remain. */
static int keep_stable_pivots(int nt, int *ties, const double *a, double tied_amax)
{
    int kept = 0;
    for (int t = 0; t < nt; t++)
        if (a[ties[t]] >= LEMKE_TIE_PIVOT_RATIO * tied_amax) ties[kept++] = ties[t];
    return kept;
}

/* Whether row i (entry a_i of the entering column, basic value x_i) is a
 * candidate of the ratio test, given the step theta_large that the large
 * pivots (a_i > LEMKE_PIVOT_TOL amax) allow: a large pivot always; a
 * smaller positive a_i only if that step would drive x_i below -shift_tol
 * (the second pass's limit on the bound shifts; INFINITY in the first). */
static int limits(double a, double x, double amax, double theta_large, double shift_tol)
{
    return a > LEMKE_PIVOT_TOL * amax || (a > 0 && x - theta_large * a < -shift_tol);
}

/* Harris/lexicographic minimum-ratio test for the entering column w->col
 * (see the top of the file; x_B >= 0 here): the leaving row, preferring
 * the row of z0 when it ties; -1 if no a_i is positive (ray). harris: 1
 * keeps, among the tied rows, only the large pivots (Harris' choice); 0
 * (the strict test, after a cycle) lets the lexicographic rule decide
 * among all of them, delta then being the rounding floor. */
static int ratio_test(int m, const mcd_lemke_ws *w, double delta, double shift_tol, int harris)
{
    const double *a = w->col, *x = w->xB;
    const double amax = mcd_dense_max_abs(m, a);
    double theta = INFINITY;
    for (int i = 0; i < m; i++)
        if (a[i] > LEMKE_PIVOT_TOL * amax) theta = fmin(theta, (x[i] + delta) / a[i]);
    if (theta == INFINITY) return -1;
    double theta_large = theta; /* then the small pivots that limit this step */
    for (int i = 0; i < m; i++)
        if (limits(a[i], x[i], amax, theta_large, shift_tol))
            theta = fmin(theta, (x[i] + delta) / a[i]);
    /* The row attaining theta ties: delta >= 1e-13 |x_i| exceeds the
     * rounding of theta a_i, so nt >= 1 below. */
    int nt = 0;
    double tied_amax = 0.0;
    for (int i = 0; i < m; i++) {
        if (!limits(a[i], x[i], amax, theta_large, shift_tol) || x[i] > theta * a[i]) continue;
        if (w->basis[i] == z0_index(m)) return i;
        w->ties[nt++] = i;
        tied_amax = fmax(tied_amax, a[i]);
    }
    if (harris) nt = keep_stable_pivots(nt, w->ties, a, tied_amax);
    if (nt == 1) return w->ties[0];
    tied_rows(m, w, nt);
    double rows = 0.0; /* the size of the tied rows of B^{-1} / a_i */
    for (int t = 0; t < nt; t++) {
        const double *Bi = tied_row(m, w, t);
        for (int c = 0; c < m; c++) rows = fmax(rows, fabs(Bi[c]) / a[w->ties[t]]);
    }
    for (int c = 0; c < m && nt > 1; c++) nt = keep_lexmin(m, w, nt, c, a, LEMKE_LEX_TOL * rows);
    return w->ties[0];
}

/* Gauss-Jordan pivot on row r with column a = w->col: updates x_B, and
 * B^{-1} (dense) or appends the pivot's eta (the product form; O(m)).
 * The caller then shifts the values that come out negative, rounded zeros
 * or within delta by the ratio test, to 0. Returns 0 if the eta file was
 * full (B^{-1} is then that of the previous basis: the caller refactors). */
static int pivot(int m, const mcd_lemke_ws *w, int r)
{
    const double *a = w->col;
    double ar = a[r];
    w->xB[r] /= ar;
    for (int i = 0; i < m; i++)
        if (i != r && a[i] != 0) w->xB[i] -= a[i] * w->xB[r];
    if (w->sparse) return mcd_lemke_basis_lu_update(w->sparse, r, a);
    double *Br = w->Binv + (size_t)r * m;
    for (int j = 0; j < m; j++) Br[j] /= ar;
    for (int i = 0; i < m; i++) {
        if (i == r || a[i] == 0) continue;
        double *Bi = w->Binv + (size_t)i * m;
        for (int j = 0; j < m; j++) Bi[j] -= a[i] * Br[j];
    }
    return 1;
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

/* A 64-bit key of variable v (splitmix64's finalizer): the hash of a basis
 * is the exclusive or of its variables' keys, updated in O(1) per pivot. */
static uint64_t variable_key(int v)
{
    uint64_t x = (uint64_t)v + 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

static int factor_basis(int m, const double *A, const mcd_lemke_ws *w);

/* The starting basis {w}: B^{-1} = I (dense, or factored: the product
 * form), covering vector d = e and x_B = b' = b + eps max_i |b_i| u,
 * u_i in [1, 2) drawn from variable_key(i) (eps = 0: b' = b; see the top
 * of the file). Returns 0 if KLU could not factor I (memory). */
static int start_basis(int m, const double *A, const double *b, double eps, const mcd_lemke_ws *w)
{
    if (!w->sparse) memset(w->Binv, 0, (size_t)m * m * sizeof *w->Binv);
    const double b_max = mcd_dense_max_abs(m, b);
    for (int i = 0; i < m; i++) {
        if (!w->sparse) w->Binv[(size_t)i * m + i] = 1.0;
        w->basis[i] = i;
        w->cover[i] = 1.0;
        double u = 1.0 + 0x1p-53 * (double)(variable_key(i) >> 11);
        w->xB[m + i] = eps > 0 ? b[i] + eps * b_max * u : b[i];
    }
    memcpy(w->xB, w->xB + m, (size_t)m * sizeof *w->xB);
    return !w->sparse || factor_basis(m, A, w);
}

/* LU factorization of the basis matrix: by KLU when the solve has a sparse
 * state (w->sparse; the product form: it replaces the factorization and
 * the etas), else by dgetrf into w->B (column-major); 0 if it is singular
 * (a zero pivot, lemke_basis_lu.h) or KLU failed otherwise (memory): the
 * previous factorization and etas then stay (lemke_basis_lu.h), so that a
 * failed factorization changes no B^{-1}, as with the dense LU. */
static int factor_basis(int m, const double *A, const mcd_lemke_ws *w)
{
    if (w->sparse) {
        mcd_lemke_basis_lu_status st = mcd_lemke_basis_lu_factor(w->sparse, w->basis, w->cover);
        if (w->sparse_factors && st != MCD_LEMKE_BASIS_LU_FAILED) ++*w->sparse_factors;
        return st == MCD_LEMKE_BASIS_LU_OK;
    }
    for (int i = 0; i < m; i++) { /* column i of B */
        double *col = w->B + (size_t)i * m;
        for (int l = 0; l < m; l++) col[l] = column_entry(m, A, w, w->basis[i], l);
    }
    int info;
    dgetrf_(&m, &m, w->B, &m, w->ipiv, &info);
    return info == 0;
}

/* x = B^{-1} rhs from the last LU, just made (x: m values, not
 * overlapping rhs). */
static void solve_basic(int m, const double *rhs, const mcd_lemke_ws *w, double *x)
{
    int one = 1, info;
    memcpy(x, rhs, (size_t)m * sizeof *x);
    if (w->sparse) {
        mcd_lemke_basis_lu_solve(w->sparse, x);
        return;
    }
    dgetrs_("N", &m, &one, w->B, &m, w->ipiv, x, &m, &info);
}

/* B^{-1} (row-major) from the last LU: solving B^T X = I gives X = B^{-T}
 * column-major, i.e. B^{-1} row-major (O(m^3)). Nothing to do in the
 * product form: the factorization is B^{-1}. */
static void invert_basis(int m, const mcd_lemke_ws *w)
{
    if (w->sparse) return;
    memset(w->Binv, 0, (size_t)m * m * sizeof *w->Binv);
    for (int i = 0; i < m; i++) w->Binv[(size_t)i * m + i] = 1.0;
    int info;
    dgetrs_("T", &m, &m, w->B, &m, w->ipiv, w->Binv, &m, &info);
}

/* Recomputes B^{-1} and x_B = B^{-1} b' from an LU factorization of the
 * basis, discarding the rounding of the updates (negative values shifted
 * to 0); keeps the updated ones if the basis is numerically singular, and
 * then returns 0. */
static int refactor(int m, const double *A, const mcd_lemke_ws *w)
{
    if (w->refactors) ++*w->refactors;
    if (!factor_basis(m, A, w)) return 0;
    solve_basic(m, w->xB + m, w, w->xB);
    for (int i = 0; i < m; i++) shift_to_zero(m, A, w, i);
    invert_basis(m, w);
    return 1;
}

/* The final basic values from an LU factorization of the final basis with
 * the true b (no shifts; extract clips the zeta part); the updated values
 * are kept if that basis is numerically singular. */
static void refine(int m, const double *A, const double *b, const mcd_lemke_ws *w)
{
    if (factor_basis(m, A, w)) solve_basic(m, b, w, w->xB);
}

static void extract(int m, const mcd_lemke_ws *w, double *zeta)
{
    memset(zeta, 0, (size_t)m * sizeof *zeta);
    for (int i = 0; i < m; i++)
        if (w->basis[i] >= m && w->basis[i] < 2 * m) zeta[w->basis[i] - m] = fmax(0.0, w->xB[i]);
}

/* The row of z0 in the basis (it is basic until it leaves). */
static int z0_row(int m, const mcd_lemke_ws *w)
{
    int r = 0;
    while (w->basis[r] != z0_index(m)) r++;
    return r;
}

/* The band within which a basic value counts as zero, from noise()'s scale
 * and error estimate: delta = LEMKE_ZERO_TOL scale + LEMKE_NOISE_FACTOR
 * error (see the top of the file). */
static double zero_band(double scale, double error)
{
    return LEMKE_ZERO_TOL * scale + LEMKE_NOISE_FACTOR * error;
}

/* The change of b that the second pass allows a bound shift (and a point
 * taken as a solution) to make: delta + LEMKE_SHIFT_TOL times the scale. */
static double shift_allowance(double scale, double error)
{
    return zero_band(scale, error) + LEMKE_SHIFT_TOL * scale;
}

/* Whether the estimated error of x_B calls for an LU: above
 * LEMKE_REFACTOR_TOL times the scale and above LEMKE_REFACTOR_GROWTH times
 * the floor, the relative estimate right after the last LU (see the top of
 * the file). */
static int needs_lu(double scale, double error, double lu_floor)
{
    return error > fmax(LEMKE_REFACTOR_TOL, LEMKE_REFACTOR_GROWTH * lu_floor) * scale;
}

/* The rule of one Lemke path: shift_limit, the bound shift that a small
 * pivot taken as zero may cause, relative to the scale (INFINITY: none
 * limits the step; LEMKE_SHIFT_TOL in the second pass); harris, Harris'
 * tolerant ratio test (1) or the strict lexicographic one (0); eps, the
 * relative size of the perturbation of b (start_basis; 0: none). After a
 * cycle: strict, with eps = LEMKE_PERTURBATION (see the top of the file). */
typedef struct lemke_rule {
    double shift_limit;
    int harris;
    double eps;
} lemke_rule;

/* The leaving row for the entering variable (its column in w->col). *fresh
 * says that B^{-1} and x_B come from an LU with no pivot since; *lu_floor is
 * the relative error estimate measured then. The basis is refactorized (and
 * *fresh set) when the estimated error of x_B is large (needs_lu), and
 * before a ray is accepted. rule: see lemke_rule. -1 on a ray; -2 when no
 * row limits the entering variable but z0 <= delta + LEMKE_SHIFT_TOL times
 * the scale: the current point then solves the LCP with b + e z0, a change
 * of b no larger than a bound shift the second pass allows, and is
 * returned (walk_path first tries its complementary neighbour, as a ray's:
 * the basis of a solution names no z0, mcd_lemke's basis out); the caller
 * checks its error. */
static int leaving_row(int m, const double *A, const mcd_lemke_ws *w, int entering, int *fresh,
                       double *lu_floor, lemke_rule rule)
{
    for (;;) {
        double scale, error;
        noise(m, A, w, &scale, &error);
        if (*fresh) *lu_floor = error / scale;
        int stale = !*fresh && needs_lu(scale, error, *lu_floor);
        double delta = zero_band(scale, error);
        double band = rule.harris ? delta : zero_band(scale, 0.0);
        int r = stale ? -1 : ratio_test(m, w, band, delta + rule.shift_limit * scale, rule.harris);
        if (r >= 0) return r;
        if (*fresh) return w->xB[z0_row(m, w)] <= shift_allowance(scale, error) ? -2 : -1;
        refactor(m, A, w);
        entering_column(m, A, w, entering);
        *fresh = 1;
    }
}

/* Whether the bound shifts changed b by more than the second pass allows
 * (max |b' - b| > delta + LEMKE_SHIFT_TOL times the scale). */
static int shifted_beyond_limit(int m, const double *A, const double *b, const mcd_lemke_ws *w)
{
    double scale, error, shift = 0.0;
    noise(m, A, w, &scale, &error);
    for (int i = 0; i < m; i++) shift = fmax(shift, fabs(w->xB[m + i] - b[i]));
    return shift > shift_allowance(scale, error);
}

/* The complementary neighbour of a ray: in the basis of the ray, z0 is
 * replaced by the complement of the entering variable (the variable that
 * left at the last pivot), and that basis is solved afresh by LU with the
 * true b (no shifts). Kept, as the solution, if every value is >= -(delta +
 * LEMKE_SHIFT_TOL scale), delta and the scale those of the ray's basis:
 * clipping them to 0 changes b by no more than the second pass's limit on
 * the bound shifts (see the top of the file). Returns whether it was kept;
 * else the basis is left as it was (w->B and w->col are overwritten; in
 * the product form the ray's basis, fresh from an LU, is factored again). */
static int complete_ray(int m, const double *A, const double *b, const mcd_lemke_ws *w,
                        int entering)
{
    double scale, error;
    noise(m, A, w, &scale, &error);
    double lowest = -shift_allowance(scale, error);
    int r = z0_row(m, w);
    w->basis[r] = complement(m, entering);
    const int factored = factor_basis(m, A, w);
    int kept = factored;
    if (kept) {
        solve_basic(m, b, w, w->col);
        for (int i = 0; i < m && kept; i++) kept = w->col[i] >= lowest;
    }
    if (kept) {
        memcpy(w->xB, w->col, (size_t)m * sizeof *w->xB);
        return 1;
    }
    w->basis[r] = z0_index(m);
    if (factored && w->sparse) factor_basis(m, A, w); /* as it was right before */
    return 0;
}

/* Brent's cycle detection on the states of a path (the hash of the basis
 * and the entering variable): a state is saved, then compared with every
 * later one, at pivots 1, 2, 4, 8, ... after the last save, but at most
 * `window` pivots after it (Brent's doubling alone finds a cycle that starts
 * at pivot s only by pivot 2 s + L: a cycle of a group LCP of n = 648 from
 * sphere_pile starts at pivot 23,788, and Brent's next save came after the
 * cap of 32,400). With window = 2m, a cycle of length L <= 2m that starts at
 * pivot s is found by pivot s + 4m + L; longer ones run to the cap. */
typedef struct cycle_check {
    uint64_t saved;
    long power, length, window;
} cycle_check;

/* Whether state repeats the saved one (see cycle_check). */
static int state_repeats(cycle_check *c, uint64_t state)
{
    if (state == c->saved) return 1;
    if (c->length == c->power) {
        c->saved = state;
        c->power = 2 * c->power < c->window ? 2 * c->power : c->window;
        c->length = 0;
    }
    c->length++;
    return 0;
}

/* How a Lemke path ended, beside its status (lemke_path). */
typedef enum path_end {
    PATH_DONE,          /* z0 left the basis, or the pivot cap */
    PATH_CYCLE,         /* a repeated state (cycle_check): MCD_ERR_NOT_CONVERGED */
    PATH_RAY,           /* a ray that does not prove infeasibility: MCD_ERR_INFEASIBLE */
    PATH_CERTIFIED_RAY, /* a ray whose direction proves it (Farkas): MCD_ERR_INFEASIBLE */
} path_end;

/* Whether the ray of the entering variable proves the LCP infeasible. Its
 * direction d is the zeta part of the step along which the entering
 * variable grows: d_j = 1 for an entering zeta_j, d_j = -a_i for zeta_j
 * basic in row i (a = B^{-1} times the entering column), clipped to d >= 0.
 * If A^T d <= 0 and b^T d < 0 then d^T (A zeta + b) = zeta^T A^T d + b^T d < 0
 * for every zeta >= 0, so no zeta >= 0 has A zeta + b >= 0 (Farkas). Both
 * are judged at the precision at which the ray was declared (entries up
 * to LEMKE_PIVOT_TOL of the largest count as zero): (A^T d)_j <=
 * LEMKE_PIVOT_TOL (|A|^T d)_j and b^T d < -LEMKE_PIVOT_TOL |b|^T d. For a
 * copositive-plus A every ray of Lemke's method has such a d; for
 * the friction LCP (not copositive-plus) a ray of the bound shifts need
 * not (see the top of the file). O(m^2); uses w->col and w->tmp. */
static int ray_certifies_infeasibility(int m, const double *A, const double *b,
                                       const mcd_lemke_ws *w, int entering)
{
    entering_column(m, A, w, entering);
    double *d = w->tmp;
    memset(d, 0, (size_t)m * sizeof *d);
    if (entering >= m) d[entering - m] = 1.0; /* z0 never enters */
    for (int i = 0; i < m; i++)
        if (w->basis[i] >= m && w->basis[i] < 2 * m) d[w->basis[i] - m] = fmax(0.0, -w->col[i]);
    double bd = 0.0, abs_bd = 0.0;
    for (int l = 0; l < m; l++) bd += b[l] * d[l], abs_bd += fabs(b[l]) * d[l];
    if (!(bd < -LEMKE_PIVOT_TOL * abs_bd)) return 0;
    for (int j = 0; j < m; j++) { /* (A^T d)_j and (|A|^T d)_j */
        double s = 0.0, abs_s = 0.0;
        for (int l = 0; l < m; l++) {
            double t = A[(size_t)l * m + j] * d[l];
            s += t, abs_s += fabs(t);
        }
        if (s > LEMKE_PIVOT_TOL * abs_s) return 0;
    }
    return 1;
}

/* A Lemke path from a complementary starting basis (w->basis, B^{-1},
 * x_B = B^{-1} b', the covering vector d with B^{-1} d = e): z0 enters, the
 * row of the lexicographically smallest x_i leaves, and so on (rule as
 * leaving_row); lu_floor is the relative error estimate of the starting
 * x_B (leaving_row). *end says how it ended (path_end). */
static mcd_status walk_path(int m, const double *A, const double *b, int max_pivots,
                            const mcd_lemke_ws *w, lemke_rule rule, double lu_floor, int *pivots,
                            path_end *end)
{
    int r = first_row(m, w->xB);
    int entering = z0_index(m), fresh = 1;
    uint64_t basis_hash = 0;
    for (int i = 0; i < m; i++) basis_hash ^= variable_key(w->basis[i]);
    cycle_check cycle = {basis_hash ^ variable_key(2 * m + 1 + entering), 1, 1, 2L * m};
    *end = PATH_DONE;
    for (int k = 0;; k++) {
        if (k == max_pivots) return MCD_ERR_NOT_CONVERGED;
        if (k > 0 && state_repeats(&cycle, basis_hash ^ variable_key(2 * m + 1 + entering))) {
            *end = PATH_CYCLE;
            return MCD_ERR_NOT_CONVERGED;
        }
        entering_column(m, A, w, entering);
        if (k > 0) r = leaving_row(m, A, w, entering, &fresh, &lu_floor, rule);
        if (r == -2) { /* z0 = 0 up to the shifts: solved; its basis made complementary */
            if (complete_ray(m, A, b, w, entering)) ++*pivots;
            return MCD_OK;
        }
        if (r < 0) { /* a ray: its complementary neighbour, else a ray */
            if (complete_ray(m, A, b, w, entering)) {
                ++*pivots; /* z0 left the basis */
                return MCD_OK;
            }
            int certified = ray_certifies_infeasibility(m, A, b, w, entering);
            *end = certified ? PATH_CERTIFIED_RAY : PATH_RAY;
            return MCD_ERR_INFEASIBLE;
        }
        const int updated = pivot(m, w, r);
        ++*pivots;
        fresh = 0;
        int leaving = w->basis[r];
        w->basis[r] = entering;
        basis_hash ^= variable_key(leaving) ^ variable_key(entering);
        for (int i = 0; i < m; i++) shift_to_zero(m, A, w, i);
        if (leaving == z0_index(m)) return MCD_OK;
        if (!updated) { /* the eta file was full: an LU of the new basis */
            if (!refactor(m, A, w)) return MCD_ERR_NOT_CONVERGED;
            fresh = 1;
        }
        entering = complement(m, leaving);
    }
}

/* One Lemke path from the start {w} (mcd_lemke; rule as leaving_row). */
static mcd_status lemke_path(int m, const double *A, const double *b, int max_pivots,
                             const mcd_lemke_ws *w, lemke_rule rule, int *pivots, path_end *end)
{
    if (!start_basis(m, A, b, rule.eps, w)) {
        *end = PATH_DONE;
        return MCD_ERR_NOT_CONVERGED;
    }
    /* lu_floor 0: the starting basis, the identity, is exact */
    return walk_path(m, A, b, max_pivots, w, rule, 0.0, pivots, end);
}

/* A Lemke path with Harris' ratio test; if it cycles, a path from the start
 * with the strict lexicographic test on the perturbed b (see the top of
 * the file), whose own cycle ends it with MCD_ERR_NOT_CONVERGED. *strict
 * says whether the strict path ran; *end is how the last path ended. */
static mcd_status path_without_cycle(int m, const double *A, const double *b, int max_pivots,
                                     const mcd_lemke_ws *w, double shift_limit, int *pivots,
                                     int *strict, path_end *end)
{
    lemke_rule rule = {shift_limit, 1, 0.0};
    mcd_status status = lemke_path(m, A, b, max_pivots, w, rule, pivots, end);
    *strict = *end == PATH_CYCLE;
    if (!*strict) return status;
    rule = (lemke_rule){shift_limit, 0, LEMKE_PERTURBATION};
    return lemke_path(m, A, b, max_pivots, w, rule, pivots, end);
}

/* max_i |min(zeta_i, (A zeta + b)_i)|, the natural-map residual of the LCP
 * at zeta (uses w->tmp). */
static double lcp_residual(int m, const double *A, const double *b, const mcd_lemke_ws *w,
                           const double *zeta)
{
    mcd_dense_matvec(m, A, zeta, b, w->tmp);
    double r = 0.0;
    for (int i = 0; i < m; i++) r = fmax(r, fabs(fmin(zeta[i], w->tmp[i])));
    return r;
}

/* After a solution by Harris' test whose residual exceeds LEMKE_SHIFT_TOL
 * max |b_i| (the final basis, solved with the true b, has values below 0
 * beyond rounding: the bound shifts changed b by more), the strict path on
 * the perturbed b (see the top of the file); its point replaces zeta if
 * its residual is smaller. */
static void retry_strict(int m, const double *A, const double *b, int max_pivots,
                         const mcd_lemke_ws *w, double *zeta, int *pivots)
{
    double residual = lcp_residual(m, A, b, w, zeta);
    if (residual <= LEMKE_SHIFT_TOL * mcd_dense_max_abs(m, b)) return;
    path_end end;
    lemke_rule rule = {INFINITY, 0, LEMKE_PERTURBATION};
    if (lemke_path(m, A, b, max_pivots, w, rule, pivots, &end) != MCD_OK) return;
    refine(m, A, b, w);
    extract(m, w, w->col);
    if (lcp_residual(m, A, b, w, w->col) < residual) memcpy(zeta, w->col, (size_t)m * sizeof *zeta);
}

/* Swaps rows and columns k and r of the p x p row-major S, and P[k], P[r]. */
static void swap_principal(int p, double *S, int *P, int k, int r)
{
    if (k == r) return;
    for (int j = 0; j < p; j++) {
        double t = S[(size_t)k * p + j];
        S[(size_t)k * p + j] = S[(size_t)r * p + j], S[(size_t)r * p + j] = t;
    }
    for (int i = 0; i < p; i++) {
        double t = S[(size_t)i * p + k];
        S[(size_t)i * p + k] = S[(size_t)i * p + r], S[(size_t)i * p + r] = t;
    }
    int t = P[k];
    P[k] = P[r], P[r] = t;
}

/* The guessed complementary basis: zeta_j basic in row j for j in a subset
 * P' of P = {j: zeta_start_j > 0}, w_j elsewhere. The basis matrix is
 * nonsingular iff A_P'P' is, and a pile's guess is not: its positive
 * impulses outnumber the rank of W (statically indeterminate), and A_PP is
 * singular up to rounding (the solution of such a basis had errors of
 * 1e10..1e14). So P' is chosen by Gaussian elimination on A_PP with
 * symmetric (diagonal) pivoting, the largest |Schur complement diagonal|
 * first, stopping when it is below LEMKE_GUESS_PIVOT_TOL times the largest
 * diagonal of A_PP: the eliminated ones are P'. O(|P|^3), in w->Binv
 * (scratch) and w->ties (P). */
static void choose_guess(int m, const double *A, const double *zeta_start, const mcd_lemke_ws *w)
{
    int p = 0, *P = w->ties;
    for (int i = 0; i < m; i++) {
        w->basis[i] = i;
        if (zeta_start[i] > 0) P[p++] = i;
    }
    double *S = w->Binv, amax = 0.0;
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++) S[(size_t)i * p + j] = A[(size_t)P[i] * m + P[j]];
    for (int i = 0; i < p; i++) amax = fmax(amax, fabs(S[(size_t)i * p + i]));
    for (int k = 0; k < p; k++) {
        int r = k;
        for (int i = k + 1; i < p; i++)
            if (fabs(S[(size_t)i * p + i]) > fabs(S[(size_t)r * p + r])) r = i;
        const double pivot = S[(size_t)r * p + r];
        if (!(fabs(pivot) > LEMKE_GUESS_PIVOT_TOL * amax)) return;
        swap_principal(p, S, P, k, r);
        w->basis[P[k]] = m + P[k];
        for (int i = k + 1; i < p; i++) {
            const double f = S[(size_t)i * p + k] / pivot;
            if (f == 0) continue;
            for (int j = k + 1; j < p; j++) S[(size_t)i * p + j] -= f * S[(size_t)k * p + j];
        }
    }
}

/* Factors the basis w->basis (w->B) and solves it, x_B = B^{-1} b, b' = b.
 * 0 if it is singular. */
static int solve_guess(int m, const double *A, const double *b, const mcd_lemke_ws *w)
{
    if (!factor_basis(m, A, w)) return 0;
    solve_basic(m, b, w, w->xB);
    memcpy(w->xB + m, b, (size_t)m * sizeof *w->xB);
    return 1;
}

/* Whether the solved basis (solve_guess) is a solution: no x_i below
 * -(LEMKE_ZERO_TOL + LEMKE_SHIFT_TOL) times the scale, and the point's
 * residual (lcp_residual) <= LEMKE_SHIFT_TOL max |b_i|, the bar of the
 * cold path's retry_strict; the point is then in zeta. */
static int basis_solves(int m, const double *A, const double *b, const mcd_lemke_ws *w,
                        double *zeta)
{
    const double b_max = mcd_dense_max_abs(m, b);
    const double scale = fmax(b_max, mcd_dense_max_abs(m, w->xB));
    for (int i = 0; i < m; i++)
        if (w->xB[i] < -shift_allowance(scale, 0.0)) return 0;
    extract(m, w, zeta);
    return lcp_residual(m, A, b, w, zeta) <= LEMKE_SHIFT_TOL * b_max;
}

/* The warm path from the guessed basis B (solve_guess, factored in w->B):
 * covering vector d = B e, so that B^{-1} d = e and z0's column -d enters
 * as -e, as on the cold path from {w}: x_B + z0 e >= 0 for z0 >= -min x_B
 * (Lemke's scheme with a covering vector d, Cottle, Pang and Stone, The
 * Linear Complementarity Problem, 1992, section 4.4). This d need not be
 * positive, and then a ray proves nothing; so Harris' test only, with the
 * bound shifts limited as on the cold path's second pass (unlimited, the
 * end point solved afresh with the true b had residuals of 0.1..0.3 on
 * the sphere pile's groups, 1e6 times the accepted one), no strict path:
 * any end but a solution sends the caller to the cold path. B^{-1} from
 * the LU. */
static mcd_status warm_path(int m, const double *A, const double *b, int max_pivots,
                            const mcd_lemke_ws *w, int *pivots)
{
    for (int l = 0; l < m; l++) { /* d_l = sum of the basic columns' entries l */
        double d = 0.0;
        for (int i = 0; i < m; i++) {
            int v = w->basis[i];
            d += v < m ? (l == v) : -A[(size_t)l * m + (v - m)];
        }
        w->cover[l] = d;
    }
    invert_basis(m, w);
    double scale, error;
    noise(m, A, w, &scale, &error);
    path_end end;
    lemke_rule rule = {LEMKE_SHIFT_TOL, 1, 0.0};
    return walk_path(m, A, b, max_pivots, w, rule, error / scale, pivots, &end);
}

/* Factors and solves the basis that start names (zeta_j basic where
 * start_j > 0); *solved says whether it solves the LCP as it stands
 * (basis_solves; the point in zeta). Returns 0 if it is singular. */
static int try_guess(int m, const double *A, const double *b, const double *start,
                     const mcd_lemke_ws *w, double *zeta, int *solved)
{
    for (int i = 0; i < m; i++) w->basis[i] = start[i] > 0 ? m + i : i;
    *solved = 0;
    if (!solve_guess(m, A, b, w)) return 0;
    *solved = basis_solves(m, A, b, w, zeta);
    return 1;
}

/* Warm paths from the factored and solved guess (solve_guess), up to
 * LEMKE_WARM_PATHS, each from the last one's end solved afresh, until one
 * ends on a point that solves the LCP (basis_solves; the point in zeta):
 * the sphere pile's end points miss basis_solves' bar by rounding
 * (residuals 1.2 to 20 times the bar, basic values down to -2e-10) and the
 * next path takes 2 to 60 pivots. Returns whether one did; *by_path says
 * whether a path ended at all. */
static int warm_paths(int m, const double *A, const double *b, int max_pivots,
                      const mcd_lemke_ws *w, double *zeta, int *pivots, int *by_path)
{
    int factored = 1, solved = 0;
    for (int k = 0; k < LEMKE_WARM_PATHS && factored && !solved; k++) {
        if (warm_path(m, A, b, max_pivots, w, pivots) != MCD_OK) break;
        *by_path = 1;
        factored = solve_guess(m, A, b, w); /* its end, solved with the true b */
        solved = factored && basis_solves(m, A, b, w, zeta);
    }
    return solved;
}

/* The warm start of mcd_lemke (lemke.h). w->basis_start's basis, if it
 * solves the LCP as it stands. The guessed basis (zeta_j basic where
 * zeta_start_j > 0), if it solves the LCP as it is (basis_solves). Else
 * its well-conditioned part (choose_guess), if that solves it, or the
 * warm paths from it (warm_paths) if they end on a point that does; if
 * they do not, the warm paths from w->basis_start's basis (if it is not
 * singular). Not from that basis first: on humanoid_flat, whose contacts
 * alternate between two states at rest, a path from the last step's basis
 * (the other state's) took 59 pivots where the zeta_start guess's took
 * 13; on the sphere pile's landing the zeta_start guess's paths mostly end
 * on a ray within a few pivots, and the basis's then save a cold path
 * (docs/solvers.md, "mlcp-lemke from the previous solution's basis
 * (session 18)"). Returns whether zeta holds such a point, counting in
 * w->warm_ends how it ended; pivots counts the warm paths'. */
static int solved_from_guess(int m, const double *A, const double *b, const double *zeta_start,
                             int max_pivots, const mcd_lemke_ws *w, double *zeta, int *pivots)
{
    mcd_lemke_warm_ends *ends = w->warm_ends, ignored = {0};
    if (!ends) ends = &ignored;
    int solved = 0, by_path = 0;
    const int basis_factors =
        w->basis_start && try_guess(m, A, b, w->basis_start, w, zeta, &solved);
    if (!solved) try_guess(m, A, b, zeta_start, w, zeta, &solved);
    if (!solved) {
        choose_guess(m, A, zeta_start, w);
        const int factored = solve_guess(m, A, b, w);
        solved = factored && basis_solves(m, A, b, w, zeta);
        if (factored && !solved)
            solved = warm_paths(m, A, b, max_pivots, w, zeta, pivots, &by_path);
    }
    if (!solved && basis_factors) {
        try_guess(m, A, b, w->basis_start, w, zeta, &solved); /* not solved as it stands */
        solved = warm_paths(m, A, b, max_pivots, w, zeta, pivots, &by_path);
    }
    ++*(!solved ? &ends->fell_back : by_path ? &ends->by_path : &ends->at_start);
    return solved;
}

/* mcd_lemke once A and b call for a path (w->sparse set). */
static mcd_status lemke_solve(int m, const double *A, const double *b, const double *zeta_start,
                              int max_pivots, const mcd_lemke_ws *w, double *zeta, int *pivots)
{
    if (zeta_start && solved_from_guess(m, A, b, zeta_start, max_pivots, w, zeta, pivots))
        return MCD_OK;
    int strict;
    path_end end;
    mcd_status status = path_without_cycle(m, A, b, max_pivots, w, INFINITY, pivots, &strict, &end);
    if (end == PATH_RAY && shifted_beyond_limit(m, A, b, w))
        status = path_without_cycle(m, A, b, max_pivots, w, LEMKE_SHIFT_TOL, pivots, &strict, &end);
    if (end == PATH_RAY && !strict) { /* not a proof: the strict path on the perturbed b */
        lemke_rule rule = {INFINITY, 0, LEMKE_PERTURBATION};
        status = lemke_path(m, A, b, max_pivots, w, rule, pivots, &end);
        strict = 1;
    }
    if (status == MCD_OK) refine(m, A, b, w);
    extract(m, w, zeta);
    if (status == MCD_OK && !strict) retry_strict(m, A, b, max_pivots, w, zeta, pivots);
    return status;
}

mcd_status mcd_lemke(int m, const double *A, const double *b, const double *zeta_start,
                     int max_pivots, const mcd_lemke_ws *w, double *zeta, int *pivots)
{
    *pivots = 0;
    memset(zeta, 0, (size_t)m * sizeof *zeta);
    if (m == 0 || b[first_row(m, b)] >= 0) { /* zeta = 0 solves it: the basis {w} */
        for (int i = 0; i < m; i++) w->basis[i] = i;
        return MCD_OK;
    }
    mcd_lemke_ws ws = *w; /* NULL sparse state: the dense LU (lemke.h) */
    ws.sparse = w->dense_lu ? NULL : mcd_lemke_basis_lu_create(m, A);
    mcd_status status = lemke_solve(m, A, b, zeta_start, max_pivots, &ws, zeta, pivots);
    mcd_lemke_basis_lu_free(ws.sparse);
    return status;
}

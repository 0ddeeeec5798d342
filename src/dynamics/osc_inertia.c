/* Operational-space inertia (Khatib's Lambda) = the inverse of the
 * operational-space compliance Lambda = J M^{-1} J^T of Jain's notation
 * (include/mcdyn/osc.h, docs/theory/operational-space.md): the compliance
 * from the O(N) + O(K^2) recursion, then inverted in place by Cholesky,
 * O((rK)^3) in the number of rows only. */
#include "../base/lapack.h"
#include "dynamics_internal.h"
#include "mcdyn/osc.h"

/* Relative size of the smallest Cholesky pivot (squared) against the
 * largest diagonal entry below which the compliance counts as singular: the
 * rows are then dependent to about sqrt(1e-12) = 1e-6 relative (a point
 * row that no joint moves, or two points that move together). */
#define MIN_PIVOT_RATIO 1e-12

/* A (n x n, symmetric) replaced by its inverse; MCD_ERR_SINGULAR if it is
 * not positive definite within MIN_PIVOT_RATIO. Row- and column-major are
 * the same for a symmetric matrix, so LAPACK works on it directly; dpotri
 * fills the lower triangle only and the upper is copied from it. */
static mcd_status spd_invert_in_place(mcd_data *d, int n, double *A)
{
    double amax = 0.0;
    for (int i = 0; i < n; i++) amax = fmax(amax, A[(size_t)n * i + i]);
    int info = 0;
    if (n > 0) dpotrf_("L", &n, A, &n, &info);
    for (int i = 0; info == 0 && i < n; i++) {
        const double l = A[(size_t)n * i + i]; /* column-major L(i, i) */
        if (!(l * l > MIN_PIVOT_RATIO * amax)) info = i + 1;
    }
    if (info != 0)
        return mcd_fail(&d->err, MCD_ERR_SINGULAR,
                        "operational-space compliance is singular at row %d of %d: the task rows "
                        "are dependent or not moved by any joint (use fewer rows, e.g. "
                        "MCD_OSC_LINEAR)",
                        info - 1, n);
    if (n > 0) dpotri_("L", &n, A, &n, &info);
    for (int i = 0; i < n; i++) /* column-major lower = row-major upper */
        for (int j = 0; j < i; j++) A[(size_t)n * i + j] = A[(size_t)n * j + i];
    return MCD_OK;
}

mcd_status mcd_osc_inertia(const mcd_model *m, mcd_data *d, int K, const mcd_osc_point *pts,
                           mcd_osc_rows rows, double *inertia)
{
    if (!m || !d || !inertia) return MCD_ERR_ARG;
    mcd_status s = mcd_osc_compliance(m, d, K, pts, rows, inertia);
    if (s != MCD_OK) return s;
    return spd_invert_in_place(d, (int)rows * K, inertia);
}

mcd_status mcd_node_osc_inertia(const mcd_model *m, mcd_data *d, const double *q, int K,
                                const int *nodes, mcd_osc_rows rows, double *inertia)
{
    if (!m || !d || !inertia) return MCD_ERR_ARG;
    mcd_status s = mcd_node_compliance(m, d, q, K, nodes, rows, inertia);
    if (s != MCD_OK) return s;
    return spd_invert_in_place(d, (int)rows * K, inertia);
}

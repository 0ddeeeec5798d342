/* W = X Lambda X^T in closed form for rows whose points all lie on one free
 * body without children (osc_internal.h).
 *
 * Such a body is its own articulated body: P = M(k), and its six-column
 * hinge spans every spatial velocity, so Omega(k) = H^* (H M H^*)^{-1} H
 * = M(k)^{-1}, the inverse of its rigid-body spatial inertia. About the
 * centre of mass c (world axes), with m the mass and I_c the rotational
 * inertia, an impulse [n; F] applied at a point x gives
 *     dv_c = F / m,   dw = I_c^{-1} (n + r x F),   r = x - c,
 * and the point's spatial velocity [w; v_c + w x r] changes by [dw; dv_c +
 * dw x r]. A row a = [a_w; a_v] at x (its impulse is the wrench [a_w; a_v]
 * at x, the row's transpose) thus measures
 *     a . dV = (a_w + r x a_v) . dw + a_v . dv_c,
 * and with b_i = s_i (a_w,i + r_i x a_v,i), e_i = s_i a_v,i (s_i = +1 on
 * the row's point A, -1 on B):
 *     W_ij = b_i^T I_c^{-1} b_j + e_i . e_j / m.
 * O(n^2) for n rows, no O(N) sweep and no Lambda of the points. */
#include "osc_internal.h"

#include "mcdyn/spatial.h"

/* A^{-1} for a symmetric positive definite 3x3 A, by cofactors. */
static void sym3_inverse(const double A[9], double Ainv[9])
{
    const double c00 = A[4] * A[8] - A[5] * A[7], c01 = A[5] * A[6] - A[3] * A[8],
                 c02 = A[3] * A[7] - A[4] * A[6];
    const double c11 = A[0] * A[8] - A[2] * A[6], c12 = A[2] * A[3] - A[0] * A[5],
                 c22 = A[0] * A[4] - A[1] * A[3];
    const double inv_det = 1.0 / (A[0] * c00 + A[1] * c01 + A[2] * c02);
    Ainv[0] = c00 * inv_det, Ainv[1] = Ainv[3] = c01 * inv_det, Ainv[2] = Ainv[6] = c02 * inv_det;
    Ainv[4] = c11 * inv_det, Ainv[5] = Ainv[7] = c12 * inv_det, Ainv[8] = c22 * inv_det;
}

int mcd_osc_single_free_body(const mcd_model *m, int npts, const mcd_osc_point *pts)
{
    if (npts < 1) return -1;
    const int k = pts[0].body;
    if (k < 0 || k >= m->nbody) return -1;
    const mcd_body *B = &m->body[k];
    if (B->jtype != MCD_JOINT_FREE || B->parent != -1 || B->first_child != -1) return -1;
    for (int i = 1; i < npts; i++)
        if (pts[i].body != k) return -1;
    return k;
}

/* b_i and e_i of row i (signs folded in) into be (6: b, e). */
static void row_vectors(const double *a, const double *r_a, const double *r_b, int angular,
                        double be[6])
{
    for (int j = 0; j < 6; j++) be[j] = 0.0;
    const double *r[2] = {r_a, r_b};
    for (int s = 0; s < 2; s++) {
        if (!r[s]) continue;
        const double sign = s == 0 ? 1.0 : -1.0;
        double t[3];
        mcd_v3_cross(t, r[s], a + 3);
        for (int j = 0; j < 3; j++) {
            be[j] += sign * ((angular ? a[j] : 0.0) + t[j]);
            be[3 + j] += sign * a[3 + j];
        }
    }
}

void mcd_osc_free_body_row_compliance(const mcd_model *m, const mcd_data *d, int body,
                                      const mcd_osc_point *pts, mcd_osc_rows rows, int n,
                                      const int *pa, const int *pb, const double *coef,
                                      double *work, double *W)
{
    const mcd_body *B = &m->body[body];
    const mcd_pose *X = &d->bd[body].X_world;
    double c[3], Ic_inv[9], Iw_inv[9];
    mcd_pose_apply(c, X, B->mass.com);
    sym3_inverse(B->mass.inertia, Ic_inv);
    mcd_m3_rotate_sym(Iw_inv, X->R, Ic_inv); /* (R I_c R^T)^{-1} = R I_c^{-1} R^T */
    const double inv_mass = 1.0 / B->mass.mass;
    for (int i = 0; i < n; i++) { /* work: b_i, e_i, I_c^{-1} b_i per row */
        double ra[3], rb[3], *be = work + 9 * i;
        if (pa[i] >= 0) mcd_v3_sub(ra, pts[pa[i]].x, c);
        if (pb[i] >= 0) mcd_v3_sub(rb, pts[pb[i]].x, c);
        row_vectors(coef + 6 * i, pa[i] >= 0 ? ra : NULL, pb[i] >= 0 ? rb : NULL,
                    rows == MCD_OSC_SPATIAL, be);
        mcd_m3_mul_v(be + 6, Iw_inv, be);
    }
    for (int i = 0; i < n; i++) {
        const double *wi = work + 9 * i;
        for (int j = i; j < n; j++) {
            const double *wj = work + 9 * j;
            const double t = wi[0] * wj[6] + wi[1] * wj[7] + wi[2] * wj[8] +
                             inv_mass * (wi[3] * wj[3] + wi[4] * wj[4] + wi[5] * wj[5]);
            W[(size_t)i * n + j] = W[(size_t)j * n + i] = t;
        }
    }
}

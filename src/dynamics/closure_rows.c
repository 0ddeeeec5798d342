/* Loop-closure rows: Q_b as per-row coefficients on the relative spatial
 * velocity of the two closure frames, position errors phi, and the dense
 * G_b = Q_b J for tests (include/mcdyn/closure.h). */
#include "closure_internal.h"

#include <math.h>
#include <string.h>

void mcd_closure_frames(const mcd_model *m, const mcd_data *d, int c, mcd_pose *XA, mcd_pose *XB)
{
    const mcd_closure *C = &m->closure[c];
    mcd_pose_mul(XA, &d->bd[C->body_a].X_world, &C->pose_a);
    if (C->body_b >= 0)
        mcd_pose_mul(XB, &d->bd[C->body_b].X_world, &C->pose_b);
    else
        *XB = C->pose_b;
}

static void set_row(double *a, const double w[3], const double v[3])
{
    for (int i = 0; i < 3; i++) {
        a[i] = w ? w[i] : 0.0;
        a[3 + i] = v ? v[i] : 0.0;
    }
}

/* Rows of one closure: translation rows first (world axes), then angular. */
static int closure_rows(const mcd_closure *C, const mcd_pose *XA, const mcd_pose *XB, double *a)
{
    static const double e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    int n = 0;
    if (C->type == MCD_CLOSURE_DISTANCE) {
        double dx[3];
        mcd_v3_sub(dx, XA->p, XB->p);
        double len = mcd_v3_norm(dx);
        if (len > 0) mcd_v3_scale(dx, dx, 1.0 / len);
        set_row(a, NULL, dx);
        return 1;
    }
    for (int k = 0; k < 3; k++) set_row(a + 6 * n++, NULL, e[k]);
    if (C->type == MCD_CLOSURE_WELD)
        for (int k = 0; k < 3; k++) set_row(a + 6 * n++, e[k], NULL);
    if (C->type == MCD_CLOSURE_HINGE)
        for (int k = 0; k < 2; k++) { /* x and y axes of frame A, orthogonal to its z */
            double ek[3] = {XA->R[k], XA->R[3 + k], XA->R[6 + k]};
            set_row(a + 6 * n++, ek, NULL);
        }
    return n;
}

void mcd_closure_assemble_rows(const mcd_model *m, mcd_data *d)
{
    mcd_closure_ws *w = d->closure;
    int row = 0, np = 0;
    for (int c = 0; c < m->nclosure; c++) {
        const mcd_closure *C = &m->closure[c];
        mcd_pose XA, XB;
        mcd_closure_frames(m, d, c, &XA, &XB);
        w->pt_a[c] = np;
        w->pts[np].body = C->body_a;
        mcd_v3_copy(w->pts[np++].x, XA.p);
        w->pt_b[c] = -1;
        if (C->body_b >= 0) {
            w->pt_b[c] = np;
            w->pts[np].body = C->body_b;
            mcd_v3_copy(w->pts[np++].x, XB.p);
        }
        int n = closure_rows(C, &XA, &XB, w->coef + 6 * row);
        for (int i = 0; i < n; i++) {
            w->row_closure[row + i] = c;
            w->row_pa[row + i] = w->pt_a[c];
            w->row_pb[row + i] = w->pt_b[c];
        }
        row += n;
    }
    w->npts = np;
}

void mcd_point_motion(const double V[6], const double x[3], double out[6])
{
    double t[3];
    mcd_v3_copy(out, V);
    mcd_v3_cross(t, V, x);
    mcd_v3_add(out + 3, V + 3, t);
}

void mcd_point_acceleration(const double V[6], const double a[6], const double x[3], double out[6])
{
    double xd[6], t[3];
    mcd_point_motion(V, x, xd); /* [w; x_dot] */
    mcd_v3_copy(out, a);        /* w_dot */
    mcd_v3_cross(t, a, x);      /* w_dot x x */
    mcd_v3_add(out + 3, a + 3, t);
    mcd_v3_cross(t, V, xd + 3); /* w x x_dot */
    mcd_v3_add(out + 3, out + 3, t);
}

void mcd_closure_row_values(const mcd_model *m, const mcd_closure_ws *w, const double *YA,
                            const double *YB, double *out)
{
    (void)m;
    for (int i = 0; i < w->rows; i++) {
        const int c = w->row_closure[i];
        const double *a = w->coef + 6 * i;
        double v = 0.0;
        for (int k = 0; k < 6; k++) v += a[k] * (YA[6 * c + k] - YB[6 * c + k]);
        out[i] = v;
    }
}

void mcd_closure_errors_now(const mcd_model *m, const mcd_data *d, double *phi)
{
    int row = 0;
    for (int c = 0; c < m->nclosure; c++) {
        const mcd_closure *C = &m->closure[c];
        mcd_pose XA, XB;
        mcd_closure_frames(m, d, c, &XA, &XB);
        double dx[3];
        mcd_v3_sub(dx, XA.p, XB.p);
        if (C->type == MCD_CLOSURE_DISTANCE) {
            phi[row++] = mcd_v3_norm(dx) - C->length;
            continue;
        }
        for (int k = 0; k < 3; k++) phi[row++] = dx[k];
        if (C->type == MCD_CLOSURE_WELD) { /* rotation vector of R_A R_B^T */
            double Rr[9], quat[4];
            mcd_m3_mul_t(Rr, XA.R, XB.R);
            mcd_quat_from_m3(quat, Rr);
            mcd_quat_log(phi + row, quat);
            row += 3;
        } else if (C->type == MCD_CLOSURE_HINGE) { /* e_k . (z_B x z_A) */
            double zA[3] = {XA.R[2], XA.R[5], XA.R[8]}, zB[3] = {XB.R[2], XB.R[5], XB.R[8]}, t[3];
            mcd_v3_cross(t, zB, zA);
            for (int k = 0; k < 2; k++)
                phi[row++] = XA.R[k] * t[0] + XA.R[3 + k] * t[1] + XA.R[6 + k] * t[2];
        }
    }
}

mcd_status mcd_closure_errors(const mcd_model *m, mcd_data *d, const double *q, double *phi)
{
    mcd_status s = mcd_forward_kinematics(m, d, q);
    if (s == MCD_OK && !phi && m->nclosure_rows > 0)
        s = mcd_fail(&d->err, MCD_ERR_ARG, "phi is NULL");
    if (s != MCD_OK) return s;
    mcd_closure_errors_now(m, d, phi);
    return MCD_OK;
}

mcd_status mcd_closure_jacobian(const mcd_model *m, mcd_data *d, const double *q, double *G)
{
    if (!m || !d) return MCD_ERR_ARG;
    if (m->nclosure == 0) return MCD_OK;
    if (!G) return mcd_fail(&d->err, MCD_ERR_ARG, "G is NULL");
    mcd_status s = mcd_forward_kinematics(m, d, q);
    if (s != MCD_OK) return s;
    mcd_closure_ws *w = d->closure;
    mcd_closure_assemble_rows(m, d);
    const int nv = m->nv;
    memset(G, 0, (size_t)w->rows * nv * sizeof *G);
    for (int j = 0; j < nv; j++) { /* column j: the point motions of hinge column j */
        memset(w->vA, 0, 6 * (size_t)m->nclosure * sizeof *w->vA);
        memset(w->vB, 0, 6 * (size_t)m->nclosure * sizeof *w->vB);
        for (int c = 0; c < m->nclosure; c++)
            for (int side = 0; side < 2; side++) {
                int p = side ? w->pt_b[c] : w->pt_a[c];
                if (p < 0) continue;
                for (int b = w->pts[p].body; b >= 0; b = m->body[b].parent)
                    if (j >= m->body[b].vadr && j < m->body[b].vadr + m->body[b].nv) {
                        mcd_point_motion(d->Hstar + 6 * j, w->pts[p].x,
                                         (side ? w->vB : w->vA) + 6 * c);
                        break;
                    }
            }
        mcd_closure_row_values(m, w, w->vA, w->vB, w->rhs);
        for (int i = 0; i < w->rows; i++) G[(size_t)i * nv + j] = w->rhs[i];
    }
    return MCD_OK;
}

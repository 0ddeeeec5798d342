/* Configuration-space operations: integration on the manifold (unit
 * quaternions stay unit), its inverse, and renormalisation. */
#include "mcdyn/dynamics.h"

#include <math.h>

/* Quaternion block of a hinge (-1 if none). */
static int quat_offset(const mcd_body *B)
{
    return B->jtype == MCD_JOINT_SPHERICAL ? 0 : B->jtype == MCD_JOINT_FREE ? 3 : -1;
}

mcd_status mcd_integrate(const mcd_model *m, const double *q, const double *qd, double dt,
                         double *q_out)
{
    if (!m || !q || !qd || !q_out || !isfinite(dt)) return MCD_ERR_ARG;
    for (int i = 0; i < m->nv; i++)
        if (!isfinite(qd[i])) return MCD_ERR_NONFINITE;
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        const double *qi = q + B->qadr, *vi = qd + B->vadr;
        double *qo = q_out + B->qadr;
        int qo_off = quat_offset(B);
        if (qo_off < 0) {
            qo[0] = qi[0] + vi[0] * dt;
            continue;
        }
        if (B->jtype == MCD_JOINT_FREE)
            for (int i = 0; i < 3; i++) qo[i] = qi[i] + vi[i] * dt;
        const double *w = vi + (B->jtype == MCD_JOINT_FREE ? 3 : 0);
        double theta[3] = {w[0] * dt, w[1] * dt, w[2] * dt}, dq[4], r[4];
        mcd_quat_exp(dq, theta);
        mcd_quat_mul(r, qi + qo_off, dq); /* body-frame angular velocity: right product */
        if (!mcd_quat_normalize(r)) return MCD_ERR_NONFINITE;
        for (int i = 0; i < 4; i++) qo[qo_off + i] = r[i];
    }
    return MCD_OK;
}

mcd_status mcd_difference(const mcd_model *m, const double *q0, const double *q1, double dt,
                          double *v)
{
    if (!m || !q0 || !q1 || !v || !(dt != 0.0) || !isfinite(dt)) return MCD_ERR_ARG;
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        const double *a = q0 + B->qadr, *b = q1 + B->qadr;
        double *vi = v + B->vadr;
        int off = quat_offset(B);
        if (off < 0) {
            vi[0] = (b[0] - a[0]) / dt;
            continue;
        }
        if (B->jtype == MCD_JOINT_FREE)
            for (int i = 0; i < 3; i++) vi[i] = (b[i] - a[i]) / dt;
        double ainv[4] = {a[off], -a[off + 1], -a[off + 2], -a[off + 3]}, rel[4], theta[3];
        mcd_quat_mul(rel, ainv, b + off);
        mcd_quat_log(theta, rel);
        double *w = vi + (B->jtype == MCD_JOINT_FREE ? 3 : 0);
        for (int i = 0; i < 3; i++) w[i] = theta[i] / dt;
    }
    return MCD_OK;
}

mcd_status mcd_normalize_q(const mcd_model *m, double *q)
{
    if (!m || !q) return MCD_ERR_ARG;
    for (int k = 0; k < m->nbody; k++) {
        int off = quat_offset(&m->body[k]);
        if (off >= 0 && !mcd_quat_normalize(q + m->body[k].qadr + off)) return MCD_ERR_NONFINITE;
    }
    return MCD_OK;
}

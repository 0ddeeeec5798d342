/* Node Jacobians: J(node) = phi^*(ancestors, node) H^*, column by column.
 * A hinge-map column s = [s_w; s_v] (referred to the world origin) moves the
 * node origin x with w = s_w and v = s_v + s_w x x; with MCD_REF_LOCAL the
 * rows are then rotated into the node axes. */
#include "dynamics_internal.h"

#include <string.h>

static void fill_jacobian(const mcd_model *m, const mcd_data *d, int body, const mcd_pose *node,
                          mcd_reference ref, double *J)
{
    const int nv = m->nv;
    memset(J, 0, 6 * (size_t)nv * sizeof *J);
    for (int j = body; j >= 0; j = m->body[j].parent) {
        const mcd_body *B = &m->body[j];
        for (int c = 0; c < B->nv; c++) {
            const double *s = d->Hstar + 6 * (B->vadr + c);
            double w[3], v[3], t[3];
            mcd_v3_copy(w, s);
            mcd_v3_cross(t, s, node->p);
            mcd_v3_add(v, s + 3, t);
            if (ref == MCD_REF_LOCAL) {
                double wl[3], vl[3];
                mcd_m3t_mul_v(wl, node->R, w);
                mcd_m3t_mul_v(vl, node->R, v);
                mcd_v3_copy(w, wl);
                mcd_v3_copy(v, vl);
            }
            const int col = B->vadr + c;
            for (int i = 0; i < 3; i++) {
                J[i * nv + col] = w[i];
                J[(3 + i) * nv + col] = v[i];
            }
        }
    }
}

mcd_status mcd_node_pose(const mcd_model *m, mcd_data *d, const double *q, int node, mcd_pose *pose)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s != MCD_OK) return s;
    if (!pose) return mcd_fail(&d->err, MCD_ERR_ARG, "pose is NULL");
    if (node < 0 || node >= m->nnode)
        return mcd_fail(&d->err, MCD_ERR_ARG, "node index %d out of range [0, %d)", node, m->nnode);
    mcd_kinematics_pass(m, d, q);
    mcd_pose_mul(pose, &d->bd[m->node[node].body].X_world, &m->node[node].pose);
    return MCD_OK;
}

mcd_status mcd_node_jacobian(const mcd_model *m, mcd_data *d, const double *q, int node,
                             mcd_reference ref, double *J)
{
    mcd_pose pose;
    mcd_status s = mcd_node_pose(m, d, q, node, &pose);
    if (s == MCD_OK && !J) s = mcd_fail(&d->err, MCD_ERR_ARG, "J is NULL");
    if (s != MCD_OK) return s;
    fill_jacobian(m, d, m->node[node].body, &pose, ref, J);
    return MCD_OK;
}

mcd_status mcd_point_jacobian(const mcd_model *m, mcd_data *d, const double *q, int body,
                              const double point[3], mcd_reference ref, double *J)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s != MCD_OK) return s;
    if (body < 0 || body >= m->nbody || !point || !J)
        return mcd_fail(&d->err, MCD_ERR_ARG, "mcd_point_jacobian: body %d out of range or NULL",
                        body);
    if (!mcd_v3_isfinite(point)) return mcd_fail(&d->err, MCD_ERR_NONFINITE, "point is not finite");
    mcd_kinematics_pass(m, d, q);
    mcd_pose pose;
    memcpy(pose.R, d->bd[body].X_world.R, sizeof pose.R);
    mcd_pose_apply(pose.p, &d->bd[body].X_world, point);
    fill_jacobian(m, d, body, &pose, ref, J);
    return MCD_OK;
}

/* Kinetic energy 1/2 sum V^T M V and potential energy -sum m g . c_world. */
#include "dynamics_internal.h"

mcd_status mcd_energy(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                      double *kinetic, double *potential)
{
    mcd_status s = mcd_body_velocities(m, d, q, qd);
    if (s != MCD_OK) return s;
    double T = 0.0, U = 0.0;
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        const mcd_body_data *b = &d->bd[k];
        double h[6], c[3];
        mcd_rigid_inertia_mul_v(h, &b->M, b->V);
        for (int i = 0; i < 6; i++) T += 0.5 * b->V[i] * h[i];
        mcd_pose_apply(c, &b->X_world, B->mass.com);
        U -= B->mass.mass * mcd_v3_dot(m->gravity, c);
    }
    if (kinetic) *kinetic = T;
    if (potential) *potential = U;
    return MCD_OK;
}

mcd_status mcd_center_of_mass(const mcd_model *m, mcd_data *d, const double *q, double com[3])
{
    mcd_status s = mcd_forward_kinematics(m, d, q);
    if (s != MCD_OK) return s;
    if (!com) return mcd_fail(&d->err, MCD_ERR_ARG, "com is NULL");
    double acc[3] = {0, 0, 0}, mass = 0.0;
    for (int k = 0; k < m->nbody; k++) {
        double c[3];
        mcd_pose_apply(c, &d->bd[k].X_world, m->body[k].mass.com);
        mcd_v3_axpy(acc, m->body[k].mass.mass, c);
        mass += m->body[k].mass.mass;
    }
    if (mass > 0)
        mcd_v3_scale(com, acc, 1.0 / mass);
    else
        com[0] = com[1] = com[2] = 0.0;
    return MCD_OK;
}

/* Energy from the kinematics already in the data (energy_kinematics.h):
 * T = 1/2 sum V^T M V, U = -sum m g . c_world, as energy.c, without the
 * kinematics pass. */
#include "energy_kinematics.h"

#include "dynamics_internal.h"

double mcd_kinetic_energy_of_velocities(const mcd_model *m, const mcd_data *d)
{
    double T = 0.0;
    for (int k = 0; k < m->nbody; k++) {
        double h[6];
        mcd_rigid_inertia_mul_v(h, &d->bd[k].M, d->bd[k].V);
        for (int i = 0; i < 6; i++) T += 0.5 * d->bd[k].V[i] * h[i];
    }
    return T;
}

static double kinetic_energy(const mcd_model *m, mcd_data *d, const double *qd)
{
    mcd_velocity_pass(m, d, qd);
    return mcd_kinetic_energy_of_velocities(m, d);
}

static double potential_energy(const mcd_model *m, const mcd_data *d)
{
    double U = 0.0;
    for (int k = 0; k < m->nbody; k++) {
        double c[3];
        mcd_pose_apply(c, &d->bd[k].X_world, m->body[k].mass.com);
        U -= m->body[k].mass.mass * mcd_v3_dot(m->gravity, c);
    }
    return U;
}

void mcd_energy_of_kinematics(const mcd_model *m, mcd_data *d, const double *qd, double *kinetic,
                              double *potential)
{
    if (kinetic) *kinetic = kinetic_energy(m, d, qd);
    if (potential) *potential = potential_energy(m, d);
}

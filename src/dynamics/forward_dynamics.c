/* Articulated-body forward dynamics, O(N): qdd = M^{-1} (tau - C) by the
 * innovations factorization (articulated_body.c). The body bias forces are
 * b(k) = V x* (M V) - f_ext; gravity enters as the base acceleration -g.
 * f_ext is referred to the world origin, like every spatial vector here. */
#include "dynamics_internal.h"

mcd_status mcd_forward_dynamics(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                                const double *tau, const double *f_ext, double *qdd)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s == MCD_OK) s = mcd_check_vector_nv(m, d, "qd", qd);
    if (s == MCD_OK) s = mcd_check_vector_nv(m, d, "tau", tau);
    if (s == MCD_OK) s = mcd_check_fext(m, d, f_ext);
    if (s == MCD_OK && !qdd) s = mcd_fail(&d->err, MCD_ERR_ARG, "qdd is NULL");
    if (s != MCD_OK) return s;
    mcd_kinematics_pass(m, d, q);
    return mcd_forward_dynamics_after_kinematics(m, d, qd, tau, f_ext, qdd);
}

mcd_status mcd_forward_dynamics_after_kinematics(const mcd_model *m, mcd_data *d, const double *qd,
                                                 const double *tau, const double *f_ext,
                                                 double *qdd)
{
    mcd_velocity_pass(m, d, qd, 1); /* b(k) = V x* (M V) ... */
    if (f_ext)                      /* ... - f_ext */
        for (int k = 0; k < m->nbody; k++)
            for (int i = 0; i < 6; i++) d->bd[k].z[i] -= f_ext[6 * k + i];
    mcd_status s = mcd_aba_inertia_pass(m, d);
    if (s != MCD_OK) return s;
    d->factor_valid = 1;
    double a_world[6];
    mcd_gravity_acceleration(m, a_world);
    mcd_aba_bias_pass(m, d, tau, 1);
    mcd_aba_accel_pass(m, d, a_world, 1, qdd);
    return MCD_OK;
}

/* Articulated-body forward dynamics, O(N): qdd = M^{-1} (tau - C) by the
 * innovations factorization (articulated_body.c). The body bias forces are
 * b(k) = V x* (M V) - f_ext; gravity enters as the base acceleration -g.
 * f_ext is referred to the world origin, like every spatial vector here. */
#include "dynamics_internal.h"

/* After the body forces z(k) = b(k) - f_ext(k): P, D^{-1}, G and nu tip
 * to base, then qdd base to tip with the world accelerating at -g. */
static mcd_status articulated_sweeps(const mcd_model *m, mcd_data *d, const double *tau,
                                     double *qdd)
{
    mcd_status s = mcd_aba_inertia_bias_pass(m, d, tau);
    if (s != MCD_OK) return s;
    d->factor_valid = 1;
    double a_world[6];
    mcd_gravity_acceleration(m, a_world);
    mcd_aba_accel_pass(m, d, a_world, 1, qdd);
    return MCD_OK;
}

mcd_status mcd_forward_dynamics(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                                const double *tau, const double *f_ext, double *qdd)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s == MCD_OK) s = mcd_check_vector_nv(m, d, "qd", qd);
    if (s == MCD_OK) s = mcd_check_vector_nv(m, d, "tau", tau);
    if (s == MCD_OK) s = mcd_check_fext(m, d, f_ext);
    if (s == MCD_OK && !qdd) s = mcd_fail(&d->err, MCD_ERR_ARG, "qdd is NULL");
    if (s != MCD_OK) return s;
    mcd_kinematics_velocity_bias_pass(m, d, q, qd, f_ext);
    return articulated_sweeps(m, d, tau, qdd);
}

mcd_status mcd_forward_dynamics_after_kinematics(const mcd_model *m, mcd_data *d, const double *qd,
                                                 const double *tau, const double *f_ext,
                                                 double *qdd)
{
    mcd_velocity_bias_pass(m, d, qd, f_ext);
    return articulated_sweeps(m, d, tau, qdd);
}

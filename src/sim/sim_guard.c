/* The divergence guard (sim_guard.h; docs/scenarios.md, "Divergence
 * guard").
 *
 * Energies at the step's configuration q_s (q-, or the midpoint q^m), whose
 * kinematics the step has already computed: T- = T(q_s, qd), T+ = T(q_s,
 * qd+), U = U(q_s), E+ = T+ + U; T- from the body velocities of qd that the
 * contact set-up's free motion makes (src/contact/contact_setup.h), without
 * a sweep of its own. With E_ref, a bound of the
 * kinetic energy the step's applied forces and penetration correction can supply, E_ref = 1/2 M
 * (|g| dt + v_c)^2 + dt (|g| sqrt(2 M max(T-, T+)) + |tau| |qd+|) (M the model's mass, v_c the
 * penetration correction's largest separation speed, 0 without it; the middle term bounds the work
 * of gravity, since sum m_k |v_k| <= sqrt(2 M T) by Cauchy-Schwarz; the last the work of the joint
 * forces), a step is refused
 *  - when T+ > f (T- + E_ref), f = divergence_factor: the state grows by
 *    orders of magnitude within a step (a diverging integration or solve;
 *    a dissipative contact never raises T above the free motion's, and
 *    Newton restitution with friction raises it by tens of percent);
 *  - under warn-and-continue, when the solver did not converge and its best
 *    iterate gives T+ > T- + E_ref: a non-converged iterate may not add
 *    energy beyond what the applied forces supply;
 *  - when the mechanical energy drifted up since the first step after the
 *    last mcd_sim_set_state (energy E0 = T- + U, kinetic energy T0 there)
 *    by more than f times what can account for it:
 *      E+ - E0 > f (S0 + W+),  S0 = T0 + M |g| l,  l = 1 m,
 *      W+ = sum over the steps of dt max(0, tau . qd+)
 *    W+ bounds the work of the joint forces (actuators, controllers,
 *    joint damping), since the positions advance by qd+ dt; S0 is the
 *    initial motion plus the lift of the whole model by 1 m, the margin for
 *    the penetration correction, restitution gains and the integrator's
 *    energy error. A divergence slower than f per step grows exponentially
 *    and crosses this bound after a few e-foldings. */
#include "sim_guard.h"

#include <math.h>

#include "../dynamics/energy_kinematics.h"

#define GUARD_LENGTH 1.0 /* l above [m] */

static double norm(const double *v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    return sqrt(s);
}

static double dot(const double *a, const double *b, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* E_ref above. */
static double reference_energy(const mcd_sim *s, double T_max)
{
    const mcd_model *m = s->m;
    const double M = m->total_mass, g = norm(m->gravity, 3), dt = s->h;
    const double v_c =
        s->opt.contact.penetration_gain > 0 ? s->opt.contact.max_correction_velocity : 0.0;
    const double v = g * dt + v_c;
    return 0.5 * M * v * v +
           dt * (g * sqrt(2 * M * T_max) + norm(s->tau, m->nv) * norm(s->qd_new, m->nv));
}

static mcd_status check_step(mcd_sim *s, const mcd_step_stats *st, double T0, double T1)
{
    const double f = s->opt.divergence_factor, E_ref = reference_energy(s, fmax(T0, T1));
    if (!(T1 <= f * (T0 + E_ref)))
        return mcd_fail(&s->err, MCD_ERR_NONFINITE,
                        "diverging at t = %.6f (step to t = %.6f): the kinetic energy grew from "
                        "%.4g J to %.4g J in one step, more than %g x (%.4g J + %.4g J); a smaller "
                        "dt or another solver may help (docs/scenarios.md, divergence guard)",
                        s->t, s->t + s->h, T0, T1, f, T0, E_ref);
    if (st->solver_status != MCD_OK && !(T1 <= T0 + E_ref))
        return mcd_fail(&s->err, MCD_ERR_NOT_CONVERGED,
                        "t = %.6f: the solver did not converge and its best iterate would add "
                        "%.4g J of kinetic energy (%.4g J to %.4g J), more than the %.4g J the "
                        "applied forces can supply (docs/scenarios.md, divergence guard)",
                        s->t, T1 - T0, T0, T1, E_ref);
    return MCD_OK;
}

/* The drift rule above, E+ = T1 + U. */
static mcd_status check_drift(mcd_sim *s, double T0, double T1, double U)
{
    const mcd_model *m = s->m;
    if (!s->guard_started) {
        s->guard_started = 1;
        s->guard_E0 = T0 + U;
        s->guard_S0 = T0 + m->total_mass * norm(m->gravity, 3) * GUARD_LENGTH;
        s->guard_work = 0.0;
    }
    s->guard_work += s->h * fmax(0.0, dot(s->tau, s->qd_new, m->nv));
    const double f = s->opt.divergence_factor, rise = T1 + U - s->guard_E0;
    if (!(rise <= f * (s->guard_S0 + s->guard_work)))
        return mcd_fail(&s->err, MCD_ERR_NONFINITE,
                        "diverging at t = %.6f (step to t = %.6f): the mechanical energy rose "
                        "by %.4g J since the start of the run (%.4g J), more than %g x (%.4g J "
                        "initial scale + %.4g J work of the joint forces); a smaller dt or "
                        "another solver may help (docs/scenarios.md, divergence guard)",
                        s->t, s->t + s->h, rise, s->guard_E0, f, s->guard_S0, s->guard_work);
    return MCD_OK;
}

void mcd_sim_guard_start(mcd_sim *s, double T_minus)
{
    if (!(s->opt.divergence_factor > 0)) return;
    s->guard_T0 = T_minus;
    mcd_energy_of_kinematics(s->m, s->d, NULL, NULL, &s->guard_U);
}

mcd_status mcd_sim_guard_check(mcd_sim *s, const mcd_step_stats *st)
{
    if (!(s->opt.divergence_factor > 0)) return MCD_OK;
    const double T0 = s->guard_T0, U = s->guard_U;
    double T1;
    mcd_energy_of_kinematics(s->m, s->d, s->qd_new, &T1, NULL);
    mcd_status r = check_step(s, st, T0, T1);
    return r == MCD_OK ? check_drift(s, T0, T1, U) : r;
}

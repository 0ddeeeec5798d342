/* The divergence guard (sim_guard.h; docs/scenarios.md, "Divergence
 * guard").
 *
 * With the kinetic energies T- = T(q, qd) and T+ = T(q, qd+) of one step
 * (both at the step's start configuration) and E_ref, a bound of the
 * kinetic energy the step's applied forces and penetration correction can
 * supply,
 *   E_ref = 1/2 M (|g| dt + v_c)^2 + dt (|g| sqrt(2 M max(T-, T+)) + |tau| |qd+|)
 * (M the model's mass, v_c the penetration correction's largest separation
 * speed, 0 without it; the middle term bounds the work of gravity, since
 * sum m_k |v_k| <= sqrt(2 M T) by Cauchy-Schwarz; the last the work of the
 * joint forces), a step is refused
 *  - when T+ > f (T- + E_ref), f = divergence_factor: the state grows by
 *    orders of magnitude within a step (a diverging integration or solve;
 *    a dissipative contact never raises T above the free motion's, and
 *    Newton restitution with friction raises it by tens of percent);
 *  - under warn-and-continue, when the solver did not converge and its best
 *    iterate gives T+ > T- + E_ref: a non-converged iterate may not add
 *    energy beyond what the applied forces supply. */
#include "sim_guard.h"

#include <math.h>

#include "mcdyn/dynamics.h"

static double norm(const double *v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    return sqrt(s);
}

/* E_ref above. */
static double reference_energy(const mcd_sim *s, double T_max)
{
    const mcd_model *m = s->m;
    const double M = m->total_mass, g = norm(m->gravity, 3), dt = s->opt.dt;
    const double v_c =
        s->opt.contact.penetration_gain > 0 ? s->opt.contact.max_correction_velocity : 0.0;
    const double v = g * dt + v_c;
    return 0.5 * M * v * v +
           dt * (g * sqrt(2 * M * T_max) + norm(s->tau, m->nv) * norm(s->qd_new, m->nv));
}

mcd_status mcd_sim_guard_check(mcd_sim *s, const mcd_step_stats *st)
{
    const double f = s->opt.divergence_factor;
    if (!(f > 0)) return MCD_OK;
    double T0, T1;
    mcd_status r = mcd_energy(s->m, s->d, s->q, s->qd, &T0, NULL);
    if (r == MCD_OK) r = mcd_energy(s->m, s->d, s->q, s->qd_new, &T1, NULL);
    if (r != MCD_OK) return mcd_fail(&s->err, r, "t = %.6f: %s", s->t, mcd_data_error(s->d));
    const double E_ref = reference_energy(s, fmax(T0, T1));
    if (!(T1 <= f * (T0 + E_ref)))
        return mcd_fail(&s->err, MCD_ERR_NONFINITE,
                        "diverging at t = %.6f (step to t = %.6f): the kinetic energy grew from "
                        "%.4g J to %.4g J in one step, more than %g x (%.4g J + %.4g J); a smaller "
                        "dt or another solver may help (docs/scenarios.md, divergence guard)",
                        s->t, s->t + s->opt.dt, T0, T1, f, T0, E_ref);
    if (st->solver_status != MCD_OK && !(T1 <= T0 + E_ref))
        return mcd_fail(&s->err, MCD_ERR_NOT_CONVERGED,
                        "t = %.6f: the solver did not converge and its best iterate would add "
                        "%.4g J of kinetic energy (%.4g J to %.4g J), more than the %.4g J the "
                        "applied forces can supply (docs/scenarios.md, divergence guard)",
                        s->t, T1 - T0, T0, T1, E_ref);
    return MCD_OK;
}

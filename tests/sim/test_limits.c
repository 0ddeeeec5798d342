/* Joint limits as rows of the step's complementarity problem (sim.h,
 * "joint limits"; contact.h, mcd_contact_joint_limits), for every step
 * method and every impact law:
 *  - a pendulum thrown at its upper limit without gravity (so that its
 *    kinetic energy, 1/2 I qd^2 with I constant, is exactly constant in
 *    free flight, also in the semi-implicit step) stops there: its angle
 *    stays within 1e-3 rad of the limits and its energy never rises from
 *    one step to the next (inelastic rows);
 *  - with the limits off it swings through them (the test can fail);
 *  - a two-link arm resting on the lower limits of both joints under
 *    gravity (tests/scenario/data/limit_arm.urdf): at rest the step reads
 *    0 = h (tau - C) + G^T F with G = I (both rows +e_k), so each limit
 *    impulse is F_k = h C_k, C = g(q) the gravity torque from Newton-Euler
 *    (inverse dynamics at zero velocity and acceleration), independent of
 *    the step's factorization. Tolerance: 1e-6 relative, well above the
 *    solvers' tolerances (default tol 1e-8 or tighter on residuals of
 *    order |F|) and rounding. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "mcdyn/mcdyn.h"
#include "scenario/scenario_fixture.h"

static mcd_sim *make_sim(const mcd_scenario *sc, mcd_step_method method, mcd_impact_law law)
{
    mcd_sim_options o = mcd_sim_default_options();
    o.solver = method;
    o.solver_opts = mcd_step_method_default_opts(method);
    o.impact_law = law;
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(sc->model, &o, &s, &err) == MCD_OK, "%s", err.msg);
    ck_assert_int_eq(mcd_sim_set_state(s, sc->q0, sc->qd0, 0), MCD_OK);
    return s;
}

/* limit_pendulum.urdf (limits [-0.5, 0.5]) thrown at 5 rad/s from 0
 * towards its upper limit, no gravity. Runs 0.5 s (the limit is reached
 * after 0.1 s). Returns the largest excursion beyond a limit [rad]. */
static double thrown(mcd_step_method method, mcd_impact_law law, int limits_on)
{
    mcd_scenario *sc = load_string_ok("gravity: [0, 0, 0]\nrobots:\n  - urdf: limit_pendulum.urdf\n"
                                      "    qd: {hinge: 5}\n");
    mcd_sim *s = make_sim(sc, method, law);
    mcd_sim_set_joint_limits(s, limits_on);
    const char *name = mcd_step_method_name(method);
    const mcd_model *m = sc->model;
    double worst = 0, E0, E1;
    mcd_data *d = mcd_sim_data(s);
    ck_assert_int_eq(mcd_energy(m, d, mcd_sim_q(s), mcd_sim_qd(s), &E0, NULL), MCD_OK);
    for (int n = 0; n < 500; n++) {
        ck_assert_msg(mcd_sim_step(s, NULL) == MCD_OK, "%s/%s: %s", name, mcd_impact_law_name(law),
                      mcd_sim_error(s));
        for (int k = 0; k < m->nbody; k++) {
            const double q = mcd_sim_q(s)[m->body[k].qadr];
            worst = fmax(worst, fmax(m->body[k].limits.lower - q, q - m->body[k].limits.upper));
        }
        ck_assert_int_eq(mcd_energy(m, d, mcd_sim_q(s), mcd_sim_qd(s), &E1, NULL), MCD_OK);
        /* no gravity: E = T; rounding of T ~ 1e-15 relative, the solver's
         * inexact impulse at most tol-sized: 1e-9 of the initial energy */
        ck_assert_msg(!limits_on || E1 <= E0 + 1e-9 * (1 + E0),
                      "%s/%s: energy rose from %.12g to %.12g J at step %d", name,
                      mcd_impact_law_name(law), E0, E1, n);
        E0 = E1;
    }
    mcd_sim_free(s);
    mcd_scenario_free(sc);
    return worst;
}

/* Every step method (the frictionless rows of the limits reach the CCP's
 * cone projection with mu = 0 and a zero tangential part: the case that
 * once kept a negative normal impulse). */
static const mcd_step_method thrown_methods[] = {
    MCD_METHOD_MLCP_PFB_RLM, MCD_METHOD_MLCP_PFB_PLM, MCD_METHOD_MLCP_LEMKE,  MCD_METHOD_MNCP_RLM,
    MCD_METHOD_MNCP_PLM,     MCD_METHOD_MNCP_NSN,     MCD_METHOD_CCP_PGS,     MCD_METHOD_CCP_APGD,
    MCD_METHOD_NSLCP_LEMKE,  MCD_METHOD_NSLCP_JUDICE, MCD_METHOD_MAXDISS_BGS, MCD_METHOD_CCP_ADMM,
};

START_TEST(thrown_pendulum_stops_at_its_limit)
{
    const mcd_step_method method = thrown_methods[_i];
    const double worst = thrown(method, MCD_IMPACT_NEWTON, 1);
    ck_assert_msg(worst < 1e-3, "%s: %g rad beyond a limit", mcd_step_method_name(method), worst);
}
END_TEST

START_TEST(every_impact_law_stops_it)
{
    const mcd_impact_law law = (mcd_impact_law)_i;
    const double worst = thrown(MCD_METHOD_MNCP_PLM, law, 1);
    ck_assert_msg(worst < 1e-3, "%s: %g rad beyond a limit", mcd_impact_law_name(law), worst);
}
END_TEST

START_TEST(without_limits_it_swings_through)
{
    ck_assert(thrown(MCD_METHOD_MNCP_PLM, MCD_IMPACT_NEWTON, 0) > 0.5);
}
END_TEST

START_TEST(arm_rests_on_its_limits)
{
    const mcd_step_method method = (mcd_step_method)_i;
    const char *name = mcd_step_method_name(method);
    mcd_scenario *sc =
        load_string_ok("robots:\n  - urdf: limit_arm.urdf\n    q: {j1: 1, j2: 0.5}\n");
    mcd_sim *s = make_sim(sc, method, MCD_IMPACT_NEWTON);
    const mcd_model *m = sc->model;
    const double h = 1e-3, zero[2] = {0, 0};
    for (int n = 0; n < 100; n++)
        ck_assert_msg(mcd_sim_step(s, NULL) == MCD_OK, "%s: %s", name, mcd_sim_error(s));
    double C[2];
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    ck_assert_int_eq(mcd_inverse_dynamics(m, d, mcd_sim_q(s), zero, zero, NULL, C), MCD_OK);
    ck_assert_int_eq(mcd_sim_ncontacts(s), 2);
    for (int c = 0; c < 2; c++) {
        const int k = mcd_sim_contact(s, c)->body_a, v = m->body[k].vadr;
        const double F = mcd_contact_impulse(mcd_sim_contact_ws(s), c)[2];
        ck_assert_msg(C[v] > 0, "gravity does not push joint %d onto its lower limit", v);
        ck_assert_msg(fabs(F - h * C[v]) <= 1e-6 * h * C[v],
                      "%s: joint %d: impulse %.12g, h C %.12g", name, v, F, h * C[v]);
        ck_assert_msg(fabs(mcd_sim_q(s)[m->body[k].qadr] - m->body[k].limits.lower) < 1e-6,
                      "%s: joint %d left its limit", name, v);
    }
    mcd_data_free(d);
    mcd_sim_free(s);
    mcd_scenario_free(sc);
}
END_TEST

static Suite *limits_suite(void)
{
    Suite *s = suite_create("sim-limits");
    TCase *tc = tcase_create("limits");
    tcase_set_timeout(tc, 200);
    tcase_add_loop_test(tc, thrown_pendulum_stops_at_its_limit, 0,
                        (int)(sizeof thrown_methods / sizeof thrown_methods[0]));
    tcase_add_loop_test(tc, every_impact_law_stops_it, 0, MCD_IMPACT_LAW_COUNT);
    tcase_add_test(tc, without_limits_it_swings_through);
    tcase_add_loop_test(tc, arm_rests_on_its_limits, 0, MCD_METHOD_COUNT);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(limits_suite());
}

/* Joint limits (sim.h "joint limits"; contact.h mcd_contact_joint_limits)
 * for a joint that crosses more than the detection margin in one step:
 * the bound it approaches must enter the step's problem before the step
 * that would cross it (speculatively, nu_n+ >= -gap / dt), so that the
 * joint stops at the bound instead of passing it and being pushed back.
 *
 * limit_pendulum.urdf (limits [-0.5, 0.5] rad) without gravity, thrown
 * from 0 at 30 rad/s towards its upper and then its lower bound: 0.03 rad
 * per step of 1 ms, three times the 0.01 rad margin of src/sim/sim_limits.c.
 * A bound in the problem is never crossed: its row is e_k (nu_n = +-qd)
 * and the semi-implicit step advances q by dt qd+, so q+ stays on the
 * allowed side up to the solver's tolerance (1e-10 on velocities of
 * 30 rad/s: 3e-12 rad per step). The row closes within the step, so
 * Newton's law (the limits are inelastic, e = 0) stops the joint at the
 * start of that step: it ends at rest short of the bound by less than one
 * step's travel. 1e-6 rad beyond the bound is far above the solver's error
 * and far below the 0.01 rad a row entering too late lets it cross.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "common/check_main.h"
#include "mcdyn/mcdyn.h"
#include "scenario/scenario_fixture.h"

#define SPEED 30.0 /* rad/s */

/* The largest excursion beyond a bound over 100 steps thrown at qd0. */
static double thrown_fast(double qd0)
{
    char yaml[256];
    snprintf(yaml, sizeof yaml,
             "gravity: [0, 0, 0]\nrobots:\n  - urdf: limit_pendulum.urdf\n    qd: {hinge: %g}\n",
             qd0);
    mcd_scenario *sc = load_string_ok(yaml);
    mcd_sim_options o = mcd_sim_default_options();
    ck_assert(o.dt == 1e-3);
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(sc->model, &o, &s, &err) == MCD_OK, "%s", err.msg);
    ck_assert_int_eq(mcd_sim_set_state(s, sc->q0, sc->qd0, 0), MCD_OK);
    mcd_sim_set_joint_limits(s, 1);
    const mcd_body *B = &sc->model->body[0];
    double worst = 0.0;
    for (int n = 0; n < 100; n++) {
        ck_assert_msg(mcd_sim_step(s, NULL) == MCD_OK, "%s", mcd_sim_error(s));
        const double q = mcd_sim_q(s)[B->qadr];
        worst = fmax(worst, fmax(B->limits.lower - q, q - B->limits.upper));
    }
    /* at rest, short of its bound by less than one step's travel */
    const double q = mcd_sim_q(s)[B->qadr],
                 gap = qd0 > 0 ? B->limits.upper - q : q - B->limits.lower;
    ck_assert_msg(gap > -1e-6 && gap < SPEED * o.dt, "gap %g at the end", gap);
    ck_assert_msg(fabs(mcd_sim_qd(s)[B->vadr]) < 1e-6, "qd = %g", mcd_sim_qd(s)[B->vadr]);
    mcd_sim_free(s);
    mcd_scenario_free(sc);
    return worst;
}

START_TEST(fast_joint_stops_at_its_upper_bound)
{
    const double worst = thrown_fast(SPEED);
    ck_assert_msg(worst < 1e-6, "%g rad beyond the upper bound", worst);
}
END_TEST

START_TEST(fast_joint_stops_at_its_lower_bound)
{
    const double worst = thrown_fast(-SPEED);
    ck_assert_msg(worst < 1e-6, "%g rad beyond the lower bound", worst);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("limits_fast");
    TCase *tc = tcase_create("fast");
    tcase_add_test(tc, fast_joint_stops_at_its_upper_bound);
    tcase_add_test(tc, fast_joint_stops_at_its_lower_bound);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

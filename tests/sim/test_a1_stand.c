/* models/a1_stand.yaml: the A1 dropped on the ground stands up and holds a
 * standing pose through the scenario's position actuators only (effort
 * limits from the URDF). Over its 3 s: every step converges; over the last
 * second the trunk height stays within 1 cm (the task's criterion) at a
 * standing height (the trunk's origin between 0.2 m and 0.32 m: the pose's
 * legs put it about 0.26 m up, a trunk lying on the ground is below 0.1 m)
 * with the trunk upright (its z axis within 10 degrees of the vertical);
 * no actuator torque exceeds the URDF's 33.5 N m. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "mcdyn/mcdyn.h"
#include "mcdyn/runner.h"

START_TEST(a1_stands)
{
    char path[1024];
    const char *src = getenv("MCDYN_SOURCE");
    snprintf(path, sizeof path, "%s/models/a1_stand.yaml", src ? src : ".");
    mcd_scenario *sc = NULL;
    mcd_runner *r = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load(path, &sc, &err) == MCD_OK, "%s", err.msg);
    ck_assert_int_eq(sc->nactuator, 12);
    ck_assert_msg(mcd_runner_create(sc, NULL, &r, &err) == MCD_OK, "%s", err.msg);
    mcd_sim *s = mcd_runner_sim(r);
    const double duration = mcd_runner_duration(r);
    const mcd_pose *base = &sc->robot[0].base_pose;
    ck_assert(base->R[0] == 1 && base->R[4] == 1 && base->R[8] == 1);
    double z_min = INFINITY, z_max = -INFINITY, tau_max = 0;
    for (long n = 0; n < mcd_runner_steps(r); n++) {
        ck_assert_msg(mcd_runner_step(r, NULL) == MCD_OK, "%s", mcd_sim_error(s));
        /* free joint: x y z qw qx qy qz in the base frame, here a translation */
        const double *q = mcd_sim_q(s), z = base->p[2] + q[2];
        for (int i = 0; i < sc->model->nv; i++)
            tau_max = fmax(tau_max, fabs(mcd_sim_actuator_torque(s)[i]));
        if (mcd_sim_time(s) < duration - 1.0 - 1e-9) continue;
        z_min = fmin(z_min, z), z_max = fmax(z_max, z);
        /* z component of the trunk's z axis: 1 - 2 (qx^2 + qy^2) */
        const double up = 1 - 2 * (q[4] * q[4] + q[5] * q[5]);
        ck_assert_msg(up > cos(10 * M_PI / 180), "trunk tilted at t = %.3f", mcd_sim_time(s));
    }
    ck_assert_int_eq(mcd_sim_solver_failures(s), 0);
    ck_assert_msg(z_max - z_min < 0.01, "trunk height varies by %g m over the last second",
                  z_max - z_min);
    ck_assert_msg(z_min > 0.2 && z_max < 0.32, "trunk height in [%g, %g] m: not standing", z_min,
                  z_max);
    ck_assert_msg(tau_max <= 33.5, "actuator torque %g N m above the URDF's limit", tau_max);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim-a1-stand");
    TCase *tc = tcase_create("a1");
    tcase_set_timeout(tc, 280);
    tcase_add_test(tc, a1_stands);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

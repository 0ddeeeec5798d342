/* No allocation in a step with actuators (torque, position with a target
 * file, velocity) and implicit damping: the two-link arm of
 * tests/scenario/data/act_arm.urdf stepped 200 times, allocations counted
 * (alloc_counter.h) after a warm-up. Not built with AddressSanitizer,
 * which owns malloc. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "common/alloc_counter.h"
#include "mcdyn/mcdyn.h"
#include "mcdyn/runner.h"
#include "scenario/scenario_fixture.h"

START_TEST(actuated_steps_do_not_allocate)
{
    mcd_scenario *sc = load_string_ok(
        "robots:\n  - urdf: act_arm.urdf\n    actuators:\n"
        "      - {joints: all, type: position, kp: 3, kd: 0.5,\n"
        "         target: {file: act_target.csv}, effort_limit: 1}\n"
        "      - {joints: [j2], type: velocity, kd: 2, target: 1, feedforward: 0.1}\n"
        "dt: 0.02\nduration: 4\n");
    mcd_runner *r = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_runner_create(sc, NULL, &r, &err) == MCD_OK, "%s", err.msg);
    long total = 0;
    for (long n = 0; n < mcd_runner_steps(r); n++) {
        alloc_counter_start();
        const mcd_status st = mcd_runner_step(r, NULL);
        const long allocations = alloc_counter_stop();
        ck_assert_msg(st == MCD_OK, "%s", mcd_sim_error(mcd_runner_sim(r)));
        total += n >= 5 ? allocations : 0;
    }
    ck_assert_msg(total == 0, "%ld allocations in actuated steps", total);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim-actuator-alloc");
    TCase *tc = tcase_create("alloc");
    tcase_add_test(tc, actuated_steps_do_not_allocate);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

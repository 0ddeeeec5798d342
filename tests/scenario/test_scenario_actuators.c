/* The robots' actuators key (docs/scenarios.md, "Actuators"): what a
 * scenario's entries become (one mcd_actuator per driven dof, later
 * entries replacing earlier ones, targets from numbers, maps, the initial
 * state and CSV files), and the inputs that must not load, each with the
 * file, line, column and key path in its message; the contact.joint_limits
 * key and a URDF whose limits have lower > upper. Model: data/act_arm.urdf
 * (j1 revolute with effort 10 N m, j2 continuous without a limit). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "scenario_fixture.h"

#define ARM "robots:\n  - urdf: act_arm.urdf\n"

/* The actuator of the scenario driving the joint named name. */
static const mcd_actuator *actuator_of(const mcd_scenario *s, const char *name)
{
    const int k = mcd_model_joint_index(s->model, name);
    ck_assert_int_ge(k, 0);
    for (int i = 0; i < s->nactuator; i++)
        if (s->actuator[i].dof == s->model->body[k].vadr) return &s->actuator[i];
    ck_abort_msg("no actuator on %s", name);
    return NULL;
}

START_TEST(entries_override_in_order)
{
    mcd_scenario *s = load_string_ok(
        ARM "    q: {j1: 0.3}\n"
            "    actuators:\n"
            "      - {joints: all, type: position, kp: 80, kd: 2, target: initial,\n"
            "         effort_limit: 5}\n"
            "      - {joints: [j1], type: position, kp: 50, target: {j1: -0.5}, feedforward: 1.5,\n"
            "         effort_limit: urdf}\n");
    ck_assert_int_eq(s->nactuator, 2);
    const mcd_actuator *a1 = actuator_of(s, "j1"), *a2 = actuator_of(s, "j2");
    ck_assert_int_eq(a1->type, MCD_ACTUATOR_POSITION);
    ck_assert(a1->kp == 50 && a1->kd == 0); /* the second entry replaced the first on j1 */
    ck_assert(a1->target.n == 0 && a1->target.value == -0.5);
    ck_assert(a1->feedforward.n == 0 && a1->feedforward.value == 1.5);
    ck_assert(a1->effort_limit == 10); /* the URDF's <limit effort> */
    ck_assert(a2->kp == 80 && a2->kd == 2 && a2->effort_limit == 5);
    ck_assert(a2->target.value == 0); /* j2's initial q */
    mcd_scenario_free(s);
}
END_TEST

START_TEST(types_and_defaults)
{
    mcd_scenario *s =
        load_string_ok(ARM "    qd: {j2: 0.7}\n"
                           "    actuators:\n"
                           "      - {joints: [j1], type: torque, feedforward: {j1: -2}}\n"
                           "      - {joints: [j2], type: velocity, kd: 3, target: initial}\n");
    const mcd_actuator *a1 = actuator_of(s, "j1"), *a2 = actuator_of(s, "j2");
    ck_assert_int_eq(a1->type, MCD_ACTUATOR_TORQUE);
    ck_assert(a1->feedforward.value == -2 && a1->kp == 0 && a1->kd == 0);
    ck_assert(isinf(a1->effort_limit)); /* effort_limit absent: none */
    ck_assert_int_eq(a2->type, MCD_ACTUATOR_VELOCITY);
    ck_assert(a2->kd == 3 && a2->target.value == 0.7); /* velocity target: the initial qd */
    mcd_scenario_free(s);
}
END_TEST

START_TEST(target_file)
{
    mcd_scenario *s = load_string_ok(
        ARM "    actuators:\n"
            "      - {joints: all, type: position, kp: 1, target: {file: act_target.csv}}\n");
    const mcd_actuator *a1 = actuator_of(s, "j1"), *a2 = actuator_of(s, "j2");
    /* act_target.csv: t = 0, 1, 3; j1 = 0, 2, 2; j2 = 1, 1, -1 (comment and
     * blank line skipped) */
    ck_assert_int_eq(a1->target.n, 3);
    ck_assert_int_eq(a2->target.n, 3);
    const double t[3] = {0, 1, 3}, v1[3] = {0, 2, 2}, v2[3] = {1, 1, -1};
    for (int i = 0; i < 3; i++) {
        ck_assert(a1->target.t[i] == t[i] && a2->target.t[i] == t[i]);
        ck_assert(a1->target.v[i] == v1[i] && a2->target.v[i] == v2[i]);
    }
    mcd_scenario_free(s);
}
END_TEST

START_TEST(bad_joints)
{
    expect_error(ARM "    actuators:\n      - {joints: [j1, nope], type: torque}\n", MCD_ERR_MODEL,
                 "bad.yaml:4:23: key 'robots[0].actuators[0].joints[1]': ",
                 "no moving joint of this robot is named 'nope'", NULL);
    expect_error(ARM "    actuators:\n      - {joints: [j1, j1], type: torque}\n", MCD_ERR_ARG,
                 "key 'robots[0].actuators[0].joints[1]'", "joint 'j1' twice", NULL);
    expect_error(ARM "    actuators:\n      - {type: torque}\n", MCD_ERR_PARSE,
                 "key 'robots[0].actuators[0].joints'", "missing", NULL);
    expect_error(ARM "    actuators:\n      - {joints: all, type: servo}\n", MCD_ERR_PARSE,
                 "key 'robots[0].actuators[0].type'", "servo", NULL);
    expect_error(ARM "    actuators:\n      - {joints: all, type: torque, gain: 1}\n",
                 MCD_ERR_PARSE, "key 'robots[0].actuators[0]", "gain", NULL);
}
END_TEST

START_TEST(bad_gains)
{
    expect_error(ARM "    actuators:\n      - {joints: all, type: position, kp: -1, target: 0}\n",
                 MCD_ERR_ARG, "bad.yaml:4:43: key 'robots[0].actuators[0].kp'", NULL);
    expect_error(ARM "    actuators:\n"
                     "      - {joints: all, type: position, kp: 1, kd: -2, target: 0}\n",
                 MCD_ERR_ARG, "key 'robots[0].actuators[0].kd'", NULL);
    expect_error(ARM "    actuators:\n      - {joints: all, type: position, target: 0}\n",
                 MCD_ERR_PARSE, "key 'robots[0].actuators[0]'", "needs kp", NULL);
    expect_error(ARM "    actuators:\n      - {joints: all, type: torque, kd: 1}\n", MCD_ERR_PARSE,
                 "key 'robots[0].actuators[0].kd'", "torque actuator has no kd", NULL);
    expect_error(ARM "    actuators:\n      - {joints: all, type: velocity, kd: 1}\n",
                 MCD_ERR_PARSE, "key 'robots[0].actuators[0]'", "needs a target", NULL);
}
END_TEST

START_TEST(bad_effort_limits)
{
    expect_error(ARM "    actuators:\n"
                     "      - {joints: all, type: torque, effort_limit: urdf}\n",
                 MCD_ERR_MODEL, "bad.yaml:4:51: key 'robots[0].actuators[0].effort_limit'",
                 "joint 'j2' has no effort limit in its URDF", NULL);
    expect_error(ARM "    actuators:\n      - {joints: all, type: torque, effort_limit: 0}\n",
                 MCD_ERR_ARG, "key 'robots[0].actuators[0].effort_limit'", NULL);
}
END_TEST

START_TEST(bad_targets)
{
    expect_error(ARM "    actuators:\n"
                     "      - {joints: all, type: position, kp: 1, target: {j1: 0}}\n",
                 MCD_ERR_PARSE, "key 'robots[0].actuators[0].target'", "no value for joint 'j2'",
                 NULL);
    expect_error(ARM "    actuators:\n"
                     "      - {joints: [j1], type: position, kp: 1, target: {j1: 0, j2: 1}}\n",
                 MCD_ERR_MODEL, "key 'robots[0].actuators[0].target.j2'",
                 "'j2' is not among this entry's joints", NULL);
    expect_error(
        ARM
        "    actuators:\n"
        "      - {joints: all, type: position, kp: 1, target: {file: act_missing_column.csv}}\n",
        MCD_ERR_PARSE, "bad.yaml:4:61: key 'robots[0].actuators[0].target.file'",
        "file 'act_missing_column.csv' has no column 'j2'", NULL);
    expect_error(
        ARM "    actuators:\n"
            "      - {joints: all, type: position, kp: 1, target: {file: act_non_monotonic.csv}}\n",
        MCD_ERR_PARSE, "key 'robots[0].actuators[0].target.file'",
        "act_non_monotonic.csv', line 4: t = 0.5 is not after the previous row's t = 0.5", NULL);
    expect_error(ARM "    actuators:\n"
                     "      - {joints: all, type: position, kp: 1, target: {file: nowhere.csv}}\n",
                 MCD_ERR_IO, "key 'robots[0].actuators[0].target.file'", "cannot open", NULL);
    expect_error(ARM "    actuators:\n      - {joints: all, type: torque, feedforward: initial}\n",
                 MCD_ERR_PARSE, "key 'robots[0].actuators[0].feedforward'", "a number", NULL);
}
END_TEST

START_TEST(joint_limits_key)
{
    mcd_scenario *s = load_string_ok(ARM);
    ck_assert_int_eq(s->settings.contact.joint_limits, 1); /* on by default */
    mcd_scenario_free(s);
    s = load_string_ok(ARM "contact: {joint_limits: false}\n");
    ck_assert_int_eq(s->settings.contact.joint_limits, 0);
    mcd_scenario_free(s);
    expect_error(ARM "contact: {joint_limits: 1}\n", MCD_ERR_PARSE, "key 'contact.joint_limits'",
                 NULL);
}
END_TEST

START_TEST(bad_joint_limits)
{
    expect_error("robots:\n  - urdf: act_bad_limits.urdf\n", MCD_ERR_MODEL,
                 "bad.yaml:2:11: key 'robots[0].urdf'", "lower limit 1 above upper limit -1", NULL);
}
END_TEST

static Suite *actuators_suite(void)
{
    Suite *s = suite_create("scenario-actuators");
    TCase *good = tcase_create("loaded");
    tcase_add_test(good, entries_override_in_order);
    tcase_add_test(good, types_and_defaults);
    tcase_add_test(good, target_file);
    tcase_add_test(good, joint_limits_key);
    suite_add_tcase(s, good);
    TCase *bad = tcase_create("errors");
    tcase_add_test(bad, bad_joints);
    tcase_add_test(bad, bad_gains);
    tcase_add_test(bad, bad_effort_limits);
    tcase_add_test(bad, bad_targets);
    tcase_add_test(bad, bad_joint_limits);
    suite_add_tcase(s, bad);
    return s;
}

int main(void)
{
    return run_suite(actuators_suite());
}

/* Actuators and implicit damping in the step (sim.h, "actuators and
 * implicit damping"), checked against references independent of the
 * articulated-body factorization the step uses:
 *  - one step of the two-link arm of tests/scenario/data/act_arm.urdf
 *    satisfies the implicit-damping equation (M + h D)(qd+ - qd) = h (tau -
 *    C), with M a + C from Newton-Euler (inverse dynamics, no
 *    factorization), tau the actuators' torques in closed form; with
 *    explicit damping M (qd+ - qd) = h (tau - C); a saturated actuator's kd
 *    stays out of D;
 *  - targets interpolated from a CSV file give the torques of the formula
 *    at every step (linear interpolation and its slope, the end values held);
 *  - a stiff servo (kp = 1e4, kd = 100) on the A1's twelve joints (fixed
 *    base) at dt = 1 ms settles on its targets with implicit damping and
 *    diverges with explicit damping. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "mcdyn/mcdyn.h"
#include "scenario/scenario_fixture.h"
#include "mcdyn/runner.h"

static mcd_runner *runner(const mcd_scenario *sc)
{
    mcd_runner *r = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_runner_create(sc, NULL, &r, &err) == MCD_OK, "%s", err.msg);
    return r;
}

/* The arm at q = (-0.2, 0.5), qd = (0.3, -1): j1 a position servo (kp 30,
 * kd 5, target 0.4, feedforward 0.2; effort limit j1_limit), j2 a velocity
 * servo (kd 2, target 1). j1's joint damping is 0.5 N m s/rad. */
static mcd_scenario *arm(const char *j1_limit)
{
    char yaml[1024];
    snprintf(yaml, sizeof yaml,
             "robots:\n  - urdf: act_arm.urdf\n    q: {j1: -0.2, j2: 0.5}\n"
             "    qd: {j1: 0.3, j2: -1}\n    actuators:\n"
             "      - {joints: [j1], type: position, kp: 30, kd: 5, target: 0.4,\n"
             "         feedforward: 0.2, effort_limit: %s}\n"
             "      - {joints: [j2], type: velocity, kd: 2, target: 1}\n"
             "dt: 0.01\n",
             j1_limit);
    return load_string_ok(yaml);
}

/* One step of the arm; checks (M + h D) a + C = tau (a = (qd+ - qd)/h) with
 * D = diag(d1, d2) and the actuators' torques tau1 (j1), tau2 (j2). */
static void check_one_step(const char *j1_limit, int implicit, double tau1, double d1, double d2)
{
    mcd_scenario *sc = arm(j1_limit);
    mcd_runner *r = runner(sc);
    mcd_sim *s = mcd_runner_sim(r);
    mcd_sim_set_implicit_damping(s, implicit);
    const mcd_model *m = sc->model;
    const double h = 0.01, *q = sc->q0, *qd = sc->qd0;
    ck_assert_int_eq(m->nv, 2);
    ck_assert_int_eq(mcd_runner_step(r, NULL), MCD_OK);
    /* closed form: j2's velocity servo kd (1 - qd2); j1's joint damping -0.5 qd1 */
    const double tau2 = 2 * (1 - qd[1]);
    const double *act = mcd_sim_actuator_torque(s);
    ck_assert_msg(fabs(act[0] - tau1) < 1e-12 && fabs(act[1] - tau2) < 1e-12,
                  "actuator torques %g %g, expected %g %g", act[0], act[1], tau1, tau2);
    const double tau[2] = {tau1 - 0.5 * qd[0], tau2};
    double a[2], id[2];
    for (int i = 0; i < 2; i++) a[i] = (mcd_sim_qd(s)[i] - qd[i]) / h;
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    ck_assert_int_eq(mcd_inverse_dynamics(m, d, q, qd, a, NULL, id), MCD_OK);
    const double D[2] = {d1, d2};
    for (int i = 0; i < 2; i++) {
        /* id = M a + C; the residual is rounding of O(|tau|) terms: 1e-9 */
        const double residual = id[i] + (implicit ? h * D[i] * a[i] : 0.0) - tau[i];
        ck_assert_msg(fabs(residual) < 1e-9 * (1 + fabs(tau[i])),
                      "%s damping, limit %s: row %d residual %g (tau %g)",
                      implicit ? "implicit" : "explicit", j1_limit, i, residual, tau[i]);
    }
    mcd_data_free(d);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}

START_TEST(step_solves_the_damped_equation)
{
    /* j1 unsaturated: 30 (0.4 + 0.2) + 5 (0 - 0.3) + 0.2 = 16.7 */
    check_one_step("none", 1, 16.7, 5 + 0.5, 2);
    check_one_step("none", 0, 16.7, 0, 0);
    /* saturated at the URDF's 10 N m: a constant torque, only b in D */
    check_one_step("urdf", 1, 10, 0.5, 2);
}
END_TEST

/* r(t) of act_target.csv's column (t = 0, 1, 3) and its slope. */
static double csv_target(const double *v, double t, double *slope)
{
    const double T[3] = {0, 1, 3};
    *slope = 0;
    if (t <= 0) return v[0];
    if (t >= 3) return v[2];
    const int i = t < 1 ? 0 : 1;
    *slope = (v[i + 1] - v[i]) / (T[i + 1] - T[i]);
    return v[i] + *slope * (t - T[i]);
}

START_TEST(file_targets_interpolate)
{
    mcd_scenario *sc = load_string_ok("robots:\n  - urdf: act_arm.urdf\n    actuators:\n"
                                      "      - {joints: all, type: position, kp: 3, kd: 0.5,\n"
                                      "         target: {file: act_target.csv}}\n"
                                      "dt: 0.05\nduration: 3.5\n");
    mcd_runner *r = runner(sc);
    mcd_sim *s = mcd_runner_sim(r);
    const double v[2][3] = {{0, 2, 2}, {1, 1, -1}}; /* act_target.csv's j1, j2 */
    for (long n = 0; n < mcd_runner_steps(r); n++) {
        double q[2], qd[2], t = mcd_sim_time(s);
        memcpy(q, mcd_sim_q(s), sizeof q), memcpy(qd, mcd_sim_qd(s), sizeof qd);
        ck_assert_int_eq(mcd_runner_step(r, NULL), MCD_OK);
        for (int j = 0; j < 2; j++) {
            double slope, target = csv_target(v[j], t, &slope);
            const double expected = 3 * (target - q[j]) + 0.5 * (slope - qd[j]);
            ck_assert_msg(fabs(mcd_sim_actuator_torque(s)[j] - expected) <
                              1e-12 * (1 + fabs(expected)),
                          "t = %g joint %d: torque %.17g, expected %.17g", t, j,
                          mcd_sim_actuator_torque(s)[j], expected);
        }
    }
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}
END_TEST

/* The A1 on a fixed base, stiff servos (kp = 1e4, kd = 100, no effort
 * limit) to a pose 0.1 rad off its initial one at the calves, joint limits
 * off (a diverging joint would otherwise be caught by them); runs 0.5 s
 * or until a step fails. Returns the step status; *err_q the largest |q -
 * target| at the end, msg the simulator's message. */
static mcd_status stiff_a1(int implicit, double *err_q, char *msg, size_t len)
{
    char yaml[2048];
    const char *shared = getenv("MCDYN_SHARED");
    snprintf(yaml, sizeof yaml,
             "robots:\n  - urdf: %s/models/example-robot-data/a1.urdf\n    base: fixed\n"
             "    position: [0, 0, 1]\n"
             "    q: {FR_thigh_joint: 0.8, FL_thigh_joint: 0.8, RR_thigh_joint: 0.8,\n"
             "        RL_thigh_joint: 0.8, FR_calf_joint: -1.5, FL_calf_joint: -1.5,\n"
             "        RR_calf_joint: -1.5, RL_calf_joint: -1.5}\n"
             "    actuators:\n"
             "      - {joints: all, type: position, kp: 1.0e4, kd: 100, target: initial}\n"
             "      - {joints: [FR_calf_joint, FL_calf_joint, RR_calf_joint, RL_calf_joint],\n"
             "         type: position, kp: 1.0e4, kd: 100, target: -1.6}\n"
             "dt: 0.001\nduration: 0.5\ncontact: {joint_limits: false}\n",
             shared ? shared : "../shared");
    mcd_scenario *sc = load_string_ok(yaml);
    ck_assert_int_eq(sc->nactuator, 12);
    mcd_runner *r = runner(sc);
    mcd_sim *s = mcd_runner_sim(r);
    mcd_sim_set_implicit_damping(s, implicit);
    mcd_status st = MCD_OK;
    for (long n = 0; st == MCD_OK && n < mcd_runner_steps(r); n++) st = mcd_runner_step(r, NULL);
    snprintf(msg, len, "%s", mcd_sim_error(s));
    *err_q = 0;
    for (int i = 0; i < sc->nactuator; i++) { /* fixed base: q and qd share indices */
        const mcd_actuator *a = &sc->actuator[i];
        *err_q = fmax(*err_q, fabs(mcd_sim_q(s)[a->dof] - a->target.value));
    }
    mcd_runner_free(r);
    mcd_scenario_free(sc);
    return st;
}

START_TEST(stiff_servo_needs_implicit_damping)
{
    char msg[MCD_ERROR_LEN];
    double err_q;
    /* Implicit: settles. The static error is gravity's torque over kp, a
     * few N m / 1e4 < 1e-3 rad; 0.5 s is many time constants kd / kp. */
    mcd_status st = stiff_a1(1, &err_q, msg, sizeof msg);
    ck_assert_msg(st == MCD_OK, "implicit damping: %s", msg);
    ck_assert_msg(err_q < 1e-3, "implicit damping: |q - target| = %g", err_q);
    /* Explicit: h kd / I of a calf (I ~ 2e-3 kg m^2) is ~50 > 2, the step
     * amplifies the velocity error: the run stops (divergence guard or a
     * non-finite state) */
    st = stiff_a1(0, &err_q, msg, sizeof msg);
    ck_assert_msg(st != MCD_OK, "explicit damping did not diverge (|q - target| = %g)", err_q);
    ck_assert_msg(strstr(msg, "diverging") || strstr(msg, "finite"), "%s", msg);
}
END_TEST

static Suite *actuator_suite(void)
{
    Suite *s = suite_create("sim-actuator");
    TCase *tc = tcase_create("actuator");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, step_solves_the_damped_equation);
    tcase_add_test(tc, file_targets_interpolate);
    tcase_add_test(tc, stiff_servo_needs_implicit_damping);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(actuator_suite());
}

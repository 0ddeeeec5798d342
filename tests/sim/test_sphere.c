/* The sliding sphere of Mylapilli & Jain, Sec. 6.1: m = 1, r = 1, mu = 0.2,
 * v_x0 = 2 m/s, g = 9.81, dt = 1 ms, 0.6 s, with an analytic sphere-plane
 * contact provider. Analytic solution: sliding until t_sr = 2 v0 / (7 mu g)
 * = 0.2912 s, then rolling with v_x = w_y = 5 v0 / 7. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "common/contact_scenes.h"
#include "mcdyn/mcdyn.h"

#define V0   2.0
#define MU   SCENE_BALL_MU
#define G    9.81
#define DT   1e-3
#define TSR  (2 * V0 / (7 * MU * G))
#define VEND (5 * V0 / 7)

typedef struct run_result {
    double tsr, vx, wy;    /* end of sliding; final velocities */
    double max_lateral;    /* max |v_y|, |w_x|, |w_z| over the run */
    double max_Fo;         /* max |F_o| (force, contact frame) */
    double max_cone_dev;   /* max | |F_t| - mu F_n | / (mu F_n) while sliding */
    double max_vy, max_wx; /* max |v_y|, |w_x| */
} run_result;

static run_result run(mcd_step_method kind, mcd_integrator integ, int fixed, double angle)
{
    mcd_model *m = scene_ball_model();
    mcd_sim_options o = mcd_sim_default_options();
    o.dt = DT;
    o.solver = kind;
    o.solver_opts = mcd_step_method_default_opts(kind);
    o.integrator = integ;
    if (fixed) o.contact.directions = MCD_DIRECTIONS_FIXED, o.contact.direction_angle = angle;
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, &o, &s, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(s, scene_ball_plane, NULL);
    double q[7] = {0, 0, 1, 1, 0, 0, 0}, qd[6] = {V0, 0, 0, 0, 0, 0};
    ck_assert_int_eq(mcd_sim_set_state(s, q, qd, 0.0), MCD_OK);
    run_result r = {-1, 0, 0, 0, 0, 0, 0, 0};
    for (int step = 0; step < 600; step++) {
        mcd_step_stats st;
        ck_assert_msg(mcd_sim_step(s, &st) == MCD_OK, "step %d: %s", step, mcd_sim_error(s));
        const double *x = mcd_sim_q(s), *v = mcd_sim_qd(s);
        double R[9], w[3];
        mcd_quat_to_m3(R, x + 3);
        mcd_m3_mul_v(w, R, v + 3); /* world angular velocity */
        int sliding = fabs(v[0] - w[1]) > 1e-9;
        if (r.tsr < 0 && !sliding) r.tsr = mcd_sim_time(s);
        r.max_lateral = fmax(r.max_lateral, fmax(fabs(v[1]), fmax(fabs(w[0]), fabs(w[2]))));
        r.max_vy = fmax(r.max_vy, fabs(v[1]));
        r.max_wx = fmax(r.max_wx, fabs(w[0]));
        ck_assert_int_eq(st.ncontacts, 1);
        const double *F = mcd_contact_impulse(mcd_sim_contact_ws(s), 0);
        r.max_Fo = fmax(r.max_Fo, fabs(F[1]) / DT);
        if (sliding && r.tsr < 0)
            r.max_cone_dev =
                fmax(r.max_cone_dev, fabs(hypot(F[0], F[1]) - MU * F[2]) / (MU * F[2]));
        r.vx = v[0], r.wy = w[1];
    }
    mcd_sim_free(s);
    mcd_model_free(m);
    return r;
}

/* Case 1, every solver, both integrators: t_sr within 2 ms, then v_x and
 * w_y = 5 v0 / 7 within 1e-3; v_y, w_x, w_z and F_o zero within 1e-9;
 * |F_t| = mu F_n within 1e-6 relative while sliding. */
START_TEST(case1_matches_analytic_solution)
{
    const mcd_step_method kind = (mcd_step_method)(_i % MCD_SOLVER_KIND_COUNT);
    const mcd_integrator integ =
        _i < MCD_SOLVER_KIND_COUNT ? MCD_INTEGRATOR_EULER : MCD_INTEGRATOR_MIDPOINT;
    run_result r = run(kind, integ, 0, 0.0);
    const char *name = mcd_step_method_name(kind);
    ck_assert_msg(fabs(r.tsr - TSR) <= 2e-3, "%s: t_sr %.4f vs %.4f", name, r.tsr, TSR);
    ck_assert_msg(fabs(r.vx - VEND) < 1e-3 && fabs(r.wy - VEND) < 1e-3, "%s: v_x %.6f w_y %.6f",
                  name, r.vx, r.wy);
    ck_assert_msg(r.max_lateral < 1e-9, "%s: lateral motion %g", name, r.max_lateral);
    ck_assert_msg(r.max_Fo < 1e-9, "%s: F_o %g", name, r.max_Fo);
    ck_assert_msg(r.max_cone_dev < 1e-6, "%s: |F_t| vs mu F_n %g", name, r.max_cone_dev);
}
END_TEST

/* Case 2 (directions rotated away from -nu_t, MLCP solvers only). At the
 * paper's 45 degrees two directions oppose the velocity equally: the MLCP
 * solution set is a whole polygon edge; our solvers return its symmetric
 * point, so sliding is longer (the polygon's edge is 0.707 mu F_n away) but
 * v_y stays zero. At 30 degrees the solution is unique and the artefact of
 * the paper's Fig. 12 appears: v_y and w_x non-zero, sliding past 0.35 s. */
START_TEST(case2_directions_are_honoured)
{
    const mcd_step_method mlcp[3] = {MCD_METHOD_MLCP_PFB_RLM, MCD_METHOD_MLCP_PFB_PLM,
                                     MCD_METHOD_MLCP_LEMKE};
    for (int i = 0; i < 3; i++) {
        const char *name = mcd_step_method_name(mlcp[i]);
        run_result r45 = run(mlcp[i], MCD_INTEGRATOR_EULER, 1, M_PI / 4);
        ck_assert_msg(r45.tsr > 0.35, "%s 45 deg: sliding ended at %.4f", name, r45.tsr);
        ck_assert_msg(r45.max_vy < 1e-9, "%s 45 deg: v_y %g (symmetric solution)", name,
                      r45.max_vy);
        run_result r30 = run(mlcp[i], MCD_INTEGRATOR_EULER, 1, M_PI / 6);
        ck_assert_msg(r30.tsr > 0.35, "%s 30 deg: sliding ended at %.4f", name, r30.tsr);
        ck_assert_msg(r30.max_vy > 1e-2 && r30.max_wx > 1e-2, "%s 30 deg: v_y %g, w_x %g", name,
                      r30.max_vy, r30.max_wx);
    }
    /* the exact cone is unaffected by the direction options */
    run_result r = run(MCD_METHOD_MNCP_PLM, MCD_INTEGRATOR_EULER, 1, M_PI / 6);
    ck_assert(fabs(r.tsr - TSR) <= 2e-3 && r.max_lateral < 1e-9);
}
END_TEST

static mcd_status nan_controller(void *user, const mcd_model *m, mcd_data *d, double t,
                                 const double *q, const double *qd, double *tau)
{
    (void)user, (void)m, (void)d, (void)q, (void)qd;
    tau[2] = t > 0.005 ? NAN : 0.0;
    return MCD_OK;
}

/* A controller producing NaN stops the step with the state untouched. */
START_TEST(nan_is_reported_not_propagated)
{
    mcd_model *m = scene_ball_model();
    mcd_sim *s = NULL;
    ck_assert_int_eq(mcd_sim_create(m, NULL, &s, NULL), MCD_OK);
    mcd_sim_set_contact_provider(s, scene_ball_plane, NULL);
    mcd_sim_set_controller(s, nan_controller, NULL);
    double q[7] = {0, 0, 1, 1, 0, 0, 0}, qd[6] = {V0, 0, 0, 0, 0, 0}, keep[7];
    ck_assert_int_eq(mcd_sim_set_state(s, q, qd, 0.0), MCD_OK);
    mcd_status st = MCD_OK;
    int steps = 0;
    while (st == MCD_OK && steps < 100) {
        memcpy(keep, mcd_sim_q(s), sizeof keep);
        st = mcd_sim_step(s, NULL);
        steps++;
    }
    ck_assert_int_eq(st, MCD_ERR_NONFINITE);
    ck_assert_ptr_nonnull(strstr(mcd_sim_error(s), "tau"));
    ck_assert_int_eq(memcmp(keep, mcd_sim_q(s), sizeof keep), 0);
    q[3] = NAN;
    ck_assert_int_eq(mcd_sim_set_state(s, q, qd, 0.0), MCD_ERR_NONFINITE);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

/* Solver non-convergence: 'stop' fails the step, 'warn' counts and goes on. */
START_TEST(solver_failure_policy)
{
    mcd_model *m = scene_ball_model();
    for (int warn = 0; warn < 2; warn++) {
        mcd_sim_options o = mcd_sim_default_options();
        o.solver = MCD_METHOD_MNCP_RLM;
        o.solver_opts = mcd_step_method_default_opts(o.solver);
        o.solver_opts.max_iter = 1;
        o.solver_opts.tol = 1e-300;
        o.solver_opts.psi_tol = 1e-300;
        o.on_failure = warn ? MCD_ON_FAILURE_WARN : MCD_ON_FAILURE_STOP;
        o.max_step_halvings = 0; /* the policy itself (test_step_halving.c halves) */
        mcd_sim *s = NULL;
        ck_assert_int_eq(mcd_sim_create(m, &o, &s, NULL), MCD_OK);
        mcd_sim_set_contact_provider(s, scene_ball_plane, NULL);
        double q[7] = {0, 0, 1, 1, 0, 0, 0}, qd[6] = {V0, 0, 0, 0, 0, 0};
        ck_assert_int_eq(mcd_sim_set_state(s, q, qd, 0.0), MCD_OK);
        mcd_step_stats st;
        mcd_status r = mcd_sim_step(s, &st);
        ck_assert_int_eq(st.solver_status, MCD_ERR_NOT_CONVERGED);
        if (warn) {
            ck_assert_int_eq(r, MCD_OK);
            ck_assert_int_eq(mcd_sim_solver_failures(s), 1);
        } else {
            ck_assert_int_eq(r, MCD_ERR_NOT_CONVERGED);
            ck_assert_ptr_nonnull(strstr(mcd_sim_error(s), "mncp-rlm"));
            ck_assert_double_eq(mcd_sim_time(s), 0.0);
        }
        mcd_sim_free(s);
    }
    mcd_model_free(m);
}
END_TEST

static mcd_status spin_controller(void *user, const mcd_model *m, mcd_data *d, double t,
                                  const double *q, const double *qd, double *tau)
{
    (void)user, (void)m, (void)d, (void)t, (void)q, (void)qd;
    tau[5] = 0.4; /* body-z torque on a free ball: w_z' = 0.4 / 0.4 = 1 rad/s^2 */
    return MCD_OK;
}

/* The controller's torque acts every step (no contacts, no gravity
 * effect on spin): w_z(1 s) = 1 rad/s. */
START_TEST(controller_runs_every_step)
{
    mcd_model *m = scene_ball_model();
    mcd_sim *s = NULL;
    ck_assert_int_eq(mcd_sim_create(m, NULL, &s, NULL), MCD_OK);
    mcd_sim_set_controller(s, spin_controller, NULL);
    double q[7] = {0, 0, 5, 1, 0, 0, 0}, qd[6] = {0};
    ck_assert_int_eq(mcd_sim_set_state(s, q, qd, 0.0), MCD_OK);
    for (int i = 0; i < 1000; i++) ck_assert_int_eq(mcd_sim_step(s, NULL), MCD_OK);
    ck_assert_double_eq_tol(mcd_sim_qd(s)[5], 1.0, 1e-12);
    ck_assert_double_eq_tol(mcd_sim_qd(s)[2], -9.81, 1e-12);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

Suite *sphere_suite(void)
{
    Suite *s = suite_create("sim-sphere");
    TCase *tc = tcase_create("sphere");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, case1_matches_analytic_solution, 0, 2 * MCD_SOLVER_KIND_COUNT);
    tcase_add_test(tc, case2_directions_are_honoured);
    tcase_add_test(tc, nan_is_reported_not_propagated);
    tcase_add_test(tc, solver_failure_policy);
    tcase_add_test(tc, controller_runs_every_step);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(sphere_suite());
}

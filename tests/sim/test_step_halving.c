/* Step halving (sim.h, mcd_sim_options.max_step_halvings; src/sim/
 * sim_halving.c): a step whose solve fails to converge is taken again as
 * two halves, down to dt / 2^max_step_halvings, each half an ordinary step
 * of its size with the controller's torques of the step held.
 *
 * The ball of Mylapilli & Jain's Sec. 6.1 (radius 1, 1 kg) sliding on the
 * plane z = 0. A solver that cannot converge (mncp-rlm, one iteration, tol
 * 1e-300) makes every attempt fail, so a step of dt with k halvings is the
 * tree of 2^k steps of dt / 2^k, each failing at the smallest size: the
 * state it leaves must be bit for bit that of a simulator with dt / 2^k
 * taking 2^k steps, which checks that a failed attempt leaves nothing
 * behind (state, time, failure count). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "common/check_main.h"
#include "common/contact_scenes.h"
#include "mcdyn/mcdyn.h"

#define DT 1e-3
#define V0 2.0

/* A constant push along x and a count of the calls. */
static mcd_status push(void *user, const mcd_model *m, mcd_data *d, double t, const double *q,
                       const double *qd, double *tau)
{
    (void)m, (void)d, (void)t, (void)q, (void)qd;
    ++*(int *)user;
    tau[0] = 0.3;
    return MCD_OK;
}

typedef struct run {
    mcd_model *m;
    mcd_sim *s;
    int calls; /* controller calls */
} run;

/* The ball sliding at V0, resting on the plane (gap 0), with the given
 * step, halvings and failure policy; converging: the default mncp-plm,
 * else a solver that cannot converge. */
static void start(run *r, double dt, int halvings, mcd_on_failure policy, int converging)
{
    r->m = scene_ball_model();
    r->calls = 0;
    mcd_sim_options o = mcd_sim_default_options();
    o.dt = dt;
    o.max_step_halvings = halvings;
    o.on_failure = policy;
    if (!converging) {
        o.solver = MCD_METHOD_MNCP_RLM;
        o.solver_opts = mcd_step_method_default_opts(o.solver);
        o.solver_opts.max_iter = 1;
        o.solver_opts.tol = 1e-300;
        o.solver_opts.psi_tol = 1e-300;
    }
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(r->m, &o, &r->s, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(r->s, scene_ball_plane, NULL);
    mcd_sim_set_controller(r->s, push, &r->calls);
    double q[7] = {0, 0, 1, 1, 0, 0, 0}, qd[6] = {V0, 0, 0, 0, 0, 0};
    ck_assert_int_eq(mcd_sim_set_state(r->s, q, qd, 0.0), MCD_OK);
}

static void finish(run *r)
{
    mcd_sim_free(r->s);
    mcd_model_free(r->m);
}

static void assert_same_state(const run *a, const run *b)
{
    for (int i = 0; i < 7; i++)
        ck_assert_msg(mcd_sim_q(a->s)[i] == mcd_sim_q(b->s)[i], "q[%d]: %.17g vs %.17g", i,
                      mcd_sim_q(a->s)[i], mcd_sim_q(b->s)[i]);
    for (int i = 0; i < 6; i++)
        ck_assert_msg(mcd_sim_qd(a->s)[i] == mcd_sim_qd(b->s)[i], "qd[%d]: %.17g vs %.17g", i,
                      mcd_sim_qd(a->s)[i], mcd_sim_qd(b->s)[i]);
}

/* Three steps of dt, each halved twice into four steps of dt / 4 that
 * fail at that size (warned and counted), against twelve steps of dt / 4
 * without halving. */
START_TEST(halves_are_steps_of_half_size)
{
    run halved, fine;
    start(&halved, DT, 2, MCD_ON_FAILURE_WARN, 0);
    start(&fine, DT / 4, 0, MCD_ON_FAILURE_WARN, 0);
    for (int k = 0; k < 3; k++) {
        mcd_step_stats st;
        ck_assert_int_eq(mcd_sim_step(halved.s, &st), MCD_OK);
        ck_assert_int_eq(st.halvings, 3); /* the step, then each of its halves */
        ck_assert_int_eq(st.solver_status, MCD_ERR_NOT_CONVERGED);
        ck_assert_int_eq(st.ncontacts, 1);
        for (int j = 0; j < 4; j++) ck_assert_int_eq(mcd_sim_step(fine.s, NULL), MCD_OK);
        ck_assert_double_eq(mcd_sim_time(halved.s), (k + 1) * DT);
        assert_same_state(&halved, &fine);
    }
    ck_assert_int_eq(mcd_sim_solver_failures(halved.s), 12); /* only the quarters count */
    ck_assert_int_eq(mcd_sim_solver_failures(fine.s), 12);
    ck_assert_int_eq(mcd_sim_step_halvings(halved.s), 9);
    ck_assert_int_eq(mcd_sim_step_halvings(fine.s), 0);
    ck_assert_int_eq(halved.calls, 3); /* once per step of dt, its push held */
    ck_assert_int_eq(fine.calls, 12);
    finish(&halved), finish(&fine);
}
END_TEST

/* Under 'stop' the first quarter that fails ends the step: the state is
 * the step's start, the time unchanged, nothing counted. */
START_TEST(stop_after_the_smallest_half_fails)
{
    run r;
    start(&r, DT, 2, MCD_ON_FAILURE_STOP, 0);
    const double x0 = mcd_sim_q(r.s)[0];
    mcd_step_stats st;
    ck_assert_int_eq(mcd_sim_step(r.s, &st), MCD_ERR_NOT_CONVERGED);
    ck_assert_int_eq(st.halvings, 2); /* the step and its first half */
    ck_assert_double_eq(mcd_sim_time(r.s), 0.0);
    ck_assert_double_eq(mcd_sim_q(r.s)[0], x0);
    ck_assert_int_eq(mcd_sim_solver_failures(r.s), 0);
    ck_assert_ptr_nonnull(strstr(mcd_sim_error(r.s), "mncp-rlm"));
    finish(&r);
}
END_TEST

/* No halving where every solve converges: the same trajectory as without
 * it, bit for bit, and no halving counted. */
START_TEST(converging_steps_are_not_halved)
{
    run with, without;
    start(&with, DT, 3, MCD_ON_FAILURE_STOP, 1);
    start(&without, DT, 0, MCD_ON_FAILURE_STOP, 1);
    for (int k = 0; k < 100; k++) {
        mcd_step_stats st;
        ck_assert_int_eq(mcd_sim_step(with.s, &st), MCD_OK);
        ck_assert_int_eq(st.halvings, 0);
        ck_assert_int_eq(mcd_sim_step(without.s, NULL), MCD_OK);
    }
    assert_same_state(&with, &without);
    ck_assert_int_eq(mcd_sim_step_halvings(with.s), 0);
    ck_assert_int_eq(with.calls, 100);
    finish(&with), finish(&without);
}
END_TEST

START_TEST(halvings_out_of_range_are_refused)
{
    mcd_model *m = scene_ball_model();
    for (int k = 0; k < 2; k++) {
        mcd_sim_options o = mcd_sim_default_options();
        o.max_step_halvings = k ? MCD_SIM_MAX_STEP_HALVINGS + 1 : -1;
        mcd_sim *s = NULL;
        mcd_error err = {0};
        ck_assert_int_eq(mcd_sim_create(m, &o, &s, &err), MCD_ERR_ARG);
        ck_assert_ptr_null(s);
        ck_assert_ptr_nonnull(strstr(err.msg, "max_step_halvings"));
    }
    mcd_model_free(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("step_halving");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, halves_are_steps_of_half_size);
    tcase_add_test(tc, stop_after_the_smallest_half_fails);
    tcase_add_test(tc, converging_steps_are_not_halved);
    tcase_add_test(tc, halvings_out_of_range_are_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(suite());
}

/* The controller's scratch data (sim.h, mcd_controller): on entry it holds
 * the kinematics and velocities of the state it is called with, and the
 * controller may use it with the dynamics functions. Checks:
 *  - its body poses and velocities equal those of a separate data made
 *    from the same (q, qd), to the last bit (same operations);
 *  - gravity compensation computed in it (mcd_gravity_forces) holds the
 *    Panda still: after 1 s from rest the joints have moved by less than
 *    1e-9 rad (exact compensation leaves only rounding; without it the arm
 *    falls by more than 0.1 rad, checked too so the test can fail);
 *  - a failing controller's message reaches mcd_sim_error. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "mcdyn/mcdyn.h"

static mcd_model *load_panda(void)
{
    const char *dir = getenv("MCDYN_SHARED");
    ck_assert_msg(dir != NULL, "MCDYN_SHARED is not set");
    char path[4096];
    snprintf(path, sizeof path, "%s/models/example-robot-data/panda_collision.urdf", dir);
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.ignore_mimic = 1;
    mcd_model *m = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_urdf_load_file(path, &opt, &m, &err) == MCD_OK, "%s", err.msg);
    return m;
}

/* The Panda's "ready" configuration, inside every joint limit. */
static const double panda_ready[9] = {0, -0.785, 0, -2.356, 0, 1.571, 0.785, 0.02, 0.02};

static mcd_sim *panda_sim(const mcd_model *m, const mcd_sim_options *o)
{
    ck_assert_int_eq(m->nq, 9);
    mcd_sim *s = NULL;
    ck_assert_int_eq(mcd_sim_create(m, o, &s, NULL), MCD_OK);
    const double qd0[9] = {0};
    ck_assert_int_eq(mcd_sim_set_state(s, panda_ready, qd0, 0.0), MCD_OK);
    return s;
}

typedef struct probe {
    mcd_data *reference;
    int calls, mismatches;
} probe;

static mcd_status compare_state(void *user, const mcd_model *m, mcd_data *d, double t,
                                const double *q, const double *qd, double *tau)
{
    (void)t;
    probe *p = user;
    p->calls++;
    mcd_body_velocities(m, p->reference, q, qd);
    if (memcmp(d->q, q, (size_t)m->nq * sizeof *q) || memcmp(d->qd, qd, (size_t)m->nv * sizeof *qd))
        p->mismatches++;
    for (int k = 0; k < m->nbody; k++)
        if (memcmp(&d->bd[k].X_world, &p->reference->bd[k].X_world, sizeof(mcd_pose)) ||
            memcmp(d->bd[k].V, p->reference->bd[k].V, sizeof d->bd[k].V))
            p->mismatches++;
    for (int i = 0; i < m->nv; i++) tau[i] = 0.5 * sin(3.0 * t + i); /* keep it moving */
    return mcd_minv_factor(m, d, q); /* overwrite the scratch data */
}

START_TEST(scratch_data_holds_the_state)
{
    mcd_model *m = load_panda();
    probe p = {NULL, 0, 0};
    ck_assert_int_eq(mcd_data_create(m, &p.reference, NULL), MCD_OK);
    for (int integrator = 0; integrator < 2; integrator++) {
        mcd_sim_options o = mcd_sim_default_options();
        o.integrator = (mcd_integrator)integrator;
        mcd_sim *s = panda_sim(m, &o);
        mcd_sim_set_controller(s, compare_state, &p);
        for (int i = 0; i < 200; i++) ck_assert_int_eq(mcd_sim_step(s, NULL), MCD_OK);
        mcd_sim_free(s);
    }
    ck_assert_int_eq(p.calls, 400);
    ck_assert_int_eq(p.mismatches, 0);
    mcd_data_free(p.reference);
    mcd_model_free(m);
}
END_TEST

static mcd_status gravity_compensation(void *user, const mcd_model *m, mcd_data *d, double t,
                                       const double *q, const double *qd, double *tau)
{
    (void)user, (void)t, (void)qd;
    return mcd_gravity_forces(m, d, q, tau);
}

/* Largest joint motion over 1 s from the ready configuration at rest. */
static double drift_in_one_second(const mcd_model *m, mcd_controller f)
{
    mcd_sim *s = panda_sim(m, NULL);
    mcd_sim_set_controller(s, f, NULL);
    double *q0 = calloc((size_t)m->nq, sizeof *q0);
    memcpy(q0, mcd_sim_q(s), (size_t)m->nq * sizeof *q0);
    for (int i = 0; i < 1000; i++)
        ck_assert_msg(mcd_sim_step(s, NULL) == MCD_OK, "%s", mcd_sim_error(s));
    double drift = 0.0;
    for (int i = 0; i < m->nq; i++) drift = fmax(drift, fabs(mcd_sim_q(s)[i] - q0[i]));
    free(q0);
    mcd_sim_free(s);
    return drift;
}

START_TEST(gravity_compensation_in_the_scratch_data)
{
    mcd_model *m = load_panda();
    const double held = drift_in_one_second(m, gravity_compensation);
    const double falling = drift_in_one_second(m, NULL);
    ck_assert_msg(held < 1e-9, "compensated drift %g rad", held);
    ck_assert_msg(falling > 0.1, "uncompensated drift %g rad", falling);
    mcd_model_free(m);
}
END_TEST

static mcd_status refuse(void *user, const mcd_model *m, mcd_data *d, double t, const double *q,
                         const double *qd, double *tau)
{
    (void)user, (void)t, (void)q, (void)qd, (void)tau;
    return mcd_node_jacobian(m, d, d->q, m->nnode, MCD_REF_WORLD, tau); /* no such node */
}

START_TEST(controller_failure_is_reported)
{
    mcd_model *m = load_panda();
    mcd_sim *s = panda_sim(m, NULL);
    mcd_sim_set_controller(s, refuse, NULL);
    ck_assert_int_eq(mcd_sim_step(s, NULL), MCD_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(mcd_sim_error(s), "controller failed at t = 0: node index"));
    ck_assert_double_eq(mcd_sim_time(s), 0.0);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("controller");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, scratch_data_holds_the_state);
    tcase_add_test(tc, gravity_compensation_in_the_scratch_data);
    tcase_add_test(tc, controller_failure_is_reported);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

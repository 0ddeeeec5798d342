/* The contact set-up that reuses the caller's kinematics
 * (src/contact/contact_setup.h, mcd_contact_setup_at with kinematics_done,
 * as the simulator calls it after its contact detection) against the
 * public mcd_contact_setup, which makes them itself: on random trees
 * (free base, revolute joints) with random contacts, the frictional
 * contact problem (W and q, every group), the free velocities and the
 * velocity update of a random impulse must be the same bit for bit — the
 * same passes run in the same order on the same data, so any difference
 * is a bug, not rounding. And a check that the comparison can fail: with
 * the kinematics of another configuration left in the data, q differs.
 *
 * The set-up's kinetic energy T(q, qd) (contact_setup.h: from the body
 * velocities of its free motion, which the simulator's divergence guard
 * takes as T- without a sweep of its own) must equal mcd_energy's, which
 * makes its own kinematics and velocities. Both evaluate the same sum 1/2
 * sum V^T M V of the same V, so 1e-12 relative is loose; against the T of
 * another, random qd the same comparison fails by O(1), as it would if
 * the set-up's V were not those of qd. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "common/random_model.h"
#include "contact/contact_setup.h"
#include "dynamics/energy_kinematics.h"
#include "mcdyn/mcdyn.h"

#define NC 6

typedef struct setup_case {
    mcd_model *m;
    double *q, *q_other, *qd, *tau;
    mcd_contact_point c[NC];
} setup_case;

static setup_case make_case(test_rng *r)
{
    setup_case k = {0};
    k.m = test_random_tree(r, 5, TEST_TREE_FREE_BASE | TEST_TREE_REVOLUTE);
    ck_assert_ptr_nonnull(k.m);
    const mcd_model *m = k.m;
    k.q = calloc((size_t)m->nq, sizeof *k.q), k.q_other = calloc((size_t)m->nq, sizeof *k.q);
    k.qd = calloc((size_t)m->nv, sizeof *k.qd), k.tau = calloc((size_t)m->nv, sizeof *k.tau);
    test_random_q(r, m, k.q);
    test_random_q(r, m, k.q_other);
    test_random_vec(r, k.qd, m->nv, 1.0);
    test_random_vec(r, k.tau, m->nv, 1.0);
    for (int i = 0; i < NC; i++) {
        double n[3];
        test_random_vec(r, n, 3, 1.0);
        mcd_v3_scale(n, n, 1.0 / mcd_v3_norm(n));
        const int body = (int)test_uniform(r, 0, m->nbody - 0.01);
        k.c[i] = (mcd_contact_point){body, -1, {0, 0, 0}, {n[0], n[1], n[2]}, -1e-4, 0.5, 0.0, 0.0};
        test_random_vec(r, k.c[i].pos, 3, 1.0);
    }
    return k;
}

static void free_case(setup_case *k)
{
    free(k->q), free(k->q_other), free(k->qd), free(k->tau);
    mcd_model_free(k->m);
}

/* The set-up by mcd_contact_setup (how = 0), or after
 * mcd_forward_kinematics(kinematics_q) by mcd_contact_setup_at (how = 1);
 * its problem into W, q (n x n, n), the velocity update of the impulse
 * into qd_new. Returns n. */
static int set_up(const setup_case *k, int how, const double *kinematics_q, double *W, double *qv,
                  double *qd_new)
{
    const mcd_model *m = k->m;
    mcd_data *d = NULL;
    mcd_contact_ws *ws = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    ck_assert_int_eq(mcd_contact_ws_create(m, d, NC, 4, &ws, NULL), MCD_OK);
    const mcd_contact_options o = mcd_contact_default_options();
    mcd_status s;
    if (how == 0) {
        s = mcd_contact_setup(m, d, ws, k->q, k->qd, k->tau, 1e-3, NC, k->c, &o);
    } else {
        ck_assert_int_eq(mcd_forward_kinematics(m, d, kinematics_q), MCD_OK);
        s = mcd_contact_setup_at(m, d, ws, k->q, k->qd, k->tau, 1e-3, NC, k->c, &o, 1, NULL);
    }
    ck_assert_msg(s == MCD_OK, "%s", mcd_data_error(d));
    mcd_fc3d p;
    ck_assert_int_eq(mcd_contact_fc3d(ws, &p), MCD_OK);
    const int n = mcd_fc3d_size(&p);
    memcpy(W, p.W, (size_t)n * n * sizeof *W);
    memcpy(qv, p.q, (size_t)n * sizeof *qv);
    double impulse[3 * NC];
    for (int i = 0; i < 3 * NC; i++) impulse[i] = 0.01 * (i % 5) - 0.02;
    ck_assert_int_eq(mcd_contact_take_fc3d(ws, impulse), MCD_OK);
    ck_assert_int_eq(mcd_contact_velocity_update(m, d, ws, qd_new), MCD_OK);
    mcd_contact_ws_free(ws);
    mcd_data_free(d);
    return n;
}

START_TEST(setup_at_is_setup_bit_for_bit)
{
    test_rng r = {20261126};
    for (int c = 0; c < 20; c++) {
        setup_case k = make_case(&r);
        enum { N = 3 * NC };
        double W0[N * N], W1[N * N], q0[N], q1[N], v0[64], v1[64];
        ck_assert_int_le(k.m->nv, 64);
        const int n0 = set_up(&k, 0, NULL, W0, q0, v0);
        const int n1 = set_up(&k, 1, k.q, W1, q1, v1);
        ck_assert_int_eq(n0, n1);
        ck_assert_msg(!memcmp(W0, W1, sizeof(double) * n0 * n0), "case %d: W differs", c);
        ck_assert_msg(!memcmp(q0, q1, sizeof(double) * n0), "case %d: q differs", c);
        ck_assert_msg(!memcmp(v0, v1, sizeof(double) * k.m->nv), "case %d: qd+ differs", c);
        set_up(&k, 1, k.q_other, W1, q1, v1); /* stale kinematics: must show */
        ck_assert_msg(memcmp(q0, q1, sizeof(double) * n0), "case %d: stale kinematics unseen", c);
        free_case(&k);
    }
}
END_TEST

/* |T(q, qd) of the set-up - T(q, qd_check) of mcd_energy| / T. */
static double energy_mismatch(const setup_case *k, int kinematics_done, const double *qd_check)
{
    const mcd_model *m = k->m;
    mcd_data *d = NULL, *e = NULL;
    mcd_contact_ws *ws = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    ck_assert_int_eq(mcd_data_create(m, &e, NULL), MCD_OK);
    ck_assert_int_eq(mcd_contact_ws_create(m, d, NC, 4, &ws, NULL), MCD_OK);
    const mcd_contact_options o = mcd_contact_default_options();
    if (kinematics_done) ck_assert_int_eq(mcd_forward_kinematics(m, d, k->q), MCD_OK);
    double T_setup = -1.0, T = 0.0;
    ck_assert_int_eq(mcd_contact_setup_at(m, d, ws, k->q, k->qd, k->tau, 1e-3, NC, k->c, &o,
                                          kinematics_done, &T_setup),
                     MCD_OK);
    ck_assert_int_eq(mcd_energy(m, e, k->q, qd_check, &T, NULL), MCD_OK);
    ck_assert(T > 0);
    mcd_contact_ws_free(ws);
    mcd_data_free(d);
    mcd_data_free(e);
    return fabs(T_setup - T) / T;
}

START_TEST(setup_gives_the_kinetic_energy_of_qd)
{
    test_rng r = {20261127};
    for (int c = 0; c < 20; c++) {
        setup_case k = make_case(&r);
        for (int done = 0; done <= 1; done++) {
            const double e = energy_mismatch(&k, done, k.qd);
            ck_assert_msg(e <= 1e-12, "case %d (kinematics_done %d): T differs by %.3g", c, done,
                          e);
        }
        double *qd_other = calloc((size_t)k.m->nv, sizeof *qd_other);
        test_random_vec(&r, qd_other, k.m->nv, 1.0);
        ck_assert_msg(energy_mismatch(&k, 1, qd_other) > 1e-6, "case %d: the check cannot fail", c);
        free(qd_other);
        free_case(&k);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("contact_setup_at");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, setup_at_is_setup_bit_for_bit);
    tcase_add_test(tc, setup_gives_the_kinetic_energy_of_qd);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

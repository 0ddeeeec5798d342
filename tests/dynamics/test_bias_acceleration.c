/* Bias acceleration Jdot qd of nodes and body points against central finite
 * differences of J(q) qd along qd, on the A1 quadruped with a floating base
 * and the Panda arm (../shared/models/example-robot-data).
 *
 * The reference is (J(q(h)) qd - J(q(-h)) qd) / (2h) with q(s) = q (+) s qd
 * (mcd_integrate, exact on the free joint's quaternion). Its truncation
 * error is h^2/6 |d^3/ds^3 J(q(s)) qd| and its rounding error about
 * eps |J qd| / h. With |qd| <= 2 rad/s and links under 1 m, the third
 * derivative is of order |qd|^4 L <= 16 m/s^4, so h = 1e-4 s gives a
 * truncation error under 3e-8 and a rounding error under 1e-11:
 * TOL = 1e-6 (relative to max(1, |acc|)) leaves a margin of 30, and a
 * wrong term (a missing w x v_x is of order |qd|^2 L ~ 1) fails by far. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/random_model.h"
#include "common/shared_robots.h"
#include "mcdyn/mcdyn.h"
#include "common/check_main.h"

#define FD_STEP 1e-4
#define TOL     1e-6

/* A node on link at an offset and a tilt, so that both the point's lever
 * arm and its own axes matter. */
static int add_node(mcd_model *m, const char *link)
{
    const int frame = mcd_model_frame_index(m, link);
    ck_assert_msg(frame >= 0, "no link %s", link);
    mcd_pose offset, pose;
    double quat[4] = {0.9, 0.3, -0.2, 0.25};
    mcd_quat_normalize(quat);
    mcd_quat_to_m3(offset.R, quat);
    mcd_v3_set(offset.p, 0.05, -0.03, 0.08);
    mcd_pose_mul(&pose, &m->frame[frame].pose, &offset);
    char name[64];
    snprintf(name, sizeof name, "%s_test_node", link);
    int node = -1;
    mcd_error err = {0};
    ck_assert_msg(mcd_model_add_node(m, name, m->frame[frame].body, &pose, &node, &err) == MCD_OK,
                  "%s", err.msg);
    return node;
}

/* A random configuration near the neutral one (unit quaternions) and a
 * random velocity with |qd_i| <= 2. */
static void random_state(test_rng *r, const mcd_model *m, double *q, double *qd)
{
    test_random_q(r, m, q);
    for (int i = 0; i < m->nv; i++) qd[i] = test_uniform(r, -2.0, 2.0);
}

/* J(q (+) s qd) qd for the node (or the point when node < 0). */
static void velocity_at(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                        double s, int node, int body, const double *point, mcd_reference ref,
                        double v[6])
{
    double *qs = calloc((size_t)m->nq, sizeof *qs), *J = calloc(6 * (size_t)m->nv, sizeof *J);
    ck_assert_int_eq(mcd_integrate(m, q, qd, s, qs), MCD_OK);
    if (node >= 0)
        ck_assert_int_eq(mcd_node_jacobian(m, d, qs, node, ref, J), MCD_OK);
    else
        ck_assert_int_eq(mcd_point_jacobian(m, d, qs, body, point, ref, J), MCD_OK);
    for (int i = 0; i < 6; i++) {
        v[i] = 0.0;
        for (int j = 0; j < m->nv; j++) v[i] += J[i * m->nv + j] * qd[j];
    }
    free(qs), free(J);
}

static void check_against_fd(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                             int node, int body, const double *point, mcd_reference ref,
                             const char *what)
{
    double acc[6], vp[6], vm[6];
    if (node >= 0)
        ck_assert_int_eq(mcd_node_bias_acceleration(m, d, q, qd, node, ref, acc), MCD_OK);
    else
        ck_assert_int_eq(mcd_point_bias_acceleration(m, d, q, qd, body, point, ref, acc), MCD_OK);
    velocity_at(m, d, q, qd, FD_STEP, node, body, point, ref, vp);
    velocity_at(m, d, q, qd, -FD_STEP, node, body, point, ref, vm);
    double scale = 1.0, err = 0.0;
    for (int i = 0; i < 6; i++) scale = fmax(scale, fabs(acc[i]));
    for (int i = 0; i < 6; i++) err = fmax(err, fabs(acc[i] - (vp[i] - vm[i]) / (2 * FD_STEP)));
    ck_assert_msg(err < TOL * scale, "%s (%s): |Jdot qd - FD| = %g, scale %g", what,
                  ref == MCD_REF_WORLD ? "world" : "local", err, scale);
}

static void check_robot(const char *file, int floating_base, const char *link, unsigned seed)
{
    mcd_model *m = test_load_robot(file, floating_base);
    const int node = add_node(m, link);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    test_rng r = {seed};
    double *q = calloc((size_t)m->nq, sizeof *q), *qd = calloc((size_t)m->nv, sizeof *qd);
    const double point[3] = {-0.02, 0.04, 0.1};
    for (int trial = 0; trial < 10; trial++) {
        random_state(&r, m, q, qd);
        const int body = (int)test_uniform(&r, 0, m->nbody);
        for (int ref = MCD_REF_WORLD; ref <= MCD_REF_LOCAL; ref++) {
            check_against_fd(m, d, q, qd, node, -1, NULL, (mcd_reference)ref, link);
            check_against_fd(m, d, q, qd, -1, body, point, (mcd_reference)ref, m->body_name[body]);
        }
    }
    free(q), free(qd);
    mcd_data_free(d);
    mcd_model_free(m);
}

START_TEST(a1_floating_base_feet)
{
    check_robot("a1.urdf", 1, "FL_foot", 11);
    check_robot("a1.urdf", 1, "RR_calf", 12);
}
END_TEST

START_TEST(panda_hand)
{
    check_robot("panda_collision.urdf", 0, "panda_hand_tcp", 13);
    check_robot("panda_collision.urdf", 0, "panda_link4", 14);
}
END_TEST

/* At rest the bias acceleration is zero (no gravity in it), whatever q. */
START_TEST(zero_at_rest)
{
    mcd_model *m = test_load_robot("panda_collision.urdf", 0);
    const int node = add_node(m, "panda_hand_tcp");
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    test_rng r = {5};
    double *q = calloc((size_t)m->nq, sizeof *q), *qd = calloc((size_t)m->nv, sizeof *qd);
    test_random_q(&r, m, q);
    double acc[6];
    ck_assert_int_eq(mcd_node_bias_acceleration(m, d, q, qd, node, MCD_REF_WORLD, acc), MCD_OK);
    for (int i = 0; i < 6; i++) ck_assert_double_eq(acc[i], 0.0);
    free(q), free(qd);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

START_TEST(bad_input_is_refused)
{
    mcd_model *m = test_load_robot("panda_collision.urdf", 0);
    const int node = add_node(m, "panda_hand_tcp");
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double *q = calloc((size_t)m->nq, sizeof *q), *qd = calloc((size_t)m->nv, sizeof *qd);
    double acc[6];
    ck_assert_int_eq(mcd_node_bias_acceleration(m, d, q, qd, node + 1, MCD_REF_WORLD, acc),
                     MCD_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(mcd_data_error(d), "out of range"));
    ck_assert_int_eq(mcd_node_bias_acceleration(m, d, q, qd, node, MCD_REF_WORLD, NULL),
                     MCD_ERR_ARG);
    qd[0] = NAN;
    ck_assert_int_eq(mcd_node_bias_acceleration(m, d, q, qd, node, MCD_REF_WORLD, acc),
                     MCD_ERR_NONFINITE);
    qd[0] = 0.0;
    const double bad_point[3] = {0, INFINITY, 0};
    ck_assert_int_eq(mcd_point_bias_acceleration(m, d, q, qd, 0, bad_point, MCD_REF_WORLD, acc),
                     MCD_ERR_NONFINITE);
    ck_assert_int_eq(
        mcd_point_bias_acceleration(m, d, q, qd, m->nbody, bad_point, MCD_REF_WORLD, acc),
        MCD_ERR_ARG);
    free(q), free(qd);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bias_acceleration");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a1_floating_base_feet);
    tcase_add_test(tc, panda_hand);
    tcase_add_test(tc, zero_at_rest);
    tcase_add_test(tc, bad_input_is_refused);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

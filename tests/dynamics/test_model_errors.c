/* Bad input to the builder and the algorithms: each is reported with a
 * status and a message naming the culprit; nothing crashes, nothing is
 * written to the outputs. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/random_model.h"
#include "common/check_main.h"

static mcd_link_desc good_link(const char *name, int parent)
{
    mcd_link_desc d = mcd_link_desc_default();
    d.name = name;
    d.parent = parent;
    d.jtype = MCD_JOINT_REVOLUTE;
    d.mass.mass = 1.0;
    d.mass.inertia[0] = d.mass.inertia[4] = d.mass.inertia[8] = 0.01;
    return d;
}

/* Adds one link to a fresh builder holding a good root; returns the status
 * of the add or of the build, whichever fails first. */
static mcd_status try_link(mcd_link_desc d, mcd_error *err)
{
    mcd_builder *b = NULL;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    mcd_link_desc root = good_link("root", -1);
    ck_assert_int_eq(mcd_builder_add_link(b, &root, NULL, err), MCD_OK);
    mcd_status s = mcd_builder_add_link(b, &d, NULL, err);
    if (s == MCD_OK) {
        mcd_model *m = NULL;
        s = mcd_model_build(b, &m, err);
        mcd_model_free(m);
    }
    mcd_builder_free(b);
    return s;
}

static void expect_error(mcd_link_desc d, mcd_status expected, const char *fragment)
{
    mcd_error err = {0};
    mcd_status s = try_link(d, &err);
    ck_assert_msg(s == expected, "expected %s, got %s: %s", mcd_status_str(expected),
                  mcd_status_str(s), err.msg);
    ck_assert_msg(strstr(err.msg, fragment) != NULL, "message '%s' lacks '%s'", err.msg, fragment);
}

START_TEST(negative_mass_names_the_link)
{
    mcd_link_desc d = good_link("forearm", 0);
    d.mass.mass = -2.0;
    expect_error(d, MCD_ERR_MODEL, "forearm");
    expect_error(d, MCD_ERR_MODEL, "negative mass");
}
END_TEST

START_TEST(indefinite_inertia_rejected)
{
    mcd_link_desc d = good_link("wrist", 0);
    d.mass.inertia[8] = -0.01;
    expect_error(d, MCD_ERR_MODEL, "wrist");
    expect_error(d, MCD_ERR_MODEL, "positive semidefinite");
}
END_TEST

START_TEST(triangle_inequality_rejected)
{
    mcd_link_desc d = good_link("paddle", 0);
    d.mass.inertia[8] = 0.05; /* 0.01 + 0.01 < 0.05 */
    expect_error(d, MCD_ERR_MODEL, "triangle inequality");
}
END_TEST

START_TEST(asymmetric_inertia_rejected)
{
    mcd_link_desc d = good_link("skew", 0);
    d.mass.inertia[1] = 0.001;
    expect_error(d, MCD_ERR_MODEL, "not symmetric");
}
END_TEST

START_TEST(nonfinite_parameters_rejected)
{
    mcd_link_desc d = good_link("nanlink", 0);
    d.origin.p[1] = NAN;
    expect_error(d, MCD_ERR_NONFINITE, "nanlink");
    d = good_link("infmass", 0);
    d.mass.mass = INFINITY;
    expect_error(d, MCD_ERR_NONFINITE, "infmass");
}
END_TEST

START_TEST(duplicate_and_dangling_names)
{
    expect_error(good_link("root", 0), MCD_ERR_MODEL, "duplicate link name");
    expect_error(good_link("child", 7), MCD_ERR_MODEL, "does not name a link");
    mcd_link_desc d = good_link("child", 0);
    d.joint_name = "root";
    expect_error(d, MCD_ERR_MODEL, "duplicate joint name");
}
END_TEST

START_TEST(massless_leaf_rejected)
{
    mcd_link_desc d = good_link("ghost", 0);
    memset(&d.mass, 0, sizeof d.mass);
    expect_error(d, MCD_ERR_MODEL, "ghost");
    d = good_link("pointmass", 0);
    memset(d.mass.inertia, 0, sizeof d.mass.inertia);
    expect_error(d, MCD_ERR_MODEL, "positive-definite");
}
END_TEST

START_TEST(zero_axis_and_bad_rotation)
{
    mcd_link_desc d = good_link("noaxis", 0);
    mcd_v3_set(d.axis, 0, 0, 0);
    expect_error(d, MCD_ERR_MODEL, "axis is zero");
    d = good_link("shear", 0);
    d.origin.R[1] = 0.5;
    expect_error(d, MCD_ERR_MODEL, "not a rotation");
}
END_TEST

/* Fixed links merge: total mass and combined centre of mass by hand. */
START_TEST(fixed_links_merge_mass_properties)
{
    mcd_builder *b = NULL;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    mcd_link_desc root = good_link("base", -1);
    root.jtype = MCD_JOINT_FIXED;
    int i0, i1, i2;
    ck_assert_int_eq(mcd_builder_add_link(b, &root, &i0, &err), MCD_OK);
    mcd_link_desc arm = good_link("arm", i0);
    mcd_v3_set(arm.mass.com, 0.5, 0, 0);
    ck_assert_int_eq(mcd_builder_add_link(b, &arm, &i1, &err), MCD_OK);
    mcd_link_desc tool = good_link("tool", i1);
    tool.jtype = MCD_JOINT_FIXED;
    tool.mass.mass = 3.0;
    mcd_v3_set(tool.origin.p, 1.0, 0, 0);
    ck_assert_int_eq(mcd_builder_add_link(b, &tool, &i2, &err), MCD_OK);
    mcd_model *m = NULL;
    ck_assert_int_eq(mcd_model_build(b, &m, &err), MCD_OK);
    mcd_builder_free(b);
    ck_assert_int_eq(m->nbody, 1);
    ck_assert_int_eq(m->nv, 1);
    ck_assert_double_eq_tol(m->body[0].mass.mass, 4.0, 1e-15);
    ck_assert_double_eq_tol(m->body[0].mass.com[0], (0.5 * 1 + 1.0 * 3) / 4.0, 1e-15);
    /* Izz about the combined com: 0.01 + 1*(0.375)^2 + 0.01 + 3*(0.125)^2 */
    double izz = 0.02 + 0.375 * 0.375 + 3 * 0.125 * 0.125;
    ck_assert_double_eq_tol(m->body[0].mass.inertia[8], izz, 1e-14);
    ck_assert_int_eq(mcd_model_frame_index(m, "tool"), 2);
    ck_assert_int_eq(m->frame[2].body, 0);
    ck_assert_double_eq_tol(m->frame[2].pose.p[0], 1.0, 1e-15);
    ck_assert_int_eq(m->frame[0].body, -1);
    mcd_model_free(m);
}
END_TEST

/* NaN and non-unit quaternions in states are reported; outputs untouched. */
START_TEST(bad_states_reported)
{
    test_rng r = {1};
    mcd_model *m = test_random_tree(&r, 4, TEST_TREE_ALL);
    ck_assert_ptr_nonnull(m);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double q[64], qd[64] = {0}, tau[64] = {0}, out[64];
    ck_assert_int_le(m->nq, 64);
    test_random_q(&r, m, q);
    for (int i = 0; i < 64; i++) out[i] = 42.0;
    qd[m->nv - 1] = NAN;
    ck_assert_int_eq(mcd_forward_dynamics(m, d, q, qd, tau, NULL, out), MCD_ERR_NONFINITE);
    ck_assert_ptr_nonnull(strstr(mcd_data_error(d), "qd["));
    ck_assert_ptr_nonnull(strstr(mcd_data_error(d), m->joint_name[m->nbody - 1]));
    for (int i = 0; i < 64; i++) ck_assert_double_eq(out[i], 42.0);
    qd[m->nv - 1] = 0;
    tau[0] = INFINITY;
    ck_assert_int_eq(mcd_inverse_dynamics(m, d, q, qd, tau, NULL, out), MCD_ERR_NONFINITE);
    ck_assert_int_eq(mcd_forward_dynamics(m, d, q, qd, tau, NULL, out), MCD_ERR_NONFINITE);
    tau[0] = 0;
    q[m->body[0].qadr + 3] *= 2.0; /* free base quaternion no longer unit */
    ck_assert_int_eq(mcd_mass_matrix(m, d, q, out), MCD_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(mcd_data_error(d), "unit quaternion"));
    q[0] = NAN;
    ck_assert_int_eq(mcd_bias_forces(m, d, q, qd, out), MCD_ERR_NONFINITE);
    for (int i = 0; i < 64; i++) ck_assert_double_eq(out[i], 42.0);
    ck_assert_int_eq(mcd_forward_dynamics(m, d, q, NULL, tau, NULL, out), MCD_ERR_NONFINITE);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

START_TEST(api_misuse_reported)
{
    mcd_model *m = test_revolute_chain(3), *other = test_revolute_chain(2);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double q[3] = {0}, x[3] = {1, 2, 3}, y[3];
    ck_assert_int_eq(mcd_minv_solve(m, d, x, y), MCD_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(mcd_data_error(d), "mcd_minv_factor"));
    ck_assert_int_eq(mcd_mass_matrix(other, d, q, y), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_mass_matrix(m, d, q, NULL), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_node_jacobian(m, d, q, 5, MCD_REF_WORLD, y), MCD_ERR_ARG);
    /* a factorization is stale once another algorithm moved the kinematics */
    double q2[3] = {1.0, 2.5, 0}, M[9];
    ck_assert_int_eq(mcd_minv_factor(m, d, q), MCD_OK);
    ck_assert_int_eq(mcd_minv_solve(m, d, x, y), MCD_OK);
    ck_assert_int_eq(mcd_forward_kinematics(m, d, q2), MCD_OK);
    ck_assert_int_eq(mcd_minv_solve(m, d, x, y), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_minv_factor(m, d, q2), MCD_OK);
    ck_assert_int_eq(mcd_mass_matrix(m, d, q2, M), MCD_OK); /* moves the kinematics */
    ck_assert_int_eq(mcd_minv_solve(m, d, x, y), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_data_create(NULL, &d, NULL), MCD_ERR_ARG);
    mcd_data_free(d);
    mcd_model_free(m);
    mcd_model_free(other);
}
END_TEST

/* A massless inner body whose only child turns about the same axis through
 * its centre of mass cannot be accelerated about that axis: D = 0. */
START_TEST(singular_articulated_inertia_reported)
{
    mcd_builder *b = NULL;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    mcd_link_desc a = good_link("hub", -1);
    memset(&a.mass, 0, sizeof a.mass);
    int ia;
    ck_assert_int_eq(mcd_builder_add_link(b, &a, &ia, NULL), MCD_OK);
    mcd_link_desc w = good_link("wheel", ia);
    ck_assert_int_eq(mcd_builder_add_link(b, &w, NULL, NULL), MCD_OK);
    mcd_model *m = NULL;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_model_build(b, &m, &err), MCD_OK);
    mcd_builder_free(b);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double q[2] = {0}, qd[2] = {0}, tau[2] = {1, 0}, qdd[2];
    ck_assert_int_eq(mcd_forward_dynamics(m, d, q, qd, tau, NULL, qdd), MCD_ERR_SINGULAR);
    ck_assert_ptr_nonnull(strstr(mcd_data_error(d), "hub"));
    ck_assert_int_eq(mcd_minv_factor(m, d, q), MCD_ERR_SINGULAR);
    ck_assert_int_eq(mcd_minv_solve(m, d, tau, qdd), MCD_ERR_ARG);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

Suite *errors_suite(void)
{
    Suite *s = suite_create("model-errors");
    TCase *tc = tcase_create("errors");
    tcase_add_test(tc, negative_mass_names_the_link);
    tcase_add_test(tc, indefinite_inertia_rejected);
    tcase_add_test(tc, triangle_inequality_rejected);
    tcase_add_test(tc, asymmetric_inertia_rejected);
    tcase_add_test(tc, nonfinite_parameters_rejected);
    tcase_add_test(tc, duplicate_and_dangling_names);
    tcase_add_test(tc, massless_leaf_rejected);
    tcase_add_test(tc, zero_axis_and_bad_rotation);
    tcase_add_test(tc, fixed_links_merge_mass_properties);
    tcase_add_test(tc, bad_states_reported);
    tcase_add_test(tc, api_misuse_reported);
    tcase_add_test(tc, singular_articulated_inertia_reported);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(errors_suite());
}

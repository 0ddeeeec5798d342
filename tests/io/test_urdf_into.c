/* URDF import into a caller's builder (mcd_urdf_load_into and
 * mcd_urdf_load_string_into): name prefixes, the base pose of fixed and
 * floating bases, two robots in one builder with closures and world
 * geometry between them, and the same model as mcd_urdf_load_file. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "urdf_fixture.h"

#define TOL 1e-12

#define INERTIA_1 "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/>"
/* base --hinge (at x = 1)--> arm --fixed (at x = 2)--> tip */
static const char *const ARM =
    "<robot name='arm'>\n"
    "<link name='base'><inertial><mass value='1'/>" INERTIA_1 "</inertial>\n"
    "  <collision><geometry><sphere radius='0.1'/></geometry></collision></link>\n"
    "<link name='arm'><inertial><mass value='1'/>" INERTIA_1 "</inertial></link>\n"
    "<link name='tip'/>\n"
    "<joint name='hinge' type='continuous'><origin xyz='1 0 0'/><parent link='base'/>"
    "<child link='arm'/><axis xyz='0 0 1'/></joint>\n"
    "<joint name='weld' type='fixed'><origin xyz='2 0 0'/><parent link='arm'/>"
    "<child link='tip'/></joint>\n"
    "</robot>\n";

static mcd_builder *new_builder(void)
{
    mcd_builder *b = NULL;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    return b;
}

static void add_ok(mcd_builder *b, const char *prefix, const mcd_pose *pose, int floating,
                   int *root)
{
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.floating_base = floating;
    mcd_error err;
    mcd_status st = mcd_urdf_load_string_into(b, ARM, "arm.urdf", &opt, prefix, pose, root, &err);
    ck_assert_msg(st == MCD_OK, "%s", err.msg);
}

static mcd_model *build_ok(mcd_builder *b)
{
    mcd_model *m = NULL;
    mcd_error err;
    mcd_status st = mcd_model_build(b, &m, &err);
    ck_assert_msg(st == MCD_OK, "%s", err.msg);
    mcd_builder_free(b);
    return m;
}

static mcd_pose pose_xyz_yaw(double x, double y, double z, double yaw)
{
    mcd_pose X;
    mcd_m3_rpy(X.R, 0, 0, yaw);
    mcd_v3_set(X.p, x, y, z);
    return X;
}

static void check_pose(const mcd_pose *X, const mcd_pose *E)
{
    for (int i = 0; i < 9; i++) ck_assert_double_eq_tol(X->R[i], E->R[i], TOL);
    for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(X->p[i], E->p[i], TOL);
}

START_TEST(prefix_names_links_and_joints)
{
    mcd_builder *b = new_builder();
    int root = -7;
    add_ok(b, "r1/", NULL, 0, &root);
    ck_assert_int_eq(root, 0);
    ck_assert_int_eq(mcd_builder_find_link(b, "r1/tip"), 2);
    ck_assert_int_eq(mcd_builder_find_link(b, "tip"), -1);
    mcd_model *m = build_ok(b);
    ck_assert_int_eq(m->nbody, 1);
    ck_assert_str_eq(m->body_name[0], "r1/arm");
    ck_assert_str_eq(m->joint_name[0], "r1/hinge");
    ck_assert_str_eq(m->frame_name[0], "r1/base");
    ck_assert_str_eq(m->frame_name[2], "r1/tip");
    ck_assert_ptr_null(m->name); /* the builder's name is the caller's */
    mcd_model_free(m);
    /* NULL and "" are no prefix */
    b = new_builder();
    add_ok(b, "", NULL, 0, NULL);
    m = build_ok(b);
    ck_assert_str_eq(m->joint_name[0], "hinge");
    mcd_model_free(m);
}
END_TEST

START_TEST(fixed_base_pose)
{
    mcd_builder *b = new_builder();
    mcd_pose base = pose_xyz_yaw(1, 2, 3, M_PI / 2), E;
    add_ok(b, NULL, &base, 0, NULL);
    mcd_model *m = build_ok(b);
    ck_assert_int_eq(m->frame[0].body, -1);
    check_pose(&m->frame[0].pose, &base);
    /* the hinge frame is the base pose times the joint origin (1, 0, 0) */
    E = pose_xyz_yaw(1, 3, 3, M_PI / 2);
    check_pose(&m->body[0].X_tree, &E);
    ck_assert_int_eq(m->geom[0].body, -1);
    check_pose(&m->geom[0].pose, &base);
    mcd_model_free(m);
}
END_TEST

START_TEST(floating_base_pose)
{
    mcd_builder *b = new_builder();
    mcd_pose base = pose_xyz_yaw(0, 0, 1, 0.3), one = pose_xyz_yaw(1, 0, 0, 0);
    add_ok(b, "f_", &base, 1, NULL);
    mcd_model *m = build_ok(b);
    ck_assert_int_eq(m->nbody, 2);
    ck_assert_int_eq(m->body[0].jtype, MCD_JOINT_FREE);
    ck_assert_str_eq(m->joint_name[0], "f_base"); /* named after the prefixed root link */
    check_pose(&m->body[0].X_tree, &base);
    check_pose(&m->body[1].X_tree, &one);
    mcd_model_free(m);
}
END_TEST

START_TEST(two_robots_one_builder)
{
    mcd_builder *b = new_builder();
    mcd_pose left = pose_xyz_yaw(0, -1, 0, 0), right = pose_xyz_yaw(0, 1, 0, 0), I;
    mcd_pose_identity(&I);
    int root_l, root_r;
    add_ok(b, "l_", &left, 0, &root_l);
    add_ok(b, "r_", &right, 1, &root_r);
    ck_assert_int_eq(root_l, 0);
    ck_assert_int_eq(root_r, 3);
    mcd_error err;
    /* what URDF cannot say: a closure between the robots, world geometry */
    ck_assert_int_eq(mcd_builder_add_closure(b, "link", MCD_CLOSURE_BALL,
                                             mcd_builder_find_link(b, "l_tip"), &I,
                                             mcd_builder_find_link(b, "r_tip"), &I, 0, NULL, &err),
                     MCD_OK);
    mcd_geom floor = {.type = MCD_GEOM_PLANE, .body = -1};
    mcd_pose_identity(&floor.pose);
    ck_assert_int_eq(mcd_builder_add_geom(b, -1, &floor, &err), MCD_OK);
    mcd_model *m = build_ok(b);
    ck_assert_int_eq(m->nbody, 1 + 2);
    ck_assert_int_eq(m->nq, 1 + 7 + 1);
    ck_assert_int_eq(m->nframe, 6);
    ck_assert_int_ge(mcd_model_joint_index(m, "l_hinge"), 0);
    ck_assert_int_ge(mcd_model_joint_index(m, "r_hinge"), 0);
    ck_assert_int_eq(m->nclosure, 1);
    ck_assert_int_eq(m->closure[0].body_a, mcd_model_body_index(m, "l_arm"));
    ck_assert_int_eq(m->closure[0].body_b, mcd_model_body_index(m, "r_arm"));
    ck_assert_double_eq_tol(m->closure[0].pose_a.p[0], 2.0, TOL); /* tip merged into arm */
    ck_assert_int_eq(m->ngeom, 3);
    mcd_model_free(m);
}
END_TEST

START_TEST(clashing_names_need_a_prefix)
{
    mcd_builder *b = new_builder();
    int root = 5;
    add_ok(b, NULL, NULL, 0, NULL);
    mcd_error err;
    mcd_status st = mcd_urdf_load_string_into(b, ARM, "arm.urdf", NULL, NULL, NULL, &root, &err);
    ck_assert_int_eq(st, MCD_ERR_MODEL);
    ck_assert_int_eq(root, -1);
    ck_assert_msg(strstr(err.msg, "arm.urdf:2: <link name=\"base\">") != NULL, "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "duplicate link name") != NULL, "%s", err.msg);
    mcd_builder_free(b);
}
END_TEST

START_TEST(same_model_as_load_file)
{
    const char *path = source_file("models/arm3.urdf");
    mcd_model *direct = NULL, *m;
    mcd_error err;
    ck_assert_int_eq(mcd_urdf_load_file(path, NULL, &direct, &err), MCD_OK);
    mcd_builder *b = new_builder();
    int root;
    ck_assert_int_eq(mcd_urdf_load_into(b, path, NULL, NULL, NULL, &root, &err), MCD_OK);
    ck_assert_int_eq(root, 0);
    m = build_ok(b);
    ck_assert_int_eq(m->nbody, direct->nbody);
    ck_assert_int_eq(m->nframe, direct->nframe);
    ck_assert_int_eq(m->ngeom, direct->ngeom);
    ck_assert_double_eq_tol(m->total_mass, direct->total_mass, TOL);
    for (int k = 0; k < m->nbody; k++) {
        ck_assert_str_eq(m->joint_name[k], direct->joint_name[k]);
        check_pose(&m->body[k].X_tree, &direct->body[k].X_tree);
        ck_assert_double_eq_tol(m->body[k].mass.mass, direct->body[k].mass.mass, TOL);
    }
    for (int g = 0; g < m->ngeom; g++) check_pose(&m->geom[g].pose, &direct->geom[g].pose);
    mcd_model_free(m);
    mcd_model_free(direct);
}
END_TEST

START_TEST(errors_and_null_arguments)
{
    mcd_builder *b = new_builder();
    mcd_error err;
    int root = 3;
    ck_assert_int_eq(mcd_urdf_load_into(b, "/nonexistent/x.urdf", NULL, "p", NULL, &root, &err),
                     MCD_ERR_IO);
    ck_assert_int_eq(root, -1);
    ck_assert_msg(strstr(err.msg, "/nonexistent/x.urdf: cannot open") != NULL, "%s", err.msg);
    ck_assert_int_eq(mcd_urdf_load_string_into(b, "<robot", "t.urdf", NULL, NULL, NULL, NULL, &err),
                     MCD_ERR_PARSE);
    ck_assert_msg(strstr(err.msg, "t.urdf:1: malformed XML") != NULL, "%s", err.msg);
    ck_assert_int_eq(mcd_builder_nlinks(b), 0);
    ck_assert_int_eq(mcd_urdf_load_into(NULL, "x", NULL, NULL, NULL, NULL, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_urdf_load_into(b, NULL, NULL, NULL, NULL, NULL, NULL), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_urdf_load_string_into(NULL, ARM, NULL, NULL, NULL, NULL, NULL, NULL),
                     MCD_ERR_ARG);
    ck_assert_int_eq(mcd_urdf_load_string_into(b, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
                     MCD_ERR_ARG);
    mcd_builder_free(b);
}
END_TEST

static Suite *urdf_into_suite(void)
{
    Suite *s = suite_create("urdf-into");
    TCase *t = tcase_create("into-builder");
    tcase_add_test(t, prefix_names_links_and_joints);
    tcase_add_test(t, fixed_base_pose);
    tcase_add_test(t, floating_base_pose);
    tcase_add_test(t, two_robots_one_builder);
    tcase_add_test(t, clashing_names_need_a_prefix);
    tcase_add_test(t, same_model_as_load_file);
    tcase_add_test(t, errors_and_null_arguments);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(urdf_into_suite());
}

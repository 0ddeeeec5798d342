/* URDF import: real robot files, the URDF semantics checked by hand on small
 * strings (inertial rotation, fixed-joint merging, axes, limits), mesh file
 * resolution and the bundled models/arm3.urdf. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/check_main.h"
#include "urdf_fixture.h"

#define TOL 1e-12

static int count_type(const mcd_model *m, mcd_joint_type t)
{
    int n = 0;
    for (int k = 0; k < m->nbody; k++) n += m->body[k].jtype == t;
    return n;
}

static mcd_model *load_file_ok(const char *path, const mcd_urdf_options *opt)
{
    mcd_model *m = NULL;
    mcd_error err;
    mcd_status st = mcd_urdf_load_file(path, opt, &m, &err);
    ck_assert_msg(st == MCD_OK, "%s: %s", path, err.msg);
    return m;
}

/* Loads a shared URDF with a floating base and checks its sizes and mass;
 * w (may be NULL) receives the warnings. */
static mcd_model *check_floating_balanced(const char *rel, int nbody, int nq, int nv, warnings *w)
{
    warnings local = {0};
    if (!w) w = &local;
    mcd_urdf_options opt = fixture_options(1, w);
    opt.balance_inertia = 1;
    opt.ignore_mimic = 1; /* panda's finger; the default error is checked in panda */
    const char *path = shared_model(rel);
    mcd_model *m = load_file_ok(path, &opt);
    ck_assert_int_eq(m->nbody, nbody);
    ck_assert_int_eq(m->nq, nq);
    ck_assert_int_eq(m->nv, nv);
    ck_assert_int_eq(m->body[0].jtype, MCD_JOINT_FREE);
    ck_assert_double_eq_tol(m->total_mass, urdf_file_mass_sum(shared_model(rel)), 1e-9);
    printf("%-40s nbody %2d nq %2d nv %2d nframe %2d ngeom %2d mass %.6f kg, %d warnings\n", rel,
           m->nbody, m->nq, m->nv, m->nframe, m->ngeom, m->total_mass, w->count);
    return m;
}

static mcd_model *check_floating(const char *rel, int nbody, int nq, int nv)
{
    return check_floating_balanced(rel, nbody, nq, nv, NULL);
}

/* Every link of the file is a frame, every joint but the fixed ones a body. */
static void check_names(const mcd_model *m, const char *const *links, const char *const *joints)
{
    for (int i = 0; links[i]; i++)
        ck_assert_msg(mcd_model_frame_index(m, links[i]) >= 0, "no frame %s", links[i]);
    for (int i = 0; joints[i]; i++)
        ck_assert_msg(mcd_model_joint_index(m, joints[i]) >= 0, "no joint %s", joints[i]);
}

START_TEST(double_pendulum_fixed_base)
{
    warnings w = {0};
    mcd_urdf_options opt = fixture_options(0, &w);
    mcd_model *m =
        load_file_ok(shared_model("example-robot-data/double_pendulum_simple.urdf"), &opt);
    ck_assert_int_eq(m->nbody, 2);
    ck_assert_int_eq(m->nq, 2);
    ck_assert_int_eq(m->nv, 2);
    ck_assert_int_eq(w.count, 0);
    ck_assert_double_eq_tol(m->total_mass, 0.5, TOL); /* base_link (0.1 kg) is the world */
    int j1 = mcd_model_joint_index(m, "joint1"), l3 = mcd_model_frame_index(m, "link3");
    ck_assert_int_eq(j1, 0);
    ck_assert_double_eq_tol(m->body[j1].limits.damping, 0.05, TOL);
    ck_assert_double_eq_tol(m->body[j1].X_tree.p[0], 0.025, TOL);
    ck_assert_int_ge(l3, 0);
    ck_assert_int_eq(m->frame[l3].body, mcd_model_body_index(m, "link2"));
    ck_assert_double_eq_tol(m->frame[l3].pose.p[2], 0.2, TOL);
    ck_assert_int_eq(m->frame[mcd_model_frame_index(m, "base_link")].body, -1);
    ck_assert_int_eq(m->ngeom, 3);
    mcd_model_free(m);
}
END_TEST

START_TEST(double_pendulum_floating_base)
{
    mcd_model *m = check_floating("example-robot-data/double_pendulum_simple.urdf", 3, 9, 8);
    mcd_model_free(m);
}
END_TEST

START_TEST(panda)
{
    static const char *const links[] = {
        "panda_link0",    "panda_link7",      "panda_link8",       "panda_hand",
        "panda_hand_tcp", "panda_leftfinger", "panda_rightfinger", NULL};
    static const char *const joints[] = {"panda_joint1", "panda_joint7", "panda_finger_joint1",
                                         "panda_finger_joint2", NULL};
    const char *rel = "example-robot-data/panda_collision.urdf";
    /* the finger's <mimic> is an error naming the option that loads it */
    mcd_model *m = NULL;
    mcd_error err;
    ck_assert_int_eq(mcd_urdf_load_file(shared_model(rel), NULL, &m, &err), MCD_ERR_UNSUPPORTED);
    ck_assert_ptr_null(m);
    ck_assert_msg(strstr(err.msg, ":483: <mimic> in <joint name=\"panda_finger_joint2\">") &&
                      strstr(err.msg, "ignore_mimic") && strstr(err.msg, "--ignore-mimic"),
                  "%s", err.msg);
    warnings w = {0};
    mcd_urdf_options opt = fixture_options(0, &w);
    opt.ignore_mimic = 1;
    m = load_file_ok(shared_model(rel), &opt);
    ck_assert_int_eq(m->nbody, 9);
    ck_assert_int_eq(m->nq, 9);
    ck_assert_int_eq(m->nv, 9);
    ck_assert_int_eq(count_type(m, MCD_JOINT_REVOLUTE), 7);
    ck_assert_int_eq(count_type(m, MCD_JOINT_PRISMATIC), 2);
    ck_assert_int_eq(m->ngeom, 39);
    check_names(m, links, joints);
    /* fixed base: panda_link0 (0.629769 kg) is part of the world */
    ck_assert_double_eq_tol(m->total_mass, urdf_file_mass_sum(shared_model(rel)) - 0.629769, 1e-9);
    ck_assert_int_eq(m->frame[mcd_model_frame_index(m, "panda_hand")].body,
                     mcd_model_body_index(m, "panda_link7"));
    const mcd_body *b = &m->body[mcd_model_joint_index(m, "panda_joint1")];
    ck_assert_int_eq(b->limits.has_position_limits, 1);
    ck_assert_double_eq_tol(b->limits.lower, -2.8973, TOL);
    ck_assert_double_eq_tol(b->limits.upper, 2.8973, TOL);
    ck_assert_double_eq_tol(b->limits.effort, 87.0, TOL);
    ck_assert_double_eq_tol(b->limits.velocity, 2.175, TOL);
    ck_assert_double_eq_tol(b->limits.damping, 0.003, TOL);
    ck_assert_msg(warnings_contain(&w, "<mimic>"), "no warning about <mimic>");
    ck_assert_msg(!warnings_contain(&w, "visual"), "visual meshes are never read: %s", w.text[0]);
    mcd_model_free(m);
    mcd_model_free(check_floating(rel, 10, 16, 15));
}
END_TEST

START_TEST(a1)
{
    static const char *const links[] = {
        "base", "trunk", "imu_link", "FR_foot", "RL_foot", "FL_thigh_shoulder", NULL};
    static const char *const joints[] = {"FR_hip_joint", "RL_calf_joint", NULL};
    mcd_model *m = check_floating("example-robot-data/a1.urdf", 13, 19, 18);
    check_names(m, links, joints);
    ck_assert_int_eq(count_type(m, MCD_JOINT_REVOLUTE), 12);
    ck_assert_int_eq(m->frame[mcd_model_frame_index(m, "trunk")].body, 0);
    ck_assert_int_eq(m->ngeom, 22);
    mcd_model_free(m);
}
END_TEST

START_TEST(solo12)
{
    static const char *const joints[] = {"FL_HAA", "FL_HFE", "FL_KFE", "HR_KFE", NULL};
    static const char *const links[] = {"base_link", "FL_FOOT", "HR_FOOT", NULL};
    warnings w = {0};
    mcd_urdf_options opt = fixture_options(1, &w);
    mcd_model *m = check_floating("example-robot-data/solo12.urdf", 13, 19, 18);
    check_names(m, links, joints);
    for (int g = 0; g < m->ngeom; g++)
        if (m->geom[g].type == MCD_GEOM_MESH)
            ck_assert_msg(strncmp(m->geom[g].mesh_path, "package://", 10) == 0, "%s",
                          m->geom[g].mesh_path);
    mcd_model_free(m);
    m = load_file_ok(shared_model("example-robot-data/solo12.urdf"), &opt);
    ck_assert_msg(warnings_contain(&w, "collision mesh \"package://"), "%s", w.text[0]);
    mcd_model_free(m);
}
END_TEST

START_TEST(anymal_c)
{
    static const char *const joints[] = {"LF_HAA", "RH_KFE", NULL};
    static const char *const links[] = {"base", "LF_FOOT", "RH_FOOT", "depth_camera_front_camera",
                                        NULL};
    const char *rel = "example-robot-data/anymal_c_simple.urdf";
    /* the camera's inertia (line 203, izz copied from ixy) is not realizable;
     * the message names the option that repairs it */
    mcd_model *m = NULL;
    mcd_error err;
    mcd_urdf_options floating = mcd_urdf_default_options();
    floating.floating_base = 1;
    ck_assert_int_eq(mcd_urdf_load_file(shared_model(rel), &floating, &m, &err), MCD_ERR_MODEL);
    ck_assert_msg(strstr(err.msg, "anymal_c_simple.urdf:193: <link name=\"depth_camera_front_"
                                  "camera\">") != NULL,
                  "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "triangle inequality") != NULL, "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "balance_inertia") && strstr(err.msg, "--balance-inertia"), "%s",
                  err.msg);
    /* fixed base: the camera is welded to the world, its inertia irrelevant */
    ck_assert_int_eq(mcd_urdf_load_file(shared_model(rel), NULL, &m, &err), MCD_OK);
    mcd_model_free(m);
    /* loads with balance_inertia, saying which inertia it changed */
    warnings w = {0};
    m = check_floating_balanced(rel, 13, 19, 18, &w);
    check_names(m, links, joints);
    ck_assert_msg(warnings_contain(&w, ":203: <inertia> in <link name=\"depth_camera_front_camera"
                                       "\">: principal moments"),
                  "no balance_inertia warning");
    mcd_model_free(m);
}
END_TEST

START_TEST(humanoid_version_0_0_continuous)
{
    static const char *const links[] = {"torso", "lwaist", "pelvis", "link1_2", NULL};
    mcd_model *m = check_floating("bullet3/humanoid.urdf", 22, 28, 27);
    check_names(m, links, (const char *const[]){NULL});
    for (int k = 1; k < m->nbody; k++) {
        ck_assert_int_eq(m->body[k].jtype, MCD_JOINT_REVOLUTE); /* continuous */
        ck_assert_int_eq(m->body[k].limits.has_position_limits, 0);
    }
    ck_assert_int_eq(m->ngeom, 19);
    int capsules = 0;
    for (int g = 0; g < m->ngeom; g++) capsules += m->geom[g].type == MCD_GEOM_CAPSULE;
    ck_assert_int_eq(capsules, 16);
    ck_assert_double_eq_tol(m->geom[0].size[0], 0.07, TOL);
    ck_assert_double_eq_tol(m->geom[0].size[1], 0.07, TOL); /* half of length 0.14 */
    mcd_model_free(m);
}
END_TEST

/* One body whose inertia is written in a rotated, offset inertial frame. */
static mcd_model *rotated_inertial(const char *rpy)
{
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<robot name='r'><link name='b'><inertial>"
             "<origin xyz='0.1 0.2 0.3' rpy='%s'/><mass value='2'/>"
             "<inertia ixx='1' ixy='0' ixz='0' iyy='2' iyz='0' izz='2.5'/>"
             "</inertial></link></robot>",
             rpy);
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.floating_base = 1;
    return load_string_ok(xml, &opt);
}

static void expect_inertia(const mcd_model *m, const double expected[9])
{
    const mcd_mass_props *mp = &m->body[0].mass;
    ck_assert_double_eq_tol(mp->mass, 2.0, TOL);
    ck_assert_double_eq_tol(mp->com[0], 0.1, TOL);
    ck_assert_double_eq_tol(mp->com[1], 0.2, TOL);
    ck_assert_double_eq_tol(mp->com[2], 0.3, TOL);
    for (int i = 0; i < 9; i++) ck_assert_double_eq_tol(mp->inertia[i], expected[i], 1e-12);
}

START_TEST(inertial_rpy_rotates_the_inertia)
{
    /* yaw 90 deg: x -> y, so the link x axis sees iyy */
    mcd_model *m = rotated_inertial("0 0 1.5707963267948966");
    expect_inertia(m, (const double[9]){2, 0, 0, 0, 1, 0, 0, 0, 2.5});
    mcd_model_free(m);
    /* roll 90 deg: y -> z */
    m = rotated_inertial("1.5707963267948966 0 0");
    expect_inertia(m, (const double[9]){1, 0, 0, 0, 2.5, 0, 0, 0, 2});
    mcd_model_free(m);
    /* yaw 45 deg: xx = yy = (1 + 2)/2, xy = (1 - 2) cos sin = -0.5 */
    m = rotated_inertial("0 0 0.7853981633974483");
    expect_inertia(m, (const double[9]){1.5, -0.5, 0, -0.5, 1.5, 0, 0, 0, 2.5});
    mcd_model_free(m);
}
END_TEST

/* base (2 kg, com 0, I = diag 1) and, fixed 1 m along x and turned 90 deg
 * about z, tool (1 kg, I = diag(0.1, 0.2, 0.25)) with a sphere. */
static const char merged_xml[] =
    "<robot name='merge'>\n"
    "<link name='base'><inertial><mass value='2'/>"
    "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial></link>\n"
    "<joint name='mount' type='fixed'><origin xyz='1 0 0' rpy='0 0 1.5707963267948966'/>"
    "<parent link='base'/><child link='tool'/></joint>\n"
    "<link name='tool'><inertial><mass value='1'/>"
    "<inertia ixx='0.1' ixy='0' ixz='0' iyy='0.2' iyz='0' izz='0.25'/></inertial>"
    "<collision><origin xyz='0 0 0.5'/><geometry><sphere radius='0.1'/></geometry></collision>"
    "</link>\n"
    "</robot>\n";

START_TEST(fixed_joint_merges_mass)
{
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.floating_base = 1;
    mcd_model *m = load_string_ok(merged_xml, &opt);
    ck_assert_int_eq(m->nbody, 1);
    ck_assert_int_eq(m->nq, 7);
    const mcd_mass_props *mp = &m->body[0].mass;
    ck_assert_double_eq_tol(mp->mass, 3.0, TOL);
    ck_assert_double_eq_tol(m->total_mass, 3.0, TOL);
    /* com = (2 * 0 + 1 * 1) / 3 along x */
    ck_assert_double_eq_tol(mp->com[0], 1.0 / 3.0, TOL);
    ck_assert_double_eq_tol(mp->com[1], 0.0, TOL);
    /* about the combined com: base d = -1/3, tool d = 2/3 (parallel axis on y, z);
     * the tool's inertia turned by 90 deg about z: diag(0.2, 0.1, 0.25) */
    double par = 2.0 / 9.0 + 4.0 / 9.0;
    ck_assert_double_eq_tol(mp->inertia[0], 1.0 + 0.2, TOL);
    ck_assert_double_eq_tol(mp->inertia[4], 1.0 + 0.1 + par, TOL);
    ck_assert_double_eq_tol(mp->inertia[8], 1.0 + 0.25 + par, TOL);
    ck_assert_double_eq_tol(mp->inertia[1], 0.0, TOL);
    int tool = mcd_model_frame_index(m, "tool");
    ck_assert_int_ge(tool, 0);
    ck_assert_int_eq(m->frame[tool].body, 0);
    ck_assert_double_eq_tol(m->frame[tool].pose.p[0], 1.0, TOL);
    ck_assert_double_eq_tol(m->frame[tool].pose.R[3], 1.0, TOL); /* tool x is base y */
    ck_assert_int_eq(m->ngeom, 1);
    ck_assert_int_eq(m->geom[0].body, 0);
    ck_assert_double_eq_tol(m->geom[0].pose.p[0], 1.0, TOL);
    ck_assert_double_eq_tol(m->geom[0].pose.p[2], 0.5, TOL);
    mcd_model_free(m);
}
END_TEST

START_TEST(joint_axis_origin_limits)
{
    static const char xml[] =
        "<?xml version='1.0'?>\n"
        "<robot name='j'>\n"
        "<link name='a'/>\n"
        "<joint name='slide' type='prismatic'><origin xyz='0 0 1' rpy='0 0 0'/>"
        "<parent link='a'/><child link='b'/><axis xyz='0 0 2'/>"
        "<limit lower='-0.5' upper='0.5' effort='10' velocity='1'/>"
        "<dynamics damping='0.7' friction='0.2'/></joint>\n"
        "<link name='b'><inertial><mass value='1'/>"
        "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial></link>\n"
        "<joint name='hinge' type='revolute'><parent link='b'/><child link='c'/>"
        "<limit effort='3' velocity='2'/></joint>\n"
        "<link name='c'><inertial><mass value='1'/>"
        "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial></link>\n"
        "<joint name='float' type='floating'><parent link='c'/><child link='d'/></joint>\n"
        "<link name='d'><inertial><mass value='1'/>"
        "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial></link>\n"
        "<gazebo reference='a'><mu1>0.5</mu1></gazebo>\n"
        "<transmission name='t'><joint name='hinge'/></transmission>\n"
        "<mujoco><compiler meshdir='x'/></mujoco>\n"
        "<material name='red'><color rgba='1 0 0 1'/></material>\n"
        "</robot>\n";
    mcd_model *m = load_string_ok(xml, NULL);
    ck_assert_int_eq(m->nbody, 3);
    ck_assert_int_eq(m->nq, 1 + 1 + 7);
    ck_assert_int_eq(m->nv, 1 + 1 + 6);
    const mcd_body *s = &m->body[0], *h = &m->body[1], *f = &m->body[2];
    ck_assert_int_eq(s->jtype, MCD_JOINT_PRISMATIC);
    ck_assert_double_eq_tol(s->axis[2], 1.0, TOL);
    ck_assert_double_eq_tol(s->X_tree.p[2], 1.0, TOL);
    ck_assert_int_eq(s->limits.has_position_limits, 1);
    ck_assert_double_eq_tol(s->limits.lower, -0.5, TOL);
    ck_assert_double_eq_tol(s->limits.damping, 0.7, TOL);
    ck_assert_double_eq_tol(s->limits.friction, 0.2, TOL);
    ck_assert_int_eq(h->jtype, MCD_JOINT_REVOLUTE);
    ck_assert_double_eq_tol(h->axis[0], 1.0, TOL); /* the URDF default axis */
    ck_assert_int_eq(h->limits.has_position_limits, 0);
    ck_assert_double_eq_tol(h->limits.effort, 3.0, TOL);
    ck_assert_int_eq(f->jtype, MCD_JOINT_FREE);
    ck_assert_double_eq_tol(m->total_mass, 3.0, TOL);
    mcd_model_free(m);
}
END_TEST

START_TEST(shapes_map_to_geom_sizes)
{
    static const char xml[] =
        "<robot name='s'><link name='a'><inertial><mass value='1'/>"
        "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial>"
        "<collision><geometry><box size='0.2 0.4 0.6'/></geometry></collision>"
        "<collision><geometry><cylinder radius='0.1' length='0.5'/></geometry></collision>"
        "<collision><origin rpy='0 0 0' xyz='1 2 3'/>"
        "<geometry><sphere radius='0.3'/></geometry></collision>"
        "</link></robot>";
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.floating_base = 1;
    mcd_model *m = load_string_ok(xml, &opt);
    ck_assert_int_eq(m->ngeom, 3);
    ck_assert_int_eq(m->geom[0].type, MCD_GEOM_BOX);
    ck_assert_double_eq_tol(m->geom[0].size[2], 0.3, TOL);
    ck_assert_int_eq(m->geom[1].type, MCD_GEOM_CYLINDER);
    ck_assert_double_eq_tol(m->geom[1].size[1], 0.25, TOL);
    ck_assert_int_eq(m->geom[2].type, MCD_GEOM_SPHERE);
    ck_assert_double_eq_tol(m->geom[2].pose.p[1], 2.0, TOL);
    mcd_model_free(m);
}
END_TEST

/* ---- mesh files -------------------------------------------------------- */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static const char mesh_xml[] =
    "<robot name='m'><link name='a'><inertial><mass value='1'/>"
    "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial>"
    "<visual><geometry><mesh filename='%s'/></geometry></visual>"
    "<collision><geometry><mesh filename='%s' scale='2 2 2'/></geometry></collision>"
    "</link></robot>";

/* Loads mesh_xml with the given mesh file name as a file in dir. */
static mcd_model *load_mesh_file(const char *dir, const char *uri, const mcd_urdf_options *opt)
{
    char xml[1024], path[1024];
    snprintf(xml, sizeof xml, mesh_xml, uri, uri);
    snprintf(path, sizeof path, "%s/robot.urdf", dir);
    write_file(path, xml);
    return load_file_ok(path, opt);
}

START_TEST(package_uris_resolve_against_the_search_path)
{
    char dir[] = "/tmp/mcdyn-urdf-XXXXXX", path[1024];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/pkgs", dir);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/pkgs/robot", dir);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/pkgs/robot/part.stl", dir);
    /* one triangle: the visual mesh is read (a mesh without one warns) */
    write_file(path, "solid part\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
                     "vertex 0 1 0\nendloop\nendfacet\nendsolid part\n");
    char empty[1024], pkgs[1024];
    snprintf(empty, sizeof empty, "%s/nothing-here", dir);
    snprintf(pkgs, sizeof pkgs, "%s/pkgs", dir);
    const char *search[] = {empty, pkgs};

    warnings w = {0};
    mcd_urdf_options opt = fixture_options(1, &w);
    opt.package_paths = search;
    opt.npackage_paths = 2;
    mcd_model *m = load_mesh_file(dir, "package://robot/part.stl", &opt);
    ck_assert_int_eq(w.count, 0);
    ck_assert_int_eq(m->geom[0].type, MCD_GEOM_MESH);
    ck_assert_str_eq(m->geom[0].mesh_path, path);
    ck_assert_double_eq_tol(m->geom[0].size[0], 2.0, TOL);
    mcd_model_free(m);

    /* without the search path: loads, the URI is kept, the collision mesh
     * warns (the visual one, not found either, silently gives way to the
     * collision shape) */
    opt.npackage_paths = 1;
    m = load_mesh_file(dir, "package://robot/part.stl", &opt);
    ck_assert_int_eq(w.count, 1);
    ck_assert_str_eq(m->geom[0].mesh_path, "package://robot/part.stl");
    ck_assert_msg(warnings_contain(&w, "robot.urdf:1: <mesh> in <link name=\"a\">: collision mesh"),
                  "%s", w.text[0]);
    mcd_model_free(m);

    /* ROS_PACKAGE_PATH after the options' paths: a directory holding the
     * package, or the package directory itself */
    w.count = 0;
    char ros[2100];
    snprintf(ros, sizeof ros, "%s:%s", empty, pkgs);
    ck_assert_int_eq(setenv("ROS_PACKAGE_PATH", ros, 1), 0);
    m = load_mesh_file(dir, "package://robot/part.stl", &opt);
    ck_assert_str_eq(m->geom[0].mesh_path, path);
    mcd_model_free(m);
    snprintf(ros, sizeof ros, "%s/robot/", pkgs);
    ck_assert_int_eq(setenv("ROS_PACKAGE_PATH", ros, 1), 0);
    m = load_mesh_file(dir, "package://robot/part.stl", &opt);
    ck_assert_str_eq(m->geom[0].mesh_path, path);
    mcd_model_free(m);
    ck_assert_int_eq(unsetenv("ROS_PACKAGE_PATH"), 0);
    ck_assert_int_eq(w.count, 0);

    /* relative to the URDF's directory, and file:// */
    w.count = 0;
    m = load_mesh_file(dir, "pkgs/robot/part.stl", &opt);
    ck_assert_str_eq(m->geom[0].mesh_path, path);
    mcd_model_free(m);
    char uri[1100];
    snprintf(uri, sizeof uri, "file://%s", path);
    m = load_mesh_file(dir, uri, &opt);
    ck_assert_str_eq(m->geom[0].mesh_path, path);
    ck_assert_int_eq(w.count, 0);
    mcd_model_free(m);

    /* a missing relative file: resolved path recorded, warned */
    m = load_mesh_file(dir, "missing.stl", &opt);
    snprintf(path, sizeof path, "%s/missing.stl", dir);
    ck_assert_str_eq(m->geom[0].mesh_path, path);
    ck_assert_int_eq(w.count, 1);
    ck_assert_msg(warnings_contain(&w, "collision mesh \"missing.stl\" not found"), "%s",
                  w.text[0]);
    mcd_model_free(m);

    snprintf(path, sizeof path, "rm -r '%s'", dir);
    ck_assert_int_eq(system(path), 0);
}
END_TEST

/* ---- visual geometry -------------------------------------------------- */

/* <visual> shapes are read like <collision> ones and kept apart from them;
 * a link without a usable visual is drawn by its collision shapes: no
 * visual, a visual mesh file that does not exist (silently) and a visual
 * that does not parse (with a warning). A visual on a link merged by a
 * fixed joint is carried onto the body like a geom. */
START_TEST(visual_shapes_and_fallback)
{
    static const char fmt[] =
        "<robot name='v'>\n"
        "<link name='a'><inertial><mass value='1'/>"
        "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial>"
        "<visual><origin xyz='0 0 0.1'/><geometry><box size='0.2 0.4 0.6'/></geometry>"
        "<material name='red'><color rgba='1 0 0 1'/></material></visual>"
        "<visual><geometry><sphere radius='0.05'/></geometry></visual>"
        "<visual><geometry><cylinder radius='0.1' length='0.5'/></geometry></visual>"
        "<visual><geometry><mesh filename='%s' scale='1 2 3'/></geometry></visual>"
        "<collision><geometry><sphere radius='0.3'/></geometry></collision></link>\n"
        "<link name='b'><inertial><mass value='1'/>"
        "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' "
        "izz='1'/></inertial><collision><geometry><box size='1 1 "
        "1'/></geometry></collision></link>\n"
        "<joint name='ab' type='revolute'><parent link='a'/><child link='b'/>"
        "<limit lower='-1' upper='1' effort='1' velocity='1'/></joint>\n"
        "<link name='c'><visual><geometry><mesh filename='/nonexistent/c.stl'/></geometry>"
        "</visual><collision><geometry><cylinder radius='0.2' length='1'/></geometry>"
        "</collision></link>\n"
        "<joint name='bc' type='fixed'><parent link='b'/><child link='c'/>"
        "<origin xyz='0 0 2'/></joint>\n"
        "<link name='d'><visual><geometry/></visual>"
        "<collision><geometry><sphere radius='0.1'/></geometry></collision></link>\n"
        "<joint name='ad' type='fixed'><parent link='a'/><child link='d'/></joint>\n"
        "<link name='e'><visual><origin xyz='1 0 0'/><geometry><sphere radius='0.2'/>"
        "</geometry></visual></link>\n"
        "<joint name='ae' type='fixed'><parent link='a'/><child link='e'/>"
        "<origin xyz='0 3 0'/></joint>\n"
        "</robot>";
    char xml[4096], mesh[1024];
    snprintf(mesh, sizeof mesh, "%s", source_file("tests/io/data/tetra.obj"));
    snprintf(xml, sizeof xml, fmt, mesh);
    warnings w = {0};
    mcd_urdf_options opt = fixture_options(1, &w);
    mcd_model *m = load_string_ok(xml, &opt);
    ck_assert_msg(w.count == 1 && warnings_contain(&w, "visual left out"), "%d: %s", w.count,
                  w.text[0]);
    ck_assert_int_eq(m->nbody, 2);
    ck_assert_int_eq(m->ngeom, 4);   /* a, b, c, d */
    ck_assert_int_eq(m->nvisual, 8); /* a: 4, b, c, d: their collision shapes, e: 1 */
    const mcd_geom *v = m->visual;
    const int a = mcd_model_body_index(m, "a"), b = mcd_model_body_index(m, "b");
    ck_assert_int_eq(v[0].type, MCD_GEOM_BOX);
    ck_assert_int_eq(v[0].body, a);
    ck_assert_double_eq_tol(v[0].size[2], 0.3, TOL);
    ck_assert_double_eq_tol(v[0].pose.p[2], 0.1, TOL);
    ck_assert_int_eq(v[1].type, MCD_GEOM_SPHERE);
    ck_assert_int_eq(v[2].type, MCD_GEOM_CYLINDER);
    ck_assert_double_eq_tol(v[2].size[1], 0.25, TOL);
    ck_assert_int_eq(v[3].type, MCD_GEOM_MESH);
    ck_assert_str_eq(v[3].mesh_path, mesh);
    ck_assert_double_eq_tol(v[3].size[2], 3.0, TOL);
    ck_assert_int_eq(v[4].type, MCD_GEOM_BOX); /* b: its collision box */
    ck_assert_int_eq(v[4].body, b);
    ck_assert_int_eq(v[5].type, MCD_GEOM_CYLINDER); /* c: the mesh is missing */
    ck_assert_int_eq(v[5].body, b);
    ck_assert_double_eq_tol(v[5].pose.p[2], 2.0, TOL);
    ck_assert_ptr_null(v[5].mesh_path);
    ck_assert_int_eq(v[6].type, MCD_GEOM_SPHERE); /* d: the visual does not parse */
    ck_assert_double_eq_tol(v[6].size[0], 0.1, TOL);
    ck_assert_int_eq(v[7].body, a); /* e, merged into a: origin (0 3 0) + (1 0 0) */
    ck_assert_double_eq_tol(v[7].pose.p[0], 1.0, TOL);
    ck_assert_double_eq_tol(v[7].pose.p[1], 3.0, TOL);
    /* the collision geometry is untouched by the visuals */
    ck_assert_int_eq(m->geom[0].type, MCD_GEOM_SPHERE);
    ck_assert_double_eq_tol(m->geom[0].size[0], 0.3, TOL);
    mcd_model_free(m);
}
END_TEST

START_TEST(no_warning_sink_needed)
{
    mcd_model *m = NULL;
    mcd_error err;
    ck_assert_int_eq(mcd_urdf_load_file(shared_model("example-robot-data/a1.urdf"), NULL, &m, &err),
                     MCD_OK);
    ck_assert_int_eq(m->nq, 12); /* fixed base by default */
    mcd_model_free(m);
}
END_TEST

/* As bullet3's KUKA iiwa: a root link of zero mass and nonzero inertia,
 * with a fixed child. Welded to the world (fixed base) its mass properties
 * never enter the dynamics and it loads, the fixed child too; on a free
 * joint it is a body and the builder rejects it, naming the link. */
START_TEST(zero_mass_root_welded_to_the_world)
{
    static const char xml[] =
        "<robot name='iiwa'>\n"
        "<link name='lbr_iiwa_link_0'><inertial><mass value='0'/>"
        "<inertia ixx='0.05' ixy='0' ixz='0' iyy='0.06' iyz='0' izz='0.03'/></inertial></link>\n"
        "<link name='plate'><inertial><mass value='0'/>"
        "<inertia ixx='1' ixy='0' ixz='0' iyy='0.1' iyz='0' izz='0.1'/></inertial></link>\n"
        "<joint name='weld' type='fixed'><parent link='lbr_iiwa_link_0'/><child link='plate'/>"
        "</joint>\n"
        "<link name='lbr_iiwa_link_1'><inertial><mass value='4'/>"
        "<inertia ixx='0.1' ixy='0' ixz='0' iyy='0.09' iyz='0' izz='0.02'/></inertial></link>\n"
        "<joint name='J0' type='revolute'><parent link='lbr_iiwa_link_0'/>"
        "<child link='lbr_iiwa_link_1'/><axis xyz='0 0 1'/>"
        "<limit lower='-2.9' upper='2.9' effort='300' velocity='10'/></joint>\n"
        "</robot>";
    mcd_model *m = load_string_ok(xml, NULL);
    ck_assert_int_eq(m->nbody, 1);
    ck_assert_double_eq_tol(m->total_mass, 4.0, TOL);
    mcd_model_free(m);
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.floating_base = 1;
    mcd_error err;
    ck_assert_int_eq(mcd_urdf_load_string(xml, "iiwa.urdf", &opt, &m, &err), MCD_ERR_MODEL);
    ck_assert_ptr_null(m);
    ck_assert_msg(strstr(err.msg, "iiwa.urdf:2: <link name=\"lbr_iiwa_link_0\">") &&
                      strstr(err.msg, "zero mass with non-zero inertia"),
                  "%s", err.msg);
}
END_TEST

/* ---- the bundled arm --------------------------------------------------- */

START_TEST(bundled_arm3)
{
    warnings w = {0};
    mcd_urdf_options opt = fixture_options(0, &w);
    mcd_model *m = load_file_ok(source_file("models/arm3.urdf"), &opt);
    ck_assert_int_eq(w.count, 0);
    ck_assert_int_eq(m->nbody, 3);
    ck_assert_int_eq(m->nq, 3);
    ck_assert_int_eq(m->nv, 3);
    ck_assert_str_eq(m->name, "arm3");
    ck_assert_double_eq_tol(m->body[0].axis[2], 1.0, TOL);
    ck_assert_double_eq_tol(m->body[1].axis[1], 1.0, TOL);
    ck_assert_double_eq_tol(m->body[2].axis[0], 1.0, TOL);
    /* base (2 kg) is the world; tool (0.3 kg) merged into the forearm */
    ck_assert_double_eq_tol(m->total_mass, 1.5 + 2.0 + 1.2 + 0.3, 1e-12);
    int tool = mcd_model_frame_index(m, "tool");
    ck_assert_int_eq(m->frame[tool].body, mcd_model_body_index(m, "forearm"));
    /* upper arm: the cylinder's axis inertia 0.0016 ends on the link x axis */
    ck_assert_double_eq_tol(m->body[1].mass.inertia[0], 0.0016, 1e-9);
    ck_assert_double_eq_tol(m->body[1].mass.inertia[8], 0.0274667, 1e-9);
    ck_assert_int_eq(m->ngeom, 5);
    ck_assert_int_eq(m->geom[0].body, -1);
    mcd_model_free(m);
}
END_TEST

static Suite *urdf_suite(void)
{
    Suite *s = suite_create("urdf");
    TCase *real = tcase_create("real-files");
    tcase_add_test(real, double_pendulum_fixed_base);
    tcase_add_test(real, double_pendulum_floating_base);
    tcase_add_test(real, panda);
    tcase_add_test(real, a1);
    tcase_add_test(real, solo12);
    tcase_add_test(real, anymal_c);
    tcase_add_test(real, humanoid_version_0_0_continuous);
    tcase_add_test(real, no_warning_sink_needed);
    tcase_add_test(real, zero_mass_root_welded_to_the_world);
    suite_add_tcase(s, real);
    TCase *sem = tcase_create("semantics");
    tcase_add_test(sem, inertial_rpy_rotates_the_inertia);
    tcase_add_test(sem, fixed_joint_merges_mass);
    tcase_add_test(sem, joint_axis_origin_limits);
    tcase_add_test(sem, shapes_map_to_geom_sizes);
    tcase_add_test(sem, package_uris_resolve_against_the_search_path);
    tcase_add_test(sem, visual_shapes_and_fallback);
    tcase_add_test(sem, bundled_arm3);
    suite_add_tcase(s, sem);
    return s;
}

int main(void)
{
    return run_suite(urdf_suite());
}

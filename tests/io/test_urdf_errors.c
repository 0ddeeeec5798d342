/* URDF import: malformed and unsupported input. Each case checks the status
 * and that the message names the file, the line and the element (or the
 * link the builder rejects); nothing crashes, leaks or prints. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check_main.h"
#include "urdf_fixture.h"

#define INERTIA_1 "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/>"
#define BODY(name)                                                                                 \
    "<link name='" name "'><inertial><mass value='1'/>" INERTIA_1 "</inertial></link>\n"
#define JOINT(name, type, parent, child)                                                           \
    "<joint name='" name "' type='" type "'><parent link='" parent "'/><child link='" child        \
    "'/></joint>\n"

/* ---- XML level ---------------------------------------------------------- */

START_TEST(truncated_file)
{
    expect_string_error("<?xml version='1.0'?>\n"
                        "<robot name='r'>\n"
                        "  <link name='a'>\n"
                        "    <inertial>\n",
                        MCD_ERR_PARSE, "bad.urdf:", "malformed XML", "Premature end", NULL);
}
END_TEST

START_TEST(not_xml)
{
    expect_string_error("this is not a robot\n", MCD_ERR_PARSE, "bad.urdf:1: malformed XML", NULL);
    expect_string_error("", MCD_ERR_PARSE, "bad.urdf", "malformed XML", NULL);
    expect_string_error("<robot name='r'>\n<link name='a'></joint>\n</robot>\n", MCD_ERR_PARSE,
                        "bad.urdf:2: malformed XML", NULL);
}
END_TEST

START_TEST(not_a_robot)
{
    expect_string_error("<?xml version='1.0'?>\n<sdf version='1.6'/>\n", MCD_ERR_PARSE,
                        "bad.urdf:2: <sdf>", "not a URDF", NULL);
    expect_string_error("<robot name='r'>\n</robot>\n", MCD_ERR_MODEL, "bad.urdf:1:", "no <link>",
                        NULL);
}
END_TEST

START_TEST(only_version_0_0_is_tolerated)
{
    mcd_model *m =
        load_string_ok("<?xml version='0.0'?>\n<robot name='r'>" BODY("a") "</robot>", NULL);
    mcd_model_free(m);
    expect_string_error("<?xml version='2.0'?>\n<robot name='r'>" BODY("a") "</robot>",
                        MCD_ERR_PARSE, "bad.urdf:1: malformed XML", "version", NULL);
}
END_TEST

START_TEST(libxml2_prints_nothing)
{
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    FILE *capture = tmpfile();
    ck_assert_ptr_nonnull(capture);
    dup2(fileno(capture), STDERR_FILENO);
    mcd_model *m = NULL;
    mcd_error err;
    const char *bad[] = {"garbage", "<robot><link name='a'>", "<?xml version='0.5'?><robot/>",
                         "<robot name='r' xmlns:x='http://x'><x:link/><link name='a'/>",
                         "<!DOCTYPE robot SYSTEM 'http://example.com/robot.dtd'><robot/>"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_int_ne(mcd_urdf_load_string(bad[i], "quiet.urdf", NULL, &m, &err), MCD_OK);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    fseek(capture, 0, SEEK_END);
    ck_assert_int_eq(ftell(capture), 0);
    fclose(capture);
}
END_TEST

START_TEST(missing_file)
{
    mcd_model *m = NULL;
    mcd_error err;
    const char *path = "/nonexistent/dir/robot.urdf";
    ck_assert_int_eq(mcd_urdf_load_file(path, NULL, &m, &err), MCD_ERR_IO);
    ck_assert_ptr_null(m);
    ck_assert_msg(strstr(err.msg, path) != NULL, "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "No such file") != NULL, "%s", err.msg);
    ck_assert_int_eq(mcd_urdf_load_file("/", NULL, &m, &err), MCD_ERR_IO);
    ck_assert_msg(strstr(err.msg, "/: cannot read") != NULL, "%s", err.msg);
}
END_TEST

START_TEST(null_arguments)
{
    mcd_model *m = NULL;
    ck_assert_int_eq(mcd_urdf_load_file(NULL, NULL, &m, NULL), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_urdf_load_string(NULL, NULL, NULL, &m, NULL), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_urdf_load_string("<robot/>", NULL, NULL, NULL, NULL), MCD_ERR_ARG);
    /* a NULL error buffer is allowed */
    ck_assert_int_eq(mcd_urdf_load_string("<robot/>", NULL, NULL, &m, NULL), MCD_ERR_PARSE);
}
END_TEST

/* ---- elements and attributes -------------------------------------------- */

START_TEST(unknown_and_unsupported_joint_types)
{
    expect_string_error("<robot name='r'>\n" BODY("a") BODY("b")
                            JOINT("j", "hinge", "a", "b") "</robot>\n",
                        MCD_ERR_PARSE, "bad.urdf:4: <joint name=\"j\">", "\"hinge\"", NULL);
    expect_string_error("<robot name='r'>\n" BODY("a") BODY("b")
                            JOINT("slider", "planar", "a", "b") "</robot>\n",
                        MCD_ERR_UNSUPPORTED, "bad.urdf:4: <joint name=\"slider\">", "planar", NULL);
}
END_TEST

START_TEST(missing_required_attributes)
{
    expect_string_error("<robot name='r'>\n<link/>\n</robot>", MCD_ERR_PARSE, "bad.urdf:2: <link>",
                        "missing attribute 'name'", NULL);
    expect_string_error("<robot name='r'>\n<link name=''/>\n</robot>", MCD_ERR_PARSE,
                        "bad.urdf:2: <link name=\"\">", "empty attribute 'name'", NULL);
    expect_string_error("<robot>\n" BODY("a") "</robot>", MCD_ERR_PARSE, "bad.urdf:1: <robot>",
                        "'name'", NULL);
    expect_string_error(
        "<robot name='r'>\n" BODY("a")
            BODY("b") "<joint name='j'><parent link='a'/><child link='b'/></joint>\n</robot>",
        MCD_ERR_PARSE, "bad.urdf:4: <joint name=\"j\">", "'type'", NULL);
    expect_string_error("<robot name='r'>\n" BODY("a") BODY(
                            "b") "<joint name='j' type='fixed'><child link='b'/></joint>\n</robot>",
                        MCD_ERR_PARSE, "bad.urdf:4: <joint name=\"j\">", "missing <parent>", NULL);
    expect_string_error(
        "<robot name='r'>\n" BODY("a")
            BODY("b") "<joint name='j' type='fixed'><parent/><child link='b'/></joint>\n"
                      "</robot>",
        MCD_ERR_PARSE, "bad.urdf:4: <parent> in <joint name=\"j\">", "'link'", NULL);
    expect_string_error("<robot name='r'>\n<link name='a'>\n<inertial>\n<mass/>\n" INERTIA_1
                        "</inertial></link></robot>",
                        MCD_ERR_PARSE, "bad.urdf:4: <mass> in <link name=\"a\">", "'value'", NULL);
    expect_string_error("<robot name='r'>\n<link name='a'>\n<inertial>\n<mass value='1'/>\n"
                        "<inertia ixx='1' ixy='0' ixz='0' iyy='1' izz='1'/>"
                        "</inertial></link></robot>",
                        MCD_ERR_PARSE, "bad.urdf:5: <inertia> in <link name=\"a\">", "'iyz'", NULL);
    expect_string_error("<robot name='r'>\n<link name='a'>\n<inertial>\n<mass value='1'/>\n"
                        "</inertial></link></robot>",
                        MCD_ERR_PARSE, "bad.urdf:3: <inertial> in <link name=\"a\">",
                        "missing <inertia>", NULL);
    expect_string_error("<robot name='r'>\n<link name='a'>\n<collision><geometry>\n<sphere/>\n"
                        "</geometry></collision></link></robot>",
                        MCD_ERR_PARSE, "bad.urdf:4: <sphere> in <link name=\"a\">", "'radius'",
                        NULL);
    expect_string_error("<robot name='r'>\n<link name='a'>\n<collision><geometry>\n<mesh/>\n"
                        "</geometry></collision></link></robot>",
                        MCD_ERR_PARSE, "bad.urdf:4: <mesh> in <link name=\"a\">", "'filename'",
                        NULL);
    expect_string_error("<robot name='r'>\n<link name='a'>\n<collision>\n</collision>"
                        "</link></robot>",
                        MCD_ERR_PARSE, "bad.urdf:3: <collision> in <link name=\"a\">",
                        "missing <geometry>", NULL);
}
END_TEST

START_TEST(bad_numbers)
{
    /* NaN, Inf and overflow in an origin */
    static const char *const values[] = {"0 nan 0", "inf 0 0", "0 0 1e999", "0 -NAN 0"};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char xml[1024];
        snprintf(xml, sizeof xml,
                 "<robot name='r'>\n" BODY(
                     "a") "<joint name='j' type='fixed'>\n"
                          "  <origin xyz='%s'/>\n"
                          "  <parent link='a'/><child link='b'/></joint>\n" BODY("b") "</robot>\n",
                 values[i]);
        expect_string_error(xml, MCD_ERR_NONFINITE, "bad.urdf:4: <origin> in <joint name=\"j\">",
                            "xyz", NULL);
    }
    /* wrong counts and garbage */
    expect_string_error("<robot name='r'>\n<link name='a'>\n<collision><origin xyz='1 2'/>"
                        "<geometry><sphere radius='1'/></geometry></collision></link></robot>",
                        MCD_ERR_PARSE, "bad.urdf:3: <origin> in <link name=\"a\">",
                        "xyz=\"1 2\": expected 3 numbers", NULL);
    expect_string_error("<robot name='r'>\n<link name='a'>\n<collision><origin rpy='1 2 3 4'/>"
                        "<geometry><sphere radius='1'/></geometry></collision></link></robot>",
                        MCD_ERR_PARSE, "bad.urdf:3: <origin>", "expected 3 numbers", NULL);
    expect_string_error("<robot name='r'>\n<link name='a'>\n<collision><origin rpy='1,2,3'/>"
                        "<geometry><sphere radius='1'/></geometry></collision></link></robot>",
                        MCD_ERR_PARSE, "bad.urdf:3: <origin>", "not a number", NULL);
    expect_string_error(
        "<robot name='r'>\n<link name='a'>\n<inertial>\n<mass value='1kg'/>\n" INERTIA_1
        "</inertial></link></robot>",
        MCD_ERR_PARSE, "bad.urdf:4: <mass>", "value=\"1kg\": not a number", NULL);
    expect_string_error(
        "<robot name='r'>\n<link name='a'>\n<inertial>\n<mass value=''/>\n" INERTIA_1
        "</inertial></link></robot>",
        MCD_ERR_PARSE, "bad.urdf:4: <mass>", "expected 1 number", NULL);
}
END_TEST

START_TEST(bad_shapes_limits_axes)
{
    expect_string_error("<robot name='r'>\n<link name='a'>\n<collision><geometry>\n"
                        "<sphere radius='-1'/></geometry></collision></link></robot>",
                        MCD_ERR_MODEL, "bad.urdf:4: <sphere>", "negative", NULL);
    expect_string_error("<robot name='r'>\n<link name='a'>\n<collision><geometry>\n"
                        "<cone radius='1'/></geometry></collision></link></robot>",
                        MCD_ERR_UNSUPPORTED, "bad.urdf:4: <cone> in <link name=\"a\">",
                        "unsupported collision shape", NULL);
    expect_string_error("<robot name='r'>\n<link name='a'>\n<collision><geometry>\n"
                        "<box size='1 1 1'/><sphere radius='1'/></geometry></collision>"
                        "</link></robot>",
                        MCD_ERR_PARSE, "bad.urdf:4: <sphere>", "more than one shape", NULL);
    expect_string_error(
        "<robot name='r'>\n" BODY("a")
            BODY("b") "<joint name='j' type='revolute'><parent link='a'/><child link='b'/>\n"
                      "<limit lower='1' upper='-1'/></joint>\n</robot>",
        MCD_ERR_MODEL, "bad.urdf:5: <limit> in <joint name=\"j\">", "lower limit", NULL);
    expect_string_error(
        "<robot name='r'>\n" BODY("a")
            BODY("b") "<joint name='j' type='revolute'><parent link='a'/><child link='b'/>\n"
                      "<axis xyz='0 0 0'/></joint>\n</robot>",
        MCD_ERR_MODEL, "bad.urdf:5: <axis> in <joint name=\"j\">", "zero joint axis", NULL);
    expect_string_error(
        "<robot name='r'>\n" BODY("a")
            BODY("b") "<joint name='j' type='revolute'><parent link='a'/><child link='b'/>\n"
                      "<dynamics damping='-0.1'/></joint>\n</robot>",
        MCD_ERR_MODEL, "bad.urdf:5: <dynamics> in <joint name=\"j\">", "damping: negative", NULL);
    expect_string_error("<robot name='r'>\n<link name='a'>\n<inertial/>\n<inertial/>\n"
                        "</link></robot>",
                        MCD_ERR_PARSE, "bad.urdf:4: <inertial> in <link name=\"a\">",
                        "more than one <inertial>", NULL);
}
END_TEST

/* ---- mass properties (validated by the builder, named by the link) -------- */

static void expect_mass_error(const char *mass, const char *inertia, const char *fragment)
{
    char xml[1024];
    snprintf(
        xml, sizeof xml,
        "<robot name='r'>\n" BODY(
            "base") "<joint name='elbow' type='revolute'>"
                    "<parent link='base'/><child link='forearm'/></joint>\n"
                    "<link name='forearm'>\n<inertial><mass value='%s'/>\n%s</inertial></link>\n"
                    "</robot>\n",
        mass, inertia);
    expect_string_error(xml, MCD_ERR_MODEL, "bad.urdf:4: <link name=\"forearm\">", "forearm",
                        fragment, NULL);
}

START_TEST(negative_mass)
{
    expect_mass_error("-1.5", INERTIA_1, "negative mass");
}
END_TEST

START_TEST(inertia_not_positive)
{
    expect_mass_error("1", "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='-0.5'/>",
                      "not positive semidefinite");
    expect_mass_error("1", "<inertia ixx='1' ixy='2' ixz='0' iyy='1' iyz='0' izz='1'/>",
                      "not positive semidefinite");
}
END_TEST

START_TEST(inertia_triangle_inequality)
{
    expect_mass_error("1", "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='3'/>",
                      "triangle inequality");
}
END_TEST

START_TEST(massless_leaf_body)
{
    /* detected when the model is built, located through the link name */
    expect_string_error("<robot name='r'>\n" BODY("a") "<link name='b'/>\n" JOINT(
                            "j", "continuous", "a", "b") "</robot>",
                        MCD_ERR_MODEL, "bad.urdf:3: <link name=\"b\">", "positive mass", NULL);
}
END_TEST

/* ---- tree structure ------------------------------------------------------ */

START_TEST(duplicate_names)
{
    expect_string_error("<robot name='r'>\n" BODY("a") BODY("a") "</robot>", MCD_ERR_MODEL,
                        "bad.urdf:3: <link name=\"a\">", "duplicate link name (first at line 2)",
                        NULL);
    expect_string_error("<robot name='r'>\n" BODY("a") BODY("b") BODY("c")
                            JOINT("j", "fixed", "a", "b") JOINT("j", "fixed", "a", "c") "</robot>",
                        MCD_ERR_MODEL, "bad.urdf:6: <joint name=\"j\">",
                        "duplicate joint name (first at line 5)", NULL);
}
END_TEST

START_TEST(two_roots)
{
    expect_string_error("<robot name='r'>\n" BODY("a") BODY("b") "</robot>", MCD_ERR_MODEL,
                        "bad.urdf:3: <link name=\"b\">", "second root link", "\"a\", line 2", NULL);
}
END_TEST

START_TEST(unknown_links)
{
    expect_string_error("<robot name='r'>\n" BODY("a") JOINT("j", "fixed", "a", "ghost") "</robot>",
                        MCD_ERR_MODEL, "bad.urdf:3: <joint name=\"j\">",
                        "unknown child link \"ghost\"", NULL);
    expect_string_error("<robot name='r'>\n" BODY("a") JOINT("j", "fixed", "ghost", "a") "</robot>",
                        MCD_ERR_MODEL, "bad.urdf:3: <joint name=\"j\">",
                        "unknown parent link \"ghost\"", NULL);
}
END_TEST

START_TEST(cycles_and_two_parents)
{
    expect_string_error("<robot name='r'>\n" BODY("a") BODY("b") BODY("c")
                            JOINT("j1", "fixed", "a", "c")
                                JOINT("j2", "fixed", "b", "c") "</robot>",
                        MCD_ERR_MODEL, "bad.urdf:6: <joint name=\"j2\">",
                        "\"c\" already has a parent joint (line 5)", NULL);
    expect_string_error("<robot name='r'>\n" BODY("root") BODY("a") BODY("b")
                            JOINT("j1", "fixed", "a", "b")
                                JOINT("j2", "fixed", "b", "a") "</robot>",
                        MCD_ERR_MODEL, "bad.urdf:3: <link name=\"a\">", "kinematic cycle", NULL);
    expect_string_error("<robot name='r'>\n" BODY("a") BODY("b") JOINT("j1", "fixed", "a", "b")
                            JOINT("j2", "fixed", "b", "a") "</robot>",
                        MCD_ERR_MODEL, "bad.urdf:1: <robot name=\"r\">", "no root link", NULL);
    expect_string_error("<robot name='r'>\n" BODY("a") JOINT("j", "fixed", "a", "a") "</robot>",
                        MCD_ERR_MODEL, "bad.urdf:3: <joint name=\"j\">", "its own parent", NULL);
}
END_TEST

static Suite *urdf_errors_suite(void)
{
    Suite *s = suite_create("urdf-errors");
    TCase *xml = tcase_create("xml");
    tcase_add_test(xml, truncated_file);
    tcase_add_test(xml, not_xml);
    tcase_add_test(xml, not_a_robot);
    tcase_add_test(xml, only_version_0_0_is_tolerated);
    tcase_add_test(xml, libxml2_prints_nothing);
    tcase_add_test(xml, missing_file);
    tcase_add_test(xml, null_arguments);
    suite_add_tcase(s, xml);
    TCase *elements = tcase_create("elements");
    tcase_add_test(elements, unknown_and_unsupported_joint_types);
    tcase_add_test(elements, missing_required_attributes);
    tcase_add_test(elements, bad_numbers);
    tcase_add_test(elements, bad_shapes_limits_axes);
    suite_add_tcase(s, elements);
    TCase *mass = tcase_create("mass");
    tcase_add_test(mass, negative_mass);
    tcase_add_test(mass, inertia_not_positive);
    tcase_add_test(mass, inertia_triangle_inequality);
    tcase_add_test(mass, massless_leaf_body);
    suite_add_tcase(s, mass);
    TCase *tree = tcase_create("tree");
    tcase_add_test(tree, duplicate_names);
    tcase_add_test(tree, two_roots);
    tcase_add_test(tree, unknown_links);
    tcase_add_test(tree, cycles_and_two_parents);
    suite_add_tcase(s, tree);
    return s;
}

int main(void)
{
    return run_suite(urdf_errors_suite());
}

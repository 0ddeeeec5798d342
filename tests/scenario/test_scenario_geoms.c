/* A scenario robot's geoms: collision shapes added to its links
 * (src/io/scenario_robot_geom.c), on top of the URDF's <collision> or, with
 * ignore_collision, instead of them. Checked: where each shape lands in the
 * model (body, type, size, pose in the body frame), that the collision
 * layer uses it (a ball resting on its new sphere), the solo12 scenes'
 * shapes, and the errors. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "mcdyn/mcdyn.h"
#include "mcdyn/runner.h"
#include "scenario_fixture.h"

/* data/ball.urdf: a 1 kg ball with a sphere of radius 0.5 m. */
#define BALL_ROBOT "robots:\n  - urdf: ball.urdf\n    base: floating\n"
#define GROUND     "environment:\n  - {name: ground, type: plane}\n"

/* The geoms of body b, in model order. */
static int body_geoms(const mcd_model *m, int b, const mcd_geom **out, int cap)
{
    int n = 0;
    for (int g = 0; g < m->ngeom; g++)
        if (m->geom[g].body == b && n < cap) out[n++] = &m->geom[g];
    return n;
}

/* A box added to the ball's link, 1 m above its centre and turned by 90
 * degrees about z: the model holds the URDF's sphere and then the box, on
 * the ball's body, with the given half extents and pose (the ball's link
 * frame is its body frame: the pose passes unchanged). */
START_TEST(geom_added_to_link)
{
    mcd_scenario *s = load_string_ok(BALL_ROBOT "    geoms:\n"
                                                "      - {link: ball, type: box, half_extents: "
                                                "[0.1, 0.2, 0.3], xyz: [0, 0, 1], rpy: [0, 0, "
                                                "1.5707963267948966]}\n" GROUND);
    const mcd_model *m = s->model;
    int b = mcd_model_body_index(m, "ball");
    const mcd_geom *g[4];
    ck_assert_int_eq(body_geoms(m, b, g, 4), 2);
    ck_assert_int_eq(g[0]->type, MCD_GEOM_SPHERE);
    ck_assert_int_eq(g[1]->type, MCD_GEOM_BOX);
    ck_assert_double_eq_tol(g[1]->size[1], 0.2, 1e-15);
    ck_assert_double_eq_tol(g[1]->pose.p[2], 1.0, 1e-15);
    /* R = Rz(pi/2): the geom's x axis is the body's y axis. */
    ck_assert_double_eq_tol(g[1]->pose.R[3], 1.0, 1e-15);
    ck_assert_double_eq_tol(g[1]->pose.R[0], 0.0, 1e-15);
    mcd_scenario_free(s);
}
END_TEST

/* ignore_collision drops the URDF's sphere; the prefix is not written in
 * the geom's link. */
START_TEST(ignore_collision_replaces_urdf_shapes)
{
    mcd_scenario *s =
        load_string_ok(BALL_ROBOT "    prefix: p_\n"
                                  "    ignore_collision: true\n"
                                  "    geoms:\n"
                                  "      - {link: ball, type: sphere, radius: 0.25}\n");
    const mcd_model *m = s->model;
    const mcd_geom *g[4];
    ck_assert_int_eq(body_geoms(m, mcd_model_body_index(m, "p_ball"), g, 4), 1);
    ck_assert_int_eq(g[0]->type, MCD_GEOM_SPHERE);
    ck_assert_double_eq_tol(g[0]->size[0], 0.25, 1e-15);
    mcd_scenario_free(s);
}
END_TEST

/* The collision layer uses the new shape: the ball with its URDF sphere
 * (0.5 m) replaced by one of 0.25 m, placed at rest with that sphere on the
 * ground, stays there for 0.2 s (the contact holds it: height within 1e-6 m,
 * the penetration correction keeps the gap at rounding). Without the shape
 * it would fall freely, g t^2 / 2 = 0.196 m. */
START_TEST(new_shape_carries_the_body)
{
    mcd_scenario *s = load_string_ok("robots:\n  - urdf: ball.urdf\n    base: floating\n"
                                     "    position: [0, 0, 0.25]\n"
                                     "    ignore_collision: true\n"
                                     "    geoms:\n"
                                     "      - {link: ball, type: sphere, radius: 0.25}\n" GROUND
                                     "duration: 0.2\n");
    mcd_runner *r = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_runner_create(s, NULL, &r, &err) == MCD_OK, "%s", err.msg);
    mcd_sim *sim = mcd_runner_sim(r);
    double z0 = mcd_sim_q(sim)[2]; /* the free joint's z (MuJoCo's layout) */
    for (int k = 0; k < 200; k++)
        ck_assert_msg(mcd_sim_step(sim, NULL) == MCD_OK, "%s", mcd_sim_error(sim));
    ck_assert_double_eq_tol(mcd_sim_q(sim)[2], z0, 1e-6);
    mcd_runner_free(r);
    mcd_scenario_free(s);
}
END_TEST

/* models/solo12_drop_upright.yaml: the shared solo12.urdf's collision meshes
 * are absent; with ignore_collision the scene loads with no warning and
 * 13 shapes on the robot (base box; per leg two capsules and a foot sphere)
 * plus the ground. */
START_TEST(solo12_scene_shapes)
{
    char *path = NULL;
    const char *src = getenv("MCDYN_SOURCE");
    ck_assert_ptr_nonnull(src);
    size_t len = strlen(src) + 64;
    ck_assert_ptr_nonnull(path = malloc(len));
    snprintf(path, len, "%s/models/solo12_drop_upright.yaml", src);
    mcd_scenario *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load(path, &s, &err) == MCD_OK, "%s", err.msg);
    ck_assert_int_eq(s->nwarning, 0);
    ck_assert_int_eq(s->model->ngeom, 14);
    int foot = mcd_model_frame_index(s->model, "FL_FOOT");
    ck_assert_int_ge(foot, 0);
    mcd_scenario_free(s);
    free(path);
}
END_TEST

START_TEST(geom_errors)
{
    expect_error(BALL_ROBOT "    geoms:\n      - {link: nope, type: sphere, radius: 1}\n",
                 MCD_ERR_MODEL, "bad.yaml:5:16: key 'robots[0].geoms[0].link'", "no link 'nope' in",
                 NULL);
    expect_error(BALL_ROBOT "    geoms:\n      - {link: ball, type: plane}\n", MCD_ERR_MODEL,
                 "key 'robots[0].geoms[0]'", "a plane belongs to the environment", NULL);
    expect_error(BALL_ROBOT "    geoms:\n      - {name: x, type: sphere, radius: 1}\n",
                 MCD_ERR_PARSE, "key 'robots[0].geoms[0].name'", "unknown key", "link", NULL);
    expect_error(BALL_ROBOT "    geoms:\n      - {type: sphere, radius: 1}\n", MCD_ERR_PARSE,
                 "key 'robots[0].geoms[0].link'", "missing", NULL);
    expect_error(BALL_ROBOT
                 "    geoms:\n      - {link: ball, type: box, half_extents: [1, 0, 1]}\n",
                 MCD_ERR_ARG, "key 'robots[0].geoms[0].half_extents", NULL);
    expect_error(BALL_ROBOT "    geoms: []\n", MCD_ERR_PARSE, "key 'robots[0].geoms'",
                 "at least 1 item", NULL);
    expect_error(BALL_ROBOT "    ignore_collision: 3\n", MCD_ERR_PARSE,
                 "key 'robots[0].ignore_collision'", NULL);
    /* A link of the second robot named from the first. */
    expect_error(BALL_ROBOT "    geoms:\n      - {link: q_ball, type: sphere, radius: 1}\n"
                            "  - {urdf: ball.urdf, prefix: q_, base: floating}\n",
                 MCD_ERR_MODEL, "no link 'q_ball'", NULL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("scenario-geoms");
    TCase *tc = tcase_create("geoms");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, geom_added_to_link);
    tcase_add_test(tc, ignore_collision_replaces_urdf_shapes);
    tcase_add_test(tc, new_shape_carries_the_body);
    tcase_add_test(tc, solo12_scene_shapes);
    tcase_add_test(tc, geom_errors);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

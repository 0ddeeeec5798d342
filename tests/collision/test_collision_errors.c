/* Errors of the collision layer: capacity, non-finite poses, mesh files,
 * options and arguments. Each is a status with a message; nothing crashes
 * and nothing is written past a buffer. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check_main.h"
#include "collision_fixture.h"

static void expect_msg(const mcd_error *err, const char *fragment)
{
    ck_assert_msg(strstr(err->msg, fragment) != NULL, "message '%s' lacks '%s'", err->msg,
                  fragment);
}

/* A plane and a 4-corner box resting on it. */
static void resting_box(scene *s, const mcd_collision_options *o)
{
    mcd_error err = {0};
    scene_begin(s);
    scene_geom(s, -1, MCD_GEOM_PLANE, 0, 0, 0, NULL, NULL);
    int b = scene_free_body(s, "box");
    scene_geom(s, b, MCD_GEOM_BOX, 0.1, 0.1, 0.1, NULL, NULL);
    ck_assert_msg(scene_finish(s, o, &err) == MCD_OK, "%s", err.msg);
    scene_place(s, "box", 0, 0, 0.099, NULL);
    ck_assert_int_eq(mcd_forward_kinematics(s->m, s->d, s->d->q), MCD_OK);
}

START_TEST(capacity_exceeded)
{
    scene s;
    mcd_error err = {0};
    resting_box(&s, NULL);
    mcd_contact c[3];
    memset(c, 0x5a, sizeof c);
    int n = -1;
    mcd_status st = mcd_collision_detect(s.w, s.m, s.d, c, 2, &n, &err);
    ck_assert_int_eq(st, MCD_ERR_CAPACITY);
    ck_assert_int_eq(n, 2);
    expect_msg(&err, "capacity 2");
    expect_msg(&err, "more");
    unsigned char guard[sizeof c[2]];
    memset(guard, 0x5a, sizeof guard);
    ck_assert(memcmp(&c[2], guard, sizeof guard) == 0); /* untouched past capacity */
    ck_assert_double_eq_tol(c[0].gap, -1e-3, 1e-15);
    st = mcd_collision_detect(s.w, s.m, s.d, c, 0, &n, &err);
    ck_assert_int_eq(st, MCD_ERR_CAPACITY);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(mcd_collision_detect(s.w, s.m, s.d, s.c, 4, &n, &err), MCD_OK);
    ck_assert_int_eq(n, 4);
    scene_free(&s);
}
END_TEST

START_TEST(world_buffer)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.capacity = 8;
    resting_box(&s, &o);
    int n = -1, m = -1;
    ck_assert_int_eq(mcd_collision_detect(s.w, s.m, s.d, NULL, 0, &n, &err), MCD_OK);
    ck_assert_int_eq(n, 4);
    const mcd_contact *c = mcd_collision_world_contacts(s.w, &m);
    ck_assert_int_eq(m, 4);
    ck_assert_double_eq_tol(c[3].gap, -1e-3, 1e-15);
    scene_free(&s);
    o.capacity = 3;
    resting_box(&s, &o);
    ck_assert_int_eq(mcd_collision_detect(s.w, s.m, s.d, NULL, 0, &n, &err), MCD_ERR_CAPACITY);
    mcd_collision_world_contacts(s.w, &m);
    ck_assert_int_eq(m, 3);
    scene_free(&s);
}
END_TEST

START_TEST(nonfinite_pose)
{
    scene s;
    mcd_error err = {0};
    resting_box(&s, NULL);
    int n = -1;
    s.d->bd[0].X_world.p[1] = NAN;
    ck_assert_int_eq(mcd_collision_detect(s.w, s.m, s.d, s.c, SCENE_CAPACITY, &n, &err),
                     MCD_ERR_NONFINITE);
    ck_assert_int_eq(n, 0);
    expect_msg(&err, "'box'");
    ck_assert_int_eq(mcd_forward_kinematics(s.m, s.d, s.d->q), MCD_OK);
    s.d->bd[0].X_world.R[4] = INFINITY;
    ck_assert_int_eq(mcd_collision_detect(s.w, s.m, s.d, s.c, SCENE_CAPACITY, &n, &err),
                     MCD_ERR_NONFINITE);
    /* the world is unharmed */
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 4);
    scene_free(&s);
}
END_TEST

static mcd_status mesh_world(const char *path, mcd_error *err)
{
    scene s;
    scene_begin(&s);
    int b = scene_free_body(&s, "b");
    scene_geom(&s, b, MCD_GEOM_MESH, 1, 1, 1, NULL, path);
    mcd_status st = scene_finish(&s, NULL, err);
    ck_assert_ptr_null(st == MCD_OK ? NULL : s.w);
    scene_free(&s);
    return st;
}

START_TEST(mesh_errors)
{
    mcd_error err = {0};
    ck_assert_int_eq(mesh_world("/nonexistent/dir/part.stl", &err), MCD_ERR_IO);
    expect_msg(&err, "link 'b': mesh '/nonexistent/dir/part.stl'");
    ck_assert_int_eq(mesh_world("package://robot/meshes/link.STL", &err), MCD_ERR_IO);
    expect_msg(&err, "package://robot/meshes/link.STL");
    ck_assert_int_eq(mesh_world("/some/where/link.notamesh", &err), MCD_ERR_UNSUPPORTED);
    expect_msg(&err, "/some/where/link.notamesh");
    ck_assert_int_eq(mesh_world(data_path("bad.obj"), &err), MCD_ERR_PARSE);
    expect_msg(&err, "bad.obj");
    ck_assert_int_eq(mesh_world(data_path("flat.obj"), &err), MCD_ERR_MODEL);
    expect_msg(&err, "flat.obj");

    char path[] = "/tmp/mcdyn-collision-XXXXXX.stl";
    int fd = mkstemps(path, 4);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "solid empty\nendsolid empty\n", 27), 27);
    close(fd);
    ck_assert_int_eq(mesh_world(path, &err), MCD_ERR_PARSE);
    expect_msg(&err, "no vertices");
    FILE *f = fopen(path, "wb"); /* binary with a wrong triangle count */
    unsigned char junk[100] = {0};
    junk[80] = 7;
    fwrite(junk, 1, sizeof junk, f);
    fclose(f);
    ck_assert_int_eq(mesh_world(path, &err), MCD_ERR_PARSE);
    expect_msg(&err, path);
    f = fopen(path, "w");
    /* a whole facet with a NaN vertex (Assimp reads it; a truncated facet
     * is an Assimp error too, but Debian's Assimp 5.2 leaks its mesh) */
    fputs("solid s\n facet normal 0 0 1\n outer loop\n vertex 0 0 nan\n vertex 1 0 0\n"
          " vertex 0 1 0\n endloop\n endfacet\nendsolid s\n",
          f);
    fclose(f);
    ck_assert_int_eq(mesh_world(path, &err), MCD_ERR_PARSE);
    expect_msg(&err, path);
    expect_msg(&err, "not finite");
    unlink(path);
}
END_TEST

START_TEST(option_errors)
{
    scene s;
    mcd_error err = {0};
    scene_begin(&s);
    int b = scene_free_body(&s, "b");
    scene_geom(&s, b, MCD_GEOM_SPHERE, 0.1, 0, 0, NULL, NULL);
    ck_assert_int_eq(scene_finish(&s, NULL, &err), MCD_OK);
    mcd_collision_world *w = NULL;
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = -1e-3;
    ck_assert_int_eq(mcd_collision_world_create(s.m, &o, &w, &err), MCD_ERR_ARG);
    expect_msg(&err, "activation_distance");
    o.activation_distance = NAN;
    ck_assert_int_eq(mcd_collision_world_create(s.m, &o, &w, &err), MCD_ERR_ARG);
    o = mcd_collision_options_default();
    o.bullet_activation_distance = -1e-9;
    ck_assert_int_eq(mcd_collision_world_create(s.m, &o, &w, &err), MCD_ERR_ARG);
    expect_msg(&err, "bullet_activation_distance must be finite and >= 0 (is -1e-09)");
    o.bullet_activation_distance = INFINITY;
    ck_assert_int_eq(mcd_collision_world_create(s.m, &o, &w, &err), MCD_ERR_ARG);
    expect_msg(&err, "bullet_activation_distance");
    o = mcd_collision_options_default();
    o.plane_iterations = 65;
    ck_assert_int_eq(mcd_collision_world_create(s.m, &o, &w, &err), MCD_ERR_ARG);
    o = mcd_collision_options_default();
    const int ex[2] = {0, 5};
    o.exclude = ex;
    o.nexclude = 1;
    ck_assert_int_eq(mcd_collision_world_create(s.m, &o, &w, &err), MCD_ERR_ARG);
    expect_msg(&err, "body 5");
    o.exclude = NULL;
    ck_assert_int_eq(mcd_collision_world_create(s.m, &o, &w, &err), MCD_ERR_ARG);
    o = mcd_collision_options_default();
    o.capacity = -1;
    ck_assert_int_eq(mcd_collision_world_create(s.m, &o, &w, &err), MCD_ERR_ARG);
    ck_assert_ptr_null(w);
    ck_assert_int_eq(mcd_collision_world_create(NULL, NULL, &w, &err), MCD_ERR_ARG);

    int n = -1;
    ck_assert_int_eq(mcd_collision_detect(NULL, s.m, s.d, s.c, 1, &n, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_collision_detect(s.w, s.m, s.d, s.c, 1, NULL, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_collision_detect(s.w, s.m, s.d, s.c, -1, &n, &err), MCD_ERR_ARG);
    scene other;
    scene_begin(&other);
    int k = scene_free_body(&other, "k");
    scene_geom(&other, k, MCD_GEOM_SPHERE, 0.1, 0, 0, NULL, NULL);
    ck_assert_int_eq(scene_finish(&other, NULL, &err), MCD_OK);
    ck_assert_int_eq(mcd_collision_detect(s.w, other.m, other.d, s.c, 1, &n, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_collision_detect(s.w, s.m, other.d, s.c, 1, &n, &err), MCD_ERR_ARG);
    scene_free(&other);
    scene_free(&s);
    mcd_collision_world_free(NULL);
}
END_TEST

START_TEST(invalid_sizes)
{
    scene s;
    mcd_error err = {0};
    scene_begin(&s);
    int b = scene_free_body(&s, "b");
    scene_geom(&s, b, MCD_GEOM_CAPSULE, 0.1, -0.5, 0, NULL, NULL);
    ck_assert_int_eq(scene_finish(&s, NULL, &err), MCD_ERR_MODEL);
    expect_msg(&err, "capsule");
    scene_free(&s);
    scene_begin(&s);
    b = scene_free_body(&s, "b");
    scene_geom(&s, b, MCD_GEOM_MESH, 1, 0, 1, NULL, data_path("cube.obj"));
    ck_assert_int_eq(scene_finish(&s, NULL, &err), MCD_ERR_MODEL);
    expect_msg(&err, "mesh");
    scene_free(&s);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("collision-errors");
    TCase *tc = tcase_create("errors");
    tcase_add_test(tc, capacity_exceeded);
    tcase_add_test(tc, world_buffer);
    tcase_add_test(tc, nonfinite_pose);
    tcase_add_test(tc, mesh_errors);
    tcase_add_test(tc, option_errors);
    tcase_add_test(tc, invalid_sizes);
    suite_add_tcase(su, tc);
    return run_suite(su);
}

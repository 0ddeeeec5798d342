/* Convex mesh geoms: STL (ASCII, binary), OBJ and COLLADA files loaded (by
 * Assimp) as convex hulls, scaled by the geom size, against planes, boxes
 * and spheres. Debian's Assimp stores vertices in single precision: a
 * coordinate x written in decimal comes back within 2^-24 |x| (6e-8
 * relative), so tolerances on values that are not exact in float are 1e-8
 * for coordinates of order 0.1 m, instead of the 1e-12 of a double parse. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collision_fixture.h"
#include "common/check_main.h"

/* Writes a binary STL of the box with the given half extents (12
 * triangles); the 80-byte header starts with "solid" to check that the
 * size, not the header, decides the format. */
static void write_binary_box(const char *path, double hx, double hy, double hz)
{
    static const int tri[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7},
                                   {0, 1, 5}, {0, 5, 4}, {1, 2, 6}, {1, 6, 5},
                                   {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
    float v[8][3];
    for (int k = 0; k < 8; k++) {
        v[k][0] = (float)((k == 1 || k == 2 || k == 5 || k == 6) ? hx : -hx);
        v[k][1] = (float)((k == 2 || k == 3 || k == 6 || k == 7) ? hy : -hy);
        v[k][2] = (float)(k >= 4 ? hz : -hz);
    }
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    char header[80] = "solid binary box written by test_collision_mesh";
    fwrite(header, 1, 80, f);
    unsigned char n[4] = {12, 0, 0, 0};
    fwrite(n, 1, 4, f);
    for (int t = 0; t < 12; t++) {
        float rec[12] = {0};
        for (int k = 0; k < 3; k++) memcpy(rec + 3 + 3 * k, v[tri[t][k]], sizeof v[0]);
        fwrite(rec, sizeof rec, 1, f); /* little-endian host assumed (x86, arm) */
        unsigned char attr[2] = {0, 0};
        fwrite(attr, 1, 2, f);
    }
    fclose(f);
}

/* A plane on the world and one free body "b" carrying a mesh. */
static void plane_and_mesh(scene *s, const mcd_collision_options *o, const char *path, double sx,
                           double sy, double sz)
{
    mcd_error err = {0};
    scene_begin(s);
    scene_geom(s, -1, MCD_GEOM_PLANE, 0, 0, 0, NULL, NULL);
    int b = scene_free_body(s, "b");
    scene_geom(s, b, MCD_GEOM_MESH, sx, sy, sz, NULL, path);
    ck_assert_msg(scene_finish(s, o, &err) == MCD_OK, "%s", err.msg);
}

static void expect_flat_box(scene *s, double hx, double hy, double hz)
{
    mcd_error err = {0};
    for (int k = 0; k < 6; k++) {
        double R[9], yaw = 0.37 * k;
        rot_rpy(R, 0, 0, yaw);
        scene_place(s, "b", 0.2, 0.1, hz + 2e-4, R);
        ck_assert_int_eq(scene_detect(s, &err), MCD_OK);
        ck_assert_int_eq(s->n, 4);
        for (int i = 0; i < 4; i++) {
            ck_assert_double_eq_tol(s->c[i].gap, 2e-4, 1e-9);
            ck_assert_double_eq_tol(s->c[i].normal[2], 1.0, 1e-15);
            double r = hypot(s->c[i].point_a[0] - 0.2, s->c[i].point_a[1] - 0.1);
            ck_assert_double_eq_tol(r, hypot(hx, hy), 1e-7);
        }
    }
}

START_TEST(obj_cube_on_plane)
{
    scene s;
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 1e-3;
    plane_and_mesh(&s, &o, data_path("cube.obj"), 0.2, 0.4, 0.6);
    expect_flat_box(&s, 0.1, 0.2, 0.3); /* OBJ values are exact in double */
    scene_check_invariants(&s, &o);
    scene_free(&s);
}
END_TEST

START_TEST(binary_stl_box_on_plane)
{
    char path[] = "/tmp/mcdyn-collision-XXXXXX.stl";
    int fd = mkstemps(path, 4);
    ck_assert_int_ge(fd, 0);
    close(fd);
    write_binary_box(path, 0.125, 0.25, 0.375); /* exact in float */
    scene s;
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 1e-3;
    plane_and_mesh(&s, &o, path, 1, 1, 1);
    expect_flat_box(&s, 0.125, 0.25, 0.375);
    scene_free(&s);
    unlink(path);
}
END_TEST

START_TEST(ascii_stl_octahedron)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 1e-3;
    plane_and_mesh(&s, &o, data_path("octahedron.stl"), 2, 2, 2); /* vertices at 0.2 */
    scene_place(&s, "b", 0, 0, 0.2 + 5e-4, NULL);                 /* on its lower vertex */
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 1);
    ck_assert_double_eq_tol(s.c[0].gap, 5e-4, 1e-8); /* 0.1 in float, scaled by 2 */
    ck_assert_double_eq_tol(s.c[0].point_a[2], 5e-4, 1e-8);
    /* on a face: turn the face normal (-1,-1,-1)/sqrt3 to -z */
    double axis[3] = {1 / sqrt(2.0), -1 / sqrt(2.0), 0}, R[9];
    mcd_m3_axis_angle(R, axis, acos(1 / sqrt(3.0)));
    double f[3] = {-1, -1, -1}, w[3];
    mcd_m3_mul_v(w, R, f);
    ck_assert_double_eq_tol(w[2] / sqrt(3.0), -1, 1e-12);
    double h = 0.2 / sqrt(3.0); /* face distance from the centre */
    scene_place(&s, "b", 0, 0, h - 1e-4, R);
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 3);
    for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(s.c[i].gap, -1e-4, 1e-8);
    scene_check_invariants(&s, &o);
    scene_free(&s);
}
END_TEST

/* The COLLADA box of data/box_cm.dae: centimetre unit and node transform
 * applied, Y_UP ignored, so its hull spans x +-0.05, y +-0.15, z from -0.08
 * to 0.12 m (the file's comment). Resting at 2e-4 above the plane: four
 * corners at the gap, at distance hypot(0.05, 0.15) from the body's axis;
 * turned upside down (about x), the top face z = 0.12 is the one below. */
START_TEST(dae_units_and_nodes)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 1e-3;
    plane_and_mesh(&s, &o, data_path("box_cm.dae"), 1, 1, 1);
    const double bottom[2] = {0.08, 0.12};
    for (int flip = 0; flip < 2; flip++) {
        double R[9];
        rot_rpy(R, flip ? M_PI : 0.0, 0, 0.3);
        scene_place(&s, "b", 0.2, 0.1, bottom[flip] + 2e-4, R);
        ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
        ck_assert_int_eq(s.n, 4);
        for (int i = 0; i < 4; i++) {
            ck_assert_double_eq_tol(s.c[i].gap, 2e-4, 1e-8);
            double r = hypot(s.c[i].point_a[0] - 0.2, s.c[i].point_a[1] - 0.1);
            ck_assert_double_eq_tol(r, hypot(0.05, 0.15), 1e-7);
        }
    }
    scene_check_invariants(&s, &o);
    scene_free(&s);
}
END_TEST

/* The OBJ pyramid of data/pyramid.obj (exporter syntax: groups, v/vt/vn
 * faces, a negative index, a missing material library): on its apex one
 * contact at the gap; upside down on its base square four contacts at the
 * corners, distance 0.1 sqrt 2 from the axis. */
START_TEST(obj_exporter_syntax)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 1e-3;
    plane_and_mesh(&s, &o, data_path("pyramid.obj"), 1, 1, 1);
    scene_place(&s, "b", 0, 0, 0.1 + 3e-4, NULL);
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 1);
    ck_assert_double_eq_tol(s.c[0].gap, 3e-4, 1e-8);
    double R[9];
    rot_rpy(R, M_PI, 0, 0);
    scene_place(&s, "b", 0, 0, 0.1 + 3e-4, R);
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_double_eq_tol(s.c[i].gap, 3e-4, 1e-8);
        ck_assert_double_eq_tol(hypot(s.c[i].point_a[0], s.c[i].point_a[1]), 0.1 * sqrt(2.0), 1e-7);
    }
    scene_check_invariants(&s, &o);
    scene_free(&s);
}
END_TEST

START_TEST(mesh_on_box_and_sphere)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 0.01;
    scene_begin(&s);
    int a = scene_free_body(&s, "a"), b = scene_free_body(&s, "b"), c = scene_free_body(&s, "c");
    scene_geom(&s, a, MCD_GEOM_BOX, 1, 1, 0.1, NULL, NULL);
    scene_geom(&s, b, MCD_GEOM_MESH, 0.2, 0.2, 0.2, NULL, data_path("cube.obj"));
    scene_geom(&s, c, MCD_GEOM_SPHERE, 0.05, 0, 0, NULL, NULL);
    ck_assert_msg(scene_finish(&s, &o, &err) == MCD_OK, "%s", err.msg);
    double R[9];
    rot_rpy(R, 0, 0, 0.5);
    scene_place(&s, "a", 0, 0, 0, NULL);
    scene_place(&s, "b", 0, 0, 0.1 + 0.1 + 0.004, R);               /* 4 mm above the box */
    scene_place(&s, "c", 0.5, 0.5, 0.1 + 0.2 + 0.05 + 0.003, NULL); /* away from b */
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    int nab = 0;
    for (int i = 0; i < s.n; i++) {
        const mcd_contact *k = &s.c[i];
        if (k->body_a == 1 && k->body_b == 0) {
            nab++;
            ck_assert_double_eq_tol(k->gap, 0.004, 1e-9);
            ck_assert_double_eq_tol(k->normal[2], 1.0, 1e-9);
        }
    }
    ck_assert_msg(nab >= 4, "mesh on box: %d points", nab);
    scene_place(&s, "c", 0, 0.05, 0.204 + 0.1 + 0.05 + 0.003, NULL); /* on top of b */
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    int found = 0;
    for (int i = 0; i < s.n; i++)
        if (s.c[i].body_a == 2 && s.c[i].body_b == 1) {
            found++;
            ck_assert_double_eq_tol(s.c[i].gap, 0.003, 1e-9);
        }
    ck_assert_int_eq(found, 1);
    scene_check_invariants(&s, &o);
    scene_free(&s);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("collision-mesh");
    TCase *tc = tcase_create("mesh");
    tcase_add_test(tc, obj_cube_on_plane);
    tcase_add_test(tc, binary_stl_box_on_plane);
    tcase_add_test(tc, ascii_stl_octahedron);
    tcase_add_test(tc, dae_units_and_nodes);
    tcase_add_test(tc, obj_exporter_syntax);
    tcase_add_test(tc, mesh_on_box_and_sphere);
    suite_add_tcase(su, tc);
    return run_suite(su);
}

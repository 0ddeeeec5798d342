/* Contact points of each shape pair against known answers: gaps, normals,
 * points and the number of points of resting faces. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "collision_fixture.h"

static int count_pair(const scene *s, int ga, int gb)
{
    int n = 0;
    for (int i = 0; i < s->n; i++) n += s->c[i].geom_a == ga && s->c[i].geom_b == gb;
    return n;
}

static void expect_v3(const double *x, double a, double b, double c, double tol)
{
    ck_assert_msg(fabs(x[0] - a) <= tol && fabs(x[1] - b) <= tol && fabs(x[2] - c) <= tol,
                  "(%.17g %.17g %.17g) != (%g %g %g)", x[0], x[1], x[2], a, b, c);
}

/* A plane on the world (geom 0) and one free body "b" with one geom (1). */
static void plane_and(scene *s, mcd_collision_options *o, mcd_geom_type t, double s0, double s1,
                      double s2, const char *mesh)
{
    mcd_error err = {0};
    scene_begin(s);
    scene_geom(s, -1, MCD_GEOM_PLANE, 0, 0, 0, NULL, NULL);
    int b = scene_free_body(s, "b");
    scene_geom(s, b, t, s0, s1, s2, NULL, mesh);
    ck_assert_msg(scene_finish(s, o, &err) == MCD_OK, "%s", err.msg);
}

START_TEST(sphere_on_plane_exact)
{
    scene s;
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 0.5;
    plane_and(&s, &o, MCD_GEOM_SPHERE, 0.1, 0, 0, NULL);
    mcd_error err = {0};
    double R[9];
    rot_rpy(R, 0.3, -0.2, 1.0);
    scene_place(&s, "b", 0.3, -0.7, 0.3, R);
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 1);
    const mcd_contact *c = &s.c[0];
    ck_assert_int_eq(c->body_b, -1);
    ck_assert_int_eq(c->geom_b, 0);
    ck_assert_int_eq(c->geom_a, 1);
    ck_assert(c->gap == 0.3 - 0.1); /* exact: no margin, no iteration */
    expect_v3(c->normal, 0, 0, 1, 0);
    expect_v3(c->point_a, 0.3, -0.7, 0.2, 1e-15);
    expect_v3(c->point_b, 0.3, -0.7, 0.0, 0);
    scene_check_invariants(&s, &o);
    scene_place(&s, "b", 0, 0, 0.05, NULL); /* penetrating by 5 cm */
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 1);
    ck_assert_double_eq_tol(s.c[0].gap, -0.05, 1e-15);
    scene_free(&s);
}
END_TEST

START_TEST(activation_distance)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    const double deltas[2] = {0.02, 0.0};
    const mcd_geom_type types[2] = {MCD_GEOM_SPHERE, MCD_GEOM_BOX};
    for (int t = 0; t < 2; t++)
        for (int k = 0; k < 2; k++) { /* 1 cm above the plane */
            o.activation_distance = deltas[k];
            plane_and(&s, &o, types[t], 0.1, 0.1, 0.1, NULL);
            scene_place(&s, "b", 0, 0, 0.11, NULL);
            ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
            ck_assert_int_eq(s.n, k == 0 ? (t == 0 ? 1 : 4) : 0);
            for (int i = 0; i < s.n; i++) ck_assert_double_eq_tol(s.c[i].gap, 0.01, 1e-15);
            scene_check_invariants(&s, &o);
            scene_free(&s);
        }
}
END_TEST

/* The activation distance per pair (collision.h,
 * bullet_activation_distance): a box resting on a box (Bullet) and a
 * sphere and a box over the plane (closed forms), all at one gap g, with
 * delta = 1e-9 m and delta_B = 2e-8 m, the scenario runner's values. At
 * g = 5e-10 every pair is reported; at 1.5e-8 the boxes' pair only, its 4
 * corners (box_on_box_manifold's face, which Bullet finds to 1e-12 m); at
 * 3e-8 none. With analytic 0 Bullet answers every pair, and the sphere
 * and the lower box are reported at 1.5e-8 too. */
START_TEST(activation_distance_per_pair)
{
    const double gaps[3] = {5e-10, 1.5e-8, 3e-8};
    for (int analytic = 1; analytic >= 0; analytic--)
        for (int k = 0; k < 3; k++) {
            scene s;
            mcd_error err = {0};
            mcd_collision_options o = mcd_collision_options_default();
            o.activation_distance = 1e-9;
            o.bullet_activation_distance = 2e-8;
            o.analytic = analytic;
            scene_begin(&s);
            scene_geom(&s, -1, MCD_GEOM_PLANE, 0, 0, 0, NULL, NULL);
            int a = scene_free_body(&s, "a"), b = scene_free_body(&s, "b");
            int c = scene_free_body(&s, "c");
            scene_geom(&s, a, MCD_GEOM_BOX, 0.5, 0.5, 0.1, NULL, NULL);
            scene_geom(&s, b, MCD_GEOM_BOX, 0.1, 0.2, 0.15, NULL, NULL);
            scene_geom(&s, c, MCD_GEOM_SPHERE, 0.1, 0, 0, NULL, NULL);
            ck_assert_msg(scene_finish(&s, &o, &err) == MCD_OK, "%s", err.msg);
            const double g = gaps[k];
            scene_place(&s, "a", 0, 0, 0.1 + g, NULL);
            scene_place(&s, "b", 0.05, -0.1, 0.2 + 0.15 + 2 * g, NULL);
            scene_place(&s, "c", 5, 0, 0.1 + g, NULL);
            ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
            const int boxes = count_pair(&s, 2, 1), lower = count_pair(&s, 1, 0);
            const int sphere = count_pair(&s, 3, 0);
            const int exact = k == 0, bullet = k < 2;
            ck_assert_msg(boxes == (bullet ? 4 : 0), "analytic %d, gap %g: %d box-box points",
                          analytic, g, boxes);
            const int lower_ok = analytic ? lower == (exact ? 4 : 0) : (lower > 0) == bullet;
            ck_assert_msg(lower_ok, "analytic %d, gap %g: %d box-plane points", analytic, g, lower);
            ck_assert_msg(sphere == ((analytic ? exact : bullet) ? 1 : 0),
                          "analytic %d, gap %g: %d sphere-plane points", analytic, g, sphere);
            for (int i = 0; i < s.n; i++) ck_assert_double_eq_tol(s.c[i].gap, g, 1e-12);
            scene_check_invariants(&s, &o);
            scene_free(&s);
        }
}
END_TEST

START_TEST(sphere_sphere_exact)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 1.0;
    scene_begin(&s);
    int a = scene_free_body(&s, "a"), b = scene_free_body(&s, "b");
    scene_geom(&s, a, MCD_GEOM_SPHERE, 0.2, 0, 0, NULL, NULL);
    scene_geom(&s, b, MCD_GEOM_SPHERE, 0.3, 0, 0, NULL, NULL);
    ck_assert_msg(scene_finish(&s, &o, &err) == MCD_OK, "%s", err.msg);
    scene_place(&s, "a", 0, 0, 0, NULL);
    scene_place(&s, "b", 0.3, 0.4, 0, NULL); /* centres 0.5 apart: touching */
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 1);
    const mcd_contact *c = &s.c[0];
    /* B is the lower body ("a", body 0): the normal points from a to b */
    ck_assert_int_eq(c->body_b, 0);
    ck_assert_int_eq(c->body_a, 1);
    ck_assert_double_eq_tol(c->gap, 0.0, 1e-15);
    expect_v3(c->normal, 0.6, 0.8, 0, 1e-15);
    expect_v3(c->point_b, 0.12, 0.16, 0, 1e-15);
    scene_place(&s, "b", 0.6, 0.8, 0, NULL);
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_double_eq_tol(s.c[0].gap, 0.5, 1e-15);
    expect_v3(s.c[0].point_a, 0.42, 0.56, 0, 1e-15);
    scene_check_invariants(&s, &o);
    scene_place(&s, "b", 0, 0, 0, NULL); /* concentric: normal +z by convention */
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 1);
    ck_assert_double_eq_tol(s.c[0].gap, -0.5, 1e-15);
    expect_v3(s.c[0].normal, 0, 0, 1, 0);
    scene_free(&s);
}
END_TEST

/* The four bottom corners of a box of half extents (hx, hy) at (x, y),
 * yawed by yaw, each found once. */
static void expect_corners(const scene *s, double hx, double hy, double x, double y, double yaw,
                           double gap, double tol)
{
    ck_assert_int_eq(s->n, 4);
    for (int k = 0; k < 4; k++) {
        double cx = (k & 1 ? hx : -hx), cy = (k & 2 ? hy : -hy);
        double wx = x + cos(yaw) * cx - sin(yaw) * cy, wy = y + sin(yaw) * cx + cos(yaw) * cy;
        int found = 0;
        for (int i = 0; i < s->n; i++)
            if (fabs(s->c[i].point_b[0] - wx) < 1e-12 && fabs(s->c[i].point_b[1] - wy) < 1e-12) {
                found++;
                ck_assert_double_eq_tol(s->c[i].gap, gap, tol);
                expect_v3(s->c[i].normal, 0, 0, 1, 1e-15);
                ck_assert_double_eq_tol(s->c[i].point_b[2], 0.0, 1e-15);
            }
        ck_assert_msg(found == 1, "corner %d found %d times", k, found);
    }
}

START_TEST(box_flat_on_plane_four_corners)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 1e-3;
    /* the default 8 perturbed queries, and 5, the fewest that cover every
     * yaw (consecutive tilt directions less than 90 degrees apart) */
    const int iterations[2] = {8, 5};
    for (int it = 0; it < 3; it++) { /* Bullet twice, then the closed form */
        o.analytic = it == 2;
        o.plane_iterations = iterations[it % 2];
        plane_and(&s, &o, MCD_GEOM_BOX, 0.1, 0.2, 0.3, NULL);
        /* resting (gap 0), slightly above, slightly below, at many yaws */
        const double heights[3] = {0.0, 5e-4, -2e-3};
        for (int h = 0; h < 3; h++)
            for (int k = 0; k < 72; k++) {
                double yaw = -M_PI + k * (2 * M_PI / 72) + 0.01 * h, R[9];
                rot_rpy(R, 0, 0, yaw);
                scene_place(&s, "b", 0.5, -0.25, 0.3 + heights[h], R);
                ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
                expect_corners(&s, 0.1, 0.2, 0.5, -0.25, yaw, heights[h], 1e-15);
                scene_check_invariants(&s, &o);
            }
        scene_free(&s);
    }
}
END_TEST

START_TEST(tilted_box_fewer_points)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 1e-3;
    plane_and(&s, &o, MCD_GEOM_BOX, 0.1, 0.2, 0.3, NULL);
    double R[9], tilt = 0.2; /* about x: the edge y = -0.2, z = -0.3 is lowest */
    rot_rpy(R, tilt, 0, 0);
    double zlow = 0.2 * sin(tilt) + 0.3 * cos(tilt); /* depth of that edge below the origin */
    scene_place(&s, "b", 0, 0, zlow - 1e-4, R);
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 2);
    for (int i = 0; i < 2; i++) {
        ck_assert_double_eq_tol(s.c[i].gap, -1e-4, 1e-15);
        ck_assert_double_eq_tol(fabs(s.c[i].point_a[0]), 0.1, 1e-15);
    }
    scene_check_invariants(&s, &o);
    rot_rpy(R, 0.3, 0.2, 0.1); /* on a corner: one point */
    double c[3] = {-0.1, -0.2, -0.3}, w[3], lowest = 1e9;
    for (int k = 0; k < 8; k++) {
        c[0] = k & 1 ? 0.1 : -0.1, c[1] = k & 2 ? 0.2 : -0.2, c[2] = k & 4 ? 0.3 : -0.3;
        mcd_m3_mul_v(w, R, c);
        if (w[2] < lowest) lowest = w[2];
    }
    scene_place(&s, "b", 0, 0, -lowest + 3e-4, R);
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 1);
    ck_assert_double_eq_tol(s.c[0].gap, 3e-4, 1e-15);
    scene_free(&s);
}
END_TEST

START_TEST(capsule_on_plane)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 1e-3;
    for (int analytic = 1; analytic >= 0; analytic--) {
        o.analytic = analytic;
        plane_and(&s, &o, MCD_GEOM_CAPSULE, 0.05, 0.2, 0, NULL);
        double R[9];
        rot_rpy(R, M_PI / 2, 0, 0.4); /* lying, axis horizontal */
        scene_place(&s, "b", 0.1, 0.2, 0.05 + 2e-4, R);
        ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
        /* closed form: both ends; Bullet (analytic off): one of them */
        ck_assert_int_eq(s.n, analytic ? 2 : 1);
        for (int i = 0; i < s.n; i++) {
            ck_assert_double_eq_tol(s.c[i].gap, 2e-4, 1e-15);
            expect_v3(s.c[i].normal, 0, 0, 1, 1e-15);
            double r = hypot(s.c[i].point_a[0] - 0.1, s.c[i].point_a[1] - 0.2);
            ck_assert_double_eq_tol(r, 0.2, 1e-12); /* at an end of the segment */
        }
        scene_check_invariants(&s, &o);
        rot_rpy(R, 0.3, 0.0, 0); /* tilted: the lower end only */
        scene_place(&s, "b", 0, 0, 0.05 + 0.2 * cos(0.3) - 1e-3, R);
        ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
        ck_assert_int_eq(s.n, 1);
        ck_assert_double_eq_tol(s.c[0].gap, -1e-3, 1e-15);
        scene_free(&s);
    }
}
END_TEST

START_TEST(cylinder_on_plane)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 1e-3;
    for (int analytic = 1; analytic >= 0; analytic--) {
        o.analytic = analytic;
        plane_and(&s, &o, MCD_GEOM_CYLINDER, 0.1, 0.25, 0, NULL);
        double R[9];
        rot_rpy(R, 0, 0, 0.7); /* upright */
        scene_place(&s, "b", 1, 2, 0.25 + 1e-4, R);
        ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
        ck_assert_int_eq(s.n, analytic ? 4 : 1);
        for (int i = 0; i < s.n; i++) {
            ck_assert_double_eq_tol(s.c[i].gap, 1e-4, 1e-15);
            double r = hypot(s.c[i].point_a[0] - 1, s.c[i].point_a[1] - 2);
            ck_assert_double_eq_tol(r, 0.1, 1e-12); /* on the rim */
        }
        scene_check_invariants(&s, &o);
        rot_rpy(R, M_PI / 2, 0, 0); /* on its side: the two ends of the line */
        scene_place(&s, "b", 0, 0, 0.1 - 5e-4, R);
        ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
        ck_assert_int_eq(s.n, analytic ? 2 : 1);
        for (int i = 0; i < s.n; i++) {
            ck_assert_double_eq_tol(s.c[i].gap, -5e-4, 1e-15);
            ck_assert_double_eq_tol(fabs(s.c[i].point_a[1]), 0.25, 1e-12);
        }
        rot_rpy(R, 0.4, 0, 0); /* tilted: one rim point */
        double zlow = 0.25 * cos(0.4) + 0.1 * sin(0.4);
        scene_place(&s, "b", 0, 0, zlow + 2e-4, R);
        ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
        ck_assert_int_eq(s.n, 1);
        ck_assert_double_eq_tol(s.c[0].gap, 2e-4, 1e-15);
        scene_free(&s);
    }
}
END_TEST

/* Two free boxes, a below b. */
static void two_boxes(scene *s, const mcd_collision_options *o)
{
    mcd_error err = {0};
    scene_begin(s);
    int a = scene_free_body(s, "a"), b = scene_free_body(s, "b");
    scene_geom(s, a, MCD_GEOM_BOX, 0.5, 0.5, 0.1, NULL, NULL);
    scene_geom(s, b, MCD_GEOM_BOX, 0.1, 0.2, 0.15, NULL, NULL);
    ck_assert_msg(scene_finish(s, o, &err) == MCD_OK, "%s", err.msg);
}

START_TEST(box_on_box_manifold)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 0.01;
    two_boxes(&s, &o);
    double R[9];
    rot_rpy(R, 0, 0, 0.6);
    scene_place(&s, "a", 0, 0, 0, NULL);
    /* penetrating, touching, and separated within delta: the 4 bottom
     * corners of the small box each time (B = "a", normal +z) */
    const double gaps[3] = {-0.004, 0.0, 0.006};
    for (int k = 0; k < 3; k++) {
        scene_place(&s, "b", 0.05, -0.1, 0.1 + 0.15 + gaps[k], R);
        ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
        ck_assert_msg(s.n >= 4, "gap %g: %d points", gaps[k], s.n);
        ck_assert_int_eq(count_pair(&s, 1, 0), s.n);
        int corners = 0;
        for (int i = 0; i < s.n; i++) {
            const mcd_contact *c = &s.c[i];
            ck_assert_int_eq(c->body_b, 0);
            expect_v3(c->normal, 0, 0, 1, 1e-9);
            ck_assert_double_eq_tol(c->gap, gaps[k], 1e-12);
            ck_assert_double_eq_tol(c->point_b[2], 0.1, 1e-12);
            double dx = c->point_a[0] - 0.05, dy = c->point_a[1] + 0.1;
            corners += fabs(hypot(dx, dy) - hypot(0.1, 0.2)) < 1e-9;
        }
        ck_assert_msg(corners == 4, "gap %g: %d corners among %d points", gaps[k], corners, s.n);
        scene_check_invariants(&s, &o);
    }
    scene_place(&s, "b", 0.05, -0.1, 0.1 + 0.15 + 0.02, R); /* beyond delta */
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 0);
    scene_free(&s);
}
END_TEST

START_TEST(box_corner_on_box)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 0.01;
    two_boxes(&s, &o);
    double R[9], c[3], w[3], lowest = 1e9;
    rot_rpy(R, 0.5, 0.4, 0.3);
    for (int k = 0; k < 8; k++) {
        c[0] = k & 1 ? 0.1 : -0.1, c[1] = k & 2 ? 0.2 : -0.2, c[2] = k & 4 ? 0.15 : -0.15;
        mcd_m3_mul_v(w, R, c);
        if (w[2] < lowest) lowest = w[2];
    }
    scene_place(&s, "a", 0, 0, 0, NULL);
    const double gaps[2] = {-0.003, 0.004};
    for (int k = 0; k < 2; k++) {
        scene_place(&s, "b", 0, 0, 0.1 - lowest + gaps[k], R);
        ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
        ck_assert_int_ge(s.n, 1);
        double deepest = 1e9;
        for (int i = 0; i < s.n; i++)
            if (s.c[i].gap < deepest) deepest = s.c[i].gap;
        ck_assert_double_eq_tol(deepest, gaps[k], 1e-9);
        expect_v3(s.c[0].normal, 0, 0, 1, 1e-6);
        scene_check_invariants(&s, &o);
    }
    scene_free(&s);
}
END_TEST

/* Sphere-box (Bullet's exact algorithm) and capsule/cylinder-box (GJK and
 * EPA) against the exact distances of simple configurations. */
START_TEST(convex_pairs_known_gaps)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 0.05;
    const mcd_geom_type types[3] = {MCD_GEOM_SPHERE, MCD_GEOM_CAPSULE, MCD_GEOM_CYLINDER};
    for (int t = 0; t < 3; t++) {
        scene_begin(&s);
        int a = scene_free_body(&s, "a"), b = scene_free_body(&s, "b");
        scene_geom(&s, a, MCD_GEOM_BOX, 0.5, 0.5, 0.1, NULL, NULL);
        scene_geom(&s, b, types[t], 0.05, 0.1, 0, NULL, NULL);
        ck_assert_msg(scene_finish(&s, &o, &err) == MCD_OK, "%s", err.msg);
        double R[9];
        rot_rpy(R, 0, 0, 0.3); /* upright: the lowest point is on the axis end */
        double below = t == 0 ? 0.05 : t == 1 ? 0.15 : 0.1;
        const double gaps[3] = {0.03, 0.001, -0.01};
        for (int k = 0; k < 3; k++) {
            scene_place(&s, "a", 0, 0, 0, NULL);
            scene_place(&s, "b", 0.1, 0.2, 0.1 + below + gaps[k], R);
            ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
            ck_assert_msg(s.n >= 1, "type %d gap %g: no point", t, gaps[k]);
            for (int i = 0; i < s.n; i++) {
                ck_assert_msg(fabs(s.c[i].gap - gaps[k]) < 1e-9, "type %d: gap %.17g != %g", t,
                              s.c[i].gap, gaps[k]);
                expect_v3(s.c[i].normal, 0, 0, 1, 1e-6);
            }
            scene_check_invariants(&s, &o);
        }
        scene_free(&s);
    }
}
END_TEST

/* The deepest point of a detection (its index). */
static int deepest(const scene *s)
{
    int k = 0;
    for (int i = 1; i < s->n; i++)
        if (s->c[i].gap < s->c[k].gap) k = i;
    return k;
}

/* The closed forms give what Bullet gives where Bullet is exact: the
 * deepest point (gap, normal, both surface points) of random sphere-plane,
 * sphere-sphere, capsule-plane, cylinder-plane and box-plane
 * configurations, and every point Bullet finds is among the closed form's
 * (the closed form may find more: both ends of a capsule, the rim square).
 * Tolerance 1e-12: both are exact formulas in double precision, only the
 * order of operations differs (measured worst: a few 1e-16); random
 * poses make ties for the deepest point improbable. */
START_TEST(analytic_agrees_with_bullet)
{
    const mcd_geom_type types[5][2] = {{MCD_GEOM_SPHERE, MCD_GEOM_PLANE},
                                       {MCD_GEOM_SPHERE, MCD_GEOM_SPHERE},
                                       {MCD_GEOM_CAPSULE, MCD_GEOM_PLANE},
                                       {MCD_GEOM_CYLINDER, MCD_GEOM_PLANE},
                                       {MCD_GEOM_BOX, MCD_GEOM_PLANE}};
    unsigned long long seed = 12345;
    double worst[5] = {0, 0, 0, 0, 0};
    for (int t = 0; t < 5; t++) {
        scene s[2];
        mcd_error err = {0};
        for (int analytic = 0; analytic < 2; analytic++) {
            mcd_collision_options o = mcd_collision_options_default();
            o.activation_distance = 10;
            o.analytic = analytic;
            scene_begin(&s[analytic]);
            int a = scene_free_body(&s[analytic], "a"), b = scene_free_body(&s[analytic], "b");
            scene_geom(&s[analytic], b, types[t][0], 0.15, 0.3, 0.2, NULL, NULL);
            scene_geom(&s[analytic], a, types[t][1], 0.25, 0, 0, NULL, NULL);
            ck_assert_msg(scene_finish(&s[analytic], &o, &err) == MCD_OK, "%s", err.msg);
        }
        for (int trial = 0; trial < 500; trial++) {
            double x[6], R[2][9];
            for (int i = 0; i < 6; i++) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                x[i] = (double)(seed >> 11) / 9007199254740992.0;
            }
            rot_rpy(R[0], 6 * x[0], 6 * x[1], 6 * x[2]);
            rot_rpy(R[1], 6 * x[3], 6 * x[4], 6 * x[5]);
            for (int k = 0; k < 2; k++) {
                scene_place(&s[k], "a", 0.1 * x[2], -0.2 * x[1], 0.05 * x[0], R[1]);
                scene_place(&s[k], "b", x[0] - 0.5, x[1] - 0.5, 2 * x[2] - 0.5, R[0]);
                ck_assert_int_eq(scene_detect(&s[k], &err), MCD_OK);
                ck_assert_int_ge(s[k].n, 1);
            }
            const mcd_contact *cb = &s[0].c[deepest(&s[0])], *ca = &s[1].c[deepest(&s[1])];
            double e = fabs(cb->gap - ca->gap);
            for (int i = 0; i < 3; i++) {
                e = fmax(e, fabs(cb->normal[i] - ca->normal[i]));
                e = fmax(e, fabs(cb->point_a[i] - ca->point_a[i]));
                e = fmax(e, fabs(cb->point_b[i] - ca->point_b[i]));
            }
            for (int j = 0; j < s[0].n; j++) { /* each Bullet point is a closed-form point */
                double best = INFINITY;
                for (int i = 0; i < s[1].n; i++) {
                    double d[3];
                    mcd_v3_sub(d, s[0].c[j].point_a, s[1].c[i].point_a);
                    best = fmin(best, mcd_v3_norm(d) + fabs(s[0].c[j].gap - s[1].c[i].gap));
                }
                e = fmax(e, best);
            }
            if (e > worst[t]) worst[t] = e;
        }
        scene_free(&s[0]);
        scene_free(&s[1]);
    }
    for (int t = 0; t < 5; t++)
        ck_assert_msg(worst[t] < 1e-12, "pair %d: closed form and Bullet differ by %g", t,
                      worst[t]);
}
END_TEST

START_TEST(plane_on_moving_body_normal_direction)
{
    /* a plane carried by body 1 and a sphere on body 0: the sphere's body
     * is lower, so the sphere is B and the normal points into the plane's
     * side: minus the plane's normal */
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 1;
    for (int analytic = 0; analytic < 2; analytic++) {
        o.analytic = analytic;
        scene_begin(&s);
        int a = scene_free_body(&s, "a"), b = scene_free_body(&s, "b");
        scene_geom(&s, a, MCD_GEOM_SPHERE, 0.1, 0, 0, NULL, NULL);
        scene_geom(&s, b, MCD_GEOM_PLANE, 0, 0, 0, NULL, NULL);
        ck_assert_msg(scene_finish(&s, &o, &err) == MCD_OK, "%s", err.msg);
        scene_place(&s, "a", 0, 0, 0.5, NULL);
        scene_place(&s, "b", 0, 0, 0, NULL);
        ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
        ck_assert_int_eq(s.n, 1);
        ck_assert_int_eq(s.c[0].geom_a, 1);
        ck_assert_int_eq(s.c[0].geom_b, 0);
        expect_v3(s.c[0].normal, 0, 0, -1, 0);
        ck_assert_double_eq_tol(s.c[0].gap, 0.4, 1e-15);
        expect_v3(s.c[0].point_a, 0, 0, 0, 1e-15);
        expect_v3(s.c[0].point_b, 0, 0, 0.4, 1e-15);
        scene_check_invariants(&s, &o);
        scene_free(&s);
    }
}
END_TEST

START_TEST(merge_duplicates)
{
    /* Bullet reports each corner of a flat box several times (9 support
     * queries for 4 corners): one point per corner is left */
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.merge_distance = 0; /* exact duplicates only */
    o.analytic = 0;
    o.plane_iterations = 32;
    plane_and(&s, &o, MCD_GEOM_BOX, 0.1, 0.1, 0.1, NULL);
    scene_place(&s, "b", 0, 0, 0.09, NULL);
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 4);
    scene_check_invariants(&s, &o);
    scene_free(&s);
    /* a merge distance larger than the box: one point, the deepest */
    o.merge_distance = 1.0;
    plane_and(&s, &o, MCD_GEOM_BOX, 0.1, 0.1, 0.1, NULL);
    double R[9];
    rot_rpy(R, 0.01, 0.02, 0);
    scene_place(&s, "b", 0, 0, 0.09, R);
    o.activation_distance = 0.0;
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 1);
    scene_check_invariants(&s, &o);
    scene_free(&s);
}
END_TEST

START_TEST(without_perturbation_one_point)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.analytic = 0;
    o.plane_iterations = 0;
    plane_and(&s, &o, MCD_GEOM_BOX, 0.1, 0.1, 0.1, NULL);
    scene_place(&s, "b", 0, 0, 0.09, NULL);
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 1);
    scene_free(&s);
}
END_TEST

/* The output depends on the configuration only: the same poses reached
 * after different motions give the same points in the same order. */
START_TEST(same_configuration_same_output)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 0.02;
    scene_begin(&s);
    scene_geom(&s, -1, MCD_GEOM_PLANE, 0, 0, 0, NULL, NULL);
    const char *names[5] = {"b0", "b1", "b2", "b3", "b4"};
    for (int k = 0; k < 5; k++) {
        int b = scene_free_body(&s, names[k]);
        scene_geom(&s, b, (mcd_geom_type)(k % 4), 0.1, 0.1, 0.1, NULL, NULL);
    }
    ck_assert_msg(scene_finish(&s, &o, &err) == MCD_OK, "%s", err.msg);
    mcd_contact first[SCENE_CAPACITY];
    int nfirst = 0;
    for (int round = 0; round < 3; round++) {
        for (int step = 0; step < 50 * round; step++) { /* wander about */
            for (int k = 0; k < 5; k++) {
                double t = 0.05 * step + k, R[9];
                rot_rpy(R, t, 0.5 * t, 0.2 * t);
                scene_place(&s, names[k], 0.2 * cos(t) * k, 0.2 * sin(t), 0.1 * k * sin(t), R);
            }
            ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
        }
        for (int k = 0; k < 5; k++) { /* a heap of touching bodies */
            double R[9];
            rot_rpy(R, 0.1 * k, 0.2, 0.3 * k);
            scene_place(&s, names[k], 0.12 * k, 0.05 * k, 0.09 + 0.01 * k, R);
        }
        ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
        scene_check_invariants(&s, &o);
        if (round == 0) {
            nfirst = s.n;
            memcpy(first, s.c, sizeof first);
            ck_assert_int_gt(nfirst, 8);
        } else {
            ck_assert_int_eq(s.n, nfirst);
            ck_assert(memcmp(first, s.c, (size_t)nfirst * sizeof *first) == 0);
        }
    }
    scene_free(&s);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("collision-shapes");
    TCase *tc = tcase_create("shapes");
    tcase_add_test(tc, sphere_on_plane_exact);
    tcase_add_test(tc, activation_distance);
    tcase_add_test(tc, activation_distance_per_pair);
    tcase_add_test(tc, sphere_sphere_exact);
    tcase_add_test(tc, box_flat_on_plane_four_corners);
    tcase_add_test(tc, tilted_box_fewer_points);
    tcase_add_test(tc, capsule_on_plane);
    tcase_add_test(tc, cylinder_on_plane);
    tcase_add_test(tc, box_on_box_manifold);
    tcase_add_test(tc, box_corner_on_box);
    tcase_add_test(tc, convex_pairs_known_gaps);
    tcase_add_test(tc, analytic_agrees_with_bullet);
    tcase_add_test(tc, plane_on_moving_body_normal_direction);
    tcase_add_test(tc, merge_duplicates);
    tcase_add_test(tc, without_perturbation_one_point);
    tcase_add_test(tc, same_configuration_same_output);
    suite_add_tcase(su, tc);
    return run_suite(su);
}

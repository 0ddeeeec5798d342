/* The closed forms of a sphere, box, capsule and cylinder against a plane
 * beyond the known-answer cases of test_collision_shapes.c: the flat
 * tolerance, the activation distance at random orientations, and the
 * support polygon of every resting position (its points surround the
 * centre, and their number does not change while the shape rocks by far
 * less than the tolerance). */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "collision_fixture.h"

/* A plane on the world (geom 0) and one free body "b" with one geom (1). */
static void plane_and(scene *s, const mcd_collision_options *o, mcd_geom_type t, double s0,
                      double s1, double s2)
{
    mcd_error err = {0};
    scene_begin(s);
    scene_geom(s, -1, MCD_GEOM_PLANE, 0, 0, 0, NULL, NULL);
    int b = scene_free_body(s, "b");
    scene_geom(s, b, t, s0, s1, s2, NULL, NULL);
    ck_assert_msg(scene_finish(s, o, &err) == MCD_OK, "%s", err.msg);
}

static double uniform(unsigned long long *seed)
{
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*seed >> 11) / 9007199254740992.0;
}

static double min_gap(const scene *s)
{
    double g = INFINITY;
    for (int i = 0; i < s->n; i++) g = fmin(g, s->c[i].gap);
    return g;
}

/* A box face tilted so that its corners differ in height by dh, its
 * deepest edge at gap -1e-6, delta 0: the raised edge is reported (with
 * its positive gap) while dh <= flat_tolerance, not beyond, not with a
 * zero tolerance; nothing when even the deepest point is beyond delta. */
START_TEST(flat_tolerance_keeps_the_face)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    const double hx = 0.1, tau = o.flat_tolerance, depth = -1e-6;
    const double dh[3] = {0.5 * tau, 2 * tau, 0.5 * tau}, tol[3] = {tau, tau, 0};
    const int expect[3] = {4, 2, 2};
    for (int k = 0; k < 3; k++) {
        o.flat_tolerance = tol[k];
        plane_and(&s, &o, MCD_GEOM_BOX, hx, 0.2, 0.3);
        double R[9], th = asin(dh[k] / (2 * hx)); /* pitch: the +x edge goes down */
        rot_rpy(R, 0, th, 0.3);
        double zlow = hx * sin(th) + 0.3 * cos(th); /* lowest edge below the centre */
        scene_place(&s, "b", 0.2, -0.1, zlow + depth, R);
        ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
        ck_assert_int_eq(s.n, expect[k]);
        for (int i = 0; i < s.n; i++) {
            double g = s.c[i].gap;
            ck_assert_msg(fabs(g - depth) < 1e-15 || fabs(g - depth - dh[k]) < 1e-15,
                          "gap %.17g is neither edge's", g);
        }
        scene_check_invariants(&s, &o);
        scene_place(&s, "b", 0.2, -0.1, zlow + 1e-7, R); /* deepest beyond delta = 0 */
        ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
        ck_assert_int_eq(s.n, 0);
        scene_free(&s);
    }
}
END_TEST

/* At random orientations, each shape's lowest point moved to just within
 * and just beyond delta: reported with the expected gap (to 1e-12, the
 * rounding of a few products of unit-size numbers), or nothing. */
START_TEST(activation_distance_at_random_orientations)
{
    const mcd_geom_type types[4] = {MCD_GEOM_SPHERE, MCD_GEOM_BOX, MCD_GEOM_CAPSULE,
                                    MCD_GEOM_CYLINDER};
    unsigned long long seed = 777;
    const double delta = 1e-3;
    for (int t = 0; t < 4; t++) {
        scene s, probe; /* probe: delta 10 m, to find the lowest point */
        mcd_error err = {0};
        mcd_collision_options o = mcd_collision_options_default(), op = o;
        o.activation_distance = delta;
        op.activation_distance = 10;
        plane_and(&s, &o, types[t], 0.1, 0.25, 0.15);
        plane_and(&probe, &op, types[t], 0.1, 0.25, 0.15);
        for (int trial = 0; trial < 200; trial++) {
            double R[9];
            rot_rpy(R, 7 * uniform(&seed), 7 * uniform(&seed), 7 * uniform(&seed));
            double x = uniform(&seed) - 0.5, y = uniform(&seed) - 0.5;
            scene_place(&probe, "b", x, y, 0.0, R);
            ck_assert_int_eq(scene_detect(&probe, &err), MCD_OK);
            double g0 = min_gap(&probe);
            scene_place(&s, "b", x, y, delta - 1e-9 - g0, R);
            ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
            ck_assert_int_ge(s.n, 1);
            ck_assert_double_eq_tol(min_gap(&s), delta - 1e-9, 1e-12);
            scene_check_invariants(&s, &o);
            scene_place(&s, "b", x, y, delta + 1e-9 - g0, R);
            ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
            ck_assert_int_eq(s.n, 0);
        }
        scene_free(&s);
        scene_free(&probe);
    }
}
END_TEST

/* 1 if (px, py) lies inside the convex polygon of the n points' (x, y)
 * (any order) by more than margin. */
static int inside_support(const scene *s, double px, double py, double margin)
{
    double cx = 0, cy = 0, ang[8];
    int idx[8], n = s->n;
    for (int i = 0; i < n; i++) cx += s->c[i].point_a[0] / n, cy += s->c[i].point_a[1] / n;
    for (int i = 0; i < n; i++) {
        idx[i] = i;
        ang[i] = atan2(s->c[i].point_a[1] - cy, s->c[i].point_a[0] - cx);
    }
    for (int i = 1; i < n; i++) /* sort the corners by angle around their centroid */
        for (int j = i; j > 0 && ang[idx[j]] < ang[idx[j - 1]]; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1], idx[j - 1] = t;
        }
    for (int i = 0; i < n; i++) {
        const double *a = s->c[idx[i]].point_a, *b = s->c[idx[(i + 1) % n]].point_a;
        double ex = b[0] - a[0], ey = b[1] - a[1];
        double cross = (ex * (py - a[1]) - ey * (px - a[0])) / hypot(ex, ey);
        if (!(cross > margin)) return 0;
    }
    return 1;
}

/* 1 if (px, py) lies on the segment of the 2 points' (x, y), within tol of
 * its line and strictly between its ends. */
static int on_support_line(const scene *s, double px, double py, double tol)
{
    const double *a = s->c[0].point_a, *b = s->c[1].point_a;
    double ex = b[0] - a[0], ey = b[1] - a[1], len = hypot(ex, ey);
    double along = ((px - a[0]) * ex + (py - a[1]) * ey) / (len * len);
    double off = fabs(ex * (py - a[1]) - ey * (px - a[0])) / len;
    return off < tol && along > 0.01 && along < 0.99;
}

/* Every resting position (box on each face pair, capsule lying, cylinder
 * upright and on its side) at random yaws and places, rocking by up to
 * 1e-7 rad about random axes over 100 poses while sinking between 1e-6 and
 * 2e-6 m (corner heights differ by < 1e-7 m, far below the flat tolerance
 * 1e-5 m), delta 0: always the same number of points (4, 2 for the lines),
 * whose polygon holds the centre's projection (by 1 cm for the polygons,
 * within 1e-6 m of the line for the capsule and the lying cylinder:
 * rocking by 1e-7 rad moves the centre's projection by < 1e-7 m). */
START_TEST(resting_support_is_stable)
{
    typedef struct {
        mcd_geom_type type;
        double size[3], roll, pitch, z; /* resting orientation, centre height */
        int n;
    } rest;
    const rest cases[6] = {
        {MCD_GEOM_BOX, {0.1, 0.2, 0.3}, 0, 0, 0.3, 4},
        {MCD_GEOM_BOX, {0.1, 0.2, 0.3}, M_PI / 2, 0, 0.2, 4},
        {MCD_GEOM_BOX, {0.1, 0.2, 0.3}, 0, M_PI / 2, 0.1, 4},
        {MCD_GEOM_CAPSULE, {0.05, 0.2, 0}, M_PI / 2, 0, 0.05, 2},
        {MCD_GEOM_CYLINDER, {0.1, 0.25, 0}, 0, 0, 0.25, 4},
        {MCD_GEOM_CYLINDER, {0.1, 0.25, 0}, 0, M_PI / 2, 0.1, 2},
    };
    unsigned long long seed = 99;
    for (int c = 0; c < 6; c++) {
        scene s;
        mcd_error err = {0};
        mcd_collision_options o = mcd_collision_options_default();
        plane_and(&s, &o, cases[c].type, cases[c].size[0], cases[c].size[1], cases[c].size[2]);
        double yaw = 6 * uniform(&seed), x = uniform(&seed), y = uniform(&seed);
        double ax = uniform(&seed) - 0.5, ay = uniform(&seed) - 0.5;
        for (int k = 0; k < 100; k++) {
            double Rrest[9], Rrock[9], R[9], e = 1e-7 * sin(0.37 * k);
            rot_rpy(Rrest, cases[c].roll, cases[c].pitch, yaw);
            rot_rpy(Rrock, e * ax, e * ay, 0);
            mcd_m3_mul(R, Rrock, Rrest);
            scene_place(&s, "b", x, y, cases[c].z - 1.5e-6 + 5e-7 * cos(0.23 * k), R);
            ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
            ck_assert_msg(s.n == cases[c].n, "case %d, pose %d: %d points", c, k, s.n);
            if (s.n == 4)
                ck_assert_msg(inside_support(&s, x, y, 0.01), "case %d: centre outside", c);
            else
                ck_assert_msg(on_support_line(&s, x, y, 1e-6), "case %d: centre off line", c);
            scene_check_invariants(&s, &o);
        }
        scene_free(&s);
    }
}
END_TEST

int main(void)
{
    Suite *su = suite_create("collision-plane");
    TCase *tc = tcase_create("plane");
    tcase_add_test(tc, flat_tolerance_keeps_the_face);
    tcase_add_test(tc, activation_distance_at_random_orientations);
    tcase_add_test(tc, resting_support_is_stable);
    suite_add_tcase(su, tc);
    return run_suite(su);
}

/* Coplanar manifolds reduced to their hull vertices
 * (src/collision/contact_manifold.c; docs/collision.md, "Coplanar
 * manifolds: hull vertices only"): the reduction on hand-made point sets,
 * then whole detections of a box resting on a box. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "collision/contact_manifold.h"
#include "common/check_main.h"
#include "collision_fixture.h"

/* A point of bodies (1, 0) at local (x, y) of the frame (o; t1, t2, n),
 * raised by h along n, with gap g: point_b and point_a straddle pos by
 * g / 2 along n. */
typedef struct frame {
    double o[3], t1[3], t2[3], n[3];
} frame;

static mcd_contact point(const frame *f, double x, double y, double h, double g)
{
    mcd_contact c;
    memset(&c, 0, sizeof c);
    c.body_a = 1, c.body_b = 0, c.geom_a = 1, c.geom_b = 0;
    for (int i = 0; i < 3; i++) {
        c.pos[i] = f->o[i] + x * f->t1[i] + y * f->t2[i] + h * f->n[i];
        c.normal[i] = f->n[i];
        c.point_a[i] = c.pos[i] + 0.5 * g * f->n[i];
        c.point_b[i] = c.pos[i] - 0.5 * g * f->n[i];
    }
    c.gap = g;
    return c;
}

/* A frame at o with its normal tilted from +z by roll and pitch, yawed. */
static frame tilted_frame(double ox, double oy, double oz, double roll, double pitch, double yaw)
{
    frame f;
    double R[9];
    rot_rpy(R, roll, pitch, yaw);
    mcd_v3_set(f.o, ox, oy, oz);
    for (int i = 0; i < 3; i++) f.t1[i] = R[3 * i], f.t2[i] = R[3 * i + 1], f.n[i] = R[3 * i + 2];
    return f;
}

/* 1 if c is bitwise the point p. */
static int same(const mcd_contact *c, const mcd_contact *p)
{
    return memcmp(c, p, sizeof *c) == 0;
}

/* The manifold's tolerance as contact_manifold.h defines it, for points of
 * radius r about their centroid and largest coordinate x. */
static double tolerance(double r, double x)
{
    return MCD_MANIFOLD_RELATIVE * r + MCD_MANIFOLD_ROUNDING * DBL_EPSILON * x;
}

/* A square of half side 0.05 with its 4 edge midpoints, 4 points at a
 * quarter along the edges and its centre, on a tilted plane far from the
 * origin, with gaps affine over the face (a face being tilted): the 4
 * corners are kept, in their order. */
START_TEST(square_with_edge_points_keeps_corners)
{
    const frame f = tilted_frame(3.0, -2.0, 0.7, 0.3, -0.2, 0.9);
    const double a = 0.05;
    mcd_contact c[13], in[13];
    int n = 0;
    const double xy[13][2] = {{0, a},      {a, a},       {a, 0},     {a, -a}, {0, -a},
                              {-a, -a},    {-a, 0},      {-a, a},    {0, 0},  {a / 2, a},
                              {a, -a / 2}, {-a / 2, -a}, {-a, a / 2}};
    for (int i = 0; i < 13; i++)
        c[n++] = point(&f, xy[i][0], xy[i][1], 0, 1e-4 + 3e-3 * xy[i][0] - 2e-3 * xy[i][1]);
    memcpy(in, c, sizeof c);
    ck_assert_int_eq(mcd_contact_manifold_reduce(c, n), 4);
    ck_assert(same(&c[0], &in[1]) && same(&c[1], &in[3]) && same(&c[2], &in[5]) &&
              same(&c[3], &in[7]));
}
END_TEST

/* Points on a segment, in any order, some repeated nearly: the 2 ends. */
START_TEST(collinear_points_keep_the_ends)
{
    const frame f = tilted_frame(0.2, 0.1, 0.0, 0.0, 0.0, 0.4);
    mcd_contact c[6], in[6];
    const double x[6] = {0.01, -0.03, 0.07, 0.0, -0.08, 0.05};
    for (int i = 0; i < 6; i++) c[i] = point(&f, x[i], 0.5 * x[i], 0, -1e-5);
    memcpy(in, c, sizeof c);
    ck_assert_int_eq(mcd_contact_manifold_reduce(c, 6), 2);
    ck_assert(same(&c[0], &in[2]) && same(&c[1], &in[4]));
}
END_TEST

/* Points all within the tolerance of one point: the deepest one. */
START_TEST(coincident_points_keep_the_deepest)
{
    const frame f = tilted_frame(0.0, 0.0, 0.1, 0.0, 0.0, 0.0);
    mcd_contact c[3];
    c[0] = point(&f, 0, 0, 0, 2e-9);
    c[1] = point(&f, 1e-18, 0, 0, 1e-9);
    c[2] = point(&f, 0, -1e-18, 0, 3e-9);
    const mcd_contact deepest = c[1];
    ck_assert_int_eq(mcd_contact_manifold_reduce(c, 3), 1);
    ck_assert(same(&c[0], &deepest));
}
END_TEST

/* Sets that are not coplanar stay as they are: an edge midpoint raised
 * along the normal by 10 tau (its points on A and on B off their planes),
 * with a gap 20 tau off the affine gap of the face (both off, the midpoint
 * on the plane), or with its point on A alone 20 tau off (point_b on B's
 * plane). */
START_TEST(non_coplanar_sets_untouched)
{
    const frame f = tilted_frame(0.5, 0.5, 0.2, 0.1, 0.2, 0.3);
    const double a = 0.05, tau = tolerance(a * sqrt(2.0), 0.75);
    const double raise[3] = {10 * tau, 0, 10 * tau}, gap[3] = {0, 20 * tau, 20 * tau};
    for (int k = 0; k < 3; k++) {
        mcd_contact c[5], in[5];
        c[0] = point(&f, a, a, 0, 0);
        c[1] = point(&f, a, -a, 0, 0);
        c[2] = point(&f, -a, -a, 0, 0);
        c[3] = point(&f, -a, a, 0, 0);
        c[4] = point(&f, 0, a, raise[k], gap[k]);
        memcpy(in, c, sizeof c);
        ck_assert_int_eq(mcd_contact_manifold_reduce(c, 5), 5);
        ck_assert(memcmp(c, in, sizeof c) == 0);
    }
}
END_TEST

/* The tolerances: an edge midpoint half a tau outside the edge is dropped,
 * two tau outside it is a hull vertex and stays; raised along the normal by
 * half a tau the set is flat, by two tau it is not. */
START_TEST(tolerances)
{
    const frame f = tilted_frame(1.0, 0.0, 0.05, 0.0, 0.1, 0.0);
    const double a = 0.05;
    /* the set's radius about its centroid ((a + out) / 5, 0), and a bound
     * on its largest coordinate */
    const double tau = tolerance(hypot(1.2 * a, a), 1.0 + a);
    const double out[4] = {0.5 * tau, 2 * tau, 0, 0}, up[4] = {0, 0, 0.5 * tau, 2 * tau};
    const int expect[4] = {4, 5, 4, 5};
    for (int k = 0; k < 4; k++) {
        mcd_contact c[5];
        c[0] = point(&f, a, a, 0, 0);
        c[1] = point(&f, a + out[k], 0, up[k], 0);
        c[2] = point(&f, a, -a, 0, 0);
        c[3] = point(&f, -a, -a, 0, 0);
        c[4] = point(&f, -a, a, 0, 0);
        ck_assert_msg(mcd_contact_manifold_reduce(c, 5) == expect[k], "case %d", k);
    }
}
END_TEST

/* The reduction works manifold by manifold: a second body pair, and the
 * same bodies with a normal turned by more than MCD_MANIFOLD_NORMAL, are
 * reduced on their own; two points stay two. */
START_TEST(manifolds_reduced_one_by_one)
{
    const frame f = tilted_frame(0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    const frame g = tilted_frame(0.0, 0.0, 0.0, 2 * MCD_MANIFOLD_NORMAL, 0.0, 0.0);
    mcd_contact c[11];
    int n = 0;
    for (int m = 0; m < 2; m++) /* 3 collinear points of f, then of g */
        for (int i = 0; i < 3; i++) c[n++] = point(m ? &g : &f, 0.1 * (i - 1), 0, 0, 0);
    for (int i = 0; i < 3; i++) { /* 3 collinear points of bodies (2, 0) */
        c[n] = point(&f, 0.1 * (i - 1), 0, 0, 0);
        c[n++].body_a = 2;
    }
    c[n++] = point(&g, 0.3, 0.3, 0, 0); /* a pair of 2 points: g, bodies (3, 1) */
    c[n - 1].body_a = 3, c[n - 1].body_b = 1;
    c[n++] = point(&g, 0.3, 0.4, 0, 0);
    c[n - 1].body_a = 3, c[n - 1].body_b = 1;
    ck_assert_int_eq(n, 11);
    ck_assert_int_eq(mcd_contact_manifold_reduce(c, n), 8);
    const double x[8] = {-0.1, 0.1, -0.1, 0.1, -0.1, 0.1, 0.3, 0.3};
    const int body_a[8] = {1, 1, 1, 1, 2, 2, 3, 3};
    for (int i = 0; i < 8; i++) {
        ck_assert_double_eq_tol(c[i].pos[0], x[i], 1e-15);
        ck_assert_int_eq(c[i].body_a, body_a[i]);
    }
}
END_TEST

/* Two free 0.1 m cubes, "top" resting on "low" (its centre 0.1 m above
 * low's, a resting gap 1e-8 m apart), top yawed by yaw and shifted by
 * (dx, dy): Bullet's face clipping of the pair. */
static void stacked_cubes(scene *s, const mcd_collision_options *o, double yaw, double dx,
                          double dy)
{
    mcd_error err = {0};
    scene_begin(s);
    int low = scene_free_body(s, "low"), top = scene_free_body(s, "top");
    scene_geom(s, low, MCD_GEOM_BOX, 0.05, 0.05, 0.05, NULL, NULL);
    scene_geom(s, top, MCD_GEOM_BOX, 0.05, 0.05, 0.05, NULL, NULL);
    ck_assert_msg(scene_finish(s, o, &err) == MCD_OK, "%s", err.msg);
    double R[9];
    rot_rpy(R, 0, 0, yaw);
    scene_place(s, "low", 0.3, -0.2, 0.05, NULL);
    scene_place(s, "top", 0.3 + dx, -0.2 + dy, 0.15 + 1e-8, R);
    ck_assert_int_eq(scene_detect(s, &err), MCD_OK);
    scene_check_invariants(s, o);
}

/* A cube resting on an equal cube under a small yaw, at positions where
 * the faces' clipping gives edge points besides the corners: every
 * detection reports 4 points, the corners of the overlap of the two faces
 * (to within the yaw times the half side), each at the resting gap. Then
 * a yaw of 0.2 rad: the overlap is a true octagon and its 8 vertices
 * stay. */
START_TEST(box_on_box_four_points_under_small_yaw)
{
    scene s;
    mcd_collision_options o = mcd_collision_options_default();
    o.bullet_activation_distance = 2e-8;
    const double yaws[4] = {1e-15, -3e-13, 1e-10, 2e-9};
    const double shift[3][2] = {{0, 0}, {0.01, -0.02}, {-0.03, 0.0}};
    for (int y = 0; y < 4; y++)
        for (int k = 0; k < 3; k++) {
            const double dx = shift[k][0], dy = shift[k][1];
            stacked_cubes(&s, &o, yaws[y], dx, dy);
            ck_assert_msg(s.n == 4, "yaw %g shift (%g %g): %d points", yaws[y], dx, dy, s.n);
            for (int i = 0; i < 4; i++) {
                const mcd_contact *c = &s.c[i];
                ck_assert_double_eq_tol(c->gap, 1e-8, 1e-12);
                double x = c->pos[0] - 0.3, yy = c->pos[1] + 0.2;
                const double ex = x < dx / 2 ? fmax(-0.05, dx - 0.05) : fmin(0.05, dx + 0.05);
                const double ey = yy < dy / 2 ? fmax(-0.05, dy - 0.05) : fmin(0.05, dy + 0.05);
                ck_assert_msg(fabs(x - ex) <= 1e-9 && fabs(yy - ey) <= 1e-9,
                              "yaw %g shift (%g %g): point (%g %g) is no corner", yaws[y], dx, dy,
                              x, yy);
            }
            scene_free(&s);
        }
    stacked_cubes(&s, &o, 0.2, 0, 0);
    ck_assert_int_eq(s.n, 8);
    scene_free(&s);
}
END_TEST

/* Three spheres of one free body in a row, 1 um into the ground plane:
 * collinear points, each the contact of its own geom (as plate64's feet),
 * so all three stay: the reduction works on one geom pair's points. */
START_TEST(geoms_of_one_body_are_not_merged)
{
    scene s;
    mcd_error err = {0};
    scene_begin(&s);
    int body = scene_free_body(&s, "bar");
    scene_geom(&s, -1, MCD_GEOM_PLANE, 0, 0, 0, NULL, NULL);
    for (int i = 0; i < 3; i++) {
        mcd_pose at = pose_rpy(0, 0, 0, 0.1 * (i - 1), 0, 0);
        scene_geom(&s, body, MCD_GEOM_SPHERE, 0.02, 0, 0, &at, NULL);
    }
    mcd_collision_options o = mcd_collision_options_default();
    ck_assert_msg(scene_finish(&s, &o, &err) == MCD_OK, "%s", err.msg);
    scene_place(&s, "bar", 0, 0, 0.02 - 1e-6, NULL);
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 3);
    scene_free(&s);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("collision-manifold");
    TCase *tc = tcase_create("manifold");
    tcase_add_test(tc, square_with_edge_points_keeps_corners);
    tcase_add_test(tc, collinear_points_keep_the_ends);
    tcase_add_test(tc, coincident_points_keep_the_deepest);
    tcase_add_test(tc, non_coplanar_sets_untouched);
    tcase_add_test(tc, tolerances);
    tcase_add_test(tc, manifolds_reduced_one_by_one);
    tcase_add_test(tc, box_on_box_four_points_under_small_yaw);
    tcase_add_test(tc, geoms_of_one_body_are_not_merged);
    suite_add_tcase(su, tc);
    return run_suite(su);
}

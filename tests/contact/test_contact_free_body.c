/* The closed-form W of rows on one free body without children
 * (src/dynamics/osc_free_body.c) against the general O(N) path
 * (mcd_osc_compliance, then mcd_osc_row_compliance): on random free bodies
 * with random points and rows, and through the contact layer on a scene
 * mixing the A1 quadruped (general path: its free base has children) with
 * a free box carrying the A1 trunk's mass properties (closed form).
 *
 * Tolerance 1e-12 relative to the largest entry of W: both are exact
 * expressions of J M^{-1} J^T (the closed form from M(k)^{-1} about the
 * centre of mass, the sweep from the articulated-body factorization), so
 * they differ by rounding only, a few hundred ulps for the inertia ratios
 * and distances used here (principal moments within a factor 100, points
 * within 3 m of the origin). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "common/random_model.h"
#include "dynamics/osc_internal.h"
#include "mcdyn/mcdyn.h"

#define TOL 1e-12

/* max |a - b| / max |b|. */
static double rel_diff(const double *a, const double *b, int n)
{
    double num = 0.0, den = 0.0;
    for (int i = 0; i < n; i++) {
        num = fmax(num, fabs(a[i] - b[i]));
        den = fmax(den, fabs(b[i]));
    }
    return num / den;
}

/* Random mass properties of a rigid body: principal moments that satisfy
 * the triangle inequality, random principal axes and centre of mass. */
static mcd_mass_props random_mass(test_rng *r)
{
    mcd_mass_props p = {0};
    p.mass = test_uniform(r, 0.1, 10.0);
    const double a = test_uniform(r, 0.01, 1.0), b = test_uniform(r, 0.01, 1.0);
    const double c = test_uniform(r, fabs(a - b) + 0.01 * (a + b), a + b);
    double R[9], quat[4], D[9] = {a, 0, 0, 0, b, 0, 0, 0, c};
    for (int i = 0; i < 4; i++) quat[i] = test_uniform(r, -1, 1);
    mcd_quat_normalize(quat);
    mcd_quat_to_m3(R, quat);
    mcd_m3_rotate_sym(p.inertia, R, D);
    test_random_vec(r, p.com, 3, 0.3);
    return p;
}

/* A model of one free body with the given mass properties. */
static mcd_model *free_body_model(const mcd_mass_props *mass)
{
    mcd_builder *b = NULL;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    mcd_link_desc l = mcd_link_desc_default();
    l.name = "body";
    l.parent = -1;
    l.jtype = MCD_JOINT_FREE;
    l.mass = *mass;
    mcd_error err = {0};
    ck_assert_msg(mcd_builder_add_link(b, &l, NULL, &err) == MCD_OK, "%s", err.msg);
    mcd_model *m = NULL;
    ck_assert_msg(mcd_model_build(b, &m, &err) == MCD_OK, "%s", err.msg);
    mcd_builder_free(b);
    return m;
}

/* W of n random rows on npts random points of body 0, both ways. */
static void compare_random_rows(test_rng *r, const mcd_model *m, mcd_data *d, mcd_osc_rows rows)
{
    enum { MAXP = 6, MAXR = 10 };
    mcd_osc_point pts[MAXP];
    int pa[MAXR], pb[MAXR];
    double coef[6 * MAXR], work[9 * MAXR], Lambda[36 * MAXP * MAXP];
    double W[MAXR * MAXR], W_ref[MAXR * MAXR];
    const int npts = 1 + (int)test_uniform(r, 0, MAXP - 0.01);
    const int n = 1 + (int)test_uniform(r, 0, MAXR - 0.01);
    for (int i = 0; i < npts; i++) {
        pts[i].body = 0;
        test_random_vec(r, pts[i].x, 3, 3.0);
    }
    for (int i = 0; i < n; i++) {
        test_random_vec(r, coef + 6 * i, 6, 1.0);
        pa[i] = (int)test_uniform(r, 0, npts - 0.01);
        pb[i] = npts > 1 && test_uniform(r, 0, 1) < 0.3 ? (pa[i] + 1) % npts : -1;
    }
    ck_assert_int_eq(mcd_osc_single_free_body(m, npts, pts), 0);
    mcd_osc_free_body_row_compliance(m, d, 0, pts, rows, n, pa, pb, coef, work, W);
    ck_assert_int_eq(mcd_osc_compliance(m, d, npts, pts, rows, Lambda), MCD_OK);
    mcd_osc_row_compliance(npts, Lambda, rows, n, pa, pb, coef, W_ref);
    const double e = rel_diff(W, W_ref, n * n);
    ck_assert_msg(e <= TOL, "%d points, %d rows (r = %d): relative difference %.3g", npts, n,
                  (int)rows, e);
}

START_TEST(closed_form_matches_sweep_on_random_free_bodies)
{
    test_rng r = {0x5eed1234ULL};
    for (int trial = 0; trial < 200; trial++) {
        const mcd_mass_props mass = random_mass(&r);
        mcd_model *m = free_body_model(&mass);
        mcd_data *d = NULL;
        ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
        double q[7];
        test_random_q(&r, m, q);
        test_random_vec(&r, q, 3, 2.0);
        ck_assert_int_eq(mcd_minv_factor(m, d, q), MCD_OK);
        compare_random_rows(&r, m, d, MCD_OSC_LINEAR);
        compare_random_rows(&r, m, d, MCD_OSC_SPATIAL);
        mcd_data_free(d);
        mcd_model_free(m);
    }
}
END_TEST

START_TEST(closed_form_refuses_bodies_with_children_or_a_parent)
{
    test_rng r = {42};
    mcd_model *m = test_random_tree(&r, 4, TEST_TREE_FREE_BASE | TEST_TREE_REVOLUTE);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->body[0].jtype, MCD_JOINT_FREE);
    for (int k = 0; k < m->nbody; k++) {
        const mcd_osc_point p = {k, {0.1, 0.2, 0.3}};
        ck_assert_int_eq(mcd_osc_single_free_body(m, 1, &p), -1);
    }
    mcd_model_free(m);
}
END_TEST

/* The A1 (floating) and a free box with the A1 trunk's mass properties. */
static mcd_model *a1_and_box(void)
{
    const char *shared = getenv("MCDYN_SHARED");
    ck_assert_ptr_nonnull(shared);
    char path[4096];
    snprintf(path, sizeof path, "%s/models/example-robot-data/a1.urdf", shared);
    mcd_builder *b = NULL;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    mcd_urdf_options o = mcd_urdf_default_options();
    o.floating_base = 1;
    mcd_error err = {0};
    int root = -1;
    ck_assert_msg(mcd_urdf_load_into(b, path, &o, "a1_", NULL, &root, &err) == MCD_OK, "%s",
                  err.msg);
    mcd_model *a1 = NULL;
    ck_assert_msg(mcd_urdf_load_file(path, &o, &a1, &err) == MCD_OK, "%s", err.msg);
    mcd_link_desc l = mcd_link_desc_default();
    l.name = "box";
    l.parent = -1;
    l.jtype = MCD_JOINT_FREE;
    l.mass = a1->body[0].mass;
    mcd_model_free(a1);
    ck_assert_msg(mcd_builder_add_link(b, &l, NULL, &err) == MCD_OK, "%s", err.msg);
    mcd_model *m = NULL;
    ck_assert_msg(mcd_model_build(b, &m, &err) == MCD_OK, "%s", err.msg);
    mcd_builder_free(b);
    return m;
}

/* The whole W of the contact layer against X Lambda X^T of all the
 * contact points by the general path, rows (eta, f, o) per contact. */
START_TEST(contact_layer_w_on_a1_and_free_box)
{
    enum { NC = 8 };
    mcd_model *m = a1_and_box();
    const int box = m->nbody - 1;
    ck_assert_int_eq(mcd_osc_single_free_body(m, 1, &(mcd_osc_point){box, {0, 0, 0}}), box);
    mcd_data *d = NULL;
    mcd_contact_ws *ws = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    ck_assert_int_eq(mcd_contact_ws_create(m, d, NC, 4, &ws, NULL), MCD_OK);
    test_rng r = {7};
    double *q = calloc((size_t)m->nq, sizeof *q), *qd = calloc((size_t)m->nv, sizeof *qd);
    double *tau = calloc((size_t)m->nv, sizeof *tau);
    test_random_q(&r, m, q);
    q[m->body[box].qadr] = 2.0; /* the box away from the robot */
    mcd_contact_point c[NC];
    for (int k = 0; k < NC; k++) { /* 4 on random A1 bodies, 4 on the box */
        const int body = k < 4 ? (int)test_uniform(&r, 0, box - 0.01) : box;
        double n[3];
        test_random_vec(&r, n, 3, 1.0);
        const double len = mcd_v3_norm(n);
        for (int i = 0; i < 3; i++) n[i] /= len;
        c[k] = (mcd_contact_point){body, -1, {0, 0, 0}, {n[0], n[1], n[2]}, 0.0, 0.5, 0.0, 0.0};
        test_random_vec(&r, c[k].pos, 3, 1.0);
    }
    const mcd_contact_options o = mcd_contact_default_options();
    ck_assert_msg(mcd_contact_setup(m, d, ws, q, qd, tau, 1e-3, NC, c, &o) == MCD_OK, "%s",
                  mcd_data_error(d));
    ck_assert_int_eq(mcd_contact_group_count(ws), 2);
    mcd_fc3d p;
    ck_assert_int_eq(mcd_contact_fc3d(ws, &p), MCD_OK);
    mcd_osc_point pts[NC];
    int pa[3 * NC], pb[3 * NC];
    double coef[18 * NC] = {0}, Lambda[9 * NC * NC], W_ref[9 * NC * NC];
    for (int k = 0; k < NC; k++) {
        pts[k].body = c[k].body_a;
        mcd_v3_copy(pts[k].x, c[k].pos);
        static const int order[3] = {2, 0, 1}; /* rows eta, f, o of the frame (f, o, eta) */
        for (int a = 0; a < 3; a++) {
            pa[3 * k + a] = k, pb[3 * k + a] = -1;
            mcd_v3_copy(coef + 6 * (3 * k + a) + 3, mcd_contact_frame(ws, k) + 3 * order[a]);
        }
    }
    ck_assert_int_eq(mcd_osc_compliance(m, d, NC, pts, MCD_OSC_LINEAR, Lambda), MCD_OK);
    mcd_osc_row_compliance(NC, Lambda, MCD_OSC_LINEAR, 3 * NC, pa, pb, coef, W_ref);
    const double e = rel_diff(p.W, W_ref, 9 * NC * NC);
    ck_assert_msg(e <= TOL, "relative difference %.3g", e);
    free(q), free(qd), free(tau);
    mcd_contact_ws_free(ws);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("contact_free_body");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, closed_form_matches_sweep_on_random_free_bodies);
    tcase_add_test(tc, closed_form_refuses_bodies_with_children_or_a_parent);
    tcase_add_test(tc, contact_layer_w_on_a1_and_free_box);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

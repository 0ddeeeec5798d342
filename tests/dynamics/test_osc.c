/* Operational-space compliance: the O(N) + O(K^2) recursion equals the dense
 * J M^{-1} J^T to 1e-10 relative (max |a - b| / max(1, max |b|)) on random
 * trees with branching, prismatic, spherical and free-floating hinges, with
 * 1 to 32 points, several per body. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/random_model.h"
#include "mcdyn/osc.h"
#include "common/check_main.h"

#define REL_TOL 1e-10

static void random_points(test_rng *r, const mcd_model *m, mcd_data *d, int K, mcd_osc_point *p)
{
    for (int i = 0; i < K; i++) {
        /* every third point shares the previous point's body */
        p[i].body = (i % 3 == 2) ? p[i - 1].body : (int)test_uniform(r, 0, m->nbody);
        double local[3];
        test_random_vec(r, local, 3, 0.5);
        mcd_pose_apply(p[i].x, &d->bd[p[i].body].X_world, local);
    }
}

static void compare_with_dense(test_rng *r, mcd_model *m, int K, mcd_osc_rows rows, int t)
{
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double *q = calloc(m->nq, 8);
    test_random_q(r, m, q);
    mcd_osc_point *p = calloc(K, sizeof *p);
    int n = (int)rows * K;
    double *L = calloc((size_t)n * n, 8), *Ld = calloc((size_t)n * n, 8);
    ck_assert_int_eq(mcd_minv_factor(m, d, q), MCD_OK);
    random_points(r, m, d, K, p);
    ck_assert_int_eq(mcd_osc_compliance(m, d, K, p, rows, L), MCD_OK);
    ck_assert_int_eq(mcd_osc_compliance_dense(m, d, q, K, p, rows, Ld), MCD_OK);
    double e = test_rel_err(L, Ld, n * n);
    ck_assert_msg(e < REL_TOL, "tree %d (nbody %d, nv %d, K %d, rows %d): rel err %g", t, m->nbody,
                  m->nv, K, (int)rows, e);
    free(q), free(p), free(L), free(Ld);
    mcd_data_free(d);
}

START_TEST(recursion_equals_dense_on_random_trees)
{
    test_rng r = {271828};
    static const int Ks[] = {1, 2, 3, 5, 8, 13, 21, 32};
    for (int t = 0; t < 40; t++) {
        int flags = TEST_TREE_ALL;
        if (t % 4 == 1) flags &= ~TEST_TREE_BRANCHING; /* chains too */
        if (t % 4 == 2) flags &= ~TEST_TREE_FREE_BASE;
        mcd_model *m = test_random_tree(&r, 1 + (t * 11) % 37, flags);
        ck_assert_ptr_nonnull(m);
        compare_with_dense(&r, m, Ks[t % 8], t % 2 ? MCD_OSC_LINEAR : MCD_OSC_SPATIAL, t);
        mcd_model_free(m);
    }
}
END_TEST

/* Two robots in one model (two roots): their cross blocks are zero. */
START_TEST(independent_trees_decouple)
{
    mcd_builder *b = NULL;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    for (int robot = 0; robot < 2; robot++)
        for (int i = 0; i < 3; i++) {
            mcd_link_desc l = mcd_link_desc_default();
            char name[16];
            snprintf(name, sizeof name, "r%d_l%d", robot, i);
            l.name = name;
            l.parent = i == 0 ? -1 : 3 * robot + i - 1;
            l.jtype = i == 0 ? MCD_JOINT_FREE : MCD_JOINT_REVOLUTE;
            l.origin.p[0] = i == 0 ? 2.0 * robot : 0.3;
            l.mass.mass = 1.0 + i;
            l.mass.inertia[0] = l.mass.inertia[4] = l.mass.inertia[8] = 0.02;
            ck_assert_int_eq(mcd_builder_add_link(b, &l, NULL, NULL), MCD_OK);
        }
    mcd_model *m = NULL;
    ck_assert_int_eq(mcd_model_build(b, &m, NULL), MCD_OK);
    mcd_builder_free(b);
    test_rng r = {3};
    compare_with_dense(&r, m, 6, MCD_OSC_SPATIAL, 0);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double q[30];
    test_random_q(&r, m, q);
    ck_assert_int_eq(mcd_minv_factor(m, d, q), MCD_OK);
    mcd_osc_point p[2] = {{2, {0, 0, 0}}, {5, {2, 0, 0}}};
    double L[36];
    ck_assert_int_eq(mcd_osc_compliance(m, d, 2, p, MCD_OSC_LINEAR, L), MCD_OK);
    for (int i = 0; i < 3; i++)
        for (int j = 3; j < 6; j++) ck_assert_double_eq(L[6 * i + j], 0.0);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

/* Model nodes through mcd_node_compliance equal the point version. */
START_TEST(node_compliance_matches_points)
{
    test_rng r = {8};
    mcd_model *m = test_random_tree(&r, 12, TEST_TREE_ALL);
    ck_assert_ptr_nonnull(m);
    mcd_pose P;
    mcd_pose_identity(&P);
    int nodes[4];
    for (int i = 0; i < 4; i++) {
        char name[8];
        snprintf(name, sizeof name, "n%d", i);
        P.p[0] = 0.1 * i;
        ck_assert_int_eq(mcd_model_add_node(m, name, (3 * i) % m->nbody, &P, &nodes[i], NULL),
                         MCD_OK);
    }
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double q[128], L[24 * 24], Ld[24 * 24];
    test_random_q(&r, m, q);
    ck_assert_int_eq(mcd_node_compliance(m, d, q, 4, nodes, MCD_OSC_SPATIAL, L), MCD_OK);
    mcd_osc_point p[4];
    for (int i = 0; i < 4; i++) {
        p[i].body = m->node[nodes[i]].body;
        mcd_pose_apply(p[i].x, &d->bd[p[i].body].X_world, m->node[nodes[i]].pose.p);
    }
    ck_assert_int_eq(mcd_osc_compliance_dense(m, d, q, 4, p, MCD_OSC_SPATIAL, Ld), MCD_OK);
    ck_assert_double_le(test_rel_err(L, Ld, 24 * 24), REL_TOL);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

/* mcd_osc_velocities = J qd and mcd_osc_apply = M^{-1} J^T F against the
 * dense point Jacobians and mass matrix (1e-10 relative). */
START_TEST(point_velocities_and_impulses_match_dense)
{
    test_rng r = {4711};
    for (int t = 0; t < 12; t++) {
        mcd_model *m = test_random_tree(&r, 4 + 2 * t, TEST_TREE_ALL);
        ck_assert_ptr_nonnull(m);
        mcd_data *d = NULL;
        ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
        const int nv = m->nv, K = 3;
        double *q = calloc(m->nq, 8), *qd = calloc(nv, 8), *M = calloc((size_t)nv * nv, 8),
               *J = calloc(6 * (size_t)nv, 8), *dq = calloc(nv, 8), *ref = calloc(nv, 8);
        test_random_q(&r, m, q);
        test_random_vec(&r, qd, nv, 1.0);
        mcd_osc_point p[3];
        double F[18], v[18], vref[18];
        test_random_vec(&r, F, 18, 1.0);
        ck_assert_int_eq(mcd_minv_factor(m, d, q), MCD_OK);
        random_points(&r, m, d, K, p);
        ck_assert_int_eq(mcd_osc_velocities(m, d, qd, K, p, MCD_OSC_SPATIAL, v), MCD_OK);
        ck_assert_int_eq(mcd_osc_apply(m, d, K, p, MCD_OSC_SPATIAL, F, dq), MCD_OK);
        /* reference: J^T F accumulated, then M y = J^T F by the dense M */
        memset(ref, 0, nv * sizeof(double));
        for (int i = 0; i < K; i++) {
            double local[3];
            mcd_pose inv;
            mcd_pose_inv(&inv, &d->bd[p[i].body].X_world);
            mcd_pose_apply(local, &inv, p[i].x);
            ck_assert_int_eq(mcd_point_jacobian(m, d, q, p[i].body, local, MCD_REF_WORLD, J),
                             MCD_OK);
            for (int a = 0; a < 6; a++) {
                vref[6 * i + a] = 0.0;
                for (int j = 0; j < nv; j++) {
                    vref[6 * i + a] += J[a * nv + j] * qd[j];
                    ref[j] += J[a * nv + j] * F[6 * i + a];
                }
            }
        }
        ck_assert_double_le(test_rel_err(v, vref, 18), REL_TOL);
        ck_assert_int_eq(mcd_mass_matrix(m, d, q, M), MCD_OK);
        double *Mdq = calloc(nv, 8);
        for (int i = 0; i < nv; i++)
            for (int j = 0; j < nv; j++) Mdq[i] += M[i * nv + j] * dq[j];
        ck_assert_msg(test_rel_err(Mdq, ref, nv) < REL_TOL, "tree %d: M dq vs J^T F", t);
        free(q), free(qd), free(M), free(J), free(dq), free(ref), free(Mdq);
        mcd_data_free(d);
        mcd_model_free(m);
    }
}
END_TEST

/* W = X Lambda X^T of constraint rows over point pairs, against the dense
 * product with X formed explicitly: row i of X holds +c_i in the block of
 * point pa_i and -c_i in that of pb_i (Eq. in osc.h). Both sides are sums
 * of the same O(1) terms, so they agree to rounding: 1e-12 relative. */
static void dense_row_compliance(int npts, const double *L, int r, int n, const int *pa,
                                 const int *pb, const double *coef, double *W)
{
    int m = r * npts, off = 6 - r; /* MCD_OSC_LINEAR keeps c_i[3..5] */
    double *X = calloc((size_t)n * m, 8);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < r; k++) {
            X[(size_t)i * m + r * pa[i] + k] += coef[6 * i + off + k];
            if (pb[i] >= 0) X[(size_t)i * m + r * pb[i] + k] -= coef[6 * i + off + k];
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int a = 0; a < m; a++)
                for (int b = 0; b < m; b++)
                    s += X[(size_t)i * m + a] * L[(size_t)a * m + b] * X[(size_t)j * m + b];
            W[(size_t)i * n + j] = s;
        }
    free(X);
}

START_TEST(row_compliance_equals_dense_product)
{
    test_rng r = {161803};
    for (int t = 0; t < 24; t++) {
        mcd_model *m = test_random_tree(&r, 2 + (t * 7) % 23, TEST_TREE_ALL);
        mcd_data *d = NULL;
        ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
        double *q = calloc(m->nq, 8);
        test_random_q(&r, m, q);
        ck_assert_int_eq(mcd_minv_factor(m, d, q), MCD_OK);
        int K = 1 + t % 6, n = 1 + (t * 5) % 13, rr = t % 2 ? 3 : 6;
        mcd_osc_point p[6];
        random_points(&r, m, d, K, p);
        double *L = calloc((size_t)rr * K * rr * K, 8), *coef = calloc(6 * (size_t)n, 8);
        double *W = calloc((size_t)n * n, 8), *Wd = calloc((size_t)n * n, 8);
        int pa[13], pb[13];
        ck_assert_int_eq(mcd_osc_compliance(m, d, K, p, (mcd_osc_rows)rr, L), MCD_OK);
        for (int i = 0; i < n; i++) {
            pa[i] = (int)test_uniform(&r, 0, K);
            pb[i] = (i % 3 == 0) ? -1 : (int)test_uniform(&r, 0, K);
            test_random_vec(&r, coef + 6 * i, 6, 1.0);
        }
        mcd_osc_row_compliance(K, L, (mcd_osc_rows)rr, n, pa, pb, coef, W);
        dense_row_compliance(K, L, rr, n, pa, pb, coef, Wd);
        double e = test_rel_err(W, Wd, n * n);
        ck_assert_msg(e < 1e-12, "case %d (K %d, n %d, rows %d): rel err %g", t, K, n, rr, e);
        free(q), free(L), free(coef), free(W), free(Wd);
        mcd_data_free(d);
        mcd_model_free(m);
    }
}
END_TEST

START_TEST(bad_input_reported)
{
    mcd_model *m = test_revolute_chain(4);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    mcd_osc_point p[2] = {{3, {0, 0, 0}}, {1, {0, 0, 0}}};
    double L[144], q[4] = {0};
    ck_assert_int_eq(mcd_osc_compliance(m, d, 2, p, MCD_OSC_LINEAR, L), MCD_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(mcd_data_error(d), "factorization"));
    ck_assert_int_eq(mcd_minv_factor(m, d, q), MCD_OK);
    p[1].x[2] = NAN;
    ck_assert_int_eq(mcd_osc_compliance(m, d, 2, p, MCD_OSC_LINEAR, L), MCD_ERR_NONFINITE);
    p[1].x[2] = 0;
    p[0].body = 9;
    ck_assert_int_eq(mcd_osc_compliance(m, d, 2, p, MCD_OSC_LINEAR, L), MCD_ERR_ARG);
    p[0].body = 3;
    ck_assert_int_eq(mcd_osc_compliance(m, d, 2, p, (mcd_osc_rows)4, L), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_osc_reserve(d, 1), MCD_OK);
    ck_assert_int_eq(mcd_osc_compliance(m, d, 2, p, MCD_OSC_LINEAR, L), MCD_ERR_CAPACITY);
    ck_assert_int_eq(mcd_osc_reserve(d, 2), MCD_OK);
    ck_assert_int_eq(mcd_osc_compliance(m, d, 2, p, MCD_OSC_LINEAR, L), MCD_OK);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

Suite *osc_suite(void)
{
    Suite *s = suite_create("osc");
    TCase *tc = tcase_create("compliance");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, recursion_equals_dense_on_random_trees);
    tcase_add_test(tc, independent_trees_decouple);
    tcase_add_test(tc, node_compliance_matches_points);
    tcase_add_test(tc, point_velocities_and_impulses_match_dense);
    tcase_add_test(tc, row_compliance_equals_dense_product);
    tcase_add_test(tc, bad_input_reported);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(osc_suite());
}

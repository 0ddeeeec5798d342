/* Operational-space inertia (Khatib's Lambda) = (J M^{-1} J^T)^{-1}:
 *  - its product with the compliance of mcd_osc_compliance is the identity
 *    to 1e-8 relative (the Cholesky inverse of a matrix with condition
 *    number kappa is accurate to about kappa eps; the hand of the Panda and
 *    the feet of the A1 have kappa below 1e6 in these configurations, so
 *    1e-8 leaves a margin of about 50);
 *  - it equals the inverse of the dense J M^{-1} J^T of
 *    mcd_osc_compliance_dense (mass matrix and LAPACK) to 1e-7 relative,
 *    inverted here by Gauss-Jordan elimination, a path that shares nothing
 *    with the recursion but the kinematics;
 *  - dependent rows are refused with MCD_ERR_SINGULAR. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/random_model.h"
#include "common/shared_robots.h"
#include "mcdyn/mcdyn.h"
#include "common/check_main.h"

#define PRODUCT_TOL 1e-8
#define DENSE_TOL   1e-7

/* The origins of the named links as operational-space points (kinematics
 * of the last factorization in d). */
static void link_points(const mcd_model *m, const mcd_data *d, int K, const char *const *links,
                        mcd_osc_point *p)
{
    for (int i = 0; i < K; i++) {
        const int f = mcd_model_frame_index(m, links[i]);
        ck_assert_msg(f >= 0, "no link %s", links[i]);
        p[i].body = m->frame[f].body;
        mcd_pose_apply(p[i].x, &d->bd[p[i].body].X_world, m->frame[f].pose.p);
    }
}

/* A^{-1} by Gauss-Jordan with partial pivoting (n x n, row-major). */
static void gauss_jordan_inverse(int n, const double *A, double *Ainv)
{
    double *W = malloc(sizeof(double) * (size_t)n * 2 * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 2 * n; j++)
            W[i * 2 * n + j] = j < n ? A[i * n + j] : (j - n == i ? 1.0 : 0.0);
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int i = c + 1; i < n; i++)
            if (fabs(W[i * 2 * n + c]) > fabs(W[piv * 2 * n + c])) piv = i;
        for (int j = 0; j < 2 * n; j++) {
            const double t = W[c * 2 * n + j];
            W[c * 2 * n + j] = W[piv * 2 * n + j], W[piv * 2 * n + j] = t;
        }
        const double inv = 1.0 / W[c * 2 * n + c];
        for (int j = 0; j < 2 * n; j++) W[c * 2 * n + j] *= inv;
        for (int i = 0; i < n; i++) {
            const double f = W[i * 2 * n + c];
            if (i == c || f == 0.0) continue;
            for (int j = 0; j < 2 * n; j++) W[i * 2 * n + j] -= f * W[c * 2 * n + j];
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) Ainv[i * n + j] = W[i * 2 * n + n + j];
    free(W);
}

static void check_inertia(const char *file, int floating_base, int K, const char *const *links,
                          mcd_osc_rows rows, unsigned seed)
{
    mcd_model *m = test_load_robot(file, floating_base);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    test_rng r = {seed};
    double *q = calloc((size_t)m->nq, sizeof *q);
    const int n = (int)rows * K;
    double *Li = calloc((size_t)n * n, 8), *L = calloc((size_t)n * n, 8);
    double *Ld = calloc((size_t)n * n, 8), *Ldi = calloc((size_t)n * n, 8);
    mcd_osc_point p[8];
    for (int trial = 0; trial < 5; trial++) {
        test_random_q(&r, m, q);
        ck_assert_int_eq(mcd_minv_factor(m, d, q), MCD_OK);
        link_points(m, d, K, links, p);
        ck_assert_int_eq(mcd_osc_compliance(m, d, K, p, rows, L), MCD_OK);
        ck_assert_msg(mcd_osc_inertia(m, d, K, p, rows, Li) == MCD_OK, "%s", mcd_data_error(d));
        double err = 0.0, scale = 0.0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double t = 0.0;
                for (int k = 0; k < n; k++) t += L[i * n + k] * Li[k * n + j];
                err = fmax(err, fabs(t - (i == j)));
            }
        ck_assert_msg(err < PRODUCT_TOL, "%s: |Lambda inertia - I| = %g", file, err);
        ck_assert_int_eq(mcd_osc_compliance_dense(m, d, q, K, p, rows, Ld), MCD_OK);
        gauss_jordan_inverse(n, Ld, Ldi);
        for (int i = 0; i < n * n; i++) scale = fmax(scale, fabs(Ldi[i]));
        const double e = test_rel_err(Li, Ldi, n * n);
        ck_assert_msg(e < DENSE_TOL, "%s: inertia vs dense inverse: rel err %g (scale %g)", file, e,
                      scale);
    }
    free(q), free(Li), free(L), free(Ld), free(Ldi);
    mcd_data_free(d);
    mcd_model_free(m);
}

START_TEST(panda_hand_spatial)
{
    static const char *const links[] = {"panda_hand_tcp"};
    check_inertia("panda_collision.urdf", 0, 1, links, MCD_OSC_SPATIAL, 21);
}
END_TEST

START_TEST(a1_feet_linear)
{
    static const char *const links[] = {"FL_foot", "FR_foot", "RL_foot", "RR_foot"};
    check_inertia("a1.urdf", 1, 4, links, MCD_OSC_LINEAR, 22);
}
END_TEST

/* The node variant factorizes M itself and agrees with the point variant. */
START_TEST(node_variant_matches)
{
    mcd_model *m = test_load_robot("panda_collision.urdf", 0);
    const int f = mcd_model_frame_index(m, "panda_hand_tcp");
    int node = -1;
    ck_assert_int_eq(mcd_model_add_node(m, "tcp", m->frame[f].body, &m->frame[f].pose, &node, NULL),
                     MCD_OK);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    test_rng r = {23};
    double *q = calloc((size_t)m->nq, sizeof *q), a[36], b[36];
    test_random_q(&r, m, q);
    ck_assert_int_eq(mcd_node_osc_inertia(m, d, q, 1, &node, MCD_OSC_SPATIAL, a), MCD_OK);
    mcd_osc_point p = {m->frame[f].body, {0, 0, 0}};
    mcd_pose_apply(p.x, &d->bd[p.body].X_world, m->frame[f].pose.p);
    ck_assert_int_eq(mcd_osc_inertia(m, d, 1, &p, MCD_OSC_SPATIAL, b), MCD_OK);
    ck_assert_double_le(test_rel_err(a, b, 36), 1e-14);
    free(q);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

/* Six rows of a point on the Panda's second link (two joints) and two
 * points on one body moving together are singular. */
START_TEST(dependent_rows_are_refused)
{
    mcd_model *m = test_load_robot("panda_collision.urdf", 0);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double *q = calloc((size_t)m->nq, sizeof *q), out[144];
    mcd_model_neutral(m, q);
    ck_assert_int_eq(mcd_minv_factor(m, d, q), MCD_OK);
    static const char *const link2[] = {"panda_link2"};
    mcd_osc_point p[2];
    link_points(m, d, 1, link2, p);
    ck_assert_int_eq(mcd_osc_inertia(m, d, 1, p, MCD_OSC_SPATIAL, out), MCD_ERR_SINGULAR);
    ck_assert_ptr_nonnull(strstr(mcd_data_error(d), "singular"));
    static const char *const same[] = {"panda_link7", "panda_link7"};
    link_points(m, d, 2, same, p);
    ck_assert_int_eq(mcd_osc_inertia(m, d, 2, p, MCD_OSC_LINEAR, out), MCD_ERR_SINGULAR);
    ck_assert_int_eq(mcd_osc_inertia(m, d, 1, p, MCD_OSC_LINEAR, NULL), MCD_ERR_ARG);
    free(q);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("osc_inertia");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, panda_hand_spatial);
    tcase_add_test(tc, a1_feet_linear);
    tcase_add_test(tc, node_variant_matches);
    tcase_add_test(tc, dependent_rows_are_refused);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

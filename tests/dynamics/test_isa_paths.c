/* The portable and the AVX2 builds of the recursion passes
 * (src/dynamics/dynamics_internal.h) give the same results bit for bit:
 * the AVX2 build is the same C with wider vectors, without FMA and without
 * reassociation, so every sum rounds as in the portable build. Forward
 * dynamics (with and without external forces), inverse dynamics, the mass
 * matrix, M^-1 x and Lambda of 4 points are compared with memcmp on random
 * trees of every hinge type, a 100-link chain, the A1 and the humanoid
 * with a floating base. A reordered sum or a contracted multiply-add would
 * differ in the last bits and fail.
 *
 * On a CPU without AVX2 (or with MCDYN_PORTABLE set) only the portable
 * build can run: the test says so and compares the portable build with
 * itself, which still checks that each call is deterministic. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/random_model.h"
#include "common/shared_robots.h"
#include "dynamics/dynamics_internal.h"
#include "mcdyn/mcdyn.h"
#include "common/check_main.h"

#define POINTS 4

/* Every output of one build (use_avx2 as given) at one state, into out;
 * returns the number of doubles written. */
static size_t outputs(const mcd_model *m, mcd_data *d, int use_avx2, const double *q,
                      const double *v, const double *fext, double *out)
{
    const int nv = m->nv, K = m->nbody < POINTS ? m->nbody : POINTS;
    double *o = out;
    d->use_avx2 = use_avx2;
    ck_assert_int_eq(mcd_forward_dynamics(m, d, q, v, v, NULL, o), MCD_OK);
    ck_assert_int_eq(mcd_forward_dynamics(m, d, q, v, v, fext, o += nv), MCD_OK);
    ck_assert_int_eq(mcd_inverse_dynamics(m, d, q, v, v, fext, o += nv), MCD_OK);
    ck_assert_int_eq(mcd_mass_matrix(m, d, q, o += nv), MCD_OK);
    ck_assert_int_eq(mcd_minv_factor(m, d, q), MCD_OK);
    ck_assert_int_eq(mcd_minv_solve(m, d, v, o += nv * nv), MCD_OK);
    mcd_osc_point pts[POINTS];
    for (int k = 0; k < K; k++) {
        const double local[3] = {0.05, 0.0, 0.01 * k};
        pts[k].body = m->nbody - 1 - k;
        mcd_pose_apply(pts[k].x, &d->bd[pts[k].body].X_world, local);
    }
    ck_assert_int_eq(mcd_osc_compliance(m, d, K, pts, MCD_OSC_LINEAR, o += nv), MCD_OK);
    return (size_t)(o + 9 * K * K - out);
}

/* Both builds on m at 5 random states agree bit for bit. */
static void compare_builds(const mcd_model *m, const char *label)
{
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    const int avx2 = d->use_avx2;
    const size_t nv = (size_t)m->nv, n = 4 * nv + nv * nv + 9 * POINTS * POINTS;
    double *q = malloc(sizeof(double) * ((size_t)m->nq + nv + 6 * (size_t)m->nbody + 2 * n));
    double *v = q + m->nq, *fext = v + nv, *a = fext + 6 * m->nbody, *b = a + n;
    test_rng r = {0x15aull};
    for (int s = 0; s < 5; s++) {
        test_random_q(&r, m, q);
        test_random_vec(&r, v, m->nv, 1.0);
        test_random_vec(&r, fext, 6 * m->nbody, 1.0);
        const size_t na = outputs(m, d, 0, q, v, fext, a), nb = outputs(m, d, avx2, q, v, fext, b);
        ck_assert_uint_eq(na, nb);
        ck_assert_msg(memcmp(a, b, na * sizeof *a) == 0,
                      "%s state %d: the AVX2 build differs from the portable one", label, s);
    }
    printf("%s: %s\n", label,
           avx2 ? "AVX2 and portable builds bit-identical"
                : "AVX2 build not available here (CPU or MCDYN_PORTABLE): portable only");
    free(q);
    mcd_data_free(d);
}

START_TEST(random_trees_agree)
{
    test_rng r = {0x7eeull};
    for (int t = 0; t < 10; t++) {
        mcd_model *m = test_random_tree(&r, 2 + 3 * t, TEST_TREE_ALL);
        char label[64];
        snprintf(label, sizeof label, "random tree %d", t);
        compare_builds(m, label);
        mcd_model_free(m);
    }
}
END_TEST

START_TEST(chain_agrees)
{
    mcd_model *m = test_revolute_chain(100);
    compare_builds(m, "revolute chain N=100");
    mcd_model_free(m);
}
END_TEST

static const char *const robots[] = {"example-robot-data/a1.urdf", "bullet3/humanoid.urdf"};

START_TEST(robots_agree)
{
    mcd_model *m = test_load_shared_model(robots[_i], 1, 0);
    compare_builds(m, robots[_i]);
    mcd_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dynamics-isa-paths");
    TCase *tc = tcase_create("builds");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_trees_agree);
    tcase_add_test(tc, chain_agrees);
    tcase_add_loop_test(tc, robots_agree, 0, (int)(sizeof robots / sizeof *robots));
    suite_add_tcase(s, tc);
    return run_suite(s);
}

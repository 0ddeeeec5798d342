/* Cross-check of forward dynamics against Bullet's btMultiBody, the peer of
 * `mcdyn bench dynamics`, on the benchmark's own revolute chains
 * (tools/chain_model.h) turned into a multibody by the benchmark's own code
 * (tools/bench_bullet_model.h, tools/bench_bullet.h).
 *
 * At random states (q uniform in [-2, 2] rad, qd in [-2, 2] rad/s, tau in
 * [-5, 5] N m) the joint accelerations of mcd_forward_dynamics and of
 * btMultiBody::computeAccelerationsArticulatedBodyAlgorithmMultiDof agree to
 *   ||qdd_mcdyn - qdd_bullet||_inf <= 1e-9 ||qdd_bullet||_inf.
 * Both are O(N) articulated-body recursions in double precision, but in
 * different frames (Bullet's link frames sit at the centres of mass, ours at
 * the joints) and orders of operations; each rounds to about N eps relative
 * on these well-conditioned chains (cond(M) below 1e6 at N = 100), so 1e-9
 * leaves a margin of over 100 at N = 100. A dropped term (gravity, the
 * gyroscopic force, a wrong offset or axis sign) changes qdd by order 1 and
 * fails the test; the test also checks that qdd is not trivially small.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_bullet.h"
#include "bench_bullet_model.h"
#include "chain_model.h"
#include "common/random_model.h"
#include "mcdyn/dynamics.h"
#include "common/check_main.h"

#define STATES    10
#define TOLERANCE 1e-9

static const int chain_lengths[] = {1, 2, 3, 7, 20, 100};

static double max_abs(const double *v, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(v[i]));
    return m;
}

START_TEST(test_chain_matches_bullet)
{
    const int N = chain_lengths[_i];
    mcd_model *m = NULL;
    mcd_data *d = NULL;
    mcd_error err;
    ck_assert_msg(chain_model_make(N, &m, &err) == MCD_OK, "%s", err.msg);
    ck_assert_msg(mcd_data_create(m, &d, &err) == MCD_OK, "%s", err.msg);
    bench_bullet_link *links = calloc((size_t)N, sizeof *links);
    double *buf = calloc(5 * (size_t)N, sizeof *buf);
    ck_assert(links && buf);
    double *q = buf, *qd = q + N, *tau = qd + N, *qdd = tau + N, *qdd_bullet = qdd + N;
    char msg[256] = "";
    ck_assert_msg(bench_bullet_links_from_model(m, links, msg, sizeof msg) == 0, "%s", msg);
    bench_bullet_multibody *b = NULL;
    ck_assert_msg(bench_bullet_make(links, N, &b, msg, sizeof msg) == 0, "%s", msg);
    test_rng r = {0x5eed0000ull + (unsigned)N};
    double worst = 0;
    for (int s = 0; s < STATES; s++) {
        test_random_vec(&r, q, N, 2.0);
        test_random_vec(&r, qd, N, 2.0);
        test_random_vec(&r, tau, N, 5.0);
        ck_assert_int_eq(mcd_forward_dynamics(m, d, q, qd, tau, NULL, qdd), MCD_OK);
        bench_bullet_forward_dynamics(b, q, qd, tau, qdd_bullet);
        double diff = 0;
        for (int i = 0; i < N; i++) diff = fmax(diff, fabs(qdd[i] - qdd_bullet[i]));
        const double scale = max_abs(qdd_bullet, N);
        ck_assert_msg(scale > 1.0, "N = %d state %d: |qdd| = %g is too small to test", N, s, scale);
        ck_assert_msg(diff <= TOLERANCE * scale,
                      "N = %d state %d: |qdd - qdd_bullet| = %.3g > %g * %.3g", N, s, diff,
                      TOLERANCE, scale);
        worst = fmax(worst, diff / scale);
    }
    printf("chain N = %4d: max relative difference in qdd from Bullet %.1e\n", N, worst);
    bench_bullet_free(b);
    free(buf);
    free(links);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dynamics-bullet-crosscheck");
    TCase *tc = tcase_create("chains");
    tcase_add_loop_test(tc, test_chain_matches_bullet, 0,
                        (int)(sizeof chain_lengths / sizeof *chain_lengths));
    suite_add_tcase(s, tc);
    return run_suite(s);
}

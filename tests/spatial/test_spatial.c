/* Identities of the spatial layer (include/mcdyn/spatial.h), each against
 * an independent formula of the same header:
 *  - Shepperd's quaternion of a rotation matrix inverts the closed-form
 *    matrix of a unit quaternion: mcd_quat_from_m3(mcd_quat_to_m3(q)) = q
 *    for q with w > 0, through each of Shepperd's four branches (the w
 *    branch when the trace is positive, w > 1/2; else the one of the
 *    largest of x, y, z: the test draws q with each component the largest). Each entry of R is a
 * sum of products of two entries of q (errors of a few ulps); Shepperd divides by s = 4 times the
 * largest component (>= 2: a unit quaternion's largest entry is at least 1/2) and takes one square
 * root, so q comes back within ~10 ulps: 1e-14.
 *  - Featherstone's force cross product is minus the transpose of the
 *    motion cross product: (V x* f) . m = -f . (V x m) for all V, f, m
 *    (crf(V) = -crm(V)^T). With entries in [-1, 1] both sides sum 18
 *    products of three factors: 1e-14 absolute. */
#include <check.h>
#include <math.h>
#include <stdint.h>

#include "common/check_main.h"
#include "mcdyn/spatial.h"

#define TOL 1e-14

static double uniform(uint64_t *state) /* [-1, 1) */
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return (double)(*state >> 11) * 0x1p-52 - 1.0;
}

/* A random unit quaternion whose component index `big` is the largest in
 * magnitude, with w > 0. */
static void random_quat(uint64_t *state, int big, double q[4])
{
    for (;;) {
        for (int i = 0; i < 4; i++) q[i] = uniform(state);
        double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (n < 0.1) continue;
        for (int i = 0; i < 4; i++) q[i] /= n;
        int largest = 0;
        for (int i = 1; i < 4; i++)
            if (fabs(q[i]) > fabs(q[largest])) largest = i;
        if (largest != big || fabs(q[0]) < 0.05) continue;
        if (q[0] < 0)
            for (int i = 0; i < 4; i++) q[i] = -q[i];
        return;
    }
}

START_TEST(quaternion_of_a_rotation_matrix_inverts_its_matrix)
{
    const int big = _i; /* w, x, y or z the largest: one of Shepperd's branches */
    uint64_t state = 0x5eed + (uint64_t)big;
    for (int trial = 0; trial < 2000; trial++) {
        double q[4], R[9], back[4];
        random_quat(&state, big, q);
        mcd_quat_to_m3(R, q);
        mcd_quat_from_m3(back, R);
        for (int i = 0; i < 4; i++)
            ck_assert_msg(fabs(back[i] - q[i]) < TOL,
                          "branch %d: q = (%g, %g, %g, %g), component %d comes back as %.17g", big,
                          q[0], q[1], q[2], q[3], i, back[i]);
    }
}
END_TEST

static double dot6(const double a[6], const double b[6])
{
    double s = 0.0;
    for (int i = 0; i < 6; i++) s += a[i] * b[i];
    return s;
}

START_TEST(force_cross_is_minus_the_transposed_motion_cross)
{
    uint64_t state = 0xc0ffee;
    for (int trial = 0; trial < 10000; trial++) {
        double V[6], f[6], m[6], Vf[6], Vm[6];
        for (int i = 0; i < 6; i++)
            V[i] = uniform(&state), f[i] = uniform(&state), m[i] = uniform(&state);
        mcd_force_cross(Vf, V, f);
        mcd_motion_cross(Vm, V, m);
        const double lhs = dot6(Vf, m), rhs = -dot6(f, Vm);
        ck_assert_msg(fabs(lhs - rhs) < TOL, "(V x* f) . m = %.17g, -f . (V x m) = %.17g", lhs,
                      rhs);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("spatial");
    TCase *tc = tcase_create("identities");
    tcase_add_loop_test(tc, quaternion_of_a_rotation_matrix_inverts_its_matrix, 0, 4);
    tcase_add_test(tc, force_cross_is_minus_the_transposed_motion_cross);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* The free joint's D^{-1} (src/dynamics/small_spd.c) against a full
 * inverse.
 *
 * On the A1 and the humanoid with a floating base, at random
 * configurations, D = H P H^* of the root's free joint is rebuilt from the
 * factorization's own P(root) and H^*(root), and the D^{-1} the
 * factorization stored must equal its Gauss-Jordan inverse (partial
 * pivoting, long double) to 1e-12 relative (max-abs entry over the largest
 * entry). D is the articulated inertia of the whole robot, referred to the
 * world origin; its condition number stays below about 1e3 here, so both
 * inverses are accurate to about 1e-13 and 1e-12 is a margin of ten. A
 * wrong sign or a transposed block errs by order 1.
 *
 * Matrices that are not positive definite are refused: a negative pivot
 * early or late in the factorization, a singular trailing block, and an
 * indefinite 3x3 (spherical joints).
 *
 * The floating base's shortcut past the exact zeros and ones of its
 * translation columns gives D^{-1}, G and Lambda bit for bit equal to the
 * general path's. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/random_model.h"
#include "common/shared_robots.h"
#include "dynamics/dynamics_internal.h"
#include "mcdyn/mcdyn.h"
#include "common/check_main.h"

#define TOLERANCE 1e-12
#define STATES    10

/* Ainv = A^{-1} (6x6) by Gauss-Jordan elimination in long double. */
static void gauss_jordan6(const double *A, double *Ainv)
{
    long double W[6][12];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 12; j++) W[i][j] = j < 6 ? A[6 * i + j] : (j - 6 == i);
    for (int c = 0; c < 6; c++) {
        int p = c;
        for (int i = c + 1; i < 6; i++)
            if (fabsl(W[i][c]) > fabsl(W[p][c])) p = i;
        for (int j = 0; j < 12; j++) {
            const long double t = W[c][j];
            W[c][j] = W[p][j], W[p][j] = t;
        }
        const long double inv = 1.0L / W[c][c];
        for (int j = 0; j < 12; j++) W[c][j] *= inv;
        for (int i = 0; i < 6; i++) {
            const long double f = W[i][c];
            if (i == c) continue;
            for (int j = 0; j < 12; j++) W[i][j] -= f * W[c][j];
        }
    }
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) Ainv[6 * i + j] = (double)W[i][6 + j];
}

/* max |X - ref| / max |ref| over 36 entries */
static double relative_difference(const double *X, const double *ref)
{
    double diff = 0, scale = 0;
    for (int i = 0; i < 36; i++) {
        diff = fmax(diff, fabs(X[i] - ref[i]));
        scale = fmax(scale, fabs(ref[i]));
    }
    return diff / scale;
}

/* D = H P H^* of the root (6 columns) from the factorization in d: P(root)
 * stays in its slot of d->P after the sweep, which ends at the root. */
static void free_joint_D(const mcd_model *m, const mcd_data *d, double *D)
{
    const double *Hs = d->Hstar + 6 * m->body[0].vadr;
    const mcd_sym6 *P = d->P + d->plan[0].P_slot;
    for (int c = 0; c < 6; c++) {
        double U[6];
        mcd_sym6_mul_v(U, P, Hs + 6 * c);
        for (int r = 0; r < 6; r++) {
            double t = 0.0;
            for (int i = 0; i < 6; i++) t += Hs[6 * r + i] * U[i];
            D[6 * r + c] = t;
        }
    }
}

static const char *const robots[] = {"example-robot-data/a1.urdf", "bullet3/humanoid.urdf"};

START_TEST(free_joint_inverse_matches_gauss_jordan)
{
    mcd_model *m = test_load_shared_model(robots[_i], 1, 0);
    ck_assert_int_eq(m->body[0].jtype, MCD_JOINT_FREE);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double *q = calloc((size_t)m->nq, sizeof *q);
    test_rng r = {0xf4eeull + (unsigned)_i};
    double worst = 0;
    for (int s = 0; s < STATES; s++) {
        test_random_q(&r, m, q);
        ck_assert_int_eq(mcd_minv_factor(m, d, q), MCD_OK);
        double D[36], ref[36];
        free_joint_D(m, d, D);
        gauss_jordan6(D, ref);
        const double *Dinv = d->Dinv + d->plan[0].dinv_adr;
        const double e = relative_difference(Dinv, ref);
        ck_assert_msg(e <= TOLERANCE, "%s state %d: D^-1 differs from Gauss-Jordan by %.3g > %g",
                      robots[_i], s, e, TOLERANCE);
        worst = fmax(worst, e);
    }
    printf("%s: free joint D^-1, max relative difference from Gauss-Jordan %.1e\n", robots[_i],
           worst);
    free(q);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

/* Lambda of K points (the last bodies, 5 cm off their origins) into L. */
static void compliance_of_last_bodies(const mcd_model *m, mcd_data *d, int K, mcd_osc_rows rows,
                                      double *L)
{
    mcd_osc_point pts[8];
    for (int k = 0; k < K; k++) {
        const double local[3] = {0.05, 0.0, 0.0};
        pts[k].body = m->nbody - 1 - k;
        mcd_pose_apply(pts[k].x, &d->bd[pts[k].body].X_world, local);
    }
    ck_assert_int_eq(mcd_osc_compliance(m, d, K, pts, rows, L), MCD_OK);
}

/* The floating base's path without products by the exact 0/1 entries of
 * its translation columns (mcd_body_plan.unit_translation, in the inertia
 * step and in Omega(root)) against the general path it skips products of:
 * D^{-1}, G and Lambda equal to the last bit (==, so that only the sign of
 * a zero may differ). */
START_TEST(floating_base_shortcut_is_the_general_path_bit_for_bit)
{
    mcd_model *m = test_load_shared_model(robots[_i], 1, 0);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    ck_assert_int_eq(mcd_osc_reserve(d, 8), MCD_OK);
    ck_assert_msg(d->plan[0].unit_translation, "%s: the shortcut is not taken", robots[_i]);
    double *q = calloc((size_t)m->nq, sizeof *q);
    test_rng r = {0xba5eull + (unsigned)_i};
    static double L[2][48 * 48];
    double Dinv[2][36], G[2][36];
    for (int s = 0; s < STATES; s++) {
        test_random_q(&r, m, q);
        const mcd_osc_rows rows = s % 2 ? MCD_OSC_SPATIAL : MCD_OSC_LINEAR;
        for (int general = 0; general < 2; general++) {
            d->plan[0].unit_translation = !general;
            ck_assert_int_eq(mcd_minv_factor(m, d, q), MCD_OK);
            memcpy(Dinv[general], d->Dinv + d->plan[0].dinv_adr, sizeof Dinv[0]);
            memcpy(G[general], d->G + 6 * m->body[0].vadr, sizeof G[0]);
            compliance_of_last_bodies(m, d, 8, rows, L[general]);
        }
        d->plan[0].unit_translation = 1;
        for (int i = 0; i < 36; i++) {
            ck_assert_msg(Dinv[0][i] == Dinv[1][i], "%s state %d: D^-1[%d]", robots[_i], s, i);
            ck_assert_msg(G[0][i] == G[1][i], "%s state %d: G[%d]", robots[_i], s, i);
        }
        for (int i = 0; i < 64 * (int)rows * (int)rows; i++)
            ck_assert_msg(L[0][i] == L[1][i], "%s state %d: Lambda[%d]", robots[_i], s, i);
    }
    free(q);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

/* A positive-definite 6x6: the spatial inertia of a 2 kg body with its
 * centre of mass off the origin, in the library's layout. */
static void spd6_example(double *D)
{
    const double c[3] = {0.1, -0.2, 0.3}, Jc[9] = {0.05, 0.001, 0, 0.001, 0.04, 0, 0, 0, 0.03};
    mcd_sym6 I;
    mcd_sym6_rigid(&I, 2.0, c, Jc);
    for (int c = 0; c < 6; c++) {
        double e[6] = {0}, col[6];
        e[c] = 1.0;
        mcd_sym6_mul_v(col, &I, e);
        for (int r = 0; r < 6; r++) D[6 * r + c] = col[r];
    }
}

START_TEST(not_positive_definite_is_refused)
{
    double D[36], X[36], Dinv[36];
    spd6_example(D);
    ck_assert_int_eq(mcd_small_spd_inverse(6, D, Dinv), 1);
    double ref[36];
    gauss_jordan6(D, ref);
    ck_assert_double_le(relative_difference(Dinv, ref), TOLERANCE);
    for (int k = 0; k < 6; k += 5) { /* a negative pivot in A, then in S */
        for (int i = 0; i < 36; i++) X[i] = D[i];
        X[7 * k] = -X[7 * k];
        ck_assert_int_eq(mcd_small_spd_inverse(6, X, Dinv), 0);
    }
    for (int i = 0; i < 36; i++) X[i] = D[i];
    for (int i = 0; i < 6; i++) X[6 * i + 4] = X[6 * i + 3]; /* column 4 = column 3 */
    for (int j = 0; j < 6; j++) X[6 * 4 + j] = X[6 * 3 + j]; /* row 4 = row 3: singular S */
    ck_assert_int_eq(mcd_small_spd_inverse(6, X, Dinv), 0);
    const double indefinite[9] = {1, 2, 0, 2, 1, 0, 0, 0, 1}; /* eigenvalues 3, -1, 1 */
    ck_assert_int_eq(mcd_small_spd_inverse(3, indefinite, Dinv), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dynamics-free-joint-inverse");
    TCase *tc = tcase_create("inverse");
    tcase_add_loop_test(tc, free_joint_inverse_matches_gauss_jordan, 0,
                        (int)(sizeof robots / sizeof *robots));
    tcase_add_test(tc, not_positive_definite_is_refused);
    tcase_add_loop_test(tc, floating_base_shortcut_is_the_general_path_bit_for_bit, 0,
                        (int)(sizeof robots / sizeof *robots));
    suite_add_tcase(s, tc);
    return run_suite(s);
}

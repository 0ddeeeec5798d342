/* Todorov's parameterisation (Mylapilli & Jain Eq. (49)-(51)) and the MNCP
 * Jacobian Eq. (58): dF_u/dz against finite differences at random points
 * in each regime, the full Jacobian against finite differences of Phi,
 * and the Coulomb property of the parameterisation. */
#include "common/check_main.h"
#include "solver/mncp_todorov.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>

#define FD_STEP 1e-7 /* central differences */
#define FD_TOL  1e-6 /* |analytic - FD| allowed; data are O(1) */
#define POINTS  500  /* random points per regime */

/* A random z of the regime: separation z_n > 0; stick |z_t| = rho mu F_n
 * with rho in [0.05, 0.95]; slip |z_t| = rho mu F_n + delta, rho in [1, 4],
 * delta in [0.01, 0.5] (so that mu = 0 slips too). */
static void random_z(tu_rng *rng, int regime, double mu, double z[3])
{
    double th = tu_uniform(rng, 0, 2 * acos(-1.0));
    if (regime == TU_SEPARATE) {
        z[0] = tu_uniform(rng, 0.01, 2);
        z[1] = tu_uniform(rng, -2, 2);
        z[2] = tu_uniform(rng, -2, 2);
        return;
    }
    z[0] = -tu_uniform(rng, 0.01, 2);
    double norm = regime == TU_STICK
                      ? tu_uniform(rng, 0.05, 0.95) * mu * (-z[0])
                      : tu_uniform(rng, 1, 4) * mu * (-z[0]) + tu_uniform(rng, 0.01, 0.5);
    z[1] = norm * cos(th);
    z[2] = norm * sin(th);
}

static void check_block_against_fd(double mu, const double z[3], int regime)
{
    double F[3], dF[9], Fp[3], Fm[3], zp[3];
    mcd_todorov_contact(mu, z, F, dF);
    for (int b = 0; b < 3; b++) {
        for (int i = 0; i < 3; i++) zp[i] = z[i];
        zp[b] = z[b] + FD_STEP;
        mcd_todorov_contact(mu, zp, Fp, NULL);
        zp[b] = z[b] - FD_STEP;
        mcd_todorov_contact(mu, zp, Fm, NULL);
        for (int a = 0; a < 3; a++) {
            double fd = (Fp[a] - Fm[a]) / (2 * FD_STEP);
            ck_assert_msg(fabs(dF[3 * a + b] - fd) < FD_TOL,
                          "regime %d mu %g z (%g %g %g): dF[%d][%d] = %.10g, FD %.10g", regime, mu,
                          z[0], z[1], z[2], a, b, dF[3 * a + b], fd);
        }
    }
}

static void check_regime(int regime, unsigned seed)
{
    tu_rng rng = {seed};
    for (int t = 0; t < POINTS; t++) {
        double mu = t % 10 == 0 ? 0.0 : tu_uniform(&rng, 0.05, 1.5);
        double z[3];
        random_z(&rng, regime, mu, z);
        if (mu == 0.0 && regime == TU_STICK) continue; /* no stick interior with mu = 0 */
        check_block_against_fd(mu, z, regime);
    }
}

START_TEST(dF_dz_separation)
{
    check_regime(TU_SEPARATE, 21);
}
END_TEST

START_TEST(dF_dz_stick)
{
    check_regime(TU_STICK, 22);
}
END_TEST

START_TEST(dF_dz_slip)
{
    check_regime(TU_SLIP, 23);
}
END_TEST

/* The corrected table, entry by entry, at one slip and one stick point. */
START_TEST(dF_dz_closed_form)
{
    const double mu = 0.5;
    double z[3] = {-2.0, 3.0, 4.0}, F[3], dF[9]; /* F_n = 2, |z_t| = 5 > mu F_n = 1: slip */
    mcd_todorov_contact(mu, z, F, dF);
    double s = 0.2, t1 = 0.6, t2 = 0.8; /* s = mu F_n / |z_t| */
    ck_assert_double_eq_tol(F[0], 2.0, 1e-15);
    ck_assert_double_eq_tol(F[1], -s * 3.0, 1e-15);
    ck_assert_double_eq_tol(F[2], -s * 4.0, 1e-15);
    const double want[9] = {-1,          0,       0,           mu * t1,     -s * t2 * t2,
                            s * t1 * t2, mu * t2, s * t1 * t2, -s * t1 * t1};
    for (int i = 0; i < 9; i++) ck_assert_double_eq_tol(dF[i], want[i], 1e-15);
    double zs[3] = {-2.0, 0.3, -0.4}; /* |z_t| = 0.5 <= 1: stick */
    mcd_todorov_contact(mu, zs, F, dF);
    const double stick[9] = {-1, 0, 0, 0, -1, 0, 0, 0, -1};
    for (int i = 0; i < 9; i++) ck_assert_double_eq(dF[i], stick[i]);
    ck_assert_double_eq(F[1], -0.3);
}
END_TEST

/* For every z, (F(z), v = F(z) + z) satisfies Coulomb's law exactly
 * (Eq. 49-51): the Siconos residual of r = F, u = v is zero. W = I and
 * q = z give u = W r + q = F + z. */
START_TEST(parameterisation_satisfies_coulomb)
{
    enum { NC = 50 };
    tu_rng rng = {24};
    mcd_fc3d p;
    mcd_fc3d_alloc(&p, NC, 0, NULL);
    double r[3 * NC];
    for (int k = 0; k < NC; k++) {
        p.mu[k] = tu_uniform(&rng, 0, 1);
        double *z = p.q + 3 * k;
        random_z(&rng, k % 3, p.mu[k], z);
        mcd_todorov_contact(p.mu[k], z, r + 3 * k, NULL);
        for (int a = 0; a < 3; a++) p.W[(3 * k + a) * 3 * NC + 3 * k + a] = 1.0;
    }
    ck_assert_double_le(mcd_fc3d_error(&p, r, NULL), 1e-15);
    ck_assert_double_le(tu_coulomb_violation(&p, r, 1e-12), 1e-14);
    mcd_fc3d_free(&p);
}
END_TEST

START_TEST(mncp_jacobian_matches_finite_differences)
{
    enum { NC = 6, NB = 2, N = NB + 3 * NC };
    tu_rng rng = {25};
    mcd_fc3d p;
    mcd_fc3d_alloc(&p, NC, NB, NULL);
    tu_spd_matrix(&rng, N, 0.5, p.W);
    for (int i = 0; i < N; i++) p.q[i] = tu_uniform(&rng, -1, 1);
    double r[N], u[N], dF[9 * NC], x[N], xp[N], phi[N], phi_p[N], phi_m[N], J[N * N], a[N];
    mcd_mncp s = {&p, a, r, u, dF};
    for (int trial = 0; trial < 30; trial++) {
        for (int i = 0; i < NB; i++) x[i] = tu_uniform(&rng, -1, 1);
        for (int k = 0; k < NC; k++) {
            p.mu[k] = tu_uniform(&rng, 0.1, 1.0);
            random_z(&rng, (k + trial) % 3, p.mu[k], x + NB + 3 * k);
        }
        mcd_mncp_units(&p, a);
        mcd_mncp_residual(&s, x, phi);
        mcd_mncp_jacobian(&s, x, J);
        for (int j = 0; j < N; j++) {
            for (int i = 0; i < N; i++) xp[i] = x[i];
            xp[j] = x[j] + FD_STEP;
            mcd_mncp_residual(&s, xp, phi_p);
            xp[j] = x[j] - FD_STEP;
            mcd_mncp_residual(&s, xp, phi_m);
            for (int i = 0; i < N; i++) {
                double fd = (phi_p[i] - phi_m[i]) / (2 * FD_STEP);
                ck_assert_msg(fabs(J[i * N + j] - fd) < FD_TOL, "trial %d J[%d][%d] = %g, FD %g",
                              trial, i, j, J[i * N + j], fd);
            }
        }
    }
    mcd_fc3d_free(&p);
}
END_TEST

/* The warm start z = W r + q - r reproduces a solution exactly: Phi = 0. */
START_TEST(warm_start_reproduces_a_solution)
{
    enum { NC = 6, NB = 2, N = NB + 3 * NC };
    const int regime[NC] = {TU_STICK, TU_SLIP, TU_SEPARATE, TU_STICK, TU_SLIP, TU_SEPARATE};
    tu_rng rng = {26};
    mcd_fc3d p;
    double r_star[N], u_star[N], x[N], r[N], u[N], dF[9 * NC], phi[N], a[N];
    tu_fc3d_with_solution(&rng, NC, NB, regime, &p, r_star, u_star);
    mcd_mncp_units(&p, a);
    mcd_mncp_start_from(&p, a, r_star, u, x);
    mcd_mncp s = {&p, a, r, u, dF};
    mcd_mncp_residual(&s, x, phi);
    ck_assert_double_le(tu_max_diff(N, r, r_star), 1e-12);
    ck_assert_double_le(tu_max_diff(N, u, u_star), 1e-12);
    for (int i = 0; i < N; i++) ck_assert_double_le(fabs(phi[i]), 1e-12);
    mcd_fc3d_free(&p);
}
END_TEST

/* The impulse units: a_k = 3 / trace(W_kk), a_i = 1 / W_ii (bilateral). */
START_TEST(impulse_units)
{
    mcd_fc3d p;
    mcd_fc3d_alloc(&p, 2, 1, NULL);
    const double diag[7] = {4, 1, 2, 3, 0, 0, 0};
    for (int i = 0; i < 7; i++) p.W[i * 7 + i] = diag[i];
    double a[7];
    mcd_mncp_units(&p, a);
    ck_assert_double_eq(a[0], 0.25);
    for (int i = 1; i < 4; i++) ck_assert_double_eq(a[i], 0.5);
    for (int i = 4; i < 7; i++) ck_assert_double_eq(a[i], 1.0); /* W_kk = 0: no scaling */
    mcd_fc3d_free(&p);
}
END_TEST

static Suite *mncp_suite(void)
{
    Suite *s = suite_create("solver-mncp");
    TCase *tc = tcase_create("mncp");
    tcase_add_test(tc, dF_dz_separation);
    tcase_add_test(tc, dF_dz_stick);
    tcase_add_test(tc, dF_dz_slip);
    tcase_add_test(tc, dF_dz_closed_form);
    tcase_add_test(tc, parameterisation_satisfies_coulomb);
    tcase_add_test(tc, mncp_jacobian_matches_finite_differences);
    tcase_add_test(tc, warm_start_reproduces_a_solution);
    tcase_add_test(tc, impulse_units);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(mncp_suite());
}

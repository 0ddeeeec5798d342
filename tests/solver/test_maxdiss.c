/* Maximum-dissipation impulse of one contact (Preclik, Eibl & Ruede):
 * Table 1 (Sec. 4.1), the Painleve rod (Sec. 4.2), the closed form against a
 * brute-force minimisation on random SPD problems, energy dissipation,
 * separation and bad input. Convention of include/mcdyn/impact.h: b is the
 * pre-impact relative velocity (the paper's b is -b), dT = 1/2 x'Ax + b'x. */
#include "common/check_main.h"
#include "mcdyn/impact.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

static double energy(const double A[9], const double b[3], const double x[3])
{
    double e = 0.0;
    for (int i = 0; i < 3; i++) {
        double ax = 0.0;
        for (int j = 0; j < 3; j++) ax += A[3 * i + j] * x[j];
        e += x[i] * (0.5 * ax + b[i]);
    }
    return e;
}

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* The academic problem of Sec. 4.1 with the NOTES.md erratum: t = n x e_x and
 * o = n x t are not normalised. Returns A and b in our convention. */
static void table1_problem(double A[9], double b[3], double *mu)
{
    const double dx = 10, dy = 1, dz = 1, mx = 0.03, my = 65, mz = 50;
    double nh[3] = {0.25, 0.36, -0.9}, ex[3] = {1, 0, 0}, n[3], t[3], o[3];
    double nn = sqrt(nh[0] * nh[0] + nh[1] * nh[1] + nh[2] * nh[2]);
    for (int i = 0; i < 3; i++) n[i] = nh[i] / nn;
    cross(n, ex, t);
    cross(n, t, o);
    double Iinv[3] = {1.0 / (2 * (my * dy * dy + mz * dz * dz)),
                      1.0 / (2 * (mx * dx * dx + mz * dz * dz)),
                      1.0 / (2 * (mx * dx * dx + my * dy * dy))};
    /* K = E / M - dx^2 ex^x I^-1 ex^x; with ex^x = [[0,0,0],[0,0,-1],[0,1,0]]
     * -ex^x diag(I^-1) ex^x = diag(0, Iinv_z, Iinv_y). */
    double K[9] = {0};
    double minv = 1.0 / (2 * (mx + my + mz));
    for (int i = 0; i < 3; i++) K[4 * i] = minv;
    K[4] += dx * dx * Iinv[2];
    K[8] += dx * dx * Iinv[1];
    const double *Q[3] = {n, t, o};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++)
                for (int l = 0; l < 3; l++) s += Q[i][k] * K[3 * k + l] * Q[j][l];
            A[3 * i + j] = s;
        }
    double v[3] = {0.06, 0.7, 0.23};
    for (int i = 0; i < 3; i++) b[i] = -(Q[i][0] * v[0] + Q[i][1] * v[1] + Q[i][2] * v[2]);
    *mu = 3.7;
}

/* Point of the conic-section boundary at cone angle phi:
 * x = x_n (1, mu cos phi, mu sin phi) on the plane (A x + b)_n = 0.
 * Returns 0 where the ray misses the plane. */
static int cone_point(const double A[9], const double b[3], double mu, double phi, double x[3])
{
    double w[3] = {1.0, mu * cos(phi), mu * sin(phi)};
    double den = A[0] * w[0] + A[1] * w[1] + A[2] * w[2];
    if (!(den > 0.0)) return 0;
    double xn = -b[0] / den;
    for (int i = 0; i < 3; i++) x[i] = xn * w[i];
    return 1;
}

/* Coulomb residual along the boundary: the post-impact tangential velocity
 * v_to must be anti-parallel to x_to, i.e. v_to x x_to = 0 with v . x < 0. */
static double coulomb_cross(const double A[9], const double b[3], double mu, double phi,
                            double *dot)
{
    double x[3], v[3];
    if (!cone_point(A, b, mu, phi, x)) return NAN;
    for (int i = 0; i < 3; i++)
        v[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2] + b[i];
    *dot = v[1] * x[1] + v[2] * x[2];
    return v[1] * x[2] - v[2] * x[1];
}

START_TEST(table1_reproduced)
{
    const double tol_x = 1e-6; /* Table 1 digits as given in NOTES.md (6 decimals) */
    const double tol_e = 1e-6;
    double A[9], b[3], mu, x[3];
    table1_problem(A, b, &mu);
    ck_assert_int_eq(mcd_maxdiss_single(A, b, mu, x, NULL), MCD_OK);
    ck_assert_double_eq_tol(x[0], 1.603098, tol_x);
    ck_assert_double_eq_tol(x[1], -1.081861, tol_x);
    ck_assert_double_eq_tol(x[2], -5.831965, tol_x);
    ck_assert_double_eq_tol(energy(A, b, x), -0.634007, tol_e);
    /* Post-impact normal velocity 0 (plane of maximum compression) and x on
     * the cone boundary (sliding), to 1e-12 relative. */
    double vn = A[0] * x[0] + A[1] * x[1] + A[2] * x[2] + b[0];
    ck_assert(fabs(vn) <= 1e-12 * fabs(b[0]) * 10);
    ck_assert_double_eq_tol(hypot(x[1], x[2]), mu * x[0], 1e-12 * mu * x[0]);

    /* The three Coulomb solutions: sign changes of the Coulomb residual along
     * the boundary (grid of 200000 angles, then bisection to 1e-15 rad). */
    double ecoul[8];
    int nco = 0;
    const int N = 200000;
    double prevphi = 0.0, dot = 0.0, prev = coulomb_cross(A, b, mu, 0.0, &dot);
    for (int k = 1; k <= N; k++) {
        double phi = 2 * PI * k / N;
        double cur = coulomb_cross(A, b, mu, phi, &dot);
        if (isfinite(prev) && isfinite(cur) && (prev < 0) != (cur < 0)) {
            double lo = prevphi, hi = phi, flo = prev;
            for (int it = 0; it < 100 && hi - lo > 1e-15; it++) {
                double mid = 0.5 * (lo + hi), d2;
                double fm = coulomb_cross(A, b, mu, mid, &d2);
                if ((fm < 0) == (flo < 0)) {
                    lo = mid;
                    flo = fm;
                } else
                    hi = mid;
            }
            double xc[3];
            coulomb_cross(A, b, mu, lo, &dot);
            if (dot < 0 && cone_point(A, b, mu, lo, xc) && nco < 8) ecoul[nco++] = energy(A, b, xc);
        }
        prev = cur;
        prevphi = phi;
    }
    ck_assert_int_eq(nco, 3);
    /* sort ascending by value (most negative last after reversing) */
    for (int i = 0; i < nco; i++)
        for (int j = i + 1; j < nco; j++)
            if (ecoul[j] > ecoul[i]) {
                double t = ecoul[i];
                ecoul[i] = ecoul[j];
                ecoul[j] = t;
            }
    ck_assert_double_eq_tol(ecoul[0], -0.251703, tol_e);
    ck_assert_double_eq_tol(ecoul[1], -0.392568, tol_e);
    ck_assert_double_eq_tol(ecoul[2], -0.630960, tol_e);
    /* The maximum-dissipation solution dissipates more than every Coulomb one. */
    ck_assert(energy(A, b, x) < ecoul[2]);
}
END_TEST

/* Painleve rod, Sec. 4.2 (A's zz entry 4/m as in NOTES.md), in (n, t, o) =
 * (y, x, z): A = (4 E - 3 e e^T) / m with e = (sin th, cos th, 0),
 * b = (0, -v0, 0); Lambda0 = (m v0 / 8)(3 sin 2th, 5 + 3 cos 2th, 0). */
static void painleve(double th, double m, double v0, double A[9], double b[3], double L0[3])
{
    double e[3] = {sin(th), cos(th), 0.0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) A[3 * i + j] = ((i == j ? 4.0 : 0.0) - 3.0 * e[i] * e[j]) / m;
    b[0] = 0.0;
    b[1] = -v0;
    b[2] = 0.0;
    L0[0] = m * v0 / 8 * 3 * sin(2 * th);
    L0[1] = m * v0 / 8 * (5 + 3 * cos(2 * th));
    L0[2] = 0.0;
}

static double mu_star(double th)
{
    return (5 + 3 * cos(2 * th)) / (3 * sin(2 * th));
}

START_TEST(painleve_rod)
{
    const double m = 2.0, v0 = 1.5;
    const double rel = 1e-12; /* mu = mu*(1 -/+ rel) decides the branch */
    const double tol = 1e-12; /* |x - Lambda0| relative to |Lambda0| */
    double A[9], b[3], L0[3], x[3];
    for (int k = 1; k < 40; k++) {
        double th = 0.5 * PI * k / 40;
        painleve(th, m, v0, A, b, L0);
        double ms = mu_star(th);
        double nl = hypot(L0[0], L0[1]);
        ck_assert_int_eq(mcd_maxdiss_single(A, b, ms * (1 - rel), x, NULL), MCD_OK);
        ck_assert(x[0] == 0.0 && x[1] == 0.0 && x[2] == 0.0);
        double mus[3] = {ms * (1 + rel), 1.5 * ms, 10.0 * ms};
        for (int j = 0; j < 3; j++) {
            ck_assert_int_eq(mcd_maxdiss_single(A, b, mus[j], x, NULL), MCD_OK);
            for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(x[i], L0[i], tol * nl);
            /* sticking: post-impact velocity A x + b = 0 */
            for (int i = 0; i < 3; i++) {
                double v = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2] + b[i];
                ck_assert(fabs(v) <= 1e-12 * v0);
            }
        }
    }
    /* min mu* = 4/3 at th = acos(-3/5) / 2 = 1.10715: below 4/3 no angle gets
     * an impulse, just above it that angle does. */
    double ths = 0.5 * acos(-0.6);
    ck_assert_double_eq_tol(ths, 1.10715, 5e-6);
    ck_assert_double_eq_tol(mu_star(ths), 4.0 / 3.0, 1e-15);
    for (int k = 1; k < 400; k++) {
        painleve(0.5 * PI * k / 400, m, v0, A, b, L0);
        ck_assert_int_eq(mcd_maxdiss_single(A, b, 4.0 / 3.0 * (1 - 1e-9), x, NULL), MCD_OK);
        ck_assert(x[0] == 0.0 && x[1] == 0.0 && x[2] == 0.0);
    }
    painleve(ths, m, v0, A, b, L0);
    ck_assert_int_eq(mcd_maxdiss_single(A, b, 4.0 / 3.0 * (1 + 1e-9), x, NULL), MCD_OK);
    for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(x[i], L0[i], tol * hypot(L0[0], L0[1]));
}
END_TEST

/* Brute force, independent of the closed form's parametrisation: the
 * interior minimum if feasible, else the minimum along the cone boundary
 * x = x_n (1, mu cos phi, mu sin phi) on the plane, from a grid of 20000
 * angles refined by golden-section search. For b_n = 0 the boundary is the
 * set of rays x_n (1, w) with |w| = mu and A_nn + a_to.w <= 0 ... handled by
 * minimising over x_n >= 0 for each direction w of the chord
 * {|w| <= mu, A_nn + a_to.w = 0}. */
static double bf_phi(const double A[9], const double b[3], double mu, double phi)
{
    double x[3];
    if (!cone_point(A, b, mu, phi, x)) return INFINITY;
    return energy(A, b, x);
}

static double golden(double (*f)(const double *, const double *, double, double), const double A[9],
                     const double b[3], double mu, double lo, double hi)
{
    const double g = 0.5 * (sqrt(5.0) - 1.0);
    double c = hi - g * (hi - lo), d = lo + g * (hi - lo);
    double fc = f(A, b, mu, c), fd = f(A, b, mu, d);
    for (int it = 0; it < 200 && hi - lo > 1e-14; it++) {
        if (fc < fd) {
            hi = d;
            d = c;
            fd = fc;
            c = hi - g * (hi - lo);
            fc = f(A, b, mu, c);
        } else {
            lo = c;
            c = d;
            fc = fd;
            d = lo + g * (hi - lo);
            fd = f(A, b, mu, d);
        }
    }
    return fmin(fc, fd);
}

/* b_n = 0: direction w(s) on the chord, s in [-1, 1], best x_n >= 0. */
static double bf_chord(const double A[9], const double b[3], double mu, double s)
{
    double at = hypot(A[1], A[2]);
    if (at == 0.0) return 0.0;
    double ut[2] = {A[1] / at, A[2] / at}, up[2] = {-ut[1], ut[0]};
    double d = -A[0] / at; /* w . ut = d on the plane */
    if (fabs(d) > mu) return 0.0;
    double h = sqrt(mu * mu - d * d);
    double w[3] = {1.0, d * ut[0] + s * h * up[0], d * ut[1] + s * h * up[1]};
    double q = 0, p = 0;
    for (int i = 0; i < 3; i++) {
        p += b[i] * w[i];
        for (int j = 0; j < 3; j++) q += w[i] * A[3 * i + j] * w[j];
    }
    double xn = fmax(0.0, -p / q);
    return 0.5 * q * xn * xn + p * xn;
}

static double brute_force(const double A[9], const double b[3], double mu)
{
    if (b[0] > 0.0) return 0.0;
    /* interior candidate x0 = -A^-1 b (Cramer) */
    double det = A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
                 A[2] * (A[3] * A[7] - A[4] * A[6]);
    double inv[9] = {
        A[4] * A[8] - A[5] * A[7], A[2] * A[7] - A[1] * A[8], A[1] * A[5] - A[2] * A[4],
        A[5] * A[6] - A[3] * A[8], A[0] * A[8] - A[2] * A[6], A[2] * A[3] - A[0] * A[5],
        A[3] * A[7] - A[4] * A[6], A[1] * A[6] - A[0] * A[7], A[0] * A[4] - A[1] * A[3]};
    double x0[3];
    for (int i = 0; i < 3; i++)
        x0[i] = -(inv[3 * i] * b[0] + inv[3 * i + 1] * b[1] + inv[3 * i + 2] * b[2]) / det;
    double best = INFINITY;
    if (x0[0] >= 0 && hypot(x0[1], x0[2]) <= mu * x0[0]) best = energy(A, b, x0);
    if (mu == 0.0) {
        double x[3] = {-b[0] / A[0], 0, 0};
        return fmin(best, energy(A, b, x));
    }
    if (b[0] == 0.0) {
        best = fmin(best, 0.0);
        const int N = 20000;
        double bk = INFINITY;
        int kb = 0;
        for (int k = 0; k <= N; k++) {
            double f = bf_chord(A, b, mu, -1.0 + 2.0 * k / N);
            if (f < bk) {
                bk = f;
                kb = k;
            }
        }
        double lo = -1.0 + 2.0 * fmax(0, kb - 1) / N, hi = -1.0 + 2.0 * fmin(N, kb + 1) / N;
        return fmin(best, fmin(bk, golden(bf_chord, A, b, mu, lo, hi)));
    }
    const int N = 20000;
    double bk = INFINITY;
    int kb = 0;
    for (int k = 0; k < N; k++) {
        double f = bf_phi(A, b, mu, 2 * PI * k / N);
        if (f < bk) {
            bk = f;
            kb = k;
        }
    }
    double g = golden(bf_phi, A, b, mu, 2 * PI * (kb - 1) / N, 2 * PI * (kb + 1) / N);
    return fmin(best, fmin(bk, g));
}

START_TEST(random_against_brute_force)
{
    const double rel = 1e-9;   /* |E - E_bf| <= rel |E_bf| and E <= E_bf + rel |E_bf| */
    const double feas = 1e-10; /* cone and plane violations, relative to |x| resp. |b| */
    tu_rng rng = {2024};
    int nbound = 0, nstick = 0, nzero = 0;
    for (int t = 0; t < 1000; t++) {
        double A[9], b[3], x[3];
        tu_spd_matrix(&rng, 3, tu_uniform(&rng, 0.01, 1.0), A);
        for (int i = 0; i < 3; i++) b[i] = tu_uniform(&rng, -1, 1);
        b[0] = tu_uniform(&rng, -1, 0.1);
        if (t % 10 == 0) b[0] = 0.0; /* grazing contacts: the degenerate branches */
        double mu = t % 50 == 1 ? 0.0 : tu_uniform(&rng, 0.0, 3.0);
        ck_assert_int_eq(mcd_maxdiss_single(A, b, mu, x, NULL), MCD_OK);
        double e = energy(A, b, x), ebf = brute_force(A, b, mu);
        ck_assert_msg(isfinite(e) && e <= ebf + rel * fabs(ebf) + 1e-300,
                      "problem %d: closed form %.17g worse than brute force %.17g", t, e, ebf);
        ck_assert_msg(fabs(e - ebf) <= rel * fabs(ebf) + 1e-300,
                      "problem %d: closed form %.17g vs brute force %.17g", t, e, ebf);
        /* every impulse dissipates: dT = T+ - T- <= 0 */
        ck_assert(e <= 0.0);
        /* feasibility */
        double nx = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        ck_assert(x[0] >= 0.0);
        ck_assert(hypot(x[1], x[2]) <= mu * x[0] + feas * nx);
        if (nx > 0) {
            double vn = A[0] * x[0] + A[1] * x[1] + A[2] * x[2] + b[0];
            ck_assert(fabs(vn) <= feas * (fabs(b[0]) + nx * A[0]));
        }
        double m = hypot(x[1], x[2]) - mu * x[0];
        if (nx == 0)
            nzero++;
        else if (fabs(m) <= 1e-9 * nx)
            nbound++;
        else
            nstick++;
    }
    /* all branches exercised */
    ck_assert(nbound > 100 && nstick > 50 && nzero > 50);
}
END_TEST

START_TEST(separation_and_degenerate)
{
    double A[9] = {2.0, 0.3, -0.2, 0.3, 1.5, 0.1, -0.2, 0.1, 1.0}, x[3];
    /* b_n > 0 (separating, paper: b_n < 0): x = 0 exactly, for any mu */
    double bs[3] = {1e-300, -3.0, 2.0};
    double mus[3] = {0.0, 0.5, 100.0};
    for (int j = 0; j < 3; j++) {
        ck_assert_int_eq(mcd_maxdiss_single(A, bs, mus[j], x, NULL), MCD_OK);
        ck_assert(x[0] == 0.0 && x[1] == 0.0 && x[2] == 0.0);
    }
    /* b_n = 0, A_nn > mu |a_to| (degenerate ellipse): x = 0 */
    double bg[3] = {0.0, -3.0, 2.0};
    ck_assert_int_eq(mcd_maxdiss_single(A, bg, 1.0, x, NULL), MCD_OK);
    ck_assert(x[0] == 0.0 && x[1] == 0.0 && x[2] == 0.0);
    /* mu = 0: frictionless, x = (-b_n / A_nn, 0, 0) */
    double bc[3] = {-1.0, 0.7, 0.3};
    ck_assert_int_eq(mcd_maxdiss_single(A, bc, 0.0, x, NULL), MCD_OK);
    ck_assert_double_eq_tol(x[0], 0.5, 1e-15);
    ck_assert(x[1] == 0.0 && x[2] == 0.0);
    /* degenerate parabola A_nn = mu |a_to| with b_n = 0: the ray -r(A_nt, A_no) */
    double Ap[9] = {1.0, 0.6, 0.8, 0.6, 2.0, 0.0, 0.8, 0.0, 2.0};
    double bp[3] = {0.0, 0.6, 0.8}; /* pushes along +(A_nt, A_no); impulse opposes */
    ck_assert_int_eq(mcd_maxdiss_single(Ap, bp, 1.0, x, NULL), MCD_OK);
    ck_assert(energy(Ap, bp, x) <= 0.0);
    double ebf = brute_force(Ap, bp, 1.0);
    ck_assert_double_eq_tol(energy(Ap, bp, x), ebf, 1e-9 * fabs(ebf) + 1e-15);
    ck_assert(x[1] * 0.6 + x[2] * 0.8 <= 0.0);
}
END_TEST

START_TEST(bad_input)
{
    double A[9] = {2.0, 0.3, -0.2, 0.3, 1.5, 0.1, -0.2, 0.1, 1.0}, b[3] = {-1, 0.2, 0.1};
    double x[3];
    mcd_error err;
    double Ab[9], bb[3];
    /* non-finite A */
    memcpy(Ab, A, sizeof A);
    Ab[4] = NAN;
    ck_assert_int_eq(mcd_maxdiss_single(Ab, b, 0.5, x, &err), MCD_ERR_NONFINITE);
    ck_assert(strlen(err.msg) > 0);
    ck_assert(x[0] == 0.0 && x[1] == 0.0 && x[2] == 0.0);
    Ab[4] = INFINITY;
    ck_assert_int_eq(mcd_maxdiss_single(Ab, b, 0.5, x, &err), MCD_ERR_NONFINITE);
    /* non-finite b */
    memcpy(bb, b, sizeof b);
    bb[2] = -INFINITY;
    ck_assert_int_eq(mcd_maxdiss_single(A, bb, 0.5, x, &err), MCD_ERR_NONFINITE);
    bb[2] = NAN;
    ck_assert_int_eq(mcd_maxdiss_single(A, bb, 0.5, x, NULL), MCD_ERR_NONFINITE);
    /* mu */
    ck_assert_int_eq(mcd_maxdiss_single(A, b, NAN, x, &err), MCD_ERR_NONFINITE);
    ck_assert_int_eq(mcd_maxdiss_single(A, b, INFINITY, x, &err), MCD_ERR_NONFINITE);
    ck_assert_int_eq(mcd_maxdiss_single(A, b, -0.1, x, &err), MCD_ERR_ARG);
    ck_assert(strlen(err.msg) > 0);
    /* not symmetric */
    memcpy(Ab, A, sizeof A);
    Ab[1] = 0.31;
    ck_assert_int_eq(mcd_maxdiss_single(Ab, b, 0.5, x, &err), MCD_ERR_ARG);
    /* indefinite, semidefinite, zero */
    double Ai[9] = {1, 2, 0, 2, 1, 0, 0, 0, 1};
    ck_assert_int_eq(mcd_maxdiss_single(Ai, b, 0.5, x, &err), MCD_ERR_ARG);
    double As[9] = {1, 1, 0, 1, 1, 0, 0, 0, 1};
    ck_assert_int_eq(mcd_maxdiss_single(As, b, 0.5, x, &err), MCD_ERR_ARG);
    double Az[9] = {0};
    ck_assert_int_eq(mcd_maxdiss_single(Az, b, 0.5, x, &err), MCD_ERR_ARG);
    double An[9] = {-1, 0, 0, 0, -1, 0, 0, 0, -1};
    ck_assert_int_eq(mcd_maxdiss_single(An, b, 0.5, x, &err), MCD_ERR_ARG);
    ck_assert(x[0] == 0.0 && x[1] == 0.0 && x[2] == 0.0);
    /* NULL */
    ck_assert_int_eq(mcd_maxdiss_single(NULL, b, 0.5, x, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_maxdiss_single(A, NULL, 0.5, x, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_maxdiss_single(A, b, 0.5, NULL, &err), MCD_ERR_ARG);
    /* extreme but valid scales give finite results */
    double Ae[9] = {1e-200, 0, 0, 0, 1e-200, 0, 0, 0, 1e-200}, be[3] = {-1e-100, 1e-100, 0};
    ck_assert_int_eq(mcd_maxdiss_single(Ae, be, 0.3, x, &err), MCD_OK);
    ck_assert(isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]));
}
END_TEST

static Suite *maxdiss_suite(void)
{
    Suite *s = suite_create("solver-maxdiss");
    TCase *tc = tcase_create("maxdiss");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, table1_reproduced);
    tcase_add_test(tc, painleve_rod);
    tcase_add_test(tc, random_against_brute_force);
    tcase_add_test(tc, separation_and_degenerate);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(maxdiss_suite());
}

/* Stronge's energetic restitution for simultaneous multi-point frictional
 * impact (include/mcdyn/restitution.h, docs/theory/impacts.md):
 *  - one frictionless contact gives Newton's nu_n+ = -e nu_n-, and every
 *    contact loaded in a frictionless multi-point impact too; two closely
 *    coupled contacts get (1 + e) times the plastic impulse;
 *  - kinetic energy never increases (random rigid bodies and random SPD
 *    problems, mu up to 2); e = 1, mu = 0 conserves it; the restitution
 *    work is -e^2 times the compression work; the friction work is <= 0;
 *  - a spinning sphere dropped on a rough plane: Stronge's closed form
 *    (gross slip and stick, slip along a general tangent direction);
 *  - a rocking block landing on a corner: Housner's ratio 1 - 3/2 sin^2 a;
 *  - three touching balls (Newton's cradle as a simultaneous impact);
 *  - bad input. */
#include "mcdyn/restitution.h"
#include "solver_testutil.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/check_main.h"

#define MAXC 6

typedef struct problem {
    int nc;
    double W[9 * MAXC * MAXC], nu[3 * MAXC], mu[MAXC], e[MAXC], P[3 * MAXC];
    mcd_stronge_stats st;
} problem;

static mcd_stronge_ws *ws(void)
{
    mcd_stronge_ws *w = NULL;
    ck_assert_int_eq(mcd_stronge_ws_create(MAXC, &w, NULL), MCD_OK);
    return w;
}

static mcd_status solve(mcd_stronge_ws *w, problem *p)
{
    mcd_error err = {0};
    mcd_status s = mcd_stronge_solve(w, p->nc, p->W, p->nu, p->mu, p->e, NULL, p->P, &p->st, &err);
    ck_assert_msg(s == MCD_OK, "%s", err.msg);
    return s;
}

/* nu+ = nu- + W P. */
static void post_velocity(const problem *p, double *v)
{
    const int m = 3 * p->nc;
    for (int i = 0; i < m; i++) {
        v[i] = p->nu[i];
        for (int j = 0; j < m; j++) v[i] += p->W[i * m + j] * p->P[j];
    }
}

/* dT = P^T (nu- + 1/2 W P) and the kinetic-energy scale 1/2 nu-^T W^+ nu-
 * bounded below by max |nu|^2 / (2 max W_ii). */
static double energy_change(const problem *p)
{
    double v[3 * MAXC], dT = 0.0;
    post_velocity(p, v);
    for (int i = 0; i < 3 * p->nc; i++) dT += 0.5 * p->P[i] * (p->nu[i] + v[i]);
    return dT;
}

/* A rigid body (mass m, principal inertia I about its centre, world axes)
 * with contacts at points r[k] (from the centre) with normals n[k] and the
 * tangents t = n x a, o = n x t; W = J M^-1 J^T, nu = J (v; w). J's rows
 * for direction d at r are (d, r x d). */
typedef struct body {
    double m, I[3], v[3], w[3];
} body;

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static void body_jacobian(int nc, const double (*r)[3], const double (*n)[3], double *J)
{
    for (int k = 0; k < nc; k++) {
        double t[3], o[3], a[3] = {0.3, -0.7, 0.2}, tn;
        cross(n[k], a, t);
        tn = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
        for (int i = 0; i < 3; i++) t[i] /= tn;
        cross(n[k], t, o);
        const double *d[3] = {n[k], t, o};
        for (int q = 0; q < 3; q++) {
            double *row = J + 6 * (3 * k + q), rd[3];
            cross(r[k], d[q], rd);
            for (int i = 0; i < 3; i++) row[i] = d[q][i], row[3 + i] = rd[i];
        }
    }
}

static void body_problem(const body *b, int nc, const double (*r)[3], const double (*n)[3],
                         problem *p)
{
    double J[6 * 3 * MAXC];
    const double minv[6] = {1 / b->m, 1 / b->m, 1 / b->m, 1 / b->I[0], 1 / b->I[1], 1 / b->I[2]};
    const double V[6] = {b->v[0], b->v[1], b->v[2], b->w[0], b->w[1], b->w[2]};
    body_jacobian(nc, r, n, J);
    const int m = 3 * nc;
    p->nc = nc;
    for (int i = 0; i < m; i++) {
        p->nu[i] = 0.0;
        for (int a = 0; a < 6; a++) p->nu[i] += J[6 * i + a] * V[a];
        for (int j = 0; j < m; j++) {
            double s = 0.0;
            for (int a = 0; a < 6; a++) s += J[6 * i + a] * minv[a] * J[6 * j + a];
            p->W[i * m + j] = s;
        }
    }
}

/* The body's velocities after the impulse P. */
static void body_after(const body *b, int nc, const double (*r)[3], const double (*n)[3],
                       const double *P, body *out)
{
    double J[6 * 3 * MAXC], g[6] = {0};
    body_jacobian(nc, r, n, J);
    for (int i = 0; i < 3 * nc; i++)
        for (int a = 0; a < 6; a++) g[a] += J[6 * i + a] * P[i];
    *out = *b;
    for (int i = 0; i < 3; i++) {
        out->v[i] = b->v[i] + g[i] / b->m;
        out->w[i] = b->w[i] + g[3 + i] / b->I[i];
    }
}

static double body_energy(const body *b)
{
    double T = 0.0;
    for (int i = 0; i < 3; i++) T += 0.5 * (b->m * b->v[i] * b->v[i] + b->I[i] * b->w[i] * b->w[i]);
    return T;
}

START_TEST(one_frictionless_contact_is_newton)
{
    mcd_stronge_ws *w = ws();
    tu_rng rng = {12345};
    for (int trial = 0; trial < 200; trial++) {
        problem p = {.nc = 1};
        tu_spd_matrix(&rng, 3, 0.1, p.W);
        for (int i = 0; i < 3; i++) p.nu[i] = tu_uniform(&rng, -2, 2);
        p.nu[0] = -tu_uniform(&rng, 0.1, 3);
        p.mu[0] = 0.0;
        p.e[0] = trial % 5 == 0 ? 0.0 : trial % 5 == 1 ? 1.0 : tu_uniform(&rng, 0, 1);
        solve(w, &p);
        double v[3];
        post_velocity(&p, v);
        ck_assert_msg(fabs(v[0] + p.e[0] * p.nu[0]) <= 1e-10 * fabs(p.nu[0]),
                      "e = %g: nu_n+ = %.15g, Newton %.15g", p.e[0], v[0], -p.e[0] * p.nu[0]);
        ck_assert(p.P[1] == 0.0 && p.P[2] == 0.0);
    }
    mcd_stronge_ws_free(w);
}
END_TEST

START_TEST(frictionless_multi_point_restitutes_every_loaded_contact)
{
    mcd_stronge_ws *w = ws();
    tu_rng rng = {777};
    int loaded_total = 0;
    for (int trial = 0; trial < 200; trial++) {
        problem p = {.nc = 2 + trial % 4};
        const int m = 3 * p.nc;
        tu_spd_matrix(&rng, m, 0.05, p.W);
        const double e = tu_uniform(&rng, 0, 1);
        for (int k = 0; k < p.nc; k++) {
            p.mu[k] = 0.0, p.e[k] = e;
            for (int q = 0; q < 3; q++) p.nu[3 * k + q] = tu_uniform(&rng, -1, 1);
        }
        solve(w, &p);
        double v[3 * MAXC];
        post_velocity(&p, v);
        for (int k = 0; k < p.nc; k++) {
            if (p.P[3 * k] <= 0) continue;
            loaded_total++;
            ck_assert_msg(fabs(v[3 * k] + e * p.nu[3 * k]) <= 1e-9 * (1 + fabs(p.nu[3 * k])),
                          "contact %d of %d: nu_n+ = %.12g, -e nu_n- = %.12g", k, p.nc, v[3 * k],
                          -e * p.nu[3 * k]);
        }
    }
    ck_assert_int_gt(loaded_total, 200);
    mcd_stronge_ws_free(w);
}
END_TEST

/* Two frictionless contacts whose normal rows are coupled by c = 0.998
 * (two nearby points of one body): the impulse distribution is that of the
 * perfectly plastic impact, x* = -W_nn^{-1} nu_n- (both contacts loaded),
 * and along it every velocity is linear in the total impulse, so the
 * impact ends at P_n = (1 + e) x* exactly (nu_n+ = -e nu_n-). The
 * reference is Cramer's rule, good to cond(W_nn) eps ~ 1e3 x 2.2e-16; the
 * integration is exact on linear velocities and locates the end of
 * restitution to 1e-13 of the work, so 1e-11 of |x*| leaves a margin of
 * ~40. The plastic start must be converged to that level: projected
 * Gauss-Seidel contracts this pair's error only by c^2 = 0.996 per sweep,
 * so a stopping test on the change of a sweep leaves an error ~250 times
 * that change (a stop at 1e-12 of sum x errs by 2.5e-10). */
START_TEST(coupled_pair_gets_the_plastic_distribution)
{
    mcd_stronge_ws *w = ws();
    const double c = 0.998, e = 0.5;
    problem p = {.nc = 2};
    for (int i = 0; i < 6; i++) p.W[i * 6 + i] = 1.0;
    p.W[0 * 6 + 3] = p.W[3 * 6 + 0] = c;
    p.nu[0] = -1.0, p.nu[3] = -0.999;
    p.mu[0] = p.mu[1] = 0.0;
    p.e[0] = p.e[1] = e;
    solve(w, &p);
    const double det = 1.0 - c * c; /* x* = W_nn^{-1} (-nu_n-) by Cramer's rule */
    const double x[2] = {(-p.nu[0] + c * p.nu[3]) / det, (-p.nu[3] + c * p.nu[0]) / det};
    ck_assert(x[0] > 0 && x[1] > 0);
    for (int k = 0; k < 2; k++)
        ck_assert_msg(fabs(p.P[3 * k] - (1 + e) * x[k]) <= 1e-11 * (x[0] + x[1]),
                      "contact %d: P_n = %.15g, (1 + e) x* = %.15g", k, p.P[3 * k], (1 + e) * x[k]);
    mcd_stronge_ws_free(w);
}
END_TEST

/* Energy, work identities: random SPD problems and random rigid bodies.
 * e is the coefficient the test gave every contact, so the identity W_r =
 * -e^2 W_c is checked with the test's e, not with the one the solver says
 * it used (which must equal it to rounding: one coefficient for all
 * contacts, combined by the solver over the contacts). */
static void check_energy(const problem *p, const char *what, int trial, double e)
{
    double scale = 0.0, wmax = 0.0;
    for (int i = 0; i < 3 * p->nc; i++) {
        scale = fmax(scale, fabs(p->nu[i]));
        wmax = fmax(wmax, p->W[i * 3 * p->nc + i]);
    }
    const double T = scale * scale / wmax; /* an energy scale of the problem */
    const double dT = energy_change(p);
    if (p->st.work_compression < 0) /* an impact happened: its e is the given one */
        ck_assert_msg(fabs(p->st.e - e) <= 4 * DBL_EPSILON * e,
                      "%s %d: solver used e = %.17g, given %.17g", what, trial, p->st.e, e);
    ck_assert_msg(dT <= 1e-10 * T, "%s %d: dT = %g > 0 (T ~ %g)", what, trial, dT, T);
    ck_assert_msg(fabs(dT - p->st.energy_change) <= 1e-12 * T, "%s %d: reported dT", what, trial);
    ck_assert_msg(p->st.work_compression <= 0, "%s %d: W_c = %g", what, trial,
                  p->st.work_compression);
    ck_assert_msg(fabs(p->st.work_restitution + e * e * p->st.work_compression) <=
                      1e-10 * fabs(p->st.work_compression) + 1e-14 * T,
                  "%s %d: W_r = %.15g, -e^2 W_c = %.15g", what, trial, p->st.work_restitution,
                  -e * e * p->st.work_compression);
    ck_assert_msg(p->st.work_friction <= 1e-7 * T, "%s %d: friction work %g > 0", what, trial,
                  p->st.work_friction);
}

START_TEST(energy_never_increases_random)
{
    mcd_stronge_ws *w = ws();
    tu_rng rng = {4242};
    for (int trial = 0; trial < 1000; trial++) {
        problem p = {.nc = 1 + trial % MAXC};
        const int m = 3 * p.nc;
        tu_spd_matrix(&rng, m, trial % 2 ? 0.01 : 0.5, p.W);
        const double e = tu_uniform(&rng, 0, 1);
        for (int k = 0; k < p.nc; k++) {
            p.mu[k] = tu_uniform(&rng, 0, 2);
            p.e[k] = e;
            for (int q = 0; q < 3; q++) p.nu[3 * k + q] = tu_uniform(&rng, -1, 1);
        }
        solve(w, &p);
        check_energy(&p, "random", trial, e);
    }
    mcd_stronge_ws_free(w);
}
END_TEST

START_TEST(energy_never_increases_rigid_bodies)
{
    mcd_stronge_ws *w = ws();
    tu_rng rng = {99};
    for (int trial = 0; trial < 500; trial++) {
        const int nc = 1 + trial % 4;
        body b = {tu_uniform(&rng, 0.5, 3), {0}, {0}, {0}};
        double r[MAXC][3], n[MAXC][3];
        for (int i = 0; i < 3; i++) {
            b.I[i] = tu_uniform(&rng, 0.05, 1);
            b.v[i] = tu_uniform(&rng, -3, 3);
            b.w[i] = tu_uniform(&rng, -5, 5);
        }
        b.v[2] = -tu_uniform(&rng, 0.5, 4);
        for (int k = 0; k < nc; k++) { /* points below the centre, normals near +z */
            r[k][0] = tu_uniform(&rng, -1, 1), r[k][1] = tu_uniform(&rng, -1, 1);
            r[k][2] = -tu_uniform(&rng, 0.2, 1);
            n[k][0] = tu_uniform(&rng, -0.3, 0.3), n[k][1] = tu_uniform(&rng, -0.3, 0.3);
            n[k][2] = 1.0;
            const double nn = sqrt(n[k][0] * n[k][0] + n[k][1] * n[k][1] + 1.0);
            for (int i = 0; i < 3; i++) n[k][i] /= nn;
        }
        problem p;
        memset(&p, 0, sizeof p);
        body_problem(&b, nc, r, n, &p);
        const double e = trial % 3 == 0 ? 1.0 : tu_uniform(&rng, 0, 1);
        for (int k = 0; k < nc; k++) p.mu[k] = trial % 7 == 0 ? 0.0 : tu_uniform(&rng, 0, 1.5);
        for (int k = 0; k < nc; k++) p.e[k] = e;
        solve(w, &p);
        check_energy(&p, "body", trial, e);
        body after;
        body_after(&b, nc, r, n, p.P, &after);
        const double T0 = body_energy(&b), T1 = body_energy(&after);
        ck_assert_msg(fabs((T1 - T0) - p.st.energy_change) <= 1e-9 * T0, "body %d: dT", trial);
        if (trial % 7 == 0 && e == 1.0)
            ck_assert_msg(fabs(T1 - T0) <= 1e-9 * T0, "body %d: e = 1, mu = 0 lost %g of %g J",
                          trial, T0 - T1, T0);
    }
    mcd_stronge_ws_free(w);
}
END_TEST

/* A cube landing flat on its four bottom corners (redundant contacts: W
 * of rank 6 for 12 rows) while sliding and spinning: the four slips stop
 * at nearly the same impulse; the integration must get through (it once
 * stalled there) and dissipate. */
START_TEST(box_face_sliding_into_stick)
{
    mcd_stronge_ws *w = ws();
    const double h = 0.5, I = 1.0 / 6.0;
    const double r[4][3] = {{-h, -h, -h}, {h, -h, -h}, {-h, h, -h}, {h, h, -h}};
    const double n[4][3] = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    for (int c = 0; c < 40; c++) {
        const double a = 0.157 * c;
        body b = {1.0, {I, I, I}, {0.3 * cos(a), 0.3 * sin(a), -0.05}, {0.02 * c - 0.4, 0.01, 0.0}};
        b.w[2] = 0.5 - 0.025 * c;
        problem p;
        memset(&p, 0, sizeof p);
        body_problem(&b, 4, r, n, &p);
        for (int k = 0; k < 4; k++) p.mu[k] = 0.5, p.e[k] = 0.3;
        solve(w, &p);
        check_energy(&p, "box", c, 0.3);
        ck_assert_int_lt(p.st.steps + p.st.rejected, 20000);
    }
    mcd_stronge_ws_free(w);
}
END_TEST

START_TEST(elastic_frictionless_conserves_energy)
{
    mcd_stronge_ws *w = ws();
    tu_rng rng = {31};
    for (int trial = 0; trial < 300; trial++) {
        problem p = {.nc = 1 + trial % MAXC};
        tu_spd_matrix(&rng, 3 * p.nc, 0.2, p.W);
        double T = 0.0;
        for (int k = 0; k < p.nc; k++) {
            p.mu[k] = 0.0, p.e[k] = 1.0;
            for (int q = 0; q < 3; q++) p.nu[3 * k + q] = tu_uniform(&rng, -1, 1);
        }
        for (int i = 0; i < 3 * p.nc; i++) T = fmax(T, p.nu[i] * p.nu[i] / p.W[i * 3 * p.nc + i]);
        solve(w, &p);
        ck_assert_msg(fabs(energy_change(&p)) <= 1e-12 * T, "trial %d: dT = %g (T ~ %g)", trial,
                      energy_change(&p), T);
    }
    mcd_stronge_ws_free(w);
}
END_TEST

/* A uniform sphere (m, radius r, I = 2/5 m r^2) hitting the plane z = 0
 * at V with centre velocity u (tangential) and spin w, about the
 * horizontal axes. Slip velocity of the contact point s- = u + w x (-r z).
 * Stronge's closed form (docs/theory/impacts.md): normal and tangential
 * decouple (W = diag(1/m, 7/(2m), 7/(2m))), P_n = (1 + e) m V, and
 *   gross slip if |s-| >= 7/2 mu (1 + e) V:  P_t = -mu P_n s-/|s-|,
 *   otherwise stick:                         P_t = -2/7 m s-.       */
START_TEST(sphere_with_spin_matches_closed_form)
{
    mcd_stronge_ws *w = ws();
    const double m = 2.0, rad = 0.3, I = 0.4 * m * rad * rad, V = 3.0;
    const double cases[][5] = {
        /* u_x, u_y, w_x, w_y, mu */
        {1.0, 0.0, 0.0, -20.0, 0.3}, /* backspin, gross slip */
        {1.0, 0.0, 0.0, 2.0, 0.3},   /* stick */
        {0.5, -2.0, 8.0, 4.0, 0.2},  /* slip along a general direction */
        {0.4, 0.3, -1.0, 1.0, 0.5},  /* stick in 3D */
        {0.0, 0.0, 0.0, 30.0, 0.25}, /* spin only */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int ie = 0; ie < 3; ie++) {
            const double e = 0.5 * ie, mu = cases[c][4];
            body b = {m, {I, I, I}, {cases[c][0], cases[c][1], -V}, {cases[c][2], cases[c][3], 0}};
            const double r[1][3] = {{0, 0, -rad}}, n[1][3] = {{0, 0, 1}};
            problem p;
            memset(&p, 0, sizeof p);
            body_problem(&b, 1, r, n, &p);
            p.mu[0] = mu, p.e[0] = e;
            solve(w, &p);
            body a;
            body_after(&b, 1, r, n, p.P, &a);
            /* expected, in world coordinates */
            const double s[2] = {b.v[0] - rad * b.w[1], b.v[1] + rad * b.w[0]};
            const double sn = hypot(s[0], s[1]), Pn = (1 + e) * m * V;
            double Pt[2];
            if (sn >= 3.5 * mu * (1 + e) * V)
                Pt[0] = -mu * Pn * s[0] / sn, Pt[1] = -mu * Pn * s[1] / sn;
            else
                Pt[0] = -2.0 / 7.0 * m * s[0], Pt[1] = -2.0 / 7.0 * m * s[1];
            const double vx = b.v[0] + Pt[0] / m, vy = b.v[1] + Pt[1] / m;
            /* torque of (Pt, 0) at (0, 0, -r): (r Pt_y, -r Pt_x, 0) */
            const double wx = b.w[0] + rad * Pt[1] / I, wy = b.w[1] - rad * Pt[0] / I;
            const double tol = 1e-8 * (V + sn + rad * 30);
            ck_assert_msg(fabs(a.v[2] - e * V) <= tol, "case %zu e %g: vz %g", c, e, a.v[2]);
            ck_assert_msg(fabs(a.v[0] - vx) <= tol && fabs(a.v[1] - vy) <= tol,
                          "case %zu e %g: v (%.12g, %.12g), closed form (%.12g, %.12g)", c, e,
                          a.v[0], a.v[1], vx, vy);
            ck_assert_msg(fabs(a.w[0] - wx) <= tol / rad && fabs(a.w[1] - wy) <= tol / rad,
                          "case %zu e %g: w (%.12g, %.12g), closed form (%.12g, %.12g)", c, e,
                          a.w[0], a.w[1], wx, wy);
            ck_assert_msg(fabs(a.w[2]) <= tol / rad, "case %zu: w_z %g", c, a.w[2]);
        }
    mcd_stronge_ws_free(w);
}
END_TEST

/* A rectangular block (half-width b, half-height h) rocking about one bottom
 * edge lands on the other: with e = 0 and enough friction the impact at the
 * landing edge is plastic and sticking, the old pivot is released and the
 * angular velocity drops by Housner's (1963) ratio 1 - 3/2 sin^2(alpha),
 * tan(alpha) = b / h (angular momentum about the new pivot). */
START_TEST(rocking_block_housner_ratio)
{
    mcd_stronge_ws *w = ws();
    const double hb[][2] = {{0.2, 1.0}, {0.3, 0.8}, {0.1, 0.5}};
    for (int c = 0; c < 3; c++) {
        const double bw = hb[c][0], hh = hb[c][1], m = 5.0, om = -1.5;
        const double Ic = m * (bw * bw + hh * hh) / 3.0;
        /* rotating about A = (b, 0, -h): v = -w x rA */
        body b = {m, {Ic, Ic, Ic}, {om * hh, 0, om * bw}, {0, om, 0}};
        const double r[2][3] = {{-bw, 0, -hh}, {bw, 0, -hh}}, n[2][3] = {{0, 0, 1}, {0, 0, 1}};
        problem p;
        memset(&p, 0, sizeof p);
        body_problem(&b, 2, r, n, &p);
        ck_assert(fabs(p.nu[3]) < 1e-12 && p.nu[0] < 0);
        p.mu[0] = p.mu[1] = 1.0;
        p.e[0] = p.e[1] = 0.0;
        solve(w, &p);
        body a;
        body_after(&b, 2, r, n, p.P, &a);
        const double alpha = atan(bw / hh), ratio = 1.0 - 1.5 * sin(alpha) * sin(alpha);
        ck_assert_msg(fabs(a.w[1] / om - ratio) <= 1e-9, "b %g h %g: ratio %.12g, Housner %.12g",
                      bw, hh, a.w[1] / om, ratio);
        ck_assert_msg(p.P[3] == 0.0, "the old pivot takes no impulse (%g)", p.P[3]);
    }
    mcd_stronge_ws_free(w);
}
END_TEST

/* Three equal balls in a row, touching, the first arriving at V: rows (n,
 * t, o) per contact, n along the row, nu_n = relative velocity of the next
 * ball. As one simultaneous impact the plastic distribution loads the two
 * contacts 2:1 and e = 1 gives (-1/3, 2/3, 2/3) V (energy conserved; the
 * sequential cradle outcome (0, 0, V) needs a gap: tests/sim/test_impact.c). */
START_TEST(three_touching_balls)
{
    mcd_stronge_ws *w = ws();
    const double m = 0.5, V = 2.0;
    problem p;
    memset(&p, 0, sizeof p);
    p.nc = 2;
    const int M = 6;
    p.W[0] = p.W[3 * M + 3] = 2 / m;
    p.W[3] = p.W[3 * M] = -1 / m;
    for (int i = 0; i < 6; i++)
        if (i % 3) p.W[i * M + i] = 3.5 / m;
    p.nu[0] = -V;
    for (int ie = 0; ie < 2; ie++) {
        p.e[0] = p.e[1] = ie;
        solve(w, &p);
        const double v1 = V - p.P[0] / m, v2 = (p.P[0] - p.P[3]) / m, v3 = p.P[3] / m;
        const double want[2][3] = {{V / 3, V / 3, V / 3}, {-V / 3, 2 * V / 3, 2 * V / 3}};
        ck_assert_msg(fabs(v1 - want[ie][0]) < 1e-12 && fabs(v2 - want[ie][1]) < 1e-12 &&
                          fabs(v3 - want[ie][2]) < 1e-12,
                      "e = %d: (%.15g, %.15g, %.15g)", ie, v1, v2, v3);
    }
    mcd_stronge_ws_free(w);
}
END_TEST

START_TEST(separating_contacts_get_no_impulse)
{
    mcd_stronge_ws *w = ws();
    problem p = {.nc = 2};
    tu_rng rng = {5};
    tu_spd_matrix(&rng, 6, 0.1, p.W);
    p.nu[0] = 0.5, p.nu[3] = 0.0, p.nu[1] = 3.0;
    p.mu[0] = p.mu[1] = 0.5, p.e[0] = p.e[1] = 0.5;
    solve(w, &p);
    for (int i = 0; i < 6; i++) ck_assert(p.P[i] == 0.0);
    ck_assert_int_eq(mcd_stronge_solve(w, 0, NULL, NULL, NULL, NULL, NULL, p.P, NULL, NULL),
                     MCD_OK);
    mcd_stronge_ws_free(w);
}
END_TEST

START_TEST(bad_input)
{
    mcd_stronge_ws *w = ws();
    problem p0 = {.nc = 1};
    tu_rng rng = {8};
    tu_spd_matrix(&rng, 3, 0.1, p0.W);
    p0.nu[0] = -1, p0.mu[0] = 0.3, p0.e[0] = 0.5;
    mcd_error err;
    problem p = p0;
#define EXPECT(status, what)                                                                       \
    do {                                                                                           \
        memset(&err, 0, sizeof err);                                                               \
        for (int i_ = 0; i_ < 3; i_++) p.P[i_] = 7.0;                                              \
        ck_assert_int_eq(mcd_stronge_solve(w, p.nc, p.W, p.nu, p.mu, p.e, NULL, p.P, NULL, &err),  \
                         status);                                                                  \
        ck_assert_msg(strstr(err.msg, what), "message '%s' lacks '%s'", err.msg, what);            \
        ck_assert(p.P[0] == 0.0 && p.P[1] == 0.0 && p.P[2] == 0.0);                                \
        p = p0;                                                                                    \
    } while (0)
    p.W[4] = NAN;
    EXPECT(MCD_ERR_NONFINITE, "W[4]");
    p.nu[2] = INFINITY;
    EXPECT(MCD_ERR_NONFINITE, "nu[2]");
    p.mu[0] = NAN;
    EXPECT(MCD_ERR_NONFINITE, "not finite");
    p.e[0] = NAN;
    EXPECT(MCD_ERR_NONFINITE, "not finite");
    p.e[0] = 1.5;
    EXPECT(MCD_ERR_ARG, "out of range");
    p.e[0] = -0.1;
    EXPECT(MCD_ERR_ARG, "out of range");
    p.mu[0] = -1;
    EXPECT(MCD_ERR_ARG, "out of range");
    p.W[1] += 0.1;
    EXPECT(MCD_ERR_ARG, "symmetric");
    p.W[0] = -1;
    EXPECT(MCD_ERR_ARG, "PSD");
    p.nc = MAXC + 1;
    ck_assert_int_eq(mcd_stronge_solve(w, p.nc, p.W, p.nu, p.mu, p.e, NULL, p.P, NULL, &err),
                     MCD_ERR_ARG);
    ck_assert(strstr(err.msg, "capacity"));
    p = p0;
    ck_assert_int_eq(mcd_stronge_solve(w, 1, NULL, p.nu, p.mu, p.e, NULL, p.P, NULL, &err),
                     MCD_ERR_ARG);
    mcd_stronge_opts o = mcd_stronge_default_opts();
    o.tol = 0;
    ck_assert_int_eq(mcd_stronge_solve(w, 1, p.W, p.nu, p.mu, p.e, &o, p.P, NULL, &err),
                     MCD_ERR_ARG);
    o = mcd_stronge_default_opts();
    o.max_steps = 1; /* a frictional impact needs more than one step */
    p.mu[0] = 0.3;
    p.nu[1] = 0.01;
    ck_assert_int_eq(mcd_stronge_solve(w, 1, p.W, p.nu, p.mu, p.e, &o, p.P, NULL, &err),
                     MCD_ERR_NOT_CONVERGED);
    ck_assert_int_eq(mcd_stronge_ws_create(-1, &w, &err), MCD_ERR_ARG);
    mcd_stronge_ws_free(w);
    mcd_stronge_ws_free(NULL);
}
END_TEST

Suite *stronge_suite(void)
{
    Suite *s = suite_create("solver-stronge");
    TCase *tc = tcase_create("stronge");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, one_frictionless_contact_is_newton);
    tcase_add_test(tc, frictionless_multi_point_restitutes_every_loaded_contact);
    tcase_add_test(tc, coupled_pair_gets_the_plastic_distribution);
    tcase_add_test(tc, energy_never_increases_random);
    tcase_add_test(tc, energy_never_increases_rigid_bodies);
    tcase_add_test(tc, box_face_sliding_into_stick);
    tcase_add_test(tc, elastic_frictionless_conserves_energy);
    tcase_add_test(tc, sphere_with_spin_matches_closed_form);
    tcase_add_test(tc, rocking_block_housner_ratio);
    tcase_add_test(tc, three_touching_balls);
    tcase_add_test(tc, separating_contacts_get_no_impulse);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(stronge_suite());
}

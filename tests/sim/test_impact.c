/* The impact laws in the simulator (sim.h impact_law; docs/theory/impacts.md,
 * docs/validation.md), through the scenario runner:
 *  - a spinning sphere dropped on a rough plane (models/impact_sphere_spin.yaml):
 *    Stronge's closed-form rebound velocity and spin, gross slip and stick,
 *    and one frictionless contact = Newton's restitution;
 *  - three-ball Newton's cradle: touching balls (one simultaneous impact,
 *    (-1/3, 2/3, 2/3) V, energy conserved with e = 1, mu = 0) and balls 1 mm
 *    apart (two impacts, (0, 0, V));
 *  - Housner's rocking block: the angular velocity ratio at the first
 *    landing, 1 - 3/2 sin^2(alpha);
 *  - Kane's paradox on the twelve-link pendulum: Newton's restitution with
 *    mu = 0.5, e = 0.7 gains energy at the first floor impact, stronge and
 *    maxdiss never increase it;
 *  - a bouncing ball: repeated impacts, then sustained contact at rest;
 *  - a leg with a loop closure striking the ground;
 *  - bad input. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "common/check_main.h"
#include "mcdyn/mcdyn.h"
#include "mcdyn/runner.h"

static mcd_scenario *load(const char *name)
{
    char path[1024];
    const char *src = getenv("MCDYN_SOURCE");
    snprintf(path, sizeof path, "%s/models/%s", src ? src : ".", name);
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load(path, &sc, &err) == MCD_OK, "%s", err.msg);
    return sc;
}

static mcd_runner *start(mcd_scenario *sc, mcd_impact_law law, double dt)
{
    sc->settings.contact.impact_law = law;
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.dt = dt;
    mcd_runner *r = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_runner_create(sc, &ov, &r, &err) == MCD_OK, "%s", err.msg);
    return r;
}

static void step(mcd_runner *r)
{
    mcd_sim *s = mcd_runner_sim(r);
    ck_assert_msg(mcd_runner_step(r, NULL) == MCD_OK, "t = %g: %s", mcd_sim_time(s),
                  mcd_sim_error(s));
}

/* World angular velocity of a free joint (q: x y z qw qx qy qz; qd: v,
 * then w in the body frame). */
static void world_omega(const double *q, const double *qd, double w[3])
{
    const double a = q[3], b = q[4], c = q[5], d = q[6], *x = qd + 3;
    const double R[9] = {a * a + b * b - c * c - d * d, 2 * (b * c - a * d),
                         2 * (b * d + a * c),           2 * (b * c + a * d),
                         a * a - b * b + c * c - d * d, 2 * (c * d - a * b),
                         2 * (b * d - a * c),           2 * (c * d + a * b),
                         a * a - b * b - c * c + d * d};
    for (int i = 0; i < 3; i++) w[i] = R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2];
}

static double energy(mcd_runner *r, const mcd_scenario *sc)
{
    mcd_sim *s = mcd_runner_sim(r);
    double T, U;
    ck_assert_int_eq(mcd_energy(sc->model, mcd_sim_data(s), mcd_sim_q(s), mcd_sim_qd(s), &T, &U),
                     MCD_OK);
    return T + U;
}

/* Height of the (single) body's centre of mass. */
static double centre_height(const mcd_model *m, mcd_data *d, const double *q)
{
    double c[3];
    ck_assert_int_eq(mcd_forward_kinematics(m, d, q), MCD_OK);
    mcd_pose_apply(c, &d->bd[0].X_world, m->body[0].mass.com);
    return c[2];
}

/* The sphere (m = 1, I = 0.4) hits the plane z = 0 with centre velocity v,
 * spin w (world); the contact point is l below the centre (the speculative
 * contact sits on the plane, so l is the radius plus the gap of the impact
 * step). Stronge's closed form for this single contact (W_nt = 0, W_tt =
 * k = 1/m + l^2/I; docs/theory/impacts.md): P_n = (1 + e) m V and
 *   |s-| >= mu P_n k: P_t = -mu P_n s-/|s-| (gross slip), else P_t = -s-/k,
 * s- = (v_x - l w_y, v_y + l w_x). */
static void sphere_case(mcd_impact_law law, double vx, double vy, double wx, double wy, double mu,
                        double tol)
{
    mcd_scenario *sc = load("impact_sphere_spin.yaml");
    const double m = 1.0, I = 0.4, e = sc->settings.contact.restitution, V = 3.0;
    sc->settings.contact.mu = mu;
    const double qd0[6] = {vx, vy, -V, wx, wy, 0.0};
    memcpy(sc->qd0, qd0, sizeof qd0);
    mcd_runner *r = start(sc, law, 1e-3);
    mcd_sim *s = mcd_runner_sim(r);
    double pre[6], post[6], w0[3], w1[3], l = 0.0, zc = 0.0;
    int hit = 0;
    for (long i = 0; i < mcd_runner_steps(r) && !hit; i++) {
        memcpy(pre, mcd_sim_qd(s), sizeof pre);
        world_omega(mcd_sim_q(s), pre, w0);
        zc = centre_height(sc->model, mcd_sim_data(s), mcd_sim_q(s));
        step(r);
        for (int k = 0; k < mcd_sim_ncontacts(s); k++)
            if (mcd_contact_impulse(mcd_sim_contact_ws(s), k)[2] > 0) {
                hit = 1;
                l = zc - mcd_sim_contact(s, k)->pos[2];
            }
    }
    ck_assert_msg(hit, "no impact");
    memcpy(post, mcd_sim_qd(s), sizeof post);
    world_omega(mcd_sim_q(s), post, w1);
    const double Pn = (1 + e) * m * V, k = 1 / m + l * l / I;
    const double sl[2] = {pre[0] - l * w0[1], pre[1] + l * w0[0]}, sn = hypot(sl[0], sl[1]);
    double Pt[2] = {-sl[0] / k, -sl[1] / k};
    if (sn >= mu * Pn * k) Pt[0] = -mu * Pn * sl[0] / sn, Pt[1] = -mu * Pn * sl[1] / sn;
    const double want_v[3] = {pre[0] + Pt[0] / m, pre[1] + Pt[1] / m, e * V};
    const double want_w[2] = {w0[0] + l * Pt[1] / I, w0[1] - l * Pt[0] / I};
    for (int i = 0; i < 3; i++)
        ck_assert_msg(fabs(post[i] - want_v[i]) <= tol,
                      "%s mu %g: v[%d] = %.12g, closed form %.12g", mcd_impact_law_name(law), mu, i,
                      post[i], want_v[i]);
    for (int i = 0; i < 2; i++)
        ck_assert_msg(fabs(w1[i] - want_w[i]) <= tol, "%s mu %g: w[%d] = %.12g, closed form %.12g",
                      mcd_impact_law_name(law), mu, i, w1[i], want_w[i]);
    ck_assert(l > 1.0 && l < 1.01);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}

START_TEST(sphere_with_spin_matches_stronge)
{
    /* backspin: gross slip (|s-| = 11 > 3.2 m/s); the file's case */
    sphere_case(MCD_IMPACT_STRONGE, 1.0, 0.0, 0.0, -10.0, 0.2, 1e-9);
    /* no spin: |s-| = 1 m/s, stick */
    sphere_case(MCD_IMPACT_STRONGE, 1.0, 0.0, 0.0, 0.0, 0.2, 1e-9);
    /* slip along a general direction, sideways spin */
    sphere_case(MCD_IMPACT_STRONGE, 0.5, -2.0, 6.0, 3.0, 0.2, 1e-9);
    /* frictionless: Newton's rebound, tangential motion unchanged */
    sphere_case(MCD_IMPACT_STRONGE, 1.0, 0.5, 2.0, -10.0, 0.0, 1e-9);
    /* Newton's law agrees for this contact (W_nt = 0): the MNCP solve's accuracy */
    sphere_case(MCD_IMPACT_NEWTON, 1.0, 0.0, 0.0, -10.0, 0.2, 1e-7);
    sphere_case(MCD_IMPACT_NEWTON, 1.0, 0.0, 0.0, 0.0, 0.2, 1e-7);
}
END_TEST

/* Velocities along x of the three balls after the run. */
static void cradle(const char *file, mcd_impact_law law, double v[3], double *dE, double *E0)
{
    mcd_scenario *sc = load(file);
    mcd_runner *r = start(sc, law, -1);
    *E0 = energy(r, sc);
    for (long i = 0; i < mcd_runner_steps(r); i++) step(r);
    *dE = energy(r, sc) - *E0;
    const double *qd = mcd_sim_qd(mcd_runner_sim(r));
    for (int b = 0; b < 3; b++) v[b] = qd[6 * b];
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}

START_TEST(newtons_cradle)
{
    double v[3], dE, E0;
    cradle("cradle_3balls.yaml", MCD_IMPACT_STRONGE, v, &dE, &E0);
    const double touching[3] = {-1.0 / 3, 2.0 / 3, 2.0 / 3}, gap[3] = {0, 0, 1};
    for (int b = 0; b < 3; b++)
        ck_assert_msg(fabs(v[b] - touching[b]) < 1e-9, "touching: ball %d v = %.12g", b, v[b]);
    ck_assert_msg(fabs(dE) <= 1e-9 * E0, "touching: energy changed by %g of %g J", dE, E0);
    cradle("cradle_3balls_gap.yaml", MCD_IMPACT_STRONGE, v, &dE, &E0);
    for (int b = 0; b < 3; b++)
        ck_assert_msg(fabs(v[b] - gap[b]) < 1e-9, "1 mm apart: ball %d v = %.12g", b, v[b]);
    ck_assert_msg(fabs(dE) <= 1e-9 * E0, "1 mm apart: energy changed by %g of %g J", dE, E0);
}
END_TEST

/* Angular velocity about y before and after the first landing. */
static double housner_ratio(mcd_impact_law law)
{
    mcd_scenario *sc = load("rocking_block.yaml");
    mcd_runner *r = start(sc, law, -1);
    mcd_sim *s = mcd_runner_sim(r);
    double w0[3], w1[3], ratio = 0.0;
    for (long i = 0; i < mcd_runner_steps(r) && ratio == 0.0; i++) {
        world_omega(mcd_sim_q(s), mcd_sim_qd(s), w0);
        step(r);
        world_omega(mcd_sim_q(s), mcd_sim_qd(s), w1);
        if (fabs(w1[1] - w0[1]) > 0.01) ratio = w1[1] / w0[1];
    }
    ck_assert_msg(w0[1] < -0.4, "%s: landing at w_y = %g", mcd_impact_law_name(law), w0[1]);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
    return ratio;
}

START_TEST(rocking_block_housner)
{
    const double alpha = atan(0.2), want = 1.0 - 1.5 * sin(alpha) * sin(alpha);
    const mcd_impact_law laws[2] = {MCD_IMPACT_STRONGE, MCD_IMPACT_MAXDISS};
    for (int k = 0; k < 2; k++) {
        const double ratio = housner_ratio(laws[k]);
        /* the step's gravity impulse is the deviation (measured 2.5e-5) */
        ck_assert_msg(fabs(ratio - want) < 1e-4, "%s: ratio %.6f, Housner %.6f",
                      mcd_impact_law_name(laws[k]), ratio, want);
    }
}
END_TEST

/* Largest energy gain in one step and over the run (0.6 s: the first floor
 * impact is at 0.158 s). */
static void pendulum_energy(mcd_impact_law law, double *step_gain, double *total_gain)
{
    mcd_scenario *sc = load("pendulum12.yaml");
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.duration = 0.6;
    sc->settings.contact.impact_law = law;
    mcd_runner *r = NULL;
    ck_assert_int_eq(mcd_runner_create(sc, &ov, &r, NULL), MCD_OK);
    const double E0 = energy(r, sc);
    double prev = E0;
    *step_gain = *total_gain = -INFINITY;
    for (long i = 0; i < mcd_runner_steps(r); i++) {
        step(r);
        const double E = energy(r, sc);
        *step_gain = fmax(*step_gain, E - prev);
        *total_gain = fmax(*total_gain, E - E0);
        prev = E;
    }
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}

START_TEST(kanes_paradox_pendulum12)
{
    double step_gain, total_gain;
    pendulum_energy(MCD_IMPACT_NEWTON, &step_gain, &total_gain);
    ck_assert_msg(step_gain > 400, "newton: the paradox's gain is %g J (docs: 485 J)", step_gain);
    const mcd_impact_law laws[2] = {MCD_IMPACT_STRONGE, MCD_IMPACT_MAXDISS};
    for (int k = 0; k < 2; k++) {
        pendulum_energy(laws[k], &step_gain, &total_gain);
        /* bound: the semi-implicit Euler step's own energy error */
        ck_assert_msg(step_gain < 0.02 && total_gain < 0.02, "%s: energy gain %g J per step, %g J",
                      mcd_impact_law_name(laws[k]), step_gain, total_gain);
    }
}
END_TEST

/* The bouncing ball (models/impact_bouncing_ball.yaml, stronge, e = 0.5):
 * every rebound leaves at e times the arrival speed (less the step's
 * gravity), and once the arrival speed is below restitution_velocity the
 * contact is sustained: the ball rests on the plane. */
START_TEST(bouncing_ball_comes_to_rest)
{
    mcd_scenario *sc = load("impact_bouncing_ball.yaml");
    mcd_runner *r = start(sc, MCD_IMPACT_STRONGE, -1);
    mcd_sim *s = mcd_runner_sim(r);
    const double e = 0.5, g = 9.81, dt = 1e-3;
    int bounces = 0;
    for (long i = 0; i < mcd_runner_steps(r); i++) {
        const double v0 = mcd_sim_qd(s)[2];
        step(r);
        const double v1 = mcd_sim_qd(s)[2];
        if (v0 < -0.01 && v1 > 0) {
            bounces++;
            ck_assert_msg(fabs(v1 - (-e * v0 - g * dt)) < 1e-9, "bounce %d: %.12g -> %.12g",
                          bounces, v0, v1);
        }
    }
    ck_assert_int_ge(bounces, 6); /* measured 7, the last from 0.041 m/s */
    ck_assert_int_eq(mcd_sim_ncontacts(s), 1);
    ck_assert_msg(fabs(mcd_sim_qd(s)[2]) < 1e-9, "still moving: v_z = %g", mcd_sim_qd(s)[2]);
    ck_assert_msg(fabs(centre_height(sc->model, mcd_sim_data(s), mcd_sim_q(s)) - 1.0) < 1e-3,
                  "not resting on the plane");
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}
END_TEST

/* The closed-loop leg striking the ground (models/impact_closed_leg.yaml):
 * the closure rows in the impact (stronge: Schur complement; maxdiss:
 * bilateral rows), energy never increases, the impact is resolved. */
START_TEST(closed_loop_leg)
{
    const mcd_impact_law laws[2] = {MCD_IMPACT_STRONGE, MCD_IMPACT_MAXDISS};
    for (int k = 0; k < 2; k++) {
        mcd_scenario *sc = load("impact_closed_leg.yaml");
        mcd_runner_overrides ov = mcd_runner_default_overrides();
        ov.duration = 1.0;
        sc->settings.contact.impact_law = laws[k];
        mcd_runner *r = NULL;
        ck_assert_int_eq(mcd_runner_create(sc, &ov, &r, NULL), MCD_OK);
        mcd_sim *s = mcd_runner_sim(r);
        const double E0 = energy(r, sc);
        double prev = E0, gain = 0.0, impulse = 0.0;
        for (long i = 0; i < mcd_runner_steps(r); i++) {
            step(r);
            const double E = energy(r, sc);
            gain = fmax(gain, E - prev);
            prev = E;
            for (int c = 0; c < mcd_sim_ncontacts(s); c++)
                impulse = fmax(impulse, mcd_contact_impulse(mcd_sim_contact_ws(s), c)[2]);
        }
        /* measured: the energy never rises (gain 0) */
        ck_assert_msg(gain <= 1e-9, "%s: energy gain %g J in a step", mcd_impact_law_name(laws[k]),
                      gain);
        ck_assert_msg(impulse > 0.1 && prev < E0 - 0.01, "%s: impulse %g N s, energy %g -> %g J",
                      mcd_impact_law_name(laws[k]), impulse, E0, prev);
        mcd_runner_free(r);
        mcd_scenario_free(sc);
    }
}
END_TEST

START_TEST(bad_input)
{
    mcd_scenario *sc = load("impact_sphere_spin.yaml");
    mcd_sim_options o = mcd_sim_default_options();
    o.impact_law = (mcd_impact_law)7;
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_sim_create(sc->model, &o, &s, &err), MCD_ERR_ARG);
    ck_assert(strstr(err.msg, "impact law"));
    mcd_impact_law law;
    ck_assert_int_eq(mcd_impact_law_from_name("strong", &law, &err), MCD_ERR_ARG);
    ck_assert(strstr(err.msg, "stronge"));
    o.impact_law = MCD_IMPACT_STRONGE;
    ck_assert_int_eq(mcd_sim_create(sc->model, &o, &s, &err), MCD_OK);
    mcd_scenario_free(sc);
    mcd_sim_free(s);
    const char *exe = getenv("MCDYN_EXE"), *src = getenv("MCDYN_SOURCE");
    if (exe && src) {
        char cmd[2048];
        snprintf(cmd, sizeof cmd,
                 "%s sim %s/models/impact_sphere_spin.yaml --impact-law bogus --quiet "
                 ">/dev/null 2>&1",
                 exe, src);
        const int rc = system(cmd);
        ck_assert_msg(WIFEXITED(rc) && WEXITSTATUS(rc) == 2, "--impact-law bogus: status %d", rc);
    }
}
END_TEST

Suite *impact_suite(void)
{
    Suite *s = suite_create("sim-impact");
    TCase *tc = tcase_create("impact");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, sphere_with_spin_matches_stronge);
    tcase_add_test(tc, newtons_cradle);
    tcase_add_test(tc, rocking_block_housner);
    tcase_add_test(tc, kanes_paradox_pendulum12);
    tcase_add_test(tc, bouncing_ball_comes_to_rest);
    tcase_add_test(tc, closed_loop_leg);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(impact_suite());
}

/* The cone complementarity problem (CCP) in the simulator, step methods
 * ccp-pgs, ccp-apgd and ccp-admm (docs/contact.md, "Cone complementarity (CCP)"):
 * the properties and artefacts of Eq. (5)-(10) of the CCP brief
 * (ccp-tasora-anitescu-revisited.md) on small models built here — a sphere
 * (m = 1, r = 1, I = 2/5) and a box (2 kg, 0.4 x 0.3 x 0.2 m, contacts at
 * its four bottom corners) on the plane z = 0, with contact providers
 * written by hand that keep every contact with gap <= delta (the activation
 * distance delta_K) — the validation scenarios run with every method, and
 * a robot dropped on the floor with ccp-admm.
 *
 * Tolerances: the methods stop at the CCP residual 1e-9 (default), which
 * bounds the error of d = N gamma + r, i.e. of the post-step velocities, by
 * about 1e-9 / gamma_n per contact (complementarity |gamma . d| <= tol):
 * 1e-7 m/s for the sphere at rest (gamma_n = m g dt), 2e-7 m/s for a box
 * corner (m g dt / 4); a gap after a step is dt times a velocity. Each
 * test states its bound; most are met with a margin of 10 or more. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcdyn/ccp.h"
#include "common/contact_scenes.h"
#include "mcdyn/mcdyn.h"
#include "mcdyn/runner.h"
#include "mcdyn/scenario.h"
#include "common/check_main.h"

#define G  9.81
#define DT 1e-3
/* box half sizes and mass */
#define BA 0.2
#define BB 0.15
#define BC 0.1
#define BM 2.0

enum { NM = 3 }; /* the CCP step methods */
static const mcd_step_method methods[NM] = {MCD_METHOD_CCP_PGS, MCD_METHOD_CCP_APGD,
                                            MCD_METHOD_CCP_ADMM};

static mcd_model *sphere_model(void)
{
    const double I[3] = {0.4, 0.4, 0.4}, g[3] = {0, 0, -G};
    return scene_free_body("body", 1.0, I, g);
}

/* The box under gravity g tilted by theta about y: the plane z = 0 is then
 * an incline of angle theta, downhill along +x. */
static mcd_model *box_model(double theta)
{
    const double I[3] = {BM / 3 * (BB * BB + BC * BC), BM / 3 * (BA * BA + BC * BC),
                         BM / 3 * (BA * BA + BB * BB)};
    const double g[3] = {G * sin(theta), 0, -G * cos(theta)};
    return scene_free_body("body", BM, I, g);
}

typedef struct scene {
    int box;      /* 0: sphere of radius 1, 1: box */
    double mu;    /* friction coefficient */
    double delta; /* activation distance delta_K [m] */
} scene;

/* Contacts of the scene at q: the sphere's lowest point, or the box's
 * bottom corners (+-BA, +-BB, -BC), against the plane z = 0, kept when
 * gap <= delta. */
static mcd_status provider(void *user, const mcd_model *m, const mcd_data *d, const double *q,
                           mcd_contact_point *c, int capacity, int *n, mcd_error *err)
{
    (void)m, (void)d, (void)err;
    const scene *sc = user;
    double R[9];
    mcd_quat_to_m3(R, q + 3);
    *n = 0;
    for (int k = 0; k < (sc->box ? 4 : 1); k++) {
        double corner[3] = {k < 2 ? BA : -BA, k % 2 ? -BB : BB, -BC}, x[3];
        if (sc->box)
            mcd_m3_mul_v(x, R, corner);
        else
            x[0] = x[1] = 0.0, x[2] = -1.0;
        for (int i = 0; i < 3; i++) x[i] += q[i];
        if (x[2] > sc->delta) continue;
        if (*n >= capacity) return MCD_ERR_CAPACITY;
        mcd_contact_point p = {0, -1, {x[0], x[1], x[2]}, {0, 0, 1}, x[2], sc->mu, 0.0, 0.0};
        c[(*n)++] = p;
    }
    return MCD_OK;
}

/* A simulator for the scene with the given penetration gain and cap. */
/* position: 1 the split correction (the default), 0 the velocity targets. */
static mcd_sim *make_sim_law(const mcd_model *m, mcd_step_method method, scene *sc, double gain,
                             double cap, int position)
{
    mcd_sim_options o = mcd_sim_default_options();
    o.dt = DT;
    o.solver = method;
    o.solver_opts = mcd_step_method_default_opts(method);
    o.contact.penetration_gain = gain;
    o.contact.max_correction_velocity = cap;
    o.contact.position_correction = position;
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, &o, &s, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(s, provider, sc);
    return s;
}

static mcd_sim *make_sim(const mcd_model *m, mcd_step_method method, scene *sc, double gain,
                         double cap)
{
    return make_sim_law(m, method, sc, gain, cap, 1);
}

static void set_state(mcd_sim *s, double z, const double v[3], const double w[3])
{
    double q[7] = {0, 0, z, 1, 0, 0, 0}, qd[6] = {v[0], v[1], v[2], w[0], w[1], w[2]};
    ck_assert_int_eq(mcd_sim_set_state(s, q, qd, 0.0), MCD_OK);
}

static void step(mcd_sim *s, mcd_step_stats *st)
{
    mcd_status r = mcd_sim_step(s, st);
    ck_assert_msg(r == MCD_OK, "%s", mcd_sim_error(s));
}

/* Slip velocity along x of the sphere's contact point: v_x - r w_y (world). */
static double sphere_slip(const mcd_sim *s)
{
    const double *q = mcd_sim_q(s), *v = mcd_sim_qd(s);
    double R[9], w[3];
    mcd_quat_to_m3(R, q + 3);
    mcd_m3_mul_v(w, R, v + 3);
    return v[0] - w[1];
}

/* One step of a sphere sliding at v0 = 2 m/s (mu = 0.2, delta = 0, gap 0).
 * With W = diag(1, 3.5, 3.5) (normal 1/m, tangent 1/m + r^2/I) the CCP
 * gives gamma_T = -mu gamma_n and d_n = mu d_T (Eq. 5d), so
 *   gamma_n = m (g dt + mu v0) / (1 + 3.5 mu^2),  v_z+ = gamma_n / m - g dt,
 * and v_z+ = mu v_T+ = 0.35 m/s: the sphere lifts off by mu dt v_T+
 * (0.35 mm) in one step (1e-8 m/s, 1e-11 m; gamma_n = 0.36 N s), and the
 * next step has no contact (the known artefact). */
START_TEST(sliding_sphere_lifts_off_by_mu_dt_vt)
{
    const double mu = 0.2, v0 = 2.0, zero[3] = {0};
    const double vz = (G * DT + mu * v0) / (1 + 3.5 * mu * mu) - G * DT;
    mcd_model *m = sphere_model();
    scene sc = {0, mu, 0.0};
    mcd_sim *s = make_sim(m, methods[_i], &sc, 0.2, 1.0);
    const double v[3] = {v0, 0, 0};
    set_state(s, 1.0, v, zero);
    mcd_step_stats st;
    step(s, &st);
    ck_assert_int_eq(st.ncontacts, 1);
    const double vz1 = mcd_sim_qd(s)[2], slip = sphere_slip(s);
    ck_assert_msg(fabs(vz1 - vz) < 1e-8, "v_z+ %.10f, expected %.10f", vz1, vz);
    ck_assert_msg(fabs(vz1 - mu * slip) < 1e-8, "v_z+ %.10f vs mu v_T+ %.10f", vz1, mu * slip);
    ck_assert_double_eq_tol(mcd_sim_q(s)[2] - 1.0, mu * DT * slip, 1e-11);
    step(s, &st);
    ck_assert_int_eq(st.ncontacts, 0);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

/* A sliding contact at gap 0 needs the kick above to open the numerical
 * gap; started at that gap, Phi_0 = mu dt v0 (0.4 mm), with the activation
 * distance delta_K = 1 cm keeping the contact active, the sphere glides
 * instead: every step has a normal impulse and ends with Phi+ = Phi + dt
 * v_n+ = dt (Phi/dt + v_n+) = mu dt |v_T+| (Eq. 5d) while sliding. With
 * W = diag(1, 3.5, 3.5), gamma_n = m (g dt + v_n+ - v_n) and
 * v_n+ = mu (v_T+ - v_T) = -3.5 mu^2 gamma_n / m, i.e.
 *   v_n+ = -c (g dt - v_n) / (1 + c),  c = 3.5 mu^2,
 * tending to -c g dt = -1.4 mm/s. Once it rolls it is back on the plane;
 * sliding ends at t_sr = 2 v0 / (7 mu g) as with Coulomb friction (within
 * 2 dt) and it rolls at v_x = 5 v0 / 7 (1e-4 m/s). Gaps to
 * dt tol / gamma_n = 1e-10 m (gamma_n = m g dt), v_z to tol / gamma_n =
 * 1e-7 m/s. */
START_TEST(activation_distance_holds_the_numerical_gap)
{
    const double mu = 0.2, v0 = 2.0, zero[3] = {0}, tsr = 2 * v0 / (7 * mu * G);
    mcd_model *m = sphere_model();
    scene sc = {0, mu, 0.01};
    mcd_sim *s = make_sim(m, methods[_i], &sc, 0.2, 1.0);
    const double v[3] = {v0, 0, 0};
    set_state(s, 1.0 + mu * DT * v0, v, zero);
    const double c = 3.5 * mu * mu;
    double t_roll = -1, worst_slide = 0, worst_roll = 0, worst_vz = 0, vz = 0;
    for (int k = 0; k < 400; k++) {
        mcd_step_stats st;
        step(s, &st);
        ck_assert_int_eq(st.ncontacts, 1);
        ck_assert_msg(mcd_contact_impulse(mcd_sim_contact_ws(s), 0)[2] > 0, "no impulse at %g",
                      mcd_sim_time(s));
        const double slip = sphere_slip(s), gap = mcd_sim_q(s)[2] - 1.0;
        if (t_roll < 0 && fabs(slip) < 1e-7) t_roll = mcd_sim_time(s);
        const double vz_prev = vz;
        vz = mcd_sim_qd(s)[2];
        if (t_roll < 0) {
            worst_slide = fmax(worst_slide, fabs(gap - mu * DT * fabs(slip)));
            worst_vz = fmax(worst_vz, fabs(vz + c * (G * DT - vz_prev) / (1 + c)));
        } else {
            worst_roll = fmax(worst_roll, fabs(gap));
        }
    }
    ck_assert_msg(worst_slide < 1e-10, "sliding: |gap - mu dt v_T| up to %g", worst_slide);
    ck_assert_msg(worst_vz < 1e-7, "sliding: v_z off by %g", worst_vz);
    ck_assert_msg(worst_roll < 1e-10, "rolling: gap up to %g", worst_roll);
    ck_assert_msg(fabs(t_roll - tsr) <= 2 * DT, "rolling from %g s, expected %g", t_roll, tsr);
    ck_assert_double_eq_tol(mcd_sim_qd(s)[0], 5 * v0 / 7, 1e-4);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

/* The lift-off vanishes for mu = 0 (a frictionless slide at 2 m/s) and for
 * a rolling sphere (v_x = r w_y = 2, mu = 0.2): d_T = 0 or mu = 0 gives
 * d_n = Phi/dt + v_n+ = 0, so the gap stays 0 (1e-10 m) and v_z+ = 0
 * (tol / gamma_n = 1e-7 m/s; measured 1e-8) for 0.3 s; v_x is unchanged
 * (1e-8 m/s). _i: method, then
 * frictionless or rolling. */
START_TEST(no_lift_off_without_friction_or_slip)
{
    const int rolling = _i / NM;
    const double mu = rolling ? 0.2 : 0.0, v[3] = {2.0, 0, 0};
    const double w[3] = {0, rolling ? 2.0 : 0.0, 0};
    mcd_model *m = sphere_model();
    scene sc = {0, mu, 0.01};
    mcd_sim *s = make_sim(m, methods[_i % NM], &sc, 0.2, 1.0);
    set_state(s, 1.0, v, w);
    double worst_gap = 0, worst_vz = 0;
    for (int k = 0; k < 300; k++) {
        mcd_step_stats st;
        step(s, &st);
        ck_assert_int_eq(st.ncontacts, 1);
        worst_gap = fmax(worst_gap, fabs(mcd_sim_q(s)[2] - 1.0));
        worst_vz = fmax(worst_vz, fabs(mcd_sim_qd(s)[2]));
    }
    ck_assert_msg(worst_gap < 1e-10 && worst_vz < 1e-7, "%s: gap %g, v_z %g",
                  rolling ? "rolling" : "mu = 0", worst_gap, worst_vz);
    ck_assert_double_eq_tol(mcd_sim_qd(s)[0], 2.0, 1e-8);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

/* A box dropped flat from 5 cm (restitution 0) does not bounce: after the
 * first contact v_z never exceeds 2 tol / gamma_n = 4e-7 m/s (gamma_n =
 * m g dt / 4 per corner at rest), and the box comes to rest on the plane
 * (|qd| < 4e-7, every corner within 1e-9 m of it) within 0.3 s.
 * With delta_K = 1 cm (> the travel of one step, 1 mm) the contacts are
 * speculative and it never penetrates (1e-9 m); with delta_K = 0 and no
 * penetration correction it sinks by at most one step's travel. _i: method,
 * then delta_K = 1 cm or 0. */
START_TEST(dropped_box_does_not_bounce)
{
    const int speculative = _i < NM;
    const double zero[3] = {0}, vmax = sqrt(2 * G * 0.05);
    mcd_model *m = box_model(0.0);
    scene sc = {1, 0.5, speculative ? 0.01 : 0.0};
    mcd_sim *s = make_sim(m, methods[_i % NM], &sc, speculative ? 0.2 : 0.0, 1.0);
    set_state(s, BC + 0.05, zero, zero);
    int touched = 0;
    double max_up = 0, min_z = 1;
    for (int k = 0; k < 300; k++) {
        mcd_step_stats st;
        step(s, &st);
        touched |= st.ncontacts > 0 && mcd_sim_q(s)[2] - BC < 1e-3;
        if (touched) max_up = fmax(max_up, mcd_sim_qd(s)[2]);
        min_z = fmin(min_z, mcd_sim_q(s)[2]);
    }
    ck_assert(touched);
    ck_assert_msg(max_up < 4e-7, "v_z after the impact up to %g", max_up);
    if (speculative)
        ck_assert_msg(min_z > BC - 1e-9, "sank to %g", min_z - BC);
    else
        ck_assert_msg(min_z > BC - 1.01 * vmax * DT, "sank to %g", min_z - BC);
    for (int i = 0; i < 6; i++) ck_assert_double_eq_tol(mcd_sim_qd(s)[i], 0.0, 4e-7);
    if (speculative) ck_assert_double_eq_tol(mcd_sim_q(s)[2], BC, 1e-9);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

/* The stabilisation term: a sphere at rest penetrating by p = 2 mm gets the
 * normal target v_n+ = min(gain p / dt, cap) (mu |v_T| = 0): gain 1 with no
 * effective cap removes the whole penetration in one step (v_z+ = 2 m/s,
 * gap+ = 0; the paper's Phi/dt with gamma = 1), the cap 0.5 m/s limits it
 * (gap+ = -1.5 mm), gain 0.2 removes a fifth (v_z+ = 0.4 m/s). 1e-8 m/s,
 * 1e-10 m. With the split correction (the default) the same displacement
 * dt v_z is made by the position step and the velocity step stops the
 * sphere: v_z+ = 0, the same gap+. _i: method, then the three settings. */
START_TEST(penetration_correction_gain_and_cap)
{
    static const double gain[3] = {1.0, 1.0, 0.2}, cap[3] = {10.0, 0.5, 10.0};
    const int c = _i / NM;
    const double p = 2e-3, zero[3] = {0};
    const double vz = fmin(gain[c] * p / DT, cap[c]);
    mcd_model *m = sphere_model();
    scene sc = {0, 0.2, 0.0};
    for (int position = 0; position < 2; position++) {
        mcd_sim *s = make_sim_law(m, methods[_i % NM], &sc, gain[c], cap[c], position);
        set_state(s, 1.0 - p, zero, zero);
        step(s, NULL);
        ck_assert_double_eq_tol(mcd_sim_qd(s)[2], position ? 0.0 : vz, 1e-8);
        ck_assert_double_eq_tol(mcd_sim_q(s)[2] - 1.0, -p + DT * vz, 1e-10);
        mcd_sim_free(s);
    }
    mcd_model_free(m);
}
END_TEST

/* The box resting on its four corners: N (12 x 12) has rank 6, the CCP's
 * impulses are not unique (any normal impulses with sum m g dt and zero
 * moment about the centre), its velocity is (the brief's "Conclusions": N
 * positive semidefinite). One step's problem solved from four starts: PGS
 * and APGD from 0 (both return the symmetric m g dt / 4 per corner), PGS
 * from the diagonal pair (m g dt / 2 on corners 0 and 3, itself a solution,
 * kept in 0 sweeps) and APGD from (m g dt, m g dt / 3, 0, 0) (measured:
 * 0.0079, 0.0019, 0.0019, 0.0079 N s). The last three distributions differ
 * pairwise by more than 5% of m g dt; all have the total m g dt (1e-9 N s)
 * and the same velocity, zero (1e-9 m/s; solved to the residual 1e-12, i.e.
 * velocities to 1e-12 / gamma_n = 2e-10). */
START_TEST(redundant_box_unique_velocity)
{
    mcd_model *m = box_model(0.0);
    mcd_data *d = NULL;
    mcd_contact_ws *ws = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    ck_assert_int_eq(mcd_contact_ws_create(m, d, 4, 4, &ws, NULL), MCD_OK);
    scene sc = {1, 0.5, 0.01};
    double q[7] = {0, 0, BC, 1, 0, 0, 0}, qd[6] = {0}, tau[6] = {0}, qd_out[6];
    mcd_contact_point c[4];
    int nc = 0;
    ck_assert_int_eq(provider(&sc, m, d, q, c, 4, &nc, NULL), MCD_OK);
    ck_assert_int_eq(nc, 4);
    mcd_contact_options co = mcd_contact_default_options();
    ck_assert_int_eq(mcd_contact_setup(m, d, ws, q, qd, tau, DT, nc, c, &co), MCD_OK);
    mcd_fc3d p;
    ck_assert_int_eq(mcd_contact_fc3d(ws, &p), MCD_OK);
    ck_assert_int_eq(mcd_fc3d_size(&p), 12);
    double gamma[4][12] = {{0}}, work[72];
    const double wdt = BM * G * DT;
    gamma[2][0] = gamma[2][9] = wdt / 2;
    gamma[3][0] = wdt, gamma[3][3] = wdt / 3;
    mcd_ccp_opts o = mcd_ccp_default_opts();
    o.tol = 1e-12;
    for (int k = 0; k < 4; k++) {
        mcd_ccp_stats st;
        mcd_error err = {0};
        mcd_status r = k % 2 ? mcd_ccp_solve_apgd(&p, &o, gamma[k], work, &st, &err)
                             : mcd_ccp_solve_pgs(&p, &o, gamma[k], work, &st, &err);
        ck_assert_msg(r == MCD_OK, "%s", err.msg);
        if (k == 2) ck_assert_int_eq(st.iterations, 0);
        ck_assert_int_eq(mcd_contact_take_fc3d(ws, gamma[k]), MCD_OK);
        ck_assert_int_eq(mcd_contact_velocity_update(m, d, ws, qd_out), MCD_OK);
        for (int i = 0; i < 6; i++)
            ck_assert_msg(fabs(qd_out[i]) < 1e-9, "start %d: qd[%d] = %g", k, i, qd_out[i]);
        double total = 0;
        for (int j = 0; j < 4; j++) total += gamma[k][3 * j];
        ck_assert_double_eq_tol(total, wdt, 1e-9);
    }
    static const int distinct[3] = {0, 2, 3};
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++) {
            const double *ga = gamma[distinct[a]], *gb = gamma[distinct[b]];
            double diff = 0;
            for (int j = 0; j < 4; j++) diff = fmax(diff, fabs(ga[3 * j] - gb[3 * j]));
            ck_assert_msg(diff > 0.05 * wdt, "starts %d and %d: distributions differ by %g only",
                          distinct[a], distinct[b], diff);
        }
    mcd_contact_ws_free(ws);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

/* The box on an incline of angle theta (gravity tilted), mu = 0.5, from
 * rest, delta_K = 1 cm, 0.5 s. Two degrees below atan(mu) it sticks (|x|
 * and |v_x| below 1e-8); two degrees above it slides with a = g (sin theta
 * - mu cos theta) = 0.383 m/s^2, gliding at the gap mu dt v_T, which grows at
 * v_n = mu dt a: the normal impulse up to t is m (g cos theta t + v_n), the
 * friction mu times it, so v_x(t) = a (t - mu^2 dt) (to 1e-7 m/s).
 * _i: method, then below or above. */
START_TEST(incline_stick_slip_threshold)
{
    const int above = _i / NM;
    const double mu = 0.5, zero[3] = {0};
    const double theta = atan(mu) + (above ? 2.0 : -2.0) * M_PI / 180.0;
    const double a = G * (sin(theta) - mu * cos(theta));
    mcd_model *m = box_model(theta);
    scene sc = {1, mu, 0.01};
    mcd_sim *s = make_sim(m, methods[_i % NM], &sc, 0.2, 1.0);
    set_state(s, BC, zero, zero);
    for (int k = 0; k < 500; k++) {
        mcd_step_stats st;
        step(s, &st);
        ck_assert_int_eq(st.ncontacts, 4);
    }
    const double x = mcd_sim_q(s)[0], vx = mcd_sim_qd(s)[0], t = mcd_sim_time(s);
    if (above) {
        const double expected = a * (t - mu * mu * DT);
        ck_assert_msg(fabs(vx - expected) < 1e-7, "v_x %.9f, expected %.9f", vx, expected);
    } else {
        ck_assert_msg(fabs(x) < 1e-8 && fabs(vx) < 1e-8, "x %g, v_x %g", x, vx);
    }
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

typedef struct slide_run {
    double t_stop;    /* first time |v_x| < stop_speed, -1 if none in 0.4 s */
    int flight_steps; /* steps before the stop without any normal impulse */
    double max_rise;  /* highest z - BC before the stop */
} slide_run;

/* The box sliding along x at v0 = 1 m/s on the plane (mu = 0.5), started
 * at the height z0 - BC above it, with activation distance delta. */
static slide_run slide(mcd_step_method method, double z0, double delta, double stop_speed)
{
    const double v[3] = {1.0, 0, 0}, zero[3] = {0};
    mcd_model *m = box_model(0.0);
    scene sc = {1, 0.5, delta};
    mcd_sim *s = make_sim(m, method, &sc, 0.2, 1.0);
    set_state(s, BC + z0, v, zero);
    slide_run r = {-1, 0, 0};
    for (int k = 0; k < 400 && r.t_stop < 0; k++) {
        mcd_step_stats st;
        step(s, &st);
        double fn = 0;
        for (int c = 0; c < st.ncontacts; c++)
            fn += mcd_contact_impulse(mcd_sim_contact_ws(s), c)[2];
        r.flight_steps += !(fn > 0);
        r.max_rise = fmax(r.max_rise, mcd_sim_q(s)[2] - BC);
        if (fabs(mcd_sim_qd(s)[0]) < stop_speed) r.t_stop = mcd_sim_time(s);
    }
    mcd_sim_free(s);
    mcd_model_free(m);
    return r;
}

/* The sliding box stops after v0 / (mu g) = 0.2039 s. Started at the
 * numerical gap mu dt v0 = 0.5 mm with the activation distance 1 cm, it
 * glides (a normal impulse at every step, never higher than 0.5 mm) and
 * stops within 2 dt of it. Started on the plane with delta_K = 0, the kick
 * v_z+ = mu v_T+ makes it hop (steps without contact, up to
 * (mu v0)^2 / (2 g) = 12.7 mm high), yet it stops within 3 dt of v0 / (mu g):
 * over a hop the normal impulse still averages m g per unit time, and the
 * friction mu times it. "Stops" is |v_x| < 1e-8 m/s gliding, 1e-7 m/s
 * hopping: a hop can end with the box below the plane (ccp-admm's run:
 * 5.7e-6 m at 0.203 s), where the penetration correction's normal target
 * makes the relaxed CCP's corners slide (d_n = mu |d_T|) and the last
 * 3.4e-8 m/s decays by 0.8 per step (the CCP's answer at that state:
 * residual 9e-10), below 1e-8 only 6 steps later. */
START_TEST(sliding_box_stops_after_v0_over_mu_g)
{
    const double t_expected = 1.0 / (0.5 * G), hover = 0.5 * DT * 1.0;
    slide_run r = slide(methods[_i], hover, 0.01, 1e-8);
    ck_assert_msg(fabs(r.t_stop - t_expected) <= 2 * DT, "stopped at %g s, expected %g", r.t_stop,
                  t_expected);
    ck_assert_int_eq(r.flight_steps, 0);
    ck_assert_msg(r.max_rise <= hover + 1e-10, "rose to %g", r.max_rise);
    r = slide(methods[_i], 0.0, 0.0, 1e-7);
    ck_assert_msg(fabs(r.t_stop - t_expected) <= 3 * DT, "delta 0: stopped at %g s", r.t_stop);
    ck_assert_msg(r.flight_steps > 50 && r.max_rise > 1e-3 && r.max_rise < 0.0128,
                  "delta 0: %d steps in flight, rise %g", r.flight_steps, r.max_rise);
}
END_TEST

/* $MCDYN_SOURCE/models/name (static buffer). */
static const char *model_path(const char *name)
{
    static char path[4096];
    const char *src = getenv("MCDYN_SOURCE");
    ck_assert_msg(src != NULL, "MCDYN_SOURCE is not set");
    snprintf(path, sizeof path, "%s/models/%s", src, name);
    return path;
}

/* Runs a scenario of models/ with the given method (NULL: the file's) for
 * duration (0: the file's); every step must succeed. Returns the runner
 * (and the scenario in *sc) at the end; f is called after every step. */
typedef void (*step_check)(void *user, mcd_runner *r, const mcd_step_stats *st);
static void run_scenario(const char *name, const char *method, double duration, step_check f,
                         void *user)
{
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load(model_path(name), &sc, &err) == MCD_OK, "%s", err.msg);
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.solver = method;
    ov.duration = duration;
    mcd_runner *r = NULL;
    ck_assert_msg(mcd_runner_create(sc, &ov, &r, &err) == MCD_OK, "%s", err.msg);
    for (long k = 0; k < mcd_runner_steps(r); k++) {
        mcd_step_stats st;
        mcd_status s = mcd_runner_step(r, &st);
        ck_assert_msg(s == MCD_OK, "%s with %s: %s", name, method ? method : "its solver",
                      mcd_sim_error(mcd_runner_sim(r)));
        f(user, r, &st);
    }
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}

typedef struct sphere_track {
    double max_rise, min_rise, vx; /* of the free joint's z, which starts at 0 */
} sphere_track;

static void track_sphere(void *user, mcd_runner *r, const mcd_step_stats *st)
{
    (void)st;
    sphere_track *t = user;
    const mcd_sim *s = mcd_runner_sim(r);
    t->max_rise = fmax(t->max_rise, mcd_sim_q(s)[2]);
    t->min_rise = fmin(t->min_rise, mcd_sim_q(s)[2]);
    t->vx = mcd_sim_qd(s)[0];
}

/* models/sphere_plane.yaml (delta_K = 0) under both CCP methods: the
 * sphere hops (v_z+ = mu v_T+ = 0.35 m/s in the first step, flights up to
 * (mu v0)^2 / (2 g) = 8.2 mm) yet, the normal impulse balancing gravity on
 * average, rolls at 5 v0 / 7 in the end (1e-3 m/s). models/
 * ccp_sphere_plane.yaml (started at the numerical gap 0.4 mm, delta_K =
 * 1 cm, omega 1) glides: never above its start (1e-9 m), never below the
 * plane, and rolls at 5 v0 / 7 (1e-4 m/s). */
START_TEST(sphere_scenarios_run)
{
    const char *name = mcd_step_method_name(methods[_i]);
    sphere_track t = {0, 0, 0};
    run_scenario("sphere_plane.yaml", name, 0.0, track_sphere, &t);
    ck_assert_msg(t.max_rise > 1e-3 && t.max_rise < 0.2 * 0.2 * 4 / (2 * G), "%s: rise %g", name,
                  t.max_rise);
    ck_assert_double_eq_tol(t.vx, 5 * 2.0 / 7, 1e-3);
    sphere_track h = {0, 0, 0};
    run_scenario("ccp_sphere_plane.yaml", name, 0.0, track_sphere, &h);
    ck_assert_msg(h.max_rise < 1e-9 && h.min_rise > -0.4e-3 - 1e-9, "%s: glide in [%g, %g]", name,
                  h.min_rise, h.max_rise);
    ck_assert_double_eq_tol(h.vx, 5 * 2.0 / 7, 1e-4);
}
END_TEST

typedef struct pendulum_track {
    const mcd_model *m;
    mcd_data *d;
    double zmin, ymax;
    long contact_steps;
} pendulum_track;

static void track_pendulum(void *user, mcd_runner *r, const mcd_step_stats *st)
{
    pendulum_track *t = user;
    mcd_sim *s = mcd_runner_sim(r);
    const mcd_model *m = t->m;
    ck_assert_int_eq(mcd_forward_kinematics(m, t->d, mcd_sim_q(s)), MCD_OK);
    for (int b = 0; b < m->nbody; b++) {
        double c[3];
        mcd_pose_apply(c, &t->d->bd[b].X_world, m->body[b].mass.com);
        t->zmin = fmin(t->zmin, c[2]);
        t->ymax = fmax(t->ymax, c[1]);
    }
    t->contact_steps += st->ncontacts > 0;
}

/* models/pendulum12.yaml for 3 s (floor contact from 0.158 s) under both
 * CCP methods: every step succeeds (the runner keeps the method's own
 * 10000-sweep budget over the file's 100), contacts occur, and no sphere
 * (radius 0.25) sinks into the floor (top at z = 0.1) or the wall (face at
 * y = 4) by more than 1 cm. */
START_TEST(pendulum_scenario_runs)
{
    const char *name = mcd_step_method_name(methods[_i]);
    mcd_scenario *sc = NULL;
    ck_assert_int_eq(mcd_scenario_load(model_path("pendulum12.yaml"), &sc, NULL), MCD_OK);
    pendulum_track t = {sc->model, NULL, 1e9, -1e9, 0};
    ck_assert_int_eq(mcd_data_create(sc->model, &t.d, NULL), MCD_OK);
    run_scenario("pendulum12.yaml", name, 3.0, track_pendulum, &t);
    ck_assert_msg(t.contact_steps > 10, "%s: %ld steps in contact", name, t.contact_steps);
    ck_assert_msg(t.zmin > 0.1 + 0.25 - 0.01, "%s: a sphere sank to z = %g", name, t.zmin);
    ck_assert_msg(t.ymax < 4.0 - 0.25 + 0.01, "%s: a sphere went to y = %g", name, t.ymax);
    mcd_data_free(t.d);
    mcd_scenario_free(sc);
}
END_TEST

/* models/a1_drop_upright.yaml for its whole second (the trunk and the
 * feet land: up to 4 redundant corners per box, N singular) with ccp-admm
 * at the method's own options (tol 1e-9, cap 100000, as mcdyn bench scenes
 * runs it) and on_failure: stop: every step's CCP converges (ccp-apgd
 * fails 78 of these steps at its 10000 iterations, docs/solvers.md
 * "Success rate per scene"), and contacts occur. */
START_TEST(admm_converges_on_a_robot_landing)
{
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load(model_path("a1_drop_upright.yaml"), &sc, &err) == MCD_OK, "%s",
                  err.msg);
    sc->settings.solver.kind = MCD_METHOD_CCP_ADMM;
    sc->settings.solver.opts = mcd_step_method_default_opts(MCD_METHOD_CCP_ADMM);
    sc->settings.solver.on_failure = MCD_ON_FAILURE_STOP;
    mcd_runner *r = NULL;
    ck_assert_msg(mcd_runner_create(sc, NULL, &r, &err) == MCD_OK, "%s", err.msg);
    long contact_steps = 0, max_iterations = 0;
    for (long k = 0; k < mcd_runner_steps(r); k++) {
        mcd_step_stats st;
        ck_assert_msg(mcd_runner_step(r, &st) == MCD_OK, "step %ld: %s", k,
                      mcd_sim_error(mcd_runner_sim(r)));
        contact_steps += st.ncontacts > 0;
        if (st.iterations > max_iterations) max_iterations = st.iterations;
    }
    printf("a1_drop_upright, ccp-admm: %ld steps, %ld in contact, at most %ld iterations\n",
           mcd_runner_steps(r), contact_steps, max_iterations);
    ck_assert_int_eq(mcd_runner_steps(r), 1000);
    ck_assert_msg(contact_steps > 500, "%ld steps in contact", contact_steps);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}
END_TEST

/* omega reaches PGS: the scenario key (ccp_sphere_plane.yaml: 1.0) is read
 * and mapped by the runner — the first step of the sliding sphere needs a
 * different number of sweeps with omega 1 (31) than with the default 0.6
 * (57) — omega: 2.0 in a file is an error naming the key, and a value
 * outside (0, 2) in the simulator options fails the step naming omega,
 * with the state untouched. */
START_TEST(omega_option)
{
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load(model_path("ccp_sphere_plane.yaml"), &sc, &err) == MCD_OK, "%s",
                  err.msg);
    ck_assert_double_eq(sc->settings.solver.omega, 1.0);
    int iters[2];
    for (int k = 0; k < 2; k++) {
        sc->settings.solver.omega = k ? 1.0 : 0.0;
        mcd_runner *r = NULL;
        ck_assert_int_eq(mcd_runner_create(sc, NULL, &r, NULL), MCD_OK);
        mcd_step_stats st;
        ck_assert_int_eq(mcd_runner_step(r, &st), MCD_OK);
        iters[k] = st.iterations;
        mcd_runner_free(r);
    }
    ck_assert_msg(iters[0] != iters[1], "omega 0.6 and 1: %d sweeps both", iters[0]);
    mcd_scenario_free(sc);

    char path[] = "/tmp/mcdyn-ccp-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "robots:\n  - {urdf: %s, base: floating}\nsolver: {name: ccp-pgs, omega: 2.0}\n",
            model_path("sphere.urdf"));
    fclose(f);
    sc = NULL;
    ck_assert_int_eq(mcd_scenario_load(path, &sc, &err), MCD_ERR_ARG);
    ck_assert_msg(strstr(err.msg, "solver.omega") != NULL, "%s", err.msg);
    remove(path);

    const double zero[3] = {0};
    mcd_model *m = sphere_model();
    scene sn = {0, 0.2, 0.0};
    mcd_sim_options o = mcd_sim_default_options();
    o.solver = MCD_METHOD_CCP_PGS;
    o.solver_opts = mcd_step_method_default_opts(o.solver);
    o.ccp_omega = 2.5;
    mcd_sim *s = NULL;
    ck_assert_int_eq(mcd_sim_create(m, &o, &s, NULL), MCD_OK);
    mcd_sim_set_contact_provider(s, provider, &sn);
    set_state(s, 1.0, zero, zero);
    ck_assert_int_eq(mcd_sim_step(s, NULL), MCD_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(mcd_sim_error(s), "omega"));
    ck_assert_double_eq(mcd_sim_time(s), 0.0);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim-ccp");
    TCase *tc = tcase_create("ccp");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, sliding_sphere_lifts_off_by_mu_dt_vt, 0, NM);
    tcase_add_loop_test(tc, activation_distance_holds_the_numerical_gap, 0, NM);
    tcase_add_loop_test(tc, no_lift_off_without_friction_or_slip, 0, 2 * NM);
    tcase_add_loop_test(tc, dropped_box_does_not_bounce, 0, 2 * NM);
    tcase_add_loop_test(tc, penetration_correction_gain_and_cap, 0, 3 * NM);
    tcase_add_test(tc, redundant_box_unique_velocity);
    tcase_add_loop_test(tc, incline_stick_slip_threshold, 0, 2 * NM);
    tcase_add_loop_test(tc, sliding_box_stops_after_v0_over_mu_g, 0, NM);
    tcase_add_loop_test(tc, sphere_scenarios_run, 0, NM);
    tcase_add_loop_test(tc, pendulum_scenario_runs, 0, NM);
    tcase_add_test(tc, omega_option);
    tcase_add_test(tc, admm_converges_on_a_robot_landing);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* The contact frame (f, o, eta) of a normal eta (Mylapilli & Jain, Sec. 3.1,
 * Eq. 30-31), and its physics, for normals along and near the world x axis,
 * where the frame's reference direction changes (src/contact/contact_frames.c):
 * - the frame is orthonormal and right-handed with eta as its third row, for
 *   the axes, normals within 0.1 of +-x on both sides of the switch, and
 *   random normals; rounding alone separates it from exact, so 1e-14;
 * - a ball sliding against a wall whose normal is +-x or within 0.1 of it
 *   (gravity pushing it into the wall) feels friction opposite to its slip,
 *   of magnitude mu F_n while it slides, and ends rolling at 5 v0 / 7 (the
 *   closed form of tests/sim/test_sphere.c in a rotated world; the same
 *   tolerances, for the same reasons: 1e-6 relative on the cone, the
 *   rolling speed to 1e-3 after a 1 ms discretisation of the sliding end). */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "common/contact_scenes.h"
#include "common/random_model.h"
#include "contact/contact_internal.h"
#include "mcdyn/mcdyn.h"

#define FRAME_TOL 1e-14
#define MU        0.2
#define V0        2.0
#define G         9.81
#define DT        1e-3
#define TSR       (2 * V0 / (7 * MU * G)) /* end of sliding */

/* The frame of eta is orthonormal, right-handed (f x o = eta) and its third
 * row is eta. */
static void check_frame(const double eta[3])
{
    double F[9];
    mcd_contact_frame_from_normal(eta, F);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            const double dot = mcd_v3_dot(F + 3 * i, F + 3 * j);
            ck_assert_msg(fabs(dot - (i == j)) < FRAME_TOL,
                          "eta (%.17g, %.17g, %.17g): rows %d.%d = %.17g", eta[0], eta[1], eta[2],
                          i, j, dot);
        }
        ck_assert_msg(F[6 + i] == eta[i], "eta (%g, %g, %g): third row differs", eta[0], eta[1],
                      eta[2]);
    }
    double fxo[3];
    mcd_v3_cross(fxo, F, F + 3);
    for (int i = 0; i < 3; i++)
        ck_assert_msg(fabs(fxo[i] - eta[i]) < FRAME_TOL, "eta (%g, %g, %g): f x o != eta", eta[0],
                      eta[1], eta[2]);
}

static void unit(double v[3], double x, double y, double z)
{
    mcd_v3_set(v, x, y, z);
    mcd_v3_scale(v, v, 1.0 / mcd_v3_norm(v));
}

START_TEST(frame_is_orthonormal_and_right_handed)
{
    double eta[3];
    for (int axis = 0; axis < 3; axis++)
        for (int sign = -1; sign <= 1; sign += 2) {
            mcd_v3_set(eta, 0, 0, 0);
            eta[axis] = sign;
            check_frame(eta);
        }
    /* within 0.1 of +-x: a grid of offsets in y and z (the reference switches
     * at |eta_x| = 0.9, inside this range only for the larger offsets) */
    for (int sign = -1; sign <= 1; sign += 2)
        for (int i = -4; i <= 4; i++)
            for (int j = -4; j <= 4; j++) {
                unit(eta, sign, 0.025 * i, 0.025 * j);
                check_frame(eta);
            }
    test_rng r = {18};
    for (int k = 0; k < 1000; k++) {
        unit(eta, test_uniform(&r, -1, 1), test_uniform(&r, -1, 1), test_uniform(&r, -1, 1));
        check_frame(eta);
    }
}
END_TEST

/* The wall through the origin with unit normal n (pointing to the ball); a
 * ball of radius 1 touches it when its centre is 1 m along n. */
static mcd_status ball_wall(void *user, const mcd_model *m, const mcd_data *d, const double *q,
                            mcd_contact_point *c, int capacity, int *n, mcd_error *err)
{
    (void)m, (void)d, (void)err;
    const double *normal = user;
    const double gap = mcd_v3_dot(q, normal) - 1.0;
    *n = 0;
    if (gap > 0.01) return MCD_OK;
    if (capacity < 1) return MCD_ERR_CAPACITY;
    mcd_contact_point p = {0, -1, {0, 0, 0}, {normal[0], normal[1], normal[2]}, gap, MU, 0.0, 0.0};
    mcd_v3_copy(p.pos, q);
    mcd_v3_axpy(p.pos, -1.0 - 0.5 * gap, normal); /* midway between ball and wall */
    c[0] = p;
    *n = 1;
    return MCD_OK;
}

/* World velocity of the ball's material point at p, from its state. */
static void point_velocity(const double *q, const double *qd, const double p[3], double v[3])
{
    double R[9], w[3], r[3], wxr[3];
    mcd_quat_to_m3(R, q + 3);
    mcd_m3_mul_v(w, R, qd + 3); /* the free joint's angular velocity is in body axes */
    mcd_v3_sub(r, p, q);
    mcd_v3_cross(wxr, w, r);
    mcd_v3_add(v, qd, wxr);
}

/* The ball slides along tangent t (unit, normal to n) at v0 under gravity
 * -g n, with the given step method; 0.6 s. */
static void slide_against_wall(const double n[3], const double t[3], mcd_step_method kind)
{
    const double gravity[3] = {-G * n[0], -G * n[1], -G * n[2]};
    const double inertia[3] = {0.4, 0.4, 0.4}; /* 2/5 m r^2, as scene_ball_model() */
    mcd_model *m = scene_free_body("ball", 1.0, inertia, gravity);
    mcd_sim_options o = mcd_sim_default_options();
    o.dt = DT;
    o.solver = kind;
    o.solver_opts = mcd_step_method_default_opts(kind);
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, &o, &s, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(s, ball_wall, (void *)n);
    double q[7] = {n[0], n[1], n[2], 1, 0, 0, 0}, qd[6] = {0};
    mcd_v3_scale(qd, t, V0);
    ck_assert_int_eq(mcd_sim_set_state(s, q, qd, 0.0), MCD_OK);
    const char *name = mcd_step_method_name(kind);
    for (int step = 0; step < 600; step++) {
        ck_assert_msg(mcd_sim_step(s, NULL) == MCD_OK, "%s, n (%g, %g, %g), step %d: %s", name,
                      n[0], n[1], n[2], step, mcd_sim_error(s));
        ck_assert_int_eq(mcd_sim_ncontacts(s), 1);
        mcd_contact_force f;
        ck_assert_int_eq(mcd_sim_contact_force(s, 0, &f), MCD_OK);
        double slip[3], Ft[3];
        point_velocity(mcd_sim_q(s), mcd_sim_qd(s), f.point, slip);
        mcd_v3_axpy(slip, -mcd_v3_dot(slip, n), n);
        const double Fn = mcd_v3_dot(f.force, n);
        mcd_v3_copy(Ft, f.force);
        mcd_v3_axpy(Ft, -Fn, n);
        if (mcd_sim_time(s) > TSR - 2 * DT) continue; /* the sliding ends within a step */
        /* sliding: F_t = -mu F_n slip / |slip| (maximum dissipation) */
        ck_assert_msg(Fn > 0.5 * G, "%s, n (%g, %g, %g), step %d: F_n %g", name, n[0], n[1], n[2],
                      step, Fn);
        for (int i = 0; i < 3; i++) {
            const double want = -MU * Fn * slip[i] / mcd_v3_norm(slip);
            ck_assert_msg(fabs(Ft[i] - want) < 1e-6 * MU * Fn,
                          "%s, n (%g, %g, %g), step %d: F_t[%d] %.9g, -mu F_n slip/|slip| %.9g",
                          name, n[0], n[1], n[2], step, i, Ft[i], want);
        }
    }
    const double *v = mcd_sim_qd(s);
    const double vt = mcd_v3_dot(v, t), vn = mcd_v3_dot(v, n);
    ck_assert_msg(fabs(vt - 5 * V0 / 7) < 1e-3 && fabs(vn) < 1e-6,
                  "%s, n (%g, %g, %g): rolling at %.6f (5 v0 / 7 = %.6f), normal %g", name, n[0],
                  n[1], n[2], vt, 5 * V0 / 7, vn);
    mcd_sim_free(s);
    mcd_model_free(m);
}

/* Normals +-x and two within 0.1 of +-x (|eta_x| > 0.99, where the frame's
 * reference is y), for every step method. */
START_TEST(friction_opposes_slip_against_an_x_wall)
{
    const mcd_step_method kind = (mcd_step_method)_i;
    double n[4][3], t[3];
    unit(n[0], 1, 0, 0);
    unit(n[1], -1, 0, 0);
    unit(n[2], 1, 0.06, -0.08);
    unit(n[3], -1, -0.07, 0.05);
    for (int k = 0; k < 4; k++) {
        /* a tangent with components along y and z: slip neither along f nor o */
        double a[3] = {0, 0.6, 0.8};
        mcd_v3_axpy(a, -mcd_v3_dot(a, n[k]), n[k]);
        unit(t, a[0], a[1], a[2]);
        slide_against_wall(n[k], t, kind);
    }
}
END_TEST

static Suite *contact_frames_suite(void)
{
    Suite *s = suite_create("contact-frames");
    TCase *tc = tcase_create("frames");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, frame_is_orthonormal_and_right_handed);
    tcase_add_loop_test(tc, friction_opposes_slip_against_an_x_wall, 0, MCD_SOLVER_KIND_COUNT);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(contact_frames_suite());
}

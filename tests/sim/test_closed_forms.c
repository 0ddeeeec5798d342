/* Time stepping against closed forms (no contact solver tolerance involved
 * unless stated):
 * - free fall: the Moreau midpoint scheme (Eqs. 27-29) integrates a
 *   constant acceleration exactly, z_n = z0 + v0 t_n - g t_n^2 / 2, and
 *   semi-implicit Euler (Eq. 26) gives z_n = z0 + v0 t_n - g h^2 n (n+1) / 2;
 * - the midpoint scheme is second order on a pendulum, Euler first order;
 * - a joint with viscous damping b and inertia I decays at the rate b / I;
 * - an impact into an already penetrating contact leaves the normal
 *   velocity at max(-e nu_n-, b), b the penetration correction. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "common/contact_scenes.h"
#include "mcdyn/mcdyn.h"

#define G  9.81
#define DT 1e-3

/* One body on a joint of the given type about/along axis, mass 1, inertia
 * diag(i, i, i) at its origin, offset from the joint by com (along -z for a
 * pendulum). */
static mcd_model *one_body(mcd_joint_type type, const double axis[3], double inertia, double com_z,
                           double damping)
{
    mcd_builder *b = NULL;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    mcd_link_desc l = mcd_link_desc_default();
    l.name = "body";
    l.jtype = type;
    for (int i = 0; i < 3; i++) l.axis[i] = axis[i];
    l.mass.mass = 1.0;
    l.mass.com[2] = com_z;
    l.mass.inertia[0] = l.mass.inertia[4] = l.mass.inertia[8] = inertia;
    l.limits.damping = damping;
    ck_assert_int_eq(mcd_builder_add_link(b, &l, NULL, NULL), MCD_OK);
    mcd_model *m = NULL;
    ck_assert_int_eq(mcd_model_build(b, &m, NULL), MCD_OK);
    mcd_builder_free(b);
    return m;
}

static mcd_sim *make_sim(const mcd_model *m, mcd_integrator integ, double dt)
{
    mcd_sim_options o = mcd_sim_default_options();
    o.dt = dt;
    o.integrator = integ;
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, &o, &s, &err) == MCD_OK, "%s", err.msg);
    return s;
}

static void step_n(mcd_sim *s, int n)
{
    for (int k = 0; k < n; k++)
        ck_assert_msg(mcd_sim_step(s, NULL) == MCD_OK, "step %d: %s", k, mcd_sim_error(s));
}

/* 1000 steps of 1 ms from z0 = 10 m with v0 = 3 m/s up: rounding over 1000
 * additions of numbers ~10 stays below 1e-11 m; the two schemes differ by
 * g h t / 2 = 4.9e-3 m, so 1e-9 separates them by six orders. */
START_TEST(free_fall_matches_each_scheme_closed_form)
{
    const double ez[3] = {0, 0, 1};
    mcd_model *m = one_body(MCD_JOINT_PRISMATIC, ez, 0.1, 0.0, 0.0);
    const int n = 1000;
    const double z0 = 10, v0 = 3, t = n * DT;
    for (int scheme = 0; scheme < 2; scheme++) {
        mcd_integrator integ = scheme ? MCD_INTEGRATOR_MIDPOINT : MCD_INTEGRATOR_EULER;
        mcd_sim *s = make_sim(m, integ, DT);
        double q = z0, qd = v0;
        ck_assert_int_eq(mcd_sim_set_state(s, &q, &qd, 0.0), MCD_OK);
        step_n(s, n);
        double z =
            scheme ? z0 + v0 * t - 0.5 * G * t * t : z0 + v0 * t - 0.5 * G * DT * DT * n * (n + 1);
        ck_assert_msg(fabs(mcd_sim_q(s)[0] - z) < 1e-9, "%s: z %.15g, closed form %.15g",
                      scheme ? "midpoint" : "euler", mcd_sim_q(s)[0], z);
        ck_assert_msg(fabs(mcd_sim_qd(s)[0] - (v0 - G * t)) < 1e-11, "velocity %.15g",
                      mcd_sim_qd(s)[0]);
        mcd_sim_free(s);
    }
    mcd_model_free(m);
}
END_TEST

/* Pendulum angle after 1 s at steps h and h/2 against a reference at h/64
 * of the same scheme: the error ratio is 2^p for a method of order p. The
 * midpoint scheme must show p > 1.8, semi-implicit Euler p < 1.2 (both are
 * 2 and 1 up to O(h) corrections at these step sizes). */
static double pendulum_angle(mcd_integrator integ, double h)
{
    const double ey[3] = {0, 1, 0};
    mcd_model *m = one_body(MCD_JOINT_REVOLUTE, ey, 1e-3, -0.5, 0.0);
    mcd_sim *s = make_sim(m, integ, h);
    double q = 1.0, qd = 0.0;
    ck_assert_int_eq(mcd_sim_set_state(s, &q, &qd, 0.0), MCD_OK);
    step_n(s, (int)lround(1.0 / h));
    double a = mcd_sim_q(s)[0];
    mcd_sim_free(s);
    mcd_model_free(m);
    return a;
}

START_TEST(midpoint_is_second_order_euler_first)
{
    for (int scheme = 0; scheme < 2; scheme++) {
        mcd_integrator integ = scheme ? MCD_INTEGRATOR_MIDPOINT : MCD_INTEGRATOR_EULER;
        const double h = 4e-3, ref = pendulum_angle(integ, h / 64);
        double e1 = fabs(pendulum_angle(integ, h) - ref),
               e2 = fabs(pendulum_angle(integ, h / 2) - ref);
        double p = log2(e1 / e2);
        if (scheme)
            ck_assert_msg(p > 1.8, "midpoint order %.3f (errors %g, %g)", p, e1, e2);
        else
            ck_assert_msg(p > 0.8 && p < 1.2, "Euler order %.3f (errors %g, %g)", p, e1, e2);
    }
}
END_TEST

/* A wheel turning about the vertical (gravity does no work) with joint
 * damping b and inertia I: I w' = -b w, w(t) = w0 exp(-b t / I). One step of
 * either an explicit (1 - x) or an implicit 1 / (1 + x) damping update, x =
 * h b / I, differs from exp(-x) in ln by at most x^2 / 2 + x^3, so after n
 * steps |ln(w_n / w0) + b t / I| <= n (x^2 / 2 + x^3). A wrong sign makes w
 * grow as exp(+b t / I). */
START_TEST(joint_damping_decays_at_b_over_i)
{
    const double ez[3] = {0, 0, 1}, b = 0.5, inertia = 0.25, w0 = 3.0;
    mcd_model *m = one_body(MCD_JOINT_REVOLUTE, ez, inertia, 0.0, b);
    mcd_sim *s = make_sim(m, MCD_INTEGRATOR_EULER, DT);
    double q = 0.0, qd = w0;
    ck_assert_int_eq(mcd_sim_set_state(s, &q, &qd, 0.0), MCD_OK);
    const int n = 1000;
    const double x = DT * b / inertia;
    double w_prev = w0;
    for (int k = 0; k < n; k++) {
        step_n(s, 1);
        double w = mcd_sim_qd(s)[0];
        ck_assert_msg(w < w_prev && w > 0, "step %d: w %g after %g", k, w, w_prev);
        w_prev = w;
    }
    double dev = fabs(log(mcd_sim_qd(s)[0] / w0) + b * n * DT / inertia);
    ck_assert_msg(dev <= n * (0.5 * x * x + x * x * x), "ln deviation %g, bound %g", dev,
                  n * (0.5 * x * x + x * x * x));
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

/* A ball of radius 1 already 1 cm into the floor, approaching at v. The
 * penetration correction asks for b = min(gain depth / h, v_max) = min(0.2 *
 * 0.01 / 1e-3, 1) = 1 m/s of separation; Newton's law asks for e v. With
 * the velocity targets the normal velocity after the step is the larger of
 * the two, to the solver's tolerance (1e-10 on the velocities; 1e-8 leaves
 * margin for the impulse scale). With the split correction (the default)
 * the velocity is e v (the penetration branch of the target is 0) and the
 * position step lifts the ball only by what e v h leaves of b h, so the
 * ball moves by h max(e v, b) under both laws (1e-11 m: h times the
 * velocity tolerance). */
#define DEPTH 0.01
static mcd_status penetrating_ball(void *user, const mcd_model *m, const mcd_data *d,
                                   const double *q, mcd_contact_point *c, int capacity, int *n,
                                   mcd_error *err)
{
    (void)user, (void)m, (void)d, (void)err;
    if (capacity < 1) return MCD_ERR_CAPACITY;
    mcd_contact_point p = {0, -1, {q[0], q[1], q[2] - 1.0}, {0, 0, 1}, q[2] - 1.0, 0.5, 0.5, 0.0};
    c[0] = p;
    *n = 1;
    return MCD_OK;
}

/* v_z and the rise of z after one step of the ball arriving at v, with the
 * split correction (position 1) or the velocity targets (0). */
static void impact(double v, int position, double *vz, double *rise)
{
    mcd_model *m = scene_ball_model();
    mcd_sim_options o = mcd_sim_default_options();
    o.dt = DT;
    o.contact.position_correction = position;
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, &o, &s, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(s, penetrating_ball, NULL);
    double q[7] = {0, 0, 1.0 - DEPTH, 1, 0, 0, 0}, qd[6] = {0, 0, -v, 0, 0, 0};
    ck_assert_int_eq(mcd_sim_set_state(s, q, qd, 0.0), MCD_OK);
    step_n(s, 1);
    *vz = mcd_sim_qd(s)[2];
    *rise = mcd_sim_q(s)[2] - q[2];
    mcd_sim_free(s);
    mcd_model_free(m);
}

START_TEST(impact_into_penetration_takes_the_larger_target)
{
    const double b = fmin(0.2 * DEPTH / DT, 1.0), e = 0.5;
    static const double v[] = {0.5, 1.0, 4.0}; /* e v below, at and above b */
    for (int i = 0; i < 3; i++)
        for (int position = 0; position < 2; position++) {
            const double want = position ? e * v[i] : fmax(e * v[i], b);
            double got, rise;
            impact(v[i], position, &got, &rise);
            ck_assert_msg(fabs(got - want) < 1e-8, "v- %g, position %d: v+ %.12g, want %g", v[i],
                          position, got, want);
            ck_assert_msg(fabs(rise - DT * fmax(e * v[i], b)) < 1e-11,
                          "v- %g, position %d: rise %.12g, want h max(e v, b) = %g", v[i], position,
                          rise, DT * fmax(e * v[i], b));
        }
}
END_TEST

static Suite *closed_forms_suite(void)
{
    Suite *s = suite_create("closed-forms");
    TCase *tc = tcase_create("stepping");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, free_fall_matches_each_scheme_closed_form);
    tcase_add_test(tc, midpoint_is_second_order_euler_first);
    tcase_add_test(tc, joint_damping_decays_at_b_over_i);
    tcase_add_test(tc, impact_into_penetration_takes_the_larger_target);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(closed_forms_suite());
}

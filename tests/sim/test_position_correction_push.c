/* The split penetration correction (contact.h position_correction;
 * docs/contact.md, "Split correction") on a tilted box whose contacts do
 * not all penetrate: its pseudo-impulses push, and only where the body
 * penetrates.
 *
 * The box of common/contact_scenes.h (1 kg cube, side 1 m, isotropic
 * inertia I = 1/6 kg m^2) without gravity, at rest, turned by theta about
 * x so that its two bottom corners at y = -h are sunk by d and the two at
 * y = +h are separated by g (inside the detection band, so all four are
 * contacts). Nothing approaches and nothing pulls, so the velocity step
 * applies no impulse and qd+ = 0. The position step must then lift the
 * sunk corners by gain d: the high corners, which sink only by about a
 * fifth of that as the box turns, stay far from the plane (g >> gain d) and
 * take no pseudo-impulse. The displacement is then that of one vertical
 * impulse Z split between the two sunk corners (r their offset from the
 * centre of mass, the same r_y for both, r_x = +-h):
 *     dz = Z / m,  dphi_x = 2 (r_y Z / 2) / I = r_y Z / I   (Newton-Euler),
 * and the corners' lift dz + dphi_x r_y = gain d gives the closed form
 *     dz = gain d / (1 + m r_y^2 / I),  dphi_x = (m r_y / I) dz,
 * all other components 0 (the corners at x = +-h push equally). A pseudo-
 * impulse that pulls the high corners onto the plane, or holds them where
 * they are, changes dz and the ratio dphi_x / dz by orders of magnitude. */
#include <check.h>
#include <math.h>

#include "common/check_main.h"
#include "common/contact_scenes.h"
#include "mcdyn/mcdyn.h"

#define DEPTH 1e-4 /* d [m] */
#define GAP   5e-3 /* g [m], inside the scene's 1 cm detection band */
#define GAIN  0.2

static mcd_model *weightless_box(void)
{
    const double I = 4 * SCENE_BOX_HALF * SCENE_BOX_HALF / 6.0, inertia[3] = {I, I, I};
    const double g[3] = {0, 0, 0};
    return scene_free_body("box", 1.0, inertia, g);
}

static mcd_sim *corrected_sim(mcd_model *m)
{
    mcd_sim_options o = mcd_sim_default_options();
    o.contact.position_correction = 1;
    o.contact.penetration_gain = GAIN;
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, &o, &s, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(s, scene_box_plane, NULL);
    return s;
}

/* The box turned by theta about x, its low corners sunk by DEPTH and its
 * high ones GAP above the plane (their heights differ by 2 h sin theta). */
static void set_tilted(mcd_sim *s, double *theta)
{
    const double h = SCENE_BOX_HALF;
    *theta = asin((GAP + DEPTH) / (2 * h));
    const double z = h * sin(*theta) + h * cos(*theta) - DEPTH; /* low corner at -DEPTH */
    const double q0[7] = {0, 0, z, cos(*theta / 2), sin(*theta / 2), 0, 0}, qd0[6] = {0};
    ck_assert_int_eq(mcd_sim_set_state(s, q0, qd0, 0), MCD_OK);
}

START_TEST(pushes_only_where_the_body_penetrates)
{
    mcd_model *m = weightless_box();
    mcd_sim *s = corrected_sim(m);
    double theta;
    set_tilted(s, &theta);
    mcd_step_stats st;
    ck_assert_msg(mcd_sim_step(s, &st) == MCD_OK, "%s", mcd_sim_error(s));
    ck_assert_int_eq(st.ncontacts, 4);
    /* no impulse in the velocity step: qd+ = 0 up to the solver's rounding */
    for (int i = 0; i < m->nv; i++) ck_assert_msg(fabs(mcd_sim_qd(s)[i]) < 1e-12, "qd[%d]", i);
    const double h = SCENE_BOX_HALF, I = 4 * h * h / 6.0, mass = 1.0;
    const double r_y = -h * cos(theta) + h * sin(theta); /* R_x(theta) (x, -h, -h), y */
    const double dz = GAIN * DEPTH / (1.0 + mass * r_y * r_y / I), dphi = mass * r_y / I * dz;
    /* delta: world translation of the centre, then the rotation in body axes
     * (body x = world x). Lemke's solve of the 4 x 4 MLCP is exact to a few
     * roundings of its entries (~1-10) and right-hand side (~0.02 m/s, 5 m/s);
     * 1e-9 of the lift leaves a wide margin and is 1e-5 of the changes the
     * wrong pseudo-impulses make. */
    const double *delta = mcd_sim_position_correction(s), tol = 1e-9 * GAIN * DEPTH;
    ck_assert_msg(fabs(delta[2] - dz) <= tol, "dz %.17g, expected %.17g", delta[2], dz);
    ck_assert_msg(fabs(delta[3] - dphi) <= tol, "dphi_x %.17g, expected %.17g", delta[3], dphi);
    for (int i = 0; i < 6; i++)
        if (i != 2 && i != 3) ck_assert_msg(fabs(delta[i]) <= tol, "delta[%d] = %g", i, delta[i]);
    /* the sunk corners' lift: gain d, from the displacement itself */
    ck_assert_double_eq_tol(delta[2] + delta[3] * r_y, GAIN * DEPTH, tol);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

/* The displacement reported after a step without penetration is zero
 * (sim.h), also right after a corrected step. */
START_TEST(no_penetration_reports_no_displacement_after_a_correction)
{
    mcd_model *m = weightless_box();
    mcd_sim *s = corrected_sim(m);
    double theta;
    set_tilted(s, &theta);
    ck_assert_msg(mcd_sim_step(s, NULL) == MCD_OK, "%s", mcd_sim_error(s));
    ck_assert(mcd_sim_position_correction(s)[2] > 0);
    const double q1[7] = {0, 0, SCENE_BOX_HALF + 1e-3, 1, 0, 0, 0}, qd1[6] = {0};
    ck_assert_int_eq(mcd_sim_set_state(s, q1, qd1, 0), MCD_OK);
    mcd_step_stats st;
    ck_assert_msg(mcd_sim_step(s, &st) == MCD_OK, "%s", mcd_sim_error(s));
    ck_assert_int_eq(st.ncontacts, 4); /* speculative, none penetrating */
    for (int i = 0; i < m->nv; i++)
        ck_assert_msg(mcd_sim_position_correction(s)[i] == 0.0, "delta[%d] = %g", i,
                      mcd_sim_position_correction(s)[i]);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("position_correction_push");
    TCase *tc = tcase_create("tilted");
    tcase_add_test(tc, pushes_only_where_the_body_penetrates);
    tcase_add_test(tc, no_penetration_reports_no_displacement_after_a_correction);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* The split penetration correction (contact.h position_correction;
 * docs/contact.md, "Split correction") on the hand-made box of
 * common/contact_scenes.h: a 1 kg cube of side 1 m whose four bottom
 * corners touch the plane z = 0, sunk by d.
 *
 * Closed form of one step from rest: the velocity step has target 0 on the
 * penetrating corners, so the plane stops the fall exactly (nu_n+ = 0,
 * qd+ = 0 to the solver's tolerance); the position step then asks each
 * corner to rise by gain d (the fraction gain of the depth, d small enough
 * that gain d / dt is below max_correction_velocity) and the frictionless
 * MLCP of the four corners (rank 3: one rigid face) has the solution that
 * lifts the box by exactly gain d without turning it. So the depth after
 * one step is (1 - gain) d. The velocities are those of the same step with
 * no correction at all (gain 0): the position step does not touch qd. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "common/check_main.h"
#include "common/contact_scenes.h"
#include "mcdyn/mcdyn.h"

#define DEPTH 1e-4 /* [m]: gain d / dt = 0.02 m/s, below the 1 m/s cap */
#define GAIN  0.2

/* A simulator of the box sunk by DEPTH, with velocity qd0 (linear x) and
 * the given correction. */
static mcd_sim *sunk_box(mcd_model *m, int position, double gain, double vx)
{
    mcd_sim_options o = mcd_sim_default_options();
    o.contact.position_correction = position;
    o.contact.penetration_gain = gain;
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, &o, &s, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(s, scene_box_plane, NULL);
    const double q0[7] = {0, 0, SCENE_BOX_HALF - DEPTH, 1, 0, 0, 0};
    const double qd0[6] = {vx, 0, 0, 0, 0, 0};
    ck_assert_int_eq(mcd_sim_set_state(s, q0, qd0, 0), MCD_OK);
    return s;
}

/* One step of the split correction against the same step without any:
 * depth (1 - gain) d, the same velocities. vx: a sliding box (friction
 * acts in the velocity step only). */
static void check_one_step(double vx)
{
    mcd_model *m = scene_box_model();
    mcd_sim *split = sunk_box(m, 1, GAIN, vx), *none = sunk_box(m, 0, 0.0, vx);
    mcd_step_stats st;
    ck_assert_msg(mcd_sim_step(split, &st) == MCD_OK, "%s", mcd_sim_error(split));
    ck_assert_int_eq(st.ncontacts, 4);
    ck_assert_msg(mcd_sim_step(none, NULL) == MCD_OK, "%s", mcd_sim_error(none));
    /* qd untouched: the velocity problems are the same (target 0 on the
     * penetrating corners in both), so bit for bit */
    ck_assert_mem_eq(mcd_sim_qd(split), mcd_sim_qd(none), sizeof(double) * (size_t)m->nv);
    /* the box at rest stays at rest to the tolerance 1e-10 of the solve
     * (impulses ~ m g h = 1e-2 N s, velocities ~ 1e-12 m/s) */
    const double *qd = mcd_sim_qd(split);
    ck_assert_msg(fabs(qd[2]) < 1e-9, "vz = %g", qd[2]);
    /* depth: (1 - gain) d; the MLCP is solved by Lemke's pivoting, exact
     * to rounding of the 4 x 4 system (entries ~ 1-10, right-hand side
     * 0.02 m/s): 1e-12 of d is far above it */
    const double *qs = mcd_sim_q(split), *qn = mcd_sim_q(none);
    const double depth = SCENE_BOX_HALF - qs[2];
    ck_assert_msg(fabs(depth - (1 - GAIN) * DEPTH) <= 1e-12 * DEPTH,
                  "depth %.17g, expected %.17g (vx %g)", depth, (1 - GAIN) * DEPTH, vx);
    /* the correction lifts only: the no-correction run differs by gain d in z */
    ck_assert_msg(fabs(qs[2] - qn[2] - GAIN * DEPTH) <= 1e-12 * DEPTH, "lift %.17g", qs[2] - qn[2]);
    for (int i = 0; i < 2; i++) ck_assert_double_eq_tol(qs[i], qn[i], 1e-15);
    for (int i = 3; i < 7; i++) ck_assert_double_eq_tol(qs[i], qn[i], 1e-12);
    /* the reported displacement is that lift */
    ck_assert_double_eq_tol(mcd_sim_position_correction(split)[2], GAIN * DEPTH, 1e-12 * DEPTH);
    mcd_sim_free(split), mcd_sim_free(none);
    mcd_model_free(m);
}

START_TEST(removes_the_fraction_at_rest)
{
    check_one_step(0.0);
}
END_TEST

START_TEST(removes_the_fraction_while_sliding)
{
    check_one_step(0.5);
}
END_TEST

/* Without penetration nothing is solved and the displacement is zero: the
 * box 1 mm above the plane (speculative contacts) falls freely for a step. */
START_TEST(costs_nothing_without_penetration)
{
    mcd_model *m = scene_box_model();
    mcd_sim *s = sunk_box(m, 1, GAIN, 0.0);
    const double q0[7] = {0, 0, SCENE_BOX_HALF + 1e-3, 1, 0, 0, 0}, qd0[6] = {0};
    ck_assert_int_eq(mcd_sim_set_state(s, q0, qd0, 0), MCD_OK);
    mcd_step_stats st;
    ck_assert_int_eq(mcd_sim_step(s, &st), MCD_OK);
    ck_assert_int_eq(st.ncontacts, 4);
    for (int i = 0; i < m->nv; i++) ck_assert_double_eq(mcd_sim_position_correction(s)[i], 0.0);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

/* Over many steps from a deep start the depth decays as (1 - gain)^n d
 * (each step removes the fraction gain of what is left; the box at rest). */
START_TEST(depth_decays_geometrically)
{
    mcd_model *m = scene_box_model();
    mcd_sim *s = sunk_box(m, 1, GAIN, 0.0);
    double expected = DEPTH;
    for (int n = 1; n <= 20; n++) {
        ck_assert_msg(mcd_sim_step(s, NULL) == MCD_OK, "%s", mcd_sim_error(s));
        expected *= 1 - GAIN;
        const double depth = SCENE_BOX_HALF - mcd_sim_q(s)[2];
        ck_assert_msg(fabs(depth - expected) <= 1e-11 * DEPTH, "step %d: depth %g, expected %g", n,
                      depth, expected);
    }
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

/* A gain above 1 would overshoot: refused by the step, naming the option. */
START_TEST(gain_above_one_is_refused)
{
    mcd_model *m = scene_box_model();
    mcd_sim *s = sunk_box(m, 1, 1.5, 0.0);
    ck_assert_int_eq(mcd_sim_step(s, NULL), MCD_ERR_ARG);
    ck_assert_msg(strstr(mcd_sim_error(s), "penetration_gain = 1.5") != NULL, "%s",
                  mcd_sim_error(s));
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("position_correction");
    TCase *tc = tcase_create("split");
    tcase_add_test(tc, removes_the_fraction_at_rest);
    tcase_add_test(tc, removes_the_fraction_while_sliding);
    tcase_add_test(tc, costs_nothing_without_penetration);
    tcase_add_test(tc, depth_decays_geometrically);
    tcase_add_test(tc, gain_above_one_is_refused);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* The contact forces of the last step by body and point
 * (mcd_sim_contact_force): a 1 kg box resting on the plane on its four
 * corners. At rest the box's velocity does not change over a step, so the
 * contact impulses on it balance its weight over the step exactly: the sum
 * of the world forces is (0, 0, m g) to 1e-6 relative once the box has
 * settled (after 1.5 s its velocity changes by less than 1e-9 m/s per step).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "common/contact_scenes.h"
#include "mcdyn/mcdyn.h"

#define BALANCE_TOL 1e-6

START_TEST(resting_box_forces_balance_its_weight)
{
    mcd_model *m = scene_box_model();
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, NULL, &s, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(s, scene_box_plane, NULL);
    const double q0[7] = {0.2, -0.1, SCENE_BOX_HALF + 0.002, 1, 0, 0, 0};
    const double qd0[6] = {0, 0, 0.1, 0.2, 0, 0};
    ck_assert_int_eq(mcd_sim_set_state(s, q0, qd0, 0), MCD_OK);
    for (int i = 0; i < 1500; i++)
        ck_assert_msg(mcd_sim_step(s, NULL) == MCD_OK, "%s", mcd_sim_error(s));
    ck_assert_int_eq(mcd_sim_ncontacts(s), 4);
    double sum[3] = {0, 0, 0};
    for (int k = 0; k < mcd_sim_ncontacts(s); k++) {
        mcd_contact_force f;
        ck_assert_int_eq(mcd_sim_contact_force(s, k, &f), MCD_OK);
        ck_assert_int_eq(f.body_a, 0);
        ck_assert_int_eq(f.body_b, -1);
        ck_assert_double_le(fabs(f.point[2]), 0.01); /* at the plane */
        ck_assert_double_eq_tol(f.normal[2], 1.0, 1e-12);
        ck_assert_double_ge(f.force[2], 0.0); /* the plane pushes, never pulls */
        for (int i = 0; i < 3; i++) {
            ck_assert_double_eq_tol(f.force[i] * mcd_sim_default_options().dt, f.impulse[i], 1e-15);
            sum[i] += f.force[i];
        }
    }
    const double weight = m->total_mass * -m->gravity[2];
    ck_assert_msg(fabs(sum[0]) < BALANCE_TOL * weight && fabs(sum[1]) < BALANCE_TOL * weight &&
                      fabs(sum[2] - weight) < BALANCE_TOL * weight,
                  "sum of contact forces (%g, %g, %g) N, weight %g N", sum[0], sum[1], sum[2],
                  weight);
    mcd_contact_force f;
    ck_assert_int_eq(mcd_sim_contact_force(s, 4, &f), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_sim_contact_force(s, -1, &f), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_sim_contact_force(s, 0, NULL), MCD_ERR_ARG);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("contact_forces");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, resting_box_forces_balance_its_weight);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

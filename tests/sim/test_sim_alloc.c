/* No allocation inside a simulation step, for every step method and every
 * impact law: allocations are counted (alloc_counter.h) while a box is
 * simulated as it lands on a plane on its four corners, slides and comes to
 * rest. The first steps are a warm-up (LAPACK/BLAS may set up buffers
 * once). Not built with AddressSanitizer, which owns malloc. */
#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "box_grid.h"
#include "common/alloc_counter.h"
#include "common/contact_scenes.h"
#include "mcdyn/mcdyn.h"

/* Allocations over the steps after a warm-up of the box landing with
 * horizontal velocity and spin; every step must succeed. */
static long count_step_allocations(mcd_step_method method, mcd_impact_law law, int position)
{
    mcd_model *m = scene_box_model();
    mcd_sim_options o = mcd_sim_default_options();
    o.contact.position_correction = position; /* the split correction (contact.h) */
    o.solver = method;
    o.solver_opts = mcd_step_method_default_opts(method);
    o.impact_law = law;
    o.on_failure = MCD_ON_FAILURE_WARN;
    o.max_contacts = 8;
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, &o, &s, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(s, scene_box_plane, NULL);
    const double q0[7] = {0, 0, SCENE_BOX_HALF + 0.005, 1, 0, 0, 0};
    const double qd0[6] = {0.3, 0, 0, 1.0, 0, -1.0}; /* MuJoCo: angular first, then linear */
    ck_assert_int_eq(mcd_sim_set_state(s, q0, qd0, 0), MCD_OK);
    const char *name = mcd_step_method_name(method);
    long total = 0;
    for (int step = 0; step < 400; step++) {
        alloc_counter_start();
        mcd_status st = mcd_sim_step(s, NULL);
        const long allocations = alloc_counter_stop();
        ck_assert_msg(st == MCD_OK, "%s/%s: step %d: %s", name, mcd_impact_law_name(law), step,
                      mcd_sim_error(s));
        total += step >= 5 ? allocations : 0;
    }
    ck_assert_msg(mcd_sim_ncontacts(s) == 4, "%s: %d contacts at rest", name, mcd_sim_ncontacts(s));
    mcd_sim_free(s);
    mcd_model_free(m);
    return total;
}

START_TEST(steps_do_not_allocate)
{
    const mcd_step_method method = (mcd_step_method)_i;
    ck_assert_msg(count_step_allocations(method, MCD_IMPACT_NEWTON, 0) == 0, "%s allocates",
                  mcd_step_method_name(method));
    ck_assert_msg(count_step_allocations(method, MCD_IMPACT_NEWTON, 1) == 0,
                  "%s with the position correction allocates", mcd_step_method_name(method));
}
END_TEST

START_TEST(impact_laws_do_not_allocate)
{
    const mcd_impact_law law = (mcd_impact_law)_i;
    ck_assert_msg(count_step_allocations(MCD_METHOD_MNCP_PLM, law, 0) == 0,
                  "impact law %s allocates", mcd_impact_law_name(law));
    ck_assert_msg(count_step_allocations(MCD_METHOD_MNCP_PLM, law, 1) == 0,
                  "impact law %s with the position correction allocates", mcd_impact_law_name(law));
}
END_TEST

/* The counter works: creating a simulator allocates. */
START_TEST(counter_sees_library_allocations)
{
    mcd_model *m = scene_box_model();
    mcd_sim *s = NULL;
    alloc_counter_start();
    ck_assert_int_eq(mcd_sim_create(m, NULL, &s, NULL), MCD_OK);
    ck_assert_int_ge(alloc_counter_stop(), 1);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

/* A step that needs more contacts than the workspaces hold grows them (and
 * allocates); the steps after it, which fit, allocate nothing (after a
 * warm-up of two steps, as above: LAPACK/BLAS may set up buffers once for
 * the larger problems). 20 boxes at rest make 80 contacts, more than the
 * initial capacity of 64. The non-singular LCP methods are left out: they
 * solve the whole problem at once (not group by group), and a problem of
 * that size makes OpenBLAS's threads allocate in every factorization. */
static const mcd_step_method grouped_methods[] = {
    MCD_METHOD_MLCP_PFB_RLM, MCD_METHOD_MLCP_PFB_PLM, MCD_METHOD_MLCP_LEMKE,
    MCD_METHOD_MNCP_RLM,     MCD_METHOD_MNCP_PLM,     MCD_METHOD_CCP_PGS,
    MCD_METHOD_CCP_APGD,     MCD_METHOD_MAXDISS_BGS,  MCD_METHOD_CCP_ADMM};

#define NGROUPED ((int)(sizeof grouped_methods / sizeof *grouped_methods))

/* _i < NGROUPED: the method's velocity targets; from NGROUPED on, the same
 * methods with the position correction (the boxes start 0.1 mm deep). */
START_TEST(steps_after_growth_do_not_allocate)
{
    const mcd_step_method method = grouped_methods[_i % NGROUPED];
    const int n = 20;
    mcd_model *m = box_grid_model(n);
    mcd_sim_options o = mcd_sim_default_options();
    o.contact.position_correction = _i >= NGROUPED;
    o.solver = method;
    o.solver_opts = mcd_step_method_default_opts(method);
    o.on_failure = MCD_ON_FAILURE_WARN;
    mcd_sim *s = NULL;
    ck_assert_int_eq(mcd_sim_create(m, &o, &s, NULL), MCD_OK);
    mcd_sim_set_contact_provider(s, box_grid_plane, NULL);
    double q[7 * 20], qd[6 * 20] = {0};
    box_grid_rest(n, -1e-4, q);
    ck_assert_int_eq(mcd_sim_set_state(s, q, qd, 0), MCD_OK);
    alloc_counter_start();
    mcd_status st = mcd_sim_step(s, NULL);
    ck_assert_int_ge(alloc_counter_stop(), 1); /* the growth */
    ck_assert_msg(st == MCD_OK, "%s", mcd_sim_error(s));
    for (int step = 0; step < 7; step++) {
        alloc_counter_start();
        st = mcd_sim_step(s, NULL);
        const long allocations = alloc_counter_stop();
        ck_assert_msg(st == MCD_OK, "%s: %s", mcd_step_method_name(method), mcd_sim_error(s));
        ck_assert_msg(step < 2 || allocations == 0, "%s: step %d allocates",
                      mcd_step_method_name(method), step + 1);
    }
    ck_assert_int_eq(mcd_sim_ncontacts(s), 4 * n);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim-alloc");
    TCase *tc = tcase_create("alloc");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, steps_do_not_allocate, 0, MCD_METHOD_COUNT);
    tcase_add_loop_test(tc, impact_laws_do_not_allocate, 0, MCD_IMPACT_LAW_COUNT);
    tcase_add_test(tc, counter_sees_library_allocations);
    tcase_add_loop_test(tc, steps_after_growth_do_not_allocate, 0, 2 * NGROUPED);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

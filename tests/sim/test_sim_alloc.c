/* No allocation inside a simulation step, for every step method and every
 * impact law: allocations are counted (alloc_counter.h) while a box is
 * simulated as it lands on a plane on its four corners, slides and comes to
 * rest. The first steps are a warm-up (LAPACK/BLAS may set up buffers
 * once). Not built with AddressSanitizer, which owns malloc. */
#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "common/alloc_counter.h"
#include "mcdyn/mcdyn.h"

#define HALF 0.5 /* half side of the box [m] */
#define MU   0.5

static mcd_model *box_model(void)
{
    mcd_builder *b = NULL;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    mcd_link_desc l = mcd_link_desc_default();
    l.name = "box";
    l.jtype = MCD_JOINT_FREE;
    l.mass.mass = 1.0;
    l.mass.inertia[0] = l.mass.inertia[4] = l.mass.inertia[8] = 1.0 / 6.0; /* m (2 HALF)^2 / 6 */
    ck_assert_int_eq(mcd_builder_add_link(b, &l, NULL, NULL), MCD_OK);
    mcd_model *m = NULL;
    ck_assert_int_eq(mcd_model_build(b, &m, NULL), MCD_OK);
    mcd_builder_free(b);
    return m;
}

/* The four bottom corners of the box against the plane z = 0, made when
 * within 1 cm; q = (position, quaternion w x y z) of the free joint. */
static mcd_status box_plane(void *user, const mcd_model *m, const mcd_data *d, const double *q,
                            mcd_contact_point *c, int capacity, int *n, mcd_error *err)
{
    (void)user, (void)m, (void)d, (void)err;
    const double w = q[3], x = q[4], y = q[5], z = q[6];
    const double R2[3] = {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)};
    const double R0[3] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)};
    const double R1[3] = {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)};
    *n = 0;
    for (int k = 0; k < 4; k++) {
        const double corner[3] = {(k & 1) ? HALF : -HALF, (k & 2) ? HALF : -HALF, -HALF};
        double p[3];
        p[0] = q[0] + R0[0] * corner[0] + R0[1] * corner[1] + R0[2] * corner[2];
        p[1] = q[1] + R1[0] * corner[0] + R1[1] * corner[1] + R1[2] * corner[2];
        p[2] = q[2] + R2[0] * corner[0] + R2[1] * corner[1] + R2[2] * corner[2];
        if (p[2] > 0.01) continue;
        if (*n >= capacity) return MCD_ERR_CAPACITY;
        mcd_contact_point cp = {0, -1, {p[0], p[1], 0.5 * p[2]}, {0, 0, 1}, p[2], MU, 0.3};
        c[(*n)++] = cp;
    }
    return MCD_OK;
}

/* Allocations over the steps after a warm-up of the box landing with
 * horizontal velocity and spin; every step must succeed. */
static long count_step_allocations(mcd_step_method method, mcd_impact_law law)
{
    mcd_model *m = box_model();
    mcd_sim_options o = mcd_sim_default_options();
    o.solver = method;
    o.solver_opts = mcd_step_method_default_opts(method);
    o.impact_law = law;
    o.on_failure = MCD_ON_FAILURE_WARN;
    o.max_contacts = 8;
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, &o, &s, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(s, box_plane, NULL);
    const double q0[7] = {0, 0, HALF + 0.005, 1, 0, 0, 0};
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
    ck_assert_msg(count_step_allocations(method, MCD_IMPACT_NEWTON) == 0, "%s allocates",
                  mcd_step_method_name(method));
}
END_TEST

START_TEST(impact_laws_do_not_allocate)
{
    const mcd_impact_law law = (mcd_impact_law)_i;
    ck_assert_msg(count_step_allocations(MCD_METHOD_MNCP_PLM, law) == 0, "impact law %s allocates",
                  mcd_impact_law_name(law));
}
END_TEST

/* The counter works: creating a simulator allocates. */
START_TEST(counter_sees_library_allocations)
{
    mcd_model *m = box_model();
    mcd_sim *s = NULL;
    alloc_counter_start();
    ck_assert_int_eq(mcd_sim_create(m, NULL, &s, NULL), MCD_OK);
    ck_assert_int_ge(alloc_counter_stop(), 1);
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
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

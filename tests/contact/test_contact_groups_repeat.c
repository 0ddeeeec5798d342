/* Independent contact groups (include/mcdyn/contact.h) when one contact
 * workspace is set up again, as the simulator does at every step: the
 * partition depends on the current contacts only, never on the previous
 * set-up's. Three free boxes (roots 0, 1, 2); the first set-up touches
 * boxes 2 and 1 only, the second boxes 0 and 2, which share nothing and
 * must be two groups, as on a fresh workspace. */
#include <check.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "mcdyn/mcdyn.h"

static mcd_model *three_boxes(void)
{
    mcd_builder *b = NULL;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    const char *name[3] = {"a", "b", "c"};
    for (int k = 0; k < 3; k++) {
        mcd_link_desc l = mcd_link_desc_default();
        l.name = name[k];
        l.jtype = MCD_JOINT_FREE;
        l.mass.mass = 1.0;
        l.mass.inertia[0] = l.mass.inertia[4] = l.mass.inertia[8] = 0.1;
        ck_assert_int_eq(mcd_builder_add_link(b, &l, NULL, NULL), MCD_OK);
    }
    mcd_model *m = NULL;
    ck_assert_int_eq(mcd_model_build(b, &m, NULL), MCD_OK);
    mcd_builder_free(b);
    return m;
}

/* Each contact's group number through mcd_contact_group_contact. */
static void set_up(const mcd_model *m, mcd_data *d, mcd_contact_ws *ws, int nc, const int *body,
                   int *group)
{
    mcd_contact_point c[4];
    for (int k = 0; k < nc; k++)
        c[k] = (mcd_contact_point){body[k], -1, {k, 0, 0}, {0, 0, 1}, 0.0, 0.5, 0.0, 0.0};
    double *q = calloc((size_t)m->nq, sizeof *q), *qd = calloc((size_t)m->nv, sizeof *qd);
    double *tau = calloc((size_t)m->nv, sizeof *tau);
    mcd_model_neutral(m, q);
    const mcd_contact_options o = mcd_contact_default_options();
    ck_assert_msg(mcd_contact_setup(m, d, ws, q, qd, tau, 1e-3, nc, c, &o) == MCD_OK, "%s",
                  mcd_data_error(d));
    free(q), free(qd), free(tau);
    for (int k = 0; k < nc; k++) group[k] = -1;
    for (int g = 0; g < mcd_contact_group_count(ws); g++)
        for (int j = 0; j < mcd_contact_group_ncontacts(ws, g); j++) {
            const int k = mcd_contact_group_contact(ws, g, j);
            ck_assert(k >= 0 && k < nc && group[k] == -1);
            group[k] = g;
        }
}

START_TEST(second_setup_forgets_the_first_partition)
{
    mcd_model *m = three_boxes();
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    mcd_contact_ws *ws = NULL, *fresh = NULL;
    ck_assert_int_eq(mcd_contact_ws_create(m, d, 4, 4, &ws, NULL), MCD_OK);
    ck_assert_int_eq(mcd_contact_ws_create(m, d, 4, 4, &fresh, NULL), MCD_OK);
    const int first[2] = {2, 1}, second[3] = {0, 2, 0};
    int g1[2], g2[3], g_fresh[3];
    set_up(m, d, ws, 2, first, g1);
    ck_assert_int_eq(mcd_contact_group_count(ws), 2);
    ck_assert(g1[0] != g1[1]);
    set_up(m, d, ws, 3, second, g2);
    set_up(m, d, fresh, 3, second, g_fresh);
    /* boxes 0 and 2 share no moving body: two groups, numbered by first
     * contact, the same as a fresh workspace's */
    ck_assert_int_eq(mcd_contact_group_count(ws), 2);
    const int expect[3] = {0, 1, 0};
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(g2[k], expect[k]);
        ck_assert_int_eq(g2[k], g_fresh[k]);
    }
    mcd_contact_ws_free(ws);
    mcd_contact_ws_free(fresh);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("contact-groups-repeat");
    TCase *tc = tcase_create("repeat");
    tcase_add_test(tc, second_setup_forgets_the_first_partition);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

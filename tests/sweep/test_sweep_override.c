/* Scenario overrides by path (mcd_scenario_load_with, scenario.h): the
 * overridden base file must load exactly as the same file edited by hand
 * (data/edited.yaml; the reference is the unmodified strict loader), keys
 * absent from the file are added, and bad paths give errors naming them. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "mcdyn/scenario.h"

static const char *data(const char *name)
{
    static char path[2][4096];
    static int next;
    char *p = path[next++ % 2];
    const char *src = getenv("MCDYN_SOURCE");
    ck_assert_msg(src != NULL, "MCDYN_SOURCE is not set");
    snprintf(p, sizeof path[0], "%s/tests/sweep/data/%s", src, name);
    return p;
}

/* Both scenarios hold the same settings and initial state, bit for bit:
 * the values went through the same text-to-number reading. */
static void assert_same(const mcd_scenario *a, const mcd_scenario *b)
{
    const mcd_scenario_settings *x = &a->settings, *y = &b->settings;
    ck_assert(x->contact.mu == y->contact.mu);
    ck_assert(x->contact.restitution == y->contact.restitution);
    ck_assert_int_eq(x->solver.kind, y->solver.kind);
    ck_assert(x->dt == y->dt);
    ck_assert(x->duration == y->duration);
    ck_assert_int_eq(x->integrator, y->integrator);
    ck_assert_int_eq(x->output.every, y->output.every);
    ck_assert_int_eq(a->model->nq, b->model->nq);
    ck_assert_int_eq(a->model->nv, b->model->nv);
    ck_assert(!memcmp(a->q0, b->q0, sizeof(double) * (size_t)a->model->nq));
    ck_assert(!memcmp(a->qd0, b->qd0, sizeof(double) * (size_t)a->model->nv));
}

START_TEST(overrides_equal_the_edited_file)
{
    const mcd_scenario_override ov[] = {
        {"contact.mu", "0.7"},            /* a key of the file */
        {"contact.restitution", "0.3"},   /* added to an existing mapping */
        {"robots[0].position[2]", "0.5"}, /* sequence items */
        {"robots[0].qd.ball[0]", "-1"},
        {"solver.name", "ccp-pgs"}, /* a name */
        {"dt", "0.002"},            /* added at the top */
        {"integrator", "euler"},    /* replaced by the next one: the last wins */
        {"integrator", "midpoint"},
        {"output.every", "3"}, /* a whole section added */
    };
    mcd_scenario *a = NULL, *b = NULL, *base = NULL;
    mcd_error err;
    ck_assert_msg(mcd_scenario_load_with(data("base.yaml"), ov, 9, &a, &err) == MCD_OK, "%s",
                  err.msg);
    ck_assert_msg(mcd_scenario_load(data("edited.yaml"), &b, &err) == MCD_OK, "%s", err.msg);
    ck_assert_msg(mcd_scenario_load_with(data("base.yaml"), NULL, 0, &base, &err) == MCD_OK, "%s",
                  err.msg);
    assert_same(a, b);
    /* The overrides changed something: the base differs from both. */
    ck_assert(base->settings.contact.mu == 0.2 &&
              base->settings.solver.kind != b->settings.solver.kind);
    mcd_scenario_free(a);
    mcd_scenario_free(b);
    mcd_scenario_free(base);
}
END_TEST

/* Loading with the override (path, value) fails with status st and a
 * message holding fragment. */
static void expect_error(const char *path, const char *value, mcd_status st, const char *fragment)
{
    mcd_scenario_override ov = {path, value};
    mcd_scenario *s = (mcd_scenario *)&ov; /* must be reset to NULL */
    mcd_error err = {0};
    mcd_status got = mcd_scenario_load_with(data("base.yaml"), &ov, 1, &s, &err);
    ck_assert_msg(got == st, "'%s': status %d, expected %d (%s)", path, got, st, err.msg);
    ck_assert_ptr_null(s);
    ck_assert_msg(strstr(err.msg, fragment), "'%s': message '%s' lacks '%s'", path, err.msg,
                  fragment);
}

START_TEST(bad_paths_are_named)
{
    /* Unknown keys: the loader's own error, naming the whole path. */
    expect_error("contact.muu", "0.3", MCD_ERR_PARSE, "key 'contact.muu': unknown key");
    expect_error("dtt", "0.3", MCD_ERR_PARSE, "key 'dtt': unknown key");
    /* Wrong values: the loader's error at that key. */
    expect_error("contact.mu", "abc", MCD_ERR_PARSE, "key 'contact.mu'");
    expect_error("contact.mu", "-1", MCD_ERR_ARG, "key 'contact.mu'");
    expect_error("solver.name", "no-such-solver", MCD_ERR_PARSE, "key 'solver.name'");
    /* Paths that cannot be followed. */
    expect_error("robots[1].position[0]", "1", MCD_ERR_ARG,
                 "override 'robots[1].position[0]': index past the end");
    expect_error("robots[0]", "1", MCD_ERR_ARG, "override 'robots[0]': names a mapping");
    expect_error("contact", "1", MCD_ERR_ARG, "override 'contact': names a mapping");
    expect_error("duration.x", "1", MCD_ERR_ARG, "override 'duration.x': steps into a value");
    expect_error("contact.mu[0]", "1", MCD_ERR_ARG, "not a sequence");
    expect_error("robots[x].urdf", "1", MCD_ERR_ARG, "an index must be [N]");
    expect_error("robots[-1].urdf", "1", MCD_ERR_ARG, "an index must be [N]");
    expect_error("contact..mu", "1", MCD_ERR_ARG, "empty key");
    expect_error("", "1", MCD_ERR_ARG, "empty key");
    expect_error("contact.", "1", MCD_ERR_ARG, "malformed path");
    expect_error("contact]mu", "1", MCD_ERR_ARG, "malformed path");
}
END_TEST

START_TEST(bad_arguments)
{
    mcd_scenario *s = NULL;
    mcd_error err;
    mcd_scenario_override nul = {NULL, "1"};
    ck_assert_int_eq(mcd_scenario_load_with(NULL, NULL, 0, &s, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_scenario_load_with(data("base.yaml"), NULL, 0, NULL, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_scenario_load_with(data("base.yaml"), NULL, 1, &s, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_scenario_load_with(data("base.yaml"), &nul, 1, &s, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_scenario_load_with(data("base.yaml"), &nul, -1, &s, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_scenario_load_with(data("missing.yaml"), NULL, 0, &s, &err), MCD_ERR_IO);
    ck_assert_ptr_null(s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sweep-override");
    TCase *tc = tcase_create("override");
    tcase_add_test(tc, overrides_equal_the_edited_file);
    tcase_add_test(tc, bad_paths_are_named);
    tcase_add_test(tc, bad_arguments);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* Scenario overrides by path (mcd_scenario_load_with, scenario.h): a
 * path's key names a whole key of the mapping. A key that is only the
 * beginning of a key of the file ("contact.m" beside "contact.mu", "dur"
 * beside "duration") is another key: it is added, and the strict loader
 * refuses it as unknown, naming the whole path. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "mcdyn/scenario.h"

static mcd_status load_base(const mcd_scenario_override *ov, int n, mcd_scenario **s,
                            mcd_error *err)
{
    char path[4096];
    const char *src = getenv("MCDYN_SOURCE");
    ck_assert_msg(src != NULL, "MCDYN_SOURCE is not set");
    snprintf(path, sizeof path, "%s/tests/sweep/data/base.yaml", src);
    return mcd_scenario_load_with(path, ov, n, s, err);
}

START_TEST(prefix_of_a_key_is_another_key)
{
    const char *path[2] = {"contact.m", "dur"}, *key[2] = {"key 'contact.m'", "key 'dur'"};
    for (int i = 0; i < 2; i++) {
        const mcd_scenario_override ov = {path[i], "0.3"};
        mcd_scenario *s = NULL;
        mcd_error err = {0};
        ck_assert_msg(load_base(&ov, 1, &s, &err) == MCD_ERR_PARSE, "'%s' loaded", path[i]);
        ck_assert_msg(strstr(err.msg, key[i]) && strstr(err.msg, "unknown key"), "%s", err.msg);
        ck_assert_ptr_null(s);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sweep-override-whole-keys");
    TCase *tc = tcase_create("keys");
    tcase_add_test(tc, prefix_of_a_key_is_another_key);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

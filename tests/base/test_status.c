/* Status names (include/mcdyn/status.h): every status has its own text,
 * and a value outside the enum, at either end, reads "unknown status"
 * instead of past the table. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "mcdyn/status.h"

START_TEST(every_status_has_its_own_name)
{
    for (int i = 0; i < MCD_STATUS_COUNT; i++) {
        const char *a = mcd_status_str((mcd_status)i);
        ck_assert_msg(a && a[0] && strcmp(a, "unknown status") != 0, "status %d: '%s'", i, a);
        for (int j = 0; j < i; j++)
            ck_assert_msg(strcmp(a, mcd_status_str((mcd_status)j)) != 0, "%d and %d: '%s'", i, j,
                          a);
    }
}
END_TEST

START_TEST(out_of_range_is_unknown)
{
    const int values[] = {-1, MCD_STATUS_COUNT, MCD_STATUS_COUNT + 1, 1000};
    for (int k = 0; k < 4; k++)
        ck_assert_str_eq(mcd_status_str((mcd_status)values[k]), "unknown status");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("base-status");
    TCase *tc = tcase_create("status");
    tcase_add_test(tc, every_status_has_its_own_name);
    tcase_add_test(tc, out_of_range_is_unknown);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

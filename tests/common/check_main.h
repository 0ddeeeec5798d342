/* The end of every test program's main: runs a Check suite (Check's
 * report on stdout) and returns the exit status meson reads. */
#ifndef MCDYN_TESTS_CHECK_MAIN_H
#define MCDYN_TESTS_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

/* EXIT_SUCCESS when every test of s passed, else EXIT_FAILURE. */
static inline int run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif

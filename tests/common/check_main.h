/* The end of every test program's main: runs a Check suite (Check's
 * report on stdout) and returns the exit status meson reads. */
#ifndef MCDYN_TESTS_CHECK_MAIN_H
#define MCDYN_TESTS_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

/* EXIT_SUCCESS when every test of s passed, else EXIT_FAILURE; fork is
 * Check's mode: CK_NOFORK where the tests share one process on purpose
 * (a later test reads an earlier one's file, an allocation counter must
 * see the test's own allocations), CK_FORK_GETENV (Check's default: fork
 * unless CK_FORK=no) otherwise. */
static inline int run_suite_fork(Suite *s, enum fork_status fork)
{
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, fork);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* run_suite_fork in Check's default mode. */
static inline int run_suite(Suite *s)
{
    return run_suite_fork(s, CK_FORK_GETENV);
}

#endif

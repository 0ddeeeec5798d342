/* Test support for the `mcdyn` command-line tests: running the built
 * executable (MCDYN_EXE) and reading the bundled models (MCDYN_SOURCE). */
#ifndef MCDYN_TESTS_CLI_FIXTURE_H
#define MCDYN_TESTS_CLI_FIXTURE_H

#include "run_command.h"

/* The value of environment variable name; fails the test if unset. */
const char *env_or_fail(const char *name);

/* Runs `mcdyn args...` (args NULL-terminated, at most 16). A sanitizer
 * report on its stderr fails the test. */
command_result mcdyn(const char *const *args);

/* MCDYN_SOURCE/models/<file> (a static buffer per call site's use). */
const char *model_path(const char *file);

/* Every word (NULL-terminated list) must appear in text. */
void assert_mentions(const char *text, const char *const *words, const char *what);

#endif

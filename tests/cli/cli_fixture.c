/* Test support for the `mcdyn` command-line tests (cli_fixture.h). */
#include "cli_fixture.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 16

const char *env_or_fail(const char *name)
{
    const char *v = getenv(name);
    ck_assert_msg(v && *v, "%s is not set", name);
    return v;
}

command_result mcdyn(const char *const *args)
{
    char *argv[MAX_ARGS + 2];
    int n = 0;
    argv[n++] = (char *)env_or_fail("MCDYN_EXE");
    while (args[n - 1]) {
        ck_assert_int_lt(n, MAX_ARGS + 1);
        argv[n] = (char *)args[n - 1];
        n++;
    }
    argv[n] = NULL;
    command_result r;
    ck_assert_msg(run_command(argv, &r) == 0, "cannot run %s", argv[0]);
    /* In a sanitizer build, a report fails the test even when the exit
     * code is the expected one (undefined-behaviour reports do not stop
     * the program, and AddressSanitizer exits with 1 like a bad input). */
    ck_assert_msg(!strstr(r.err, "Sanitizer") && !strstr(r.err, "runtime error:"),
                  "sanitizer report from mcdyn:\n%s", r.err);
    return r;
}

const char *model_path(const char *file)
{
    static char path[4][4096];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/models/%s", env_or_fail("MCDYN_SOURCE"), file);
    return p;
}

void assert_mentions(const char *text, const char *const *words, const char *what)
{
    for (; *words; words++)
        ck_assert_msg(strstr(text, *words) != NULL, "%s does not mention '%s':\n%s", what, *words,
                      text);
}

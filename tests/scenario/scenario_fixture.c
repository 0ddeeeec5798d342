/* Helpers shared by the scenario tests (scenario_fixture.h). */
#include "scenario_fixture.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *data_dir(void)
{
    static char dir[4096];
    const char *src = getenv("MCDYN_SOURCE");
    ck_assert_msg(src != NULL, "MCDYN_SOURCE is not set");
    snprintf(dir, sizeof dir, "%s/tests/scenario/data", src);
    return dir;
}

const char *data_file(const char *name)
{
    static char path[4200];
    snprintf(path, sizeof path, "%s/%s", data_dir(), name);
    return path;
}

char *read_source_text(const char *rel)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", getenv("MCDYN_SOURCE"), rel);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(text);
    ck_assert_int_eq(fread(text, 1, (size_t)n, f), n);
    text[n] = '\0';
    fclose(f);
    return text;
}

mcd_scenario *load_file_ok(const char *name)
{
    mcd_scenario *s = NULL;
    mcd_error err;
    mcd_status st = mcd_scenario_load(data_file(name), &s, &err);
    ck_assert_msg(st == MCD_OK, "%s: %s", name, err.msg);
    ck_assert_ptr_nonnull(s);
    return s;
}

mcd_scenario *load_string_ok(const char *yaml)
{
    mcd_scenario *s = NULL;
    mcd_error err;
    mcd_status st = mcd_scenario_load_string(yaml, "good.yaml", data_dir(), &s, &err);
    ck_assert_msg(st == MCD_OK, "load failed: %s", err.msg);
    ck_assert_ptr_nonnull(s);
    return s;
}

static void check_error(mcd_status got, mcd_status expected, const mcd_scenario *s,
                        const mcd_error *err, va_list ap)
{
    ck_assert_msg(got == expected, "expected '%s', got '%s': %s", mcd_status_str(expected),
                  mcd_status_str(got), err->msg);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(err->status, expected);
    for (const char *frag = va_arg(ap, const char *); frag; frag = va_arg(ap, const char *))
        ck_assert_msg(strstr(err->msg, frag) != NULL, "message '%s' lacks '%s'", err->msg, frag);
}

void expect_error(const char *yaml, mcd_status expected, ...)
{
    mcd_scenario *s = NULL;
    mcd_error err;
    mcd_status st = mcd_scenario_load_string(yaml, "bad.yaml", data_dir(), &s, &err);
    va_list ap;
    va_start(ap, expected);
    check_error(st, expected, s, &err, ap);
    va_end(ap);
}

void expect_file_error(const char *name, mcd_status expected, ...)
{
    mcd_scenario *s = NULL;
    mcd_error err;
    mcd_status st = mcd_scenario_load(data_file(name), &s, &err);
    va_list ap;
    va_start(ap, expected);
    check_error(st, expected, s, &err, ap);
    va_end(ap);
}

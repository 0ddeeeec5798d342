/* Helpers shared by the URDF import tests (urdf_fixture.h). */
#include "urdf_fixture.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void warnings_collect(void *user, const char *msg)
{
    warnings *w = user;
    if (w->count < FIXTURE_MAX_WARNINGS) snprintf(w->text[w->count], sizeof w->text[0], "%s", msg);
    w->count++;
}

int warnings_contain(const warnings *w, const char *fragment)
{
    int n = w->count < FIXTURE_MAX_WARNINGS ? w->count : FIXTURE_MAX_WARNINGS;
    for (int i = 0; i < n; i++)
        if (strstr(w->text[i], fragment)) return 1;
    return 0;
}

mcd_urdf_options fixture_options(int floating_base, warnings *w)
{
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.floating_base = floating_base;
    opt.warn = warnings_collect;
    opt.warn_user = w;
    return opt;
}

/* $var/sub/rel in a static buffer */
static const char *env_path(const char *var, const char *sub, const char *rel)
{
    static char path[4096];
    const char *dir = getenv(var);
    ck_assert_msg(dir != NULL, "%s is not set", var);
    snprintf(path, sizeof path, "%s/%s%s", dir, sub, rel);
    return path;
}

const char *shared_model(const char *rel)
{
    return env_path("MCDYN_SHARED", "models/", rel);
}

const char *source_file(const char *rel)
{
    return env_path("MCDYN_SOURCE", "", rel);
}

static char *read_text(const char *path)
{
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

double urdf_file_mass_sum(const char *path)
{
    char *text = read_text(path);
    double sum = 0.0;
    for (const char *s = strstr(text, "<mass"); s; s = strstr(s + 1, "<mass")) {
        const char *end = strchr(s, '>'), *v = strstr(s, "value=");
        ck_assert_msg(v && end && v < end, "%s: <mass> without a value", path);
        sum += strtod(v + strlen("value=") + 1, NULL);
    }
    free(text);
    return sum;
}

mcd_model *load_string_ok(const char *xml, const mcd_urdf_options *opt)
{
    mcd_model *m = NULL;
    mcd_error err;
    mcd_status st = mcd_urdf_load_string(xml, "test.urdf", opt, &m, &err);
    ck_assert_msg(st == MCD_OK, "load failed: %s", err.msg);
    ck_assert_ptr_nonnull(m);
    return m;
}

void expect_string_error(const char *xml, mcd_status expected, ...)
{
    mcd_model *m = NULL;
    mcd_error err;
    mcd_status st = mcd_urdf_load_string(xml, "bad.urdf", NULL, &m, &err);
    ck_assert_msg(st == expected, "expected '%s', got '%s': %s", mcd_status_str(expected),
                  mcd_status_str(st), err.msg);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(err.status, expected);
    va_list ap;
    va_start(ap, expected);
    for (const char *frag = va_arg(ap, const char *); frag; frag = va_arg(ap, const char *))
        ck_assert_msg(strstr(err.msg, frag) != NULL, "message '%s' lacks '%s'", err.msg, frag);
    va_end(ap);
}

/* Command-line argument helpers (tools/args.h). */
#include "args.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* strtod/strtol accept leading white space; a number on the command line
 * must start with a sign, a digit or a point. */
static int starts_like_number(const char *text)
{
    return *text == '+' || *text == '-' || *text == '.' || (*text >= '0' && *text <= '9');
}

int args_parse_double(const char *text, double *out)
{
    char *end;
    errno = 0;
    if (!starts_like_number(text)) return -1;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int args_parse_int(const char *text, int min, int *out)
{
    char *end;
    errno = 0;
    if (!starts_like_number(text)) return -1;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < min || v > ARGS_INT_MAX) return -1;
    *out = (int)v;
    return 0;
}

int args_parse_size(const char *text, int min, int max, int *width, int *height)
{
    const char *x = strchr(text, 'x');
    char w[16];
    size_t len = x ? (size_t)(x - text) : 0;
    if (!x || len == 0 || len >= sizeof w) return -1;
    memcpy(w, text, len);
    w[len] = '\0';
    int a, b;
    if (args_parse_int(w, min, &a) != 0 || args_parse_int(x + 1, min, &b) != 0) return -1;
    if (a > max || b > max) return -1;
    *width = a, *height = b;
    return 0;
}

int args_parse_doubles(const char *text, double *v, int cap, char *msg, int msglen)
{
    int n = 0;
    const char *p = text;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[64];
        if (len == 0 || len >= sizeof item) {
            snprintf(msg, msglen, "entry %d of '%s' is empty or too long", n + 1, text);
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        if (n >= cap) {
            snprintf(msg, msglen, "'%s' has more than %d entries", text, cap);
            return -1;
        }
        if (args_parse_double(item, &v[n]) != 0) {
            snprintf(msg, msglen, "entry %d ('%s') is not a finite number", n + 1, item);
            return -1;
        }
        n++;
        p += len;
        if (*p == ',' && *++p == '\0') {
            snprintf(msg, msglen, "'%s' ends with a comma", text);
            return -1;
        }
    }
    return n;
}

int args_is_help(const char *arg)
{
    return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

static void report(const char *command, const char *fmt, va_list ap)
{
    fprintf(stderr, "mcdyn %s: ", command);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int args_fail(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(command, fmt, ap);
    va_end(ap);
    return 1;
}

int args_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(command, fmt, ap);
    va_end(ap);
    fprintf(stderr, "(`mcdyn %s --help` describes the options)\n", command);
    return 2;
}

int args_parse_vector(const char *command, const char *option, const char *text, const char *what,
                      int n, double *v)
{
    if (!text) return 0;
    int cap = 1;
    for (const char *p = text; *p; p++) cap += *p == ',';
    double *tmp = malloc(sizeof(double) * (size_t)cap);
    char msg[256];
    int count = tmp ? args_parse_doubles(text, tmp, cap, msg, sizeof msg) : -1;
    if (!tmp) snprintf(msg, sizeof msg, "out of memory");
    for (int i = 0; i < n && count == n; i++) v[i] = tmp[i];
    free(tmp);
    if (count < 0) return args_fail(command, "%s: %s", option, msg);
    if (count != n)
        return args_fail(command, "%s: expected %d numbers (%s = %d), got %d", option, n, what, n,
                         count);
    return 0;
}

int args_add_package_path(const char *command, const char *dir)
{
    static char *added;    /* the directories added so far, ':'-separated */
    static char *original; /* ROS_PACKAGE_PATH before the first one */
    if (!dir[0] || strchr(dir, ':'))
        return args_usage_error(command, "--package-path: '%s' is empty or holds a ':'", dir);
    if (!original) {
        const char *env = getenv("ROS_PACKAGE_PATH");
        original = strdup(env ? env : "");
        if (!original) return args_fail(command, "out of memory");
    }
    size_t na = added ? strlen(added) : 0, nd = strlen(dir), no = strlen(original);
    char *grown = realloc(added, na + nd + 2);
    if (!grown) return args_fail(command, "out of memory");
    added = grown;
    snprintf(added + na, nd + 2, "%s%s", na ? ":" : "", dir);
    char *value = malloc(strlen(added) + no + 2);
    if (!value) return args_fail(command, "out of memory");
    sprintf(value, "%s%s%s", added, no ? ":" : "", original);
    int bad = setenv("ROS_PACKAGE_PATH", value, 1) != 0;
    free(value);
    if (bad) return args_fail(command, "cannot set ROS_PACKAGE_PATH: %s", strerror(errno));
    return 0;
}

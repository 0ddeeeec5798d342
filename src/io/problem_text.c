/* Problem files as tokens with line numbers, and located messages
 * (src/io/problem_internal.h). */
#include "problem_internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE_BYTES ((size_t)1 << 31)
#define MAX_TOKEN      96

static mcd_status read_all(FILE *f, problem_text *t)
{
    size_t cap = 1 << 16;
    t->buf = malloc(cap);
    if (!t->buf) return MCD_ERR_NOMEM;
    for (;;) {
        t->len += fread(t->buf + t->len, 1, cap - 1 - t->len, f);
        if (ferror(f)) return MCD_ERR_IO;
        if (feof(f)) break;
        if (cap >= MAX_FILE_BYTES) return MCD_ERR_UNSUPPORTED;
        char *bigger = realloc(t->buf, cap * 2);
        if (!bigger) return MCD_ERR_NOMEM;
        t->buf = bigger;
        cap *= 2;
    }
    t->buf[t->len] = '\0';
    return MCD_OK;
}

mcd_status problem_text_load(problem_text *t, const char *path, mcd_error *err)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    t->err = err;
    t->line = 1;
    t->tok_line = 1;
    FILE *f = fopen(path, "rb");
    if (!f) return mcd_fail(err, MCD_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    mcd_status s = read_all(f, t);
    fclose(f);
    if (s == MCD_OK) return MCD_OK;
    problem_text_free(t);
    if (s == MCD_ERR_UNSUPPORTED)
        return mcd_fail(err, s, "%s: larger than %zu bytes", path, MAX_FILE_BYTES);
    return mcd_fail(err, s, "%s: cannot read%s", path,
                    s == MCD_ERR_NOMEM ? " (out of memory)" : "");
}

void problem_text_free(problem_text *t)
{
    free(t->buf);
    t->buf = NULL;
    t->len = 0;
}

void problem_text_rewind(problem_text *t)
{
    t->pos = 0;
    t->line = 1;
    t->tok_line = 1;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Skips white space; with stop_at_newline, stops before a '\n'. */
static void skip_space(problem_text *t, int stop_at_newline)
{
    while (t->pos < t->len && is_space(t->buf[t->pos])) {
        if (t->buf[t->pos] == '\n') {
            if (stop_at_newline) return;
            t->line++;
        }
        t->pos++;
    }
}

static int take_token(problem_text *t, const char **tok, size_t *len)
{
    if (t->pos >= t->len || is_space(t->buf[t->pos])) return 0;
    size_t start = t->pos;
    while (t->pos < t->len && !is_space(t->buf[t->pos])) t->pos++;
    *tok = t->buf + start;
    *len = t->pos - start;
    t->tok_line = t->line;
    return 1;
}

int problem_text_token(problem_text *t, const char **tok, size_t *len)
{
    skip_space(t, 0);
    return take_token(t, tok, len);
}

int problem_text_token_on_line(problem_text *t, const char **tok, size_t *len)
{
    skip_space(t, 1);
    return take_token(t, tok, len);
}

void problem_text_skip_line(problem_text *t)
{
    while (t->pos < t->len && t->buf[t->pos] != '\n') t->pos++;
    if (t->pos < t->len) {
        t->pos++;
        t->line++;
    }
}

mcd_status problem_require_numbers(problem_text *t, const char *what, long count)
{
    const size_t left = t->len - t->pos;
    if (count > 0 && left < 2 * (size_t)count - 1)
        return problem_fail(t, MCD_ERR_PARSE,
                            "%s needs %ld more numbers, but the rest of the file has only %zu "
                            "bytes",
                            what, count, left);
    return MCD_OK;
}

mcd_status problem_fail(problem_text *t, mcd_status status, const char *fmt, ...)
{
    char msg[MCD_ERROR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mcd_fail(t->err, status, "%s:%d: %s", t->path, t->tok_line, msg);
}

/* The token as a C string in buf (cut to fit, for messages). */
static const char *token_text(const char *tok, size_t len, char *buf, size_t cap)
{
    size_t n = len < cap - 1 ? len : cap - 1;
    memcpy(buf, tok, n);
    buf[n] = '\0';
    return buf;
}

static mcd_status missing(problem_text *t, const char *what)
{
    return problem_fail(t, MCD_ERR_PARSE, "file ends before %s (truncated?)", what);
}

mcd_status problem_read_int(problem_text *t, const char *what, long min, long max, int *out)
{
    const char *tok;
    size_t len;
    char buf[MAX_TOKEN];
    if (!problem_text_token(t, &tok, &len)) return missing(t, what);
    token_text(tok, len, buf, sizeof buf);
    char *end;
    errno = 0;
    long v = strtol(buf, &end, 10);
    if (len >= sizeof buf || end == buf || *end != '\0' || errno == ERANGE)
        return problem_fail(t, MCD_ERR_PARSE, "%s: expected an integer, found '%s'", what, buf);
    if (min == max && v != min)
        return problem_fail(t, MCD_ERR_PARSE, "%s = %ld, expected %ld", what, v, min);
    if (v < min || v > max)
        return problem_fail(t, MCD_ERR_PARSE, "%s = %ld is out of range [%ld, %ld]", what, v, min,
                            max);
    *out = (int)v;
    return MCD_OK;
}

mcd_status problem_expect_word(problem_text *t, const char *word, const char *context)
{
    const char *tok;
    size_t len;
    char buf[MAX_TOKEN];
    if (!problem_text_token(t, &tok, &len)) return missing(t, context);
    if (len != strlen(word) || memcmp(tok, word, len) != 0)
        return problem_fail(t, MCD_ERR_PARSE, "%s: expected '%s', found '%s'", context, word,
                            token_text(tok, len, buf, sizeof buf));
    return MCD_OK;
}

static const char *entry_text(problem_entry e, char *buf, size_t cap)
{
    if (e.col < 0)
        snprintf(buf, cap, "%s[%d]", e.name, e.row);
    else
        snprintf(buf, cap, "%s(%d,%d)", e.name, e.row, e.col);
    return buf;
}

mcd_status problem_read_entry(problem_text *t, problem_entry e, double *out)
{
    const char *tok;
    size_t len;
    char buf[MAX_TOKEN], name[64];
    if (!problem_text_token(t, &tok, &len)) return missing(t, entry_text(e, name, sizeof name));
    token_text(tok, len, buf, sizeof buf);
    char *end;
    double v = strtod(buf, &end);
    if (len >= sizeof buf || end == buf || *end != '\0')
        return problem_fail(t, MCD_ERR_PARSE, "%s: expected a number, found '%s'",
                            entry_text(e, name, sizeof name), buf);
    if (!isfinite(v))
        return problem_fail(t, MCD_ERR_NONFINITE, "%s is not finite ('%s')",
                            entry_text(e, name, sizeof name), buf);
    *out = v;
    return MCD_OK;
}

mcd_status problem_read_vector(problem_text *t, const char *name, int n, double *v)
{
    for (int i = 0; i < n; i++) {
        mcd_status s = problem_read_entry(t, (problem_entry){name, i, -1}, &v[i]);
        if (s != MCD_OK) return s;
    }
    return MCD_OK;
}

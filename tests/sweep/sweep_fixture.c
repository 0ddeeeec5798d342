/* Helpers of the `mcdyn sweep` tests (sweep_fixture.h). */
#include "sweep_fixture.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli_fixture.h"

/* Splits one CSV line into its fields (quotes removed, "" made "). */
static char **split(const char *line, int *n)
{
    size_t len = strlen(line);
    char **f = calloc(len + 2, sizeof *f);
    char *buf = malloc(len + 1), *w = buf;
    ck_assert(f && buf);
    *n = 0;
    const char *p = line;
    for (;;) {
        f[(*n)++] = w;
        int quoted = *p == '"';
        p += quoted;
        while (*p && (quoted || *p != ',')) {
            if (quoted && *p == '"' && p[1] == '"')
                p++;
            else if (quoted && *p == '"') {
                quoted = 0, p++;
                continue;
            }
            *w++ = *p++;
        }
        *w++ = '\0';
        if (!*p) break;
        p++;
    }
    return f;
}

static void free_fields(char **f)
{
    if (f) free(f[0]);
    free(f);
}

summary summary_read(const char *path)
{
    summary s;
    memset(&s, 0, sizeof s);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int k = 0;
    s.line = calloc(1, sizeof *s.line);
    s.field = calloc(1, sizeof *s.field);
    while ((n = getline(&line, &cap, f)) > 0) {
        ck_assert_msg(line[n - 1] == '\n', "%s: line %d has no newline", path, k + 1);
        line[n - 1] = '\0';
        if (k++ == 0) {
            ck_assert_msg(!strncmp(line, "# mcdyn sweep ", 14), "%s: no identity line", path);
            continue;
        }
        if (k == 2) {
            s.name = split(line, &s.ncol);
            continue;
        }
        s.line = realloc(s.line, sizeof *s.line * (size_t)(s.nrow + 1));
        s.field = realloc(s.field, sizeof *s.field * (size_t)(s.nrow + 1));
        ck_assert(s.line && s.field);
        int m;
        s.line[s.nrow] = strdup(line);
        s.field[s.nrow] = split(line, &m);
        ck_assert_msg(m == s.ncol, "%s: row %d has %d fields, the header %d", path, s.nrow, m,
                      s.ncol);
        s.nrow++;
    }
    free(line);
    fclose(f);
    ck_assert_msg(s.name != NULL, "%s: no header", path);
    return s;
}

void summary_free(summary *s)
{
    for (int i = 0; i < s->nrow; i++) {
        free(s->line[i]);
        free_fields(s->field[i]);
    }
    free(s->line);
    free(s->field);
    free_fields(s->name);
    memset(s, 0, sizeof *s);
}

const char *summary_field(const summary *s, int i, const char *name)
{
    ck_assert_int_lt(i, s->nrow);
    for (int c = 0; c < s->ncol; c++)
        if (!strcmp(s->name[c], name)) return s->field[i][c];
    return NULL;
}

int summary_is_timing(const char *name)
{
    return !strcmp(name, "wall") || !strcmp(name, "step_wall") || !strcmp(name, "cpu");
}

void summary_assert_same(const summary *a, const summary *b)
{
    ck_assert_int_eq(a->ncol, b->ncol);
    ck_assert_int_eq(a->nrow, b->nrow);
    for (int c = 0; c < a->ncol; c++) ck_assert_str_eq(a->name[c], b->name[c]);
    for (int i = 0; i < a->nrow; i++)
        for (int c = 0; c < a->ncol; c++)
            if (!summary_is_timing(a->name[c]))
                ck_assert_msg(!strcmp(a->field[i][c], b->field[i][c]),
                              "row %d, column %s: '%s' and '%s'", i, a->name[c], a->field[i][c],
                              b->field[i][c]);
}

const char *data_path(const char *name)
{
    static char path[4][4096];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/tests/sweep/data/%s", env_or_fail("MCDYN_SOURCE"), name);
    return p;
}

void temp_path(char *path, const char *name)
{
    static char dir[2048];
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/mcdyn_sweep_XXXXXX", tmp && *tmp ? tmp : "/tmp");
        ck_assert_msg(mkdtemp(dir) != NULL, "cannot make a temporary directory");
    }
    snprintf(path, 4096, "%s/%s", dir, name);
}

void write_sweep(char *path, const char *name, const char *fmt, ...)
{
    temp_path(path, name);
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    ck_assert_int_eq(fclose(f), 0);
}

/* mcdyn sweep SWEEP --out OUT ARGS... */
static command_result run_sweep(const char *sweep, const char *out, const char *const *args)
{
    const char *argv[16] = {"sweep", sweep, "--out", out};
    int n = 4;
    for (; *args && n < 15; args++) argv[n++] = *args;
    argv[n] = NULL;
    return mcdyn(argv);
}

const char *sweep_ok_args(const char *sweep, const char *out, const char *const *args)
{
    static command_result last;
    command_result_free(&last);
    last = run_sweep(sweep, out, args);
    ck_assert_msg(last.exit_code == 0, "mcdyn sweep %s: exit %d\n%s", sweep, last.exit_code,
                  last.err);
    return last.out;
}

void sweep_fails_args(const char *sweep, const char *out, const char *fragment,
                      const char *const *args)
{
    command_result r = run_sweep(sweep, out, args);
    ck_assert_msg(r.exit_code == 1, "mcdyn sweep %s: exit %d, expected 1\n%s", sweep, r.exit_code,
                  r.err);
    ck_assert_msg(strstr(r.err, fragment), "mcdyn sweep %s: '%s' not in:\n%s", sweep, fragment,
                  r.err);
    command_result_free(&r);
}

int journal_rows(const char *path)
{
    FILE *f = fopen(path, "rb");
    int lines = 0, c;
    if (!f) return 0;
    while ((c = fgetc(f)) != EOF) lines += c == '\n';
    fclose(f);
    return lines > 2 ? lines - 2 : 0;
}

/* Scenario loading: the time-series files of actuator targets and
 * feedforward torques (src/io/scenario_internal.h).
 *
 * A CSV file: a header line of column names (the first one t), then rows
 * of as many finite numbers, t strictly increasing; fields are separated
 * by commas, spaces around them ignored; blank lines and lines starting
 * with '#' are skipped. Every error names the scenario key of the file and
 * the file's line.
 */
#include "scenario_internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLUMNS 4096
#define MAX_ROWS    10000000

/* Reading state: the file, its line number and the growing table. */
typedef struct table_reader {
    const scn_ctx *c;
    const scn_at *at;
    const char *path;
    int line;
    size_t cap;   /* rows the values hold */
    double *rows; /* row-major while reading */
} table_reader;

static mcd_status fail_line(const table_reader *r, mcd_status st, const char *what)
{
    return scn_fail(r->c, r->at, st, "file '%s', line %d: %s", r->path, r->line, what);
}

/* s without the spaces around it (written in place). */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

static int skipped(const char *line)
{
    return line[0] == '\0' || line[0] == '#';
}

/* The header's column names into t->name; t->ncol set. */
static mcd_status read_header(table_reader *r, char *line, scn_table *t)
{
    int n = 1;
    for (const char *p = line; *p; p++) n += *p == ',';
    if (n > MAX_COLUMNS) return fail_line(r, MCD_ERR_PARSE, "more than 4096 columns");
    if (!(t->name = calloc((size_t)n, sizeof *t->name)))
        return mcd_fail(r->c->err, MCD_ERR_NOMEM, "%s: out of memory", r->c->file);
    char *save = NULL, *field = strtok_r(line, ",", &save);
    for (int i = 0; i < n; i++, field = strtok_r(NULL, ",", &save)) {
        const char *name = field ? trim(field) : "";
        if (!name[0]) return fail_line(r, MCD_ERR_PARSE, "empty column name in the header");
        if (!(t->name[i] = strdup(name)))
            return mcd_fail(r->c->err, MCD_ERR_NOMEM, "%s: out of memory", r->c->file);
        t->ncol = i + 1;
    }
    if (strcmp(t->name[0], "t") != 0)
        return fail_line(r, MCD_ERR_PARSE, "the first column of the header must be 't'");
    return MCD_OK;
}

/* Room for one more row of ncol values. */
static mcd_status grow(table_reader *r, const scn_table *t)
{
    if ((size_t)t->nrow < r->cap) return MCD_OK;
    if (t->nrow >= MAX_ROWS) return fail_line(r, MCD_ERR_PARSE, "more than 10^7 rows");
    const size_t cap = r->cap ? 2 * r->cap : 64;
    if (cap > SIZE_MAX / sizeof(double) / (size_t)t->ncol)
        return mcd_fail(r->c->err, MCD_ERR_NOMEM, "%s: out of memory", r->c->file);
    double *rows = realloc(r->rows, cap * (size_t)t->ncol * sizeof *rows);
    if (!rows) return mcd_fail(r->c->err, MCD_ERR_NOMEM, "%s: out of memory", r->c->file);
    r->rows = rows, r->cap = cap;
    return MCD_OK;
}

/* One data row appended; its time after the previous row's. */
static mcd_status read_row(table_reader *r, char *line, scn_table *t)
{
    mcd_status st = grow(r, t);
    double *row = r->rows + (size_t)t->nrow * (size_t)t->ncol;
    char *save = NULL, *field = strtok_r(line, ",", &save);
    char what[160];
    for (int i = 0; st == MCD_OK && i < t->ncol; i++, field = strtok_r(NULL, ",", &save)) {
        char *text = field ? trim(field) : NULL, *end;
        if (!text) {
            snprintf(what, sizeof what, "%d values, the header has %d columns", i, t->ncol);
            return fail_line(r, MCD_ERR_PARSE, what);
        }
        errno = 0;
        row[i] = strtod(text, &end);
        if (end == text || *end || errno == ERANGE || !isfinite(row[i])) {
            snprintf(what, sizeof what, "column '%s': '%.40s' is not a finite number", t->name[i],
                     text);
            return fail_line(r, MCD_ERR_PARSE, what);
        }
    }
    if (st == MCD_OK && field) {
        snprintf(what, sizeof what, "more values than the header's %d columns", t->ncol);
        return fail_line(r, MCD_ERR_PARSE, what);
    }
    if (st == MCD_OK && t->nrow > 0 && !(row[0] > row[-t->ncol])) {
        snprintf(what, sizeof what,
                 "t = %g is not after the previous row's t = %g (t must increase)", row[0],
                 row[-t->ncol]);
        return fail_line(r, MCD_ERR_PARSE, what);
    }
    if (st == MCD_OK) t->nrow++;
    return st;
}

/* The rows, transposed to columns in t->col. */
static mcd_status to_columns(table_reader *r, scn_table *t)
{
    if (t->nrow == 0) return fail_line(r, MCD_ERR_PARSE, "no data rows after the header");
    if (!(t->col = malloc((size_t)t->nrow * (size_t)t->ncol * sizeof *t->col)))
        return mcd_fail(r->c->err, MCD_ERR_NOMEM, "%s: out of memory", r->c->file);
    for (int i = 0; i < t->nrow; i++)
        for (int j = 0; j < t->ncol; j++)
            t->col[(size_t)j * (size_t)t->nrow + (size_t)i] =
                r->rows[(size_t)i * (size_t)t->ncol + (size_t)j];
    return MCD_OK;
}

static mcd_status read_lines(table_reader *r, FILE *f, scn_table *t)
{
    char *buf = NULL;
    size_t len = 0;
    mcd_status st = MCD_OK;
    while (st == MCD_OK && getline(&buf, &len, f) >= 0) {
        r->line++;
        char *line = trim(buf);
        if (skipped(line)) continue;
        st = t->ncol == 0 ? read_header(r, line, t) : read_row(r, line, t);
    }
    free(buf);
    if (st == MCD_OK && t->ncol == 0) st = fail_line(r, MCD_ERR_PARSE, "no header line");
    return st == MCD_OK ? to_columns(r, t) : st;
}

mcd_status scn_read_table(const scn_ctx *c, const scn_at *at, const char *name, scn_table *t)
{
    memset(t, 0, sizeof *t);
    char *path;
    mcd_status st = scn_path(c, name, &path);
    if (st != MCD_OK) return st;
    table_reader r = {c, at, path, 0, 0, NULL};
    FILE *f = fopen(path, "r");
    if (!f) {
        char reason[128] = "";
        strerror_r(errno, reason, sizeof reason);
        st = scn_fail(c, at, MCD_ERR_IO, "cannot open '%s': %s", path, reason);
    } else {
        st = read_lines(&r, f, t);
        fclose(f);
    }
    free(r.rows);
    free(path);
    return st;
}

int scn_table_column(const scn_table *t, const char *name)
{
    for (int j = 1; j < t->ncol; j++)
        if (strcmp(t->name[j], name) == 0) return j;
    return -1;
}

void scn_table_free_names(scn_table *t)
{
    for (int j = 0; j < t->ncol; j++) free(t->name[j]);
    free(t->name);
    t->name = NULL;
}

/* Case costs from an earlier summary (tools/sweep_costs.h). */
#include "sweep_costs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_csv.h"

/* The fields of line (its newline removed) in *buf and *field, grown as
 * needed; their number. */
static int split_line(char *line, char **buf, char ***field, int *cap)
{
    line[strcspn(line, "\r\n")] = '\0';
    free(*buf);
    if (!(*buf = malloc(strlen(line) + 1))) abort(); /* no memory: the command cannot go on */
    int n = sweep_csv_split(line, *buf, *field, *cap);
    if (n > *cap) {
        free(*field);
        if (!(*field = calloc((size_t)n, sizeof **field))) abort();
        *cap = n;
        sweep_csv_split(line, *buf, *field, *cap);
    }
    return n;
}

/* The column of the cost in the header's fields: cpu, else wall; -1. */
static int cost_column(char **name, int n)
{
    for (int c = 0; c < n; c++)
        if (!strcmp(name[c], "cpu")) return c;
    for (int c = 0; c < n; c++)
        if (!strcmp(name[c], "wall")) return c;
    return -1;
}

/* Reads the rows after the header of f into cost. */
static int read_costs(const sweep_spec *sp, FILE *f, const char *path, double *cost, char *msg,
                      size_t len)
{
    char *line = NULL, *buf = NULL, **field = NULL;
    size_t lcap = 0;
    int cap = 0, col = -1, ncol = 0;
    if (getline(&line, &lcap, f) > 0) {
        ncol = split_line(line, &buf, &field, &cap);
        col = cost_column(field, ncol);
    }
    int bad = col < 0;
    if (bad) snprintf(msg, len, "--costs %s: no cpu or wall column in its header", path);
    ssize_t n;
    while (!bad && (n = getline(&line, &lcap, f)) > 0) {
        char *end;
        if (line[n - 1] != '\n' || split_line(line, &buf, &field, &cap) != ncol)
            continue; /* a journal's row cut by a kill */
        errno = 0;
        long i = strtol(field[0], &end, 10);
        double v = strtod(field[col], NULL);
        if (!errno && *end == '\0' && i >= 0 && i < sp->ncase && v >= 0) cost[i] = v;
    }
    free(line);
    free(buf);
    free(field);
    return bad ? -1 : 0;
}

int sweep_costs_read(const sweep_spec *sp, const char *path, double *cost, char *msg, size_t len)
{
    for (long i = 0; i < sp->ncase; i++) cost[i] = NAN;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, len, "--costs %s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    long ncase = -1;
    int rc = fscanf(f, "# mcdyn sweep %*x cases %ld", &ncase) == 1 && fgetc(f) == '\n' ? 0 : -1;
    if (rc) snprintf(msg, len, "--costs %s: not the summary of an mcdyn sweep", path);
    if (!rc && ncase != sp->ncase) {
        snprintf(msg, len, "--costs %s: a summary of %ld cases, this sweep has %ld", path, ncase,
                 sp->ncase);
        rc = -1;
    }
    if (!rc) rc = read_costs(sp, f, path, cost, msg, len);
    fclose(f);
    return rc;
}

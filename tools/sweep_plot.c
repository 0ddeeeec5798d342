/* A picture of a finished sweep (tools/sweep_plot.h). */
#include "sweep_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "plot.h"
#include "sweep_csv.h"
#include "sweep_run.h"

typedef struct plot_data {
    const sweep_plot_options *o;
    const sweep_spec *sp;
    double *x; /* the first axis' values, nx */
    double *y; /* y[line * nx + ix] */
    int nx, nline;
} plot_data;

/* The summary column's index, or -1. */
static int column_index(const sweep_spec *sp, const char *name)
{
    char *header = NULL, *buf, **field;
    size_t len = 0;
    FILE *h = open_memstream(&header, &len);
    if (!h) abort(); /* the command cannot go on without memory */
    sweep_run_header(sp, h);
    fclose(h);
    buf = malloc(len + 1);
    field = calloc(len + 1, sizeof *field);
    if (!buf || !field) abort();
    int n = sweep_csv_split(header, buf, field, (int)len + 1), found = -1;
    for (int c = 0; c < n && found < 0; c++)
        if (!strcmp(field[c], name)) found = c;
    free(header), free(buf), free(field);
    return found;
}

/* The value of column c in row, NAN when empty or not a number. */
static double row_value(const char *row, int c)
{
    size_t len = strlen(row);
    char *buf = malloc(len + 1), **field = calloc(len + 2, sizeof *field);
    if (!buf || !field) abort();
    double v = NAN;
    if (sweep_csv_split(row, buf, field, (int)len + 2) > c && args_parse_double(field[c], &v))
        v = NAN;
    free(buf), free(field);
    return v;
}

/* The mean (or the rate above the threshold) at every point. */
static void gather(const sweep_summary *s, int c, plot_data *p)
{
    const sweep_spec *sp = s->sp;
    double *count = calloc((size_t)(p->nx * p->nline), sizeof *count);
    if (!count) abort();
    const long npoints = sp->ncase / sp->samples, stride0 = npoints / sp->axis[0].nvalue;
    const long stride1 = sp->naxis > 1 ? stride0 / sp->axis[1].nvalue : 1;
    for (long i = 0; i < sp->ncase; i++) {
        const long point = i / sp->samples;
        const int ix = (int)(point / stride0);
        const int line = sp->naxis > 1 ? (int)(point / stride1 % sp->axis[1].nvalue) : 0;
        double v = row_value(s->row[i], c);
        int k = line * p->nx + ix;
        if (p->o->has_above) {
            p->y[k] += v > p->o->above, count[k]++;
        } else if (isfinite(v)) {
            p->y[k] += v, count[k]++;
        }
    }
    for (int k = 0; k < p->nx * p->nline; k++) p->y[k] = count[k] ? p->y[k] / count[k] : NAN;
    free(count);
}

static int script(FILE *g, void *user)
{
    const plot_data *p = user;
    const sweep_spec *sp = p->sp;
    char label[512];
    fputs("set terminal pngcairo size 1000,600 noenhanced\nset output\n"
          "set key outside right\nset grid\nset xlabel ",
          g);
    plot_put_string(g, sp->axis[0].path);
    fputs("\nset ylabel ", g);
    snprintf(label, sizeof label, "%s %s", p->o->has_above ? "fraction of samples with" : "mean of",
             p->o->column);
    if (p->o->has_above)
        snprintf(label + strlen(label), sizeof label - strlen(label), " > %g", p->o->above);
    plot_put_string(g, label);
    fputs("\n$data << EOD\n", g);
    for (int ix = 0; ix < p->nx; ix++) {
        fprintf(g, "%.17g", p->x[ix]);
        for (int l = 0; l < p->nline; l++) fprintf(g, " %.17g", p->y[l * p->nx + ix]);
        fputc('\n', g);
    }
    fputs("EOD\nplot ", g);
    for (int l = 0; l < p->nline; l++) {
        fprintf(g, "%s$data using 1:%d with linespoints lw 2 title ", l ? ", " : "", l + 2);
        if (sp->naxis > 1)
            snprintf(label, sizeof label, "%s = %s", sp->axis[1].path, sp->axis[1].value[l]);
        else
            snprintf(label, sizeof label, "%s", p->o->column);
        plot_put_string(g, label);
    }
    fputc('\n', g);
    return 0;
}

int sweep_plot_check(const sweep_spec *sp, const sweep_plot_options *o, char *msg, size_t len)
{
    double x;
    if (sp->naxis == 0) return snprintf(msg, len, "--plot needs a grid axis"), -1;
    if (column_index(sp, o->column) < 0)
        return snprintf(msg, len, "--plot-y: no summary column '%s'", o->column), -1;
    for (int i = 0; i < sp->axis[0].nvalue; i++)
        if (args_parse_double(sp->axis[0].value[i], &x))
            return snprintf(msg, len,
                            "--plot: the first grid axis '%s' has a value that is not a number "
                            "('%s')",
                            sp->axis[0].path, sp->axis[0].value[i]),
                   -1;
    return 0;
}

int sweep_plot(const sweep_summary *s, const sweep_plot_options *o, char *msg, size_t len)
{
    const sweep_spec *sp = s->sp;
    if (sweep_plot_check(sp, o, msg, len)) return -1;
    plot_data p = {o, sp, NULL, NULL, sp->axis[0].nvalue, sp->naxis > 1 ? sp->axis[1].nvalue : 1};
    p.x = calloc((size_t)p.nx, sizeof *p.x);
    p.y = calloc((size_t)(p.nx * p.nline), sizeof *p.y);
    if (!p.x || !p.y) abort(); /* the command cannot go on without memory */
    for (int i = 0; i < p.nx; i++) args_parse_double(sp->axis[0].value[i], &p.x[i]);
    gather(s, column_index(sp, o->column), &p);
    int rc = plot_png(o->png, script, &p, msg, len);
    free(p.x), free(p.y);
    return rc;
}

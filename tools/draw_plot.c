/* `mcdyn draw`: a scene rendered to PNG by gnuplot (tools/draw_plot.h). */
#include "draw_plot.h"

#include <math.h>
#include <stdio.h>

#include "plot.h"

/* Layer styles: datablock name, gnuplot style, legend ("" : none). */
static const struct {
    const char *block, *style, *title;
} line_styles[DRAW_LAYER_COUNT] = {
    [DRAW_WORLD_GEOMETRY] = {"$world", "with lines lw 1.5 lc rgb '#8c8c8c'", "world geometry"},
    [DRAW_GEOMETRY] = {"$geometry", "with lines lw 1 lc rgb '#5b9bd5'", "collision geometry"},
    [DRAW_BODIES] = {"$bodies", "with lines lw 3 lc rgb '#1a2f6e'", "bodies"},
    [DRAW_CLOSURE_GAPS] = {"$gaps", "with lines lw 1.5 dt 2 lc rgb '#d62728'", ""},
};

static const struct {
    const char *block, *style, *title;
} mark_styles[DRAW_MARK_COUNT] = {
    [DRAW_JOINT] = {"$joints", "with points pt 7 ps 1.1 lc rgb 'black'", "joints"},
    [DRAW_GROUND_JOINT] = {"$ground", "with points pt 5 ps 1.4 lc rgb '#404040'",
                           "joints to the world"},
    [DRAW_CLOSURE_FRAME] = {"$closures", "with points pt 2 ps 2.2 lw 2 lc rgb '#d62728'",
                            "closure frames"},
};

static void put_block(FILE *f, const char *name, const draw_points *p)
{
    fprintf(f, "%s << EOD\n", name);
    for (int i = 0; i < p->n; i++) {
        const double *uv = p->uv + 2 * i;
        if (isnan(uv[0]))
            fputc('\n', f);
        else
            fprintf(f, "%.7g %.7g\n", uv[0], uv[1]);
    }
    fprintf(f, "EOD\n");
}

/* The plotted range: the scene's box with a margin, both axes at least a
 * few centimetres wide. */
static void ranges(const draw_scene *s, double lo[2], double hi[2])
{
    if (!(s->lo[0] <= s->hi[0])) {
        lo[0] = lo[1] = -1, hi[0] = hi[1] = 1;
        return;
    }
    double size = fmax(fmax(s->hi[0] - s->lo[0], s->hi[1] - s->lo[1]), 0.05);
    for (int k = 0; k < 2; k++) {
        lo[k] = s->lo[k] - 0.08 * size;
        hi[k] = s->hi[k] + 0.08 * size;
    }
}

/* The scene and the options, for the script. */
typedef struct draw_job {
    const draw_scene *s;
    const draw_plot_options *o;
} draw_job;

static int put_script(FILE *f, void *user)
{
    const draw_job *job = user;
    const draw_scene *s = job->s;
    const draw_plot_options *o = job->o;
    double lo[2], hi[2];
    ranges(s, lo, hi);
    fprintf(f, "set encoding utf8\n"
               "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n");
    fprintf(f, "  set terminal pngcairo size %d,%d font 'sans,11'\n", o->width, o->height);
    fprintf(f, "} else {\n  set terminal png size %d,%d\n}\n", o->width, o->height);
    fprintf(f, "set output\nset title ");
    plot_put_string(f, o->title);
    fprintf(f, " noenhanced\nset xlabel ");
    plot_put_string(f, o->xlabel);
    fprintf(f, " noenhanced\nset ylabel ");
    plot_put_string(f, o->ylabel);
    fprintf(f, " noenhanced\n"
               "set size ratio -1\n"
               "set grid lc rgb '#e4e4e4'\n"
               "set key below horizontal noenhanced\n");
    fprintf(f, "set xrange [%.7g:%.7g]\nset yrange [%.7g:%.7g]\n", lo[0], hi[0], lo[1], hi[1]);
    for (int i = 0; i < DRAW_LAYER_COUNT; i++)
        if (s->line[i].n > 0) put_block(f, line_styles[i].block, &s->line[i]);
    for (int i = 0; i < DRAW_MARK_COUNT; i++)
        if (s->mark[i].n > 0) put_block(f, mark_styles[i].block, &s->mark[i]);
    const char *sep = "plot ";
    int any = 0;
    for (int i = 0; i < DRAW_LAYER_COUNT; i++) {
        if (s->line[i].n == 0) continue;
        fprintf(f, "%s%s %s ", sep, line_styles[i].block, line_styles[i].style);
        if (*line_styles[i].title)
            fprintf(f, "title '%s'", line_styles[i].title);
        else
            fprintf(f, "notitle");
        sep = ", \\\n     ", any = 1;
    }
    for (int i = 0; i < DRAW_MARK_COUNT; i++) {
        if (s->mark[i].n == 0) continue;
        fprintf(f, "%s%s %s title '%s'", sep, mark_styles[i].block, mark_styles[i].style,
                mark_styles[i].title);
        sep = ", \\\n     ", any = 1;
    }
    if (!any) fprintf(f, "plot NaN notitle");
    fprintf(f, "\nunset output\n");
    return 0;
}

int draw_plot_png(const draw_scene *s, const draw_plot_options *o, char *msg, size_t msglen)
{
    draw_job job = {s, o};
    return plot_png(o->out, put_script, &job, msg, msglen);
}

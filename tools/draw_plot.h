/* `mcdyn draw`: a scene (draw_scene.h) rendered to a PNG file by gnuplot.
 *
 * The gnuplot script (data inlined as datablocks) goes to gnuplot through
 * plot_png (plot.h): no shell, no path in the script, the picture written
 * all or nothing. The pngcairo terminal is used when the gnuplot has it (Debian's gnuplot-nox
 * does), else the libgd png terminal. Both axes have the same scale. */
#ifndef MCDYN_TOOLS_DRAW_PLOT_H
#define MCDYN_TOOLS_DRAW_PLOT_H

#include <stddef.h>

#include "draw_scene.h"

typedef struct draw_plot_options {
    const char *out;    /* PNG file */
    const char *title;  /* picture title (written literally) */
    const char *xlabel; /* axis labels */
    const char *ylabel;
    int width, height; /* pixels */
} draw_plot_options;

/* Writes the picture of s. Returns 0, or -1 with a message in msg (gnuplot
 * missing or failing, a write error; a previous file is left as it was). */
int draw_plot_png(const draw_scene *s, const draw_plot_options *o, char *msg, size_t msglen);

#endif

/* PNG plots of CSV columns against t, through gnuplot (Debian gnuplot-nox). */
#ifndef MCDYN_TOOLS_PLOT_H
#define MCDYN_TOOLS_PLOT_H

/* Plots columns (1-based CSV column numbers, with their names as legend)
 * of csv_path against column 1 into png_path. Returns 0 on success, else
 * writes a message into msg. */
int plot_csv_png(const char *csv_path, const char *png_path, const char *title, const int *columns,
                 const char *const *names, int ncolumns, char *msg, int msglen);

#endif

/* PNG pictures through gnuplot (Debian gnuplot-nox), for `mcdyn sim` and
 * `mcdyn draw`.
 *
 * No input text is ever run as a command: gnuplot is started without a
 * shell (the program named by the environment variable MCDYN_GNUPLOT, else
 * `gnuplot`, found on PATH); no path reaches its script (the data is inlined
 * as a datablock and the picture comes back on gnuplot's standard output,
 * written through atomic_file.h); titles and legends are single-quoted
 * strings with quotes doubled and control characters shown as '?', a
 * quoting gnuplot has no escape from (no backquote or macro substitution
 * inside single quotes, and a string cannot span lines).
 * docs/reliability.md. */
#ifndef MCDYN_TOOLS_PLOT_H
#define MCDYN_TOOLS_PLOT_H

#include <stddef.h>
#include <stdio.h>

/* Writes text into a gnuplot script as a single-quoted string that cannot
 * be escaped (see above). */
void plot_put_string(FILE *script, const char *text);

/* Writes a gnuplot script; the picture must go to standard output (the
 * script says `set output` with no file). Returns 0, or -1 if its data
 * could not be read (no picture is then written). */
typedef int (*plot_script_fn)(FILE *script, void *user);

/* Runs gnuplot on the script written by script(script, user) and writes
 * its standard output to png_path, all or nothing. Returns 0, or -1 with a
 * message in msg (gnuplot missing or failing, no picture, a write error);
 * a previous file at png_path is then left as it was. */
int plot_png(const char *png_path, plot_script_fn script, void *user, char *msg, size_t msglen);

/* Plots columns (0-based CSV column numbers, with names as their legend) of
 * the CSV file csv_path (a header line, then numbers; empty fields are
 * gaps) against its column 0 into png_path, with the given title. Returns
 * 0, or -1 with a message in msg. */
int plot_csv_png(const char *csv_path, const char *png_path, const char *title, const int *columns,
                 const char *const *names, int ncolumns, char *msg, size_t msglen);

#endif

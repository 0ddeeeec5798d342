/* PNG plots through gnuplot (tools/plot.h). */
#include "plot.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

/* Writes s into a gnuplot single-quoted string (quotes doubled). */
static void quoted(FILE *g, const char *s)
{
    fputc('\'', g);
    for (; *s; s++) {
        if (*s == '\'') fputc('\'', g);
        fputc(*s, g);
    }
    fputc('\'', g);
}

int plot_csv_png(const char *csv_path, const char *png_path, const char *title, const int *columns,
                 const char *const *names, int ncolumns, char *msg, int msglen)
{
    FILE *g = popen("gnuplot 2>&1", "w");
    if (!g) {
        snprintf(msg, msglen, "cannot run gnuplot (install gnuplot-nox)");
        return 1;
    }
    fputs("set terminal pngcairo size 1000,600 noenhanced\n", g);
    fputs("set output ", g);
    quoted(g, png_path);
    fputs("\nset datafile separator ','\nset key outside right\nset grid\n", g);
    fputs("set xlabel 't [s]'\nset title ", g);
    quoted(g, title);
    fputs("\nplot ", g);
    for (int i = 0; i < ncolumns; i++) {
        fputs(i ? ", " : "", g);
        quoted(g, csv_path);
        fprintf(g, " using 1:%d every ::1 with lines lw 2 title ", columns[i]);
        quoted(g, names[i]);
    }
    fputs("\n", g);
    int status = pclose(g);
    if (status != 0) {
        snprintf(msg, msglen, "gnuplot failed (exit status %d) writing '%s'",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, png_path);
        return 1;
    }
    return 0;
}

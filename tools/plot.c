/* PNG pictures through gnuplot (tools/plot.h). */
#include "plot.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic_file.h"

void plot_put_string(FILE *script, const char *text)
{
    fputc('\'', script);
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '\'') fputc('\'', script);
        fputc(*c < 0x20 || *c == 0x7f ? '?' : *c, script);
    }
    fputc('\'', script);
}

/* Starts program with its standard input from a new pipe (returned in
 * *script) and its standard output to out_fd; no shell. Returns the pid or
 * -1. */
static pid_t start(const char *program, int out_fd, FILE **script)
{
    int in[2];
    if (pipe(in) != 0) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out_fd, STDOUT_FILENO);
        close(in[0]), close(in[1]);
        execlp(program, program, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    if (pid < 0 || !(*script = fdopen(in[1], "w"))) {
        close(in[1]);
        if (pid > 0) waitpid(pid, NULL, 0);
        return -1;
    }
    return pid;
}

/* Exit code of pid, -1 if it did not exit normally. */
static int finish(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Runs the script; 0, or -1 with a message. */
static int run_gnuplot(const char *program, atomic_file *out, plot_script_fn script, void *user,
                       char *msg, size_t msglen)
{
    FILE *g = NULL;
    pid_t pid = start(program, fileno(out->f), &g);
    if (pid < 0) {
        snprintf(msg, msglen, "cannot start %s: %s", program, strerror(errno));
        return -1;
    }
    void (*old)(int) = signal(SIGPIPE, SIG_IGN); /* gnuplot may exit early */
    int data_error = script(g, user) != 0;
    int write_error = ferror(g);
    write_error |= fclose(g) != 0;
    int code = finish(pid);
    signal(SIGPIPE, old == SIG_ERR ? SIG_DFL : old);
    if (code == 127)
        snprintf(msg, msglen,
                 "cannot run %s: not found (install gnuplot-nox: tools/install-deps.sh)", program);
    else if (code != 0 || write_error)
        snprintf(msg, msglen, "%s failed (exit code %d)%s", program, code,
                 write_error ? "; the script could not be written" : "");
    else if (data_error)
        snprintf(msg, msglen, "the data of the picture could not be read");
    return code == 0 && !write_error && !data_error ? 0 : -1;
}

int plot_png(const char *png_path, plot_script_fn script, void *user, char *msg, size_t msglen)
{
    const char *program = getenv("MCDYN_GNUPLOT");
    if (!program || !*program) program = "gnuplot";
    atomic_file out;
    if (atomic_file_open(&out, png_path, msg, msglen) != 0) return -1;
    if (run_gnuplot(program, &out, script, user, msg, msglen) != 0) {
        atomic_file_discard(&out);
        return -1;
    }
    struct stat st;
    if (out.tmp && (fstat(fileno(out.f), &st) != 0 || st.st_size == 0)) {
        snprintf(msg, msglen, "%s wrote no picture for %s", program, png_path);
        atomic_file_discard(&out);
        return -1;
    }
    return atomic_file_commit(&out, msg, msglen);
}

/* What the CSV plot's script needs. */
typedef struct csv_plot {
    FILE *csv;
    const char *title;
    const int *columns;
    const char *const *names;
    int ncolumns;
} csv_plot;

/* Field k of a CSV line (pointer to its start and its length), 0 if the
 * line has fewer fields. */
static int field(const char *line, int k, const char **start, size_t *len)
{
    for (; k > 0; k--) {
        line = strchr(line, ',');
        if (!line) return 0;
        line++;
    }
    *start = line;
    *len = strcspn(line, ",\r\n");
    return 1;
}

/* Writes field k of line as a number, or NaN (a gap) when it is empty or
 * not a number: only numbers reach the script. */
static void put_number(FILE *g, const char *line, int k)
{
    const char *s;
    size_t len;
    char text[64], *end;
    if (field(line, k, &s, &len) && len > 0 && len < sizeof text) {
        memcpy(text, s, len);
        text[len] = '\0';
        double v = strtod(text, &end);
        if (*end == '\0' && end != text) {
            fprintf(g, " %.17g", v);
            return;
        }
    }
    fputs(" NaN", g);
}

static int csv_plot_script(FILE *g, void *user)
{
    const csv_plot *p = user;
    fputs("set terminal pngcairo size 1000,600 noenhanced\nset output\n"
          "set key outside right\nset grid\nset xlabel 't [s]'\nset title ",
          g);
    plot_put_string(g, p->title);
    fputs("\n$data << EOD\n", g);
    char *line = NULL;
    size_t cap = 0;
    for (long row = 0; getline(&line, &cap, p->csv) > 0; row++) {
        if (row == 0) continue; /* the header */
        put_number(g, line, 0);
        for (int i = 0; i < p->ncolumns; i++) put_number(g, line, p->columns[i]);
        fputc('\n', g);
    }
    free(line);
    fputs("EOD\nplot ", g);
    for (int i = 0; i < p->ncolumns; i++) {
        fprintf(g, "%s$data using 1:%d with lines lw 2 title ", i ? ", " : "", i + 2);
        plot_put_string(g, p->names[i]);
    }
    fputs("\n", g);
    return ferror(p->csv) ? -1 : 0;
}

int plot_csv_png(const char *csv_path, const char *png_path, const char *title, const int *columns,
                 const char *const *names, int ncolumns, char *msg, size_t msglen)
{
    csv_plot p = {fopen(csv_path, "r"), title, columns, names, ncolumns};
    if (!p.csv) {
        snprintf(msg, msglen, "cannot read %s: %s", csv_path, strerror(errno));
        return -1;
    }
    int rc = plot_png(png_path, csv_plot_script, &p, msg, msglen);
    fclose(p.csv);
    return rc;
}

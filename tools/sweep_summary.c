/* The summary file and its journal (tools/sweep_summary.h). */
#include "sweep_summary.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "sweep_run.h"

/* The first line of the summary and the journal. */
static void identity_line(const sweep_spec *sp, char *line, size_t len)
{
    snprintf(line, len, "# mcdyn sweep %016" PRIx64 " cases %ld\n", sp->fingerprint, sp->ncase);
}

/* The case index a row starts with, or -1. */
static long row_case(const char *line, long ncase)
{
    char *end;
    if (line[0] < '0' || line[0] > '9') return -1;
    errno = 0;
    long i = strtol(line, &end, 10);
    return errno || *end != ',' || i >= ncase ? -1 : i;
}

/* 0 when line (with its newline) is the header this mcdyn writes for the
 * sweep; a journal of an mcdyn with other columns (e.g. before the cpu
 * column) would give rows of two widths. */
static int header_differs(const sweep_spec *sp, const char *line)
{
    char *header = NULL;
    size_t len = 0;
    FILE *h = open_memstream(&header, &len);
    if (!h) abort(); /* the command cannot go on without memory */
    sweep_run_header(sp, h);
    fputc('\n', h);
    fclose(h);
    int differs = strcmp(line, header) != 0;
    free(header);
    return differs;
}

/* Keeps the complete rows (ending with a newline) of the open file f,
 * whose identity line and header are checked first. */
static int read_rows(sweep_summary *s, FILE *f, const char *name, char *msg, size_t len)
{
    char expect[128], *line = NULL;
    size_t cap = 0;
    ssize_t n;
    identity_line(s->sp, expect, sizeof expect);
    n = getline(&line, &cap, f);
    int ok = n > 0 && !strcmp(line, expect);
    if (!ok) {
        int ours = n > 14 && !strncmp(line, "# mcdyn sweep ", 14);
        snprintf(msg, len, "%s: %s (expected '%.*s')", name,
                 ours ? "the summary of another sweep (or of a changed sweep or scenario file)"
                      : "not the summary of an mcdyn sweep",
                 (int)strlen(expect) - 1, expect);
    }
    if (ok && (n = getline(&line, &cap, f)) > 0 && header_differs(s->sp, line)) {
        snprintf(msg, len, "%s: other columns than this mcdyn writes (another version's summary)",
                 name);
        ok = 0;
    }
    while (ok && (n = getline(&line, &cap, f)) > 0) {
        long i = row_case(line, s->sp->ncase);
        if (line[n - 1] != '\n' || i < 0 || s->row[i]) continue;
        line[n - 1] = '\0';
        if (!(s->row[i] = strdup(line))) abort(); /* the command cannot go on without memory */
        s->done++;
    }
    free(line);
    s->resumed = s->done;
    return ok ? 0 : -1;
}

/* The rows of an earlier run: the journal, else a finished summary. */
static int resume_rows(sweep_summary *s, char *msg, size_t len)
{
    const char *name = s->journal_path;
    FILE *f = fopen(name, "rb");
    if (!f && errno == ENOENT) f = fopen(name = s->path, "rb");
    if (!f && errno == ENOENT) return 0;
    if (!f) {
        snprintf(msg, len, "%s: cannot read: %s", name, strerror(errno));
        return -1;
    }
    int rc = read_rows(s, f, name, msg, len);
    fclose(f);
    return rc;
}

static int journal_error(sweep_summary *s, char *msg, size_t len)
{
    snprintf(msg, len, "cannot write %s: %s", s->journal_path, strerror(errno ? errno : EIO));
    return -1;
}

/* A new journal holding the identity line, the header and the kept rows. */
static int start_journal(sweep_summary *s, char *msg, size_t len)
{
    char line[128];
    errno = 0;
    if (!(s->journal = fopen(s->journal_path, "wb"))) return journal_error(s, msg, len);
    identity_line(s->sp, line, sizeof line);
    fputs(line, s->journal);
    sweep_run_header(s->sp, s->journal);
    fputc('\n', s->journal);
    for (long i = 0; i < s->sp->ncase; i++)
        if (s->row[i]) fprintf(s->journal, "%s\n", s->row[i]);
    return fflush(s->journal) || ferror(s->journal) ? journal_error(s, msg, len) : 0;
}

int sweep_summary_open(sweep_summary *s, const sweep_spec *sp, const char *path, int resume,
                       char *msg, size_t len)
{
    memset(s, 0, sizeof *s);
    s->sp = sp;
    s->path = path;
    s->row = calloc((size_t)sp->ncase, sizeof *s->row);
    s->journal_path = malloc(strlen(path) + 6);
    if (!s->row || !s->journal_path) abort(); /* the command cannot go on without memory */
    strcpy(s->journal_path, path);
    strcat(s->journal_path, ".part");
    if (resume && resume_rows(s, msg, len)) return -1;
    return start_journal(s, msg, len);
}

int sweep_summary_add(sweep_summary *s, long index, char *row, char *msg, size_t len)
{
    s->done += s->row[index] == NULL;
    free(s->row[index]);
    s->row[index] = row;
    errno = 0;
    fprintf(s->journal, "%s\n", row);
    return fflush(s->journal) || ferror(s->journal) ? journal_error(s, msg, len) : 0;
}

int sweep_summary_finish(sweep_summary *s, char *msg, size_t len)
{
    atomic_file out;
    char line[128];
    if (atomic_file_open(&out, s->path, msg, len)) return -1;
    identity_line(s->sp, line, sizeof line);
    fputs(line, out.f);
    sweep_run_header(s->sp, out.f);
    fputc('\n', out.f);
    for (long i = 0; i < s->sp->ncase; i++)
        if (s->row[i]) fprintf(out.f, "%s\n", s->row[i]);
    if (atomic_file_commit(&out, msg, len)) return -1;
    fclose(s->journal);
    s->journal = NULL;
    unlink(s->journal_path);
    return 0;
}

void sweep_summary_free(sweep_summary *s)
{
    if (s->journal) fclose(s->journal);
    for (long i = 0; s->row && i < s->sp->ncase; i++) free(s->row[i]);
    free(s->row);
    free(s->journal_path);
    memset(s, 0, sizeof *s);
}

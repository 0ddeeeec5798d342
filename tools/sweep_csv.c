/* CSV fields of the sweep summary (tools/sweep_csv.h). */
#include "sweep_csv.h"

#include <string.h>

void sweep_csv_text(FILE *out, const char *text)
{
    if (!strpbrk(text, ",\"\n\r")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"') fputc('"', out);
        fputc(*p == '\n' || *p == '\r' ? ' ' : *p, out);
    }
    fputc('"', out);
}

int sweep_csv_split(const char *line, char *buf, char **field, int cap)
{
    int n = 0;
    const char *p = line;
    char *w = buf;
    for (;;) {
        if (n < cap) field[n] = w;
        n++;
        int quoted = *p == '"';
        p += quoted;
        for (; *p && (quoted || *p != ','); p++) {
            if (quoted && *p == '"' && p[1] != '"') {
                quoted = 0;
                continue;
            }
            p += quoted && *p == '"'; /* "" inside quotes: one quote */
            *w++ = *p;
        }
        *w++ = '\0';
        if (!*p) return n;
        p++;
    }
}

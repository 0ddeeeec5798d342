/* A small streaming JSON writer (tools/json.h). */
#include "json.h"

#include <math.h>

static void separator(json_writer *w)
{
    if (w->first[w->depth])
        w->first[w->depth] = 0;
    else
        fputc(',', w->out);
}

static void open(json_writer *w, char c)
{
    fputc(c, w->out);
    if (w->depth + 1 < (int)(sizeof w->first / sizeof *w->first)) w->depth++;
    w->first[w->depth] = 1;
}

void json_begin(json_writer *w, FILE *out)
{
    w->out = out;
    w->depth = 0;
    w->first[0] = 1;
    open(w, '{');
}

void json_end(json_writer *w)
{
    json_object_end(w);
    fputc('\n', w->out);
}

void json_key(json_writer *w, const char *key)
{
    separator(w);
    fputc('"', w->out);
    for (const char *p = key; *p; p++) {
        if (*p == '"' || *p == '\\') fputc('\\', w->out);
        fputc(*p, w->out);
    }
    fputs("\":", w->out);
    w->first[w->depth] = -1; /* the value after a key takes no separator */
}

static void value_prefix(json_writer *w)
{
    if (w->first[w->depth] == -1)
        w->first[w->depth] = 0;
    else
        separator(w);
}

void json_object_begin(json_writer *w)
{
    value_prefix(w);
    open(w, '{');
}

void json_object_end(json_writer *w)
{
    fputc('}', w->out);
    if (w->depth > 0) w->depth--;
}

void json_array_begin(json_writer *w)
{
    value_prefix(w);
    open(w, '[');
}

void json_array_end(json_writer *w)
{
    fputc(']', w->out);
    if (w->depth > 0) w->depth--;
}

void json_string(json_writer *w, const char *s)
{
    value_prefix(w);
    fputc('"', w->out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", w->out);
            break;
        case '\\':
            fputs("\\\\", w->out);
            break;
        case '\n':
            fputs("\\n", w->out);
            break;
        case '\t':
            fputs("\\t", w->out);
            break;
        default:
            if (*p < 0x20)
                fprintf(w->out, "\\u%04x", *p);
            else
                fputc(*p, w->out);
        }
    }
    fputc('"', w->out);
}

void json_int(json_writer *w, long v)
{
    value_prefix(w);
    fprintf(w->out, "%ld", v);
}

void json_double(json_writer *w, double v)
{
    value_prefix(w);
    if (isfinite(v))
        fprintf(w->out, "%.17g", v);
    else
        fputs("null", w->out);
}

void json_bool(json_writer *w, int v)
{
    value_prefix(w);
    fputs(v ? "true" : "false", w->out);
}

void json_null(json_writer *w)
{
    value_prefix(w);
    fputs("null", w->out);
}

void json_double_array(json_writer *w, const double *v, int n)
{
    json_array_begin(w);
    for (int i = 0; i < n; i++) json_double(w, v[i]);
    json_array_end(w);
}

void json_matrix(json_writer *w, const double *A, int rows, int cols)
{
    json_array_begin(w);
    for (int i = 0; i < rows; i++) json_double_array(w, A + (long)i * cols, cols);
    json_array_end(w);
}

/* A small streaming JSON writer for the CLI's machine-readable output. */
#ifndef MCDYN_TOOLS_JSON_H
#define MCDYN_TOOLS_JSON_H

#include <stdio.h>

typedef struct json_writer {
    FILE *out;
    int depth;
    int first[32]; /* 1 while the container at this depth has no member yet */
} json_writer;

void json_begin(json_writer *w, FILE *out); /* opens the top-level object */
void json_end(json_writer *w);              /* closes it and writes a newline */

void json_key(json_writer *w, const char *key); /* inside an object, before a value */
void json_object_begin(json_writer *w);
void json_object_end(json_writer *w);
void json_array_begin(json_writer *w);
void json_array_end(json_writer *w);

void json_string(json_writer *w, const char *s);
void json_int(json_writer *w, long v);
void json_double(json_writer *w, double v); /* NaN/Inf written as null */
void json_bool(json_writer *w, int v);
void json_null(json_writer *w);

/* Arrays of numbers: a vector, and a rows x cols row-major matrix as an
 * array of row arrays. */
void json_double_array(json_writer *w, const double *v, int n);
void json_matrix(json_writer *w, const double *A, int rows, int cols);

#endif

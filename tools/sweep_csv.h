/* CSV fields of the sweep summary: text written as one field, a row split
 * back into its fields. */
#ifndef MCDYN_TOOLS_SWEEP_CSV_H
#define MCDYN_TOOLS_SWEEP_CSV_H

#include <stdio.h>

/* Writes text as one CSV field, quoted when it holds a comma, a quote or a
 * line break (quotes doubled, line breaks made spaces). */
void sweep_csv_text(FILE *out, const char *text);

/* Splits a row (one line, no newline) into at most cap fields, unquoted,
 * in buf (strlen(line) + 1 bytes); field[i] points into buf. Returns the
 * number of fields (more than cap: the first cap are filled). */
int sweep_csv_split(const char *line, char *buf, char **field, int cap);

#endif

/* The directories the benchmarks search for robot files. */
#ifndef MCDYN_TOOLS_MODELS_DIRS_H
#define MCDYN_TOOLS_MODELS_DIRS_H

#include <stddef.h>
#include <stdio.h>

#define MODELS_DIRS_MAX 4

/* The directories searched, in order. */
typedef struct models_dirs {
    char path[MODELS_DIRS_MAX][4096];
    int n;
} models_dirs;

/* user_dir (may be NULL), ./models, $MCDYN_SHARED/models, ../shared/models. */
void models_dirs_default(models_dirs *dirs, const char *user_dir);

/* Writes the path of the first regular file called file (relative to a
 * directory) to path (len bytes); returns 0, or -1 when none exists. */
int models_dirs_find(const models_dirs *dirs, const char *file, char *path, size_t len);

/* Prints the directories, separated by commas. */
void models_dirs_print(FILE *out, const models_dirs *dirs);

#endif

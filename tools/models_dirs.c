/* The directories the benchmarks search for robot files (models_dirs.h). */
#include "models_dirs.h"

#include <stdlib.h>
#include <sys/stat.h>

static void add_dir(models_dirs *dirs, const char *prefix, const char *suffix)
{
    if (prefix && dirs->n < MODELS_DIRS_MAX)
        snprintf(dirs->path[dirs->n++], sizeof dirs->path[0], "%s%s", prefix, suffix);
}

void models_dirs_default(models_dirs *dirs, const char *user_dir)
{
    dirs->n = 0;
    add_dir(dirs, user_dir, "");
    add_dir(dirs, "models", "");
    add_dir(dirs, getenv("MCDYN_SHARED"), "/models");
    add_dir(dirs, "../shared/models", "");
}

int models_dirs_find(const models_dirs *dirs, const char *file, char *path, size_t len)
{
    struct stat st;
    for (int i = 0; i < dirs->n; i++) {
        snprintf(path, len, "%s/%s", dirs->path[i], file);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) return 0;
    }
    return -1;
}

void models_dirs_print(FILE *out, const models_dirs *dirs)
{
    for (int i = 0; i < dirs->n; i++) fprintf(out, "%s%s", i ? ", " : "", dirs->path[i]);
}

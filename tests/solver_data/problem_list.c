/* Listing the shared problem files (problem_list.h). */
#include "problem_list.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *env_or_fail(const char *name)
{
    const char *v = getenv(name);
    ck_assert_msg(v && *v, "%s is not set (tests/meson.build sets it)", name);
    return v;
}

/* "a/b", owned. */
static char *joined(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *s = malloc(n);
    ck_assert_ptr_nonnull(s);
    snprintf(s, n, "%s/%s", a, b);
    return s;
}

static int is_regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds dir/file if it is a regular file; dir is the folder's path. */
static void add_file(problem_list *l, const char *dir, const char *folder, const char *file)
{
    char *path = joined(dir, file);
    if (!is_regular(path)) {
        free(path);
        return;
    }
    l->paths = realloc(l->paths, sizeof(char *) * (l->count + 1));
    l->names = realloc(l->names, sizeof(char *) * (l->count + 1));
    ck_assert(l->paths && l->names);
    size_t n = strlen(folder) + strlen(file) + 2;
    l->names[l->count] = malloc(n);
    ck_assert_ptr_nonnull(l->names[l->count]);
    snprintf(l->names[l->count], n, "%s/%s", folder, file);
    l->paths[l->count++] = path;
}

problem_list problem_list_read(const char *folder)
{
    problem_list l = {0, NULL, NULL};
    char *data = joined(env_or_fail("MCDYN_SHARED"), "data");
    char *dir_path = joined(data, folder);
    DIR *dir = opendir(dir_path);
    ck_assert_msg(dir, "cannot list %s", dir_path);
    for (struct dirent *e; (e = readdir(dir));)
        if (e->d_name[0] != '.') add_file(&l, dir_path, folder, e->d_name);
    closedir(dir);
    free(dir_path);
    free(data);
    ck_assert_msg(l.count > 0, "no problem files in the %s folder", folder);
    qsort(l.paths, l.count, sizeof(char *), by_name);
    qsort(l.names, l.count, sizeof(char *), by_name);
    return l;
}

void problem_list_free(problem_list *l)
{
    for (int i = 0; i < l->count; i++) {
        free(l->paths[i]);
        free(l->names[i]);
    }
    free(l->paths);
    free(l->names);
    l->count = 0;
}

const char *fixture_path(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/tests/solver_data/data/%s", env_or_fail("MCDYN_SOURCE"), name);
    return path;
}

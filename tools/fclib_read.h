/* Problem files in the tools and their tests: the names they have used for
 * the library's readers (include/mcdyn/problem_io.h). */
#ifndef MCDYN_TOOLS_FCLIB_READ_H
#define MCDYN_TOOLS_FCLIB_READ_H

#include "mcdyn/problem_io.h"

#include <string.h>

static inline mcd_status read_fclib_local(const char *path, mcd_problem_file *out, mcd_error *err)
{
    return mcd_problem_read_fclib(path, out, err);
}

static inline int is_fclib_path(const char *path)
{
    return mcd_problem_is_fclib_path(path);
}

static inline mcd_status read_problem_file(const char *path, mcd_problem_kind kind,
                                           mcd_problem_file *out, mcd_error *err)
{
    return mcd_problem_read_file(path, kind, out, err);
}

#endif

/* The shared problem files ($MCDYN_SHARED/data/{lcp,mlcp,fc3d}), listed at
 * run time so that a file added there is never silently skipped. */
#ifndef MCDYN_TESTS_PROBLEM_LIST_H
#define MCDYN_TESTS_PROBLEM_LIST_H

typedef struct problem_list {
    int count;
    char **paths; /* full paths, in name order */
    char **names; /* "lcp/lcp_CPS_1.dat": folder and file name */
} problem_list;

/* Every regular file of $MCDYN_SHARED/data/<folder>; fails the running
 * Check test if MCDYN_SHARED is unset or the folder is missing or empty. */
problem_list problem_list_read(const char *folder);
void problem_list_free(problem_list *l);

/* A fixture of this folder: $MCDYN_SOURCE/tests/solver_data/data/<name>
 * (a static buffer). */
const char *fixture_path(const char *name);

#endif

/* Runs a program and captures its exit code, standard output and error. */
#ifndef MCDYN_TESTS_RUN_COMMAND_H
#define MCDYN_TESTS_RUN_COMMAND_H

typedef struct command_result {
    int exit_code; /* -1 if the program did not exit normally */
    char *out;     /* standard output, NUL-terminated (owned) */
    char *err;     /* standard error, NUL-terminated (owned) */
} command_result;

/* Runs argv[0] (a path; argv NULL-terminated) with fork and execv, its
 * output going to temporary files. Returns 0, or -1 if it could not run. */
int run_command(char *const argv[], command_result *r);
void command_result_free(command_result *r);

#endif

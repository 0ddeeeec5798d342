/* Command-line argument helpers shared by the subcommands. */
#ifndef MCDYN_TOOLS_ARGS_H
#define MCDYN_TOOLS_ARGS_H

/* Parses a comma-separated list of finite numbers "0.1,2,-3e-2" into v
 * (capacity cap). Returns the count, or -1 (with a message in msg) when an
 * entry is empty or not a finite number, the list ends with a comma, or
 * there are more than cap entries. */
int args_parse_doubles(const char *text, double *v, int cap, char *msg, int msglen);

/* Parses the comma-separated vector option `option` (text, NULL: keep v)
 * into exactly n entries of v; `what` names n in the message ("nq").
 * Returns 0, or reports through args_fail(command, ...) and returns 1. */
int args_parse_vector(const char *command, const char *option, const char *text, const char *what,
                      int n, double *v);

/* The largest integer an option accepts. */
#define ARGS_INT_MAX 1000000000L

/* Parses one finite double / one int in [min, ARGS_INT_MAX]; the whole
 * text must be the number (no white space, no trailing characters; inf,
 * nan and out-of-range values are refused). Returns 0 on success, -1
 * otherwise (out untouched). */
int args_parse_double(const char *text, double *out);
int args_parse_int(const char *text, int min, int *out);

/* Parses "WxH" with both sizes ints in [min, max]; returns 0 or -1. */
int args_parse_size(const char *text, int min, int max, int *width, int *height);

/* 1 if arg is "--help" or "-h". */
int args_is_help(const char *arg);

#if defined(__GNUC__)
#define ARGS_PRINTF_LIKE __attribute__((format(printf, 2, 3)))
#else
#define ARGS_PRINTF_LIKE
/* Adds dir (the value of a --package-path option) to the directories
 * searched for package:// URIs: after those added before it, before those
 * already in ROS_PACKAGE_PATH. It goes through that variable, which the URDF
 * loader reads, so that it reaches robots loaded directly and through
 * scenarios alike. Returns 0, or reports through args_usage_error (a ':' in
 * dir, an empty dir) or args_fail and returns the exit code. */
int args_add_package_path(const char *command, const char *dir);

#endif

/* Prints "mcdyn COMMAND: message" on stderr and returns exit code 1. */
int args_fail(const char *command, const char *fmt, ...) ARGS_PRINTF_LIKE;

/* The same followed by a pointer to `mcdyn COMMAND --help`; returns exit
 * code 2 (bad usage). */
int args_usage_error(const char *command, const char *fmt, ...) ARGS_PRINTF_LIKE;

/* Adds dir (the value of a --package-path option) to the directories
 * searched for package:// URIs: after those added before it, before those
 * already in ROS_PACKAGE_PATH. It goes through that variable, which the URDF
 * loader reads, so that it reaches robots loaded directly and through
 * scenarios alike. Returns 0, or reports through args_usage_error (a ':' in
 * dir, an empty dir) or args_fail and returns the exit code. */
int args_add_package_path(const char *command, const char *dir);

#endif

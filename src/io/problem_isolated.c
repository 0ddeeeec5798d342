/* The FCLIB reader in a child process (include/mcdyn/problem_isolated.h):
 * the child reads and writes its result in the format of
 * src/io/problem_stream.h to a pipe; the parent reads the pipe to its end,
 * waits for the child and decodes. */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include "mcdyn/problem_isolated.h"

#include "problem_internal.h"
#include "problem_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Exit status of a child that could not write its whole result. */
#define CHILD_WRITE_FAILED 3
/* The pipe's buffer asked for: Linux's default largest for a user. */
#define PIPE_BYTES (1 << 20)

static int write_all(int fd, const unsigned char *bytes, size_t size)
{
    while (size > 0) {
        ssize_t k = write(fd, bytes, size);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        bytes += k;
        size -= (size_t)k;
    }
    return 0;
}

/* A crash in the reader must end the child by its signal, whatever
 * handlers the parent had, and leave no core file behind. */
static void child_defaults(void)
{
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE, SIGTERM};
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) signal(fatal[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
}

/* The child: reads path and writes the result to fd; never returns. */
static void child_read(const char *path, int fd)
{
    child_defaults();
    mcd_problem_file f;
    mcd_error e = {0};
    unsigned char *bytes = NULL, error_record[PROBLEM_STREAM_ERROR_BYTES];
    size_t size = 0;
    mcd_status s = mcd_problem_read_fclib(path, &f, &e);
    if (s == MCD_OK) s = problem_stream_encode_problem(&f, &bytes, &size, &e);
    if (s != MCD_OK) {
        size = problem_stream_encode_error(s, e.msg, error_record);
        bytes = error_record;
    }
    _exit(write_all(fd, bytes, size) == 0 ? 0 : CHILD_WRITE_FAILED);
}

/* Grows buf to the length the stream's head declares, once, so that a
 * large problem is not copied by repeated doubling; returns the capacity. */
static size_t size_for_declared(unsigned char **buf, size_t len, size_t cap)
{
    size_t want =
        problem_stream_declared_bytes(*buf, len) + 1; /* + 1: room to see a longer stream */
    unsigned char *b = want > cap ? realloc(*buf, want) : NULL;
    if (!b) return cap;
    *buf = b;
    return want;
}

/* Reads fd to its end into *bytes (malloc'd, *size bytes), at most
 * problem_stream_max_bytes(). */
static mcd_status read_all(int fd, const char *path, unsigned char **bytes, size_t *size,
                           mcd_error *err)
{
    size_t cap = 0, len = 0, limit = problem_stream_max_bytes();
    unsigned char *buf = NULL;
    int sized = 0;
    for (;;) {
        if (len == cap) {
            if (cap > limit) {
                free(buf);
                return mcd_fail(err, MCD_ERR_PARSE, "%s: the FCLIB reader's result is too long",
                                path);
            }
            size_t grown = cap ? 2 * cap : 65536;
            if (grown > limit) grown = limit + 1;
            unsigned char *b = realloc(buf, grown);
            if (!b) {
                free(buf);
                return mcd_fail(err, MCD_ERR_NOMEM, "%s: no memory for the FCLIB reader's result",
                                path);
            }
            buf = b;
            cap = grown;
        }
        ssize_t k = read(fd, buf + len, cap - len);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            int read_errno = errno;
            free(buf);
            return mcd_fail(err, MCD_ERR_IO, "%s: reading the FCLIB reader's result: %s", path,
                            strerror(read_errno));
        }
        if (k == 0) break;
        len += (size_t)k;
        if (!sized && len >= PROBLEM_STREAM_HEAD_BYTES) {
            cap = size_for_declared(&buf, len, cap);
            sized = 1;
        }
    }
    *bytes = buf;
    *size = len;
    return MCD_OK;
}

static int wait_child(pid_t pid, int *status)
{
    for (;;) {
        if (waitpid(pid, status, 0) == pid) return 0;
        if (errno != EINTR) return -1;
    }
}

/* The error for a child that did not end with exit status 0. */
static mcd_status child_failed(int status, const char *path, mcd_error *err)
{
    const char *trust = "FCLIB files must come from a trusted source (docs/reliability.md)";
    if (WIFSIGNALED(status))
        return mcd_fail(err, MCD_ERR_PARSE,
                        "%s: the FCLIB reader (libhdf5) crashed on this file (signal %d); %s", path,
                        WTERMSIG(status), trust);
    if (WEXITSTATUS(status) == CHILD_WRITE_FAILED)
        return mcd_fail(err, MCD_ERR_IO, "%s: the FCLIB reader could not pass on its result", path);
    return mcd_fail(err, MCD_ERR_PARSE,
                    "%s: the FCLIB reader (libhdf5) crashed on this file (exit status %d); %s",
                    path, WEXITSTATUS(status), trust);
}

/* The parent's side: the child's result from fd, then its end. */
static mcd_status parent_collect(pid_t pid, int fd, const char *path, mcd_problem_file *out,
                                 mcd_error *err)
{
    unsigned char *bytes = NULL;
    size_t size = 0;
    mcd_status s = read_all(fd, path, &bytes, &size, err);
    close(fd);
    if (s != MCD_OK) kill(pid, SIGKILL);
    int status = 0;
    if (wait_child(pid, &status) != 0) {
        int wait_errno = errno;
        free(bytes);
        return mcd_fail(err, MCD_ERR_IO, "%s: waiting for the FCLIB reader: %s", path,
                        strerror(wait_errno));
    }
    if (s == MCD_OK && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        s = child_failed(status, path, err);
    if (s == MCD_OK) s = problem_stream_decode(bytes, size, path, out, err);
    free(bytes);
    return s;
}

mcd_status mcd_problem_read_fclib_isolated(const char *path, mcd_problem_file *out, mcd_error *err)
{
    if (!path || !out)
        return mcd_fail(err, MCD_ERR_ARG, "mcd_problem_read_fclib_isolated: NULL argument");
    memset(out, 0, sizeof *out);
    int fds[2];
    if (pipe(fds) != 0)
        return mcd_fail(err, MCD_ERR_IO, "%s: no pipe for the FCLIB reader: %s", path,
                        strerror(errno));
    /* Other children the caller starts later must not hold the pipe open. */
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
#ifdef F_SETPIPE_SZ
    /* Linux: a larger pipe, fewer switches between writer and reader for a
     * large problem (best effort: the default size works too). */
    fcntl(fds[1], F_SETPIPE_SZ, PIPE_BYTES);
#endif
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        child_read(path, fds[1]);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return mcd_fail(err, MCD_ERR_IO, "%s: no process for the FCLIB reader: %s", path,
                        strerror(errno));
    }
    return parent_collect(pid, fds[0], path, out, err);
}

mcd_status mcd_problem_read_file_isolated(const char *path, mcd_problem_kind kind,
                                          mcd_problem_file *out, mcd_error *err)
{
    return problem_read_file_with("mcd_problem_read_file_isolated", path, kind, out,
                                  mcd_problem_read_fclib_isolated, err);
}

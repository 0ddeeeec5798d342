/* Runs a program and captures its output (run_command.h). */
#include "run_command.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* An unlinked temporary file, open for reading and writing. */
static FILE *temporary_file(void)
{
    const char *dir = getenv("TMPDIR");
    char name[4096];
    snprintf(name, sizeof name, "%s/mcdyn_cli_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(name);
    if (fd < 0) return NULL;
    unlink(name);
    FILE *f = fdopen(fd, "w+");
    if (!f) close(fd);
    return f;
}

/* The whole content of f, NUL-terminated (NULL on failure). */
static char *read_all(FILE *f)
{
    if (fseek(f, 0, SEEK_END) != 0) return NULL;
    long n = ftell(f);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!text) return NULL;
    rewind(f);
    size_t got = fread(text, 1, (size_t)n, f);
    text[got] = '\0';
    return text;
}

static int wait_exit_code(pid_t pid)
{
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

int run_command(char *const argv[], command_result *r)
{
    r->out = r->err = NULL;
    r->exit_code = -1;
    FILE *out = temporary_file(), *err = temporary_file();
    pid_t pid = out && err ? fork() : -1;
    if (pid == 0) {
        dup2(fileno(out), STDOUT_FILENO);
        dup2(fileno(err), STDERR_FILENO);
        execv(argv[0], argv);
        _exit(127);
    }
    if (pid > 0) {
        r->exit_code = wait_exit_code(pid);
        r->out = read_all(out);
        r->err = read_all(err);
    }
    if (out) fclose(out);
    if (err) fclose(err);
    return pid > 0 && r->out && r->err ? 0 : -1;
}

void command_result_free(command_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

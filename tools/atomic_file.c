/* All-or-nothing output files (tools/atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "<dir>/.<base>.XXXXXX" for path (malloc'd; NULL when out of memory). */
static char *temporary_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    size_t len = strlen(path) + sizeof "/..XXXXXX";
    char *tmp = malloc(len);
    if (tmp) snprintf(tmp, len, "%.*s.%s.XXXXXX", (int)dir, path, path + dir);
    return tmp;
}

static int fail(char *msg, size_t msglen, const char *path, int error)
{
    snprintf(msg, msglen, "cannot write %s: %s", path, strerror(error));
    return -1;
}

static int open_in_place(atomic_file *a, char *msg, size_t msglen)
{
    a->f = fopen(a->path, "wb");
    return a->f ? 0 : fail(msg, msglen, a->path, errno);
}

int atomic_file_open(atomic_file *a, const char *path, char *msg, size_t msglen)
{
    memset(a, 0, sizeof *a);
    a->path = path;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) return open_in_place(a, msg, msglen);
    if (!(a->tmp = temporary_name(path))) return fail(msg, msglen, path, ENOMEM);
    int fd = mkstemp(a->tmp);
    if (fd < 0) {
        int error = errno;
        free(a->tmp), a->tmp = NULL;
        return fail(msg, msglen, path, error);
    }
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || !(a->f = fdopen(fd, "wb"))) {
        int error = errno;
        close(fd);
        atomic_file_discard(a);
        return fail(msg, msglen, path, error);
    }
    return 0;
}

int atomic_file_commit(atomic_file *a, char *msg, size_t msglen)
{
    int error = 0;
    errno = 0;
    if (fflush(a->f) != 0 || ferror(a->f)) error = errno ? errno : EIO;
    if (!error && a->tmp && fsync(fileno(a->f)) != 0) error = errno;
    if (fclose(a->f) != 0 && !error) error = errno ? errno : EIO;
    a->f = NULL;
    if (!error && a->tmp && rename(a->tmp, a->path) != 0) error = errno;
    if (error) atomic_file_discard(a);
    free(a->tmp), a->tmp = NULL;
    return error ? fail(msg, msglen, a->path, error) : 0;
}

void atomic_file_discard(atomic_file *a)
{
    if (a->f) fclose(a->f), a->f = NULL;
    if (a->tmp) unlink(a->tmp), free(a->tmp), a->tmp = NULL;
}

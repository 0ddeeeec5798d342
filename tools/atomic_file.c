/* All-or-nothing output files (tools/atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NAME_ATTEMPTS 100 /* names tried before giving up, as mkstemp */

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

/* A fresh 64-bit value per call, from every thread: the clock, the process
 * and a shared counter mixed by splitmix64 (Steele et al. 2014). */
static uint64_t name_bits(void)
{
    static atomic_uint_fast64_t counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t z = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 16);
    z += 0x9e3779b97f4a7c15u * (atomic_fetch_add(&counter, 1) + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Creates the temporary file tmp ("...XXXXXX", the X's replaced) with mode
 * 0666, so that the kernel applies the umask (and a directory's default
 * ACL) as for fopen: the umask is never read, which would mean setting it
 * (umask(2) has no read-only form), a race with every other thread
 * creating files. Returns the descriptor, or -1 with errno. */
static int create_temporary(char *tmp)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    char *x = tmp + strlen(tmp) - 6;
    for (int attempt = 0; attempt < NAME_ATTEMPTS; attempt++) {
        uint64_t bits = name_bits();
        for (int i = 0; i < 6; i++, bits /= 62) x[i] = letters[bits % 62];
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

static int fail(char *msg, size_t msglen, const char *path, int error)
{
    char reason[128];
    if (strerror_r(error, reason, sizeof reason) != 0) /* POSIX form: thread-safe */
        snprintf(reason, sizeof reason, "error %d", error);
    snprintf(msg, msglen, "cannot write %s: %s", path, reason);
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
    int fd = create_temporary(a->tmp);
    if (fd < 0) {
        int error = errno;
        free(a->tmp), a->tmp = NULL;
        return fail(msg, msglen, path, error);
    }
    if (!(a->f = fdopen(fd, "wb"))) {
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

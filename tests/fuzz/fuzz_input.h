/* Helpers shared by the libFuzzer targets (tools/fuzz.sh): the input as a
 * NUL-terminated string or as a temporary file, since the readers take
 * one or the other. */
#ifndef MCDYN_TESTS_FUZZ_INPUT_H
#define MCDYN_TESTS_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A malloc'd NUL-terminated copy of the input (NULL when out of memory). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) return NULL;
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* Writes the input to a new file mcdyn-fuzz-XXXXXX<suffix> in /dev/shm
 * (memory: no disk write per input), else /tmp, whose name is put in path
 * (at least 64 bytes); returns 0, or -1. The caller unlinks it. */
static inline int fuzz_file(const uint8_t *data, size_t size, const char *suffix, char *path)
{
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(path, 64, "%s/mcdyn-fuzz-XXXXXX%s", dir, suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0) return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) break;
        done += (size_t)n;
    }
    close(fd);
    if (done == size) return 0;
    unlink(path);
    return -1;
}

#endif

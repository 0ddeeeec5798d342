/* A read FCLIB problem, or the reader's error, as bytes: the private format
 * in which the isolated reader's child process hands its result to the
 * parent through a pipe (src/io/problem_isolated.c; not installed). Both
 * ends are the same program on the same machine, so numbers are stored in
 * native byte order, every field at a fixed place:
 *
 *   magic    8 bytes  "mcdynPS1"
 *   record   int32    1 problem, 2 error
 *   problem: dimension, nc, nb (int32 each), then W ((nb+3nc)^2 doubles,
 *            row-major), q (nb+3nc doubles), mu (nc doubles)
 *   error:   status (int32, a mcd_status other than MCD_OK), length of the
 *            message (int32, < MCD_ERROR_LEN), the message (no NUL)
 *
 * and nothing after. The decoder trusts none of it: every count and length
 * is checked against the bytes present before anything is allocated, and
 * the problem against mcd_fc3d_check. */
#ifndef MCDYN_IO_PROBLEM_STREAM_H
#define MCDYN_IO_PROBLEM_STREAM_H

#include "mcdyn/problem_io.h"

#include <stddef.h>

/* Largest unknown count a stream may hold: the FCLIB reader's limit. */
#define PROBLEM_STREAM_MAX_UNKNOWNS 10000
/* Bytes of the largest error record. */
#define PROBLEM_STREAM_ERROR_BYTES (8 + 3 * 4 + MCD_ERROR_LEN)

/* Bytes of the largest stream a decoder accepts (a problem of
 * PROBLEM_STREAM_MAX_UNKNOWNS unknowns, about 800 MB). */
size_t problem_stream_max_bytes(void);

/* The FC3D problem f as a stream in *bytes (malloc'd, *size bytes; the
 * caller frees it). MCD_ERR_ARG if f is not an FC3D problem within the
 * limits, MCD_ERR_NOMEM if the buffer cannot be had. */
mcd_status problem_stream_encode_problem(const mcd_problem_file *f, unsigned char **bytes,
                                         size_t *size, mcd_error *err);

/* An error record of status s (not MCD_OK) and msg (cut to MCD_ERROR_LEN - 1
 * bytes) into buf, without allocating; returns its size in bytes. */
size_t problem_stream_encode_error(mcd_status s, const char *msg,
                                   unsigned char buf[PROBLEM_STREAM_ERROR_BYTES]);

/* Bytes at the head of a stream that declare its length. */
#define PROBLEM_STREAM_HEAD_BYTES 24

/* The length that a stream's first n bytes declare for the whole stream
 * (n >= PROBLEM_STREAM_HEAD_BYTES, or all the stream has), or 0 if they
 * declare none within problem_stream_max_bytes(): a hint to size a reader's
 * buffer once; problem_stream_decode still checks everything. */
size_t problem_stream_declared_bytes(const unsigned char *head, size_t n);

/* Decodes size bytes into out (zeroed first). A problem record gives MCD_OK
 * and an FC3D problem; an error record gives its status and message; any
 * other stream (short, long, bad magic, bad record, counts out of range,
 * non-finite entries, mu < 0) gives MCD_ERR_PARSE (MCD_ERR_NONFINITE for
 * non-finite entries) with a message beginning with label. On failure out
 * holds nothing to free. */
mcd_status problem_stream_decode(const unsigned char *bytes, size_t size, const char *label,
                                 mcd_problem_file *out, mcd_error *err);

#endif

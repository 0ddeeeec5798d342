/* A read FCLIB problem or the reader's error as bytes, and back
 * (src/io/problem_stream.h describes the format). */
#include "problem_stream.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char stream_magic[8] = {'m', 'c', 'd', 'y', 'n', 'P', 'S', '1'};

enum { RECORD_PROBLEM = 1, RECORD_ERROR = 2 };

#define HEADER_BYTES  (sizeof stream_magic + 4)
#define PROBLEM_SIZES 3 /* dimension, nc, nb */
_Static_assert(PROBLEM_STREAM_HEAD_BYTES == HEADER_BYTES + PROBLEM_SIZES * 4,
               "the head declaring a stream's length is its header and sizes");

/* Doubles of a problem with n unknowns and nc contacts: W, q, mu. n is at
 * most PROBLEM_STREAM_MAX_UNKNOWNS, so the products cannot overflow. */
static size_t problem_doubles(size_t n, size_t nc)
{
    return n * n + n + nc;
}

size_t problem_stream_max_bytes(void)
{
    size_t n = PROBLEM_STREAM_MAX_UNKNOWNS;
    return HEADER_BYTES + PROBLEM_SIZES * 4 + sizeof(double) * problem_doubles(n, n / 3);
}

/* A cursor writing or reading fixed-size fields. */
typedef struct cursor {
    unsigned char *w;       /* writing */
    const unsigned char *r; /* reading */
    size_t left;            /* bytes left to read */
} cursor;

static void put(cursor *c, const void *x, size_t bytes)
{
    memcpy(c->w, x, bytes);
    c->w += bytes;
}

static void put_i32(cursor *c, int32_t v)
{
    put(c, &v, sizeof v);
}

/* 0 if bytes were left to take, -1 (nothing taken) otherwise. */
static int take(cursor *c, void *x, size_t bytes)
{
    if (c->left < bytes) return -1;
    memcpy(x, c->r, bytes);
    c->r += bytes;
    c->left -= bytes;
    return 0;
}

static int take_i32(cursor *c, int32_t *v)
{
    return take(c, v, sizeof *v);
}

static void put_header(cursor *c, int32_t record)
{
    put(c, stream_magic, sizeof stream_magic);
    put_i32(c, record);
}

mcd_status problem_stream_encode_problem(const mcd_problem_file *f, unsigned char **bytes,
                                         size_t *size, mcd_error *err)
{
    *bytes = NULL;
    *size = 0;
    const mcd_fc3d *p = &f->fc3d;
    if (f->kind != MCD_PROBLEM_FC3D || p->nc < 0 || p->nb < 0 ||
        mcd_fc3d_size(p) > PROBLEM_STREAM_MAX_UNKNOWNS)
        return mcd_fail(err, MCD_ERR_ARG, "problem stream: not an FC3D problem within the limits");
    size_t n = (size_t)mcd_fc3d_size(p), nc = (size_t)p->nc;
    size_t total = HEADER_BYTES + PROBLEM_SIZES * 4 + sizeof(double) * problem_doubles(n, nc);
    cursor c = {malloc(total), NULL, 0};
    if (!c.w) return mcd_fail(err, MCD_ERR_NOMEM, "problem stream: no memory for %zu bytes", total);
    *bytes = c.w;
    *size = total;
    put_header(&c, RECORD_PROBLEM);
    put_i32(&c, f->dimension);
    put_i32(&c, p->nc);
    put_i32(&c, p->nb);
    put(&c, p->W, sizeof(double) * n * n);
    put(&c, p->q, sizeof(double) * n);
    put(&c, p->mu, sizeof(double) * nc);
    return MCD_OK;
}

size_t problem_stream_encode_error(mcd_status s, const char *msg,
                                   unsigned char buf[PROBLEM_STREAM_ERROR_BYTES])
{
    size_t len = msg ? strnlen(msg, MCD_ERROR_LEN - 1) : 0;
    cursor c = {buf, NULL, 0};
    put_header(&c, RECORD_ERROR);
    put_i32(&c, (int32_t)s);
    put_i32(&c, (int32_t)len);
    if (len) put(&c, msg, len);
    return (size_t)(c.w - buf);
}

size_t problem_stream_declared_bytes(const unsigned char *head, size_t n)
{
    cursor c = {NULL, head, head ? n : 0};
    char magic[sizeof stream_magic];
    int32_t record, a, b, d;
    if (take(&c, magic, sizeof magic) || memcmp(magic, stream_magic, sizeof magic) != 0 ||
        take_i32(&c, &record) || take_i32(&c, &a) || take_i32(&c, &b))
        return 0;
    if (record == RECORD_ERROR)
        return a > MCD_OK && a < MCD_STATUS_COUNT && b >= 0 && b < MCD_ERROR_LEN
                   ? HEADER_BYTES + 2 * 4 + (size_t)b
                   : 0;
    /* a problem: dimension a, nc b, nb d */
    if (record != RECORD_PROBLEM || take_i32(&c, &d) || b < 0 || d < 0 ||
        b > PROBLEM_STREAM_MAX_UNKNOWNS / 3 || d > PROBLEM_STREAM_MAX_UNKNOWNS - 3 * b)
        return 0;
    size_t unknowns = (size_t)d + 3 * (size_t)b;
    return HEADER_BYTES + PROBLEM_SIZES * 4 + sizeof(double) * problem_doubles(unknowns, (size_t)b);
}

static mcd_status damaged(mcd_error *err, const char *label, const char *what)
{
    return mcd_fail(err, MCD_ERR_PARSE, "%s: the FCLIB reader's result is damaged (%s)", label,
                    what);
}

static mcd_status decode_error(cursor *c, const char *label, mcd_error *err)
{
    int32_t status, len;
    if (take_i32(c, &status) || take_i32(c, &len)) return damaged(err, label, "truncated error");
    if (status <= MCD_OK || status >= MCD_STATUS_COUNT)
        return damaged(err, label, "unknown status in an error");
    if (len < 0 || len >= MCD_ERROR_LEN || (size_t)len != c->left)
        return damaged(err, label, "wrong error message length");
    char msg[MCD_ERROR_LEN];
    take(c, msg, (size_t)len);
    msg[len] = '\0';
    if (strlen(msg) != (size_t)len) return damaged(err, label, "NUL inside an error message");
    return mcd_fail(err, (mcd_status)status, "%s", msg);
}

static mcd_status decode_problem(cursor *c, const char *label, mcd_problem_file *out,
                                 mcd_error *err)
{
    int32_t dimension, nc, nb;
    if (take_i32(c, &dimension) || take_i32(c, &nc) || take_i32(c, &nb))
        return damaged(err, label, "truncated sizes");
    if (dimension != 2 && dimension != 3) return damaged(err, label, "dimension not 2 or 3");
    if (nc < 0 || nb < 0 || nc > PROBLEM_STREAM_MAX_UNKNOWNS / 3 ||
        nb > PROBLEM_STREAM_MAX_UNKNOWNS - 3 * nc)
        return damaged(err, label, "sizes out of range");
    size_t n = (size_t)nb + 3 * (size_t)nc;
    if (c->left != sizeof(double) * problem_doubles(n, (size_t)nc))
        return damaged(err, label, "length does not match the sizes");
    mcd_status s = mcd_fc3d_alloc(&out->fc3d, nc, nb, err);
    if (s != MCD_OK) return s;
    out->kind = MCD_PROBLEM_FC3D;
    out->dimension = dimension;
    take(c, out->fc3d.W, sizeof(double) * n * n);
    take(c, out->fc3d.q, sizeof(double) * n);
    take(c, out->fc3d.mu, sizeof(double) * (size_t)nc);
    mcd_error why = {0};
    s = mcd_fc3d_check(&out->fc3d, &why);
    if (s != MCD_OK) {
        mcd_problem_file_free(out);
        return mcd_fail(err, s == MCD_ERR_NONFINITE ? s : MCD_ERR_PARSE,
                        "%s: the FCLIB reader's result is damaged (%.400s)", label, why.msg);
    }
    return MCD_OK;
}

mcd_status problem_stream_decode(const unsigned char *bytes, size_t size, const char *label,
                                 mcd_problem_file *out, mcd_error *err)
{
    memset(out, 0, sizeof *out);
    cursor c = {NULL, bytes, bytes ? size : 0};
    char magic[sizeof stream_magic];
    int32_t record;
    if (take(&c, magic, sizeof magic) || take_i32(&c, &record))
        return damaged(err, label, "truncated header");
    if (memcmp(magic, stream_magic, sizeof magic) != 0) return damaged(err, label, "bad magic");
    if (record == RECORD_PROBLEM) return decode_problem(&c, label, out, err);
    if (record == RECORD_ERROR) return decode_error(&c, label, err);
    return damaged(err, label, "unknown record");
}

/* Tests of the isolated FCLIB reader's result format (src/io/problem_stream.c)
 * on crafted byte strings: a problem and an error survive the round trip
 * bit for bit; every shorter prefix, a longer stream, a wrong magic or
 * record, counts out of range or disagreeing with the length, non-finite
 * entries, a negative mu, and bad error records are refused with a
 * message, never read past the bytes given (the sanitizer build checks
 * that part); the length a stream's head declares is its length, and 0
 * for a head the decoder would refuse. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "io/problem_stream.h"

/* Offsets of the fields (src/io/problem_stream.h). */
enum { AT_RECORD = 8, AT_DIMENSION = 12, AT_NC = 16, AT_NB = 20, AT_W = 24 };
enum { AT_STATUS = 12, AT_LENGTH = 16, AT_MESSAGE = 20 };

/* One contact and one bilateral row: n = 4, W 4 x 4 with distinct entries,
 * so that a swapped or shifted entry shows. */
static mcd_problem_file small_problem(void)
{
    mcd_problem_file f = {0};
    ck_assert_int_eq(mcd_fc3d_alloc(&f.fc3d, 1, 1, NULL), MCD_OK);
    f.kind = MCD_PROBLEM_FC3D;
    f.dimension = 3;
    for (int i = 0; i < 16; i++) f.fc3d.W[i] = 1.0 + i / 7.0;
    for (int i = 0; i < 4; i++) f.fc3d.q[i] = -0.25 * i;
    f.fc3d.mu[0] = 0.6;
    return f;
}

static unsigned char *encode(const mcd_problem_file *f, size_t *size)
{
    unsigned char *bytes;
    mcd_error err = {0};
    ck_assert_msg(problem_stream_encode_problem(f, &bytes, size, &err) == MCD_OK, "%s", err.msg);
    return bytes;
}

static void put_i32(unsigned char *bytes, size_t at, int32_t v)
{
    memcpy(bytes + at, &v, sizeof v);
}

static void put_double(unsigned char *bytes, size_t at, double v)
{
    memcpy(bytes + at, &v, sizeof v);
}

/* Decoding bytes must fail with status and a message containing what. */
static void assert_refused(const unsigned char *bytes, size_t size, mcd_status status,
                           const char *what)
{
    mcd_problem_file out;
    mcd_error err = {0};
    mcd_status s = problem_stream_decode(bytes, size, "p.hdf5", &out, &err);
    ck_assert_msg(s == status, "status %d, expected %d (%s)", s, status, err.msg);
    ck_assert_msg(strstr(err.msg, "p.hdf5: ") == err.msg && strstr(err.msg, what), "message: %s",
                  err.msg);
    ck_assert_ptr_null(out.fc3d.W);
}

START_TEST(problem_round_trip_is_bit_exact)
{
    mcd_problem_file f = small_problem(), g;
    size_t size;
    unsigned char *bytes = encode(&f, &size);
    ck_assert_uint_eq(size, AT_W + sizeof(double) * (16 + 4 + 1));
    mcd_error err = {0};
    ck_assert_msg(problem_stream_decode(bytes, size, "p", &g, &err) == MCD_OK, "%s", err.msg);
    ck_assert_int_eq(g.kind, MCD_PROBLEM_FC3D);
    ck_assert_int_eq(g.dimension, 3);
    ck_assert_int_eq(g.fc3d.nc, 1);
    ck_assert_int_eq(g.fc3d.nb, 1);
    ck_assert_mem_eq(g.fc3d.W, f.fc3d.W, sizeof(double) * 16);
    ck_assert_mem_eq(g.fc3d.q, f.fc3d.q, sizeof(double) * 4);
    ck_assert_mem_eq(g.fc3d.mu, f.fc3d.mu, sizeof(double));
    free(bytes);
    mcd_problem_file_free(&f);
    mcd_problem_file_free(&g);
}
END_TEST

START_TEST(every_prefix_and_a_longer_stream_are_refused)
{
    mcd_problem_file f = small_problem();
    size_t size;
    unsigned char *bytes = encode(&f, &size);
    /* Each prefix in a buffer of exactly its size, so that the sanitizer
     * build sees any read past it. */
    for (size_t k = 0; k < size; k++) {
        unsigned char *prefix = malloc(k ? k : 1);
        memcpy(prefix, bytes, k);
        assert_refused(k ? prefix : NULL, k, MCD_ERR_PARSE, "damaged");
        free(prefix);
    }
    unsigned char *longer = malloc(size + 1);
    memcpy(longer, bytes, size);
    longer[size] = 0;
    assert_refused(longer, size + 1, MCD_ERR_PARSE, "length does not match");
    free(longer);
    free(bytes);
    mcd_problem_file_free(&f);
}
END_TEST

START_TEST(bad_header_and_sizes_are_refused)
{
    mcd_problem_file f = small_problem();
    size_t size;
    unsigned char *bytes = encode(&f, &size), *bad = malloc(size);
    struct {
        size_t at;
        int32_t value;
        const char *what;
    } cases[] = {
        {AT_RECORD, 3, "unknown record"},
        {AT_RECORD, 0, "unknown record"},
        {AT_DIMENSION, 4, "dimension"},
        {AT_NC, -1, "sizes out of range"},
        {AT_NB, -1, "sizes out of range"},
        {AT_NC, 3334, "sizes out of range"},      /* 3 nc > 10000 */
        {AT_NB, 9998, "sizes out of range"},      /* nb + 3 nc > 10000 */
        {AT_NC, INT32_MAX, "sizes out of range"}, /* 3 nc overflows int */
        {AT_NC, 3333, "length does not match"},   /* in range, 800 MB short */
        {AT_NB, 0, "length does not match"},      /* one unknown fewer */
        {AT_NC, 2, "length does not match"},      /* three more */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memcpy(bad, bytes, size);
        put_i32(bad, cases[c].at, cases[c].value);
        assert_refused(bad, size, MCD_ERR_PARSE, cases[c].what);
    }
    memcpy(bad, bytes, size);
    bad[3] ^= 1;
    assert_refused(bad, size, MCD_ERR_PARSE, "bad magic");
    free(bad);
    free(bytes);
    mcd_problem_file_free(&f);
}
END_TEST

START_TEST(bad_entries_are_refused)
{
    mcd_problem_file f = small_problem();
    size_t size;
    unsigned char *bytes = encode(&f, &size), *bad = malloc(size);
    size_t at_q = AT_W + 16 * sizeof(double), at_mu = at_q + 4 * sizeof(double);
    memcpy(bad, bytes, size);
    put_double(bad, AT_W + 5 * sizeof(double), NAN);
    assert_refused(bad, size, MCD_ERR_NONFINITE, "damaged");
    memcpy(bad, bytes, size);
    put_double(bad, at_q + 3 * sizeof(double), INFINITY);
    assert_refused(bad, size, MCD_ERR_NONFINITE, "damaged");
    memcpy(bad, bytes, size);
    put_double(bad, at_mu, -0.5);
    assert_refused(bad, size, MCD_ERR_PARSE, "damaged");
    free(bad);
    free(bytes);
    mcd_problem_file_free(&f);
}
END_TEST

START_TEST(error_round_trip_gives_status_and_message)
{
    unsigned char buf[PROBLEM_STREAM_ERROR_BYTES];
    const char *msg = "p.hdf5: /fclib_local/W/p has 9 entries, expected 7";
    size_t size = problem_stream_encode_error(MCD_ERR_PARSE, msg, buf);
    ck_assert_uint_eq(size, AT_MESSAGE + strlen(msg));
    mcd_problem_file out;
    mcd_error err = {0};
    ck_assert_int_eq(problem_stream_decode(buf, size, "other", &out, &err), MCD_ERR_PARSE);
    ck_assert_str_eq(err.msg, msg);
    /* A message of MCD_ERROR_LEN characters or more is cut to fit. */
    char longest[2 * MCD_ERROR_LEN];
    memset(longest, 'x', sizeof longest - 1);
    longest[sizeof longest - 1] = '\0';
    size = problem_stream_encode_error(MCD_ERR_IO, longest, buf);
    ck_assert_uint_eq(size, PROBLEM_STREAM_ERROR_BYTES - 1);
    ck_assert_int_eq(problem_stream_decode(buf, size, "other", &out, &err), MCD_ERR_IO);
    ck_assert_uint_eq(strlen(err.msg), MCD_ERROR_LEN - 1);
}
END_TEST

START_TEST(bad_error_records_are_refused)
{
    unsigned char buf[PROBLEM_STREAM_ERROR_BYTES], bad[PROBLEM_STREAM_ERROR_BYTES];
    size_t size = problem_stream_encode_error(MCD_ERR_IO, "p.hdf5: cannot open", buf);
    struct {
        size_t at;
        int32_t value;
        const char *what;
    } cases[] = {
        {AT_STATUS, MCD_OK, "unknown status"},
        {AT_STATUS, MCD_STATUS_COUNT, "unknown status"},
        {AT_STATUS, -3, "unknown status"},
        {AT_LENGTH, -1, "message length"},
        {AT_LENGTH, MCD_ERROR_LEN, "message length"},
        {AT_LENGTH, 3, "message length"}, /* shorter than the bytes left */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memcpy(bad, buf, size);
        put_i32(bad, cases[c].at, cases[c].value);
        assert_refused(bad, size, MCD_ERR_PARSE, cases[c].what);
    }
    memcpy(bad, buf, size);
    bad[AT_MESSAGE + 2] = '\0';
    assert_refused(bad, size, MCD_ERR_PARSE, "NUL inside");
    assert_refused(buf, AT_LENGTH + 2, MCD_ERR_PARSE, "truncated error");
}
END_TEST

START_TEST(encoder_refuses_what_it_cannot_carry)
{
    mcd_problem_file f = small_problem();
    unsigned char *bytes;
    size_t size;
    f.kind = MCD_PROBLEM_MLCP;
    ck_assert_int_eq(problem_stream_encode_problem(&f, &bytes, &size, NULL), MCD_ERR_ARG);
    ck_assert_ptr_null(bytes);
    f.kind = MCD_PROBLEM_FC3D;
    f.fc3d.nb = PROBLEM_STREAM_MAX_UNKNOWNS;
    ck_assert_int_eq(problem_stream_encode_problem(&f, &bytes, &size, NULL), MCD_ERR_ARG);
    f.fc3d.nb = 1;
    mcd_problem_file_free(&f);
}
END_TEST

START_TEST(declared_length_is_a_bounded_hint)
{
    mcd_problem_file f = small_problem();
    size_t size;
    unsigned char *bytes = encode(&f, &size), err_buf[PROBLEM_STREAM_ERROR_BYTES];
    ck_assert_uint_eq(problem_stream_declared_bytes(bytes, size), size);
    ck_assert_uint_eq(problem_stream_declared_bytes(bytes, PROBLEM_STREAM_HEAD_BYTES), size);
    ck_assert_uint_eq(problem_stream_declared_bytes(bytes, PROBLEM_STREAM_HEAD_BYTES - 1), 0);
    ck_assert_uint_eq(problem_stream_declared_bytes(NULL, 0), 0);
    /* The largest sizes in range declare the largest stream, no more. */
    put_i32(bytes, AT_NC, 3333);
    ck_assert_uint_eq(problem_stream_declared_bytes(bytes, size), problem_stream_max_bytes());
    put_i32(bytes, AT_NC, 3334);
    ck_assert_uint_eq(problem_stream_declared_bytes(bytes, size), 0);
    put_i32(bytes, AT_NC, 1);
    bytes[0] ^= 1;
    ck_assert_uint_eq(problem_stream_declared_bytes(bytes, size), 0);
    size_t n = problem_stream_encode_error(MCD_ERR_IO, "p.hdf5: cannot open", err_buf);
    ck_assert_uint_eq(problem_stream_declared_bytes(err_buf, n), n);
    put_i32(err_buf, AT_LENGTH, MCD_ERROR_LEN);
    ck_assert_uint_eq(problem_stream_declared_bytes(err_buf, n), 0);
    free(bytes);
    mcd_problem_file_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("problem-stream");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, problem_round_trip_is_bit_exact);
    tcase_add_test(tc, every_prefix_and_a_longer_stream_are_refused);
    tcase_add_test(tc, bad_header_and_sizes_are_refused);
    tcase_add_test(tc, bad_entries_are_refused);
    tcase_add_test(tc, error_round_trip_gives_status_and_message);
    tcase_add_test(tc, bad_error_records_are_refused);
    tcase_add_test(tc, encoder_refuses_what_it_cannot_carry);
    tcase_add_test(tc, declared_length_is_a_bounded_hint);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

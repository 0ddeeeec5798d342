/* libFuzzer target: the isolated FCLIB reader's decoder
 * (src/io/problem_stream.c), the one place where mcdyn parses the bytes a
 * child process sends (include/mcdyn/problem_isolated.h). Besides never
 * crashing, whatever it accepts must encode back to the same bytes: a
 * problem record re-encoded from the decoded problem, an error record from
 * the decoded status and message; and the length its head declares must
 * be its length, and never more than the largest stream. A difference
 * aborts. */
#include "io/problem_stream.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void assert_problem_round_trip(const mcd_problem_file *f, const uint8_t *data, size_t size)
{
    unsigned char *bytes;
    size_t n;
    if (problem_stream_encode_problem(f, &bytes, &n, NULL) != MCD_OK) abort();
    if (n != size || memcmp(bytes, data, size) != 0) abort();
    free(bytes);
}

static void assert_error_round_trip(const mcd_error *err, const uint8_t *data, size_t size)
{
    unsigned char bytes[PROBLEM_STREAM_ERROR_BYTES];
    size_t n = problem_stream_encode_error(err->status, err->msg, bytes);
    if (n != size || memcmp(bytes, data, size) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mcd_problem_file f;
    mcd_error err = {0};
    size_t declared = problem_stream_declared_bytes(data, size);
    if (declared > problem_stream_max_bytes()) abort();
    mcd_status s = problem_stream_decode(data, size, "fuzz", &f, &err);
    if (s == MCD_OK) {
        if (declared != size) abort();
        assert_problem_round_trip(&f, data, size);
        mcd_problem_file_free(&f);
    } else if (!strstr(err.msg, "fuzz: the FCLIB reader's result is damaged")) {
        assert_error_round_trip(&err, data, size);
    }
    return 0;
}

/* The CSV's number formatter (src/io/number_format.h): every double comes
 * back bit for bit through strtod, and its text parses to the same double as
 * printf's %.17g (which glibc rounds correctly) — on millions of random bit
 * patterns (every binade, subnormals included), the edge values, powers of
 * ten and two, integers, and simulation-like values. */
#include <check.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "io/number_format.h"

/* xorshift64: reproducible, no dependence on the C library's rand. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return *state = x;
}

static double from_bits(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* Formats x, checks the text's shape and that strtod returns x's bits and
 * the same double as %.17g's text. */
static void check_round_trip(double x)
{
    char text[MCD_FORMAT_DOUBLE_BUFFER + 8];
    memset(text, 'x', sizeof text);
    const int n = mcd_format_double(x, text);
    ck_assert_msg(n > 0 && n <= MCD_FORMAT_DOUBLE_MAX, "%.17g: %d bytes", x, n);
    ck_assert_msg(text[MCD_FORMAT_DOUBLE_BUFFER] == 'x', "%.17g: wrote past its buffer", x);
    text[n] = '\0';
    char *end;
    const double back = strtod(text, &end);
    ck_assert_msg(*end == '\0', "%.17g: '%s' is not one number", x, text);
    ck_assert_msg(memcmp(&back, &x, sizeof x) == 0, "%.17g (%a) printed '%s', read back %a", x, x,
                  text, back);
    char reference[64];
    snprintf(reference, sizeof reference, "%.17g", x);
    const double ref = strtod(reference, NULL);
    ck_assert_msg(memcmp(&ref, &back, sizeof x) == 0, "'%s' and %%.17g '%s' differ", text,
                  reference);
}

START_TEST(random_bit_patterns_round_trip)
{
    uint64_t state = 0x9e3779b97f4a7c15u;
    long checked = 0;
    for (long i = 0; i < 1500000; i++) {
        const double x = from_bits(next_random(&state));
        if (!isfinite(x)) continue;
        check_round_trip(x);
        checked++;
    }
    ck_assert_int_gt(checked, 1490000);
}
END_TEST

/* Random subnormals (exponent field 0) and the binades next to them. */
START_TEST(subnormals_round_trip)
{
    uint64_t state = 12345;
    for (long i = 0; i < 200000; i++) {
        const uint64_t r = next_random(&state);
        check_round_trip(from_bits(r & 0x800fffffffffffffu));                       /* subnormal */
        check_round_trip(from_bits((r & 0x800fffffffffffffu) | (uint64_t)1 << 52)); /* normal */
    }
    check_round_trip(from_bits(1));                   /* the smallest subnormal */
    check_round_trip(from_bits(0x000fffffffffffffu)); /* the largest */
    check_round_trip(DBL_MIN);
    check_round_trip(DBL_MAX);
    check_round_trip(-DBL_MAX);
    check_round_trip(DBL_EPSILON);
}
END_TEST

/* Values near 1 to 1e3 of both signs, as positions, velocities and forces
 * are: the numbers the CSV holds. */
START_TEST(simulation_values_round_trip)
{
    uint64_t state = 777;
    for (long i = 0; i < 1000000; i++) {
        const double u = (double)(next_random(&state) >> 11) * 0x1p-53; /* [0, 1) */
        const double scale = pow(10.0, (double)(i % 12) - 6.0);
        check_round_trip((2 * u - 1) * scale);
    }
}
END_TEST

/* Every power of ten and two that is a double, their neighbours, and
 * integers (which print without a point or exponent up to 10^17). */
START_TEST(powers_and_integers)
{
    for (int k = -323; k <= 308; k++) {
        char text[32];
        snprintf(text, sizeof text, "1e%d", k);
        const double p = strtod(text, NULL);
        check_round_trip(p);
        check_round_trip(nextafter(p, 0));
        check_round_trip(nextafter(p, INFINITY));
        check_round_trip(-p);
    }
    for (int k = -1074; k <= 1023; k++) check_round_trip(ldexp(1.0, k));
    for (long v = -100000; v <= 100000; v++) check_round_trip((double)v);
    static const struct {
        double x;
        const char *text;
    } exact[] = {{0.0, "0"},
                 {-0.0, "-0"},
                 {1.0, "1"},
                 {-2.5, "-2.5"},
                 {0.25, "0.25"},
                 {100.0, "100"},
                 {1e16, "10000000000000000"},
                 {1e17, "1e+17"},
                 {1e-4, "0.0001"},
                 {1e-5, "1.0000000000000001e-05"},
                 {123456.0, "123456"},
                 {0.001, "0.001"}};
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++) {
        char text[MCD_FORMAT_DOUBLE_BUFFER];
        text[mcd_format_double(exact[i].x, text)] = '\0';
        ck_assert_str_eq(text, exact[i].text);
    }
}
END_TEST

/* The spellings the CSV documents, which strtod reads back. */
START_TEST(infinities_and_nan)
{
    char text[MCD_FORMAT_DOUBLE_BUFFER];
    text[mcd_format_double(INFINITY, text)] = '\0';
    ck_assert_str_eq(text, "inf");
    text[mcd_format_double(-INFINITY, text)] = '\0';
    ck_assert_str_eq(text, "-inf");
    ck_assert(isinf(strtod(text, NULL)) && strtod(text, NULL) < 0);
    text[mcd_format_double(NAN, text)] = '\0';
    ck_assert_str_eq(text, "nan");
    text[mcd_format_double(-NAN, text)] = '\0';
    ck_assert_str_eq(text, "nan");
    ck_assert(isnan(strtod(text, NULL)));
}
END_TEST

START_TEST(longs_match_printf)
{
    static const long values[] = {0, 7, -7, 10, 99, 100, 123456789, -1000000, LONG_MAX, LONG_MIN};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char text[MCD_FORMAT_LONG_MAX + 1], reference[32];
        text[mcd_format_long(values[i], text)] = '\0';
        snprintf(reference, sizeof reference, "%ld", values[i]);
        ck_assert_str_eq(text, reference);
    }
}
END_TEST

static Suite *number_format_suite(void)
{
    Suite *s = suite_create("number-format");
    TCase *tc = tcase_create("round-trip");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, random_bit_patterns_round_trip);
    tcase_add_test(tc, subnormals_round_trip);
    tcase_add_test(tc, simulation_values_round_trip);
    tcase_add_test(tc, powers_and_integers);
    tcase_add_test(tc, infinities_and_nan);
    tcase_add_test(tc, longs_match_printf);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(number_format_suite());
}

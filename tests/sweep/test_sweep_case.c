/* A sweep's case expansion (tools/sweep_case.h) against its contract in
 * tools/sweep_spec.h: case i is grid point i / samples, whose axis values
 * are the mixed-radix digits of the point with the first axis varying
 * slowest, with random sample i % samples, which draws the same values at
 * every grid point; a uniform variable lies in [a, b) and a normal one has
 * mean a and standard deviation b.
 *
 * The draws are checked statistically on many samples of a fixed seed, so
 * the outcome is deterministic; every bound is 5 standard errors of the
 * estimator (a correct generator fails one with probability below 1e-6,
 * and the bugs these tests are meant to see move the estimate by tens of
 * standard errors). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "sweep_case.h"

#define SAMPLES 20000

/* A spec with no axis, the one random variable x and `samples` samples. */
static sweep_spec one_variable(sweep_random *x, long samples)
{
    return (sweep_spec){
        .random = x, .nrandom = 1, .seed = 12345, .samples = samples, .ncase = samples};
}

/* The value of varied variable k of case index, parsed from its text. */
static double drawn(const sweep_spec *sp, sweep_case *c, long index, int k)
{
    sweep_case_fill(sp, index, c);
    char *end;
    const char *text = sweep_case_varied(sp, c, k);
    const double v = strtod(text, &end);
    ck_assert_msg(*text && *end == '\0', "case %ld: '%s' is not a number", index, text);
    return v;
}

START_TEST(case_index_is_grid_point_then_sample)
{
    /* three axes of 2, 3 and 4 values, 3 samples of one random variable */
    char *v0[] = {"x0", "x1"}, *v1[] = {"y0", "y1", "y2"}, *v2[] = {"z0", "z1", "z2", "z3"};
    sweep_axis axis[3] = {{"a", v0, 2}, {"b", v1, 3}, {"c", v2, 4}};
    sweep_random x = {"r", SWEEP_UNIFORM, 0.0, 1.0};
    mcd_scenario_override set = {"dt", "0.001"};
    const long samples = 3, points = 2 * 3 * 4;
    sweep_spec sp = {.set = &set,
                     .nset = 1,
                     .axis = axis,
                     .naxis = 3,
                     .random = &x,
                     .nrandom = 1,
                     .seed = 7,
                     .samples = samples,
                     .ncase = points * samples};
    sweep_case c;
    sweep_case_init(&sp, &c);
    ck_assert_int_eq(c.nov, 5);
    double first_point[3]; /* sample j's draw at grid point 0 */
    for (long i = 0; i < sp.ncase; i++) {
        const double r = drawn(&sp, &c, i, 3);
        const long point = i / samples, j = i % samples;
        const long digit[3] = {point / 12, point / 4 % 3, point % 4}; /* first axis slowest */
        ck_assert_str_eq(c.ov[0].path, "dt");
        ck_assert_str_eq(c.ov[0].value, "0.001");
        for (int k = 0; k < 3; k++) {
            ck_assert_str_eq(c.ov[1 + k].path, axis[k].path);
            ck_assert_msg(!strcmp(c.ov[1 + k].value, axis[k].value[digit[k]]),
                          "case %ld axis %d: %s, expected %s", i, k, c.ov[1 + k].value,
                          axis[k].value[digit[k]]);
        }
        ck_assert_str_eq(c.ov[4].path, "r");
        if (point == 0)
            first_point[j] = r;
        else /* common random numbers: the same draw at every grid point */
            ck_assert_msg(r == first_point[j], "case %ld: sample %ld drew %.17g, not %.17g", i, j,
                          r, first_point[j]);
    }
    ck_assert(first_point[0] != first_point[1] && first_point[1] != first_point[2]);
    sweep_case_free(&c);
}
END_TEST

START_TEST(uniform_draws_fill_the_interval)
{
    const double a = 2.0, b = 5.0;
    sweep_random x = {"r", SWEEP_UNIFORM, a, b};
    sweep_spec sp = one_variable(&x, SAMPLES);
    sweep_case c;
    sweep_case_init(&sp, &c);
    double sum = 0.0, lo = INFINITY, hi = -INFINITY;
    for (long i = 0; i < SAMPLES; i++) {
        const double v = drawn(&sp, &c, i, 0);
        ck_assert_msg(v >= a && v < b, "sample %ld: %.17g outside [%g, %g)", i, v, a, b);
        sum += v, lo = fmin(lo, v), hi = fmax(hi, v);
    }
    /* mean (a + b) / 2, standard error (b - a) / sqrt(12 N) */
    const double mean = sum / SAMPLES, se = (b - a) / sqrt(12.0 * SAMPLES);
    ck_assert_msg(fabs(mean - 0.5 * (a + b)) <= 5.0 * se, "mean %.6f, expected %.6f", mean,
                  0.5 * (a + b));
    /* both ends reached: no sample in the first (or last) 1 % of the
     * interval has probability 0.99^N = 1e-87 */
    ck_assert_msg(lo < a + 0.01 * (b - a) && hi > b - 0.01 * (b - a), "range [%g, %g]", lo, hi);
    sweep_case_free(&c);
}
END_TEST

START_TEST(normal_draws_have_the_stated_mean_and_deviation)
{
    const double a = 1.0, b = 0.5;
    sweep_random x = {"r", SWEEP_NORMAL, a, b};
    sweep_spec sp = one_variable(&x, SAMPLES);
    sweep_case c;
    sweep_case_init(&sp, &c);
    double sum = 0.0, sum2 = 0.0;
    long within = 0;
    for (long i = 0; i < SAMPLES; i++) {
        const double v = drawn(&sp, &c, i, 0);
        ck_assert_msg(isfinite(v), "sample %ld: %g", i, v);
        sum += v, sum2 += (v - a) * (v - a);
        within += fabs(v - a) <= b;
    }
    const double n = SAMPLES, mean = sum / n;
    const double var = (sum2 - n * (mean - a) * (mean - a)) / (n - 1.0);
    /* the mean's standard error b / sqrt(N); the sample variance's
     * b^2 sqrt(2 / (N - 1)) for a normal variable */
    ck_assert_msg(fabs(mean - a) <= 5.0 * b / sqrt(n), "mean %.6f, expected %g", mean, a);
    ck_assert_msg(fabs(var - b * b) <= 5.0 * b * b * sqrt(2.0 / (n - 1.0)),
                  "variance %.6f, expected %g", var, b * b);
    /* P(|X - a| <= b) = erf(1 / sqrt 2) = 0.6827 for a normal law (a
     * variance check alone would pass another law of that variance);
     * standard error sqrt(p (1 - p) / N) */
    const double p = erf(M_SQRT1_2), frac = (double)within / n;
    ck_assert_msg(fabs(frac - p) <= 5.0 * sqrt(p * (1.0 - p) / n), "%.4f within one deviation",
                  frac);
    sweep_case_free(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sweep-case");
    TCase *tc = tcase_create("case");
    tcase_add_test(tc, case_index_is_grid_point_then_sample);
    tcase_add_test(tc, uniform_draws_fill_the_interval);
    tcase_add_test(tc, normal_draws_have_the_stated_mean_and_deviation);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

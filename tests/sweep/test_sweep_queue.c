/* The queue of a sweep's cases (tools/sweep_pool.h): every case handed out
 * once; guided chunks of max(1, R / (2 threads)) cases without costs; with
 * the costs of an earlier run (--costs), the costliest cases first and the
 * chunks bounded by their expected cost, so that a rank's chunk never
 * holds the costly cases together. The chunk sizes are recomputed here
 * from the rule's closed form, not from the queue's code. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "sweep_pool.h"

#define NCASE 100

/* A queue of NCASE cases, none run yet. */
static void make_queue(sweep_queue *q, sweep_spec *sp, sweep_summary *s, const double *cost)
{
    static char *rows[NCASE];
    *sp = (sweep_spec){.fingerprint = 0x5eed, .ncase = NCASE, .samples = 1};
    *s = (sweep_summary){.sp = sp, .row = rows};
    sweep_queue_init(q, s, 0, cost);
}

START_TEST(chunks_without_costs)
{
    sweep_spec sp;
    sweep_summary s;
    sweep_queue q;
    make_queue(&q, &sp, &s, NULL);
    int seen[NCASE] = {0};
    long cases[NCASE], left = NCASE;
    const int threads = 3;
    while (left > 0) {
        const long n = sweep_queue_take_guided(&q, threads, cases, NCASE);
        const long expect = left / (2 * threads) > 1 ? left / (2 * threads) : 1;
        ck_assert_int_eq(n, expect);
        for (long k = 0; k < n; k++) seen[cases[k]]++;
        left -= n;
    }
    ck_assert_int_eq(sweep_queue_take_guided(&q, threads, cases, NCASE), 0);
    ck_assert_int_eq(sweep_queue_take(&q), -1);
    for (int i = 0; i < NCASE; i++) ck_assert_int_eq(seen[i], 1);
    sweep_queue_free(&q);
}
END_TEST

START_TEST(costliest_first_in_chunks_of_bounded_cost)
{
    /* Case 7 unknown (counted as the largest known cost, 30); cases 40,
     * 41 and 42 cost 30, 20 and 10; the other 96 cases 0.5 each (48). */
    double cost[NCASE];
    for (int i = 0; i < NCASE; i++) cost[i] = 0.5;
    cost[7] = NAN, cost[40] = 30, cost[41] = 20, cost[42] = 10;
    sweep_spec sp;
    sweep_summary s;
    sweep_queue q;
    make_queue(&q, &sp, &s, cost);
    const int threads = 2;
    long cases[NCASE];
    /* 138 left, a share of 138 / 4 = 34.5: the unknown case alone (30 + 30
     * would exceed it). */
    ck_assert_int_eq(sweep_queue_take_guided(&q, threads, cases, NCASE), 1);
    ck_assert_int_eq(cases[0], 7);
    /* The costliest next, one at a time. */
    ck_assert_int_eq(sweep_queue_take(&q), 40);
    ck_assert_int_eq(sweep_queue_take(&q), 41);
    /* 10 + 48 = 58 left, a share of 14.5: case 42 and 9 cases of 0.5. */
    ck_assert_int_eq(sweep_queue_take_guided(&q, threads, cases, NCASE), 10);
    ck_assert_int_eq(cases[0], 42);
    /* 87 cases of 0.5 (43.5) left, a share of 10.875: 21 cases. */
    ck_assert_int_eq(sweep_queue_take_guided(&q, threads, cases, NCASE), 21);
    sweep_queue_free(&q);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sweep-queue");
    TCase *tc = tcase_create("queue");
    tcase_add_test(tc, chunks_without_costs);
    tcase_add_test(tc, costliest_first_in_chunks_of_bounded_cost);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

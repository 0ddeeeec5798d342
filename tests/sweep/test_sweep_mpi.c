/* `mpirun -n 2 mcdyn sweep` (docs/scale-out.md): rank 0 hands out the
 * cases, rank 1 and rank 0's thread run them; the summary must equal the
 * one of a single process with one thread, field by field (timings
 * aside), for a grid and for a random sweep, and a failing case is a row.
 * As root, mpirun needs --allow-run-as-root; --oversubscribe lets two
 * ranks share fewer cores. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/cli_fixture.h"
#include "sweep_fixture.h"

/* mpirun -n 2 mcdyn sweep SWEEP --out OUT must succeed. */
static void mpi_sweep(const char *sweep, const char *out)
{
    char *argv[] = {(char *)env_or_fail("MPIRUN"),
                    "--allow-run-as-root",
                    "--oversubscribe",
                    "-n",
                    "2",
                    (char *)env_or_fail("MCDYN_EXE"),
                    "sweep",
                    (char *)sweep,
                    "--out",
                    (char *)out,
                    NULL};
    /* In the sanitizer build, no leak detection inside mpirun's processes:
     * OpenMPI leaks in its plugins, which it unloads before the report (so
     * the report names no module a suppression could match). Our code's
     * leaks are checked by the same sweeps in one process (sweep-cli). */
    const char *asan = getenv("ASAN_OPTIONS");
    char *saved = asan ? strdup(asan) : NULL, options[1024];
    snprintf(options, sizeof options, "%s%sdetect_leaks=0", asan ? asan : "", asan ? ":" : "");
    setenv("ASAN_OPTIONS", options, 1);
    command_result r;
    int ran = run_command(argv, &r);
    if (saved)
        setenv("ASAN_OPTIONS", saved, 1);
    else
        unsetenv("ASAN_OPTIONS");
    free(saved);
    ck_assert_msg(ran == 0, "cannot run mpirun");
    ck_assert_msg(r.exit_code == 0, "mpirun: exit %d\n%.2000s", r.exit_code, r.err);
    ck_assert_msg(strstr(r.out, "summary"), "%s", r.out);
    command_result_free(&r);
}

static void check_same(const char *file)
{
    char one[4096], two[4096];
    temp_path(one, "one.csv");
    temp_path(two, "two_ranks.csv");
    sweep_ok(data_path(file), one, "--jobs", "1");
    mpi_sweep(data_path(file), two);
    summary a = summary_read(one), b = summary_read(two);
    summary_assert_same(&a, &b);
    ck_assert_int_gt(a.nrow, 0);
    summary_free(&a);
    summary_free(&b);
}

START_TEST(grid_on_two_ranks)
{
    check_same("grid.yaml");
}
END_TEST

START_TEST(random_on_two_ranks)
{
    check_same("random.yaml");
}
END_TEST

START_TEST(failing_case_on_two_ranks)
{
    check_same("failing.yaml");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sweep-mpi");
    TCase *tc = tcase_create("mpi");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, grid_on_two_ranks);
    tcase_add_test(tc, random_on_two_ranks);
    tcase_add_test(tc, failing_case_on_two_ranks);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

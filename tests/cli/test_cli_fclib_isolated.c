/* `mcdyn solve` and `mcdyn bench solve` on FCLIB files that crash libhdf5
 * itself (tests/fuzz/thirdparty/fclib, listed at run time): the command
 * survives, exits with 1 and ends its standard error with the message of
 * the isolated reader (include/mcdyn/problem_isolated.h). In a sanitizer
 * build the reader's child may print its own report before dying (one of
 * the files makes libhdf5 call memcpy with a negative size); that report
 * belongs to the child, so it is allowed before the command's message and
 * nowhere after it: a report of the command itself (a leak at its exit,
 * say) would come after. A valid FCLIB file is still solved. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_fixture.h"
#include "common/check_main.h"

#define MAX_FILES 64
#define CRASHED   ": the FCLIB reader (libhdf5) crashed on this file ("
#define TRUSTED   "); FCLIB files must come from a trusted source (docs/reliability.md)\n"

/* The .hdf5 files of tests/fuzz/thirdparty/fclib, at least one. */
static int thirdparty_files(char path[MAX_FILES][4096])
{
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/tests/fuzz/thirdparty/fclib", env_or_fail("MCDYN_SOURCE"));
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot list %s", dir);
    int count = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 5, ".hdf5") != 0) continue;
        ck_assert_int_lt(count, MAX_FILES);
        int k = snprintf(path[count++], 4096, "%s/%s", dir, e->d_name);
        ck_assert(k > 0 && k < 4096);
    }
    closedir(d);
    ck_assert_msg(count > 0, "no .hdf5 file in %s", dir);
    return count;
}

/* Runs mcdyn with args (NULL-terminated, at most 6) without the fixture's
 * sanitizer check, which the child's report would trip. */
static command_result run_mcdyn(const char *const *args)
{
    char *argv[8] = {(char *)env_or_fail("MCDYN_EXE")};
    for (int i = 0; args[i]; i++) {
        ck_assert_int_lt(i, 6);
        argv[i + 1] = (char *)args[i];
    }
    command_result r;
    ck_assert_msg(run_command(argv, &r) == 0, "cannot run %s", argv[0]);
    return r;
}

/* The crash message for path, from its start to the end of text: with a
 * signal (release) or an exit status (a sanitizer ended the child). */
static void assert_ends_with_crash(const char *text, const char *prefix, const char *path)
{
    char head[4200];
    int n = snprintf(head, sizeof head, "%s%s" CRASHED, prefix, path);
    ck_assert(n > 0 && (size_t)n < sizeof head);
    const char *at = strstr(text, head);
    ck_assert_msg(at != NULL, "no crash message for %s in:\n%s", path, text);
    const char *cause = at + strlen(head);
    ck_assert_msg(strncmp(cause, "signal ", 7) == 0 || strncmp(cause, "exit status ", 12) == 0,
                  "cause: %s", cause);
    const char *end = strstr(cause, TRUSTED);
    ck_assert_msg(end && end[strlen(TRUSTED)] == '\0', "text after the message:\n%s", cause);
    ck_assert_msg(!strstr(at, "Sanitizer") && !strstr(at, "runtime error:"),
                  "sanitizer report after the message:\n%s", at);
}

START_TEST(solve_reports_libhdf5_crashes)
{
    char path[MAX_FILES][4096];
    int count = thirdparty_files(path);
    for (int i = 0; i < count; i++) {
        const char *args[] = {"solve", path[i], NULL};
        command_result r = run_mcdyn(args);
        ck_assert_msg(r.exit_code == 1, "%s: exit %d", path[i], r.exit_code);
        ck_assert_str_eq(r.out, "");
        assert_ends_with_crash(r.err, "mcdyn solve: ", path[i]);
        command_result_free(&r);
    }
}
END_TEST

START_TEST(bench_solve_reports_libhdf5_crashes)
{
    char path[MAX_FILES][4096], dir[] = "/tmp/mcdyn-fclib-bench-XXXXXX", link_path[4200];
    int count = thirdparty_files(path);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (int i = 0; i < count; i++) {
        snprintf(link_path, sizeof link_path, "%s/%s", dir, strrchr(path[i], '/') + 1);
        ck_assert_int_eq(symlink(path[i], link_path), 0);
    }
    const char *args[] = {"bench", "solve", dir, "--reps", "1", NULL};
    command_result r = run_mcdyn(args);
    /* Every file failed to read: exit 1, one "not read" line each. */
    ck_assert_msg(r.exit_code == 1, "exit %d", r.exit_code);
    for (int i = 0; i < count; i++) {
        snprintf(link_path, sizeof link_path, "%s/%s", dir, strrchr(path[i], '/') + 1);
        char line[8400];
        int n = snprintf(line, sizeof line, ": not read: %s" CRASHED, link_path);
        ck_assert(n > 0 && (size_t)n < sizeof line);
        ck_assert_msg(strstr(r.out, line), "no line '%s' in:\n%s", line, r.out);
        unlink(link_path);
    }
    ck_assert_msg(!strstr(r.out, "Sanitizer"), "%s", r.out);
    command_result_free(&r);
    rmdir(dir);
}
END_TEST

START_TEST(valid_file_is_solved)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fuzz/corpus/fclib/mixed.hdf5",
             env_or_fail("MCDYN_SOURCE"));
    const char *args[] = {"solve", path, NULL};
    command_result r = mcdyn(args);
    ck_assert_msg(r.exit_code == 0, "exit %d: %s", r.exit_code, r.err);
    ck_assert_msg(strstr(r.out, "\"kind\":\"fc3d\"") && strstr(r.out, "\"status\":\"ok\""), "%s",
                  r.out);
    command_result_free(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli-fclib-isolated");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, solve_reports_libhdf5_crashes);
    tcase_add_test(tc, bench_solve_reports_libhdf5_crashes);
    tcase_add_test(tc, valid_file_is_solved);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

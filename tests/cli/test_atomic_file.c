/* tools/atomic_file.c: the permissions of an output are fopen's (0666 less
 * the umask) and writing one never changes the process umask, even for an
 * instant, so that other threads creating files meanwhile (mcdyn sweep's
 * workers) get their own permissions; concurrent outputs in one directory
 * get distinct temporary names and leave no temporary file.
 *
 * The race check: while one thread writes outputs in a loop, another
 * creates plain files with mode 0666 under umask 027 and checks each got
 * 0640. An implementation that reads the umask by setting it to 0 and back
 * lets some of them come out 0666 (with the previous implementation: 3
 * runs of 3 failed, 1 to 10 of about 300,000 files each; the window is
 * two system calls wide); the one tested never touches the umask, so no
 * file may. */
#include <check.h>
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/check_main.h"
#include "../tools/atomic_file.h"

#define RACING_OUTPUTS     4000 /* outputs written by the racing writer */
#define CONCURRENT_OUTPUTS 250  /* outputs written by each concurrent writer */

static char dir[] = "/tmp/mcdyn-atomic-XXXXXX";

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(dir);
    strcpy(dir, "/tmp/mcdyn-atomic-XXXXXX");
}

/* Writes "data" to path atomically; returns 0 or -1 (message printed). */
static int write_output(const char *path)
{
    atomic_file a;
    char msg[512];
    if (atomic_file_open(&a, path, msg, sizeof msg) != 0 || fputs("data\n", a.f) < 0 ||
        atomic_file_commit(&a, msg, sizeof msg) != 0) {
        fprintf(stderr, "%s\n", msg);
        return -1;
    }
    return 0;
}

static unsigned mode_of(const char *path)
{
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    return (unsigned)st.st_mode & 0777u;
}

/* Files in dir other than . and .. */
static int entries(void)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

START_TEST(permissions_are_fopens)
{
    const mode_t masks[] = {022, 027, 077, 0};
    for (int i = 0; i < 4; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/out%d.csv", dir, i);
        mode_t old = umask(masks[i]);
        ck_assert_int_eq(write_output(path), 0);
        ck_assert_int_eq(umask(old), masks[i]); /* unchanged by the write */
        ck_assert_uint_eq(mode_of(path), 0666u & ~(unsigned)masks[i]);
    }
    ck_assert_int_eq(entries(), 4); /* the outputs only, no temporary file */
    remove_dir();
}
END_TEST

static atomic_int writing;

typedef struct job {
    const char *name; /* the output, in dir */
    int count;        /* times it is written */
} job;

static void *writer(void *arg)
{
    const job *j = arg;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, j->name);
    long failures = 0;
    for (int i = 0; i < j->count; i++) failures += write_output(path) != 0;
    atomic_store(&writing, 0);
    return (void *)failures;
}

START_TEST(other_threads_keep_their_umask)
{
    mode_t old = umask(027);
    atomic_store(&writing, 1);
    pthread_t t;
    job j = {"out.csv", RACING_OUTPUTS};
    ck_assert_int_eq(pthread_create(&t, NULL, writer, &j), 0);
    long created = 0, wrong = 0;
    while (atomic_load(&writing)) {
        char path[512];
        snprintf(path, sizeof path, "%s/plain", dir);
        FILE *f = fopen(path, "w"); /* mode 0666 less the umask */
        ck_assert_ptr_nonnull(f);
        fclose(f);
        wrong += mode_of(path) != 0640u;
        unlink(path);
        created++;
    }
    void *failures;
    pthread_join(t, &failures);
    umask(old);
    ck_assert_int_eq((long)failures, 0);
    ck_assert_msg(created > 0, "no file created while the writer ran");
    ck_assert_msg(wrong == 0, "%ld of %ld files created meanwhile lost the umask", wrong, created);
    ck_assert_uint_eq(mode_of(strcat(strcat((char[512]){0}, dir), "/out.csv")), 0640u);
    remove_dir();
}
END_TEST

START_TEST(concurrent_outputs_get_distinct_temporaries)
{
    pthread_t t[4];
    job j[4] = {{"a.csv", CONCURRENT_OUTPUTS},
                {"b.csv", CONCURRENT_OUTPUTS},
                {"c.csv", CONCURRENT_OUTPUTS},
                {"d.csv", CONCURRENT_OUTPUTS}};
    for (int i = 0; i < 4; i++) ck_assert_int_eq(pthread_create(&t[i], NULL, writer, &j[i]), 0);
    for (int i = 0; i < 4; i++) {
        void *failures;
        pthread_join(t[i], &failures);
        ck_assert_int_eq((long)failures, 0);
    }
    ck_assert_int_eq(entries(), 4);
    remove_dir();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("atomic-file");
    TCase *tc = tcase_create("atomic-file");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, permissions_are_fopens);
    tcase_add_test(tc, other_threads_keep_their_umask);
    tcase_add_test(tc, concurrent_outputs_get_distinct_temporaries);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

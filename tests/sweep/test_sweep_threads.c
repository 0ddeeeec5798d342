/* Thread safety of the library (docs/scale-out.md): the same scenario run
 * on two threads at once, each with its own scenario, model, runner and
 * data, must give bit for bit the trajectory of a sequential run. Any
 * hidden global or shared mutable state written during loading (YAML,
 * URDF through libxml2), collision detection (Bullet), the contact solve
 * (LAPACK) or stepping would make the runs interfere; the sanitizer build
 * runs this test too. The trajectory is compared through a checksum of
 * every step's state and solver statistics (bitwise: FNV-1a of the bytes). */
#include <check.h>
#include <libxml/parser.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "mcdyn/runner.h"

#define THREADS 2

typedef struct run_result {
    const char *scenario;
    double duration;
    uint64_t checksum;
    long steps;
    mcd_status status;
    char msg[MCD_ERROR_LEN];
} run_result;

static uint64_t fnv1a(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

/* Loads and runs r->scenario for r->duration, hashing every step. */
static void *run(void *arg)
{
    run_result *r = arg;
    mcd_scenario *sc = NULL;
    mcd_runner *rn = NULL;
    mcd_error err = {0};
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.duration = r->duration;
    r->checksum = 0xcbf29ce484222325ULL;
    r->status = mcd_scenario_load(r->scenario, &sc, &err);
    if (r->status == MCD_OK) r->status = mcd_runner_create(sc, &ov, &rn, &err);
    for (long k = 0; r->status == MCD_OK && k < mcd_runner_steps(rn); k++) {
        mcd_step_stats st;
        r->status = mcd_runner_step(rn, &st);
        mcd_sim *sim = mcd_runner_sim(rn);
        r->checksum = fnv1a(r->checksum, mcd_sim_q(sim), sizeof(double) * (size_t)sc->model->nq);
        r->checksum = fnv1a(r->checksum, mcd_sim_qd(sim), sizeof(double) * (size_t)sc->model->nv);
        r->checksum = fnv1a(r->checksum, &st.ncontacts, sizeof st.ncontacts);
        r->checksum = fnv1a(r->checksum, &st.iterations, sizeof st.iterations);
        r->checksum = fnv1a(r->checksum, &st.residual, sizeof st.residual);
        r->steps++;
    }
    snprintf(r->msg, sizeof r->msg, "%s",
             rn && r->status != MCD_OK ? mcd_sim_error(mcd_runner_sim(rn)) : err.msg);
    mcd_runner_free(rn);
    mcd_scenario_free(sc);
    return NULL;
}

static const char *model(const char *file)
{
    static char path[4][4096];
    static int next;
    char *p = path[next++ % 4];
    const char *src = getenv("MCDYN_SOURCE");
    ck_assert_msg(src != NULL, "MCDYN_SOURCE is not set");
    snprintf(p, sizeof path[0], "%s/models/%s", src, file);
    return p;
}

/* The sequential run, then THREADS runs at once: all equal. */
static void check_parallel(const char *scenario, double duration)
{
    run_result seq = {.scenario = scenario, .duration = duration}, par[THREADS];
    pthread_t t[THREADS];
    run(&seq);
    ck_assert_msg(seq.status == MCD_OK, "%s: %s", scenario, seq.msg);
    ck_assert_int_gt(seq.steps, 0);
    for (int i = 0; i < THREADS; i++) {
        par[i] = (run_result){.scenario = scenario, .duration = duration};
        ck_assert_int_eq(pthread_create(&t[i], NULL, run, &par[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        ck_assert_msg(par[i].status == MCD_OK, "%s, thread %d: %s", scenario, i, par[i].msg);
        ck_assert_int_eq(par[i].steps, seq.steps);
        ck_assert_msg(par[i].checksum == seq.checksum,
                      "%s: thread %d's trajectory differs from the sequential run", scenario, i);
    }
}

/* The A1 on the ground: URDF (libxml2), Bullet's boxes, cylinders and
 * spheres, many contacts, the MLCP with PLM and LAPACK. */
START_TEST(a1_drop_on_two_threads)
{
    check_parallel(model("a1_drop_upright.yaml"), 0.15);
}
END_TEST

/* A ball on the ground (analytic plane contact, MNCP). */
START_TEST(sphere_on_two_threads)
{
    check_parallel(model("sphere_plane.yaml"), 0.3);
}
END_TEST

int main(void)
{
    /* libxml2 wants its initialisation once, before any thread parses
     * (docs/scale-out.md). */
    xmlInitParser();
    Suite *s = suite_create("sweep-threads");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, a1_drop_on_two_threads);
    tcase_add_test(tc, sphere_on_two_threads);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

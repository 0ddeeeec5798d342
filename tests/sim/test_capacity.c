/* The simulator's contact capacity: sizes from the model (a chain longer
 * than any contact workspace), growth when a step needs more contacts
 * than the workspaces hold, the hard limit max_contacts (API) and
 * contact.max_points (scenario), and invalid sizes. Run under the
 * sanitizers too (tools/run-tests.sh --sanitize), where a workspace sized
 * from the wrong count is a heap-buffer-overflow. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check_main.h"
#include "box_grid.h"
#include "common/random_model.h"
#include "mcdyn/mcdyn.h"

START_TEST(invalid_limits_rejected)
{
    mcd_model *m = scene_box_model();
    const int bad[] = {0, -1, MCD_SIM_MAX_CONTACTS + 1};
    for (int i = 0; i < 3; i++) {
        mcd_sim_options o = mcd_sim_default_options();
        o.max_contacts = bad[i];
        mcd_sim *s = NULL;
        mcd_error err = {0};
        ck_assert_int_eq(mcd_sim_create(m, &o, &s, &err), MCD_ERR_ARG);
        ck_assert_ptr_null(s);
        ck_assert_msg(strstr(err.msg, "max_contacts"), "%s", err.msg);
    }
    mcd_model_free(m);
}
END_TEST

/* nv = 400: more velocities than the problem size of the initial contact
 * capacity (nclosure_rows + 64 (nf + 2) + 1 = 385), which advance() once
 * used as its scratch. The chain falls freely: energy is conserved to the
 * order of the step (a finite, sane state). */
START_TEST(long_chain_steps)
{
    mcd_model *m = test_revolute_chain(400);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->nv, 400);
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, NULL, &s, &err) == MCD_OK, "%s", err.msg);
    for (int k = 0; k < 3; k++)
        ck_assert_msg(mcd_sim_step(s, NULL) == MCD_OK, "%s", mcd_sim_error(s));
    for (int i = 0; i < m->nv; i++) ck_assert(isfinite(mcd_sim_qd(s)[i]));
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

/* 100 boxes resting on the plane: 400 contacts, more than the initial
 * capacity, so the first step grows the workspaces and detects again. Each
 * box is alone in its contact problem; its motion must equal that of one
 * box simulated alone (the same problem, solved to the solver's tolerance
 * 1e-10 on velocities of order 1e-2: 1e-9 is well above the difference two
 * converged solutions may have). */
START_TEST(pile_grows_past_the_initial_capacity)
{
    const int n = 100;
    mcd_model *m = box_grid_model(n), *one = box_grid_model(1);
    mcd_sim *s = NULL, *s1 = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, NULL, &s, &err) == MCD_OK, "%s", err.msg);
    ck_assert_msg(mcd_sim_create(one, NULL, &s1, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(s, box_grid_plane, NULL);
    mcd_sim_set_contact_provider(s1, box_grid_plane, NULL);
    double *q = malloc(7 * (size_t)n * sizeof *q), *qd = calloc(6 * (size_t)n, sizeof *qd);
    box_grid_rest(n, -1e-4, q);
    ck_assert_int_eq(mcd_sim_set_state(s, q, qd, 0), MCD_OK);
    ck_assert_int_eq(mcd_sim_set_state(s1, q, qd, 0), MCD_OK);
    for (int k = 0; k < 3; k++) {
        mcd_step_stats st;
        ck_assert_msg(mcd_sim_step(s, &st) == MCD_OK, "%s", mcd_sim_error(s));
        ck_assert_msg(mcd_sim_step(s1, NULL) == MCD_OK, "%s", mcd_sim_error(s1));
        ck_assert_int_eq(st.ncontacts, 4 * n);
        for (int b = 0; b < n; b++)
            for (int i = 0; i < 6; i++)
                ck_assert_msg(fabs(mcd_sim_qd(s)[6 * b + i] - mcd_sim_qd(s1)[i]) < 1e-9,
                              "box %d, velocity %d: %g vs %g", b, i, mcd_sim_qd(s)[6 * b + i],
                              mcd_sim_qd(s1)[i]);
    }
    free(q), free(qd);
    mcd_sim_free(s), mcd_sim_free(s1);
    mcd_model_free(m), mcd_model_free(one);
}
END_TEST

/* More contacts than the limit: the step fails, naming the number needed
 * and the key that raises the limit; the state is untouched. */
START_TEST(limit_reported)
{
    mcd_model *m = box_grid_model(4);
    mcd_sim_options o = mcd_sim_default_options();
    o.max_contacts = 10;
    mcd_sim *s = NULL;
    ck_assert_int_eq(mcd_sim_create(m, &o, &s, NULL), MCD_OK);
    mcd_sim_set_contact_provider(s, box_grid_plane, NULL);
    double q[28], qd[24] = {0};
    box_grid_rest(4, 0.0, q);
    ck_assert_int_eq(mcd_sim_set_state(s, q, qd, 0), MCD_OK);
    ck_assert_int_eq(mcd_sim_step(s, NULL), MCD_ERR_CAPACITY);
    ck_assert_msg(strstr(mcd_sim_error(s), "needs 16 contact points") &&
                      strstr(mcd_sim_error(s), "contact.max_points"),
                  "%s", mcd_sim_error(s));
    ck_assert_double_eq(mcd_sim_time(s), 0.0);
    ck_assert(memcmp(mcd_sim_q(s), q, sizeof q) == 0);
    mcd_sim_free(s);
    mcd_model_free(m);
}
END_TEST

/* A scenario of n floating unit boxes on a floor (a temporary directory
 * with the URDF); *dir receives the directory to clean up. */
static mcd_status load_boxes(int n, const char *contact, char *dir, mcd_scenario **sc,
                             mcd_error *err)
{
    char path[160];
    snprintf(path, sizeof path, "%s/box.urdf", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("<robot name='box'><link name='box'><inertial><mass value='1'/>"
          "<inertia ixx='0.1667' iyy='0.1667' izz='0.1667' ixy='0' ixz='0' iyz='0'/></inertial>"
          "<collision><geometry><box size='1 1 1'/></geometry></collision></link></robot>",
          f);
    fclose(f);
    char *yaml = malloc(200 + 120 * (size_t)n);
    int len = sprintf(yaml,
                      "environment: [{name: floor, type: plane}]\n%s\nduration: 0.002\n"
                      "robots:\n",
                      contact);
    for (int i = 0; i < n; i++)
        len += sprintf(yaml + len,
                       "  - {urdf: box.urdf, prefix: b%d_, base: floating, position: [%d, 0, "
                       "0.4999]}\n",
                       i, 2 * i);
    mcd_status st = mcd_scenario_load_string(yaml, "boxes.yaml", dir, sc, err);
    free(yaml);
    return st;
}

/* The runner's collision buffer and the simulator grow together: 20 boxes
 * on a floor make 80 points, more than the initial 64; with
 * contact.max_points below that the step stops naming the key. */
START_TEST(scenario_limit)
{
    char dir[] = "/tmp/mcdyn-capacity-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (int limited = 0; limited < 2; limited++) {
        mcd_scenario *sc = NULL;
        mcd_error err = {0};
        ck_assert_msg(load_boxes(20, limited ? "contact: {max_points: 50}" : "", dir, &sc, &err) ==
                          MCD_OK,
                      "%s", err.msg);
        ck_assert_int_eq(sc->settings.contact.max_points, limited ? 50 : 0);
        mcd_runner *r = NULL;
        ck_assert_msg(mcd_runner_create(sc, NULL, &r, &err) == MCD_OK, "%s", err.msg);
        mcd_step_stats st;
        const mcd_status status = mcd_runner_step(r, &st);
        const char *msg = mcd_sim_error(mcd_runner_sim(r));
        if (limited) {
            ck_assert_int_eq(status, MCD_ERR_CAPACITY);
            ck_assert_msg(strstr(msg, "needs 80 contact points") && strstr(msg, "max_points"), "%s",
                          msg);
        } else {
            ck_assert_msg(status == MCD_OK, "%s", msg);
            ck_assert_int_eq(st.ncontacts, 80);
        }
        mcd_runner_free(r);
        mcd_scenario_free(sc);
    }
    char path[160];
    snprintf(path, sizeof path, "%s/box.urdf", dir);
    remove(path);
    rmdir(dir);
}
END_TEST

/* contact.max_points out of [1, 1e7]: an error at the key's line. */
START_TEST(scenario_key_checked)
{
    char dir[] = "/tmp/mcdyn-capacity-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const char *bad[] = {"contact: {max_points: 0}", "contact: {max_points: -3}",
                         "contact: {max_points: 10000001}", "contact: {max_points: 1.5}"};
    for (int i = 0; i < 4; i++) {
        mcd_scenario *sc = NULL;
        mcd_error err = {0};
        ck_assert_int_ne(load_boxes(1, bad[i], dir, &sc, &err), MCD_OK);
        ck_assert_ptr_null(sc);
        ck_assert_msg(strstr(err.msg, "boxes.yaml:2:") && strstr(err.msg, "max_points"), "%s",
                      err.msg);
    }
    char path[160];
    snprintf(path, sizeof path, "%s/box.urdf", dir);
    remove(path);
    rmdir(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim-capacity");
    TCase *tc = tcase_create("capacity");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, invalid_limits_rejected);
    tcase_add_test(tc, long_chain_steps);
    tcase_add_test(tc, pile_grows_past_the_initial_capacity);
    tcase_add_test(tc, limit_reported);
    tcase_add_test(tc, scenario_limit);
    tcase_add_test(tc, scenario_key_checked);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* `mcdyn draw --trajectory CSV --time T` (tools/draw_trajectory.c): the A1
 * dropped on the ground (models/a1_drop_upright.yaml), recorded for 0.5 s by
 * the runner in the CSV contract, then redrawn from the CSV:
 *  - the state rebuilt from the last row equals the simulator's final q:
 *    joint columns exactly (17 digits), the free joint to 1e-12 (its pose
 *    goes through the centre of mass and a quaternion-matrix round trip);
 *  - at t = 0.4 s (landed) every foot sphere (radius 0.02 m) is at or above
 *    the floor, within the 5 mm of penetration the scene tolerates, while
 *    the same time re-simulated without contact (what --time alone does)
 *    has the feet more than 0.3 m below it: free fall from 3 cm over 0.4 s;
 *  - the command draws it (exit 0, a PNG), and refuses --trajectory without
 *    --time and a CSV without the joint columns with clear messages. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check_main.h"
#include "../../tools/draw_trajectory.h"
#include "cli_fixture.h"
#include "mcdyn/closure.h"
#include "mcdyn/runner.h"

#define FOOT_RADIUS 0.02  /* a1.urdf's foot spheres [m] */
#define PENETRATION 0.005 /* [m] */

static char dir[] = "/tmp/mcdyn-draw-trajectory-XXXXXX";
static char csv_path[256];

/* The scenario run for 0.5 s with every row in csv_path; returns the final q
 * (nq, malloc'ed). */
static double *record(mcd_scenario *sc)
{
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.duration = 0.5;
    mcd_runner *r = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_runner_create(sc, &ov, &r, &err) == MCD_OK, "%s", err.msg);
    FILE *f = fopen(csv_path, "w");
    ck_assert_ptr_nonnull(f);
    mcd_runner_csv_header(r, f);
    mcd_step_stats st;
    memset(&st, 0, sizeof st);
    mcd_runner_csv_row(r, &st, f);
    for (long i = 0; i < mcd_runner_steps(r); i++) {
        ck_assert_msg(mcd_runner_step(r, &st) == MCD_OK, "%s", mcd_sim_error(mcd_runner_sim(r)));
        mcd_runner_csv_row(r, &st, f);
    }
    ck_assert_int_eq(fclose(f), 0);
    const int nq = sc->model->nq;
    double *q = malloc(sizeof(double) * (size_t)nq);
    memcpy(q, mcd_sim_q(mcd_runner_sim(r)), sizeof(double) * (size_t)nq);
    mcd_runner_free(r);
    return q;
}

/* Lowest point of the four foot spheres at q. */
static double lowest_foot(const mcd_model *m, mcd_data *d, const double *q)
{
    static const char *const feet[4] = {"FL_foot", "FR_foot", "RL_foot", "RR_foot"};
    ck_assert_int_eq(mcd_forward_kinematics(m, d, q), MCD_OK);
    double low = INFINITY;
    for (int i = 0; i < 4; i++) {
        const int f = mcd_model_frame_index(m, feet[i]);
        ck_assert_int_ge(f, 0);
        double x[3];
        mcd_pose_apply(x, &d->bd[m->frame[f].body].X_world, m->frame[f].pose.p);
        low = fmin(low, x[2] - FOOT_RADIUS);
    }
    return low;
}

START_TEST(recorded_frame_has_feet_on_the_floor)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(csv_path, sizeof csv_path, "%s/a1.csv", dir);
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load(model_path("a1_drop_upright.yaml"), &sc, &err) == MCD_OK, "%s",
                  err.msg);
    const mcd_model *m = sc->model;
    double *q_end = record(sc);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double *q = calloc((size_t)m->nq, sizeof *q), *qd = calloc((size_t)m->nv, sizeof *qd);
    double *tau = calloc((size_t)m->nv, sizeof *tau), t_row = -1;
    char msg[512];
    ck_assert_msg(draw_trajectory_state(m, d, csv_path, 0.5, q, &t_row, msg, sizeof msg) == 0, "%s",
                  msg);
    ck_assert_double_eq_tol(t_row, 0.5, 1e-12);
    for (int i = 0; i < m->nq; i++)
        ck_assert_msg(fabs(q[i] - q_end[i]) <= 1e-12, "q[%d] = %.17g, simulated %.17g", i, q[i],
                      q_end[i]);
    ck_assert_int_eq(draw_trajectory_state(m, d, csv_path, 0.4003, q, &t_row, msg, sizeof msg), 0);
    ck_assert_double_eq_tol(t_row, 0.4, 1e-12);
    const double recorded = lowest_foot(m, d, q);
    ck_assert_msg(recorded >= -PENETRATION, "recorded feet at %g m", recorded);
    memcpy(q, sc->q0, sizeof(double) * (size_t)m->nq);
    memcpy(qd, sc->qd0, sizeof(double) * (size_t)m->nv);
    for (int i = 0; i < 400; i++)
        ck_assert_int_eq(mcd_closure_step(m, d, q, qd, tau, 1e-3, 1e-10), MCD_OK);
    const double resimulated = lowest_foot(m, d, q);
    ck_assert_msg(resimulated < -0.3, "re-simulated feet at %g m", resimulated);
    free(q), free(qd), free(tau), free(q_end);
    mcd_data_free(d);
    mcd_scenario_free(sc);
}
END_TEST

START_TEST(command_draws_the_recorded_frame)
{
    char png[300];
    snprintf(png, sizeof png, "%s/a1.png", dir);
    const char *yaml = model_path("a1_drop_upright.yaml");
    const char *ok[] = {"draw", yaml, "--trajectory", csv_path, "--time", "0.4", "--out",
                        png,    NULL};
    command_result r = mcdyn(ok);
    ck_assert_msg(r.exit_code == 0, "%s", r.err);
    ck_assert_int_eq(access(png, R_OK), 0);
    command_result_free(&r);
    const char *no_time[] = {"draw", yaml, "--trajectory", csv_path, "--out", png, NULL};
    r = mcdyn(no_time);
    ck_assert_int_eq(r.exit_code, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--trajectory needs --time"));
    command_result_free(&r);
    char old_csv[300];
    snprintf(old_csv, sizeof old_csv, "%s/old.csv", dir);
    FILE *f = fopen(old_csv, "w");
    fputs("t,trunk.x\n0,1\n", f);
    fclose(f);
    const char *old[] = {"draw", yaml, "--trajectory", old_csv, "--time", "0", "--out", png, NULL};
    r = mcdyn(old);
    ck_assert_int_eq(r.exit_code, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "no column"));
    command_result_free(&r);
    unlink(old_csv), unlink(png), unlink(csv_path), rmdir(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("draw_trajectory");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, recorded_frame_has_feet_on_the_floor);
    tcase_add_test(tc, command_draws_the_recorded_frame);
    suite_add_tcase(s, tc);
    return run_suite_fork(s, CK_NOFORK); /* the second test uses the first's CSV */
}

/* The scenario runner: models/sphere_plane.yaml through Bullet-based
 * contacts keeps its single contact at every step (a body resting at gap 0
 * must not lose it to rounding) with friction inside the cone, and the CSV
 * follows the contract (header, columns, one row per step). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check_main.h"
#include "mcdyn/mcdyn.h"
#include "mcdyn/runner.h"

static mcd_scenario *load(const char *name)
{
    char path[1024];
    const char *src = getenv("MCDYN_SOURCE");
    snprintf(path, sizeof path, "%s/models/%s", src ? src : ".", name);
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load(path, &sc, &err) == MCD_OK, "%s", err.msg);
    return sc;
}

START_TEST(resting_contact_never_drops)
{
    const mcd_solver_kind kind = (mcd_solver_kind)_i;
    mcd_scenario *sc = load("sphere_plane.yaml");
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.solver = mcd_solver_name(kind);
    mcd_runner *r = NULL;
    ck_assert_int_eq(mcd_runner_create(sc, &ov, &r, NULL), MCD_OK);
    mcd_sim *s = mcd_runner_sim(r);
    for (long i = 0; i < mcd_runner_steps(r); i++) {
        mcd_step_stats st;
        ck_assert_int_eq(mcd_runner_step(r, &st), MCD_OK);
        ck_assert_msg(st.ncontacts == 1, "%s: %d contacts at t = %.3f", ov.solver, st.ncontacts,
                      mcd_sim_time(s));
        const double *F = mcd_contact_impulse(mcd_sim_contact_ws(s), 0);
        ck_assert_msg(hypot(F[0], F[1]) <= 0.2 * F[2] * (1 + 1e-9) + 1e-15,
                      "%s: friction outside the cone at t = %.3f", ov.solver, mcd_sim_time(s));
    }
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}
END_TEST

START_TEST(csv_follows_the_contract)
{
    mcd_scenario *sc = load("sphere_plane.yaml");
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.duration = 0.01;
    ov.contact_slots = 2;
    mcd_runner *r = NULL;
    ck_assert_int_eq(mcd_runner_create(sc, &ov, &r, NULL), MCD_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    mcd_runner_csv_header(r, f);
    mcd_step_stats st;
    memset(&st, 0, sizeof st);
    mcd_runner_csv_row(r, &st, f);
    for (long i = 0; i < mcd_runner_steps(r); i++) {
        ck_assert_int_eq(mcd_runner_step(r, &st), MCD_OK);
        mcd_runner_csv_row(r, &st, f);
    }
    fclose(f);
    const char *expect = "t,ball.x,ball.y,ball.z,ball.qw,ball.qx,ball.qy,ball.qz,ball.vx,ball.vy,"
                         "ball.vz,ball.wx,ball.wy,ball.wz,ncontacts,iters,residual,c0.Fn,c0.Ff,"
                         "c0.Fo,c1.Fn,c1.Ff,c1.Fo\n";
    ck_assert_int_eq(strncmp(buf, expect, strlen(expect)), 0);
    int lines = 0, commas = 0;
    for (const char *p = buf; *p; p++) lines += *p == '\n', commas += *p == ',';
    ck_assert_int_eq(lines, 1 + 1 + 10);  /* header, initial state, 10 steps */
    ck_assert_int_eq(commas, lines * 22); /* 23 columns on every line */
    ck_assert_int_eq(mcd_runner_csv_column(r, "ball.vx"), 8);
    ck_assert_int_eq(mcd_runner_csv_column(r, "c1.Fo"), 22);
    ck_assert_int_eq(mcd_runner_csv_column(r, "nope.z"), -1);
    /* the last row: rolling would not have started, sliding at ~1.98 m/s,
     * one contact carrying the weight: F_n = m g */
    const char *last = buf + len - 2;
    while (last > buf && last[-1] != '\n') last--;
    double v[23];
    int n = 0;
    for (const char *p = last; n < 23 && *p; n++) {
        v[n] = strtod(p, NULL);
        p = strchr(p, ',');
        if (!p) break;
        p++;
    }
    ck_assert_double_eq_tol(v[0], 0.01, 1e-12);
    ck_assert_double_eq_tol(v[14], 1.0, 1e-12);
    ck_assert_double_eq_tol(v[17], 9.81, 1e-9);
    ck_assert_double_eq_tol(v[18], -0.2 * 9.81, 1e-9);
    free(buf);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}
END_TEST

/* The index of the field name in a comma-separated header line, -1 if none. */
static int header_index(const char *header, const char *name)
{
    int col = 0;
    for (const char *p = header; *p && *p != '\n'; col++) {
        size_t len = strcspn(p, ",\n");
        if (len == strlen(name) && !strncmp(p, name, len)) return col;
        p += len;
        if (*p == ',') p++;
    }
    return -1;
}

static int controller_calls;

static mcd_status count_calls(void *user, const mcd_model *m, mcd_data *d, double t,
                              const double *q, const double *qd, double *tau)
{
    (void)user, (void)d, (void)t, (void)q, (void)qd;
    controller_calls++;
    tau[0] = m->nv > 0 ? 1.0 : 0.0;
    return MCD_OK;
}

/* pendulum12: every hinge has <joint>.q and <joint>.qd columns, found by
 * mcd_runner_csv_column at their place in the header, holding the state
 * exactly (17 digits); the controller set through the runner runs once per
 * step. */
START_TEST(csv_joint_columns_and_controller)
{
    mcd_scenario *sc = load("pendulum12.yaml");
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.duration = 0.005;
    mcd_runner *r = NULL;
    ck_assert_int_eq(mcd_runner_create(sc, &ov, &r, NULL), MCD_OK);
    controller_calls = 0;
    mcd_runner_set_controller(r, count_calls, NULL);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    mcd_runner_csv_header(r, f);
    mcd_step_stats st;
    for (long i = 0; i < mcd_runner_steps(r); i++)
        ck_assert_int_eq(mcd_runner_step(r, &st), MCD_OK);
    mcd_runner_csv_row(r, &st, f);
    fclose(f);
    ck_assert_int_eq(controller_calls, 5);
    const mcd_model *m = sc->model;
    const char *row = strchr(buf, '\n') + 1;
    double v[512];
    int n = 0;
    for (const char *p = row; n < 512; n++) {
        v[n] = strtod(p, NULL);
        p = strchr(p, ',');
        if (!p) break;
        p++;
    }
    int joints = 0;
    for (int k = 0; k < m->nbody; k++) {
        if (m->body[k].nv != 1) continue;
        char name[128];
        snprintf(name, sizeof name, "%s.q", m->joint_name[k]);
        const int cq = mcd_runner_csv_column(r, name);
        ck_assert_int_eq(cq, header_index(buf, name));
        snprintf(name, sizeof name, "%s.qd", m->joint_name[k]);
        const int cqd = mcd_runner_csv_column(r, name);
        ck_assert_int_eq(cqd, header_index(buf, name));
        ck_assert_int_eq(cqd, cq + 1);
        ck_assert_int_lt(cqd, n + 1);
        ck_assert_double_eq(v[cq], mcd_sim_q(mcd_runner_sim(r))[m->body[k].qadr]);
        ck_assert_double_eq(v[cqd], mcd_sim_qd(mcd_runner_sim(r))[m->body[k].vadr]);
        joints++;
    }
    ck_assert_int_eq(joints, 12);
    /* the joint columns sit between the body columns and the counters */
    ck_assert_int_eq(header_index(buf, "ncontacts"), 1 + 13 * m->nbody + 2 * joints);
    free(buf);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}
END_TEST

/* Checks that mcd_runner_csv_value gives, for every column of the current
 * row, the number the row holds (the same double; NaN for an empty field),
 * and rejects the columns past the row. */
static void check_values_match_row(mcd_runner *r, const mcd_step_stats *st)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    mcd_runner_csv_row(r, st, f);
    fclose(f);
    int column = 0;
    for (const char *p = buf;; column++) {
        const size_t field = strcspn(p, ",\n");
        const double expect = field ? strtod(p, NULL) : NAN;
        double v = 0;
        ck_assert_int_eq(mcd_runner_csv_value(r, st, column, &v), MCD_OK);
        ck_assert_msg(isnan(expect) ? isnan(v) : v == expect, "column %d: %.17g, row %.17g", column,
                      v, expect);
        p += field;
        if (*p != ',') break;
        p++;
    }
    double v = 0;
    ck_assert_int_eq(mcd_runner_csv_value(r, st, column + 1, &v), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_runner_csv_value(r, st, -1, &v), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_runner_csv_value(r, st, 0, NULL), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_runner_csv_value(NULL, st, 0, &v), MCD_ERR_ARG);
    free(buf);
}

/* The numeric getter of the sweeps against the CSV row: sphere_plane (a
 * contact in slot 0, slot 1 empty, before the first step and after 10) and
 * pendulum12 (joint columns). */
START_TEST(csv_value_is_the_number_in_the_row)
{
    const char *scene[2] = {"sphere_plane.yaml", "pendulum12.yaml"};
    for (int i = 0; i < 2; i++) {
        mcd_scenario *sc = load(scene[i]);
        mcd_runner_overrides ov = mcd_runner_default_overrides();
        ov.duration = 0.01;
        ov.contact_slots = 2;
        mcd_runner *r = NULL;
        ck_assert_int_eq(mcd_runner_create(sc, &ov, &r, NULL), MCD_OK);
        check_values_match_row(r, NULL);
        mcd_step_stats st;
        for (long k = 0; k < mcd_runner_steps(r); k++)
            ck_assert_int_eq(mcd_runner_step(r, &st), MCD_OK);
        check_values_match_row(r, &st);
        mcd_runner_free(r);
        mcd_scenario_free(sc);
    }
}
END_TEST

/* A pair override that names a link merged into the world (a fixed base)
 * applies to that link's geometry: the overlapping base and first link do
 * not touch once the pair is disabled. The base belongs to the robot, so
 * they touch at all only with self_collision. */
START_TEST(pair_override_on_a_fixed_base)
{
    char dir[] = "/tmp/mcdyn-runner-XXXXXX", path[128];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/arm.urdf", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("<robot name='arm'>"
          "<link name='base'><collision><geometry><box size='0.4 0.4 0.2'/></geometry>"
          "</collision></link>"
          "<link name='arm'><inertial><mass value='1'/><origin xyz='0.2 0 0'/>"
          "<inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' iyz='0'/></inertial>"
          "<collision><origin xyz='0.2 0 0'/><geometry><box size='0.5 0.1 0.1'/></geometry>"
          "</collision></link>"
          "<joint name='j' type='revolute'><parent link='base'/><child link='arm'/>"
          "<axis xyz='0 0 1'/><limit lower='-3' upper='3' effort='1' velocity='1'/></joint>"
          "</robot>",
          f);
    fclose(f);
    for (int disabled = 0; disabled < 2; disabled++) {
        const char *yaml = disabled ? "robots: [{urdf: arm.urdf}]\n"
                                      "contact: {self_collision: true,\n"
                                      "          pairs: [{a: base, b: arm, enabled: false}]}\n"
                                      "duration: 0.002\n"
                                    : "robots: [{urdf: arm.urdf}]\n"
                                      "contact: {self_collision: true}\n"
                                      "duration: 0.002\n";
        mcd_scenario *sc = NULL;
        mcd_error err = {0};
        ck_assert_msg(mcd_scenario_load_string(yaml, "pair.yaml", dir, &sc, &err) == MCD_OK, "%s",
                      err.msg);
        mcd_runner *r = NULL;
        ck_assert_int_eq(mcd_runner_create(sc, NULL, &r, NULL), MCD_OK);
        mcd_step_stats st;
        ck_assert_msg(mcd_runner_step(r, &st) == MCD_OK, "%s", mcd_sim_error(mcd_runner_sim(r)));
        if (disabled)
            ck_assert_int_eq(st.ncontacts, 0);
        else
            ck_assert_int_gt(st.ncontacts, 0);
        mcd_runner_free(r);
        mcd_scenario_free(sc);
    }
    remove(path);
    rmdir(dir);
}
END_TEST

START_TEST(bad_overrides_reported)
{
    mcd_scenario *sc = load("sphere_plane.yaml");
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.solver = "mncp-typo";
    mcd_runner *r = NULL;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_runner_create(sc, &ov, &r, &err), MCD_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(err.msg, "mncp-typo"));
    ck_assert_ptr_null(r);
    mcd_scenario_free(sc);
}
END_TEST

Suite *runner_suite(void)
{
    Suite *s = suite_create("sim-runner");
    TCase *tc = tcase_create("runner");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, resting_contact_never_drops, 0, MCD_SOLVER_KIND_COUNT);
    tcase_add_test(tc, csv_follows_the_contract);
    tcase_add_test(tc, csv_joint_columns_and_controller);
    tcase_add_test(tc, csv_value_is_the_number_in_the_row);
    tcase_add_test(tc, pair_override_on_a_fixed_base);
    tcase_add_test(tc, bad_overrides_reported);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(runner_suite());
}

/* The resting gap (contact.h, mcd_contact_point.resting_gap; docs/contact.md,
 * "Resting gap"): the simulator measures each provided gap from the
 * point's resting gap s, so shapes come to rest s apart, where Bullet's
 * query finds every resting pair, instead of at gap 0, where it may miss
 * one (box_tower, session 6).
 *  - a box resting on a box resting on the plane keeps its 4 + 4 contact
 *    points at every one of 1000 steps, the box-box pair at gap s (Bullet)
 *    and the box-plane pair at gap 0 (the exact closed form);
 *  - a simulator made through the C API with its defaults (mcd_sim,
 *    mcd_collision, a provider giving Bullet's points s) follows the
 *    scenario of the same box with its defaults to 1e-12;
 *  - a resting gap out of [0, MCD_CONTACT_MAX_RESTING_GAP] fails the step
 *    with MCD_ERR_ARG naming it. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "mcdyn/collision.h"
#include "mcdyn/mcdyn.h"
#include "mcdyn/runner.h"

static mcd_scenario *load_string(const char *yaml)
{
    char dir[1024];
    const char *src = getenv("MCDYN_SOURCE");
    snprintf(dir, sizeof dir, "%s/models", src ? src : ".");
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load_string(yaml, "resting.yaml", dir, &sc, &err) == MCD_OK, "%s",
                  err.msg);
    return sc;
}

/* Two 0.1 m cubes (models/scene_box.urdf), the upper one shifted 2 cm and
 * 1 cm sideways (its face's overlap with the lower one is a rectangle of
 * 4 corners) and placed at the resting gap s = 1e-8 m above it; the lower
 * one on the plane. */
static const char box_on_box[] =
    "name: box_on_box\n"
    "robots:\n"
    "  - {urdf: scene_box.urdf, prefix: b0_, base: floating, position: [0, 0, 0.05]}\n"
    "  - {urdf: scene_box.urdf, prefix: b1_, base: floating, position: [0.02, 0.01, "
    "0.15000001]}\n"
    "environment:\n"
    "  - {name: ground, type: plane}\n"
    "duration: 1.0\n";

/* Every step: 4 points box-plane (body -1 to 0) and 4 box-box (0 to 1);
 * the gaps the simulator keeps (gap - s) are those of rest, 0 to rounding
 * of the coordinates (1e-16 m) and what the solver's tolerance 1e-10 m/s
 * lets move in a step (1e-13 m): 1e-12 m. */
START_TEST(box_on_box_keeps_every_point)
{
    mcd_scenario *sc = load_string(box_on_box);
    ck_assert_double_eq(sc->settings.contact.resting_gap, MCD_CONTACT_RESTING_GAP);
    mcd_runner *r = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_runner_create(sc, NULL, &r, &err) == MCD_OK, "%s", err.msg);
    mcd_sim *s = mcd_runner_sim(r);
    for (long i = 0; i < mcd_runner_steps(r); i++) {
        mcd_step_stats st;
        ck_assert_msg(mcd_runner_step(r, &st) == MCD_OK, "%s", mcd_sim_error(s));
        int ground = 0, boxes = 0;
        for (int k = 0; k < mcd_sim_ncontacts(s); k++) {
            const mcd_contact_point *p = mcd_sim_contact(s, k);
            ground += p->body_b == -1 && p->body_a == 0;
            boxes += p->body_b == 0 && p->body_a == 1;
            ck_assert_msg(fabs(p->gap) <= 1e-12, "t = %.3f: contact %d at gap %g from rest",
                          mcd_sim_time(s), k, p->gap);
            ck_assert_double_eq(p->resting_gap, p->body_b == 0 ? MCD_CONTACT_RESTING_GAP : 0.0);
        }
        ck_assert_msg(st.ncontacts == 8 && ground == 4 && boxes == 4,
                      "t = %.3f: %d contacts, %d box-plane, %d box-box", mcd_sim_time(s),
                      st.ncontacts, ground, boxes);
    }
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}
END_TEST

/* A cube resting on a world box (a Bullet pair) at the resting gap. */
static const char box_on_table[] =
    "name: box_on_table\n"
    "robots:\n"
    "  - {urdf: scene_box.urdf, prefix: b_, base: floating, position: [0.1, 0.2, 0.05000001]}\n"
    "environment:\n"
    "  - {name: table, type: box, half_extents: [1, 1, 0.1], xyz: [0, 0, -0.1]}\n"
    "duration: 1.0\n";

typedef struct api_side {
    mcd_collision_world *cw;
    mcd_contact buf[64];
} api_side;

/* What a C user writes: Bullet's points within twice the resting gap,
 * each resting at MCD_CONTACT_RESTING_GAP (the closed forms' at 0), mu
 * and e as the scenario's defaults. */
static mcd_status api_provider(void *user, const mcd_model *m, const mcd_data *d, const double *q,
                               mcd_contact_point *c, int capacity, int *n, mcd_error *err)
{
    (void)q;
    api_side *a = user;
    int nc = 0;
    mcd_status s = mcd_collision_detect(a->cw, m, d, a->buf, 64, &nc, err);
    if (s != MCD_OK) return s;
    if (nc > capacity) return MCD_ERR_CAPACITY;
    for (int k = 0; k < nc; k++) {
        const mcd_contact *b = &a->buf[k];
        c[k] = (mcd_contact_point){b->body_a,
                                   b->body_b,
                                   {b->pos[0], b->pos[1], b->pos[2]},
                                   {b->normal[0], b->normal[1], b->normal[2]},
                                   b->gap,
                                   0.5,
                                   0.0,
                                   b->closed_form ? 0.0 : MCD_CONTACT_RESTING_GAP};
    }
    *n = nc;
    return MCD_OK;
}

/* Same model, same start: the scenario's runner against mcd_sim with
 * mcd_sim_default_options. Both evaluate the same operations in the same
 * order, so the trajectories agree to rounding; 1e-12 m leaves room for
 * none of the contact law to differ (a velocity-target step would move the
 * box by gain d ~ 1e-9 m in the first step). */
START_TEST(c_api_sim_follows_the_scenario)
{
    mcd_scenario *sc = load_string(box_on_table);
    mcd_runner *r = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_runner_create(sc, NULL, &r, &err) == MCD_OK, "%s", err.msg);
    mcd_sim *scenario = mcd_runner_sim(r);
    api_side a;
    mcd_collision_options co = mcd_collision_options_default();
    co.activation_distance = 1e-9; /* the runner's for the closed forms */
    co.bullet_activation_distance = 2.0 * MCD_CONTACT_RESTING_GAP;
    ck_assert_msg(mcd_collision_world_create(sc->model, &co, &a.cw, &err) == MCD_OK, "%s", err.msg);
    mcd_sim *api = NULL;
    ck_assert_msg(mcd_sim_create(sc->model, NULL, &api, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(api, api_provider, &a);
    ck_assert_int_eq(mcd_sim_set_state(api, sc->q0, sc->qd0, 0.0), MCD_OK);
    const int nq = sc->model->nq;
    double worst = 0.0;
    for (long i = 0; i < mcd_runner_steps(r); i++) {
        mcd_step_stats st_s, st_a;
        ck_assert_msg(mcd_runner_step(r, &st_s) == MCD_OK, "%s", mcd_sim_error(scenario));
        ck_assert_msg(mcd_sim_step(api, &st_a) == MCD_OK, "%s", mcd_sim_error(api));
        ck_assert_int_eq(st_s.ncontacts, 4);
        ck_assert_int_eq(st_a.ncontacts, 4);
        for (int k = 0; k < nq; k++)
            worst = fmax(worst, fabs(mcd_sim_q(scenario)[k] - mcd_sim_q(api)[k]));
    }
    ck_assert_msg(worst <= 1e-12, "the trajectories differ by %g", worst);
    /* and the box rests at the resting gap: centre 0.05 + s above the table */
    ck_assert_double_eq_tol(mcd_sim_q(api)[2], sc->q0[2], 1e-12);
    mcd_sim_free(api);
    mcd_collision_world_free(a.cw);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}
END_TEST

static double bad_resting_gap;

static mcd_status bad_provider(void *user, const mcd_model *m, const mcd_data *d, const double *q,
                               mcd_contact_point *c, int capacity, int *n, mcd_error *err)
{
    (void)user, (void)m, (void)d, (void)err;
    if (capacity < 1) return MCD_ERR_CAPACITY;
    c[0] = (mcd_contact_point){0,   -1,  {q[0], q[1], 0}, {0, 0, 1}, q[2] - 0.05,
                               0.5, 0.0, bad_resting_gap};
    *n = 1;
    return MCD_OK;
}

START_TEST(bad_resting_gap_is_refused)
{
    const double bad[3] = {-1e-9, 2.0 * MCD_CONTACT_MAX_RESTING_GAP, NAN};
    mcd_scenario *sc = load_string(box_on_table);
    mcd_sim *s = NULL;
    ck_assert_int_eq(mcd_sim_create(sc->model, NULL, &s, NULL), MCD_OK);
    mcd_sim_set_contact_provider(s, bad_provider, NULL);
    ck_assert_int_eq(mcd_sim_set_state(s, sc->q0, sc->qd0, 0.0), MCD_OK);
    bad_resting_gap = bad[_i];
    ck_assert_int_eq(mcd_sim_step(s, NULL), MCD_ERR_ARG);
    ck_assert_msg(strstr(mcd_sim_error(s), "resting_gap") != NULL, "message: %s", mcd_sim_error(s));
    mcd_sim_free(s);
    mcd_scenario_free(sc);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("resting_gap");
    TCase *tc = tcase_create("rest");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, box_on_box_keeps_every_point);
    tcase_add_test(tc, c_api_sim_follows_the_scenario);
    tcase_add_loop_test(tc, bad_resting_gap_is_refused, 0, 3);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

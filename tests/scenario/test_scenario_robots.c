/* Contact between robots of a scenario: each robot (a URDF, fixed or
 * floating) collides with the others whatever self_collision says. Two
 * stacked box robots rest on each other and the floor carries both
 * weights; a fixed-base arm driven by a PD controller pushes a free box
 * across the floor (models/arm_push_box.yaml). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "mcdyn/mcdyn.h"
#include "mcdyn/runner.h"

static const char *models_dir(void)
{
    static char dir[1024];
    const char *src = getenv("MCDYN_SOURCE");
    snprintf(dir, sizeof dir, "%s/models", src ? src : ".");
    return dir;
}

/* Two 1 m, 1 kg cubes (models/box_ground.urdf), the top one resting on the
 * bottom one, which rests on the floor; self_collision false, the
 * scenario default. */
static const char *stack_yaml =
    "name: stack\n"
    "robots:\n"
    "  - {urdf: box_ground.urdf, base: floating, position: [0, 0, 0.5]}\n"
    "  - {urdf: box_ground.urdf, base: floating, prefix: top_, position: [0, 0, 1.5]}\n"
    "environment:\n"
    "  - {name: ground, type: plane, xyz: [0, 0, 0]}\n"
    "contact: {mu: 0.5}\n"
    "solver: {name: mncp-plm, tol: 1e-12}\n"
    "dt: 0.001\n"
    "duration: 1\n";

/* Over 1 s: the top box stays on the bottom one (moves < 1 mm, the
 * brief's bound; it starts at rest on it, so anything beyond rounding and
 * the penetration correction's creep means it fell through). Each step the
 * floor holds the bottom box by its 4 corners (the closed form's face,
 * never fewer: the flat tolerance). Over the last 0.5 s, at rest, the
 * floor's normal impulses per step are the two weights' impulses
 * 2 m g dt to 1e-6 relative (static equilibrium of the stack; the solver's
 * tolerance is 1e-12). */
START_TEST(stacked_boxes_rest)
{
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load_string(stack_yaml, "stack.yaml", models_dir(), &sc, &err) ==
                      MCD_OK,
                  "%s", err.msg);
    const mcd_model *m = sc->model;
    ck_assert_int_eq(m->nrobot, 2);
    mcd_runner *r = NULL;
    ck_assert_msg(mcd_runner_create(sc, NULL, &r, &err) == MCD_OK, "%s", err.msg);
    mcd_sim *s = mcd_runner_sim(r);
    int top = mcd_model_body_index(m, "top_box");
    ck_assert_int_ge(top, 0);
    const double *q = mcd_sim_q(s);
    double start[3] = {q[m->body[top].qadr], q[m->body[top].qadr + 1], q[m->body[top].qadr + 2]};
    const double dt = sc->settings.dt, weight = 2 * 1.0 * 9.81;
    double worst_move = 0, worst_force = 0;
    for (long i = 0; i < mcd_runner_steps(r); i++) {
        mcd_step_stats st;
        ck_assert_msg(mcd_runner_step(r, &st) == MCD_OK, "%s", mcd_sim_error(s));
        double fn = 0;
        int nfloor = 0;
        for (int k = 0; k < mcd_sim_ncontacts(s); k++) {
            const mcd_contact_point *c = mcd_sim_contact(s, k);
            if (c->body_b != -1) continue;
            ck_assert_int_ne(c->body_a, top); /* the top box never reaches the floor */
            fn += mcd_contact_impulse(mcd_sim_contact_ws(s), k)[2] / dt;
            nfloor++;
        }
        ck_assert_msg(nfloor == 4, "%d floor contacts at t = %.3f", nfloor, mcd_sim_time(s));
        const double *x = mcd_sim_q(s) + m->body[top].qadr;
        worst_move =
            fmax(worst_move, hypot(hypot(x[0] - start[0], x[1] - start[1]), x[2] - start[2]));
        if (mcd_sim_time(s) >= 0.5) worst_force = fmax(worst_force, fabs(fn - weight) / weight);
    }
    ck_assert_msg(worst_move < 1e-3, "the top box moved %g m", worst_move);
    ck_assert_msg(worst_force < 1e-6, "floor force off the two weights by %g", worst_force);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}
END_TEST

/* PD control of the arm: shoulder yaw from 0 to 1.2 rad in 1 s, then
 * held; shoulder pitch and forearm roll held at 0. Gains: yaw and pitch
 * 2000 N m/rad, 100 N m s/rad (the pitch sags by ~0.006 rad under the
 * arm's ~12 N m of gravity torque); roll 20 and 0.2 (its inertia about the
 * roll axis is ~1e-3 kg m^2: the explicit step stays stable). */
typedef struct arm_pd {
    int yaw, pitch, roll; /* body index of each joint */
} arm_pd;

static mcd_status pd(void *user, const mcd_model *m, mcd_data *d, double t, const double *q,
                     const double *qd, double *tau)
{
    (void)d;
    const arm_pd *a = user;
    const int body[3] = {a->yaw, a->pitch, a->roll};
    const double ref[3] = {1.2 * fmin(t, 1.0), 0, 0}, kp[3] = {2000, 2000, 20},
                 kd[3] = {100, 100, 0.2};
    for (int j = 0; j < 3; j++) {
        const mcd_body *B = &m->body[body[j]];
        tau[B->vadr] = kp[j] * (ref[j] - q[B->qadr]) - kd[j] * qd[B->vadr];
    }
    return MCD_OK;
}

/* The lowest corner of the box geom on body b, z in the world. */
static double lowest_corner(const mcd_model *m, const mcd_data *d, int b)
{
    double z = INFINITY;
    for (int g = 0; g < m->ngeom; g++) {
        if (m->geom[g].body != b) continue;
        mcd_pose X;
        mcd_pose_mul(&X, &d->bd[b].X_world, &m->geom[g].pose);
        for (int k = 0; k < 8; k++) {
            const double *h = m->geom[g].size;
            double c[3] = {k & 1 ? h[0] : -h[0], k & 2 ? h[1] : -h[1], k & 4 ? h[2] : -h[2]}, w[3];
            mcd_pose_apply(w, &X, c);
            z = fmin(z, w[2]);
        }
    }
    return z;
}

/* The arm sweeps through the whole place the box stood in: its corners
 * lie 16.7 to 49.4 degrees from +x and at most 0.61 m from the yaw axis,
 * inside the arm's 0.73 m reach and its sweep to 1.2 rad (68.8 degrees),
 * so a box that is not pushed would be inside the arm. Expect the box to
 * have moved along +y (the push direction: the sweep is counterclockwise
 * seen from above) by at least 0.1 m (measured: 0.32 m), the arm to have
 * touched it, and the box never to penetrate the floor by more than 1 mm
 * (measured: 3.4e-5 m). */
START_TEST(arm_pushes_box)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/arm_push_box.yaml", models_dir());
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load(path, &sc, &err) == MCD_OK, "%s", err.msg);
    const mcd_model *m = sc->model;
    ck_assert_int_eq(sc->settings.contact.self_collision, 0);
    arm_pd a = {mcd_model_joint_index(m, "shoulder_yaw"),
                mcd_model_joint_index(m, "shoulder_pitch"),
                mcd_model_joint_index(m, "forearm_roll")};
    int box = mcd_model_body_index(m, "box");
    ck_assert(a.yaw >= 0 && a.pitch >= 0 && a.roll >= 0 && box >= 0);
    mcd_runner *r = NULL;
    ck_assert_msg(mcd_runner_create(sc, NULL, &r, &err) == MCD_OK, "%s", err.msg);
    mcd_sim *s = mcd_runner_sim(r);
    mcd_sim_set_controller(s, pd, &a);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, &err), MCD_OK);
    ck_assert_int_eq(mcd_forward_kinematics(m, d, mcd_sim_q(s)), MCD_OK);
    double y0 = d->bd[box].X_world.p[1], lowest = INFINITY;
    int touched = 0;
    for (long i = 0; i < mcd_runner_steps(r); i++) {
        ck_assert_msg(mcd_runner_step(r, NULL) == MCD_OK, "%s", mcd_sim_error(s));
        for (int k = 0; k < mcd_sim_ncontacts(s); k++) {
            const mcd_contact_point *c = mcd_sim_contact(s, k);
            touched |= c->body_a == box && c->body_b >= 0; /* the arm is the lower body */
        }
        ck_assert_int_eq(mcd_forward_kinematics(m, d, mcd_sim_q(s)), MCD_OK);
        lowest = fmin(lowest, lowest_corner(m, d, box));
    }
    double moved = d->bd[box].X_world.p[1] - y0;
    ck_assert_msg(touched, "the arm never touched the box");
    ck_assert_msg(moved >= 0.1, "the box moved %g m along +y", moved);
    ck_assert_msg(lowest >= -1e-3, "the box went %g m into the floor", -lowest);
    mcd_data_free(d);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("scenario-robots");
    TCase *tc = tcase_create("robots");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, stacked_boxes_rest);
    tcase_add_test(tc, arm_pushes_box);
    suite_add_tcase(su, tc);
    return run_suite(su);
}

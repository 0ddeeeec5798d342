/* Scenario files that load: defaults, every key, two robots with prefixes,
 * a floating base's initial state, closures of every type (poses after
 * fixed-link merging), environment geometry, per-pair overrides, path
 * resolution and the annotated example of docs/scenarios.md. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "scenario_fixture.h"

#define TOL 1e-12

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

static void check_v3(const double *v, double x, double y, double z)
{
    ck_assert_double_eq_tol(v[0], x, TOL);
    ck_assert_double_eq_tol(v[1], y, TOL);
    ck_assert_double_eq_tol(v[2], z, TOL);
}

/* R is the rotation by yaw about z. */
static void check_yaw(const double R[9], double yaw)
{
    double c = cos(yaw), s = sin(yaw);
    const double E[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
    for (int i = 0; i < 9; i++) ck_assert_double_eq_tol(R[i], E[i], TOL);
}

/* q0 (or qd0 when velocity) at the first coordinate of joint name. */
static double coord(const mcd_scenario *s, const char *joint, int velocity)
{
    int k = mcd_model_joint_index(s->model, joint);
    ck_assert_msg(k >= 0, "no joint %s", joint);
    const mcd_body *B = &s->model->body[k];
    return velocity ? s->qd0[B->vadr] : s->q0[B->qadr];
}

static void check_default_contact(const mcd_contact_settings *c)
{
    ck_assert_double_eq(c->mu, 0.5);
    ck_assert_double_eq(c->restitution, 0.0);
    ck_assert_double_eq(c->activation_distance, 0.0);
    ck_assert_int_eq(c->self_collision, 0);
    ck_assert_int_eq(c->directions, 4);
    ck_assert_int_eq(c->direction_mode, MCD_DIRECTIONS_ALIGNED);
    ck_assert_double_eq(c->direction_angle, 0.0);
    ck_assert_int_eq(c->penetration, MCD_PENETRATION_POSITION);
    ck_assert_double_eq(c->penetration_gain, 0.2);
    ck_assert_double_eq(c->penetration_max_velocity, 1.0);
    ck_assert_int_eq(c->npair, 0);
    ck_assert_ptr_null(c->pair);
}

static void check_default_settings(const mcd_scenario_settings *s)
{
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MNCP_PLM);
    check_default_contact(&s->contact);
    ck_assert_int_eq(s->solver.kind, MCD_METHOD_MNCP_PLM);
    ck_assert_double_eq(s->solver.opts.tol, o.tol);
    ck_assert_double_eq(s->solver.opts.psi_tol, o.psi_tol);
    ck_assert_int_eq(s->solver.opts.max_iter, o.max_iter);
    ck_assert_double_eq(s->solver.opts.pfb_lambda, o.pfb_lambda);
    ck_assert_double_eq(s->solver.opts.lm_lambda0, o.lm_lambda0);
    ck_assert_int_eq(s->solver.opts.warm_start, 1); /* mncp-plm's default (sim_method.c) */
    ck_assert_int_eq(s->solver.on_failure, MCD_ON_FAILURE_STOP);
    ck_assert_int_eq(s->solver.max_step_halvings, MCD_SIM_DEFAULT_STEP_HALVINGS);
    ck_assert_int_eq(s->integrator, MCD_INTEGRATOR_EULER);
    ck_assert_double_eq(s->dt, 1e-3);
    ck_assert_double_eq(s->duration, 1.0);
    ck_assert_double_eq(s->closure_tolerance, 1e-10);
    ck_assert_ptr_null(s->output.csv);
    ck_assert_ptr_null(s->output.plot);
    ck_assert_ptr_null(s->output.plot_columns);
    ck_assert_int_eq(s->output.nplot_columns, 0);
    ck_assert_int_eq(s->output.every, 1);
}

START_TEST(defaults)
{
    mcd_scenario *s = load_file_ok("minimal.yaml");
    mcd_scenario_settings d = mcd_scenario_default_settings();
    check_default_settings(&d);
    check_default_settings(&s->settings);
    ck_assert_str_eq(s->name, "minimal");
    ck_assert_str_eq(s->model->name, "minimal");
    check_v3(s->model->gravity, 0, 0, -9.81);
    ck_assert_int_eq(s->nrobot, 1);
    const mcd_scenario_robot *r = &s->robot[0];
    ck_assert_msg(ends_with(r->urdf, "/tests/scenario/data/ball.urdf"), "%s", r->urdf);
    ck_assert_str_eq(r->prefix, "");
    ck_assert_int_eq(r->floating_base, 0);
    check_v3(r->base_pose.p, 0, 0, 0);
    check_yaw(r->base_pose.R, 0);
    ck_assert_int_eq(r->frame_begin, 0);
    ck_assert_int_eq(r->frame_end, 1);
    ck_assert_int_eq(r->root_frame, 0);
    ck_assert_int_eq(r->body_begin, r->body_end); /* the ball is fixed to the world */
    ck_assert_int_eq(s->model->nbody, 0);
    ck_assert_int_eq(s->model->ngeom, 1);
    ck_assert_int_eq(s->nenv, 0);
    ck_assert_int_eq(s->model->nclosure, 0);
    ck_assert_ptr_nonnull(s->q0);
    ck_assert_ptr_nonnull(s->qd0);
    ck_assert_int_eq(s->nwarning, 0); /* the missing visual mesh is never looked for */
    mcd_scenario_free(s);
}
END_TEST

static void check_full_model(const mcd_scenario *s)
{
    const mcd_model *m = s->model;
    ck_assert_str_eq(s->name, "everything");
    check_v3(m->gravity, 0, -1.62, 0);
    ck_assert_int_eq(m->nbody, 4);
    ck_assert_int_eq(m->nq, 3 + 7);
    ck_assert_int_eq(m->nv, 3 + 6);
    ck_assert_int_eq(s->nrobot, 2);
    const mcd_scenario_robot *fb = &s->robot[0], *ball = &s->robot[1];
    ck_assert_str_eq(fb->prefix, "fb_");
    ck_assert_int_eq(fb->frame_begin, 0);
    ck_assert_int_eq(fb->frame_end, 5);
    ck_assert_int_eq(fb->body_begin, 0);
    ck_assert_int_eq(fb->body_end, 3);
    ck_assert_int_eq(ball->floating_base, 1);
    ck_assert_int_eq(ball->root_frame, 5);
    ck_assert_int_eq(ball->body_begin, 3);
    ck_assert_int_eq(ball->body_end, 4);
    /* the fixed base sits at the base pose, the free joint's frame too */
    int base = mcd_model_frame_index(m, "fb_base");
    ck_assert_int_eq(m->frame[base].body, -1);
    check_v3(m->frame[base].pose.p, 1, 2, 3);
    check_yaw(m->frame[base].pose.R, M_PI / 2);
    check_v3(m->body[mcd_model_joint_index(m, "fb_rocker")].X_tree.p, 1, 5, 3);
    const mcd_body *B = &m->body[mcd_model_joint_index(m, "ball")];
    ck_assert_int_eq(B->jtype, MCD_JOINT_FREE);
    check_v3(B->X_tree.p, 0, 0, 1);
}

static void check_full_state(const mcd_scenario *s)
{
    const mcd_model *m = s->model;
    ck_assert_double_eq_tol(coord(s, "fb_crank", 0), 0.3, TOL);
    ck_assert_double_eq_tol(coord(s, "fb_coupler", 0), -0.8, TOL);
    ck_assert_double_eq_tol(coord(s, "fb_rocker", 0), 0.0, TOL);
    ck_assert_double_eq_tol(coord(s, "fb_crank", 1), 2.0, TOL);
    ck_assert_double_eq_tol(coord(s, "fb_coupler", 1), 0.0, TOL);
    ck_assert_double_eq_tol(coord(s, "fb_rocker", 1), -1.0, TOL);
    const mcd_body *B = &m->body[mcd_model_joint_index(m, "ball")];
    const double q[7] = {0.1, 0.2, 0.3, 0, 1, 0, 0}, v[6] = {1, 0, 0, 0, 0, 3};
    for (int i = 0; i < 7; i++) ck_assert_double_eq_tol(s->q0[B->qadr + i], q[i], TOL);
    for (int i = 0; i < 6; i++) ck_assert_double_eq_tol(s->qd0[B->vadr + i], v[i], TOL);
    ck_assert_int_eq(mcd_model_check_q(m, s->q0, NULL), MCD_OK);
}

static void check_full_closure(const mcd_scenario *s)
{
    const mcd_model *m = s->model;
    ck_assert_int_eq(m->nclosure, 1);
    ck_assert_str_eq(m->closure_name[0], "pin");
    const mcd_closure *c = &m->closure[0];
    ck_assert_int_eq(c->type, MCD_CLOSURE_BALL);
    ck_assert_int_eq(c->body_a, mcd_model_body_index(m, "fb_coupler"));
    check_v3(c->pose_a.p, 2.5, 0, 0);
    ck_assert_int_eq(c->body_b, mcd_model_body_index(m, "fb_rocker"));
    check_v3(c->pose_b.p, 2, 0, 0);
}

static void check_full_environment(const mcd_scenario *s)
{
    static const char *const names[] = {"floor", "wall", "post", "rail", "rock", "terrain"};
    static const mcd_geom_type types[] = {MCD_GEOM_PLANE,   MCD_GEOM_BOX,    MCD_GEOM_CYLINDER,
                                          MCD_GEOM_CAPSULE, MCD_GEOM_SPHERE, MCD_GEOM_MESH};
    const mcd_model *m = s->model;
    ck_assert_int_eq(s->nenv, 6);
    ck_assert_int_eq(m->ngeom, 6 + 2 + 1);
    for (int k = 0; k < 6; k++) {
        ck_assert_str_eq(s->env_name[k], names[k]);
        ck_assert_int_eq(mcd_scenario_env_index(s, names[k]), k);
        ck_assert_int_eq(s->env_geom[k], k);
        ck_assert_int_eq(m->geom[k].type, types[k]);
        ck_assert_int_eq(m->geom[k].body, -1);
    }
    ck_assert_int_eq(mcd_scenario_env_index(s, "fb_rocker"), -1);
    check_v3(m->geom[1].size, 0.1, 5, 5);
    check_v3(m->geom[1].pose.p, 4, 0, 5);
    ck_assert_double_eq_tol(m->geom[2].size[0], 0.2, TOL);
    ck_assert_double_eq_tol(m->geom[2].size[1], 1.0, TOL);
    ck_assert_double_eq_tol(m->geom[3].pose.R[2], 1.0, TOL); /* z axis along world x */
    ck_assert_double_eq_tol(m->geom[4].size[0], 0.3, TOL);
    check_v3(m->geom[5].size, 2, 2, 1);
    ck_assert_msg(ends_with(m->geom[5].mesh_path, "data/terrain.obj"), "%s", m->geom[5].mesh_path);
}

static void check_full_contact(const mcd_scenario *s)
{
    const mcd_contact_settings *c = &s->settings.contact;
    ck_assert_double_eq(c->mu, 0.3);
    ck_assert_double_eq(c->restitution, 0.7);
    ck_assert_double_eq(c->activation_distance, 0.01);
    ck_assert_int_eq(c->self_collision, 1);
    ck_assert_int_eq(c->directions, 8);
    ck_assert_int_eq(c->direction_mode, MCD_DIRECTIONS_FIXED);
    ck_assert_double_eq_tol(c->direction_angle, M_PI / 4, TOL);
    ck_assert_int_eq(c->penetration, MCD_PENETRATION_VELOCITY);
    ck_assert_double_eq(c->penetration_gain, 0.1);
    ck_assert_double_eq(c->penetration_max_velocity, 0.5);
    ck_assert_int_eq(c->npair, 2);
    const mcd_contact_pair *p = &c->pair[0], *q = &c->pair[1];
    ck_assert_int_eq(p->a.frame, mcd_model_frame_index(s->model, "fb_rocker"));
    ck_assert_int_eq(p->a.env, -1);
    ck_assert_int_eq(p->b.frame, -1);
    ck_assert_int_eq(p->b.env, 1);
    ck_assert_double_eq(p->mu, 0.9);
    ck_assert_double_eq(p->restitution, 0.2);
    ck_assert_int_eq(p->enabled, 1);
    ck_assert_int_eq(q->a.env, 0);
    ck_assert_int_eq(q->b.frame, mcd_model_frame_index(s->model, "ball"));
    ck_assert_double_eq(q->mu, 0.3); /* the global values */
    ck_assert_double_eq(q->restitution, 0.7);
    ck_assert_int_eq(q->enabled, 0);
}

static void check_full_settings(const mcd_scenario *s)
{
    const mcd_scenario_settings *t = &s->settings;
    ck_assert_int_eq(t->solver.kind, MCD_METHOD_MLCP_PFB_RLM);
    ck_assert_double_eq(t->solver.opts.tol, 1e-8);
    ck_assert_double_eq(t->solver.opts.psi_tol, 1e-20);
    ck_assert_int_eq(t->solver.opts.max_iter, 50);
    ck_assert_double_eq(t->solver.opts.pfb_lambda, 0.9);
    ck_assert_double_eq(t->solver.opts.lm_lambda0, 1e-4);
    ck_assert_int_eq(t->solver.opts.warm_start, 1);
    ck_assert_int_eq(t->solver.on_failure, MCD_ON_FAILURE_WARN);
    ck_assert_int_eq(t->solver.max_step_halvings, 5);
    ck_assert_int_eq(t->integrator, MCD_INTEGRATOR_MIDPOINT);
    ck_assert_double_eq(t->dt, 0.0005);
    ck_assert_double_eq(t->duration, 2.5);
    ck_assert_double_eq(t->closure_tolerance, 1e-9);
    ck_assert_str_eq(t->output.csv, "out/everything.csv");
    ck_assert_str_eq(t->output.plot, "out/everything.png");
    ck_assert_int_eq(t->output.nplot_columns, 2);
    ck_assert_str_eq(t->output.plot_columns[0], "fb_rocker.z");
    ck_assert_str_eq(t->output.plot_columns[1], "ball.x");
    ck_assert_int_eq(t->output.every, 10);
}

START_TEST(every_key)
{
    mcd_scenario *s = load_file_ok("full.yaml");
    check_full_model(s);
    check_full_state(s);
    check_full_closure(s);
    check_full_environment(s);
    check_full_contact(s);
    check_full_settings(s);
    ck_assert_int_eq(s->nwarning, 0); /* ball.urdf's visual mesh is never looked for */
    mcd_scenario_free(s);
}
END_TEST

START_TEST(two_robots_with_prefixes)
{
    mcd_scenario *s = load_file_ok("two_robots.yaml");
    const mcd_model *m = s->model;
    ck_assert_str_eq(s->name, "two_robots");
    ck_assert_int_eq(m->nbody, 6);
    ck_assert_int_eq(m->nframe, 10);
    ck_assert_int_eq(s->robot[0].frame_end, 5);
    ck_assert_int_eq(s->robot[1].frame_begin, 5);
    ck_assert_int_eq(s->robot[1].root_frame, 5);
    ck_assert_int_eq(s->robot[0].body_end, 3);
    ck_assert_int_eq(s->robot[1].body_begin, 3);
    ck_assert_int_eq(s->robot[1].body_end, 6);
    ck_assert_str_eq(m->frame_name[5], "right_base");
    check_v3(m->frame[0].pose.p, 0, -2, 0);
    check_v3(m->frame[5].pose.p, 0, 2, 0);
    check_v3(m->body[mcd_model_joint_index(m, "right_rocker")].X_tree.p, 3, 2, 0);
    ck_assert_double_eq_tol(coord(s, "left_crank", 0), 0.5, TOL);
    ck_assert_double_eq_tol(coord(s, "right_crank", 0), -0.5, TOL);
    ck_assert_double_eq_tol(coord(s, "right_rocker", 1), 1.5, TOL);
    ck_assert_double_eq_tol(coord(s, "left_rocker", 1), 0.0, TOL);
    ck_assert_int_eq(m->nclosure, 2);
    ck_assert_int_eq(m->closure[1].body_a, mcd_model_body_index(m, "right_coupler"));
    ck_assert_int_eq(m->closure[1].body_b, mcd_model_body_index(m, "right_rocker"));
    ck_assert_int_eq(m->ngeom, 4);
    mcd_scenario_free(s);
}
END_TEST

START_TEST(floating_base_initial_state)
{
    mcd_scenario *s = load_string_ok("robots:\n"
                                     "  - urdf: ball.urdf\n"
                                     "    base: floating\n"
                                     "    position: [1, 0, 0]\n"
                                     "    rpy: [0, 0, 0.5]\n"
                                     "    q: {ball: [0, 0, 2, 0.7071, 0, 0, 0.7071]}\n"
                                     "    qd: {ball: [0, 1, 0, 0, 0, -2]}\n");
    const mcd_model *m = s->model;
    ck_assert_int_eq(m->nbody, 1);
    ck_assert_int_eq(m->body[0].jtype, MCD_JOINT_FREE);
    ck_assert_str_eq(m->joint_name[0], "ball");
    check_v3(m->body[0].X_tree.p, 1, 0, 0);
    check_yaw(m->body[0].X_tree.R, 0.5);
    check_v3(s->q0, 0, 0, 2);
    /* the written quaternion is unit to 1e-3 and normalized */
    ck_assert_double_eq_tol(s->q0[3], sqrt(0.5), TOL);
    ck_assert_double_eq_tol(s->q0[6], sqrt(0.5), TOL);
    ck_assert_double_eq_tol(s->qd0[1], 1.0, TOL);
    ck_assert_double_eq_tol(s->qd0[5], -2.0, TOL);
    ck_assert_int_eq(mcd_model_check_q(m, s->q0, NULL), MCD_OK);
    ck_assert_str_eq(s->name, "good");
    mcd_scenario_free(s);
    /* not given: the neutral configuration */
    s = load_string_ok("robots: [{urdf: ball.urdf, base: floating}]");
    const double neutral[7] = {0, 0, 0, 1, 0, 0, 0};
    for (int i = 0; i < 7; i++) ck_assert_double_eq(s->q0[i], neutral[i]);
    for (int i = 0; i < 6; i++) ck_assert_double_eq(s->qd0[i], 0.0);
    mcd_scenario_free(s);
}
END_TEST

START_TEST(closures_of_every_type)
{
    mcd_scenario *s = load_file_ok("closures.yaml");
    const mcd_model *m = s->model;
    int crank = mcd_model_body_index(m, "crank"), coupler = mcd_model_body_index(m, "coupler");
    int rocker = mcd_model_body_index(m, "rocker");
    ck_assert_int_eq(m->nclosure, 4);
    ck_assert_int_eq(m->nclosure_rows, 3 + 5 + 6 + 1);
    const mcd_closure *pin = &m->closure[mcd_model_closure_index(m, "pin")];
    ck_assert_int_eq(pin->type, MCD_CLOSURE_BALL);
    ck_assert_int_eq(pin->body_a, coupler); /* coupler_tip merged into the coupler */
    check_v3(pin->pose_a.p, 2.5, 0, 0);
    ck_assert_int_eq(pin->body_b, rocker);
    check_v3(pin->pose_b.p, 2, 0, 0);
    const mcd_closure *axle = &m->closure[mcd_model_closure_index(m, "axle")];
    ck_assert_int_eq(axle->type, MCD_CLOSURE_HINGE);
    check_yaw(axle->pose_b.R, 0.25);
    const mcd_closure *clamp = &m->closure[mcd_model_closure_index(m, "clamp")];
    ck_assert_int_eq(clamp->type, MCD_CLOSURE_WELD);
    ck_assert_int_eq(clamp->body_a, crank); /* written with the world as a: swapped */
    check_v3(clamp->pose_a.p, 1, 0, 0);
    ck_assert_int_eq(clamp->body_b, -1);
    check_v3(clamp->pose_b.p, 1, 0, 0);
    check_yaw(clamp->pose_b.R, 0.5);
    const mcd_closure *rope = &m->closure[mcd_model_closure_index(m, "rope")];
    ck_assert_int_eq(rope->type, MCD_CLOSURE_DISTANCE);
    ck_assert_double_eq(rope->length, 1.5);
    ck_assert_int_eq(rope->body_a, coupler);
    check_v3(rope->pose_a.p, 2.5, 0, 0);
    ck_assert_int_eq(rope->body_b, -1); /* the base link is fixed to the world */
    check_v3(rope->pose_b.p, 3, 2, 0);
    mcd_scenario_free(s);
}
END_TEST

START_TEST(paths_and_names)
{
    char yaml[5000];
    snprintf(yaml, sizeof yaml, "robots: [{urdf: '%s'}]\n", data_file("four_bar.urdf"));
    mcd_scenario *s = NULL;
    mcd_error err;
    ck_assert_int_eq(mcd_scenario_load_string(yaml, NULL, NULL, &s, &err), MCD_OK);
    ck_assert_str_eq(s->robot[0].urdf, data_file("four_bar.urdf")); /* absolute: unchanged */
    ck_assert_str_eq(s->name, "scenario");
    mcd_scenario_free(s);
    ck_assert_int_eq(mcd_scenario_load_string("name: x\nrobots: [{urdf: four_bar.urdf}]",
                                              "a/b.c/run.v2.yaml", data_dir(), &s, &err),
                     MCD_OK);
    ck_assert_str_eq(s->name, "x");
    ck_assert_str_eq(s->model->name, "x");
    mcd_scenario_free(s);
    ck_assert_int_eq(mcd_scenario_load_string("robots: [{urdf: four_bar.urdf}]",
                                              "a/b.c/run.v2.yaml", data_dir(), &s, &err),
                     MCD_OK);
    ck_assert_str_eq(s->name, "run.v2");
    mcd_scenario_free(s);
}
END_TEST

START_TEST(yaml_spellings)
{
    /* block and flow styles, comments, a document marker, booleans and
     * numbers in their YAML spellings, quoted strings */
    mcd_scenario *s = load_string_ok("---\n"
                                     "# comment\n"
                                     "robots:\n"
                                     "- urdf: \"four_bar.urdf\"\n"
                                     "  prefix: 'p '\n"
                                     "  q:\n"
                                     "    crank: -1.5e-1   # comment\n"
                                     "contact: {self_collision: True, mu: 1, directions: +6}\n"
                                     "dt: .5e-3\n"
                                     "...\n");
    ck_assert_double_eq_tol(coord(s, "p crank", 0), -0.15, TOL);
    ck_assert_int_eq(s->settings.contact.self_collision, 1);
    ck_assert_double_eq(s->settings.contact.mu, 1.0);
    ck_assert_int_eq(s->settings.contact.directions, 6);
    ck_assert_double_eq(s->settings.dt, 0.0005);
    mcd_scenario_free(s);
}
END_TEST

/* The first ```yaml block of docs/scenarios.md (free with free). */
static char *documented_example(void)
{
    char *doc = read_source_text("docs/scenarios.md");
    char *start = strstr(doc, "```yaml\n");
    ck_assert_ptr_nonnull(start);
    start += strlen("```yaml\n");
    char *end = strstr(start, "```");
    ck_assert_ptr_nonnull(end);
    char *yaml = strndup(start, (size_t)(end - start));
    free(doc);
    return yaml;
}

START_TEST(documented_example_loads)
{
    char *yaml = documented_example();
    mcd_scenario *s = NULL;
    mcd_error err;
    mcd_status st = mcd_scenario_load_string(yaml, "docs/scenarios.md", data_dir(), &s, &err);
    ck_assert_msg(st == MCD_OK, "%s", err.msg);
    ck_assert_str_eq(s->name, "four_bar");
    ck_assert_int_eq(s->model->nclosure, 1);
    ck_assert_int_eq(s->nenv, 2);
    ck_assert_int_eq(s->settings.contact.npair, 1);
    ck_assert_double_eq_tol(coord(s, "crank", 0), 0.3, TOL);
    mcd_scenario_free(s);
    free(yaml);
}
END_TEST

static Suite *scenario_suite(void)
{
    Suite *s = suite_create("scenario-load");
    TCase *t = tcase_create("load");
    tcase_add_test(t, defaults);
    tcase_add_test(t, every_key);
    tcase_add_test(t, two_robots_with_prefixes);
    tcase_add_test(t, floating_base_initial_state);
    tcase_add_test(t, closures_of_every_type);
    tcase_add_test(t, paths_and_names);
    tcase_add_test(t, yaml_spellings);
    tcase_add_test(t, documented_example_loads);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(scenario_suite());
}

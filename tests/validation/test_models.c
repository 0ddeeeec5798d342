/* The validation models of models/ (docs/validation-models.md) load as
 * described: the URDFs through the URDF loader (structure, masses,
 * inertias, collision spheres) and the scenarios through the scenario loader
 * (environment, contact and solver settings, initial state), and the
 * pendulum's initial configuration is the one of Mylapilli & Jain (2017),
 * Sec. 6.2, as interpreted there. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "mcdyn/mcdyn.h"
#include "mcdyn/scenario.h"
#include "mcdyn/urdf.h"

#define NLINK  12
#define RADIUS 0.25
#define PIVOT  10.1 /* pivot height: 10 m above the floor's top at z = 0.1 */
#define FLOOR  0.1  /* z of the floor's top */
#define WALL   4.0  /* y of the wall's face */
#define TOL    1e-12

/* $MCDYN_SOURCE/models/name (static buffer). */
static const char *model_path(const char *name)
{
    static char path[4096];
    const char *src = getenv("MCDYN_SOURCE");
    ck_assert_msg(src != NULL, "MCDYN_SOURCE is not set");
    snprintf(path, sizeof path, "%s/models/%s", src, name);
    return path;
}

static mcd_model *load_urdf(const char *name, int floating)
{
    mcd_urdf_options opt = mcd_urdf_default_options();
    mcd_model *m = NULL;
    mcd_error err = {0};
    opt.floating_base = floating;
    mcd_status st = mcd_urdf_load_file(model_path(name), &opt, &m, &err);
    ck_assert_msg(st == MCD_OK, "%s: %s", name, err.msg);
    return m;
}

static mcd_scenario *load_scenario(const char *name)
{
    mcd_scenario *s = NULL;
    mcd_error err = {0};
    mcd_status st = mcd_scenario_load(model_path(name), &s, &err);
    ck_assert_msg(st == MCD_OK, "%s: %s", name, err.msg);
    ck_assert_int_eq(s->nwarning, 0);
    return s;
}

static void assert_vec(const double *v, double x, double y, double z, double tol)
{
    ck_assert_double_eq_tol(v[0], x, tol);
    ck_assert_double_eq_tol(v[1], y, tol);
    ck_assert_double_eq_tol(v[2], z, tol);
}

/* Mass 1 kg at (0, 0, com_z) with the inertia of a solid sphere of mass 1
 * and radius r, about its centre. */
static void assert_sphere_mass(const mcd_mass_props *mp, double com_z, double r)
{
    const double I = 0.4 * r * r;
    ck_assert_double_eq_tol(mp->mass, 1.0, TOL);
    assert_vec(mp->com, 0, 0, com_z, TOL);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            ck_assert_double_eq_tol(mp->inertia[3 * i + j], i == j ? I : 0.0, TOL);
}

/* The one collision geom of body b: a sphere of radius r at (0, 0, z). */
static void assert_sphere_geom(const mcd_model *m, int b, double r, double z)
{
    int found = 0;
    for (int g = 0; g < m->ngeom; g++) {
        if (m->geom[g].body != b) continue;
        found++;
        ck_assert_int_eq(m->geom[g].type, MCD_GEOM_SPHERE);
        ck_assert_double_eq_tol(m->geom[g].size[0], r, TOL);
        assert_vec(m->geom[g].pose.p, 0, 0, z, TOL);
    }
    ck_assert_int_eq(found, 1);
}

/* World centres of mass of the bodies at q (3 per body). */
static void body_centres(const mcd_model *m, const double *q, double *c)
{
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    ck_assert_int_eq(mcd_forward_kinematics(m, d, q), MCD_OK);
    for (int k = 0; k < m->nbody; k++)
        mcd_pose_apply(c + 3 * k, &d->bd[k].X_world, m->body[k].mass.com);
    mcd_data_free(d);
}

START_TEST(pendulum_urdf)
{
    mcd_model *m = load_urdf("pendulum12.urdf", 0);
    ck_assert_int_eq(m->nbody, NLINK);
    ck_assert_int_eq(m->nq, NLINK);
    ck_assert_int_eq(m->nv, NLINK);
    ck_assert_double_eq_tol(m->total_mass, 12.0, TOL);
    ck_assert_int_eq(m->ngeom, NLINK);
    ck_assert_int_eq(m->max_depth, NLINK);
    ck_assert_int_ge(mcd_model_frame_index(m, "base"), 0);
    ck_assert_int_eq(m->frame[mcd_model_frame_index(m, "base")].body, -1);
    for (int k = 0; k < NLINK; k++) {
        char link[16], joint[16];
        snprintf(link, sizeof link, "link%d", k + 1);
        snprintf(joint, sizeof joint, "joint%d", k + 1);
        const mcd_body *B = &m->body[k];
        ck_assert_int_eq(mcd_model_body_index(m, link), k);
        ck_assert_int_eq(mcd_model_joint_index(m, joint), k);
        ck_assert_int_eq(B->parent, k - 1);
        /* continuous: a revolute joint without position limits */
        ck_assert_int_eq(B->jtype, MCD_JOINT_REVOLUTE);
        ck_assert_int_eq(B->limits.has_position_limits, 0);
        assert_vec(B->axis, 1, 0, 0, TOL);
        /* hinge k+1 at the centre of sphere k */
        assert_vec(B->X_tree.p, 0, 0, k == 0 ? 0.0 : -1.0, TOL);
        assert_sphere_mass(&B->mass, -1.0, RADIUS);
        assert_sphere_geom(m, k, RADIUS, -1.0);
    }
    /* hanging straight: sphere k centred k m below the pivot */
    double q[NLINK] = {0}, c[3 * NLINK];
    body_centres(m, q, c);
    for (int k = 0; k < NLINK; k++) assert_vec(c + 3 * k, 0, 0, -(k + 1.0), 1e-12);
    mcd_model_free(m);
}
END_TEST

START_TEST(sphere_urdf)
{
    mcd_model *m = load_urdf("sphere.urdf", 1);
    ck_assert_int_eq(m->nbody, 1);
    ck_assert_int_eq(m->nq, 7);
    ck_assert_int_eq(m->nv, 6);
    ck_assert_int_eq(m->body[0].jtype, MCD_JOINT_FREE);
    ck_assert_int_eq(mcd_model_joint_index(m, "ball"), 0);
    ck_assert_double_eq_tol(m->total_mass, 1.0, TOL);
    assert_sphere_mass(&m->body[0].mass, 0.0, 1.0);
    assert_sphere_geom(m, 0, 1.0, 0.0);
    mcd_model_free(m);
}
END_TEST

/* Environment entry name of s: a box with the given half extents centred at
 * (x, y, z), not rotated. */
static void assert_env_box(const mcd_scenario *s, const char *name, const double half[3], double x,
                           double y, double z)
{
    int k = mcd_scenario_env_index(s, name);
    ck_assert_msg(k >= 0, "no environment entry '%s'", name);
    const mcd_geom *g = &s->model->geom[s->env_geom[k]];
    ck_assert_int_eq(g->type, MCD_GEOM_BOX);
    ck_assert_int_eq(g->body, -1);
    assert_vec(g->size, half[0], half[1], half[2], TOL);
    assert_vec(g->pose.p, x, y, z, TOL);
    for (int i = 0; i < 9; i++) ck_assert_double_eq_tol(g->pose.R[i], i % 4 == 0, TOL);
}

START_TEST(pendulum_scenario)
{
    mcd_scenario *s = load_scenario("pendulum12.yaml");
    const mcd_model *m = s->model;
    const mcd_scenario_settings *st = &s->settings;
    ck_assert_str_eq(s->name, "pendulum12");
    assert_vec(m->gravity, 0, 0, -9.81, TOL);
    ck_assert_int_eq(m->nq, NLINK);
    ck_assert_int_eq(m->nv, NLINK);
    ck_assert_double_eq_tol(m->total_mass, 12.0, TOL);
    ck_assert_int_eq(s->nrobot, 1);
    ck_assert_int_eq(s->robot[0].floating_base, 0);
    assert_vec(s->robot[0].base_pose.p, 0, 0, PIVOT, TOL);

    /* floor 0.2 m thick, origin at its mid-plane; wall face at y = 4 */
    ck_assert_int_eq(s->nenv, 2);
    assert_env_box(s, "floor", (const double[3]){50, 50, 0.1}, 0, 0, 0);
    assert_env_box(s, "wall", (const double[3]){50, 0.1, 10}, 0, 4.1, 10.1);
    const mcd_geom *floor = &m->geom[s->env_geom[mcd_scenario_env_index(s, "floor")]];
    const mcd_geom *wall = &m->geom[s->env_geom[mcd_scenario_env_index(s, "wall")]];
    ck_assert_double_eq_tol(floor->pose.p[2] + floor->size[2], FLOOR, TOL);
    ck_assert_double_eq_tol(wall->pose.p[1] - wall->size[1], WALL, TOL);
    ck_assert_double_eq_tol(wall->pose.p[2] - wall->size[2], FLOOR, TOL);

    ck_assert_double_eq_tol(st->contact.mu, 0.5, TOL);
    ck_assert_double_eq_tol(st->contact.restitution, 0.7, TOL);
    ck_assert_double_eq_tol(st->contact.activation_distance, 0.0, TOL);
    ck_assert_int_eq(st->contact.self_collision, 1);
    ck_assert_int_eq(st->contact.directions, 4);
    ck_assert_int_eq(st->contact.direction_mode, MCD_DIRECTIONS_ALIGNED);
    ck_assert_int_eq(st->contact.npair, 0);
    ck_assert_int_eq(st->solver.kind, MCD_METHOD_MNCP_PLM);
    ck_assert_str_eq(mcd_step_method_name(st->solver.kind), "mncp-plm");
    ck_assert_double_eq_tol(st->solver.opts.tol, 1e-10, 1e-24);
    ck_assert_int_eq(st->solver.opts.max_iter, 100);
    ck_assert_int_eq(st->solver.on_failure, MCD_ON_FAILURE_STOP);
    ck_assert_int_eq(st->integrator, MCD_INTEGRATOR_EULER);
    ck_assert_double_eq_tol(st->dt, 1e-3, 1e-18);
    ck_assert_double_eq_tol(st->duration, 20.0, TOL);
    ck_assert_str_eq(st->output.csv, "pendulum12.csv");
    ck_assert_str_eq(st->output.plot, "pendulum12.png");
    ck_assert_int_eq(st->output.nplot_columns, 1);
    ck_assert_str_eq(st->output.plot_columns[0], "link12.z");

    /* initial state: joint1 at -pi/4 turning at +1 rad/s, the rest at rest */
    for (int k = 0; k < NLINK; k++) {
        ck_assert_double_eq_tol(s->q0[k], k == 0 ? -M_PI / 4 : 0.0, 1e-10);
        ck_assert_double_eq_tol(s->qd0[k], k == 0 ? 1.0 : 0.0, TOL);
    }
    mcd_scenario_free(s);
}
END_TEST

/* The initial configuration: the chain straight at 45 degrees on the left
 * of the pivot, the tip 1.5 m above the floor's top, nothing touching, and
 * joint1's positive velocity swings the tip towards +y (the wall) and down. */
START_TEST(pendulum_initial_configuration)
{
    mcd_scenario *s = load_scenario("pendulum12.yaml");
    const mcd_model *m = s->model;
    double c[3 * NLINK], c1[3 * NLINK], q1[NLINK];
    body_centres(m, s->q0, c);
    const double h = sqrt(0.5);
    for (int k = 0; k < NLINK; k++) {
        double l = k + 1.0;
        assert_vec(c + 3 * k, 0, -l * h, PIVOT - l * h, 1e-9);
        ck_assert(c[3 * k + 2] - RADIUS > FLOOR); /* above the floor */
        ck_assert(c[3 * k + 1] + RADIUS < WALL);  /* left of the wall */
        for (int j = 0; j < k; j++) {             /* spheres apart */
            double dy = c[3 * k + 1] - c[3 * j + 1], dz = c[3 * k + 2] - c[3 * j + 2];
            ck_assert(sqrt(dy * dy + dz * dz) > 2 * RADIUS);
        }
    }
    /* tip: 12 m from the pivot, 8.485 m left of it, 1.515 m above the floor */
    ck_assert_double_eq_tol(c[3 * 11 + 1], -8.48528137423857, 1e-9);
    ck_assert_double_eq_tol(c[3 * 11 + 2] - FLOOR, 10.0 - 12.0 * h, 1e-9);
    /* a small step along qd0 moves the tip right (+y) and down */
    for (int k = 0; k < NLINK; k++) q1[k] = s->q0[k] + 1e-3 * s->qd0[k];
    body_centres(m, q1, c1);
    ck_assert(c1[3 * 11 + 1] > c[3 * 11 + 1]);
    ck_assert(c1[3 * 11 + 2] < c[3 * 11 + 2]);
    mcd_scenario_free(s);
}
END_TEST

/* The common part of the two sphere-on-plane scenarios. */
static mcd_scenario *load_sphere_plane(const char *file, const char *name)
{
    mcd_scenario *s = load_scenario(file);
    const mcd_model *m = s->model;
    const mcd_scenario_settings *st = &s->settings;
    ck_assert_str_eq(s->name, name);
    assert_vec(m->gravity, 0, 0, -9.81, TOL);
    ck_assert_int_eq(m->nq, 7);
    ck_assert_int_eq(m->nv, 6);
    ck_assert_double_eq_tol(m->total_mass, 1.0, TOL);
    ck_assert_int_eq(s->nrobot, 1);
    ck_assert_int_eq(s->robot[0].floating_base, 1);
    ck_assert_int_eq(m->body[0].jtype, MCD_JOINT_FREE);
    ck_assert_int_eq(s->nenv, 1);
    int k = mcd_scenario_env_index(s, "ground");
    ck_assert_int_ge(k, 0);
    const mcd_geom *g = &m->geom[s->env_geom[k]];
    ck_assert_int_eq(g->type, MCD_GEOM_PLANE);
    assert_vec(g->pose.p, 0, 0, 0, TOL);
    ck_assert_double_eq_tol(g->pose.R[8], 1.0, TOL); /* normal +z */

    /* theta_0 = [0 0 1 | 1 0 0 0], thetadot_0 = [2 0 0 | 0 0 0] */
    double c[3];
    body_centres(m, s->q0, c);
    assert_vec(c, 0, 0, 1, TOL);
    for (int i = 0; i < 6; i++) ck_assert_double_eq_tol(s->qd0[i], i == 0 ? 2.0 : 0.0, TOL);

    ck_assert_double_eq_tol(st->contact.mu, 0.2, TOL);
    ck_assert_double_eq_tol(st->contact.restitution, 0.0, TOL);
    ck_assert_int_eq(st->contact.self_collision, 0);
    ck_assert_int_eq(st->contact.directions, 4);
    ck_assert_int_eq(st->integrator, MCD_INTEGRATOR_EULER);
    ck_assert_double_eq_tol(st->dt, 1e-3, 1e-18);
    ck_assert_double_eq_tol(st->duration, 0.6, TOL);
    ck_assert_ptr_nonnull(st->output.csv);
    return s;
}

START_TEST(sphere_plane_case1)
{
    mcd_scenario *s = load_sphere_plane("sphere_plane.yaml", "sphere_plane");
    ck_assert_int_eq(s->settings.contact.direction_mode, MCD_DIRECTIONS_ALIGNED);
    ck_assert_int_eq(s->settings.solver.kind, MCD_METHOD_MNCP_PLM);
    ck_assert_str_eq(s->settings.output.csv, "sphere_plane.csv");
    mcd_scenario_free(s);
}
END_TEST

START_TEST(sphere_plane_case2)
{
    mcd_scenario *s = load_sphere_plane("sphere_plane_case2.yaml", "sphere_plane_case2");
    ck_assert_int_eq(s->settings.contact.direction_mode, MCD_DIRECTIONS_FIXED);
    ck_assert_double_eq_tol(s->settings.contact.direction_angle, M_PI / 4, 1e-15);
    ck_assert_int_eq(s->settings.solver.kind, MCD_METHOD_MLCP_LEMKE);
    ck_assert_str_eq(mcd_step_method_name(s->settings.solver.kind), "mlcp-lemke");
    ck_assert_str_eq(s->settings.output.csv, "sphere_plane_case2.csv");
    mcd_scenario_free(s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("validation-models");
    TCase *tc = tcase_create("models");
    tcase_add_test(tc, pendulum_urdf);
    tcase_add_test(tc, sphere_urdf);
    tcase_add_test(tc, pendulum_scenario);
    tcase_add_test(tc, pendulum_initial_configuration);
    tcase_add_test(tc, sphere_plane_case1);
    tcase_add_test(tc, sphere_plane_case2);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

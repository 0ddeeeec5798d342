/* The closed-chain models of models/ (docs/models.md), each through its
 * scenario file: it loads with the expected sizes and settings; the initial
 * state satisfies the closures (to 1e-6 as written, to 1e-10 after
 * projection); the mobility nv - rank(G_b) is the mechanism's; 2 s of
 * mcd_closure_step at the scenario's dt = 1 ms keep the closure error at or
 * below 1e-8, have an energy error that halves with the step (first
 * order: the models are conservative and unactuated) and keep a property
 * of the mechanism that the
 * closures only imply (the Delta's platform does not turn, the leg's
 * parallelogram, the slider-crank's and the four-bar's position relations);
 * the redundancy warning appears for the three planar loops closed by a ball
 * and never for the Delta; and with the scenario's contact settings no
 * collision geometry touches another along the way (so that a simulation
 * with contact, `mcdyn sim`, runs the models free of contacts).
 * MCDYN_TEST_VERBOSE=1 prints the measurements. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check_main.h"
#include "mcdyn/closure.h"
#include "mcdyn/collision.h"
#include "mcdyn/dynamics.h"
#include "mcdyn/scenario.h"

#define SIM_TIME        2.0
#define WRITTEN_TOL     1e-6  /* closure error of q0 as written in the file */
#define PROJECTED_TOL   1e-10 /* after projection */
#define DRIFT_TOL       1e-8  /* during the run [m, rad] */
#define RANK_TOL        1e-9  /* relative pivot threshold of the rank of G_b */
#define MAX_COORDINATES 16
#define CONTACT_EVERY   10 /* steps between collision checks */
#define MAX_CONTACTS    64
/* The energy check. The models are conservative and unactuated, so the
 * exact motion keeps E = T + U; mcd_closure_step (semi-implicit Euler, then
 * velocity and position projection) is first order: its energy error
 * (the O(h) oscillation of the symplectic step, and the projections'
 * dissipation, O(h^2) per step over T / h steps) is C h + O(h^2). Halving
 * h must halve it: log2 e(h) / e(h/2) = 1 + O(h), the O(h) term being the
 * ratio of the second-order to the first-order coefficient times h (1 ms
 * here; measured 0.95 to 1.0). 0.2 allows that and fails an error that
 * does not vanish with h (a wrong force, a non-conservative projection:
 * order 0) or a scheme of another order. */
#define ORDER_TOL 0.2

/* A mechanism property the closures imply: the largest violation at q. */
typedef double (*invariant_fn)(const mcd_model *m, mcd_data *d, const double *q);

typedef struct model_case {
    const char *name; /* models/NAME.yaml */
    int nq, nv, rows;
    int mobility;
    const char *redundancy; /* text of the expected warning, NULL: none allowed */
    invariant_fn invariant;
    const char *invariant_name;
} model_case;

static int joint(const mcd_model *m, const char *name)
{
    int k = mcd_model_joint_index(m, name);
    ck_assert_msg(k >= 0, "no joint '%s'", name);
    return m->body[k].qadr;
}

/* Four-bar: the rocker angle is the circle-intersection solution of the
 * crank angle (branch with the coupler-rocker pin above the ground line). */
static double four_bar_relation(const mcd_model *m, mcd_data *d, const double *q)
{
    (void)d;
    const double a = 0.10, b = 0.25, c = 0.20, g = 0.22;
    double th = q[joint(m, "crank")], rocker = q[joint(m, "rocker")];
    double Bx = a * cos(th), Bz = -a * sin(th), dx = g - Bx, dz = -Bz, L = hypot(dx, dz);
    double along = (b * b - c * c + L * L) / (2 * L), h = sqrt(b * b - along * along);
    double Cx = Bx + along * dx / L - h * dz / L, Cz = Bz + along * dz / L + h * dx / L;
    if (Cz < 0) Cx = Bx + along * dx / L + h * dz / L, Cz = Bz + along * dz / L - h * dx / L;
    double want = atan2(-Cz, Cx - g);
    return fabs(remainder(rocker - want, 2 * M_PI));
}

/* Slider-crank: the wrist pin is at a cos(th) + sqrt(b^2 - a^2 sin^2(th)). */
static double slider_crank_relation(const mcd_model *m, mcd_data *d, const double *q)
{
    (void)d;
    const double a = 0.05, b = 0.18;
    double th = q[joint(m, "crank")], x = q[joint(m, "slider")];
    return fabs(x - (a * cos(th) + sqrt(b * b - a * a * sin(th) * sin(th))));
}

/* Delta: the platform only translates (its rotation from the base frame). */
static double delta_platform_rotation(const mcd_model *m, mcd_data *d, const double *q)
{
    int body = mcd_model_body_index(m, "platform");
    ck_assert_int_ge(body, 0);
    ck_assert_int_eq(mcd_forward_kinematics(m, d, q), MCD_OK);
    const double *R = d->bd[body].X_world.R;
    double worst = 0.0;
    for (int i = 0; i < 9; i++) worst = fmax(worst, fabs(R[i] - (i % 4 == 0)));
    return worst;
}

/* Closed leg: a parallelogram, so knee_drive = hip + knee (the shank keeps
 * the crank's absolute angle) and push_rod = -knee. */
static double leg_parallelogram(const mcd_model *m, mcd_data *d, const double *q)
{
    (void)d;
    double hip = q[joint(m, "hip")], knee = q[joint(m, "knee")];
    double drive = q[joint(m, "knee_drive")], rod = q[joint(m, "push_rod")];
    return fmax(fabs(drive - hip - knee), fabs(rod + knee));
}

static const model_case cases[] = {
    {"four_bar", 3, 3, 3, 1, "rank 2 of 3", four_bar_relation, "rocker angle"},
    {"slider_crank", 3, 3, 3, 1, "rank 2 of 3", slider_crank_relation, "slider position"},
    {"delta", 13, 13, 10, 3, NULL, delta_platform_rotation, "platform rotation"},
    {"closed_leg", 4, 4, 3, 2, "rank 2 of 3", leg_parallelogram, "parallelogram"},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static int verbose(void)
{
    return getenv("MCDYN_TEST_VERBOSE") != NULL;
}

static mcd_scenario *load_case(const model_case *c)
{
    const char *root = getenv("MCDYN_SOURCE");
    ck_assert_msg(root && *root, "MCDYN_SOURCE is not set");
    char path[4096];
    snprintf(path, sizeof path, "%s/models/%s.yaml", root, c->name);
    mcd_scenario *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load(path, &s, &err) == MCD_OK, "%s: %s", path, err.msg);
    return s;
}

static double max_abs(const double *v, int n)
{
    double worst = 0.0;
    for (int i = 0; i < n; i++) worst = fmax(worst, fabs(v[i]));
    return worst;
}

/* Rank of the r x c row-major matrix A (destroyed) by Gaussian elimination
 * with full pivoting; pivots below RANK_TOL times the largest entry are
 * zero. */
static int matrix_rank(double *A, int r, int c)
{
    double scale = max_abs(A, r * c);
    int rank = 0;
    for (; rank < r && rank < c; rank++) {
        int pi = -1, pj = -1;
        double best = RANK_TOL * scale;
        for (int i = rank; i < r; i++)
            for (int j = 0; j < c; j++)
                if (fabs(A[i * c + j]) > best) best = fabs(A[i * c + j]), pi = i, pj = j;
        if (pi < 0) break;
        for (int j = 0; j < c; j++) {
            double t = A[rank * c + j];
            A[rank * c + j] = A[pi * c + j], A[pi * c + j] = t;
        }
        for (int i = rank + 1; i < r; i++) {
            double f = A[i * c + pj] / A[rank * c + pj];
            for (int j = 0; j < c; j++) A[i * c + j] -= f * A[rank * c + j];
        }
    }
    return rank;
}

static int mobility(const mcd_model *m, mcd_data *d, const double *q)
{
    double G[MAX_COORDINATES * MAX_COORDINATES];
    ck_assert_int_le(m->nclosure_rows * m->nv, MAX_COORDINATES * MAX_COORDINATES);
    ck_assert_int_eq(mcd_closure_jacobian(m, d, q, G), MCD_OK);
    return m->nv - matrix_rank(G, m->nclosure_rows, m->nv);
}

START_TEST(model_loads)
{
    const model_case *c = &cases[_i];
    mcd_scenario *s = load_case(c);
    const mcd_model *m = s->model;
    ck_assert_str_eq(s->name, c->name);
    ck_assert_int_eq(m->nq, c->nq);
    ck_assert_int_eq(m->nv, c->nv);
    ck_assert_int_eq(m->nclosure_rows, c->rows);
    ck_assert_int_eq(s->nrobot, 1);
    ck_assert_int_eq(s->nwarning, 0);
    ck_assert_double_eq_tol(s->settings.dt, 1e-3, 1e-15);
    ck_assert_double_eq_tol(s->settings.duration, SIM_TIME, 1e-15);
    ck_assert_double_eq_tol(s->settings.closure_tolerance, 1e-10, 1e-20);
    ck_assert_double_eq_tol(m->gravity[2], -9.81, 1e-15);
    for (int g = 0; g < m->ngeom; g++) ck_assert_int_ne(m->geom[g].type, MCD_GEOM_MESH);
    for (int k = 0; k < m->nbody; k++) /* every body has collision geometry or children */
    {
        int has = m->body[k].first_child >= 0;
        for (int g = 0; g < m->ngeom && !has; g++) has = m->geom[g].body == k;
        ck_assert_msg(has, "%s: body '%s' has no collision geometry", c->name, m->body_name[k]);
    }
    mcd_scenario_free(s);
}
END_TEST

START_TEST(initial_state_closes)
{
    const model_case *c = &cases[_i];
    mcd_scenario *s = load_case(c);
    const mcd_model *m = s->model;
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double q[MAX_COORDINATES], qd[MAX_COORDINATES], phi[MAX_COORDINATES], G[256], Gv;
    memcpy(q, s->q0, sizeof(double) * (size_t)m->nq);
    memcpy(qd, s->qd0, sizeof(double) * (size_t)m->nv);
    ck_assert_int_eq(mcd_closure_errors(m, d, q, phi), MCD_OK);
    double written = max_abs(phi, m->nclosure_rows);
    ck_assert_msg(written <= WRITTEN_TOL, "%s: q0 as written misses the closures by %g", c->name,
                  written);
    ck_assert_int_eq(mcd_closure_project_position(m, d, q, PROJECTED_TOL, 20, NULL), MCD_OK);
    ck_assert_int_eq(mcd_closure_errors(m, d, q, phi), MCD_OK);
    ck_assert_double_le(max_abs(phi, m->nclosure_rows), PROJECTED_TOL);
    /* the written velocities are consistent too: projection changes little */
    ck_assert_int_eq(mcd_closure_project_velocity(m, d, q, qd), MCD_OK);
    for (int i = 0; i < m->nv; i++) ck_assert_double_le(fabs(qd[i] - s->qd0[i]), WRITTEN_TOL);
    ck_assert_int_eq(mcd_closure_jacobian(m, d, q, G), MCD_OK);
    for (int i = 0; i < m->nclosure_rows; i++) {
        Gv = 0.0;
        for (int j = 0; j < m->nv; j++) Gv += G[i * m->nv + j] * qd[j];
        ck_assert_double_le(fabs(Gv), PROJECTED_TOL);
    }
    double inv = c->invariant(m, d, q);
    ck_assert_msg(inv <= WRITTEN_TOL, "%s: %s off by %g at q0", c->name, c->invariant_name, inv);
    if (verbose())
        printf("%s: q0 closure error %.3g as written, %s %.3g\n", c->name, written,
               c->invariant_name, inv);
    mcd_data_free(d);
    mcd_scenario_free(s);
}
END_TEST

START_TEST(mobility_and_redundancy)
{
    const model_case *c = &cases[_i];
    mcd_scenario *s = load_case(c);
    const mcd_model *m = s->model;
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double q[MAX_COORDINATES];
    memcpy(q, s->q0, sizeof(double) * (size_t)m->nq);
    ck_assert_int_eq(mobility(m, d, q), c->mobility);
    /* the projection solves with the closure compliance: warned iff redundant */
    d->warn_count = 0;
    ck_assert_int_eq(mcd_closure_project_position(m, d, q, 1e-14, 20, NULL), MCD_OK);
    double qd[MAX_COORDINATES];
    memcpy(qd, s->qd0, sizeof(double) * (size_t)m->nv);
    ck_assert_int_eq(mcd_closure_project_velocity(m, d, q, qd), MCD_OK);
    if (c->redundancy) {
        ck_assert_int_gt(d->warn_count, 0);
        ck_assert_ptr_nonnull(strstr(d->warn.msg, "redundant"));
        ck_assert_ptr_nonnull(strstr(d->warn.msg, c->redundancy));
    } else {
        ck_assert_msg(d->warn_count == 0, "%s: unexpected warning: %s", c->name, d->warn.msg);
    }
    mcd_data_free(d);
    mcd_scenario_free(s);
}
END_TEST

/* What a run of SIM_TIME seconds of mcd_closure_step measures. */
typedef struct run_stats {
    double drift;              /* largest closure error [m, rad] */
    double rise;               /* largest E(t) - E0 [J] */
    double loss;               /* largest E0 - E(t) [J] */
    double kinetic;            /* largest T [J] */
    double invariant;          /* largest violation of the mechanism's property */
    double travel;             /* largest |q_0(t) - q_0(0)| */
    long warnings;             /* redundancy warnings during the run */
    int checks;                /* collision checks (every CONTACT_EVERY steps) */
    double q[MAX_COORDINATES]; /* the final configuration */
} run_stats;

/* Runs case c from its projected initial state with step dt for SIM_TIME
 * seconds; checks collisions every CONTACT_EVERY steps when world is set. */
static void simulate(const model_case *c, const mcd_scenario *s, double dt,
                     mcd_collision_world *world, mcd_data *d, run_stats *r)
{
    const mcd_model *m = s->model;
    double q[MAX_COORDINATES], qd[MAX_COORDINATES], tau[MAX_COORDINATES] = {0};
    double phi[MAX_COORDINATES], T, U;
    memcpy(q, s->q0, sizeof(double) * (size_t)m->nq);
    memcpy(qd, s->qd0, sizeof(double) * (size_t)m->nv);
    const double tol = s->settings.closure_tolerance;
    mcd_contact contacts[MAX_CONTACTS];
    int ncontacts = 0;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_closure_project_position(m, d, q, tol, 20, NULL), MCD_OK);
    ck_assert_int_eq(mcd_closure_project_velocity(m, d, q, qd), MCD_OK);
    ck_assert_int_eq(mcd_energy(m, d, q, qd, &T, &U), MCD_OK);
    const double E0 = T + U, q_start = q[0];
    memset(r, 0, sizeof *r);
    r->kinetic = T;
    const long warn_start = d->warn_count;
    const int steps = (int)lround(SIM_TIME / dt);
    for (int n = 0; n < steps; n++) {
        ck_assert_msg(mcd_closure_step(m, d, q, qd, tau, dt, tol) == MCD_OK, "%s: step %d: %s",
                      c->name, n, mcd_data_error(d));
        ck_assert_int_eq(mcd_closure_errors(m, d, q, phi), MCD_OK);
        r->drift = fmax(r->drift, max_abs(phi, m->nclosure_rows));
        ck_assert_int_eq(mcd_energy(m, d, q, qd, &T, &U), MCD_OK);
        r->rise = fmax(r->rise, T + U - E0);
        r->loss = fmax(r->loss, E0 - (T + U));
        r->kinetic = fmax(r->kinetic, T);
        r->invariant = fmax(r->invariant, c->invariant(m, d, q));
        r->travel = fmax(r->travel, fabs(q[0] - q_start));
        if (!world || n % CONTACT_EVERY != 0) continue;
        ck_assert_int_eq(mcd_forward_kinematics(m, d, q), MCD_OK);
        ck_assert_int_eq(
            mcd_collision_detect(world, m, d, contacts, MAX_CONTACTS, &ncontacts, &err), MCD_OK);
        ck_assert_msg(ncontacts == 0, "%s: t = %g s: '%s' touches '%s' (gap %g m)", c->name,
                      (n + 1) * dt, m->body_name[contacts[0].body_a],
                      contacts[0].body_b < 0 ? "world" : m->body_name[contacts[0].body_b],
                      contacts[0].gap);
        r->checks++;
    }
    r->warnings = d->warn_count - warn_start;
    memcpy(r->q, q, sizeof(double) * (size_t)m->nq);
}

START_TEST(two_seconds_of_motion)
{
    const model_case *c = &cases[_i];
    mcd_scenario *s = load_case(c);
    const mcd_model *m = s->model;
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    const double dt = s->settings.dt;
    mcd_collision_options copt = mcd_collision_options_default();
    copt.self_collision = s->settings.contact.self_collision;
    copt.activation_distance = s->settings.contact.activation_distance;
    mcd_collision_world *world = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_collision_world_create(m, &copt, &world, &err) == MCD_OK, "%s", err.msg);
    run_stats r;
    simulate(c, s, dt, world, d, &r);
    const int steps = (int)lround(SIM_TIME / dt);
    ck_assert_int_eq(r.checks, steps / CONTACT_EVERY);
    mcd_collision_world_free(world);
    if (verbose())
        printf("%s: 2 s: closure drift %.3g, energy rise %.3g J, loss %.3g J "
               "(max kinetic %.3g J), %s %.3g, first coordinate travel %.3g, warnings %ld\n",
               c->name, r.drift, r.rise, r.loss, r.kinetic, c->invariant_name, r.invariant,
               r.travel, r.warnings);
    ck_assert_msg(r.drift <= DRIFT_TOL, "%s: closure drift %g", c->name, r.drift);
    ck_assert_msg(r.invariant <= DRIFT_TOL, "%s: %s off by %g", c->name, c->invariant_name,
                  r.invariant);
    ck_assert_msg(r.travel > 0.1, "%s: the mechanism hardly moved (%g)", c->name, r.travel);
    ck_assert_int_eq(mobility(m, d, r.q), c->mobility);
    if (c->redundancy) {
        ck_assert_int_ge(r.warnings, steps); /* every step's solves */
        ck_assert_ptr_nonnull(strstr(d->warn.msg, c->redundancy));
    } else {
        ck_assert_msg(d->warn_count == 0, "%s: unexpected warning: %s", c->name, d->warn.msg);
    }
    mcd_data_free(d);
    mcd_scenario_free(s);
}
END_TEST

START_TEST(energy_error_is_first_order)
{
    const model_case *c = &cases[_i];
    mcd_scenario *s = load_case(c);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(s->model, &d, NULL), MCD_OK);
    run_stats r[2]; /* h, h/2 */
    for (int k = 0; k < 2; k++) simulate(c, s, ldexp(s->settings.dt, -k), NULL, d, &r[k]);
    const double e1 = fmax(r[0].rise, r[0].loss), e2 = fmax(r[1].rise, r[1].loss);
    if (verbose())
        printf("%s: max |E - E0| %.4g J at h, %.4g J at h/2 (rise %.3g, %.3g J): order %.3f\n",
               c->name, e1, e2, r[0].rise, r[1].rise, log2(e1 / e2));
    ck_assert_msg(e1 > 0 && fabs(log2(e1 / e2) - 1) <= ORDER_TOL,
                  "%s: energy error %g J at h, %g J at h/2: order %g, not 1", c->name, e1, e2,
                  log2(e1 / e2));
    if (r[0].rise > 0) /* the O(h) oscillation of the semi-implicit Euler energy */
        ck_assert_msg(fabs(log2(r[0].rise / r[1].rise) - 1) <= ORDER_TOL,
                      "%s: energy rise %g J at h, %g J at h/2: order %g, not 1", c->name, r[0].rise,
                      r[1].rise, log2(r[0].rise / r[1].rise));
    mcd_data_free(d);
    mcd_scenario_free(s);
}
END_TEST

static Suite *models_suite(void)
{
    Suite *s = suite_create("models");
    TCase *tc = tcase_create("models");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, model_loads, 0, NCASES);
    tcase_add_loop_test(tc, initial_state_closes, 0, NCASES);
    tcase_add_loop_test(tc, mobility_and_redundancy, 0, NCASES);
    tcase_add_loop_test(tc, two_seconds_of_motion, 0, NCASES);
    tcase_add_loop_test(tc, energy_error_is_first_order, 0, NCASES);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(models_suite());
}

/* A trotting quadruped: the Unitree A1 trots forward on flat ground under a
 * gait generator and joint PD control, through the controller API.
 *
 *   a1_trot A1.urdf [--csv OUT.csv]
 *
 * A1.urdf is example-robot-data's a1.urdf (12 revolute joints; the feet
 * are spheres of radius 2 cm on calves of 0.2 m below thighs of 0.2 m).
 * The scene (the robot on a floating base over a ground plane) is a
 * scenario held in a string; the run uses the scenario's default step
 * method and stops at the first solver failure (on_failure: stop), so the
 * program fails if any step fails.
 *
 * Gait generator (trot): the diagonal pairs FR+RL and FL+RR alternate with
 * period T; each foot spends half the period in stance, moving backwards in
 * its hip's frame at the commanded speed v on a line at the nominal height,
 * and half in swing, moving forwards by the same step length L = v T / 2 on
 * an arch of height H. The trunk is carried forward by the stance feet's
 * friction. The foot targets are given in each leg's thigh-joint frame
 * (x forward, z up, the trunk's axes), the hip abduction held at 0, and
 * turned into thigh and calf angles by the two-link inverse kinematics of
 * the sagittal plane (leg_ik). PD on every joint:
 *
 *   tau = kp (q* - q) + kd (qd* - qd),   qd* = the rate of q* (finite difference)
 *
 * The first T_SETTLE seconds hold the standing pose, the speed then ramps
 * up over T_RAMP seconds to V.
 *
 * Checks (exit status 1 when one fails or a call fails):
 *   - the trunk moves at least 0.5 m forward (+x) in 5 s;
 *   - the trunk's centre never goes below 0.20 m. The pose puts it at
 *     0.269 m (0.249 m of folded leg below the thigh joints, which are at
 *     the trunk's centre height, plus the 2 cm foot radius), the servos'
 *     sag under the weight at about 0.26 m; lying on the ground it would be
 *     at 0.057 m (half the 0.114 m trunk box). 0.20 m allows 6 cm of sag
 *     and bounce, several times what a held trot shows (about 1 cm: the
 *     stance pair carries the trunk while the other pair swings), and is
 *     far above a fall or a collapsed knee;
 *   - the trunk stays upright: its z axis within 30 degrees of the vertical.
 * With --csv it writes t and the trunk's position and roll/pitch tilt.
 *
 * Build against an installed mcdyn:
 *     cc a1_trot.c $(pkg-config --cflags --libs mcdyn) -o a1_trot
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcdyn/mcdyn.h>
#include <mcdyn/runner.h>

#define PI          3.14159265358979323846
#define DURATION    5.0  /* [s] */
#define T_SETTLE    0.5  /* standing still before the gait starts [s] */
#define T_RAMP      1.0  /* speed ramp [s] */
#define PERIOD      0.30 /* gait period T [s]: each pair swings for T / 2 */
#define SPEED       0.40 /* commanded forward speed v [m/s] */
#define LIFT        0.06 /* swing height H [m] */
#define LEG_UPPER   0.2  /* thigh length [m] (a1.urdf: calf joint 0.2 m below the thigh) */
#define LEG_LOWER   0.2  /* calf length [m] (foot 0.2 m below the calf joint) */
#define THIGH0      0.9  /* standing pose [rad] */
#define CALF0       (-1.8)
#define KP          150.0 /* [N m / rad] */
#define KD          3.0   /* [N m s / rad] */
#define MIN_FORWARD 0.5   /* [m] */
#define MIN_HEIGHT  0.20  /* [m], see above */
#define MAX_TILT    30.0  /* [deg] */

/* Legs in the URDF's order; pair 0 (FR, RL) and pair 1 (FL, RR) alternate. */
static const char *const leg_name[4] = {"FR", "FL", "RR", "RL"};
static const int leg_pair[4] = {0, 1, 1, 0};

typedef struct controller {
    int qadr[4][3], vadr[4][3]; /* hip, thigh, calf coordinates of each leg */
    double z0;                  /* nominal foot height below the thigh joint [m] */
} controller;

/* Commanded speed: 0 while settling, then a smooth ramp to SPEED. */
static double speed(double t)
{
    const double u = fmin(fmax((t - T_SETTLE) / T_RAMP, 0.0), 1.0);
    return SPEED * u * u * (3 - 2 * u);
}

/* Foot target (x, z) of a leg of the given pair at time t, in its thigh
 * joint's frame: stance for the first half of the pair's period, swing for
 * the second. While settling, the feet stay at (0, z0). */
static void foot_target(const controller *c, int pair, double t, double *x, double *z)
{
    const double L = speed(t) * PERIOD / 2; /* step length */
    *x = 0.0, *z = c->z0;
    if (t < T_SETTLE) return;
    const double cycles = (t - T_SETTLE) / PERIOD + 0.5 * pair;
    const double phase = cycles - floor(cycles); /* in [0, 1) */
    if (phase < 0.5) {                           /* stance: +L/2 -> -L/2 */
        *x = L * (0.5 - 2 * phase);
        return;
    }
    const double s = 2 * phase - 1; /* swing: -L/2 -> +L/2 on an arch */
    *x = L * (0.5 * (1 - cos(PI * s)) - 0.5);
    *z = c->z0 + LIFT * sin(PI * s);
}

/* Two-link inverse kinematics in the leg's sagittal plane. The foot of
 * thigh angle a and calf angle b (about y, knee bent backwards: b < 0) is
 *   -(x, z) = l1 u(a) + l2 u(a + b),  u(g) = (sin g, cos g),
 * so cos b = (x^2 + z^2 - l1^2 - l2^2) / (2 l1 l2) and
 *   a = atan2(-x, -z) - atan2(l2 sin b, l1 + l2 cos b). */
static void leg_ik(double x, double z, double *thigh, double *calf)
{
    const double l1 = LEG_UPPER, l2 = LEG_LOWER;
    const double cb = (x * x + z * z - l1 * l1 - l2 * l2) / (2 * l1 * l2);
    *calf = -acos(fmin(fmax(cb, -1.0), 1.0));
    *thigh = atan2(-x, -z) - atan2(l2 * sin(*calf), l1 + l2 * cos(*calf));
}

/* Joint targets (hip, thigh, calf) of a leg at time t. */
static void leg_target(const controller *c, int leg, double t, double target[3])
{
    double x, z;
    foot_target(c, leg_pair[leg], t, &x, &z);
    target[0] = 0.0;
    leg_ik(x, z, &target[1], &target[2]);
}

/* The PD law of the header on the gait's joint targets. */
static mcd_status trot_law(void *user, const mcd_model *m, mcd_data *d, double t, const double *q,
                           const double *qd, double *tau)
{
    (void)m, (void)d;
    const controller *c = user;
    const double dt = 1e-4; /* finite-difference step of the target velocity [s] */
    for (int leg = 0; leg < 4; leg++) {
        double r[3], r_next[3];
        leg_target(c, leg, t, r);
        leg_target(c, leg, t + dt, r_next);
        for (int j = 0; j < 3; j++) {
            const double rd = (r_next[j] - r[j]) / dt;
            tau[c->vadr[leg][j]] =
                KP * (r[j] - q[c->qadr[leg][j]]) + KD * (rd - qd[c->vadr[leg][j]]);
        }
    }
    return MCD_OK;
}

static int fail(const char *what, mcd_status s, const char *msg)
{
    fprintf(stderr, "a1_trot: %s: %s: %s\n", what, mcd_status_str(s), msg);
    return 1;
}

/* The scene: the A1 standing (thighs THIGH0, calves CALF0) with its feet 5
 * mm above the ground, default step method, stop at a solver failure. */
static mcd_status load_scene(const char *urdf, mcd_scenario **sc, mcd_error *err)
{
    static char yaml[8192];
    const double z0 = 2 * LEG_UPPER * cos(THIGH0) + 0.02 + 0.005;
    const int n =
        snprintf(yaml, sizeof yaml,
                 "name: a1_trot\n"
                 "robots:\n"
                 "  - urdf: \"%s\"\n"
                 "    base: floating\n"
                 "    position: [0, 0, %.4f]\n"
                 "    q: {FR_thigh_joint: %g, FL_thigh_joint: %g, RR_thigh_joint: %g,"
                 " RL_thigh_joint: %g,\n"
                 "        FR_calf_joint: %g, FL_calf_joint: %g, RR_calf_joint: %g,"
                 " RL_calf_joint: %g}\n"
                 "environment:\n"
                 "  - {name: ground, type: plane}\n"
                 "contact: {mu: 0.8, restitution: 0.0, impact_law: newton}\n"
                 "solver: {on_failure: stop}\n"
                 "dt: 0.001\n"
                 "duration: %g\n",
                 urdf, z0, THIGH0, THIGH0, THIGH0, THIGH0, CALF0, CALF0, CALF0, CALF0, DURATION);
    if (n < 0 || n >= (int)sizeof yaml || strchr(urdf, '"') || strchr(urdf, '\\'))
        return mcd_fail(err, MCD_ERR_ARG, "URDF path too long or with a quote or backslash");
    return mcd_scenario_load_string(yaml, "a1_trot.yaml", NULL, sc, err);
}

/* The coordinates of each leg's joints, by their URDF names. */
static mcd_status find_legs(const mcd_model *m, controller *c, mcd_error *err)
{
    static const char *const joint[3] = {"hip", "thigh", "calf"};
    for (int leg = 0; leg < 4; leg++)
        for (int j = 0; j < 3; j++) {
            char name[32];
            snprintf(name, sizeof name, "%s_%s_joint", leg_name[leg], joint[j]);
            const int b = mcd_model_joint_index(m, name);
            if (b < 0) return mcd_fail(err, MCD_ERR_ARG, "no joint %s in the model", name);
            c->qadr[leg][j] = m->body[b].qadr;
            c->vadr[leg][j] = m->body[b].vadr;
        }
    c->z0 = -2 * LEG_UPPER * cos(THIGH0);
    return MCD_OK;
}

/* Trunk state after the last step: position of the trunk link's frame
 * (a1.urdf's trunk is welded to its root link "base", so it is a frame of
 * that body) and the tilt of its z axis from the vertical [deg]. */
static mcd_status trunk_state(const mcd_model *m, mcd_data *d, const double *q, int trunk,
                              double p[3], double *tilt)
{
    mcd_status s = mcd_forward_kinematics(m, d, q);
    if (s != MCD_OK) return s;
    mcd_pose X;
    mcd_pose_mul(&X, &d->bd[m->frame[trunk].body].X_world, &m->frame[trunk].pose);
    memcpy(p, X.p, 3 * sizeof p[0]);
    *tilt = acos(fmin(fmax(X.R[8], -1.0), 1.0)) * 180.0 / PI; /* R[2][2]: z . e_z */
    return MCD_OK;
}

typedef struct outcome {
    double x0, x1, z_min, tilt_max;
} outcome;

/* Runs the whole duration, recording the trunk; rows to csv if given. */
static mcd_status run(mcd_runner *r, const mcd_model *m, mcd_data *d, int trunk, FILE *csv,
                      outcome *o)
{
    mcd_sim *sim = mcd_runner_sim(r);
    double p[3] = {0}, tilt = 0.0;
    mcd_status s = trunk_state(m, d, mcd_sim_q(sim), trunk, p, &tilt);
    o->x0 = p[0], o->z_min = p[2], o->tilt_max = tilt;
    if (csv) fputs("t,x,y,z,tilt\n", csv);
    for (long i = 0; s == MCD_OK && i < mcd_runner_steps(r); i++) {
        s = mcd_runner_step(r, NULL);
        if (s == MCD_OK) s = trunk_state(m, d, mcd_sim_q(sim), trunk, p, &tilt);
        o->z_min = fmin(o->z_min, p[2]);
        o->tilt_max = fmax(o->tilt_max, tilt);
        if (csv && s == MCD_OK && i % 10 == 9)
            fprintf(csv, "%.3f,%.6f,%.6f,%.6f,%.4f\n", mcd_sim_time(sim), p[0], p[1], p[2], tilt);
    }
    o->x1 = p[0];
    return s;
}

static int check(const outcome *o)
{
    int ok = 1;
    if (!(o->x1 - o->x0 >= MIN_FORWARD))
        ok = 0,
        fprintf(stderr, "check failed: %.3f m forward, not %.1f m\n", o->x1 - o->x0, MIN_FORWARD);
    if (!(o->z_min >= MIN_HEIGHT))
        ok = 0,
        fprintf(stderr, "check failed: trunk down to %.3f m, below %.2f m\n", o->z_min, MIN_HEIGHT);
    if (!(o->tilt_max <= MAX_TILT))
        ok = 0,
        fprintf(stderr, "check failed: trunk tilted %.1f deg, over %.0f\n", o->tilt_max, MAX_TILT);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 2 && !(argc == 4 && !strcmp(argv[2], "--csv"))) {
        fprintf(stderr, "usage: a1_trot A1.urdf [--csv OUT.csv]\n");
        return 2;
    }
    mcd_error err = {0};
    mcd_scenario *sc = NULL;
    mcd_runner *r = NULL;
    mcd_data *d = NULL;
    controller c = {0};
    mcd_status s = load_scene(argv[1], &sc, &err);
    if (s != MCD_OK) return fail("loading the scene", s, err.msg);
    const mcd_model *m = sc->model;
    const int trunk = mcd_model_frame_index(m, "trunk");
    if (trunk < 0 || m->frame[trunk].body < 0) return fail("model", MCD_ERR_ARG, "no trunk link");
    if ((s = find_legs(m, &c, &err)) != MCD_OK) return fail("model", s, err.msg);
    if ((s = mcd_runner_create(sc, NULL, &r, &err)) != MCD_OK) return fail("runner", s, err.msg);
    if ((s = mcd_data_create(m, &d, &err)) != MCD_OK) return fail("data", s, err.msg);
    mcd_runner_set_controller(r, trot_law, &c);
    FILE *csv = argc == 4 ? fopen(argv[3], "w") : NULL;
    if (argc == 4 && !csv) return fail("--csv", MCD_ERR_IO, argv[3]);
    outcome o = {0};
    s = run(r, m, d, trunk, csv, &o);
    if (csv && fclose(csv) != 0) s = MCD_ERR_IO;
    if (s != MCD_OK) return fail("simulation", s, mcd_sim_error(mcd_runner_sim(r)));
    printf("a1_trot: trot at %.2f m/s commanded, period %.2f s, %.1f s\n", SPEED, PERIOD, DURATION);
    printf("trunk: %.3f m forward, lowest %.3f m, largest tilt %.1f deg\n", o.x1 - o.x0, o.z_min,
           o.tilt_max);
    mcd_data_free(d);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
    return check(&o);
}

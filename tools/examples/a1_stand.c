/* A standing quadruped in C: the Unitree A1 dropped on the ground stands up
 * and holds a standing pose under joint PD control written as a controller
 * (docs/tutorial.md, "A standing quadruped"; models/a1_stand.yaml is the
 * same robot with the servos declared in YAML instead).
 *
 *   a1_stand A1.urdf
 *
 * A1.urdf is example-robot-data's a1.urdf. The wiring, all of it:
 *   the scene      a scenario in a string (mcd_scenario_load_string): the
 *                  robot on a floating base 0.47 m up, legs straight, over
 *                  a ground plane
 *   the run        mcd_runner_create: the collision world and the simulator
 *   the servos     mcd_runner_set_controller: the PD law below, called at
 *                  the start of every step
 *   the loop       mcd_runner_step for the scenario's duration
 *
 * The law, on every joint: tau = kp (q* - q) - kd qd, saturated at the
 * URDF's effort limit (33.5 N m), with the pose q* = 0 on the hips, 0.9
 * rad on the thighs and -1.8 rad on the calves (the feet under the hips,
 * the trunk about 0.27 m up; kp = 80 N m/rad, kd = 2 N m s/rad, as
 * models/a1_stand.yaml). The damping is explicit here: kd h / I is about
 * 0.1 for the lightest link at h = 1 ms, far from the explicit step's
 * limit of 2.
 *
 * Checks (exit status 1 when one fails or a call fails): every step
 * succeeds (on_failure: stop); over the last second of the 3 s the trunk's
 * height varies by less than 1 cm (standing still, not sinking or
 * bouncing) and stays above 0.2 m (standing, not lying: lying, the trunk
 * box's centre is 0.057 m up).
 *
 * Build against an installed mcdyn:
 *     cc a1_stand.c $(pkg-config --cflags --libs mcdyn) -o a1_stand
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <mcdyn/mcdyn.h>
#include <mcdyn/runner.h>

#define KP         80.0 /* [N m / rad] */
#define KD         2.0  /* [N m s / rad] */
#define MAX_SPREAD 0.01 /* [m] over the last second */
#define MIN_HEIGHT 0.2  /* [m] */

static const char scene[] = "name: a1_stand_c\n"
                            "robots:\n"
                            "  - {urdf: \"%s\", base: floating, position: [0, 0, 0.47]}\n"
                            "environment:\n"
                            "  - {name: ground, type: plane}\n"
                            "contact: {mu: 0.8, restitution: 0.0, impact_law: newton}\n"
                            "solver: {on_failure: stop}\n"
                            "dt: 0.001\n"
                            "duration: 3.0\n";

/* The standing pose of a joint, by the last letters of its URDF name. */
static double pose_of(const char *joint)
{
    if (strstr(joint, "_thigh_joint")) return 0.9;
    if (strstr(joint, "_calf_joint")) return -1.8;
    return 0.0;
}

/* tau = kp (q* - q) - kd qd on every one-coordinate joint, saturated at
 * the joint's URDF effort limit (mcd_joint_limits.effort, 0: none). */
static mcd_status stand_law(void *user, const mcd_model *m, mcd_data *d, double t, const double *q,
                            const double *qd, double *tau)
{
    (void)user, (void)d, (void)t;
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *b = &m->body[k];
        if (b->nv != 1) continue; /* the floating base: not actuated */
        const double u = KP * (pose_of(m->joint_name[k]) - q[b->qadr]) - KD * qd[b->vadr];
        const double limit = b->limits.effort > 0 ? b->limits.effort : INFINITY;
        tau[b->vadr] = fmax(-limit, fmin(limit, u));
    }
    return MCD_OK;
}

static int fail(const char *what, mcd_status s, const char *msg)
{
    fprintf(stderr, "a1_stand: %s: %s: %s\n", what, mcd_status_str(s), msg);
    return 1;
}

int main(int argc, char **argv)
{
    char yaml[sizeof scene + 4096];
    if (argc != 2 || strlen(argv[1]) > 4000 || strpbrk(argv[1], "\"\\")) {
        fprintf(stderr, "usage: a1_stand A1.urdf (a path without quotes or backslashes)\n");
        return 2;
    }
    snprintf(yaml, sizeof yaml, scene, argv[1]);
    mcd_error err = {0};
    mcd_scenario *sc = NULL;
    mcd_runner *r = NULL;
    mcd_status s = mcd_scenario_load_string(yaml, "a1_stand.yaml", NULL, &sc, &err);
    if (s != MCD_OK) return fail("scene", s, err.msg);
    if ((s = mcd_runner_create(sc, NULL, &r, &err)) != MCD_OK) return fail("runner", s, err.msg);
    mcd_runner_set_controller(r, stand_law, NULL);
    mcd_sim *sim = mcd_runner_sim(r);
    mcd_data *d = NULL; /* our own, for the trunk's pose after each step */
    if ((s = mcd_data_create(sc->model, &d, &err)) != MCD_OK) return fail("data", s, err.msg);
    const long steps = mcd_runner_steps(r), last_second = steps - lround(1.0 / 1e-3);
    double low = INFINITY, high = -INFINITY;
    for (long i = 0; i < steps; i++) {
        if ((s = mcd_runner_step(r, NULL)) != MCD_OK) return fail("step", s, mcd_sim_error(sim));
        if ((s = mcd_forward_kinematics(sc->model, d, mcd_sim_q(sim))) != MCD_OK)
            return fail("kinematics", s, "");
        const double z = d->bd[0].X_world.p[2]; /* body 0: the trunk (the root link "base") */
        if (i >= last_second) low = fmin(low, z), high = fmax(high, z);
    }
    printf("a1_stand: trunk height over the last second %.4f .. %.4f m (spread %.2e m)\n", low,
           high, high - low);
    mcd_data_free(d);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
    if (!(high - low < MAX_SPREAD && low > MIN_HEIGHT)) {
        fprintf(stderr, "check failed: not standing still above %.1f m\n", MIN_HEIGHT);
        return 1;
    }
    return 0;
}

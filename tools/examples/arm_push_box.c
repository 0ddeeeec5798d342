/* A manipulator pushing a free box across the floor, driven only by the
 * actuators of its scenario file: this program loads the scene, runs it and
 * checks that the arm pushed the box.
 *
 *   arm_push_box SCENARIO.yaml [--csv OUT.csv]
 *
 * SCENARIO.yaml is models/arm3_push_box.yaml (the arm3 arm's shoulder
 * turning along a target file into the side of a 1 kg box; the file says
 * why each number is what it is). The robot with the link "box" is the
 * pushed box, the one with the joint "shoulder_yaw" the arm. No controller:
 * the scenario's position actuators do the driving (mcd_runner_create sets
 * them), so this is what `mcdyn sim` does with the file, plus the checks.
 *
 * Checks (exit status 1 when one fails or a call fails):
 *   - every step succeeds (the scenario's on_failure: stop makes a failed
 *     solve an error of mcd_runner_step);
 *   - the arm touched the box (a contact between the box and an arm body);
 *   - the box moved at least 0.10 m along +y, the push direction (a
 *     counterclockwise sweep seen from above pushes the face at y = 0.15
 *     towards +y; 0.10 m is half the box's width, far above anything but a
 *     push);
 *   - the box never sank more than 1 mm into the floor (its lowest corner),
 *     and never tipped over: its z axis within 45 degrees of the vertical
 *     (a 0.2 x 0.3 m box tips at atan(0.1 / 0.15) = 33.7 degrees past
 *     which it falls, so 45 degrees means it fell).
 * It prints the box's displacement and the shoulder's final angle; with
 * --csv it writes t, the shoulder yaw angle and the box's x, y and yaw.
 *
 * Build against an installed mcdyn:
 *     cc arm_push_box.c $(pkg-config --cflags --libs mcdyn) -o arm_push_box
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcdyn/mcdyn.h>
#include <mcdyn/runner.h>

#define PI       3.14159265358979323846
#define MIN_PUSH 0.10 /* [m] along +y */
#define MAX_SINK 1e-3 /* [m] */
#define MAX_TILT 45.0 /* [deg] */

typedef struct outcome {
    double p0[3], p[3]; /* box centre at the start and now [m] */
    double yaw;         /* box yaw now [rad] */
    double lowest;      /* lowest box corner over the run [m] */
    double tilt_max;    /* largest tilt of the box's z axis [deg] */
    int touched;        /* the arm touched the box */
} outcome;

static int fail(const char *what, mcd_status s, const char *msg)
{
    fprintf(stderr, "arm_push_box: %s: %s: %s\n", what, mcd_status_str(s), msg);
    return 1;
}

/* The lowest corner (world z) of the box geoms of body b. */
static double lowest_corner(const mcd_model *m, const mcd_data *d, int b)
{
    double z = INFINITY;
    for (int g = 0; g < m->ngeom; g++) {
        if (m->geom[g].body != b || m->geom[g].type != MCD_GEOM_BOX) continue;
        mcd_pose X;
        mcd_pose_mul(&X, &d->bd[b].X_world, &m->geom[g].pose);
        const double *h = m->geom[g].size; /* half extents */
        for (int k = 0; k < 8; k++) {
            const double c[3] = {k & 1 ? h[0] : -h[0], k & 2 ? h[1] : -h[1], k & 4 ? h[2] : -h[2]};
            double w[3];
            mcd_pose_apply(w, &X, c);
            z = fmin(z, w[2]);
        }
    }
    return z;
}

/* Records the box's pose after a step, and whether the arm touches it. */
static mcd_status observe(mcd_sim *sim, const mcd_model *m, mcd_data *d, int box, outcome *o)
{
    mcd_status s = mcd_forward_kinematics(m, d, mcd_sim_q(sim));
    if (s != MCD_OK) return s;
    const mcd_pose *X = &d->bd[box].X_world;
    memcpy(o->p, X->p, sizeof o->p);
    o->yaw = atan2(X->R[3], X->R[0]); /* heading of the box's x axis */
    o->lowest = fmin(o->lowest, lowest_corner(m, d, box));
    o->tilt_max = fmax(o->tilt_max, acos(fmin(fmax(X->R[8], -1.0), 1.0)) * 180.0 / PI);
    for (int k = 0; k < mcd_sim_ncontacts(sim); k++) {
        const mcd_contact_point *c = mcd_sim_contact(sim, k);
        const int other = c->body_a == box ? c->body_b : c->body_b == box ? c->body_a : -1;
        o->touched |= other >= 0; /* -1: the world (floor), or not the box */
    }
    return MCD_OK;
}

/* Runs the scenario's whole duration; rows to csv if given. */
static mcd_status run(mcd_runner *r, const mcd_model *m, mcd_data *d, int box, int yaw_qadr,
                      FILE *csv, outcome *o)
{
    mcd_sim *sim = mcd_runner_sim(r);
    o->lowest = INFINITY, o->tilt_max = 0.0, o->touched = 0;
    mcd_status s = observe(sim, m, d, box, o);
    memcpy(o->p0, o->p, sizeof o->p0);
    if (csv) fputs("t,shoulder_yaw,box_x,box_y,box_yaw\n", csv);
    for (long i = 0; s == MCD_OK && i < mcd_runner_steps(r); i++) {
        s = mcd_runner_step(r, NULL);
        if (s == MCD_OK) s = observe(sim, m, d, box, o);
        if (csv && s == MCD_OK && i % 10 == 9)
            fprintf(csv, "%.3f,%.6f,%.6f,%.6f,%.6f\n", mcd_sim_time(sim), mcd_sim_q(sim)[yaw_qadr],
                    o->p[0], o->p[1], o->yaw);
    }
    return s;
}

static int check(const outcome *o)
{
    int ok = 1;
    const double pushed = o->p[1] - o->p0[1];
    if (!o->touched) ok = 0, fprintf(stderr, "check failed: the arm never touched the box\n");
    if (!(pushed >= MIN_PUSH))
        ok = 0, fprintf(stderr, "check failed: the box moved %.3f m along +y, not %.2f m\n", pushed,
                        MIN_PUSH);
    if (!(o->lowest >= -MAX_SINK))
        ok = 0, fprintf(stderr, "check failed: the box sank %.2e m into the floor\n", -o->lowest);
    if (!(o->tilt_max <= MAX_TILT))
        ok = 0, fprintf(stderr, "check failed: the box tilted %.1f deg: it fell\n", o->tilt_max);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 2 && !(argc == 4 && !strcmp(argv[2], "--csv"))) {
        fprintf(stderr, "usage: arm_push_box SCENARIO.yaml [--csv OUT.csv]\n");
        return 2;
    }
    mcd_error err = {0};
    mcd_scenario *sc = NULL;
    mcd_runner *r = NULL;
    mcd_data *d = NULL;
    mcd_status s = mcd_scenario_load(argv[1], &sc, &err);
    if (s != MCD_OK) return fail("loading the scenario", s, err.msg);
    const mcd_model *m = sc->model;
    const int box = mcd_model_body_index(m, "box"), yaw = mcd_model_joint_index(m, "shoulder_yaw");
    if (box < 0 || yaw < 0)
        return fail("scenario", MCD_ERR_ARG, "no link box or joint shoulder_yaw");
    if ((s = mcd_runner_create(sc, NULL, &r, &err)) != MCD_OK) return fail("runner", s, err.msg);
    if ((s = mcd_data_create(m, &d, &err)) != MCD_OK) return fail("data", s, err.msg);
    FILE *csv = argc == 4 ? fopen(argv[3], "w") : NULL;
    if (argc == 4 && !csv) return fail("--csv", MCD_ERR_IO, argv[3]);
    outcome o = {0};
    s = run(r, m, d, box, m->body[yaw].qadr, csv, &o);
    if (csv && fclose(csv) != 0) s = MCD_ERR_IO;
    if (s != MCD_OK) return fail("simulation", s, mcd_sim_error(mcd_runner_sim(r)));
    printf("arm_push_box: %.1f s, shoulder yaw at %.3f rad\n", mcd_sim_time(mcd_runner_sim(r)),
           mcd_sim_q(mcd_runner_sim(r))[m->body[yaw].qadr]);
    printf("box: moved (%+.3f, %+.3f) m, turned %+.1f deg, lowest corner %+.1e m, largest tilt "
           "%.1f deg\n",
           o.p[0] - o.p0[0], o.p[1] - o.p0[1], o.yaw * 180.0 / PI, o.lowest, o.tilt_max);
    mcd_data_free(d);
    mcd_runner_free(r);
    mcd_scenario_free(sc);
    return check(&o);
}

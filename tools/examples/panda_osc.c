/* Operational-space control of the Franka Emika Panda: the hand's tool
 * centre point (TCP) tracks a circle of radius 10 cm in a vertical plane
 * while holding its orientation (Khatib's operational-space formulation).
 *
 *   panda_osc PANDA.urdf [--csv OUT.csv]
 *
 * PANDA.urdf is example-robot-data's panda_collision.urdf (its finger
 * joints carry a <mimic>, loaded here as independent joints). Every step,
 * the controller computes with the library's O(N) operational-space
 * quantities, in the scratch data the simulator gives it:
 *
 *   J            mcd_node_jacobian            (6 x nv, world axes at the TCP)
 *   Jdot qd      mcd_node_bias_acceleration   (velocity-product terms)
 *   Lambda       mcd_node_osc_inertia         (J M^{-1} J^T)^{-1}, Khatib's
 *   C(q, qd)     mcd_bias_forces              (Newton-Euler at qdd = 0: gravity,
 *                                              Coriolis, centrifugal)
 *   M^{-1} x     mcd_minv_solve               (null-space projection)
 *
 * and applies
 *
 *   tau = J^T Lambda (a* - Jdot qd) + C + b qd + N^T tau_0,
 *   a*  = [wdot*; xdd*] = desired acceleration + PD on the pose error,
 *   N^T = I - J^T Lambda J M^{-1},  tau_0 = PD towards the ready posture,
 *
 * b qd cancelling the joint damping the simulator applies. Then
 * M qdd = J^T Lambda (a* - Jdot qd) + N^T tau_0 gives J qdd + Jdot qd = a*:
 * the TCP error obeys e'' + Kd e' + Kp e = 0 up to the time step.
 *
 * The program simulates 5 s (1 s of smooth start, then two turns), prints
 * the RMS and largest position error and the largest orientation error, and
 * exits with status 1 when a call fails or the RMS error is not below 1 mm.
 * With --csv it writes t and the desired and actual TCP positions.
 *
 * Build against an installed mcdyn:
 *     cc panda_osc.c $(pkg-config --cflags --libs mcdyn) -lm -o panda_osc
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcdyn/mcdyn.h>

#define RADIUS     0.10                   /* circle radius [m] */
#define OMEGA      3.14159265358979323846 /* rate on the circle [rad/s]: a turn in 2 s */
#define RAMP       1.0                    /* smooth start of the angular rate [s] */
#define DURATION   5.0                    /* [s] */
#define KP         400.0                  /* task stiffness [1/s^2]: 20 rad/s bandwidth */
#define KD         40.0                   /* task damping [1/s]: critical, 2 sqrt(KP) */
#define KP_POSTURE 25.0                   /* null-space posture gains [N m / rad], [N m s / rad] */
#define KD_POSTURE 10.0
#define MAX_RMS    1e-3 /* [m] */
#define NV_MAX     16

/* The Panda's "ready" configuration (7 arm joints, 2 fingers). */
static const double ready[9] = {0, -0.785, 0, -2.356, 0, 1.571, 0.785, 0.02, 0.02};

typedef struct controller {
    int node;     /* the TCP */
    double x0[3]; /* TCP position at t = 0: the circle starts there */
    double R0[9]; /* TCP orientation to hold */
    double J[6 * NV_MAX], Lambda[36], C[NV_MAX], tau0[NV_MAX], y[NV_MAX];
    double xd[3], x[3]; /* desired and actual position of the last call */
    double rot_err;     /* |orientation error| of the last call [rad] */
} controller;

/* Angle on the circle and its first two derivatives: the rate rises as
 * smoothstep(t / RAMP) to OMEGA. */
static void circle_phase(double t, double th[3])
{
    if (t < RAMP) {
        const double u = t / RAMP;
        th[0] = OMEGA * RAMP * (u * u * u - 0.5 * u * u * u * u);
        th[1] = OMEGA * (3 * u * u - 2 * u * u * u);
        th[2] = OMEGA / RAMP * (6 * u - 6 * u * u);
        return;
    }
    th[0] = OMEGA * (0.5 * RAMP + (t - RAMP));
    th[1] = OMEGA;
    th[2] = 0.0;
}

/* Desired position, velocity and acceleration: x0 + r (0, 1 - cos th, sin th). */
static void circle(const double x0[3], double t, double x[3], double v[3], double a[3])
{
    double th[3];
    circle_phase(t, th);
    const double c = cos(th[0]), s = sin(th[0]);
    x[0] = x0[0], x[1] = x0[1] + RADIUS * (1 - c), x[2] = x0[2] + RADIUS * s;
    v[0] = 0, v[1] = RADIUS * th[1] * s, v[2] = RADIUS * th[1] * c;
    a[0] = 0;
    a[1] = RADIUS * (th[2] * s + th[1] * th[1] * c);
    a[2] = RADIUS * (th[2] * c - th[1] * th[1] * s);
}

/* Orientation error e = 1/2 sum_i r_i x rd_i (columns of R and Rd): the
 * rotation vector from R to Rd for small errors, world axes. */
static void orientation_error(const double R[9], const double Rd[9], double e[3])
{
    e[0] = e[1] = e[2] = 0.0;
    for (int i = 0; i < 3; i++) {
        const double r[3] = {R[i], R[3 + i], R[6 + i]}, rd[3] = {Rd[i], Rd[3 + i], Rd[6 + i]};
        e[0] += 0.5 * (r[1] * rd[2] - r[2] * rd[1]);
        e[1] += 0.5 * (r[2] * rd[0] - r[0] * rd[2]);
        e[2] += 0.5 * (r[0] * rd[1] - r[1] * rd[0]);
    }
}

/* a* - Jdot qd (6 entries) from the pose error and the bias acceleration. */
static mcd_status task_acceleration(controller *c, const mcd_model *m, mcd_data *d, double t,
                                    const double *q, const double *qd, double acc[6])
{
    mcd_pose pose;
    double bias[6], vel[6] = {0}, vd[3], ad[3], er[3];
    mcd_status s = mcd_node_bias_acceleration(m, d, q, qd, c->node, MCD_REF_WORLD, bias);
    if (s == MCD_OK) s = mcd_node_pose(m, d, q, c->node, &pose);
    if (s == MCD_OK) s = mcd_node_jacobian(m, d, q, c->node, MCD_REF_WORLD, c->J);
    if (s != MCD_OK) return s;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < m->nv; j++) vel[i] += c->J[i * m->nv + j] * qd[j]; /* [w; v] = J qd */
    circle(c->x0, t, c->xd, vd, ad);
    memcpy(c->x, pose.p, sizeof c->x);
    orientation_error(pose.R, c->R0, er);
    c->rot_err = sqrt(er[0] * er[0] + er[1] * er[1] + er[2] * er[2]);
    for (int i = 0; i < 3; i++) {
        acc[i] = KP * er[i] - KD * vel[i] - bias[i];
        acc[3 + i] = ad[i] + KD * (vd[i] - vel[3 + i]) + KP * (c->xd[i] - pose.p[i]) - bias[3 + i];
    }
    return MCD_OK;
}

/* The control law of the header, in the simulator's scratch data d. */
static mcd_status osc_law(void *user, const mcd_model *m, mcd_data *d, double t, const double *q,
                          const double *qd, double *tau)
{
    controller *c = user;
    const int nv = m->nv;
    double acc[6], F[6];
    mcd_status s = task_acceleration(c, m, d, t, q, qd, acc);
    if (s == MCD_OK) s = mcd_bias_forces(m, d, q, qd, c->C);
    /* the inertia last: it leaves the factorization of M(q) for minv_solve */
    if (s == MCD_OK) s = mcd_node_osc_inertia(m, d, q, 1, &c->node, MCD_OSC_SPATIAL, c->Lambda);
    for (int i = 0; s == MCD_OK && i < nv; i++)
        c->tau0[i] = KP_POSTURE * (ready[i] - q[i]) - KD_POSTURE * qd[i];
    if (s == MCD_OK) s = mcd_minv_solve(m, d, c->tau0, c->y); /* y = M^{-1} tau_0 */
    if (s != MCD_OK) return s;
    for (int i = 0; i < 6; i++) { /* F = Lambda (a* - Jdot qd - J M^{-1} tau_0) */
        double Jy = 0.0;
        for (int j = 0; j < nv; j++) Jy += c->J[i * nv + j] * c->y[j];
        acc[i] -= Jy;
    }
    for (int i = 0; i < 6; i++) {
        F[i] = 0.0;
        for (int j = 0; j < 6; j++) F[i] += c->Lambda[6 * i + j] * acc[j];
    }
    for (int k = 0; k < m->nbody; k++) { /* tau = J^T F + C + b qd + tau_0 */
        const int v = m->body[k].vadr;
        for (int i = 0; i < m->body[k].nv; i++) {
            double JtF = 0.0;
            for (int r = 0; r < 6; r++) JtF += c->J[r * nv + v + i] * F[r];
            tau[v + i] = JtF + c->C[v + i] + m->body[k].limits.damping * qd[v + i] + c->tau0[v + i];
        }
    }
    return MCD_OK;
}

static int fail(const char *what, mcd_status s, const char *msg)
{
    fprintf(stderr, "panda_osc: %s: %s: %s\n", what, mcd_status_str(s), msg);
    return 1;
}

/* The TCP as a node (panda_hand_tcp is merged into the hand's body). */
static mcd_status add_tcp(mcd_model *m, int *node, mcd_error *err)
{
    const int f = mcd_model_frame_index(m, "panda_hand_tcp");
    if (f < 0 || m->frame[f].body < 0)
        return mcd_fail(err, MCD_ERR_ARG, "no moving link panda_hand_tcp in the model");
    return mcd_model_add_node(m, "tcp", m->frame[f].body, &m->frame[f].pose, node, err);
}

/* Runs the simulation, tracking the errors; writes rows to csv if given. */
static mcd_status run(mcd_sim *sim, controller *c, FILE *csv, double *rms, double *worst,
                      double *worst_rot)
{
    const long steps = lround(DURATION / mcd_sim_default_options().dt);
    double sum = 0.0;
    *worst = *worst_rot = 0.0;
    if (csv) fputs("t,xd,yd,zd,x,y,z\n", csv);
    for (long i = 0; i < steps; i++) {
        mcd_status s = mcd_sim_step(sim, NULL);
        if (s != MCD_OK) return s;
        /* the errors at the state the controller saw: the step's start */
        const double e = sqrt(pow(c->x[0] - c->xd[0], 2) + pow(c->x[1] - c->xd[1], 2) +
                              pow(c->x[2] - c->xd[2], 2));
        sum += e * e;
        *worst = fmax(*worst, e);
        *worst_rot = fmax(*worst_rot, c->rot_err);
        if (csv && i % 10 == 0)
            fprintf(csv, "%.6f,%.9f,%.9f,%.9f,%.9f,%.9f,%.9f\n", mcd_sim_time(sim) - 1e-3, c->xd[0],
                    c->xd[1], c->xd[2], c->x[0], c->x[1], c->x[2]);
    }
    *rms = sqrt(sum / (double)steps);
    return MCD_OK;
}

int main(int argc, char **argv)
{
    if (argc != 2 && !(argc == 4 && !strcmp(argv[2], "--csv"))) {
        fprintf(stderr, "usage: panda_osc PANDA.urdf [--csv OUT.csv]\n");
        return 2;
    }
    mcd_error err = {0};
    mcd_urdf_options uo = mcd_urdf_default_options();
    uo.ignore_mimic = 1; /* the second finger follows the first in the URDF */
    mcd_model *m = NULL;
    mcd_sim *sim = NULL;
    controller c = {0};
    mcd_status s = mcd_urdf_load_file(argv[1], &uo, &m, &err);
    if (s != MCD_OK) return fail("loading the URDF", s, err.msg);
    if (m->nq != 9 || m->nv > NV_MAX) {
        mcd_model_free(m);
        return fail("model", MCD_ERR_ARG, "expected the Panda with 9 coordinates");
    }
    if ((s = add_tcp(m, &c.node, &err)) != MCD_OK) return fail("TCP node", s, err.msg);
    if ((s = mcd_sim_create(m, NULL, &sim, &err)) != MCD_OK) return fail("simulator", s, err.msg);
    const double qd0[9] = {0};
    mcd_pose tcp;
    s = mcd_sim_set_state(sim, ready, qd0, 0.0);
    if (s == MCD_OK) s = mcd_node_pose(m, mcd_sim_data(sim), ready, c.node, &tcp);
    if (s != MCD_OK) return fail("initial state", s, mcd_sim_error(sim));
    memcpy(c.x0, tcp.p, sizeof c.x0);
    memcpy(c.R0, tcp.R, sizeof c.R0);
    mcd_sim_set_controller(sim, osc_law, &c);
    FILE *csv = argc == 4 ? fopen(argv[3], "w") : NULL;
    if (argc == 4 && !csv) return fail("--csv", MCD_ERR_IO, argv[3]);
    double rms, worst, worst_rot;
    s = run(sim, &c, csv, &rms, &worst, &worst_rot);
    if (csv && fclose(csv) != 0) s = MCD_ERR_IO;
    if (s != MCD_OK) return fail("simulation", s, mcd_sim_error(sim));
    printf("panda_osc: circle of radius %.2f m, %.1f s, TCP start (%.4f, %.4f, %.4f) m\n", RADIUS,
           DURATION, c.x0[0], c.x0[1], c.x0[2]);
    printf("position error: RMS %.3e m, max %.3e m; orientation error: max %.3e rad\n", rms, worst,
           worst_rot);
    mcd_sim_free(sim);
    mcd_model_free(m);
    if (!(rms < MAX_RMS)) {
        fprintf(stderr, "check failed: RMS error %.3e m, not below %.0e m\n", rms, MAX_RMS);
        return 1;
    }
    return 0;
}

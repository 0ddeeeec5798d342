/* A planar double pendulum built with the mcdyn builder.
 *
 * Two uniform rods hang from revolute joints about the world y axis. The
 * program computes the mass matrix M, the bias forces C (Coriolis,
 * centrifugal and gravity), forward dynamics, the Jacobian and the
 * operational-space compliance Lambda of the tip, checks each against the
 * closed-form expressions of the double pendulum, then simulates 2 s with
 * semi-implicit Euler and prints the energy.
 *
 * Every mcdyn call is checked. The program exits with status 1 when a call
 * fails or a check does not hold, so it doubles as a test.
 *
 * Build against an installed mcdyn:
 *     cc double_pendulum.c $(pkg-config --cflags --libs mcdyn) -o double_pendulum
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcdyn/mcdyn.h>

/* Link lengths, centre-of-mass distances from the joints, masses, rod radius. */
static const double L1 = 1.0, L2 = 0.8, C1 = 0.5, C2 = 0.4, M1 = 1.0, M2 = 0.7, RADIUS = 0.02;
static const double GRAVITY = 9.81;

static int failures = 0;

/* Prints a failed call with its message and counts it. */
static int check_call(mcd_status s, const char *what, const char *msg)
{
    if (s == MCD_OK) return 1;
    fprintf(stderr, "error: %s: %s: %s\n", what, mcd_status_str(s), msg);
    failures++;
    return 0;
}

/* Compares a computed value with the expected one (absolute tolerance). */
static void check_close(const char *what, double got, double want, double tol)
{
    if (fabs(got - want) <= tol) return;
    fprintf(stderr, "check failed: %s = %.15g, expected %.15g (tolerance %g)\n", what, got, want,
            tol);
    failures++;
}

/* Mass properties of a solid rod of length len and the given mass along -z,
 * centre of mass at distance com from the joint. */
static mcd_mass_props rod(double mass, double len, double com)
{
    mcd_mass_props mp;
    memset(&mp, 0, sizeof mp);
    mp.mass = mass;
    mp.com[2] = -com;
    mp.inertia[0] = mp.inertia[4] = mass * (3.0 * RADIUS * RADIUS + len * len) / 12.0;
    mp.inertia[8] = 0.5 * mass * RADIUS * RADIUS;
    return mp;
}

/* Builds the model: "upper" hangs from the world, "lower" from the end of
 * "upper"; both hinges turn about y. A node "tip" sits at the end of "lower". */
static mcd_model *build_model(void)
{
    mcd_builder *b = NULL;
    mcd_model *m = NULL;
    mcd_error err = {0};
    if (!check_call(mcd_builder_create(&b), "mcd_builder_create", "")) return NULL;

    mcd_link_desc upper = mcd_link_desc_default();
    upper.name = "upper";
    upper.joint_name = "shoulder";
    upper.parent = -1;
    upper.jtype = MCD_JOINT_REVOLUTE;
    mcd_v3_set(upper.axis, 0.0, 1.0, 0.0);
    upper.mass = rod(M1, L1, C1);
    int iu = -1;
    mcd_status s = mcd_builder_add_link(b, &upper, &iu, &err);

    mcd_link_desc lower = mcd_link_desc_default();
    lower.name = "lower";
    lower.joint_name = "elbow";
    lower.parent = iu;
    lower.jtype = MCD_JOINT_REVOLUTE;
    mcd_v3_set(lower.origin.p, 0.0, 0.0, -L1); /* joint frame in the "upper" frame */
    mcd_v3_set(lower.axis, 0.0, 1.0, 0.0);
    lower.mass = rod(M2, L2, C2);
    int il = -1;
    if (s == MCD_OK) s = mcd_builder_add_link(b, &lower, &il, &err);

    mcd_pose tip;
    mcd_pose_identity(&tip);
    tip.p[2] = -L2;
    if (s == MCD_OK) s = mcd_builder_add_node(b, "tip", il, &tip, NULL, &err);
    if (s == MCD_OK) s = mcd_builder_set_name(b, "double_pendulum", &err);
    if (s == MCD_OK) s = mcd_model_build(b, &m, &err);
    check_call(s, "building the model", err.msg);
    mcd_builder_free(b); /* the model does not refer to the builder */
    return s == MCD_OK ? m : NULL;
}

/* Closed-form M, C and tip position of the double pendulum at (q, qd). */
static void closed_form(const double q[2], const double qd[2], double Mref[4], double Cref[2])
{
    const double I1 = M1 * (3.0 * RADIUS * RADIUS + L1 * L1) / 12.0;
    const double I2 = M2 * (3.0 * RADIUS * RADIUS + L2 * L2) / 12.0;
    const double c2 = cos(q[1]), h = M2 * L1 * C2 * sin(q[1]);
    Mref[0] = I1 + I2 + M1 * C1 * C1 + M2 * (L1 * L1 + C2 * C2 + 2.0 * L1 * C2 * c2);
    Mref[1] = Mref[2] = I2 + M2 * (C2 * C2 + L1 * C2 * c2);
    Mref[3] = I2 + M2 * C2 * C2;
    const double s1 = sin(q[0]), s12 = sin(q[0] + q[1]);
    Cref[0] = -h * (2.0 * qd[0] * qd[1] + qd[1] * qd[1]) +
              GRAVITY * (M1 * C1 * s1 + M2 * (L1 * s1 + C2 * s12));
    Cref[1] = h * qd[0] * qd[0] + GRAVITY * M2 * C2 * s12;
}

/* The quantities of one state, printed and checked against the closed form. */
static void analyse_state(const mcd_model *m, mcd_data *d, const double q[2], const double qd[2])
{
    double M[4], C[2], tau[2] = {0.5, -0.2}, qdd[2], Mref[4], Cref[2];
    if (!check_call(mcd_mass_matrix(m, d, q, M), "mcd_mass_matrix", mcd_data_error(d))) return;
    if (!check_call(mcd_bias_forces(m, d, q, qd, C), "mcd_bias_forces", mcd_data_error(d))) return;
    closed_form(q, qd, Mref, Cref);
    printf("M = [%.6f %.6f; %.6f %.6f]\n", M[0], M[1], M[2], M[3]);
    printf("C = [%.6f %.6f]\n", C[0], C[1]);
    for (int i = 0; i < 4; i++) check_close("M entry", M[i], Mref[i], 1e-12);
    for (int i = 0; i < 2; i++) check_close("C entry", C[i], Cref[i], 1e-12);

    /* forward dynamics: qdd = M^{-1} (tau - C); check M qdd + C = tau */
    if (!check_call(mcd_forward_dynamics(m, d, q, qd, tau, NULL, qdd), "mcd_forward_dynamics",
                    mcd_data_error(d)))
        return;
    printf("qdd = [%.6f %.6f] for tau = [%.2f %.2f]\n", qdd[0], qdd[1], tau[0], tau[1]);
    for (int i = 0; i < 2; i++)
        check_close("M qdd + C - tau", M[2 * i] * qdd[0] + M[2 * i + 1] * qdd[1] + C[i], tau[i],
                    1e-12);

    /* tip Jacobian, rows [w; v] in world axes at the tip: 6 x nv */
    const int tip = mcd_model_node_index(m, "tip");
    double J[12];
    if (!check_call(mcd_node_jacobian(m, d, q, tip, MCD_REF_WORLD, J), "mcd_node_jacobian",
                    mcd_data_error(d)))
        return;
    const double c1 = cos(q[0]), s1 = sin(q[0]), c12 = cos(q[0] + q[1]), s12 = sin(q[0] + q[1]);
    /* rows wx, wy, wz, vx, vy, vz of the tip at
     * x = -L1 sin q1 - L2 sin(q1 + q2), z = -L1 cos q1 - L2 cos(q1 + q2) */
    const double Jref[6][2] = {{0, 0}, {1, 1},
                               {0, 0}, {-L1 * c1 - L2 * c12, -L2 * c12},
                               {0, 0}, {L1 * s1 + L2 * s12, L2 * s12}};
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 2; c++) check_close("J entry", J[2 * r + c], Jref[r][c], 1e-12);
    printf("J_tip linear rows (world) = [%.6f %.6f; %.6f %.6f; %.6f %.6f]\n", J[6], J[7], J[8],
           J[9], J[10], J[11]);

    /* Lambda = J M^{-1} J^T of the tip's linear rows, by the O(N) recursion */
    double Lambda[9];
    if (!check_call(mcd_node_compliance(m, d, q, 1, &tip, MCD_OSC_LINEAR, Lambda),
                    "mcd_node_compliance", mcd_data_error(d)))
        return;
    printf("Lambda_tip = [%.6f %.6f %.6f; %.6f %.6f %.6f; %.6f %.6f %.6f]\n", Lambda[0], Lambda[1],
           Lambda[2], Lambda[3], Lambda[4], Lambda[5], Lambda[6], Lambda[7], Lambda[8]);
    /* the same from J and M^{-1} J^T (mcd_node_compliance left the
     * factorization of M(q) in d, so mcd_minv_solve may follow directly) */
    for (int j = 0; j < 3; j++) {
        const double *Jj = J + 2 * (3 + j); /* row 3 + j of the 6 x 2 J */
        double x[2] = {Jj[0], Jj[1]}, y[2];
        if (!check_call(mcd_minv_solve(m, d, x, y), "mcd_minv_solve", mcd_data_error(d))) return;
        for (int i = 0; i < 3; i++) {
            const double *Ji = J + 2 * (3 + i);
            check_close("Lambda entry", Lambda[3 * i + j], Ji[0] * y[0] + Ji[1] * y[1], 1e-12);
        }
    }
}

/* 2 s of semi-implicit Euler without torques: qd += dt qdd(q, qd);
 * q = q (+) qd dt. Prints the energy; returns the largest energy error
 * relative to m g l. */
static double simulate(const mcd_model *m, mcd_data *d, double q[2], double qd[2])
{
    const double dt = 1e-3, scale = (M1 + M2) * GRAVITY * (L1 + L2);
    const int steps = 2000;
    double tau[2] = {0.0, 0.0}, qdd[2], T, U, E0 = 0.0, worst = 0.0;
    for (int step = 0; step <= steps; step++) {
        if (!check_call(mcd_energy(m, d, q, qd, &T, &U), "mcd_energy", mcd_data_error(d)))
            return INFINITY;
        if (step == 0) E0 = T + U;
        worst = fmax(worst, fabs(T + U - E0) / scale);
        if (step % 250 == 0)
            printf("t = %4.2f s  q = [% .5f % .5f]  T = %.6f J  U = % .6f J  E = % .6f J\n",
                   step * dt, q[0], q[1], T, U, T + U);
        if (step == steps) break;
        if (!check_call(mcd_forward_dynamics(m, d, q, qd, tau, NULL, qdd), "mcd_forward_dynamics",
                        mcd_data_error(d)))
            return INFINITY;
        qd[0] += dt * qdd[0];
        qd[1] += dt * qdd[1];
        if (!check_call(mcd_integrate(m, q, qd, dt, q), "mcd_integrate", "")) return INFINITY;
    }
    return worst;
}

int main(void)
{
    mcd_model *m = build_model();
    if (!m) return EXIT_FAILURE;
    mcd_data *d = NULL;
    mcd_error err = {0};
    if (!check_call(mcd_data_create(m, &d, &err), "mcd_data_create", err.msg)) {
        mcd_model_free(m);
        return EXIT_FAILURE;
    }
    printf("model '%s': %d bodies, nq = %d, nv = %d, total mass %.3f kg\n", m->name, m->nbody,
           m->nq, m->nv, m->total_mass);

    double q[2] = {0.8, -0.5}, qd[2] = {0.3, -1.1};
    analyse_state(m, d, q, qd);

    /* semi-implicit Euler is symplectic: the energy error stays bounded
     * (O(dt)) instead of drifting */
    double drift = simulate(m, d, q, qd);
    printf("largest energy error over 2 s: %.3e of m g l\n", drift);
    if (!(drift < 2e-3)) {
        fprintf(stderr, "check failed: energy error %.3e exceeds 2e-3 of m g l\n", drift);
        failures++;
    }

    /* what an error looks like: a NaN angle is reported, not propagated */
    double bad[2] = {NAN, 0.0}, M[4];
    mcd_status s = mcd_mass_matrix(m, d, bad, M);
    printf("NaN input: %s (%s)\n", mcd_status_str(s), mcd_data_error(d));
    if (s != MCD_ERR_NONFINITE) {
        fprintf(stderr, "check failed: NaN input gave status %s\n", mcd_status_str(s));
        failures++;
    }

    mcd_data_free(d);
    mcd_model_free(m);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return EXIT_FAILURE;
    }
    printf("all checks passed\n");
    return EXIT_SUCCESS;
}

/* Loads a URDF robot and reports its dynamics at one configuration.
 *
 *     urdf_query ROBOT.urdf [LINK] [--floating]
 *
 * Prints the bodies (moving links) with their joints, then, at the
 * configuration q = neutral (+) 0.1 per velocity coordinate: the diagonal of
 * the mass matrix, the gravity forces, the centre of mass and the energy.
 * With LINK (any link, also one merged into its parent by a fixed joint), it
 * also prints the world pose, the Jacobian and the operational-space
 * compliance Lambda = J M^-1 J^T of that link's origin. --floating attaches
 * the root link to the world by a free joint.
 *
 * Self-checks (exit status 1 when one fails, or when a call fails): gravity
 * compensation tau = G(q) holds the robot still, and Lambda equals J M^-1 J^T
 * formed column by column with the O(N) solve.
 *
 * Build against an installed mcdyn:
 *     cc urdf_query.c $(pkg-config --cflags --libs mcdyn) -o urdf_query
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcdyn/mcdyn.h>
#include <mcdyn/urdf.h>

/* Loader warnings (an ignored <mimic>, a missing visual mesh) go to stderr. */
static void print_warning(void *user, const char *msg)
{
    (void)user;
    fprintf(stderr, "warning: %s\n", msg);
}

static int fail(const char *what, mcd_status s, const char *msg)
{
    fprintf(stderr, "error: %s: %s: %s\n", what, mcd_status_str(s), msg);
    return 0;
}

/* Bodies, joints and mass of the model. */
static void print_model(const mcd_model *m)
{
    printf("model '%s': %d moving bodies, %d frames, nq = %d, nv = %d, mass %.4f kg\n",
           m->name ? m->name : "", m->nbody, m->nframe, m->nq, m->nv, m->total_mass);
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        printf("  body %2d %-16s joint %-16s %-10s parent %-16s q[%d..%d] v[%d..%d] %.4f kg\n", k,
               m->body_name[k], m->joint_name[k], mcd_joint_type_name(B->jtype),
               B->parent < 0 ? "(world)" : m->body_name[B->parent], B->qadr, B->qadr + B->nq - 1,
               B->vadr, B->vadr + B->nv - 1, B->mass.mass);
    }
}

/* Dynamics at q with zero velocity; checks that tau = G(q) gives qdd = 0. */
static int report_dynamics(const mcd_model *m, mcd_data *d, const double *q, double *work)
{
    const int nv = m->nv;
    double *M = work, *G = M + nv * nv, *qd = G + nv, *qdd = qd + nv;
    mcd_status s;
    if ((s = mcd_mass_matrix(m, d, q, M)) != MCD_OK)
        return fail("mcd_mass_matrix", s, mcd_data_error(d));
    if ((s = mcd_gravity_forces(m, d, q, G)) != MCD_OK)
        return fail("mcd_gravity_forces", s, mcd_data_error(d));
    printf("diag M:");
    for (int i = 0; i < nv; i++) printf(" %.6g", M[i * nv + i]);
    printf("\nG:     ");
    for (int i = 0; i < nv; i++) printf(" %.6g", G[i]);
    printf("\n");

    memset(qd, 0, (size_t)nv * sizeof *qd);
    if ((s = mcd_forward_dynamics(m, d, q, qd, G, NULL, qdd)) != MCD_OK)
        return fail("mcd_forward_dynamics", s, mcd_data_error(d));
    double worst = 0.0;
    for (int i = 0; i < nv; i++) worst = fmax(worst, fabs(qdd[i]));
    printf("gravity compensation: max |qdd| = %.3g\n", worst);
    if (!(worst < 1e-9)) return fail("gravity compensation", MCD_OK, "qdd is not zero");

    double com[3], T, U;
    if ((s = mcd_center_of_mass(m, d, q, com)) != MCD_OK)
        return fail("mcd_center_of_mass", s, mcd_data_error(d));
    if ((s = mcd_energy(m, d, q, qd, &T, &U)) != MCD_OK)
        return fail("mcd_energy", s, mcd_data_error(d));
    printf("centre of mass (world): [%.6f %.6f %.6f], potential energy %.6f J\n", com[0], com[1],
           com[2], U);
    return 1;
}

/* Pose, Jacobian and Lambda of a node; checks Lambda against J M^-1 J^T. */
static int report_node(const mcd_model *m, mcd_data *d, const double *q, int node, double *work)
{
    const int nv = m->nv;
    double *J = work, *x = J + 6 * nv, *y = x + nv, Lambda[9];
    mcd_pose X;
    mcd_status s;
    if ((s = mcd_node_pose(m, d, q, node, &X)) != MCD_OK)
        return fail("mcd_node_pose", s, mcd_data_error(d));
    printf("node '%s' on body '%s': world position [%.6f %.6f %.6f]\n", m->node_name[node],
           m->body_name[m->node[node].body], X.p[0], X.p[1], X.p[2]);
    if ((s = mcd_node_jacobian(m, d, q, node, MCD_REF_WORLD, J)) != MCD_OK)
        return fail("mcd_node_jacobian", s, mcd_data_error(d));
    static const char *const row_name[6] = {"wx", "wy", "wz", "vx", "vy", "vz"};
    for (int r = 0; r < 6; r++) {
        printf("  J %s:", row_name[r]);
        for (int c = 0; c < nv; c++) printf(" % .5f", J[r * nv + c]);
        printf("\n");
    }
    /* linear rows of Lambda; mcd_node_compliance factorizes M(q) in O(N) */
    if ((s = mcd_node_compliance(m, d, q, 1, &node, MCD_OSC_LINEAR, Lambda)) != MCD_OK)
        return fail("mcd_node_compliance", s, mcd_data_error(d));
    printf("Lambda (linear, world axes) [m/(N s^2)]:\n");
    for (int i = 0; i < 3; i++)
        printf("  % .6e % .6e % .6e\n", Lambda[3 * i], Lambda[3 * i + 1], Lambda[3 * i + 2]);

    /* the same, column by column: Lambda e_j = J_v M^-1 J_v^T e_j */
    double worst = 0.0, scale = 0.0;
    for (int j = 0; j < 3; j++) {
        for (int c = 0; c < nv; c++) x[c] = J[(3 + j) * nv + c];
        if ((s = mcd_minv_solve(m, d, x, y)) != MCD_OK)
            return fail("mcd_minv_solve", s, mcd_data_error(d));
        for (int i = 0; i < 3; i++) {
            double t = 0.0;
            for (int c = 0; c < nv; c++) t += J[(3 + i) * nv + c] * y[c];
            worst = fmax(worst, fabs(t - Lambda[3 * i + j]));
            scale = fmax(scale, fabs(t));
        }
    }
    printf("Lambda vs J M^-1 J^T: max difference %.3g (scale %.3g)\n", worst, scale);
    if (!(worst <= 1e-10 * fmax(1.0, scale)))
        return fail("Lambda check", MCD_OK, "recursion and J M^-1 J^T differ");
    return 1;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *link = NULL;
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.warn = print_warning;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--floating"))
            opt.floating_base = 1;
        else if (!path)
            path = argv[i];
        else if (!link)
            link = argv[i];
        else
            path = NULL, i = argc; /* too many arguments */
    }
    if (!path) {
        fprintf(stderr, "usage: %s ROBOT.urdf [LINK] [--floating]\n", argv[0]);
        return 2;
    }

    mcd_model *m = NULL;
    mcd_data *d = NULL;
    mcd_error err = {0};
    mcd_status s = mcd_urdf_load_file(path, &opt, &m, &err);
    if (s != MCD_OK) {
        fail("loading the URDF", s, err.msg); /* err.msg names file, line and element */
        return EXIT_FAILURE;
    }
    print_model(m);

    int ok = 1, node = -1;
    if (link) { /* a node at the link's frame; nodes must exist before mcd_data_create */
        int f = mcd_model_frame_index(m, link);
        if (f < 0)
            ok = fail("LINK", MCD_ERR_ARG, "no link of that name");
        else if (m->frame[f].body < 0)
            ok = fail("LINK", MCD_ERR_ARG, "the link is fixed to the world");
        else if ((s = mcd_model_add_node(m, link, m->frame[f].body, &m->frame[f].pose, &node,
                                         &err)) != MCD_OK)
            ok = fail("mcd_model_add_node", s, err.msg);
    }
    if (ok && (s = mcd_data_create(m, &d, &err)) != MCD_OK)
        ok = fail("mcd_data_create", s, err.msg);

    const int nq = m->nq, nv = m->nv;
    double *q = malloc((size_t)(nq + 1) * sizeof *q);
    double *v = malloc((size_t)(nv + 1) * sizeof *v);
    double *work = malloc((size_t)(nv * nv + 6 * nv + 4 * nv + 1) * sizeof *work);
    if (ok && (!q || !v || !work)) ok = fail("allocation", MCD_ERR_NOMEM, "");
    if (ok) { /* q = neutral (+) v: every coordinate moved by 0.1 (rad or m) */
        mcd_model_neutral(m, q);
        for (int i = 0; i < nv; i++) v[i] = 0.1;
        if ((s = mcd_integrate(m, q, v, 1.0, q)) != MCD_OK) ok = fail("mcd_integrate", s, "");
    }
    if (ok) ok = report_dynamics(m, d, q, work);
    if (ok && node >= 0) ok = report_node(m, d, q, node, work);

    free(q);
    free(v);
    free(work);
    mcd_data_free(d);
    mcd_model_free(m);
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}

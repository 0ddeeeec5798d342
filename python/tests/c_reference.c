/* The C results the Python tests compare with (python/tests/test_values.py):
 * loads a URDF (argv[1]; argv[2] "floating" for a floating base; mimic
 * joints loaded as independent joints, as the tests do), reads q
 * (nq), qd (nv), tau (nv) and x (nv) from stdin, and prints, each as one
 * line of numbers with 17 significant digits: qdd = FD(q, qd, tau),
 * ID(q, qd, qdd), M(q), C(q, qd), M^{-1} x, the Jacobian (world axes) of the
 * point (0.1, 0.2, 0.3) of the last body, and the linear compliance of that
 * point as a node. */
#include <mcdyn/mcdyn.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_row(const double *v, int n)
{
    for (int i = 0; i < n; i++) printf(i ? " %.17g" : "%.17g", v[i]);
    printf("\n");
}

static int read_vector(double *v, int n)
{
    for (int i = 0; i < n; i++)
        if (scanf("%lf", &v[i]) != 1) return 0;
    return 1;
}

static int fail(const char *what, const char *msg)
{
    fprintf(stderr, "c_reference: %s: %s\n", what, msg);
    return 1;
}

static int run(mcd_model *m, mcd_data *d, double *buf)
{
    int nq = m->nq, nv = m->nv;
    double *q = buf, *qd = q + nq, *tau = qd + nv, *x = tau + nv, *out = x + nv;
    if (!read_vector(q, nq) || !read_vector(qd, nv) || !read_vector(tau, nv) || !read_vector(x, nv))
        return fail("stdin", "expected q, qd, tau and x");
    double *qdd = out + nv * nv;
    if (mcd_forward_dynamics(m, d, q, qd, tau, NULL, qdd)) return fail("FD", mcd_data_error(d));
    print_row(qdd, nv);
    if (mcd_inverse_dynamics(m, d, q, qd, qdd, NULL, out)) return fail("ID", mcd_data_error(d));
    print_row(out, nv);
    if (mcd_mass_matrix(m, d, q, out)) return fail("M", mcd_data_error(d));
    print_row(out, nv * nv);
    if (mcd_bias_forces(m, d, q, qd, out)) return fail("C", mcd_data_error(d));
    print_row(out, nv);
    if (mcd_minv_factor(m, d, q) || mcd_minv_solve(m, d, x, out))
        return fail("Minv", mcd_data_error(d));
    print_row(out, nv);
    const double point[3] = {0.1, 0.2, 0.3};
    if (mcd_point_jacobian(m, d, q, m->nbody - 1, point, MCD_REF_WORLD, out))
        return fail("J", mcd_data_error(d));
    print_row(out, 6 * nv);
    int node = m->nnode - 1;
    if (mcd_node_compliance(m, d, q, 1, &node, MCD_OSC_LINEAR, out))
        return fail("Lambda", mcd_data_error(d));
    print_row(out, 9);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) return fail("usage", "c_reference URDF [floating] < q qd tau x");
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.floating_base = argc > 2 && strcmp(argv[2], "floating") == 0;
    opt.ignore_mimic = 1;
    mcd_model *m = NULL;
    mcd_data *d = NULL;
    mcd_error err = {0};
    if (mcd_urdf_load_file(argv[1], &opt, &m, &err)) return fail(argv[1], err.msg);
    mcd_pose pose;
    mcd_pose_identity(&pose);
    pose.p[0] = 0.1, pose.p[1] = 0.2, pose.p[2] = 0.3;
    int status = 1;
    double *buf = malloc(sizeof(double) * (size_t)(m->nq + 4 * m->nv + m->nv * m->nv + m->nv));
    if (!buf)
        fail("memory", "out of memory");
    else if (mcd_model_add_node(m, "probe", m->nbody - 1, &pose, NULL, &err))
        fail("node", err.msg);
    else if (mcd_data_create(m, &d, &err))
        fail("data", err.msg);
    else
        status = run(m, d, buf);
    free(buf);
    mcd_data_free(d);
    mcd_model_free(m);
    return status;
}

/* Dynamics identities on random trees (revolute, prismatic, spherical,
 * free base, branching, merged fixed links). Tolerances are stated per test;
 * the relative error is max|a - b| / max(1, max|b|). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/random_model.h"
#include "common/check_main.h"

#define REL_TOL 1e-10 /* dynamics identities */
#define NTREES  24

typedef struct fixture {
    mcd_model *m;
    mcd_data *d;
    double *q, *qd, *qdd, *tau, *x, *y, *M, *C;
} fixture;

static void fixture_make(fixture *f, test_rng *r, int n, int flags)
{
    memset(f, 0, sizeof *f);
    f->m = test_random_tree(r, n, flags);
    ck_assert_ptr_nonnull(f->m);
    mcd_error err = {0};
    ck_assert_int_eq(mcd_data_create(f->m, &f->d, &err), MCD_OK);
    int nq = f->m->nq, nv = f->m->nv;
    f->q = calloc(nq, sizeof(double));
    f->qd = calloc(nv, sizeof(double));
    f->qdd = calloc(nv, sizeof(double));
    f->tau = calloc(nv, sizeof(double));
    f->x = calloc(nv, sizeof(double));
    f->y = calloc(nv, sizeof(double));
    f->M = calloc((size_t)nv * nv, sizeof(double));
    f->C = calloc(nv, sizeof(double));
    test_random_q(r, f->m, f->q);
    test_random_vec(r, f->qd, nv, 2.0);
    test_random_vec(r, f->qdd, nv, 2.0);
}

static void fixture_free(fixture *f)
{
    free(f->q), free(f->qd), free(f->qdd), free(f->tau), free(f->x), free(f->y), free(f->M),
        free(f->C);
    mcd_data_free(f->d);
    mcd_model_free(f->m);
}

static int tree_size(int i)
{
    return 1 + (i * 7) % 23;
}

/* M from the composite-body algorithm equals the columns of Newton-Euler
 * with unit accelerations: M e_j = ID(q, 0, e_j) - ID(q, 0, 0). */
START_TEST(crba_equals_rnea_columns)
{
    test_rng r = {12345 + _i};
    for (int t = 0; t < NTREES; t++) {
        fixture f;
        fixture_make(&f, &r, tree_size(t), TEST_TREE_ALL);
        int nv = f.m->nv;
        ck_assert_int_eq(mcd_mass_matrix(f.m, f.d, f.q, f.M), MCD_OK);
        double *zero = calloc(nv, sizeof(double)), *col = calloc(nv, sizeof(double));
        ck_assert_int_eq(mcd_gravity_forces(f.m, f.d, f.q, f.C), MCD_OK);
        for (int j = 0; j < nv; j++) {
            memset(f.x, 0, nv * sizeof(double));
            f.x[j] = 1.0;
            ck_assert_int_eq(mcd_inverse_dynamics(f.m, f.d, f.q, zero, f.x, NULL, f.tau), MCD_OK);
            for (int i = 0; i < nv; i++) col[i] = f.tau[i] - f.C[i];
            for (int i = 0; i < nv; i++) f.y[i] = f.M[i * nv + j];
            double e = test_rel_err(f.y, col, nv);
            ck_assert_msg(e < REL_TOL, "tree %d column %d: rel err %g", t, j, e);
        }
        for (int i = 0; i < nv; i++) /* symmetric to rounding */
            for (int j = 0; j < i; j++)
                ck_assert_double_eq_tol(f.M[i * nv + j], f.M[j * nv + i], 1e-12);
        free(zero), free(col);
        fixture_free(&f);
    }
}
END_TEST

/* Forward dynamics inverts inverse dynamics: FD(q, qd, ID(q, qd, qdd)) = qdd,
 * and ID = M qdd + C. */
START_TEST(aba_inverts_rnea)
{
    test_rng r = {777};
    for (int t = 0; t < NTREES; t++) {
        fixture f;
        fixture_make(&f, &r, tree_size(t) + (t % 3 == 0 ? 30 : 0), TEST_TREE_ALL);
        int nv = f.m->nv;
        ck_assert_int_eq(mcd_inverse_dynamics(f.m, f.d, f.q, f.qd, f.qdd, NULL, f.tau), MCD_OK);
        ck_assert_int_eq(mcd_forward_dynamics(f.m, f.d, f.q, f.qd, f.tau, NULL, f.y), MCD_OK);
        double e = test_rel_err(f.y, f.qdd, nv);
        ck_assert_msg(e < REL_TOL, "tree %d (nv %d): FD(ID(qdd)) rel err %g", t, nv, e);
        /* tau = M qdd + C */
        ck_assert_int_eq(mcd_mass_matrix(f.m, f.d, f.q, f.M), MCD_OK);
        ck_assert_int_eq(mcd_bias_forces(f.m, f.d, f.q, f.qd, f.C), MCD_OK);
        for (int i = 0; i < nv; i++) {
            f.x[i] = f.C[i];
            for (int j = 0; j < nv; j++) f.x[i] += f.M[i * nv + j] * f.qdd[j];
        }
        e = test_rel_err(f.x, f.tau, nv);
        ck_assert_msg(e < REL_TOL, "tree %d: M qdd + C vs ID rel err %g", t, e);
        fixture_free(&f);
    }
}
END_TEST

/* M (M^{-1} x) = x with the O(N) factorization. */
START_TEST(minv_times_m_is_identity)
{
    test_rng r = {4242};
    for (int t = 0; t < NTREES; t++) {
        fixture f;
        fixture_make(&f, &r, tree_size(t) + 5, TEST_TREE_ALL);
        int nv = f.m->nv;
        test_random_vec(&r, f.x, nv, 1.0);
        ck_assert_int_eq(mcd_minv_factor(f.m, f.d, f.q), MCD_OK);
        ck_assert_int_eq(mcd_minv_solve(f.m, f.d, f.x, f.y), MCD_OK);
        ck_assert_int_eq(mcd_mass_matrix(f.m, f.d, f.q, f.M), MCD_OK);
        for (int i = 0; i < nv; i++) {
            f.tau[i] = 0.0;
            for (int j = 0; j < nv; j++) f.tau[i] += f.M[i * nv + j] * f.y[j];
        }
        double e = test_rel_err(f.tau, f.x, nv);
        ck_assert_msg(e < REL_TOL, "tree %d: M (M^-1 x) rel err %g", t, e);
        /* x and y may alias */
        memcpy(f.y, f.x, nv * sizeof(double));
        ck_assert_int_eq(mcd_minv_factor(f.m, f.d, f.q), MCD_OK);
        ck_assert_int_eq(mcd_minv_solve(f.m, f.d, f.y, f.y), MCD_OK);
        ck_assert_int_eq(mcd_minv_solve(f.m, f.d, f.x, f.tau), MCD_OK);
        ck_assert_double_eq_tol(test_rel_err(f.y, f.tau, nv), 0.0, 1e-15);
        fixture_free(&f);
    }
}
END_TEST

/* World rotation vector of R1 R0^T. */
static void rotation_delta(double w[3], const double R1[9], const double R0[9])
{
    double D[9], q[4];
    mcd_m3_mul_t(D, R1, R0);
    double tr = D[0] + D[4] + D[8];
    q[0] = 0.5 * sqrt(fmax(0.0, 1.0 + tr));
    q[1] = (D[7] - D[5]) / (4 * q[0]);
    q[2] = (D[2] - D[6]) / (4 * q[0]);
    q[3] = (D[3] - D[1]) / (4 * q[0]);
    mcd_quat_log(w, q);
}

/* Node Jacobians equal central finite differences of the node pose along
 * q(t) = q (+) qd t: |J qd - FD| <= 1e-7 (h = 1e-6, truncation ~h^2). */
START_TEST(jacobian_matches_finite_differences)
{
    test_rng r = {99};
    const double h = 1e-6;
    for (int t = 0; t < NTREES; t++) {
        fixture f;
        fixture_make(&f, &r, tree_size(t) + 1, TEST_TREE_ALL);
        int nv = f.m->nv, body = (int)test_uniform(&r, 0, f.m->nbody);
        mcd_pose np;
        mcd_m3_axis_angle(np.R, (double[3]){0.6, 0.8, 0}, 0.7);
        mcd_v3_set(np.p, 0.1, -0.2, 0.3);
        ck_assert_int_eq(mcd_model_add_node(f.m, "probe", body, &np, NULL, NULL), MCD_OK);
        double *J = calloc(6 * (size_t)nv, sizeof(double)), *qp = calloc(f.m->nq, 8),
               *qm = calloc(f.m->nq, 8);
        mcd_pose Pp, Pm, P0;
        ck_assert_int_eq(mcd_integrate(f.m, f.q, f.qd, h, qp), MCD_OK);
        ck_assert_int_eq(mcd_integrate(f.m, f.q, f.qd, -h, qm), MCD_OK);
        ck_assert_int_eq(mcd_node_pose(f.m, f.d, qp, 0, &Pp), MCD_OK);
        ck_assert_int_eq(mcd_node_pose(f.m, f.d, qm, 0, &Pm), MCD_OK);
        ck_assert_int_eq(mcd_node_pose(f.m, f.d, f.q, 0, &P0), MCD_OK);
        double fd[6], Jv[6] = {0}, w[3];
        rotation_delta(w, Pp.R, Pm.R);
        for (int i = 0; i < 3; i++) {
            fd[i] = w[i] / (2 * h);
            fd[3 + i] = (Pp.p[i] - Pm.p[i]) / (2 * h);
        }
        ck_assert_int_eq(mcd_node_jacobian(f.m, f.d, f.q, 0, MCD_REF_WORLD, J), MCD_OK);
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < nv; j++) Jv[i] += J[i * nv + j] * f.qd[j];
        for (int i = 0; i < 6; i++)
            ck_assert_msg(fabs(Jv[i] - fd[i]) < 1e-7, "tree %d row %d: J qd %.12g vs FD %.12g", t,
                          i, Jv[i], fd[i]);
        /* local rows are the world rows in node axes */
        ck_assert_int_eq(mcd_node_jacobian(f.m, f.d, f.q, 0, MCD_REF_LOCAL, J), MCD_OK);
        double Jl[6] = {0}, rot[6];
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < nv; j++) Jl[i] += J[i * nv + j] * f.qd[j];
        mcd_m3_mul_v(rot, P0.R, Jl);
        mcd_m3_mul_v(rot + 3, P0.R, Jl + 3);
        for (int i = 0; i < 6; i++) ck_assert_double_eq_tol(rot[i], Jv[i], 1e-12);
        free(J), free(qp), free(qm);
        fixture_free(&f);
    }
}
END_TEST

/* Total energy at q(t + dt), qd(t + dt) along the motion with constant qdd,
 * to third order in dt. */
static double energy_after(fixture *f, double dt)
{
    int nv = f->m->nv;
    double *q1 = calloc(f->m->nq, 8), *v1 = calloc(nv, 8), T, U;
    for (int i = 0; i < nv; i++) v1[i] = f->qd[i] + 0.5 * dt * f->qdd[i];
    ck_assert_int_eq(mcd_integrate(f->m, f->q, v1, dt, q1), MCD_OK);
    for (int i = 0; i < nv; i++) v1[i] = f->qd[i] + dt * f->qdd[i];
    ck_assert_int_eq(mcd_energy(f->m, f->d, q1, v1, &T, &U), MCD_OK);
    free(q1), free(v1);
    return T + U;
}

/* Power balance: d(T + U)/dt = qd . tau along the motion qdd = FD(tau).
 * The time derivative is a central difference with Richardson extrapolation
 * (h = 1e-4 and h/2, error O(h^4)): |lhs - rhs| <= 1e-7 (1 + |rhs|). */
START_TEST(energy_rate_equals_power)
{
    test_rng r = {31337};
    const double h = 1e-4;
    for (int t = 0; t < NTREES; t++) {
        fixture f;
        fixture_make(&f, &r, tree_size(t) + 1, TEST_TREE_ALL);
        int nv = f.m->nv;
        test_random_vec(&r, f.tau, nv, 1.0);
        ck_assert_int_eq(mcd_forward_dynamics(f.m, f.d, f.q, f.qd, f.tau, NULL, f.qdd), MCD_OK);
        double d1 = (energy_after(&f, h) - energy_after(&f, -h)) / (2 * h);
        double d2 = (energy_after(&f, h / 2) - energy_after(&f, -h / 2)) / h;
        double lhs = (4 * d2 - d1) / 3, rhs = 0.0;
        for (int i = 0; i < nv; i++) rhs += f.qd[i] * f.tau[i];
        ck_assert_msg(fabs(lhs - rhs) < 1e-7 * (1 + fabs(rhs)), "tree %d: dE/dt %.12g vs %.12g", t,
                      lhs, rhs);
        fixture_free(&f);
    }
}
END_TEST

/* External forces: ID(q, qd, qdd, f_ext) = ID(q, qd, qdd) - J^T F for a world
 * force F at a point on a body (spatial force [x x F; F] about the origin). */
START_TEST(external_force_matches_jacobian_transpose)
{
    test_rng r = {2024};
    for (int t = 0; t < NTREES; t++) {
        fixture f;
        fixture_make(&f, &r, tree_size(t) + 1, TEST_TREE_ALL);
        int nv = f.m->nv, body = (int)test_uniform(&r, 0, f.m->nbody);
        double *fext = calloc(6 * (size_t)f.m->nbody, 8), *J = calloc(6 * (size_t)nv, 8);
        double pt[3] = {0.1, 0.2, -0.3}, F[3] = {1.5, -2.0, 0.7}, x[3], tau0[64];
        ck_assert_int_le(nv, 64);
        ck_assert_int_eq(mcd_point_jacobian(f.m, f.d, f.q, body, pt, MCD_REF_WORLD, J), MCD_OK);
        mcd_pose_apply(x, &f.d->bd[body].X_world, pt);
        mcd_v3_cross(fext + 6 * body, x, F);
        mcd_v3_copy(fext + 6 * body + 3, F);
        ck_assert_int_eq(mcd_inverse_dynamics(f.m, f.d, f.q, f.qd, f.qdd, NULL, tau0), MCD_OK);
        ck_assert_int_eq(mcd_inverse_dynamics(f.m, f.d, f.q, f.qd, f.qdd, fext, f.tau), MCD_OK);
        for (int j = 0; j < nv; j++) {
            double jtf = 0.0;
            for (int i = 0; i < 3; i++) jtf += J[(3 + i) * nv + j] * F[i];
            f.y[j] = tau0[j] - jtf;
        }
        ck_assert_msg(test_rel_err(f.tau, f.y, nv) < REL_TOL, "tree %d", t);
        /* and forward dynamics with the same f_ext inverts it */
        ck_assert_int_eq(mcd_forward_dynamics(f.m, f.d, f.q, f.qd, f.tau, fext, f.x), MCD_OK);
        ck_assert_msg(test_rel_err(f.x, f.qdd, nv) < REL_TOL, "tree %d FD with f_ext", t);
        free(fext), free(J);
        fixture_free(&f);
    }
}
END_TEST

/* RK4 on a conservative 8-link revolute pendulum chain for 2 s at
 * dt = 1e-4: relative energy drift stays below 1e-8. */
START_TEST(energy_drift_conservative_chain)
{
    mcd_model *m = test_revolute_chain(8);
    ck_assert_ptr_nonnull(m);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    int n = m->nv;
    double q[8], v[8], tau[8] = {0}, k[4][2][8], qs[8], vs[8], T, U;
    for (int i = 0; i < n; i++) q[i] = 0.3 * (i % 3) - 0.2, v[i] = 0.5;
    ck_assert_int_eq(mcd_energy(m, d, q, v, &T, &U), MCD_OK);
    const double E0 = T + U, dt = 1e-4;
    double worst = 0.0;
    for (int step = 0; step < 20000; step++) {
        static const double c[4] = {0, 0.5, 0.5, 1};
        for (int s = 0; s < 4; s++) {
            for (int i = 0; i < n; i++) {
                qs[i] = q[i] + (s ? c[s] * dt * k[s - 1][0][i] : 0);
                vs[i] = v[i] + (s ? c[s] * dt * k[s - 1][1][i] : 0);
            }
            memcpy(k[s][0], vs, sizeof vs);
            ck_assert_int_eq(mcd_forward_dynamics(m, d, qs, vs, tau, NULL, k[s][1]), MCD_OK);
        }
        for (int i = 0; i < n; i++) {
            q[i] += dt / 6 * (k[0][0][i] + 2 * k[1][0][i] + 2 * k[2][0][i] + k[3][0][i]);
            v[i] += dt / 6 * (k[0][1][i] + 2 * k[1][1][i] + 2 * k[2][1][i] + k[3][1][i]);
        }
        if (step % 100 == 99) {
            ck_assert_int_eq(mcd_energy(m, d, q, v, &T, &U), MCD_OK);
            worst = fmax(worst, fabs(T + U - E0) / fabs(E0));
        }
    }
    ck_assert_msg(worst < 1e-8, "energy drift %g", worst);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

/* Quaternion integration keeps unit norm over 1e5 large rotation steps, and
 * difference inverts integrate. */
START_TEST(quaternion_integration_stays_unit)
{
    test_rng r = {5};
    mcd_model *m = test_random_tree(&r, 3, TEST_TREE_SPHERICAL | TEST_TREE_FREE_BASE);
    ck_assert_ptr_nonnull(m);
    double q[64], v[64], q1[64], v1[64];
    test_random_q(&r, m, q);
    test_random_vec(&r, v, m->nv, 30.0);
    memcpy(q1, q, sizeof q);
    for (int s = 0; s < 100000; s++) ck_assert_int_eq(mcd_integrate(m, q1, v, 1e-2, q1), MCD_OK);
    ck_assert_int_eq(mcd_model_check_q(m, q1, NULL), MCD_OK);
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        int off = B->jtype == MCD_JOINT_FREE ? 3 : 0;
        ck_assert_double_eq_tol(mcd_quat_norm(q1 + B->qadr + off), 1.0, 1e-12);
    }
    ck_assert_int_eq(mcd_integrate(m, q, v, 0.01, q1), MCD_OK);
    ck_assert_int_eq(mcd_difference(m, q, q1, 0.01, v1), MCD_OK);
    ck_assert_double_le(test_rel_err(v1, v, m->nv), 1e-10);
    mcd_model_free(m);
}
END_TEST

/* Revolute hinges about the coordinate axes +-x, +-y, +-z take a
 * specialised path in the kinematics (two columns of the joint frame
 * turned), and so do tree rotations that are exactly the identity (every
 * other link here: no 3x3 product) and diagonal inertias (R J R^T without
 * the zero terms; links 1, 2, 4, 5 here, full inertias on 0 and 3). Each
 * must give the pose of the general formula X_world(parent) X_tree R(axis,
 * q) (Rodrigues, spatial.h), the hinge column [w; p x w], w = R_world
 * axis, and the spatial inertia of mcd_sym6_rigid with R J R^T by
 * mcd_m3_rotate_sym. All are products of at most six unit rotations with
 * O(1) offsets and O(1) inertias, so they agree to a few ulp: 1e-13. */
START_TEST(coordinate_axis_kinematics_matches_rodrigues)
{
    static const double axes[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                      {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    test_rng r = {0x5eed17};
    mcd_builder *b = NULL;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    for (int i = 0; i < 6; i++) {
        mcd_link_desc desc = mcd_link_desc_default();
        char name[32];
        snprintf(name, sizeof name, "link%d", i);
        desc.name = name;
        desc.parent = i - 1;
        desc.jtype = MCD_JOINT_REVOLUTE;
        const double rpy[3] = {test_uniform(&r, -3, 3), test_uniform(&r, -1.5, 1.5),
                               test_uniform(&r, -3, 3)};
        if (i % 2 == 0)
            mcd_m3_rpy(desc.origin.R, rpy[0], rpy[1], rpy[2]);
        else
            mcd_m3_identity(desc.origin.R);
        mcd_v3_set(desc.origin.p, test_uniform(&r, -1, 1), test_uniform(&r, -1, 1),
                   test_uniform(&r, -1, 1));
        mcd_v3_copy(desc.axis, axes[i]);
        desc.mass.mass = 1.0 + 0.5 * i;
        mcd_v3_set(desc.mass.com, 0.1, -0.05, 0.2);
        const double full[9] = {0.02, 0.003, 0.001, 0.003, 0.015, 0.002, 0.001, 0.002, 0.01};
        const double diagonal[9] = {0.01, 0, 0, 0, 0.02, 0, 0, 0, 0.03};
        memcpy(desc.mass.inertia, i % 3 == 0 ? full : diagonal, sizeof full);
        ck_assert_int_eq(mcd_builder_add_link(b, &desc, NULL, &err), MCD_OK);
    }
    mcd_model *m = NULL;
    ck_assert_msg(mcd_model_build(b, &m, &err) == MCD_OK, "%s", err.msg);
    mcd_builder_free(b);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, &err), MCD_OK);
    double q[6];
    for (int i = 0; i < 6; i++) q[i] = test_uniform(&r, -3, 3);
    ck_assert_int_eq(mcd_forward_kinematics(m, d, q), MCD_OK);
    mcd_pose X = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}}, Xpj, XJ = X, Xk;
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        mcd_pose_mul(&Xpj, &X, &B->X_tree);
        mcd_m3_axis_angle(XJ.R, B->axis, q[B->qadr]);
        mcd_pose_mul(&Xk, &Xpj, &XJ);
        double s[6];
        mcd_m3_mul_v(s, Xk.R, B->axis);
        mcd_v3_cross(s + 3, Xk.p, s);
        const double *Xw = d->bd[k].X_world.R, *S = d->Hstar + 6 * B->vadr;
        for (int i = 0; i < 9; i++) ck_assert_double_eq_tol(Xw[i], Xk.R[i], 1e-13);
        for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(d->bd[k].X_world.p[i], Xk.p[i], 1e-13);
        for (int i = 0; i < 6; i++) ck_assert_double_eq_tol(S[i], s[i], 1e-13);
        double c[3], J[9];
        mcd_pose_apply(c, &Xk, B->mass.com);
        mcd_m3_rotate_sym(J, Xk.R, B->mass.inertia);
        mcd_sym6 M;
        mcd_sym6_rigid(&M, B->mass.mass, c, J);
        mcd_sym6 Mk_full;
        mcd_rigid_inertia_to_sym6(&Mk_full, &d->bd[k].M);
        const mcd_sym6 *Mk = &Mk_full;
        for (int i = 0; i < 9; i++) {
            ck_assert_double_eq_tol(Mk->A[i], M.A[i], 1e-13);
            ck_assert_double_eq_tol(Mk->B[i], M.B[i], 1e-13);
            ck_assert_double_eq_tol(Mk->C[i], M.C[i], 1e-13);
        }
        X = Xk;
    }
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

Suite *dynamics_suite(void)
{
    Suite *s = suite_create("dynamics");
    TCase *tc = tcase_create("identities");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, crba_equals_rnea_columns);
    tcase_add_test(tc, aba_inverts_rnea);
    tcase_add_test(tc, minv_times_m_is_identity);
    tcase_add_test(tc, jacobian_matches_finite_differences);
    tcase_add_test(tc, energy_rate_equals_power);
    tcase_add_test(tc, external_force_matches_jacobian_transpose);
    tcase_add_test(tc, energy_drift_conservative_chain);
    tcase_add_test(tc, quaternion_integration_stays_unit);
    tcase_add_test(tc, coordinate_axis_kinematics_matches_rodrigues);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(dynamics_suite());
}

/* Loop closures: rows against finite differences, the acceleration-level
 * constraint, the four-bar against an independent one-degree-of-freedom
 * model, drift with projection, energy, and redundancy detection. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/random_model.h"
#include "mcdyn/closure.h"
#include "common/check_main.h"

/* ---- a planar four-bar in the x-z plane, hinges about +y ------------------
 * crank a from A = (0,0,0), coupler b, rocker c from D = (d,0,0); uniform
 * bars; gravity -z. A rotation by phi about +y maps x to (cos phi, -sin phi)
 * in (x, z). */
static const double FB_a = 1.0, FB_b = 2.5, FB_c = 2.0, FB_d = 2.2;
static const double FB_m[3] = {1.0, 2.0, 1.5};

static void bar(mcd_link_desc *l, double len, double mass)
{
    l->jtype = MCD_JOINT_REVOLUTE;
    mcd_v3_set(l->axis, 0, 1, 0);
    l->mass.mass = mass;
    mcd_v3_set(l->mass.com, len / 2, 0, 0);
    memset(l->mass.inertia, 0, sizeof l->mass.inertia);
    l->mass.inertia[0] = mass * 1e-4; /* thin rod of radius ~1.4 cm */
    l->mass.inertia[4] = l->mass.inertia[8] = mass * len * len / 12 + mass * 0.5e-4;
}

static mcd_model *four_bar(mcd_closure_type type)
{
    mcd_builder *b = NULL;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    mcd_link_desc l = mcd_link_desc_default();
    int crank, coupler, rocker;
    l.name = "crank", l.parent = -1;
    bar(&l, FB_a, FB_m[0]);
    ck_assert_int_eq(mcd_builder_add_link(b, &l, &crank, NULL), MCD_OK);
    l = mcd_link_desc_default();
    l.name = "coupler", l.parent = crank;
    l.origin.p[0] = FB_a;
    bar(&l, FB_b, FB_m[1]);
    ck_assert_int_eq(mcd_builder_add_link(b, &l, &coupler, NULL), MCD_OK);
    l = mcd_link_desc_default();
    l.name = "rocker", l.parent = -1;
    l.origin.p[0] = FB_d;
    bar(&l, FB_c, FB_m[2]);
    ck_assert_int_eq(mcd_builder_add_link(b, &l, &rocker, NULL), MCD_OK);
    mcd_pose pa, pb;
    mcd_pose_identity(&pa);
    mcd_pose_identity(&pb);
    pa.p[0] = FB_b;
    pb.p[0] = FB_c;
    ck_assert_int_eq(
        mcd_builder_add_closure(b, "pin", type, coupler, &pa, rocker, &pb, 0, NULL, NULL), MCD_OK);
    mcd_model *m = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_model_build(b, &m, &err) == MCD_OK, "%s", err.msg);
    mcd_builder_free(b);
    return m;
}

/* Absolute bar angles phi2, phi3 for crank angle phi1 (circle intersection,
 * branch with C above the x axis, i.e. sin(phi3) < 0 side chosen by sign). */
static void fb_geometry(double phi1, double *phi2, double *phi3)
{
    double Bx = FB_a * cos(phi1), Bz = -FB_a * sin(phi1);
    double dx = FB_d - Bx, dz = -Bz, L = sqrt(dx * dx + dz * dz);
    double along = (FB_b * FB_b - FB_c * FB_c + L * L) / (2 * L);
    double h = sqrt(FB_b * FB_b - along * along);
    double Cx = Bx + along * dx / L - h * dz / L, Cz = Bz + along * dz / L + h * dx / L;
    if (Cz < 0) Cx = Bx + along * dx / L + h * dz / L, Cz = Bz + along * dz / L - h * dx / L;
    *phi2 = atan2(-(Cz - Bz), Cx - Bx);
    *phi3 = atan2(-Cz, Cx - FB_d);
}

/* Generalized mass m(theta) and dV/dtheta of the reduced model. */
static void fb_reduced(double th, double *mass, double *dV)
{
    double p2, p3;
    fb_geometry(th, &p2, &p3);
    /* u_perp(phi) = d/dphi (cos, -sin) = (-sin, -cos);
     * a u1' + b k2 u2' = c k3 u3'  ->  2x2 solve for k2, k3 */
    double u1[2] = {-sin(th), -cos(th)}, u2[2] = {-sin(p2), -cos(p2)}, u3[2] = {-sin(p3), -cos(p3)};
    double A[2][2] = {{FB_b * u2[0], -FB_c * u3[0]}, {FB_b * u2[1], -FB_c * u3[1]}};
    double r[2] = {-FB_a * u1[0], -FB_a * u1[1]}, det = A[0][0] * A[1][1] - A[0][1] * A[1][0];
    double k2 = (r[0] * A[1][1] - A[0][1] * r[1]) / det,
           k3 = (A[0][0] * r[1] - r[0] * A[1][0]) / det;
    double dc[3][2] = {{FB_a / 2 * u1[0], FB_a / 2 * u1[1]},
                       {FB_a * u1[0] + FB_b / 2 * k2 * u2[0], FB_a * u1[1] + FB_b / 2 * k2 * u2[1]},
                       {FB_c / 2 * k3 * u3[0], FB_c / 2 * k3 * u3[1]}};
    double k[3] = {1, k2, k3}, len[3] = {FB_a, FB_b, FB_c};
    *mass = 0, *dV = 0;
    for (int i = 0; i < 3; i++) {
        double I = FB_m[i] * len[i] * len[i] / 12 + FB_m[i] * 0.5e-4;
        *mass += FB_m[i] * (dc[i][0] * dc[i][0] + dc[i][1] * dc[i][1]) + I * k[i] * k[i];
        *dV += FB_m[i] * 9.81 * dc[i][1];
    }
}

static void fb_reduced_accel(const double y[2], double dy[2])
{
    const double h = 1e-5;
    double m, dV, mp, mm, t;
    fb_reduced(y[0], &m, &dV);
    fb_reduced(y[0] + h, &mp, &t);
    fb_reduced(y[0] - h, &mm, &t);
    dy[0] = y[1];
    dy[1] = -(0.5 * (mp - mm) / (2 * h) * y[1] * y[1] + dV) / m;
}

/* Initial state of the tree model for crank angle th and rate w. */
static void fb_initial(double th, double w, double q[3], double qd[3])
{
    double p2, p3, h = 1e-6, p2p, p3p, p2m, p3m;
    fb_geometry(th, &p2, &p3);
    fb_geometry(th + h, &p2p, &p3p);
    fb_geometry(th - h, &p2m, &p3m);
    q[0] = th, q[1] = p2 - th, q[2] = p3;
    double k2 = (p2p - p2m) / (2 * h), k3 = (p3p - p3m) / (2 * h);
    qd[0] = w, qd[1] = (k2 - 1) * w, qd[2] = k3 * w;
}

START_TEST(four_bar_matches_reduced_model)
{
    mcd_model *m = four_bar(MCD_CLOSURE_BALL);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double q[3], qd[3], tau[3] = {0}, y[2] = {0.3, 2.0};
    fb_initial(y[0], y[1], q, qd);
    ck_assert_int_eq(mcd_closure_project_position(m, d, q, 1e-14, 10, NULL), MCD_OK);
    ck_assert_int_eq(mcd_closure_project_velocity(m, d, q, qd), MCD_OK);
    const double dt = 1e-4;
    double worst = 0.0, excursion = 0.0;
    for (int step = 1; step <= 20000; step++) { /* RK4 on both, 2 s */
        double k[4][2][3], qs[3], vs[3], ky[4][2], ys[2];
        static const double c[4] = {0, 0.5, 0.5, 1};
        for (int s = 0; s < 4; s++) {
            for (int i = 0; i < 3; i++) {
                qs[i] = q[i] + (s ? c[s] * dt * k[s - 1][0][i] : 0);
                vs[i] = qd[i] + (s ? c[s] * dt * k[s - 1][1][i] : 0);
            }
            memcpy(k[s][0], vs, sizeof vs);
            ck_assert_int_eq(
                mcd_closed_chain_forward_dynamics(m, d, qs, vs, tau, 0, 0, k[s][1], NULL), MCD_OK);
            for (int i = 0; i < 2; i++) ys[i] = y[i] + (s ? c[s] * dt * ky[s - 1][i] : 0);
            fb_reduced_accel(ys, ky[s]);
        }
        for (int i = 0; i < 3; i++) {
            q[i] += dt / 6 * (k[0][0][i] + 2 * k[1][0][i] + 2 * k[2][0][i] + k[3][0][i]);
            qd[i] += dt / 6 * (k[0][1][i] + 2 * k[1][1][i] + 2 * k[2][1][i] + k[3][1][i]);
        }
        for (int i = 0; i < 2; i++)
            y[i] += dt / 6 * (ky[0][i] + 2 * ky[1][i] + 2 * ky[2][i] + ky[3][i]);
        worst = fmax(worst, fabs(q[0] - y[0]));
        excursion = fmax(excursion, fabs(q[0] - 0.3));
    }
    ck_assert_msg(worst < 1e-6, "crank angle differs from the reduced model by %g rad", worst);
    ck_assert_msg(excursion > 0.5, "the mechanism hardly moved (%g rad)", excursion);
    /* planar four-bar closed by a ball joint: one redundant row, reported */
    ck_assert_int_gt(d->warn_count, 0);
    ck_assert_ptr_nonnull(strstr(d->warn.msg, "redundant"));
    ck_assert_ptr_nonnull(strstr(d->warn.msg, "rank 2 of 3"));
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

/* 10 s at dt = 1 ms with velocity enforcement and position projection:
 * closure error below 1e-8 m throughout. Energy of the conservative
 * four-bar never increases (1e-9 relative slack) and loses less than 2.5 %
 * (measured 1.95 %: the velocity projection removes O(dt^2) per step). */
START_TEST(four_bar_drift_and_energy)
{
    mcd_model *m = four_bar(MCD_CLOSURE_BALL);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double q[3], qd[3], tau[3] = {0}, phi[3], T, U;
    fb_initial(0.3, 2.0, q, qd);
    ck_assert_int_eq(mcd_closure_project_position(m, d, q, 1e-12, 10, NULL), MCD_OK);
    ck_assert_int_eq(mcd_closure_project_velocity(m, d, q, qd), MCD_OK);
    ck_assert_int_eq(mcd_energy(m, d, q, qd, &T, &U), MCD_OK);
    const double E0 = T + U;
    double drift = 0.0, energy = 0.0, increase = 0.0;
    for (int step = 0; step < 10000; step++) {
        ck_assert_int_eq(mcd_closure_step(m, d, q, qd, tau, 1e-3, 1e-10), MCD_OK);
        ck_assert_int_eq(mcd_closure_errors(m, d, q, phi), MCD_OK);
        for (int i = 0; i < 3; i++) drift = fmax(drift, fabs(phi[i]));
        ck_assert_int_eq(mcd_energy(m, d, q, qd, &T, &U), MCD_OK);
        energy = fmax(energy, fabs(T + U - E0) / fabs(E0));
        increase = fmax(increase, (T + U - E0) / fabs(E0));
        if (getenv("MCDYN_TEST_VERBOSE") && step % 500 == 499)
            printf("t %.1f E %.9g rel %.3e\n", (step + 1) * 1e-3, T + U, (T + U - E0) / E0);
    }
    ck_assert_msg(drift < 1e-8, "closure drift %g m", drift);
    ck_assert_msg(energy < 0.025, "relative energy change %g", energy);
    ck_assert_msg(increase < 1e-9, "energy increased by %g (relative)", increase);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

/* A random tree with closures of every type between random bodies and the
 * world: G_b v equals the finite difference of phi along q (+) t v. */
static mcd_model *random_closed_tree(test_rng *r, int n, int nclosures, int flags)
{
    mcd_model *tree = test_random_tree(r, n, flags);
    ck_assert_ptr_nonnull(tree);
    /* rebuild with closures: reuse the tree's links through a builder */
    mcd_builder *b = NULL;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    for (int k = 0; k < tree->nbody; k++) {
        const mcd_body *B = &tree->body[k];
        mcd_link_desc l = mcd_link_desc_default();
        l.name = tree->body_name[k];
        l.parent = B->parent;
        l.jtype = B->jtype;
        l.origin = B->X_tree;
        mcd_v3_copy(l.axis, B->axis);
        l.mass = B->mass;
        ck_assert_int_eq(mcd_builder_add_link(b, &l, NULL, NULL), MCD_OK);
    }
    for (int c = 0; c < nclosures; c++) {
        mcd_pose pa, pb;
        mcd_m3_axis_angle(pa.R, (double[3]){0, 0.6, 0.8}, 0.3 * c);
        mcd_m3_axis_angle(pb.R, (double[3]){0.8, 0, 0.6}, -0.2 * c);
        test_random_vec(r, pa.p, 3, 0.4);
        test_random_vec(r, pb.p, 3, 0.4);
        int la = flags & TEST_TREE_BRANCHING ? (int)test_uniform(r, 0, n) : n - 1 - c;
        int lb = c % 3 == 0 ? -1 : (int)test_uniform(r, 0, n);
        if (lb == la) lb = -1;
        char name[16];
        snprintf(name, sizeof name, "c%d", c);
        ck_assert_int_eq(mcd_builder_add_closure(b, name, (mcd_closure_type)(c % 4), la, &pa, lb,
                                                 &pb, 0.7, NULL, NULL),
                         MCD_OK);
    }
    mcd_model *m = NULL;
    ck_assert_int_eq(mcd_model_build(b, &m, NULL), MCD_OK);
    mcd_builder_free(b);
    mcd_model_free(tree);
    return m;
}

START_TEST(closure_jacobian_matches_finite_differences)
{
    test_rng r = {606};
    for (int t = 0; t < 12; t++) {
        mcd_model *m = random_closed_tree(&r, 3 + t, 8, TEST_TREE_ALL & ~TEST_TREE_FIXED);
        mcd_data *d = NULL;
        ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
        int nr = m->nclosure_rows, nv = m->nv;
        double *q = calloc(m->nq, 8), *v = calloc(nv, 8), *qp = calloc(m->nq, 8),
               *qm = calloc(m->nq, 8), *G = calloc((size_t)nr * nv, 8), *pp = calloc(nr, 8),
               *pm = calloc(nr, 8);
        test_random_q(&r, m, q);
        test_random_vec(&r, v, nv, 1.0);
        const double h = 1e-6;
        ck_assert_int_eq(mcd_integrate(m, q, v, h, qp), MCD_OK);
        ck_assert_int_eq(mcd_integrate(m, q, v, -h, qm), MCD_OK);
        ck_assert_int_eq(mcd_closure_errors(m, d, qp, pp), MCD_OK);
        ck_assert_int_eq(mcd_closure_errors(m, d, qm, pm), MCD_OK);
        ck_assert_int_eq(mcd_closure_jacobian(m, d, q, G), MCD_OK);
        for (int i = 0; i < nr; i++) {
            double gv = 0.0;
            for (int j = 0; j < nv; j++) gv += G[(size_t)i * nv + j] * v[j];
            /* rotation rows are exact only at zero error: compare rates of the
             * rows whose directions are world-fixed or follow body A */
            int c = 0, acc = 0;
            while (acc + mcd_closure_rows(m->closure[c].type) <= i)
                acc += mcd_closure_rows(m->closure[c++].type);
            if (m->closure[c].type == MCD_CLOSURE_WELD && i - acc >= 3) continue;
            if (m->closure[c].type == MCD_CLOSURE_HINGE && i - acc >= 3) continue;
            ck_assert_msg(fabs(gv - (pp[i] - pm[i]) / (2 * h)) < 1e-7,
                          "tree %d row %d (%s): G v %.10g vs FD %.10g", t, i,
                          mcd_closure_type_name(m->closure[c].type), gv, (pp[i] - pm[i]) / (2 * h));
        }
        free(q), free(v), free(qp), free(qm), free(G), free(pp), free(pm);
        mcd_data_free(d);
        mcd_model_free(m);
    }
}
END_TEST

/* The closed-chain accelerations keep the constraint rates constant:
 * d/dt (G_b qd) = 0, by central differences along the motion (h = 1e-5).
 * Three random closures on the last bodies of free-floating spherical chains
 * of 9 to 18 bodies; trees whose rows turn out redundant (inconsistent in
 * general) are not checked, at least 5 of 10 are. */
START_TEST(closed_chain_acceleration_keeps_rates)
{
    test_rng r = {77};
    int checked = 0;
    for (int t = 0; t < 10; t++) {
        mcd_model *m = random_closed_tree(&r, 9 + t, 3, TEST_TREE_SPHERICAL | TEST_TREE_FREE_BASE);
        mcd_data *d = NULL;
        ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
        int nr = m->nclosure_rows, nv = m->nv;
        double *q = calloc(m->nq, 8), *v = calloc(nv, 8), *a = calloc(nv, 8), *tau = calloc(nv, 8),
               *G = calloc((size_t)nr * nv, 8), *rate[2], *q1 = calloc(m->nq, 8),
               *v1 = calloc(nv, 8);
        test_random_q(&r, m, q);
        test_random_vec(&r, v, nv, 1.0);
        test_random_vec(&r, tau, nv, 1.0);
        ck_assert_int_eq(mcd_closed_chain_forward_dynamics(m, d, q, v, tau, 0, 0, a, NULL), MCD_OK);
        const double h = 1e-5;
        for (int s = 0; s < 2; s++) {
            double dt = s ? h : -h;
            rate[s] = calloc(nr, 8);
            for (int i = 0; i < nv; i++) v1[i] = v[i] + 0.5 * dt * a[i];
            ck_assert_int_eq(mcd_integrate(m, q, v1, dt, q1), MCD_OK);
            for (int i = 0; i < nv; i++) v1[i] = v[i] + dt * a[i];
            ck_assert_int_eq(mcd_closure_jacobian(m, d, q1, G), MCD_OK);
            for (int i = 0; i < nr; i++)
                for (int j = 0; j < nv; j++) rate[s][i] += G[(size_t)i * nv + j] * v1[j];
        }
        checked += d->warn_count == 0;
        for (int i = 0; d->warn_count == 0 && i < nr; i++)
            ck_assert_msg(fabs(rate[1][i] - rate[0][i]) / (2 * h) < 1e-5,
                          "tree %d row %d: d/dt(G qd) = %g", t, i,
                          (rate[1][i] - rate[0][i]) / (2 * h));
        free(q), free(v), free(a), free(tau), free(G), free(rate[0]), free(rate[1]), free(q1),
            free(v1);
        mcd_data_free(d);
        mcd_model_free(m);
    }
    ck_assert_int_ge(checked, 5);
}
END_TEST

/* A spherical double pendulum whose tip is held by a ball closure: full
 * rank, no warning; a second, duplicate closure makes it redundant. */
START_TEST(redundancy_detected_only_when_present)
{
    for (int dup = 0; dup < 2; dup++) {
        mcd_builder *b = NULL;
        ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
        int l0, l1;
        mcd_link_desc l = mcd_link_desc_default();
        l.name = "upper", l.parent = -1, l.jtype = MCD_JOINT_SPHERICAL;
        l.mass.mass = 1, mcd_v3_set(l.mass.com, 0, 0, -0.5);
        l.mass.inertia[0] = l.mass.inertia[4] = 0.09, l.mass.inertia[8] = 0.01;
        ck_assert_int_eq(mcd_builder_add_link(b, &l, &l0, NULL), MCD_OK);
        l.name = "lower", l.parent = l0, l.origin.p[2] = -1.0;
        ck_assert_int_eq(mcd_builder_add_link(b, &l, &l1, NULL), MCD_OK);
        mcd_pose tip, anchor;
        mcd_pose_identity(&tip);
        mcd_pose_identity(&anchor);
        tip.p[2] = -1.0;
        anchor.p[0] = 1.2, anchor.p[2] = -1.0;
        ck_assert_int_eq(mcd_builder_add_closure(b, "hold", MCD_CLOSURE_BALL, l1, &tip, -1, &anchor,
                                                 0, NULL, NULL),
                         MCD_OK);
        if (dup)
            ck_assert_int_eq(mcd_builder_add_closure(b, "again", MCD_CLOSURE_BALL, l1, &tip, -1,
                                                     &anchor, 0, NULL, NULL),
                             MCD_OK);
        mcd_model *m = NULL;
        ck_assert_int_eq(mcd_model_build(b, &m, NULL), MCD_OK);
        mcd_builder_free(b);
        mcd_data *d = NULL;
        ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
        double q[8] = {1, 0, 0, 0, 1, 0, 0, 0}, qd[6] = {0}, tau[6] = {0}, qdd[6];
        mcd_quat_exp(q, (double[3]){0, 0.6, 0});     /* upper tilted towards +x */
        mcd_quat_exp(q + 4, (double[3]){0, 0.5, 0}); /* lower further */
        ck_assert_int_eq(mcd_closure_project_position(m, d, q, 1e-12, 20, NULL), MCD_OK);
        ck_assert_int_eq(mcd_closed_chain_forward_dynamics(m, d, q, qd, tau, 0, 0, qdd, NULL),
                         MCD_OK);
        for (int i = 0; i < 6; i++) ck_assert(isfinite(qdd[i]));
        if (dup) {
            ck_assert_int_gt(d->warn_count, 0);
            ck_assert_ptr_nonnull(strstr(d->warn.msg, "rank 3 of 6"));
        } else {
            ck_assert_int_eq(d->warn_count, 0);
        }
        mcd_data_free(d);
        mcd_model_free(m);
    }
}
END_TEST

START_TEST(closure_bad_input)
{
    mcd_builder *b = NULL;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    mcd_link_desc l = mcd_link_desc_default();
    int l0;
    l.name = "a", l.jtype = MCD_JOINT_REVOLUTE, l.mass.mass = 1;
    l.mass.inertia[0] = l.mass.inertia[4] = l.mass.inertia[8] = 0.1;
    ck_assert_int_eq(mcd_builder_add_link(b, &l, &l0, NULL), MCD_OK);
    mcd_pose p;
    mcd_pose_identity(&p);
    mcd_error err = {0};
    ck_assert_int_eq(
        mcd_builder_add_closure(b, "self", MCD_CLOSURE_BALL, l0, &p, l0, &p, 0, NULL, &err),
        MCD_ERR_MODEL);
    ck_assert_int_eq(
        mcd_builder_add_closure(b, "d", MCD_CLOSURE_DISTANCE, l0, &p, -1, &p, 0, NULL, &err),
        MCD_ERR_MODEL);
    ck_assert_ptr_nonnull(strstr(err.msg, "length"));
    p.p[1] = NAN;
    ck_assert_int_eq(
        mcd_builder_add_closure(b, "n", MCD_CLOSURE_BALL, l0, &p, -1, &p, 0, NULL, &err),
        MCD_ERR_NONFINITE);
    p.p[1] = 0;
    ck_assert_int_eq(
        mcd_builder_add_closure(b, "x", (mcd_closure_type)9, l0, &p, -1, &p, 0, NULL, &err),
        MCD_ERR_ARG);
    ck_assert_int_eq(
        mcd_builder_add_closure(b, "ok", MCD_CLOSURE_BALL, l0, &p, -1, &p, 0, NULL, &err), MCD_OK);
    ck_assert_int_eq(
        mcd_builder_add_closure(b, "ok", MCD_CLOSURE_BALL, l0, &p, -1, &p, 0, NULL, &err),
        MCD_ERR_MODEL);
    mcd_model *m = NULL;
    ck_assert_int_eq(mcd_model_build(b, &m, NULL), MCD_OK);
    mcd_builder_free(b);
    mcd_data *d = NULL;
    ck_assert_int_eq(mcd_data_create(m, &d, NULL), MCD_OK);
    double q[1] = {0}, qd[1] = {NAN}, tau[1] = {0}, qdd[1];
    ck_assert_int_eq(mcd_closed_chain_forward_dynamics(m, d, q, qd, tau, 0, 0, qdd, NULL),
                     MCD_ERR_NONFINITE);
    qd[0] = 0;
    ck_assert_int_eq(mcd_closed_chain_forward_dynamics(m, d, q, qd, tau, -1, 0, qdd, NULL),
                     MCD_ERR_ARG);
    ck_assert_int_eq(mcd_closure_step(m, d, q, qd, tau, 0.0, 1e-9), MCD_ERR_ARG);
    mcd_data_free(d);
    mcd_model_free(m);
}
END_TEST

Suite *closure_suite(void)
{
    Suite *s = suite_create("closure");
    TCase *tc = tcase_create("closures");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, four_bar_matches_reduced_model);
    tcase_add_test(tc, four_bar_drift_and_energy);
    tcase_add_test(tc, closure_jacobian_matches_finite_differences);
    tcase_add_test(tc, closed_chain_acceleration_keeps_rates);
    tcase_add_test(tc, redundancy_detected_only_when_present);
    tcase_add_test(tc, closure_bad_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(closure_suite());
}

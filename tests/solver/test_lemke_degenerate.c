/* Lemke's method on degenerate contact problems (redundant contacts, W
 * rank-deficient), where a rounding-level change once turned a solution
 * into a false ray termination: the MLCP captured from that simulation
 * (tests/solver_data/data/box_four_corners_mlcp.dat, a box resting on four
 * coplanar corners), the same problem with permuted rows, with q perturbed
 * by 1e-15 relative and scaled by powers of two; random Stewart-Trinkle
 * friction MLCPs with coplanar and duplicated contacts (always solvable:
 * the matrix is copositive and the homogeneous problem has only the zero
 * solution); the MLCPs of the simulator itself over random landings of
 * that box (in 40 landings of 1000 steps the earlier code ended on a false
 * ray in 18; in this test it fails at step 1 of the third landing); and a
 * genuinely infeasible LCP, which must still end on a ray. */
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcdyn/mcdyn.h"
#include "mcdyn/problem_io.h"
#include "common/contact_scenes.h"

#define ERROR_TOL 1e-9 /* mcd_mlcp_error accepted for a solution */
#define PI        3.14159265358979323846

static void read_box(mcd_problem_file *f)
{
    const char *src = getenv("MCDYN_SOURCE");
    ck_assert_msg(src != NULL, "MCDYN_SOURCE is not set");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/solver_data/data/box_four_corners_mlcp.dat", src);
    mcd_error err = {0};
    ck_assert_msg(mcd_problem_read_siconos(path, MCD_PROBLEM_MLCP, f, &err) == MCD_OK, "%s",
                  err.msg);
}

/* Solves p with mlcp-lemke; asserts success and error <= ERROR_TOL. */
static void solve_ok(const mcd_mlcp *p, double *z, mcd_solver_stats *st, const char *what)
{
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(p->n, &ws, NULL), MCD_OK);
    mcd_error err = {0};
    mcd_status s = mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, p, NULL, z, st, &err);
    ck_assert_msg(s == MCD_OK, "%s: %s", what, err.msg);
    double *w = malloc((size_t)p->n * sizeof *w);
    double e = mcd_mlcp_error(p, z, w);
    ck_assert_msg(e <= ERROR_TOL, "%s: error %g", what, e);
    free(w);
    mcd_solver_ws_free(ws);
}

START_TEST(captured_problem_is_solved)
{
    mcd_problem_file f;
    read_box(&f);
    const mcd_mlcp *p = &f.mlcp;
    ck_assert_int_eq(p->n, 24);
    double z[24], w[24];
    mcd_solver_stats st;
    solve_ok(p, z, &st, "box");
    mcd_mlcp_error(p, z, w);
    for (int i = 0; i < p->n; i++) { /* complementarity, directly (|q| ~ 1e-2) */
        ck_assert_double_ge(z[i], 0.0);
        ck_assert_double_ge(w[i], -1e-14);
        ck_assert_double_le(fabs(z[i] * w[i]), 1e-16);
    }
    double weight = 0.0; /* the normal impulses carry the weight, m g dt */
    for (int k = 0; k < 4; k++) weight += z[5 * k];
    ck_assert_double_eq_tol(weight, 9.81e-3, 1e-8);
    mcd_problem_file_free(&f);
}
END_TEST

/* P M P^T, P q for random permutations P. */
START_TEST(permuted_rows_are_solved)
{
    mcd_problem_file f;
    read_box(&f);
    const mcd_mlcp *p = &f.mlcp;
    enum { N = 24 };
    mcd_mlcp pp;
    ck_assert_int_eq(mcd_mlcp_alloc(&pp, N, NULL), MCD_OK);
    tu_rng rng = {7};
    for (int trial = 0; trial < 20; trial++) {
        int perm[N];
        for (int i = 0; i < N; i++) perm[i] = i;
        for (int i = N - 1; i > 0; i--) { /* Fisher-Yates */
            int j = (int)tu_uniform(&rng, 0, i + 1), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int i = 0; i < N; i++) {
            pp.q[i] = p->q[perm[i]];
            pp.lo[i] = p->lo[perm[i]];
            pp.hi[i] = p->hi[perm[i]];
            for (int j = 0; j < N; j++) pp.M[i * N + j] = p->M[perm[i] * N + perm[j]];
        }
        double z[N];
        mcd_solver_stats st;
        char what[64];
        snprintf(what, sizeof what, "permutation %d", trial);
        solve_ok(&pp, z, &st, what);
    }
    mcd_mlcp_free(&pp);
    mcd_problem_file_free(&f);
}
END_TEST

/* q_i (1 + 1e-15 u_i), u_i uniform in [-1, 1]: the size of the change of
 * mcd_dense_dot's summation order that once broke this problem. */
START_TEST(rounding_perturbations_are_solved)
{
    mcd_problem_file f;
    read_box(&f);
    mcd_mlcp *p = &f.mlcp;
    enum { N = 24 };
    double q0[N];
    memcpy(q0, p->q, sizeof q0);
    for (int seed = 1; seed <= 50; seed++) {
        tu_rng rng = {(uint64_t)seed};
        for (int i = 0; i < N; i++) p->q[i] = q0[i] * (1.0 + 1e-15 * tu_uniform(&rng, -1, 1));
        double z[N];
        mcd_solver_stats st;
        char what[64];
        snprintf(what, sizeof what, "seed %d", seed);
        solve_ok(p, z, &st, what);
    }
    mcd_problem_file_free(&f);
}
END_TEST

/* Scaling q by 2^k scales every quantity of Lemke's path exactly: the
 * tolerances are relative to the data, so the same pivots give 2^k z. */
START_TEST(scaled_problem_follows_the_same_path)
{
    mcd_problem_file f;
    read_box(&f);
    mcd_mlcp *p = &f.mlcp;
    enum { N = 24 };
    double q0[N], z0[N], z[N];
    memcpy(q0, p->q, sizeof q0);
    mcd_solver_stats st0, st;
    solve_ok(p, z0, &st0, "unscaled");
    const int powers[] = {-40, -20, 20, 40};
    for (int k = 0; k < 4; k++) {
        double s = ldexp(1.0, powers[k]);
        for (int i = 0; i < N; i++) p->q[i] = s * q0[i];
        char what[64];
        snprintf(what, sizeof what, "q scaled by 2^%d", powers[k]);
        solve_ok(p, z, &st, what);
        ck_assert_int_eq(st.iterations, st0.iterations);
        for (int i = 0; i < N; i++) ck_assert_double_eq(z[i], s * z0[i]);
    }
    mcd_problem_file_free(&f);
}
END_TEST

/* Row d^T v_lin + (p x d)^T omega: the velocity of body point p along d. */
static void point_row(const double p[3], const double d[3], double *row)
{
    row[0] = d[0], row[1] = d[1], row[2] = d[2];
    row[3] = p[1] * d[2] - p[2] * d[1];
    row[4] = p[2] * d[0] - p[0] * d[2];
    row[5] = p[0] * d[1] - p[1] * d[0];
}

/* The MLCP of Mylapilli & Jain Eq. (43)-(44) (as mcd_contact_mlcp builds
 * it) for one free body (6 dof, random SPD inverse mass matrix), nb random
 * bilateral rows that leave the lift velocity free, and nc contacts on the
 * plane z = 0 of the body with normal +z: nc0 random points, then copies
 * of some of them (identical rows). Unknowns: p_b, (F_n, beta_1..nf) per
 * contact, sigma per contact. q = G v + a normal offset, with tangential
 * velocities of size vt (down to rounding level, as at rest). */
static void friction_mlcp(tu_rng *rng, int nb, int nc0, int nc, int nf, double vt, mcd_mlcp *p)
{
    enum { D = 6 };
    const int nr = nb + nc * (nf + 1), n = nr + nc;
    double *G = calloc((size_t)nr * D, sizeof *G), Minv[D * D], v[D];
    double pts[16][3], mu[16];
    tu_spd_matrix(rng, D, 0.5, Minv);
    for (int k = 0; k < nc; k++) {
        int src = k < nc0 ? k : (int)tu_uniform(rng, 0, nc0);
        if (k < nc0) {
            pts[k][0] = tu_uniform(rng, -1, 1), pts[k][1] = tu_uniform(rng, -1, 1), pts[k][2] = 0;
            mu[k] = tu_uniform(rng, 0.1, 1.0);
        } else {
            memcpy(pts[k], pts[src], sizeof pts[k]);
            mu[k] = mu[src];
        }
    }
    for (int i = 0; i < nb; i++) /* bilateral: no v_z component */
        for (int c = 0; c < D; c++) G[i * D + c] = c == 2 ? 0.0 : tu_uniform(rng, -1, 1);
    for (int k = 0; k < nc; k++) {
        const double nrm[3] = {0, 0, 1};
        int base = nb + k * (nf + 1);
        point_row(pts[k], nrm, G + base * D);
        for (int l = 0; l < nf; l++) {
            const double d[3] = {cos(2 * PI * l / nf), sin(2 * PI * l / nf), 0};
            point_row(pts[k], d, G + (base + 1 + l) * D);
        }
    }
    v[0] = vt * tu_uniform(rng, -1, 1), v[1] = vt * tu_uniform(rng, -1, 1);
    v[2] = tu_uniform(rng, -1, 0.2);
    for (int c = 3; c < 5; c++) v[c] = vt * tu_uniform(rng, -1, 1);
    v[5] = tu_uniform(rng, -1, 1) * (tu_uniform(rng, 0, 1) < 0.5 ? vt : 1.0);
    memset(p->M, 0, (size_t)n * n * sizeof *p->M);
    for (int i = 0; i < nr; i++) {
        double Gi_Minv[D];
        for (int c = 0; c < D; c++) {
            Gi_Minv[c] = 0.0;
            for (int e = 0; e < D; e++) Gi_Minv[c] += G[i * D + e] * Minv[e * D + c];
        }
        for (int j = 0; j < nr; j++) {
            double s = 0.0;
            for (int c = 0; c < D; c++) s += Gi_Minv[c] * G[j * D + c];
            p->M[i * n + j] = s;
        }
        double s = 0.0;
        for (int c = 0; c < D; c++) s += G[i * D + c] * v[c];
        p->q[i] = s;
        p->lo[i] = i < nb ? -INFINITY : 0.0;
        p->hi[i] = INFINITY;
    }
    for (int k = 0; k < nc; k++) {
        int base = nb + k * (nf + 1), s = nr + k;
        p->q[base] += tu_uniform(rng, -0.01, 0.01); /* restitution or stabilization target */
        for (int l = 1; l <= nf; l++) {
            p->M[(base + l) * n + s] = 1.0;
            p->M[s * n + base + l] = -1.0;
        }
        p->M[s * n + base] = mu[k];
        p->q[s] = 0.0;
        p->lo[s] = 0.0;
        p->hi[s] = INFINITY;
    }
    free(G);
}

START_TEST(random_redundant_contacts_are_solved)
{
    tu_rng rng = {2024};
    const double vts[3] = {1.0, 1e-6, 1e-12};
    const int nfs[3] = {4, 6, 8};
    for (int trial = 0; trial < 300; trial++) {
        int nb = trial % 3, nc0 = 3 + (int)tu_uniform(&rng, 0, 4); /* 3..6 coplanar points */
        int nc = nc0 + 1 + (int)tu_uniform(&rng, 0, 3);            /* 1..3 duplicates */
        int nf = nfs[(trial / 3) % 3];
        mcd_mlcp p;
        ck_assert_int_eq(mcd_mlcp_alloc(&p, nb + nc * (nf + 2), NULL), MCD_OK);
        friction_mlcp(&rng, nb, nc0, nc, nf, vts[trial % 3 == 0 ? 2 : (trial / 9) % 3], &p);
        double *z = malloc((size_t)p.n * sizeof *z);
        mcd_solver_stats st;
        char what[96];
        snprintf(what, sizeof what, "trial %d (nb %d, %d contacts, %d distinct, nf %d)", trial, nb,
                 nc, nc0, nf);
        solve_ok(&p, z, &st, what);
        free(z);
        mcd_mlcp_free(&p);
    }
}
END_TEST

/* Flat landings with a random yaw and random linear and angular velocities
 * (|v_i| <= 1): every step's MLCP (4 contacts on a plane, 4 directions)
 * must be solved; a solver failure fails the step (on_failure = stop). */
START_TEST(box_landings_never_fail)
{
    mcd_model *m = scene_box_model();
    tu_rng rng = {11};
    for (int run = 0; run < 40; run++) {
        mcd_sim_options o = mcd_sim_default_options();
        o.solver = MCD_METHOD_MLCP_LEMKE;
        o.solver_opts = mcd_step_method_default_opts(o.solver);
        o.max_contacts = 8;
        mcd_sim *s = NULL;
        mcd_error err = {0};
        ck_assert_msg(mcd_sim_create(m, &o, &s, &err) == MCD_OK, "%s", err.msg);
        mcd_sim_set_contact_provider(s, scene_box_plane, NULL);
        double yaw = tu_uniform(&rng, -0.3, 0.3), qd0[6];
        const double q0[7] = {0, 0, SCENE_BOX_HALF + 0.005, cos(yaw / 2), 0, 0, sin(yaw / 2)};
        for (int i = 0; i < 6; i++) qd0[i] = tu_uniform(&rng, -1, 1);
        ck_assert_int_eq(mcd_sim_set_state(s, q0, qd0, 0), MCD_OK);
        for (int step = 0; step < 300; step++) {
            mcd_status st = mcd_sim_step(s, NULL);
            ck_assert_msg(st == MCD_OK, "run %d, step %d: %s", run, step, mcd_sim_error(s));
        }
        mcd_sim_free(s);
    }
    mcd_model_free(m);
}
END_TEST

/* M = C C^T (positive semidefinite, so copositive-plus) with rows 0 and 1
 * of C opposite: w_0 + w_1 = q_0 + q_1 < 0 for every z, no solution. Lemke
 * must end on a ray, at every scale of q. */
START_TEST(infeasible_lcp_ends_on_a_ray)
{
    enum { N = 10 };
    tu_rng rng = {99};
    mcd_mlcp p;
    ck_assert_int_eq(mcd_mlcp_alloc(&p, N, NULL), MCD_OK);
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(N, &ws, NULL), MCD_OK);
    for (int trial = 0; trial < 20; trial++) {
        double C[N * N];
        for (int i = 0; i < N * N; i++) C[i] = tu_uniform(&rng, -1, 1);
        for (int c = 0; c < N; c++) C[N + c] = -C[c];
        double qs[N];
        for (int i = 0; i < N; i++) qs[i] = tu_uniform(&rng, -1, 1);
        qs[0] = -tu_uniform(&rng, 0.1, 1), qs[1] = -tu_uniform(&rng, 0.1, 1);
        for (int i = 0; i < N; i++) {
            p.lo[i] = 0.0, p.hi[i] = INFINITY;
            for (int j = 0; j < N; j++) {
                double s = 0.0;
                for (int c = 0; c < N; c++) s += C[i * N + c] * C[j * N + c];
                p.M[i * N + j] = s;
            }
        }
        for (int e = -40; e <= 40; e += 20) {
            for (int i = 0; i < N; i++) p.q[i] = ldexp(qs[i], e);
            double z[N];
            mcd_solver_stats st;
            mcd_error err = {0};
            ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, &p, NULL, z, &st, &err),
                             MCD_ERR_INFEASIBLE);
            ck_assert(strstr(err.msg, "ray termination") != NULL);
        }
    }
    mcd_solver_ws_free(ws);
    mcd_mlcp_free(&p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver-lemke-degenerate");
    TCase *tc = tcase_create("lemke-degenerate");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, captured_problem_is_solved);
    tcase_add_test(tc, permuted_rows_are_solved);
    tcase_add_test(tc, rounding_perturbations_are_solved);
    tcase_add_test(tc, scaled_problem_follows_the_same_path);
    tcase_add_test(tc, random_redundant_contacts_are_solved);
    tcase_add_test(tc, box_landings_never_fail);
    tcase_add_test(tc, infeasible_lcp_ends_on_a_ray);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* Multi-contact maximum-dissipation law (Preclik, Eibl & Ruede, Eq. (5)) by
 * nonlinear block Gauss-Seidel / weighted block Jacobi (mcd_maxdiss_solve):
 * one contact equals the closed form, fixed points satisfy every block's
 * single-contact optimality and dissipate, Jacobi agrees with Gauss-Seidel,
 * the comparison with Coulomb solutions (what holds and what does not),
 * redundant contacts and singular blocks, divergence and bad input.
 * Convention of include/mcdyn/impact.h: u = W r + q, dT = 1/2 r'Wr + q'r. */
#include "common/check_main.h"
#include "mcdyn/impact.h"
#include "mcdyn/solver.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NMAX    40
#define TOL     1e-12 /* solver tolerance on R (velocity units, problems of unit scale) */
#define TOL_OPT 1e-9  /* block optimality |r_k - single(W_kk, b_k)|, relative to 1 + |r| */

static double energy(const mcd_fc3d *p, const double *r)
{
    int n = mcd_fc3d_size(p);
    double e = 0.0;
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += p->W[i * n + j] * r[j];
        e += r[i] * (0.5 * s + p->q[i]);
    }
    return e;
}

static void velocity(const mcd_fc3d *p, const double *r, double *u)
{
    int n = mcd_fc3d_size(p);
    for (int i = 0; i < n; i++) {
        u[i] = p->q[i];
        for (int j = 0; j < n; j++) u[i] += p->W[i * n + j] * r[j];
    }
}

/* The single-contact answer of block k given the other blocks of r. */
static void block_answer(const mcd_fc3d *p, const double *r, int k, double x[3])
{
    int n = mcd_fc3d_size(p), i0 = p->nb + 3 * k;
    double A[9], b[3], u[3 * NMAX];
    velocity(p, r, u);
    for (int i = 0; i < 3; i++) {
        b[i] = u[i0 + i];
        for (int j = 0; j < 3; j++) {
            A[3 * i + j] = p->W[(i0 + i) * n + i0 + j];
            b[i] -= A[3 * i + j] * r[i0 + j];
        }
    }
    ck_assert_int_eq(mcd_maxdiss_single(A, b, p->mu[k], x, NULL), MCD_OK);
}

static double norm_inf(int n, const double *x)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

/* Random problem: W SPD (shift 0.5), q pure velocities (no targets) with
 * approaching or separating normals, mu in [0, 1.5] (every 7th contact 0). */
static void random_problem(tu_rng *rng, int nc, int nb, mcd_fc3d *p)
{
    ck_assert_int_eq(mcd_fc3d_alloc(p, nc, nb, NULL), MCD_OK);
    int n = mcd_fc3d_size(p);
    tu_spd_matrix(rng, n, 0.5, p->W);
    for (int i = 0; i < nb; i++) p->q[i] = tu_uniform(rng, -1, 1);
    for (int k = 0; k < nc; k++) {
        double *q = p->q + nb + 3 * k;
        p->mu[k] = k % 7 == 6 ? 0.0 : tu_uniform(rng, 0.0, 1.5);
        q[0] = tu_uniform(rng, -1, 0.2);
        q[1] = tu_uniform(rng, -1, 1);
        q[2] = tu_uniform(rng, -1, 1);
    }
}

static mcd_maxdiss_opts tight_opts(int jacobi)
{
    mcd_maxdiss_opts o = mcd_maxdiss_default_opts();
    o.tol = TOL;
    o.max_iter = 5000;
    o.jacobi = jacobi;
    o.newton_iter = 0; /* the block iteration alone (test_maxdiss_newton.c: its failure path) */
    return o;
}

START_TEST(one_contact_equals_single)
{
    tu_rng rng = {11};
    double work[16];
    for (int t = 0; t < 300; t++) {
        mcd_fc3d p;
        ck_assert_int_eq(mcd_fc3d_alloc(&p, 1, 0, NULL), MCD_OK);
        tu_spd_matrix(&rng, 3, tu_uniform(&rng, 0.01, 1.0), p.W);
        for (int i = 0; i < 3; i++) p.q[i] = tu_uniform(&rng, -1, 1);
        if (t % 10 == 0) p.q[0] = 0.0; /* grazing */
        p.mu[0] = t % 25 == 1 ? 0.0 : tu_uniform(&rng, 0.0, 3.0);
        double x[3], r[3] = {0, 0, 0}, rj[3] = {0, 0, 0};
        ck_assert_int_eq(mcd_maxdiss_single(p.W, p.q, p.mu[0], x, NULL), MCD_OK);
        mcd_maxdiss_opts o = tight_opts(0);
        mcd_maxdiss_stats st;
        ck_assert_uint_eq(mcd_maxdiss_work_size(&p), 10 + 2 * 3 + mcd_maxdiss_newton_work_size(&p));
        ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, r, work, &st, NULL), MCD_OK);
        /* Gauss-Seidel: one sweep gives the closed form exactly. */
        ck_assert_int_le(st.iterations, 1);
        for (int i = 0; i < 3; i++) ck_assert(r[i] == x[i]);
        ck_assert_double_eq_tol(st.energy, energy(&p, x), 1e-14);
        /* Jacobi with omega = 0.5 converges geometrically to the same x. */
        o = tight_opts(1);
        ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, rj, work, &st, NULL), MCD_OK);
        ck_assert(tu_max_diff(3, rj, x) <= 1e-11 * (1.0 + norm_inf(3, x)));
        mcd_fc3d_free(&p);
    }
}
END_TEST

/* Checks that r is a solution of Eq. (5) for p: every block equals its
 * single-contact answer, bilateral velocities vanish, Signorini holds, the
 * cone holds, and the impulse dissipates (q are pure velocities). */
static void check_fixed_point(const mcd_fc3d *p, const double *r, const mcd_maxdiss_stats *st)
{
    int n = mcd_fc3d_size(p);
    double u[3 * NMAX], x[3], scale = 1.0 + norm_inf(n, r);
    velocity(p, r, u);
    ck_assert(st->residual <= TOL);
    for (int i = 0; i < p->nb; i++) ck_assert(fabs(u[i]) <= 10 * TOL);
    for (int k = 0; k < p->nc; k++) {
        const double *rk = r + p->nb + 3 * k, *uk = u + p->nb + 3 * k;
        block_answer(p, r, k, x);
        ck_assert_msg(tu_max_diff(3, rk, x) <= TOL_OPT * scale, "block %d not optimal: %g", k,
                      tu_max_diff(3, rk, x));
        ck_assert(rk[0] >= 0.0);
        ck_assert(hypot(rk[1], rk[2]) <= p->mu[k] * rk[0] * (1 + 1e-12) + 1e-15);
        ck_assert(uk[0] >= -10 * TOL);
        ck_assert(fabs(rk[0] * uk[0]) <= TOL_OPT * scale);
    }
    double e = energy(p, r);
    ck_assert_double_eq_tol(st->energy, e, 1e-12 * (1.0 + fabs(e)));
    ck_assert_msg(e <= 1e-12, "energy increased: %g", e);
}

START_TEST(random_fixed_points_dissipate)
{
    tu_rng rng = {2025};
    double work[4 * 3 * NMAX];
    int nbound = 0, nstick = 0, nzero = 0;
    for (int t = 0; t < 200; t++) {
        int nc = 2 + t % 5, nb = t % 3;
        mcd_fc3d p;
        random_problem(&rng, nc, nb, &p);
        double r[3 * NMAX] = {0}, rj[3 * NMAX] = {0};
        mcd_maxdiss_opts o = tight_opts(0);
        mcd_maxdiss_stats st;
        mcd_error err;
        ck_assert_msg(mcd_maxdiss_solve(&p, &o, r, work, &st, &err) == MCD_OK, "problem %d: %s", t,
                      err.msg);
        check_fixed_point(&p, r, &st);
        /* Weighted block Jacobi reaches the same fixed point. */
        o = tight_opts(1);
        ck_assert_msg(mcd_maxdiss_solve(&p, &o, rj, work, &st, &err) == MCD_OK, "problem %d: %s", t,
                      err.msg);
        check_fixed_point(&p, rj, &st);
        int n = mcd_fc3d_size(&p);
        ck_assert_msg(tu_max_diff(n, r, rj) <= 1e-9 * (1.0 + norm_inf(n, r)),
                      "problem %d: Jacobi and Gauss-Seidel differ by %g", t, tu_max_diff(n, r, rj));
        for (int k = 0; k < nc; k++) {
            const double *rk = r + nb + 3 * k;
            double rt = hypot(rk[1], rk[2]);
            if (rk[0] == 0.0)
                nzero++;
            else if (rt >= p.mu[k] * rk[0] * (1 - 1e-9))
                nbound++;
            else
                nstick++;
        }
        mcd_fc3d_free(&p);
    }
    /* separating, sliding and sticking blocks all occur */
    ck_assert(nzero > 50 && nbound > 100 && nstick > 50);
}
END_TEST

/* Coulomb solutions of p by mncp-plm from n_starts starts (0, then random
 * warm starts); returns how many verified ones were written to rc. */
static int coulomb_solutions(mcd_solver_ws *ws, tu_rng *rng, const mcd_fc3d *p, int n_starts,
                             double rc[][3 * NMAX])
{
    int n = mcd_fc3d_size(p), found = 0;
    for (int s = 0; s < n_starts; s++) {
        mcd_solver_opts so = mcd_solver_default_opts(MCD_SOLVER_MNCP_PLM);
        double u[3 * NMAX];
        so.warm_start = s > 0;
        for (int i = 0; i < n; i++) rc[found][i] = s > 0 ? tu_uniform(rng, 0, 1) : 0.0;
        if (mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_PLM, p, &so, rc[found], u, NULL, NULL) == MCD_OK &&
            tu_coulomb_violation(p, rc[found], 1e-7) <= 1e-8)
            found++;
    }
    return found;
}

/* x = A^-1 b for a 3 x 3 matrix (row-major) by Cramer's rule: the test's own
 * solve, independent of the library. */
static void solve3(const double *A, const double *b, double *x)
{
    double det = A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
                 A[2] * (A[3] * A[7] - A[4] * A[6]);
    for (int c = 0; c < 3; c++) {
        double M[9];
        memcpy(M, A, sizeof M);
        for (int i = 0; i < 3; i++) M[3 * i + c] = b[i];
        x[c] = (M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) +
                M[2] * (M[3] * M[7] - M[4] * M[6])) /
               det;
    }
}

/* The sticking impulse r = -W^-1 q of one contact, written to rc when it is
 * a Coulomb solution (u = 0, r in the cone); returns 1 then. */
static int sticking_solution(const mcd_fc3d *p, double *rc)
{
    double mq[3] = {-p->q[0], -p->q[1], -p->q[2]};
    solve3(p->W, mq, rc);
    return rc[0] > 0 && hypot(rc[1], rc[2]) <= p->mu[0] * rc[0] &&
           tu_coulomb_violation(p, rc, 1e-7) <= 1e-8;
}

/* Single contact (the paper's claim, Sec. 3.2 / 4.1) for an approaching or
 * touching contact (q_n <= 0): every Coulomb solution is feasible for Eq.
 * (3) (a non-zero one has u_n = 0 and lies in the cone; the zero one needs
 * u_n = q_n >= 0, i.e. q_n = 0, where x = 0 is feasible too), so the
 * maximum-dissipation energy is <= its energy. The Coulomb solutions: those
 * mncp-plm finds from four starts, and the sticking one when it exists.
 * For a separating contact (q_n > 0) the claim is false: see
 * single_contact_self_locking. */
START_TEST(single_contact_dissipates_more_than_coulomb)
{
    tu_rng rng = {31};
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(3, &ws, NULL), MCD_OK);
    int ncoul = 0, nstrict = 0;
    for (int t = 0; t < 300; t++) {
        mcd_fc3d p;
        ck_assert_int_eq(mcd_fc3d_alloc(&p, 1, 0, NULL), MCD_OK);
        tu_spd_matrix(&rng, 3, tu_uniform(&rng, 0.05, 1.0), p.W);
        for (int i = 0; i < 3; i++) p.q[i] = tu_uniform(&rng, -1, 1);
        p.q[0] = tu_uniform(&rng, -1, 0.0);
        p.mu[0] = tu_uniform(&rng, 0.0, 3.0);
        double x[3], rc[5][3 * NMAX];
        ck_assert_int_eq(mcd_maxdiss_single(p.W, p.q, p.mu[0], x, NULL), MCD_OK);
        double em = energy(&p, x);
        int nf = coulomb_solutions(ws, &rng, &p, 4, rc);
        nf += sticking_solution(&p, rc[nf]);
        for (int s = 0; s < nf; s++) {
            double ec = energy(&p, rc[s]);
            ck_assert_msg(em <= ec + 1e-10 * (1 + fabs(ec)), "problem %d: maxdiss %.12g > %.12g", t,
                          em, ec);
            nstrict += em < ec - 1e-6;
        }
        ncoul += nf;
        mcd_fc3d_free(&p);
    }
    mcd_solver_ws_free(ws);
    ck_assert(ncoul > 1000);
    ck_assert(nstrict > 50); /* the two laws differ on sliding contacts */
}
END_TEST

/* Single contact, separating (q_n > 0): the maximum-dissipation law
 * separates (x = 0, energy 0), but when the sticking impulse r = -W^-1 q
 * lies in the cone it is a Coulomb solution too (u = 0: a self-locking
 * contact, as in Painleve's rod) with energy -1/2 r^T W r < 0. So "maximum
 * dissipation <= every Coulomb solution" needs q_n <= 0. The problems are
 * built from the solution: r in the cone's interior, W with a strong
 * normal-tangential coupling, q = -W r, kept when q_n > 0. */
START_TEST(single_contact_self_locking)
{
    tu_rng rng = {47};
    int nlocked = 0;
    for (int t = 0; t < 200; t++) {
        mcd_fc3d p;
        ck_assert_int_eq(mcd_fc3d_alloc(&p, 1, 0, NULL), MCD_OK);
        tu_spd_matrix(&rng, 3, 0.05, p.W);
        p.W[1] = p.W[3] = -0.9 * sqrt(p.W[0] * p.W[4]); /* W stays SPD: |rho| < 1 */
        p.W[2] = p.W[6] = p.W[5] = p.W[7] = 0.0;
        p.mu[0] = tu_uniform(&rng, 1.0, 3.0);
        double r[3] = {1.0, 0.9 * p.mu[0], 0.0}, rs[3 * NMAX], x[3];
        for (int i = 0; i < 3; i++)
            p.q[i] = -(p.W[3 * i] * r[0] + p.W[3 * i + 1] * r[1] + p.W[3 * i + 2] * r[2]);
        if (p.q[0] > 0 && sticking_solution(&p, rs)) {
            ck_assert_int_eq(mcd_maxdiss_single(p.W, p.q, p.mu[0], x, NULL), MCD_OK);
            ck_assert(x[0] == 0.0 && x[1] == 0.0 && x[2] == 0.0); /* separation */
            ck_assert_msg(energy(&p, rs) < -1e-9 * (1.0 + p.W[0]), "problem %d: energy %g", t,
                          energy(&p, rs));
            nlocked++;
        }
        mcd_fc3d_free(&p);
    }
    ck_assert_msg(nlocked > 50, "only %d self-locking problems", nlocked);
}
END_TEST

/* Multi-contact: the global claim is false (Eq. (5) is a fixed point of
 * single-contact minimisations, not a global minimiser). What holds is the
 * single-contact result per block: replacing any one block of a Coulomb
 * solution by its maximum-dissipation answer never raises the energy. And
 * frictionless, both laws are the same LCP. */
START_TEST(multi_contact_versus_coulomb)
{
    tu_rng rng = {7};
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(3 * NMAX, &ws, NULL), MCD_OK);
    double work[4 * 3 * NMAX];
    int ncoul = 0, nlower = 0;
    for (int t = 0; t < 100; t++) {
        int nc = 2 + t % 4;
        mcd_fc3d p;
        random_problem(&rng, nc, 0, &p);
        if (t % 10 == 9)
            for (int k = 0; k < nc; k++) p.mu[k] = 0.0;
        int n = mcd_fc3d_size(&p);
        double r[3 * NMAX] = {0}, rc[3][3 * NMAX];
        mcd_maxdiss_opts o = tight_opts(0);
        mcd_maxdiss_stats st;
        ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, r, work, &st, NULL), MCD_OK);
        int nf = coulomb_solutions(ws, &rng, &p, 3, rc);
        for (int s = 0; s < nf; s++) {
            double ec = energy(&p, rc[s]);
            for (int k = 0; k < nc; k++) {
                double rb[3 * NMAX];
                memcpy(rb, rc[s], (size_t)n * sizeof *rb);
                block_answer(&p, rc[s], k, rb + 3 * k);
                ck_assert(energy(&p, rb) <= ec + 1e-10 * (1 + fabs(ec)));
            }
            if (t % 10 == 9) /* frictionless: the same unique LCP solution */
                ck_assert(tu_max_diff(n, r, rc[s]) <= 1e-8 * (1 + norm_inf(n, r)));
            nlower += ec < st.energy - 1e-6;
        }
        ncoul += nf;
        mcd_fc3d_free(&p);
    }
    mcd_solver_ws_free(ws);
    ck_assert(ncoul >= 250);
    /* Counterexamples to "maxdiss <= every Coulomb solution" with several
     * contacts are common (about a quarter of these problems). */
    ck_assert_msg(nlower > 10, "only %d Coulomb solutions below the maxdiss energy", nlower);
}
END_TEST

/* Rigid body (mass m, inertia diag(I) about the centre, world frame) and
 * contacts at points c_k (relative to the centre) with frames rows
 * (n, t, o): W = J M^-1 J^T, q = J V for the body velocity V = (v, w). */
static void rigid_body_problem(double m, const double I[3], int nc, const double (*c)[3],
                               const double (*frame)[9], const double V[6], mcd_fc3d *p)
{
    ck_assert_int_eq(mcd_fc3d_alloc(p, nc, 0, NULL), MCD_OK);
    int n = 3 * nc;
    double J[3 * NMAX][6];
    for (int k = 0; k < nc; k++)
        for (int a = 0; a < 3; a++) {
            const double *d = frame[k] + 3 * a, *x = c[k];
            double *row = J[3 * k + a];
            row[0] = d[0], row[1] = d[1], row[2] = d[2];
            row[3] = x[1] * d[2] - x[2] * d[1];
            row[4] = x[2] * d[0] - x[0] * d[2];
            row[5] = x[0] * d[1] - x[1] * d[0];
        }
    double minv[6] = {1 / m, 1 / m, 1 / m, 1 / I[0], 1 / I[1], 1 / I[2]};
    for (int i = 0; i < n; i++) {
        p->q[i] = 0.0;
        for (int a = 0; a < 6; a++) p->q[i] += J[i][a] * V[a];
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int a = 0; a < 6; a++) s += J[i][a] * minv[a] * J[j][a];
            p->W[i * n + j] = s;
        }
    }
}

/* A box on four corners (W 12x12 of rank 6, every block positive definite),
 * landing while sliding: converges, stops the fall, dissipates, and the
 * total normal impulse equals m |v_n|. */
START_TEST(box_on_four_corners)
{
    const double m = 2.0, a = 0.3, b = 0.2, h = 0.1;
    const double I[3] = {m * (4 * b * b + 4 * h * h) / 12, m * (4 * a * a + 4 * h * h) / 12,
                         m * (4 * a * a + 4 * b * b) / 12};
    double c[4][3], frame[4][9];
    for (int k = 0; k < 4; k++) {
        c[k][0] = k & 1 ? a : -a, c[k][1] = k & 2 ? b : -b, c[k][2] = -h;
        double f[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0}; /* (n, t, o) = (z, x, y) */
        memcpy(frame[k], f, sizeof f);
    }
    const double mus[3] = {0.1, 0.5, 2.0};
    double work[64];
    for (int j = 0; j < 3; j++) {
        double V[6] = {1.0, 0.3, -0.8, 0.0, 0.0, 0.5}; /* sliding, falling, spinning */
        mcd_fc3d p;
        rigid_body_problem(m, I, 4, (const double(*)[3])c, (const double(*)[9])frame, V, &p);
        for (int k = 0; k < 4; k++) p.mu[k] = mus[j];
        double r[12] = {0}, u[12];
        mcd_maxdiss_opts o = mcd_maxdiss_default_opts();
        o.newton_iter = 0;
        mcd_maxdiss_stats st;
        mcd_error err;
        ck_assert_msg(mcd_maxdiss_solve(&p, &o, r, work, &st, &err) == MCD_OK, "%s", err.msg);
        ck_assert_int_eq(st.regularized_blocks, 0);
        velocity(&p, r, u);
        double pn = 0.0;
        for (int k = 0; k < 4; k++) {
            ck_assert(fabs(u[3 * k]) <= 1e-9); /* the fall is stopped at every corner */
            pn += r[3 * k];
        }
        ck_assert_double_eq_tol(pn, m * 0.8, 1e-9);
        ck_assert(st.energy < 0.0);
        ck_assert_double_eq_tol(st.energy, energy(&p, r), 1e-12);
        mcd_fc3d_free(&p);
    }
}
END_TEST

/* A body that only translates along d (one degree of freedom, mass m)
 * touching a wall: W_kk = d d^T / m has rank 1 and is regularised. Stopping
 * the normal motion stops the body (u = 0), with any impulse of the cone on
 * the line d^T r = m |v|: the solver returns a finite one that dissipates.
 * A contact whose block is zero gets no impulse; if it approaches, nothing
 * can stop it and the solve reports it. */
START_TEST(singular_and_zero_blocks)
{
    const double m = 3.0, ang[3] = {0.0, 0.4, 1.2};
    double work[64];
    for (int j = 0; j < 3; j++) {
        mcd_fc3d p;
        ck_assert_int_eq(mcd_fc3d_alloc(&p, 2, 0, NULL), MCD_OK);
        double d[3] = {cos(ang[j]), sin(ang[j]), 0.0}, v = -1.5; /* velocity along d */
        for (int i = 0; i < 3; i++) {
            p.q[i] = d[i] * v;
            for (int k = 0; k < 3; k++) p.W[i * 6 + k] = d[i] * d[k] / m;
        }
        p.q[3] = -0.5, p.q[4] = 0.2; /* contact 1: zero block */
        p.mu[0] = 0.3, p.mu[1] = 0.5;
        double r[6] = {0}, u[6];
        mcd_maxdiss_opts o = mcd_maxdiss_default_opts();
        o.newton_iter = 0;
        mcd_maxdiss_stats st;
        mcd_error err;
        mcd_status s = mcd_maxdiss_solve(&p, &o, r, work, &st, &err);
        ck_assert_int_eq(st.regularized_blocks, 1);
        ck_assert_int_eq(st.zero_blocks, 1);
        /* the zero block approaches (q_n = -0.5) and nothing can stop it: reported */
        ck_assert_int_eq(s, MCD_ERR_NOT_CONVERGED);
        ck_assert_double_eq_tol(st.residual, 0.5, 1e-12);
        ck_assert(r[3] == 0.0 && r[4] == 0.0 && r[5] == 0.0);
        /* the same problem without the approach of the zero block converges */
        p.q[3] = 0.5;
        memset(r, 0, sizeof r);
        ck_assert_msg(mcd_maxdiss_solve(&p, &o, r, work, &st, &err) == MCD_OK, "%s", err.msg);
        velocity(&p, r, u);
        for (int i = 0; i < 6; i++) ck_assert(isfinite(r[i]));
        for (int i = 0; i < 3; i++) ck_assert(fabs(u[i]) <= 1e-9);
        ck_assert_double_eq_tol(r[0] * d[0] + r[1] * d[1], -m * v, 1e-9);
        ck_assert(r[0] >= 0.0 && hypot(r[1], r[2]) <= p.mu[0] * r[0] * (1 + 1e-9) + 1e-15);
        ck_assert(st.energy <= 0.0);
        mcd_fc3d_free(&p);
    }
}
END_TEST

/* Weighted Jacobi with omega = 1 on strongly coupled bilateral rows
 * (eigenvalues of the Jacobi map -1.8) diverges: detected, best iterate
 * returned. Too few sweeps: not converged, best iterate returned. */
START_TEST(divergence_and_iteration_limit)
{
    mcd_fc3d p;
    ck_assert_int_eq(mcd_fc3d_alloc(&p, 1, 3, NULL), MCD_OK);
    const int n = 6;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) p.W[i * n + j] = i == j ? 1.0 : (i < 3 && j < 3 ? 0.9 : 0.0);
    double q[6] = {1.0, -0.5, 0.2, -1.0, 0.3, 0.1};
    memcpy(p.q, q, sizeof q);
    p.mu[0] = 0.5;
    double r[6] = {0}, work[32];
    mcd_maxdiss_opts o = mcd_maxdiss_default_opts();
    o.jacobi = 1, o.omega = 1.0, o.newton_iter = 0;
    mcd_maxdiss_stats st;
    mcd_error err;
    ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, r, work, &st, &err), MCD_ERR_NOT_CONVERGED);
    ck_assert_ptr_nonnull(strstr(err.msg, "diverged"));
    ck_assert_int_lt(st.iterations, 200);
    for (int i = 0; i < n; i++) ck_assert(isfinite(r[i]));
    ck_assert(st.residual <= 1.0); /* the best iterate, not the last */
    /* The same problem converges with omega = 0.5 and with Gauss-Seidel. */
    o.omega = 0.5;
    memset(r, 0, sizeof r);
    ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, r, work, &st, &err), MCD_OK);
    o.jacobi = 0;
    memset(r, 0, sizeof r);
    ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, r, work, &st, &err), MCD_OK);
    double u[6];
    velocity(&p, r, u);
    for (int i = 0; i < 3; i++) ck_assert(fabs(u[i]) <= 1e-10);
    ck_assert_double_eq_tol(r[3], 1.0, 1e-10); /* sticking: u_k = 0 */
    o.max_iter = 2;
    memset(r, 0, sizeof r);
    ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, r, work, &st, &err), MCD_ERR_NOT_CONVERGED);
    ck_assert_int_eq(st.iterations, 2);
    ck_assert_int_eq(st.status, MCD_ERR_NOT_CONVERGED);
    ck_assert(st.residual > o.tol && isfinite(st.residual));
    mcd_fc3d_free(&p);
}
END_TEST

START_TEST(bad_input)
{
    mcd_fc3d p;
    ck_assert_int_eq(mcd_fc3d_alloc(&p, 2, 1, NULL), MCD_OK);
    tu_rng rng = {5};
    tu_spd_matrix(&rng, 7, 0.5, p.W);
    for (int i = 0; i < 7; i++) p.q[i] = tu_uniform(&rng, -1, 1);
    p.mu[0] = p.mu[1] = 0.5;
    double r[7] = {0}, work[1200];
    mcd_maxdiss_opts o = mcd_maxdiss_default_opts();
    mcd_maxdiss_stats st;
    mcd_error err;
    ck_assert_uint_eq(mcd_maxdiss_work_size(&p),
                      3 * 7 + 2 + 2 * 7 + mcd_maxdiss_newton_work_size(&p));
    ck_assert_uint_le(mcd_maxdiss_work_size(&p), sizeof work / sizeof *work);
    ck_assert_uint_eq(mcd_maxdiss_work_size(NULL), 0);
    /* NULL */
    ck_assert_int_eq(mcd_maxdiss_solve(NULL, &o, r, work, &st, &err), MCD_ERR_ARG);
    ck_assert(strlen(err.msg) > 0);
    ck_assert_int_eq(mcd_maxdiss_solve(&p, NULL, r, work, &st, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, NULL, work, &st, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, r, NULL, NULL, NULL), MCD_ERR_ARG);
    /* sizes, mu */
    p.nc = -1;
    ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, r, work, &st, &err), MCD_ERR_ARG);
    ck_assert_uint_eq(mcd_maxdiss_work_size(&p), 0);
    p.nc = 2;
    p.mu[1] = -0.1;
    ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, r, work, &st, &err), MCD_ERR_ARG);
    ck_assert_int_eq(st.status, MCD_ERR_ARG);
    p.mu[1] = NAN;
    ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, r, work, &st, &err), MCD_ERR_NONFINITE);
    p.mu[1] = 0.5;
    /* non-finite data and start; r left unchanged */
    double keep = p.W[10];
    p.W[10] = NAN;
    ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, r, work, &st, &err), MCD_ERR_NONFINITE);
    p.W[10] = keep;
    p.q[4] = INFINITY;
    ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, r, work, &st, &err), MCD_ERR_NONFINITE);
    p.q[4] = 0.3;
    r[2] = NAN;
    r[5] = 7.0;
    ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, r, work, &st, &err), MCD_ERR_NONFINITE);
    ck_assert(isnan(r[2]) && r[5] == 7.0);
    memset(r, 0, sizeof r);
    /* options */
    mcd_maxdiss_opts bad[8];
    for (int i = 0; i < 8; i++) bad[i] = o;
    bad[0].max_iter = 0, bad[1].tol = 0.0, bad[2].tol = NAN, bad[3].jacobi = 2;
    bad[4].omega = 0.0, bad[5].omega = 1.5, bad[6].regularization = 1.0, bad[7].newton_iter = -1;
    for (int i = 0; i < 8; i++) {
        ck_assert_int_eq(mcd_maxdiss_solve(&p, &bad[i], r, work, &st, &err), MCD_ERR_ARG);
        ck_assert(strlen(err.msg) > 0);
    }
    /* the valid problem solves, also without stats and error buffer */
    ck_assert_int_eq(mcd_maxdiss_solve(&p, &o, r, work, NULL, NULL), MCD_OK);
    /* the empty problem */
    mcd_fc3d e = {0, 0, NULL, NULL, NULL};
    ck_assert_int_eq(mcd_maxdiss_solve(&e, &o, r, work, &st, &err), MCD_OK);
    ck_assert_int_eq(st.iterations, 0);
    mcd_fc3d_free(&p);
}
END_TEST

static Suite *maxdiss_bgs_suite(void)
{
    Suite *s = suite_create("solver-maxdiss-bgs");
    TCase *tc = tcase_create("maxdiss-bgs");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, one_contact_equals_single);
    tcase_add_test(tc, random_fixed_points_dissipate);
    tcase_add_test(tc, single_contact_dissipates_more_than_coulomb);
    tcase_add_test(tc, single_contact_self_locking);
    tcase_add_test(tc, multi_contact_versus_coulomb);
    tcase_add_test(tc, box_on_four_corners);
    tcase_add_test(tc, singular_and_zero_blocks);
    tcase_add_test(tc, divergence_and_iteration_limit);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(maxdiss_bgs_suite());
}

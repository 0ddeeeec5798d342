/* Shared helpers of the solver tests (solver_testutil.h). */
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

double tu_uniform(tu_rng *r, double a, double b)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    uint64_t v = r->s * 2685821657736338717ULL;
    return a + (b - a) * (double)(v >> 11) * 0x1.0p-53;
}

static void random_square(tu_rng *r, int n, double *B)
{
    for (int i = 0; i < n * n; i++) B[i] = tu_uniform(r, -1, 1);
}

void tu_spd_matrix(tu_rng *r, int n, double shift, double *W)
{
    double *B = malloc((size_t)n * n * sizeof *B);
    random_square(r, n, B);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++) s += B[i * n + k] * B[j * n + k];
            W[i * n + j] = s / n + (i == j ? shift : 0.0);
        }
    free(B);
}

void tu_pd_matrix(tu_rng *r, int n, double *M)
{
    double *C = malloc((size_t)n * n * sizeof *C);
    tu_spd_matrix(r, n, 1.0, M);
    random_square(r, n, C);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) M[i * n + j] += 0.5 * (C[i * n + j] - C[j * n + i]);
    free(C);
}

static void contact_solution(tu_rng *rng, int regime, double mu, double *r, double *u)
{
    double th = tu_uniform(rng, 0, 2 * acos(-1.0)), c = cos(th), s = sin(th);
    r[0] = r[1] = r[2] = u[0] = u[1] = u[2] = 0.0;
    if (regime == TU_SEPARATE) {
        u[0] = tu_uniform(rng, 0.5, 2);
        u[1] = tu_uniform(rng, -1, 1);
        u[2] = tu_uniform(rng, -1, 1);
        return;
    }
    r[0] = tu_uniform(rng, 0.5, 2);
    double rho = regime == TU_STICK ? tu_uniform(rng, 0.2, 0.8) : 1.0;
    r[1] = -rho * mu * r[0] * c;
    r[2] = -rho * mu * r[0] * s;
    if (regime == TU_SLIP) {
        double speed = tu_uniform(rng, 0.5, 2);
        u[1] = speed * c; /* opposite to r_t */
        u[2] = speed * s;
    }
}

void tu_fc3d_with_solution(tu_rng *rng, int nc, int nb, const int *regime, mcd_fc3d *p, double *r,
                           double *u)
{
    mcd_fc3d_alloc(p, nc, nb, NULL);
    int n = mcd_fc3d_size(p);
    tu_spd_matrix(rng, n, 0.5, p->W);
    for (int i = 0; i < nb; i++) {
        r[i] = tu_uniform(rng, -1, 1);
        u[i] = 0.0;
    }
    for (int k = 0; k < nc; k++) {
        p->mu[k] = tu_uniform(rng, 0.2, 0.8);
        contact_solution(rng, regime[k], p->mu[k], r + nb + 3 * k, u + nb + 3 * k);
    }
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += p->W[i * n + j] * r[j];
        p->q[i] = u[i] - s;
    }
}

static double contact_violation(double mu, const double *r, const double *u, double slide_tol)
{
    double rt = hypot(r[1], r[2]), ut = hypot(u[1], u[2]);
    double v = fmax(fmax(-r[0], -u[0]), fabs(r[0] * u[0]));
    v = fmax(v, rt - mu * r[0]);
    if (ut > slide_tol) { /* maximum dissipation: r_t = -mu r_n u_t / |u_t| */
        double e1 = r[1] + mu * r[0] * u[1] / ut, e2 = r[2] + mu * r[0] * u[2] / ut;
        v = fmax(v, hypot(e1, e2));
    }
    if (rt < mu * r[0] - slide_tol) v = fmax(v, ut); /* strictly inside: no sliding */
    return v;
}

double tu_coulomb_violation(const mcd_fc3d *p, const double *r, double slide_tol)
{
    int n = mcd_fc3d_size(p);
    double *u = malloc((size_t)n * sizeof *u);
    for (int i = 0; i < n; i++) {
        double s = p->q[i];
        for (int j = 0; j < n; j++) s += p->W[i * n + j] * r[j];
        u[i] = s;
    }
    double v = 0.0;
    for (int i = 0; i < p->nb; i++) v = fmax(v, fabs(u[i]));
    for (int k = 0; k < p->nc; k++) {
        int c = p->nb + 3 * k;
        v = fmax(v, contact_violation(p->mu[k], r + c, u + c, slide_tol));
    }
    free(u);
    return v;
}

double tu_max_diff(int n, const double *a, const double *b)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

/* tests/solver/data/FILE read as kind (fails the test if it does not read). */
static mcd_problem_file read_data(const char *file, mcd_problem_kind kind)
{
    char path[4096];
    const char *src = getenv("MCDYN_SOURCE");
    ck_assert_msg(src != NULL, "MCDYN_SOURCE is not set");
    snprintf(path, sizeof path, "%s/tests/solver/data/%s", src, file);
    mcd_problem_file pf = {0};
    mcd_error err = {0};
    ck_assert_msg(mcd_problem_read_siconos(path, kind, &pf, &err) == MCD_OK, "%s: %s", file,
                  err.msg);
    return pf;
}

mcd_problem_file tu_read_fc3d_data(const char *file)
{
    mcd_problem_file pf = read_data(file, MCD_PROBLEM_AUTO);
    ck_assert_int_eq(pf.kind, MCD_PROBLEM_FC3D);
    return pf;
}

mcd_problem_file tu_read_lcp_data(const char *file, int n)
{
    mcd_problem_file pf = read_data(file, MCD_PROBLEM_MLCP);
    ck_assert_int_eq(pf.mlcp.n, n);
    for (int i = 0; i < n; i++) /* an LCP: every row z_i >= 0 _|_ w_i >= 0 */
        ck_assert(pf.mlcp.lo[i] == 0.0 && pf.mlcp.hi[i] == INFINITY);
    return pf;
}

mcd_problem_file tu_read_shared_fc3d(const char *file)
{
    const char *dir = getenv("MCDYN_SHARED");
    ck_assert_msg(dir != NULL, "MCDYN_SHARED is not set (run through meson test)");
    char path[4096];
    snprintf(path, sizeof path, "%s/data/fc3d/%s", dir, file);
    mcd_problem_file pf = {0};
    mcd_error err = {0};
    ck_assert_msg(mcd_problem_read_file(path, MCD_PROBLEM_FC3D, &pf, &err) == MCD_OK, "%s: %s",
                  file, err.msg);
    ck_assert_int_eq(pf.kind, MCD_PROBLEM_FC3D);
    return pf;
}

void tu_lemke_solves_alone(const char *file, int n)
{
    mcd_problem_file f = tu_read_lcp_data(file, n);
    const mcd_mlcp *p = &f.mlcp;
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(p->n, &ws, NULL), MCD_OK);
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MLCP_LEMKE);
    o.fallback = MCD_FALLBACK_NONE; /* Lemke alone: no proximal stage to hide a failed path */
    double *z = malloc((size_t)n * sizeof *z);
    ck_assert_ptr_nonnull(z);
    mcd_solver_stats st;
    mcd_error err = {0};
    mcd_status s = mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, p, &o, z, &st, &err);
    ck_assert_msg(s == MCD_OK, "%s: %s after %d pivots (error %g)", file, mcd_status_str(s),
                  st.iterations, st.error);
    ck_assert_int_eq(st.stages, 1);
    for (int i = 0; i < p->n; i++) ck_assert_msg(z[i] >= 0.0, "%s: z[%d] = %g", file, i, z[i]);
    double r = tu_lcp_residual(p, z);
    ck_assert_msg(r <= o.tol, "%s: residual %g > tol %g", file, r, o.tol);
    free(z);
    mcd_solver_ws_free(ws);
    mcd_problem_file_free(&f);
}

double tu_lcp_residual(const mcd_mlcp *p, const double *z)
{
    double r2 = 0.0, q2 = 0.0;
    for (int i = 0; i < p->n; i++) {
        double w = p->q[i];
        for (int j = 0; j < p->n; j++) w += p->M[(size_t)i * p->n + j] * z[j];
        double m = fmin(z[i], w);
        r2 += m * m;
        q2 += p->q[i] * p->q[i];
    }
    return sqrt(r2) / (1.0 + sqrt(q2));
}

tu_layout tu_layout_make(int singles, int triples)
{
    tu_layout l = {singles + 3 * triples, singles, singles + triples};
    return l;
}

int tu_block_of(const tu_layout *l, int i)
{
    return i < l->singles ? i : l->singles + (i - l->singles) / 3;
}

unsigned char *tu_block_pattern(tu_rng *rng, const tu_layout *l, int kind)
{
    int nb = l->blocks;
    unsigned char *B = calloc((size_t)nb * nb, 1);
    for (int I = 0; I < nb; I++) {
        for (int K = 0; K <= I; K++) {
            int on = I == K;
            if (kind == TU_BLOCK_DIAGONAL) on = on || I / TU_GROUP == K / TU_GROUP;
            if (kind == TU_CHAIN) on = on || I == K + 1;
            if (kind == TU_RANDOM_GRAPH) on = on || tu_uniform(rng, 0, 1) < 3.0 / nb;
            B[(size_t)I * nb + K] = B[(size_t)K * nb + I] = (unsigned char)on;
        }
    }
    return B;
}

void tu_patterned_matrix(tu_rng *rng, const tu_layout *l, const unsigned char *B, double margin,
                         double *J)
{
    int n = l->n;
    for (int i = 0; i < n; i++) {
        double row = 0.0;
        for (int j = 0; j < n; j++) {
            int on = B[(size_t)tu_block_of(l, i) * l->blocks + tu_block_of(l, j)];
            J[(size_t)i * n + j] = on && i != j ? tu_uniform(rng, -1, 1) : 0.0;
            row += fabs(J[(size_t)i * n + j]);
        }
        J[(size_t)i * n + i] = (tu_uniform(rng, 0, 1) < 0.5 ? -1 : 1) * (row + margin);
    }
}

void tu_block_sparse_spd(tu_rng *rng, const tu_layout *l, const unsigned char *B, double *W)
{
    int n = l->n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            int on = B[(size_t)tu_block_of(l, i) * l->blocks + tu_block_of(l, j)];
            W[(size_t)i * n + j] = W[(size_t)j * n + i] = on ? tu_uniform(rng, -1, 1) : 0.0;
        }
    for (int i = 0; i < n; i++) {
        double row = 0.0;
        for (int j = 0; j < n; j++) row += j != i ? fabs(W[(size_t)i * n + j]) : 0.0;
        W[(size_t)i * n + i] = row + 0.25;
    }
}

void tu_block_sparse_fc3d(tu_rng *rng, const tu_layout *l, const unsigned char *B, mcd_fc3d *p,
                          double *r, double *u)
{
    int nc = (l->n - l->singles) / 3, *regime = malloc(sizeof(int) * (size_t)(nc > 0 ? nc : 1));
    for (int k = 0; k < nc; k++) regime[k] = k % 3;
    tu_fc3d_with_solution(rng, nc, l->singles, regime, p, r, u);
    tu_block_sparse_spd(rng, l, B, p->W);
    int n = l->n;
    for (int i = 0; i < n; i++) {
        p->q[i] = u[i];
        for (int j = 0; j < n; j++) p->q[i] -= p->W[(size_t)i * n + j] * r[j];
    }
    free(regime);
}

/* The Levenberg-Marquardt step of the maximum-dissipation Newton method
 * (src/solver/maxdiss_step.h): the sparse step (SuiteSparseQR in the
 * sparse order) equals LAPACK's dgels step on random block-sparse
 * problems, and on the captured pile groups the Newton method and the
 * failure path of mcd_maxdiss_solve run their large steps sparse (LAPACK's
 * dgels_ interposed: no call of more than 64 unknowns) with the outcome of
 * the dense steps. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "common/check_main.h"
#include "mcdyn/impact.h"
#include "mcdyn/problem_io.h"
#include "mcdyn/solver.h"
#include "solver/lm_sparse.h"
#include "solver/maxdiss_step.h"
#include "solver_testutil.h"

#include "base/lapack.h"

#include <check.h>
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK's dgels_, interposed: calls with more than
 * MCD_MAXDISS_STEP_DENSE_MAX columns are counted, then every call is
 * forwarded to LAPACK (found before the first count: dlsym allocates). */
typedef void gels_fn(const char *, const int *, const int *, const int *, double *, const int *,
                     double *, const int *, double *, const int *, int *);
static gels_fn *lapack_gels;
static int large_gels_calls;

static void find_lapack_gels(void)
{
    if (!lapack_gels) lapack_gels = (gels_fn *)dlsym(RTLD_NEXT, "dgels_");
    ck_assert_ptr_nonnull(lapack_gels);
}

void dgels_(const char *trans, const int *m, const int *n, const int *nrhs, double *a,
            const int *lda, double *b, const int *ldb, double *work, const int *lwork, int *info)
{
    if (*n > MCD_MAXDISS_STEP_DENSE_MAX) large_gels_calls++;
    lapack_gels(trans, m, n, nrhs, a, lda, b, ldb, work, lwork, info);
}

/* A random block-sparse W (n = nb + 3 nc): contact blocks (k, l) nonzero
 * for |k - l| <= 1 and one pair in ten otherwise, each bilateral row
 * coupled to two contacts; entries uniform in [-1, 1]. */
static void random_block_sparse_w(tu_rng *rng, int nb, int nc, double *W)
{
    int n = nb + 3 * nc;
    memset(W, 0, (size_t)n * n * sizeof *W);
    for (int i = 0; i < nb; i++) {
        W[i * n + i] = tu_uniform(rng, 0.5, 1.0);
        for (int t = 0; t < 2; t++) {
            int c = nb + 3 * (int)tu_uniform(rng, 0, nc - 0.5);
            for (int e = 0; e < 3; e++)
                W[i * n + c + e] = W[(c + e) * n + i] = tu_uniform(rng, -1, 1);
        }
    }
    for (int k = 0; k < nc; k++)
        for (int l = 0; l < nc; l++) {
            if (abs(k - l) > 1 && tu_uniform(rng, 0, 1) > 0.1) continue;
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++)
                    W[(nb + 3 * k + a) * n + nb + 3 * l + b] = tu_uniform(rng, -1, 1);
        }
}

/* A random J (m x m, Newton's order) on the pattern of maxdiss_step.h:
 * entry (i, j) set where J can be nonzero, its value uniform in [-1, 1]. */
static void random_jacobian(tu_rng *rng, int nb, int nc, const double *W, double *J)
{
    int n = nb + 3 * nc, m = n + nc;
    memset(J, 0, (size_t)m * m * sizeof *J);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (W[i * n + j] != 0.0) J[i * m + j] = tu_uniform(rng, -1, 1);
    for (int k = 0; k < nc; k++) {
        int c = nb + 3 * k;
        for (int e = 0; e < 3; e++) {
            J[(c + e) * m + n + k] = tu_uniform(rng, -1, 1);
            for (int f = 0; f < 3; f++) J[(c + e) * m + c + f] = tu_uniform(rng, -1, 1);
            J[(n + k) * m + c + e] = tu_uniform(rng, -1, 1);
        }
        for (int j = 0; j < n; j++)
            if (W[(c + 0) * n + j] != 0.0) J[(n + k) * m + j] = tu_uniform(rng, -1, 1);
        J[(n + k) * m + n + k] = tu_uniform(rng, -1, 1);
    }
}

/* The sparse step equals dgels's to 1e-10 relative (both backward-stable
 * QRs of the same stacked matrix, whose sqrt(nu) I rows bound its
 * condition number by about |J| / sqrt(nu) <~ 1e5 here), and runs no
 * dgels of the problem's size; nu from 1 down to 1e-8. */
START_TEST(sparse_step_equals_dgels_step)
{
    tu_rng rng = {0x5d01 + (uint64_t)_i};
    int nb = _i % 2 ? 3 : 0, nc = 30 + 7 * _i, n = nb + 3 * nc, m = n + nc;
    double *W = malloc((size_t)n * n * sizeof *W), *J = malloc((size_t)m * m * sizeof *J);
    double *phi = malloc((size_t)m * sizeof *phi), *ds = malloc((size_t)m * sizeof *ds);
    double *dd = malloc((size_t)m * sizeof *dd),
           *buf = malloc((size_t)m * (2 * m + 2 + 66) * sizeof *buf);
    mcd_maxdiss_step_work w = {buf, buf + 2 * (size_t)m * m, buf + 2 * (size_t)m * (m + 1)};
    mcd_lm_sparse *sp = mcd_lm_sparse_create();
    ck_assert_ptr_nonnull(sp);
    find_lapack_gels();
    random_block_sparse_w(&rng, nb, nc, W);
    ck_assert_int_eq(mcd_maxdiss_step_setup(sp, nb, nc, W, w.aug), 1);
    for (int t = 0; t < 5; t++) {
        double nu = pow(10.0, -2.0 * t);
        random_jacobian(&rng, nb, nc, W, J);
        for (int i = 0; i < m; i++) phi[i] = tu_uniform(&rng, -1, 1);
        large_gels_calls = 0;
        ck_assert_int_eq(mcd_maxdiss_step_solve(sp, nb, nc, J, phi, nu, &w, ds), 1);
        ck_assert_int_eq(large_gels_calls, 0);
        ck_assert_int_eq(mcd_maxdiss_step_solve(NULL, nb, nc, J, phi, nu, &w, dd), 1);
        ck_assert_int_eq(large_gels_calls, 1);
        double scale = 0.0;
        for (int i = 0; i < m; i++) scale = fmax(scale, fabs(dd[i]));
        ck_assert_msg(tu_max_diff(m, ds, dd) <= 1e-10 * scale,
                      "nu %g: sparse and dgels differ by %g of %g", nu, tu_max_diff(m, ds, dd),
                      scale);
    }
    mcd_lm_sparse_free(sp);
    free(W), free(J), free(phi), free(ds), free(dd), free(buf);
}
END_TEST

/* The set-up says no, and the steps stay dense, for m <= 64, a NULL state
 * and a dense W (its pattern fills more than lm_sparse takes). */
START_TEST(setup_refuses_small_or_dense_problems)
{
    tu_rng rng = {0x5d02};
    int nc = 40, n = 3 * nc, m = n + nc;
    double *W = malloc((size_t)n * n * sizeof *W), *pattern = malloc((size_t)m * m * sizeof *W);
    mcd_lm_sparse *sp = mcd_lm_sparse_create();
    ck_assert_ptr_nonnull(sp);
    random_block_sparse_w(&rng, 0, nc, W);
    ck_assert_int_eq(mcd_maxdiss_step_setup(NULL, 0, nc, W, pattern), 0);
    ck_assert_int_eq(mcd_maxdiss_step_setup(sp, 0, 16, W, pattern), 0); /* m = 64 */
    tu_spd_matrix(&rng, n, 0.5, W);
    ck_assert_int_eq(mcd_maxdiss_step_setup(sp, 0, nc, W, pattern), 0);
    mcd_lm_sparse_free(sp);
    free(W), free(pattern);
}
END_TEST

/* Newton runs on the captured pile groups: pile 88 from mncp-nsn's point
 * with the failure path's probe budget (newton_iter / 20 per rung: stalls
 * just above tol) and the full one (converges); pile 73 from r = 0, where
 * it runs all its iterations (from mncp-nsn's point it has R <= tol before
 * its first step). */
static const struct {
    const char *group;
    int nsn_start;
    int per_rung;
} newton_runs[] = {{"maxdiss_pile_88_group.dat", 1, 5},
                   {"maxdiss_pile_88_group.dat", 1, 100},
                   {"maxdiss_pile_73_group.dat", 0, 10}};

/* With the solver workspace lent the Newton steps are sparse (no dgels of
 * the problem's size, m = 376 and 400) and the outcome is the dense
 * steps': the same status, R on the same side of tol and within a factor
 * 2 (each step rounds differently). */
START_TEST(pile_group_newton_steps_are_sparse)
{
    find_lapack_gels();
    mcd_problem_file pf = tu_read_fc3d_data(newton_runs[_i].group);
    mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    double *r0 = calloc((size_t)n, sizeof *r0), *u = calloc((size_t)n, sizeof *u);
    double *r = malloc((size_t)n * sizeof *r);
    double *work = malloc(mcd_maxdiss_newton_work_size(p) * sizeof *work);
    mcd_solver_ws *ws = NULL;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    mcd_solver_opts so = mcd_solver_default_opts(MCD_SOLVER_MNCP_NSN);
    mcd_solver_stats ss;
    if (newton_runs[_i].nsn_start)
        mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_NSN, p, &so, r0, u, &ss, NULL);
    mcd_maxdiss_opts o = mcd_maxdiss_default_opts();
    o.tol = 1e-9, o.max_iter = newton_runs[_i].per_rung;
    mcd_maxdiss_stats dense, sparse;
    memcpy(r, r0, (size_t)n * sizeof *r);
    large_gels_calls = 0;
    mcd_status sd = mcd_maxdiss_newton(p, &o, r, work, &dense, NULL);
    ck_assert_int_gt(dense.iterations, 0);
    ck_assert_int_eq(large_gels_calls, dense.iterations);
    o.coulomb_ws = ws;
    memcpy(r, r0, (size_t)n * sizeof *r);
    large_gels_calls = 0;
    mcd_status sp = mcd_maxdiss_newton(p, &o, r, work, &sparse, NULL);
    ck_assert_int_gt(sparse.iterations, 0);
    ck_assert_int_eq(large_gels_calls, 0);
    ck_assert_int_eq(sp, sd);
    ck_assert((sparse.residual <= o.tol) == (dense.residual <= o.tol));
    ck_assert_msg(sparse.residual <= 2 * dense.residual && dense.residual <= 2 * sparse.residual,
                  "%s, %d per rung: R %g sparse (%d iterations), %g dense (%d)",
                  newton_runs[_i].group, o.max_iter, sparse.residual, sparse.iterations,
                  dense.residual, dense.iterations);
    mcd_solver_ws_free(ws);
    free(r0), free(u), free(r), free(work);
    mcd_problem_file_free(&pf);
}
END_TEST

/* The step method's solve of pile 88 (tol 1e-9, 1000 sweeps, the
 * workspace lent; test_maxdiss_newton.c): the failure path's Newton
 * iterations take no dgels of the problem's size and the solve reaches
 * R <= tol as with dense steps. */
START_TEST(pile_group_failure_path_is_sparse)
{
    find_lapack_gels();
    mcd_problem_file pf = tu_read_fc3d_data("maxdiss_pile_88_group.dat");
    mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    double *r = calloc((size_t)n, sizeof *r);
    double *work = malloc(mcd_maxdiss_work_size(p) * sizeof *work);
    mcd_solver_ws *ws = NULL;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    mcd_maxdiss_opts o = mcd_maxdiss_default_opts();
    o.tol = 1e-9, o.max_iter = 1000, o.coulomb_ws = ws;
    mcd_maxdiss_stats st;
    mcd_error err;
    large_gels_calls = 0;
    ck_assert_msg(mcd_maxdiss_solve(p, &o, r, work, &st, &err) == MCD_OK, "%s", err.msg);
    ck_assert(st.residual <= o.tol && st.newton_iterations > 0);
    ck_assert_int_eq(large_gels_calls, 0);
    mcd_solver_ws_free(ws);
    free(r), free(work);
    mcd_problem_file_free(&pf);
}
END_TEST

static Suite *maxdiss_step_suite(void)
{
    Suite *s = suite_create("maxdiss_step");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, sparse_step_equals_dgels_step, 0, 4);
    tcase_add_test(tc, setup_refuses_small_or_dense_problems);
    tcase_add_loop_test(tc, pile_group_newton_steps_are_sparse, 0,
                        sizeof newton_runs / sizeof newton_runs[0]);
    tcase_add_test(tc, pile_group_failure_path_is_sparse);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(maxdiss_step_suite());
}

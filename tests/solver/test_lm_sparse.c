/* The sparse PLM step (src/solver/lm_sparse.h) against LAPACK's dgels on
 * the stacked least-squares problem [J; sqrt(lambda) I] d = [-phi; 0] of
 * Mylapilli & Jain Sec. 5.2, on random Jacobians with block-sparse
 * patterns (block diagonal, chain, random graph; 65 to 893 unknowns); the
 * dense, malformed, singular and non-finite cases; and whole solves
 * (mncp-plm, mlcp-pfb-plm) of block-sparse problems with known solutions. */
#include "common/check_main.h"
#include "base/lapack.h"
#include "solver/lm_sparse.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PIVOT_MIN  1e-10 /* the PLM's acceptance threshold */
#define STEP_TOL   1e-10 /* relative: both solve a system with cond(J) <~ 10 */
#define LS_TOL     1e-12 /* relative optimality of a least-squares solution (~ n eps) */
#define SOLVE_TOL  1e-10 /* the solvers' default tolerance */
#define SOLUTION_T 1e-6  /* |r - r*| / |r*|: error 1e-10 bounds it through cond(W) <~ 1e3 */

/* d = argmin |[J; sqrt(lambda) I] d - [-top; sqrt(lambda) bottom]| by dgels. */
static void dgels_step(int n, const double *J, const double *top, const double *bottom,
                       double lambda, double *d)
{
    int m = 2 * n, one = 1, info, lwork = -1;
    double *S = calloc((size_t)m * n, sizeof *S), *rhs = malloc(sizeof(double) * m), opt;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) S[(size_t)j * m + i] = J[(size_t)i * n + j];
        S[(size_t)j * m + n + j] = sqrt(lambda);
    }
    for (int i = 0; i < n; i++) {
        rhs[i] = top ? -top[i] : 0.0;
        rhs[n + i] = bottom ? sqrt(lambda) * bottom[i] : 0.0;
    }
    dgels_("N", &m, &n, &one, S, &m, rhs, &m, &opt, &lwork, &info);
    lwork = (int)opt;
    double *work = malloc(sizeof(double) * lwork);
    dgels_("N", &m, &n, &one, S, &m, rhs, &m, work, &lwork, &info);
    ck_assert_int_eq(info, 0);
    memcpy(d, rhs, sizeof(double) * n);
    free(work);
    free(S);
    free(rhs);
}

static double max_abs(int n, const double *x)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

/* grad = J^T phi */
static void gradient(int n, const double *J, const double *phi, double *grad)
{
    for (int i = 0; i < n; i++) grad[i] = 0.0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++) grad[i] += J[(size_t)k * n + i] * phi[k];
}

static const int sizes[][2] = {{2, 21}, {2, 100}, {2, 297}, {0, 40}}; /* singles, triples */
#define N_SIZES (int)(sizeof sizes / sizeof *sizes)

START_TEST(sparse_steps_are_the_dgels_step)
{
    tu_rng rng = {0x5a55 + (uint64_t)_i};
    const double lambdas[] = {1e-16, 1e-3}; /* PLM's default, and damping that matters */
    mcd_lm_sparse *s = mcd_lm_sparse_create();
    ck_assert_ptr_nonnull(s);
    for (int z = 0; z < N_SIZES; z++) {
        tu_layout l = tu_layout_make(sizes[z][0], sizes[z][1]);
        int n = l.n;
        unsigned char *B = tu_block_pattern(&rng, &l, _i);
        double *J = malloc(sizeof(double) * n * n), *phi = malloc(sizeof(double) * 7 * n);
        double *grad = phi + n, *d = phi + 2 * n, *d_ref = phi + 3 * n, *scratch = phi + 4 * n;
        double *bottom = phi + 6 * n;
        tu_patterned_matrix(&rng, &l, B, 0.5, J);
        ck_assert_int_eq(mcd_lm_sparse_setup(s, n, J, l.singles), 1);
        for (size_t k = 0; k < sizeof lambdas / sizeof *lambdas; k++) {
            for (int i = 0; i < n; i++) phi[i] = tu_uniform(&rng, -1, 1);
            for (int i = 0; i < n; i++) bottom[i] = tu_uniform(&rng, -1, 1);
            gradient(n, J, phi, grad);
            dgels_step(n, J, phi, NULL, lambdas[k], d_ref);
            ck_assert_int_eq(mcd_lm_sparse_step(s, J, grad, lambdas[k], PIVOT_MIN, scratch, d), 1);
            ck_assert_double_le(tu_max_diff(n, d, d_ref), STEP_TOL * max_abs(n, d_ref));
            ck_assert_int_eq(mcd_lm_sparse_least_squares(s, J, phi, NULL, lambdas[k], scratch, d),
                             1);
            ck_assert_double_le(tu_max_diff(n, d, d_ref), STEP_TOL * max_abs(n, d_ref));
            dgels_step(n, J, phi, bottom, lambdas[k], d_ref); /* both parts of the right side */
            ck_assert_int_eq(mcd_lm_sparse_least_squares(s, J, phi, bottom, lambdas[k], scratch, d),
                             1);
            ck_assert_double_le(tu_max_diff(n, d, d_ref), STEP_TOL * max_abs(n, d_ref));
        }
        free(B);
        free(J);
        free(phi);
    }
    mcd_lm_sparse_free(s);
}
END_TEST

START_TEST(dense_and_malformed_patterns_take_the_dense_path)
{
    tu_rng rng = {0xde05e};
    tu_layout l = tu_layout_make(2, 30);
    int n = l.n;
    double *W = malloc(sizeof(double) * n * n), *g = calloc((size_t)5 * n, sizeof(double));
    tu_spd_matrix(&rng, n, 0.5, W); /* every entry nonzero */
    mcd_lm_sparse *s = mcd_lm_sparse_create();
    ck_assert_int_eq(mcd_lm_sparse_setup(s, n, W, l.singles), 0);
    ck_assert_int_eq(mcd_lm_sparse_step(s, W, g, 1e-16, PIVOT_MIN, g + n, g + 3 * n), 0);
    ck_assert_int_eq(mcd_lm_sparse_least_squares(s, W, g, NULL, 1e-16, g + n, g + 3 * n), 0);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (tu_block_of(&l, i) != tu_block_of(&l, j)) W[(size_t)i * n + j] = 0.0;
    ck_assert_int_eq(mcd_lm_sparse_setup(s, n, W, l.singles), 1);     /* block diagonal */
    ck_assert_int_eq(mcd_lm_sparse_setup(s, n, W, l.singles + 1), 0); /* 3 does not divide n - 1 */
    ck_assert_int_eq(mcd_lm_sparse_setup(s, n, NULL, l.singles), 0);
    ck_assert_int_eq(mcd_lm_sparse_setup(s, n, W, -1), 0);
    ck_assert_int_eq(mcd_lm_sparse_setup(NULL, n, W, l.singles), 0);
    ck_assert_int_eq(mcd_lm_sparse_step(NULL, W, g, 1e-16, PIVOT_MIN, g + n, g + 3 * n), 0);
    mcd_lm_sparse_free(s);
    mcd_lm_sparse_free(NULL);
    free(W);
    free(g);
}
END_TEST

/* |A^T (A d - b)| / (|A| (|A| |d| + |b|)) for the stacked A = [J;
 * sqrt(lambda) I] and b = [-phi; sqrt(lambda) bottom], norms bounded by
 * max-entry times sqrt(n) (|A| by max-entry times n): of order n eps for
 * a backward-stable least-squares solution whatever cond(A). */
static double ls_optimality(int n, const double *J, const double *phi, const double *bottom,
                            double lambda, const double *d)
{
    double root = sqrt(lambda), a = root, worst = 0.0;
    double *res = malloc(sizeof(double) * n);
    for (int i = 0; i < n * n; i++) a = fmax(a, fabs(J[i]));
    for (int i = 0; i < n; i++) { /* the top part of A d - b */
        res[i] = phi[i];
        for (int j = 0; j < n; j++) res[i] += J[(size_t)i * n + j] * d[j];
    }
    for (int j = 0; j < n; j++) {
        double g = root * (root * d[j] - root * bottom[j]);
        for (int i = 0; i < n; i++) g += J[(size_t)i * n + j] * res[i];
        worst = fmax(worst, fabs(g));
    }
    free(res);
    double b = sqrt(n) * fmax(max_abs(n, phi), root * max_abs(n, bottom));
    return worst / (n * a * (n * a * max_abs(n, d) + b));
}

/* Singular J (PLM's lambda = 1e-16 cannot regularise the normal equations
 * in floating point: a zero column, then two equal columns) and a
 * non-finite J: the Cholesky step reports trouble, so that the PLM falls
 * back to QR. The stack then has sigma_min = sqrt(lambda) = 1e-8, so two
 * QR solutions differ by up to eps / 1e-8 (dgels and SuiteSparseQR do, by
 * 1e-8 relative); the check is optimality (ls_optimality <= LS_TOL, which
 * dgels' solution meets as well). */
START_TEST(singular_and_nonfinite_jacobians_fall_back)
{
    tu_rng rng = {0x51a6};
    tu_layout l = tu_layout_make(2, 40);
    int n = l.n;
    const double lambda = 1e-16;
    unsigned char *B = tu_block_pattern(&rng, &l, TU_CHAIN);
    double *J = malloc(sizeof(double) * n * n), *v = malloc(sizeof(double) * 7 * n);
    double *phi = v, *grad = v + n, *d = v + 2 * n, *d_ref = v + 3 * n, *scratch = v + 4 * n;
    double *bottom = v + 6 * n;
    tu_patterned_matrix(&rng, &l, B, 0.5, J);
    mcd_lm_sparse *s = mcd_lm_sparse_create();
    ck_assert_int_eq(mcd_lm_sparse_setup(s, n, J, l.singles), 1);
    for (int i = 0; i < n; i++) phi[i] = tu_uniform(&rng, -1, 1);
    for (int i = 0; i < n; i++) bottom[i] = tu_uniform(&rng, -1, 1);
    for (int c = 0; c < 2; c++) {
        for (int i = 0; i < n; i++) /* columns 8 and 9: one block, so one pattern */
            J[(size_t)i * n + 8] = c == 0 ? 0.0 : J[(size_t)i * n + 9];
        gradient(n, J, phi, grad);
        ck_assert_int_eq(mcd_lm_sparse_step(s, J, grad, lambda, PIVOT_MIN, scratch, d), 0);
        ck_assert_int_eq(mcd_lm_sparse_least_squares(s, J, phi, bottom, lambda, scratch, d), 1);
        ck_assert_double_le(ls_optimality(n, J, phi, bottom, lambda, d), LS_TOL);
        dgels_step(n, J, phi, bottom, lambda, d_ref);
        ck_assert_double_le(ls_optimality(n, J, phi, bottom, lambda, d_ref), LS_TOL);
    }
    J[3 * n + 4] = NAN; /* inside the pattern: block (1, 1) */
    ck_assert_int_eq(mcd_lm_sparse_step(s, J, grad, lambda, PIVOT_MIN, scratch, d), 0);
    ck_assert_int_eq(mcd_lm_sparse_least_squares(s, J, phi, NULL, lambda, scratch, d), 0);
    mcd_lm_sparse_free(s);
    free(B);
    free(J);
    free(v);
}
END_TEST

/* A block-sparse fc3d problem with known solution (r*, u*)
 * (tu_block_sparse_fc3d): mncp-plm (through the sparse path: the setup
 * accepts W) must reach the default tolerance by the independent error
 * measure and Coulomb's law, at r*. */
START_TEST(mncp_plm_solves_block_sparse_problems)
{
    tu_rng rng = {0xfc3d + (uint64_t)_i};
    const int nc = 40, nb = 2;
    tu_layout l = tu_layout_make(nb, nc);
    int n = l.n;
    unsigned char *B = tu_block_pattern(&rng, &l, _i);
    mcd_fc3d p;
    double r_star[2 + 3 * 40], u_star[2 + 3 * 40];
    tu_block_sparse_fc3d(&rng, &l, B, &p, r_star, u_star);
    mcd_lm_sparse *s = mcd_lm_sparse_create();
    ck_assert_int_eq(mcd_lm_sparse_setup(s, n, p.W, nb), 1);
    mcd_lm_sparse_free(s);
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    double r[2 + 3 * 40], u[2 + 3 * 40];
    mcd_solver_stats st;
    mcd_error err;
    ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_PLM, &p, NULL, r, u, &st, &err), MCD_OK);
    ck_assert_double_le(st.error, SOLVE_TOL);
    ck_assert_double_le(tu_coulomb_violation(&p, r, 1e-6), 1e-8);
    ck_assert_double_le(tu_max_diff(n, r, r_star), SOLUTION_T * max_abs(n, r_star));
    mcd_solver_ws_free(ws);
    mcd_fc3d_free(&p);
    free(B);
}
END_TEST

/* An LCP with a block-sparse positive definite M and a constructed
 * solution z* (z_i > 0 = w_i or z_i = 0 < w_i, q = w - M z*): unique, so
 * mlcp-pfb-plm must return z*. */
START_TEST(mlcp_pfb_plm_solves_block_sparse_lcps)
{
    tu_rng rng = {0x1c9 + (uint64_t)_i};
    tu_layout l = tu_layout_make(90, 0); /* an MLCP's pattern is by entries */
    int n = l.n;
    mcd_mlcp p;
    ck_assert_int_eq(mcd_mlcp_alloc(&p, n, NULL), MCD_OK);
    unsigned char *B = tu_block_pattern(&rng, &l, _i);
    tu_block_sparse_spd(&rng, &l, B, p.M);
    double z_star[90], w_star[90], z[90];
    for (int i = 0; i < n; i++) {
        int active = i % 2;
        z_star[i] = active ? tu_uniform(&rng, 0.5, 2) : 0.0;
        w_star[i] = active ? 0.0 : tu_uniform(&rng, 0.5, 2);
    }
    for (int i = 0; i < n; i++) {
        p.q[i] = w_star[i];
        for (int j = 0; j < n; j++) p.q[i] -= p.M[(size_t)i * n + j] * z_star[j];
    }
    mcd_lm_sparse *s = mcd_lm_sparse_create();
    ck_assert_int_eq(mcd_lm_sparse_setup(s, n, p.M, n), 1);
    mcd_lm_sparse_free(s);
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    mcd_solver_stats st;
    ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_PFB_PLM, &p, NULL, z, &st, NULL), MCD_OK);
    ck_assert_double_le(st.error, SOLVE_TOL);
    ck_assert_double_le(tu_max_diff(n, z, z_star), SOLUTION_T * max_abs(n, z_star));
    mcd_solver_ws_free(ws);
    mcd_mlcp_free(&p);
    free(B);
}
END_TEST

static Suite *lm_sparse_suite(void)
{
    Suite *s = suite_create("solver-lm-sparse");
    TCase *tc = tcase_create("lm-sparse");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, sparse_steps_are_the_dgels_step, 0, TU_PATTERN_COUNT);
    tcase_add_test(tc, dense_and_malformed_patterns_take_the_dense_path);
    tcase_add_test(tc, singular_and_nonfinite_jacobians_fall_back);
    tcase_add_loop_test(tc, mncp_plm_solves_block_sparse_problems, 0, TU_PATTERN_COUNT);
    tcase_add_loop_test(tc, mlcp_pfb_plm_solves_block_sparse_lcps, 0, TU_PATTERN_COUNT);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(lm_sparse_suite());
}

/* The sparse NSN step (src/solver/sparse_lu.h) against LAPACK's dgesv on
 * random matrices with block-sparse patterns (block diagonal, chain,
 * random graph; 65 to 893 unknowns): a first solve, a second one with new
 * values on the same pattern (klu_refactor's pivot order), and one whose
 * values make that order unstable (a fresh factorization); the dense,
 * malformed, singular and non-finite cases; and whole mncp-nsn solves of
 * block-sparse problems with known solutions. */
#include "common/check_main.h"
#include "base/lapack.h"
#include "solver/sparse_lu.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SOLVE_TOL  1e-11 /* relative: the systems have cond(J) <~ 10 */
#define NSN_TOL    1e-10 /* the solvers' default tolerance */
#define SOLUTION_T 1e-6  /* |r - r*| / |r*|: error 1e-10 bounds it through cond(W) <~ 1e3 */

static double max_abs(int n, const double *x)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

/* x = J^-1 b by LAPACK's dgesv (J row-major: the column-major J^T, so the
 * transpose is solved as J^T's transpose). */
static void dense_solve(int n, const double *J, const double *b, double *x)
{
    double *A = malloc(sizeof(double) * n * n);
    int *ipiv = malloc(sizeof(int) * n), one = 1, info;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) A[(size_t)j * n + i] = J[(size_t)i * n + j];
    memcpy(x, b, sizeof(double) * n);
    dgesv_(&n, &one, A, &n, ipiv, x, &n, &info);
    ck_assert_int_eq(info, 0);
    free(A);
    free(ipiv);
}

/* One sparse solve of J x = b against dgesv's x. */
static void check_solve(mcd_sparse_lu *s, int n, const double *J, tu_rng *rng)
{
    double *b = malloc(sizeof(double) * 3 * n), *x = b + n, *x_ref = b + 2 * n;
    for (int i = 0; i < n; i++) b[i] = tu_uniform(rng, -1, 1);
    dense_solve(n, J, b, x_ref);
    memcpy(x, b, sizeof(double) * n);
    ck_assert_int_eq(mcd_sparse_lu_solve(s, J, x), 1);
    ck_assert_double_le(tu_max_diff(n, x, x_ref), SOLVE_TOL * max_abs(n, x_ref));
    free(b);
}

static const int sizes[][2] = {{2, 21}, {2, 100}, {2, 297}, {0, 40}}; /* singles, triples */
#define N_SIZES (int)(sizeof sizes / sizeof *sizes)

START_TEST(sparse_solves_are_dgesv_solves)
{
    tu_rng rng = {0x1ab5 + (uint64_t)_i};
    mcd_sparse_lu *s = mcd_sparse_lu_create();
    ck_assert_ptr_nonnull(s);
    for (int z = 0; z < N_SIZES; z++) {
        tu_layout l = tu_layout_make(sizes[z][0], sizes[z][1]);
        int n = l.n;
        unsigned char *B = tu_block_pattern(&rng, &l, _i);
        double *J = malloc(sizeof(double) * n * n);
        tu_patterned_matrix(&rng, &l, B, 0.5, J);
        ck_assert_int_eq(mcd_sparse_lu_setup(s, n, J, l.singles), 1);
        check_solve(s, n, J, &rng); /* the first factorization */
        tu_patterned_matrix(&rng, &l, B, 0.5, J);
        check_solve(s, n, J, &rng); /* new values, the same pattern */
        for (int i = 0; i < n; i++) /* the diagonal, the old pivots, now tiny */
            J[(size_t)i * n + i] *= 1e-14;
        for (int i = 0; i + 1 < n; i += 2) { /* a dominant permutation instead */
            int j = i + 1;
            if (tu_block_of(&l, i) != tu_block_of(&l, j)) continue;
            J[(size_t)i * n + j] += 1e3;
            J[(size_t)j * n + i] += 1e3;
        }
        for (int i = 0; i < n; i++) /* rows left without a partner stay dominant */
            if (fabs(J[(size_t)i * n + i]) < 1e-10) J[(size_t)i * n + i] = 1e4;
        check_solve(s, n, J, &rng);
        free(B);
        free(J);
    }
    mcd_sparse_lu_free(s);
}
END_TEST

START_TEST(dense_small_and_malformed_patterns_are_refused)
{
    tu_rng rng = {0xde05f};
    tu_layout l = tu_layout_make(2, 30);
    int n = l.n;
    double *W = malloc(sizeof(double) * n * n), *b = calloc((size_t)n, sizeof(double));
    tu_spd_matrix(&rng, n, 0.5, W); /* every entry nonzero */
    mcd_sparse_lu *s = mcd_sparse_lu_create();
    ck_assert_int_eq(mcd_sparse_lu_setup(s, n, W, l.singles), 0);
    ck_assert_int_eq(mcd_sparse_lu_solve(s, W, b), 0);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (tu_block_of(&l, i) != tu_block_of(&l, j)) W[(size_t)i * n + j] = 0.0;
    ck_assert_int_eq(mcd_sparse_lu_setup(s, n, W, l.singles), 1);     /* block diagonal */
    ck_assert_int_eq(mcd_sparse_lu_setup(s, n, W, l.singles + 1), 0); /* 3 does not divide n - 1 */
    ck_assert_int_eq(mcd_sparse_lu_setup(s, n, NULL, l.singles), 0);
    ck_assert_int_eq(mcd_sparse_lu_setup(s, n, W, -1), 0);
    ck_assert_int_eq(mcd_sparse_lu_setup(NULL, n, W, l.singles), 0);
    ck_assert_int_eq(mcd_sparse_lu_solve(NULL, W, b), 0);
    tu_layout small = tu_layout_make(1, MCD_SPARSE_LU_MIN_N / 3); /* n = MCD_SPARSE_LU_MIN_N */
    ck_assert_int_eq(mcd_sparse_lu_setup(s, small.n, W, small.singles), 0);
    mcd_sparse_lu_free(s);
    mcd_sparse_lu_free(NULL);
    free(W);
    free(b);
}
END_TEST

/* A zero column (singular), then a NaN entry: the solve reports failure,
 * so that NSN takes the dense step, and a later regular J solves again. */
START_TEST(singular_and_nonfinite_matrices_are_refused)
{
    tu_rng rng = {0x51a7};
    tu_layout l = tu_layout_make(2, 40);
    int n = l.n;
    unsigned char *B = tu_block_pattern(&rng, &l, TU_CHAIN);
    double *J = malloc(sizeof(double) * n * n), *keep = malloc(sizeof(double) * n * n);
    double *b = malloc(sizeof(double) * n);
    tu_patterned_matrix(&rng, &l, B, 0.5, J);
    memcpy(keep, J, sizeof(double) * n * n);
    mcd_sparse_lu *s = mcd_sparse_lu_create();
    ck_assert_int_eq(mcd_sparse_lu_setup(s, n, J, l.singles), 1);
    check_solve(s, n, J, &rng);
    for (int i = 0; i < n; i++) J[(size_t)i * n + 8] = 0.0;
    for (int i = 0; i < n; i++) b[i] = tu_uniform(&rng, -1, 1);
    ck_assert_int_eq(mcd_sparse_lu_solve(s, J, b), 0);
    memcpy(J, keep, sizeof(double) * n * n);
    J[(size_t)5 * n + 5] = NAN;
    for (int i = 0; i < n; i++) b[i] = tu_uniform(&rng, -1, 1);
    ck_assert_int_eq(mcd_sparse_lu_solve(s, J, b), 0);
    check_solve(s, n, keep, &rng);
    mcd_sparse_lu_free(s);
    free(B);
    free(J);
    free(keep);
    free(b);
}
END_TEST

START_TEST(mncp_nsn_solves_block_sparse_problems)
{
    tu_rng rng = {0x75e0 + (uint64_t)_i};
    tu_layout l = tu_layout_make(3, 60);
    int n = l.n;
    unsigned char *B = tu_block_pattern(&rng, &l, _i);
    mcd_fc3d p;
    double *r_star = malloc(sizeof(double) * n), *u_star = malloc(sizeof(double) * n);
    double *r = malloc(sizeof(double) * n), *u = malloc(sizeof(double) * n);
    tu_block_sparse_fc3d(&rng, &l, B, &p, r_star, u_star);
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MNCP_NSN);
    o.fallback = MCD_FALLBACK_NONE;
    mcd_solver_stats st;
    ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_NSN, &p, &o, r, u, &st, NULL), MCD_OK);
    ck_assert_double_le(st.error, NSN_TOL);
    ck_assert_double_le(tu_max_diff(n, r, r_star), SOLUTION_T * max_abs(n, r_star));
    mcd_solver_ws_free(ws);
    mcd_fc3d_free(&p);
    free(B);
    free(r_star);
    free(u_star);
    free(r);
    free(u);
}
END_TEST

static Suite *sparse_lu_suite(void)
{
    Suite *s = suite_create("solver-sparse-lu");
    TCase *tc = tcase_create("sparse-lu");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, sparse_solves_are_dgesv_solves, 0, TU_PATTERN_COUNT);
    tcase_add_test(tc, dense_small_and_malformed_patterns_are_refused);
    tcase_add_test(tc, singular_and_nonfinite_matrices_are_refused);
    tcase_add_loop_test(tc, mncp_nsn_solves_block_sparse_problems, 0, TU_PATTERN_COUNT);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(sparse_lu_suite());
}

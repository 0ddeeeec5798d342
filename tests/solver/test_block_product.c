/* The block-sparse product y = W x + b (src/solver/block_product.h)
 * against the dense one (mcd_dense_matvec) on block-diagonal, chain and
 * random block patterns (65 to 893 unknowns), symmetric and not, set up
 * from the pattern, from W and by the sparse NSN step's set-up
 * (sparse_lu.h); and the dense, small and malformed problems it refuses,
 * where the door falls back to the dense product. */
#include "common/check_main.h"
#include "solver/block_product.h"
#include "solver/dense.h"
#include "solver/sparse_lu.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PRODUCT_TOL 1e-14 /* relative to (|W| |x| + |b|)_i: both sums round a few terms */

/* max_i |y_i - y_ref_i| / (|W| |x| + |b|)_i. */
static double relative_gap(int n, const double *W, const double *x, const double *b,
                           const double *y, const double *y_ref)
{
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        double scale = b ? fabs(b[i]) : 0.0;
        for (int j = 0; j < n; j++) scale += fabs(W[(size_t)i * n + j] * x[j]);
        worst = fmax(worst, fabs(y[i] - y_ref[i]) / scale);
    }
    return worst;
}

/* The door's W x + b and W x against mcd_dense_matvec's, m set up for n. */
static void check_products(const mcd_block_product *m, int n, const double *W, tu_rng *rng)
{
    double *x = malloc(sizeof(double) * 4 * n), *b = x + n, *y = x + 2 * n, *y_ref = x + 3 * n;
    for (int i = 0; i < n; i++) x[i] = tu_uniform(rng, -1, 1), b[i] = tu_uniform(rng, -1, 1);
    ck_assert_int_eq(mcd_block_product_ready(m, n), 1);
    mcd_block_matvec(m, n, W, x, b, y);
    mcd_dense_matvec(n, W, x, b, y_ref);
    ck_assert_double_le(relative_gap(n, W, x, b, y, y_ref), PRODUCT_TOL);
    mcd_block_matvec(m, n, W, x, NULL, y);
    mcd_dense_matvec(n, W, x, NULL, y_ref);
    ck_assert_double_le(relative_gap(n, W, x, NULL, y, y_ref), PRODUCT_TOL);
    free(x);
}

static const int sizes[][2] = {{2, 21}, {2, 100}, {2, 297}, {0, 40}}; /* singles, triples */
#define N_SIZES (int)(sizeof sizes / sizeof *sizes)

/* Per pattern kind (_i): W symmetric positive definite on B (the contact
 * compliance's kind) and a nonsymmetric W on B; the state is reused across
 * sizes that shrink and grow. */
START_TEST(block_product_is_the_dense_product)
{
    tu_rng rng = {0xb10c + (uint64_t)_i};
    mcd_block_product *m = mcd_block_product_create();
    mcd_sparse_lu *s = mcd_sparse_lu_create();
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_nonnull(s);
    for (int z = 0; z < N_SIZES; z++) {
        tu_layout l = tu_layout_make(sizes[z][0], sizes[z][1]);
        int n = l.n;
        unsigned char *B = tu_block_pattern(&rng, &l, _i);
        double *W = malloc(sizeof(double) * n * n);
        tu_block_sparse_spd(&rng, &l, B, W);
        ck_assert_int_eq(mcd_block_product_setup_pattern(m, n, l.singles, B), 1);
        check_products(m, n, W, &rng);
        for (int i = 0; i < n; i++) W[(size_t)i * n + i] += 0.5; /* W + rho I: same pattern */
        check_products(m, n, W, &rng);
        tu_patterned_matrix(&rng, &l, B, 0.5, W);
        ck_assert_int_eq(mcd_block_product_setup(m, n, l.singles, W), 1);
        check_products(m, n, W, &rng);
        ck_assert_int_eq(mcd_sparse_lu_setup(s, n, W, l.singles), 1);
        check_products(mcd_sparse_lu_product(s), n, W, &rng);
        free(B);
        free(W);
    }
    mcd_block_product_free(m);
    mcd_sparse_lu_free(s);
}
END_TEST

/* Refused: the door is then exactly mcd_dense_matvec. */
static void check_dense_fallback(const mcd_block_product *m, int n, const double *W)
{
    double *x = malloc(sizeof(double) * 4 * n), *b = x + n, *y = x + 2 * n, *y_ref = x + 3 * n;
    for (int i = 0; i < n; i++) x[i] = 1.0 / (i + 1), b[i] = i % 3 - 1.0;
    ck_assert_int_eq(mcd_block_product_ready(m, n), 0);
    mcd_block_matvec(m, n, W, x, b, y);
    mcd_dense_matvec(n, W, x, b, y_ref);
    ck_assert_mem_eq(y, y_ref, sizeof(double) * n);
    free(x);
}

START_TEST(dense_small_and_malformed_patterns_are_refused)
{
    tu_rng rng = {0xde05e};
    tu_layout l = tu_layout_make(2, 30);
    int n = l.n;
    double *W = malloc(sizeof(double) * n * n);
    tu_spd_matrix(&rng, n, 0.5, W); /* every entry nonzero */
    mcd_block_product *m = mcd_block_product_create();
    mcd_sparse_lu *s = mcd_sparse_lu_create();
    ck_assert_int_eq(mcd_block_product_setup(m, n, l.singles, W), 0);
    check_dense_fallback(m, n, W);
    ck_assert_int_eq(mcd_sparse_lu_setup(s, n, W, l.singles), 0);
    check_dense_fallback(mcd_sparse_lu_product(s), n, W);
    check_dense_fallback(NULL, n, W);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (tu_block_of(&l, i) != tu_block_of(&l, j)) W[(size_t)i * n + j] = 0.0;
    ck_assert_int_eq(mcd_block_product_setup(m, n, l.singles, W), 1); /* block diagonal */
    ck_assert_int_eq(mcd_block_product_ready(m, n), 1);
    ck_assert_int_eq(mcd_block_product_ready(m, n - 3), 0);               /* set up for another n */
    ck_assert_int_eq(mcd_block_product_setup(m, n, l.singles + 1, W), 0); /* 3 does not divide */
    check_dense_fallback(m, n, W); /* a refused set-up drops the last one */
    ck_assert_int_eq(mcd_block_product_setup(m, n, l.singles, NULL), 0);
    ck_assert_int_eq(mcd_block_product_setup(m, n, -1, W), 0);
    ck_assert_int_eq(mcd_block_product_setup_pattern(m, n, l.singles, NULL), 0);
    ck_assert_int_eq(mcd_block_product_setup(NULL, n, l.singles, W), 0);
    tu_layout small = tu_layout_make(1, MCD_BLOCK_PRODUCT_MIN_N / 3); /* n = MIN_N */
    ck_assert_int_eq(mcd_block_product_setup(m, small.n, small.singles, W), 0);
    check_dense_fallback(m, small.n, W);
    ck_assert_int_eq(mcd_block_product_setup(m, n, l.singles, W), 1);
    mcd_block_product_clear(m);
    check_dense_fallback(m, n, W);
    mcd_block_product_free(m);
    mcd_block_product_free(NULL);
    mcd_sparse_lu_free(s);
    free(W);
}
END_TEST

static Suite *block_product_suite(void)
{
    Suite *s = suite_create("solver-block-product");
    TCase *tc = tcase_create("block-product");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, block_product_is_the_dense_product, 0, TU_PATTERN_COUNT);
    tcase_add_test(tc, dense_small_and_malformed_patterns_are_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(block_product_suite());
}

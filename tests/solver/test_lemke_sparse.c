/* Lemke's bases factored by KLU (src/solver/lemke_basis_lu.h) instead of
 * the dense LU, on block-sparse LCPs:
 *  - captured group LCPs of models/sphere_pile.yaml (lemke_pile_regular_
 *    {26,64}.dat, n = 312 and 412, see test_lemke_pile.c) and of
 *    models/box_block.yaml (box_block_group_{0,1,2}.dat, n = 72, see
 *    test_lemke_box_block.c): mcd_lemke takes the sparse path on the
 *    piles' (it counts KLU factorizations), the dense one on the box
 *    block's (dense A: every contact pair shares a body), and the point
 *    has the error bar of the dense path's: a residual within mlcp-lemke's
 *    tolerance;
 *  - random block-sparse A (3 x 3 blocks of contacts that share a body)
 *    and random bases of its columns, of identity columns and of a
 *    covering vector's, factored and then changed by pivots until the eta
 *    file is full (the product form): B^{-1} x and B^{-T} x from KLU and the etas equal
 *    LAPACK's (dgetrs of the dense basis) to 1e-10 relative; the eta file
 *    refuses updates when full (at most m etas) without changing B^{-1};
 *  - singular bases: a basic zeta_j whose column of A is zero (structural
 *    rank below m) and two basic zeta_j with equal columns (an exactly zero
 *    pivot) are reported singular, as dgetrf reports them. */
#include "common/check_main.h"
#include "base/lapack.h"
#include "solver/lemke.h"
#include "solver/lemke_basis_lu.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcdyn/mcdyn.h"
#include "mcdyn/problem_io.h"

/* mcd_lemke's workspace for m unknowns (as test_lemke_warm.c's). */
typedef struct lemke_run {
    double *mem;
    int *imem;
    int sparse_factors;
    mcd_lemke_ws w;
} lemke_run;

static void lemke_run_alloc(lemke_run *r, int m, int dense_lu)
{
    r->mem = calloc((size_t)m * (2 * (size_t)m + 7), sizeof *r->mem);
    r->imem = calloc(5 * (size_t)m, sizeof *r->imem);
    ck_assert(r->mem && r->imem);
    double *d = r->mem;
    int *i = r->imem;
    size_t mm = (size_t)m * m;
    r->sparse_factors = 0;
    r->w = (mcd_lemke_ws){.Binv = d,
                          .B = d + mm,
                          .xB = d + 2 * mm,
                          .col = d + 2 * mm + 2 * m,
                          .tmp = d + 2 * mm + 3 * m,
                          .noise_x = d + 2 * mm + 4 * m,
                          .cover = d + 2 * mm + 6 * m,
                          .basis = i,
                          .ties = i + m,
                          .ipiv = i + 2 * m,
                          .noise_col = i + 3 * m,
                          .noise_before = i + 4 * m,
                          .sparse_factors = &r->sparse_factors,
                          .dense_lu = dense_lu};
}

static void lemke_run_free(lemke_run *r)
{
    free(r->mem);
    free(r->imem);
}

/* Lemke on a captured group with the sparse LU if A is sparse, then with
 * the dense LU: both solve it within mlcp-lemke's tolerance; the first
 * factors by KLU iff sparse. */
static void group_solved(const char *file, int n, int sparse)
{
    mcd_problem_file f = tu_read_lcp_data(file, n);
    const mcd_mlcp *p = &f.mlcp;
    const double tol = mcd_solver_default_opts(MCD_SOLVER_MLCP_LEMKE).tol;
    double *zeta = malloc((size_t)n * sizeof *zeta);
    ck_assert_ptr_nonnull(zeta);
    for (int dense = 0; dense <= 1; dense++) {
        lemke_run r;
        lemke_run_alloc(&r, n, dense);
        int pivots;
        mcd_status s = mcd_lemke(n, p->M, p->q, NULL, 50 * n, &r.w, zeta, &pivots);
        ck_assert_msg(s == MCD_OK, "%s (dense %d): %s after %d pivots", file, dense,
                      mcd_status_str(s), pivots);
        double res = tu_lcp_residual(p, zeta);
        ck_assert_msg(res <= tol, "%s (dense %d): residual %g > %g", file, dense, res, tol);
        ck_assert_msg((r.sparse_factors > 0) == (sparse && !dense),
                      "%s (dense %d): %d sparse factorizations", file, dense, r.sparse_factors);
        lemke_run_free(&r);
    }
    free(zeta);
    mcd_problem_file_free(&f);
}

START_TEST(pile_groups_take_the_sparse_path)
{
    group_solved("lemke_pile_regular_26.dat", 312, 1);
    group_solved("lemke_pile_regular_64.dat", 412, 1);
}
END_TEST

/* Twelve contacts of the block on the box: every pair shares a body, A is
 * dense. */
START_TEST(box_block_groups_keep_the_dense_lu)
{
    group_solved("box_block_group_0.dat", 72, 0);
    group_solved("box_block_group_1.dat", 72, 0);
    group_solved("box_block_group_2.dat", 72, 0);
}
END_TEST

#define CONTACTS 40
#define M        (3 * CONTACTS)

/* A random row-major M x M block-sparse A: contact k touches bodies k and
 * k + 1 (a chain) or one other random body; blocks of contacts sharing a
 * body are random, the diagonal blocks dominant (A_PP nonsingular for
 * every P). */
static void block_sparse_lcp(tu_rng *rng, double *A)
{
    int body[CONTACTS][2];
    for (int k = 0; k < CONTACTS; k++) {
        body[k][0] = k;
        body[k][1] = tu_uniform(rng, 0, 1) < 0.5 ? k + 1 : (int)tu_uniform(rng, 0, CONTACTS);
    }
    memset(A, 0, sizeof(double) * M * M);
    for (int k = 0; k < CONTACTS; k++)
        for (int l = 0; l < CONTACTS; l++) {
            int shares = 0;
            for (int a = 0; a < 2; a++)
                for (int c = 0; c < 2; c++) shares |= body[k][a] == body[l][c];
            if (!shares) continue;
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    A[(size_t)(3 * k + i) * M + 3 * l + j] =
                        tu_uniform(rng, -1, 1) + (k == l && i == j ? 40.0 : 0.0);
        }
}

/* The basis matrix, column-major, of the variables basis[] (lemke.c's
 * numbering), z0's column -cover. */
static void dense_basis(const double *A, const int *basis, const double *cover, double *B)
{
    for (int c = 0; c < M; c++)
        for (int l = 0; l < M; l++) {
            int v = basis[c];
            B[(size_t)c * M + l] = v < M       ? (l == v)
                                   : v < 2 * M ? -A[(size_t)l * M + v - M]
                                               : -cover[l];
        }
}

/* The largest |x_i - y_i| relative to max |y_i| over m values. */
static double relative_difference(const double *x, const double *y)
{
    double diff = 0.0, size = 0.0;
    for (int i = 0; i < M; i++) diff = fmax(diff, fabs(x[i] - y[i])), size = fmax(size, fabs(y[i]));
    return diff / size;
}

/* B^{-1} x and B^{-T} x from the factorization and its etas equal
 * LAPACK's solves (dgesv of the dense basis) to 1e-10 relative. */
static void solves_match_lapack(mcd_lemke_basis_lu *s, tu_rng *rng, const double *A,
                                const int *basis, const double *cover, int trial)
{
    static double B[M * M], x[M], y[M], xt[M], yt[M];
    int ipiv[M], n = M, one = 1, info;
    for (int l = 0; l < M; l++) x[l] = y[l] = tu_uniform(rng, -1, 1);
    for (int l = 0; l < M; l++) xt[l] = yt[l] = tu_uniform(rng, -1, 1);
    mcd_lemke_basis_lu_solve(s, x);
    mcd_lemke_basis_lu_solve_transposed(s, xt);
    dense_basis(A, basis, cover, B);
    dgetrf_(&n, &n, B, &n, ipiv, &info);
    ck_assert_int_eq(info, 0);
    dgetrs_("N", &n, &one, B, &n, ipiv, y, &n, &info);
    dgetrs_("T", &n, &one, B, &n, ipiv, yt, &n, &info);
    const int etas = mcd_lemke_basis_lu_updates(s);
    ck_assert_msg(relative_difference(x, y) <= 1e-10, "trial %d, %d etas: B^-1 x off by %g", trial,
                  etas, relative_difference(x, y));
    ck_assert_msg(relative_difference(xt, yt) <= 1e-10, "trial %d, %d etas: B^-T x off by %g",
                  trial, etas, relative_difference(xt, yt));
}

/* A pivot as Lemke's: a random nonbasic variable v enters (w_j or zeta_j,
 * its column's B^{-1} times it solved), the row of its largest |a_i|
 * leaves. Returns what mcd_lemke_basis_lu_update returned. */
static int random_pivot(mcd_lemke_basis_lu *s, tu_rng *rng, const double *A, int *basis)
{
    static double a[M];
    int v;
    do {
        v = (int)tu_uniform(rng, 0, 2 * M);
        for (int i = 0; i < M && v >= 0; i++)
            if (basis[i] == v) v = -1;
    } while (v < 0);
    for (int l = 0; l < M; l++) a[l] = v < M ? (l == v) : -A[(size_t)l * M + v - M];
    mcd_lemke_basis_lu_solve(s, a);
    int r = 0;
    for (int i = 1; i < M; i++)
        if (fabs(a[i]) > fabs(a[r])) r = i;
    const int updated = mcd_lemke_basis_lu_update(s, r, a);
    if (updated) basis[r] = v;
    return updated;
}

START_TEST(product_form_solves_are_lapack_solves)
{
    tu_rng rng = {0x5eed1e3e5ULL};
    static double A[M * M], cover[M];
    int basis[M];
    for (int trial = 0; trial < 20; trial++) {
        block_sparse_lcp(&rng, A);
        mcd_lemke_basis_lu *s = mcd_lemke_basis_lu_create(M, A);
        ck_assert_ptr_nonnull(s);
        for (int l = 0; l < M; l++) cover[l] = tu_uniform(&rng, 0.5, 1.5);
        for (int i = 0; i < M; i++) basis[i] = tu_uniform(&rng, 0, 1) < 0.6 ? M + i : i;
        if (trial % 2) basis[(int)tu_uniform(&rng, 0, M)] = 2 * M; /* z0 in some row */
        ck_assert_int_eq(mcd_lemke_basis_lu_factor(s, basis, cover), MCD_LEMKE_BASIS_LU_OK);
        ck_assert_int_eq(mcd_lemke_basis_lu_updates(s), 0);
        solves_match_lapack(s, &rng, A, basis, cover, trial);
        int k = 0; /* pivots since the factorization, until the eta file is full */
        while (random_pivot(s, &rng, A, basis)) {
            ck_assert_int_eq(mcd_lemke_basis_lu_updates(s), ++k);
            solves_match_lapack(s, &rng, A, basis, cover, trial);
        }
        ck_assert_int_ge(k, 4);
        mcd_lemke_basis_lu_free(s);
    }
}
END_TEST

/* Pivots until the eta file is full: at most m etas; a refused update
 * changes nothing (the solves are still those of the basis before it),
 * and a factorization empties the file. */
START_TEST(full_eta_file_refuses_updates)
{
    tu_rng rng = {0xf011e7aULL};
    static double A[M * M], cover[M];
    int basis[M];
    block_sparse_lcp(&rng, A);
    mcd_lemke_basis_lu *s = mcd_lemke_basis_lu_create(M, A);
    ck_assert_ptr_nonnull(s);
    for (int l = 0; l < M; l++) cover[l] = 1.0;
    for (int i = 0; i < M; i++) basis[i] = i;
    ck_assert_int_eq(mcd_lemke_basis_lu_factor(s, basis, cover), MCD_LEMKE_BASIS_LU_OK);
    int k = 0;
    while (random_pivot(s, &rng, A, basis)) ck_assert_int_le(++k, M);
    ck_assert_int_eq(mcd_lemke_basis_lu_updates(s), k);
    ck_assert_int_ge(k, 4);
    solves_match_lapack(s, &rng, A, basis, cover, -1);
    ck_assert_int_eq(mcd_lemke_basis_lu_factor(s, basis, cover), MCD_LEMKE_BASIS_LU_OK);
    ck_assert_int_eq(mcd_lemke_basis_lu_updates(s), 0);
    solves_match_lapack(s, &rng, A, basis, cover, -2);
    mcd_lemke_basis_lu_free(s);
}
END_TEST

/* Whether dgetrf finds the basis singular (info > 0). */
static int dense_singular(const double *A, const int *basis, const double *cover)
{
    static double B[M * M];
    int ipiv[M], n = M, info;
    dense_basis(A, basis, cover, B);
    dgetrf_(&n, &n, B, &n, ipiv, &info);
    return info > 0;
}

START_TEST(singular_bases_are_detected)
{
    tu_rng rng = {0xb0a5e5ULL};
    static double A[M * M], cover[M];
    int basis[M];
    block_sparse_lcp(&rng, A);
    for (int l = 0; l < M; l++) cover[l] = 1.0;
    for (int i = 0; i < M; i++) basis[i] = i % 2 ? M + i : i;
    for (int l = 0; l < M; l++) A[(size_t)l * M + 7] = 0.0; /* column 7 zero: zeta_7 basic */
    mcd_lemke_basis_lu *s = mcd_lemke_basis_lu_create(M, A);
    ck_assert_ptr_nonnull(s);
    ck_assert(dense_singular(A, basis, cover));
    ck_assert_int_eq(mcd_lemke_basis_lu_factor(s, basis, cover), MCD_LEMKE_BASIS_LU_SINGULAR);
    ck_assert(!mcd_lemke_basis_lu_factored(s));
    mcd_lemke_basis_lu_free(s);

    block_sparse_lcp(&rng, A);
    for (int l = 0; l < M; l++) /* columns 30 and 31 equal, nonzero in rows 30, 31 only */
        A[(size_t)l * M + 30] = A[(size_t)l * M + 31] = l == 30 || l == 31 ? 2.0 : 0.0;
    basis[30] = M + 30, basis[31] = M + 31;
    s = mcd_lemke_basis_lu_create(M, A);
    ck_assert_ptr_nonnull(s);
    ck_assert(dense_singular(A, basis, cover));
    ck_assert_int_eq(mcd_lemke_basis_lu_factor(s, basis, cover), MCD_LEMKE_BASIS_LU_SINGULAR);
    basis[31] = 31; /* w_31 instead: nonsingular again */
    ck_assert_int_eq(mcd_lemke_basis_lu_factor(s, basis, cover), MCD_LEMKE_BASIS_LU_OK);
    ck_assert(mcd_lemke_basis_lu_factored(s));
    mcd_lemke_basis_lu_free(s);
}
END_TEST

START_TEST(small_or_dense_problems_keep_the_dense_lu)
{
    tu_rng rng = {0xde05eULL};
    static double A[M * M];
    for (int k = 0; k < M * M; k++) A[k] = tu_uniform(&rng, -1, 1);
    ck_assert_ptr_null(mcd_lemke_basis_lu_create(M, A));                        /* dense */
    ck_assert_ptr_null(mcd_lemke_basis_lu_create(MCD_LEMKE_BASIS_LU_MIN_M, A)); /* small */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver-lemke-sparse");
    TCase *tc = tcase_create("lemke-sparse");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, product_form_solves_are_lapack_solves);
    tcase_add_test(tc, full_eta_file_refuses_updates);
    tcase_add_test(tc, singular_bases_are_detected);
    tcase_add_test(tc, small_or_dense_problems_keep_the_dense_lu);
    tcase_add_test(tc, box_block_groups_keep_the_dense_lu);
    tcase_add_test(tc, pile_groups_take_the_sparse_path);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

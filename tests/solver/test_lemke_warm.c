/* Lemke's method started from a guessed complementary basis (src/solver/
 * lemke.h, zeta_start; lemke.c: choose_guess, warm_path):
 *  - the solution as the guess, on a nondegenerate LCP (m = 60): 0 pivots
 *    and the same point;
 *  - the solution, and random guesses, on two group LCPs of
 *    models/sphere_pile.yaml (tests/solver/data/lemke_pile_regular_{26,64}
 *    .dat, see test_lemke_pile.c; cold: 9,302 and 5,191 pivots): still
 *    solved, to the residual the warm start accepts (1e-10 max |b_i|) or
 *    the cold path's own. From its own solution group 26 falls back to the
 *    cold path, group 64 is solved by a warm path of 263 pivots: a
 *    degenerate solution's positive set is not a basis (choose_guess);
 *  - a guess whose warm path ends on a ray: one contact's friction LCP
 *    (rows F_n, beta_1, beta_2 on +-t, sigma; docs/contact.md, "MLCP"),
 *    separated (b_n = 1) and moving tangentially (b_t = 1), guessed as
 *    sliding (F_n, beta_2, sigma basic: det of the basis matrix -1, not
 *    singular). From that basis the covering vector d = B e = (-1, 2, -3,
 *    0) is not positive, and the path ends on a ray after one pivot: the
 *    cold path then solves it, the pivots of both counted;
 *  - the same LCP with a first guess (basis_start) whose warm path solves
 *    it after the guess's path ends on a ray: no fall-back;
 *  - the same pile groups through the solver API with the basis in and out
 *    (mcd_solve_mlcp_lemke_basis): started from its own solution's basis
 *    (degenerate basic variables included), each is solved with 0 pivots
 *    to the same point, where its solution's positive entries
 *    (mcd_solve_mlcp, warm) cost pivots; a NULL basis is MCD_ERR_ARG. */
#include "common/check_main.h"
#include "solver_testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcdyn/mcdyn.h"
#include "mcdyn/problem_io.h"
#include "solver/lemke.h"

/* mcd_lemke's workspace for m unknowns, counting how warm starts end. */
typedef struct warm_run {
    double *mem;
    int *imem;
    mcd_lemke_warm_ends ends;
    mcd_lemke_ws w;
} warm_run;

static void warm_run_alloc(warm_run *r, int m)
{
    r->mem = calloc((size_t)m * (2 * (size_t)m + 7), sizeof *r->mem);
    r->imem = calloc(5 * (size_t)m, sizeof *r->imem);
    ck_assert(r->mem && r->imem);
    double *d = r->mem;
    int *i = r->imem;
    r->ends = (mcd_lemke_warm_ends){0};
    r->w = (mcd_lemke_ws){.Binv = d,
                          .B = d + (size_t)m * m,
                          .xB = d + 2 * (size_t)m * m,
                          .col = d + 2 * (size_t)m * m + 2 * m,
                          .tmp = d + 2 * (size_t)m * m + 3 * m,
                          .noise_x = d + 2 * (size_t)m * m + 4 * m,
                          .cover = d + 2 * (size_t)m * m + 6 * m,
                          .basis = i,
                          .ties = i + m,
                          .ipiv = i + 2 * m,
                          .noise_col = i + 3 * m,
                          .noise_before = i + 4 * m,
                          .warm_ends = &r->ends};
}

static void warm_run_free(warm_run *r)
{
    free(r->mem), free(r->imem);
}

/* max_i |min(zeta_i, (A zeta + b)_i)|, A row-major. */
static double lcp_residual(int m, const double *A, const double *b, const double *zeta)
{
    double r = 0.0;
    for (int i = 0; i < m; i++) {
        double w = b[i];
        for (int j = 0; j < m; j++) w += A[(size_t)i * m + j] * zeta[j];
        r = fmax(r, fabs(fmin(zeta[i], w)));
    }
    return r;
}

static double max_abs(int m, const double *x)
{
    double r = 0.0;
    for (int i = 0; i < m; i++) r = fmax(r, fabs(x[i]));
    return r;
}

/* A pile group's LCP, its cold solution (pivots in *cold_pivots). */
typedef struct pile_group {
    mcd_problem_file f;
    double *zeta_cold;
    int cold_pivots;
} pile_group;

static pile_group pile_group_solved_cold(const char *file, int n, warm_run *r)
{
    pile_group g = {.f = tu_read_lcp_data(file, n)};
    g.zeta_cold = malloc((size_t)n * sizeof *g.zeta_cold);
    ck_assert_ptr_nonnull(g.zeta_cold);
    const mcd_mlcp *p = &g.f.mlcp;
    ck_assert_int_eq(mcd_lemke(n, p->M, p->q, NULL, 50 * n, &r->w, g.zeta_cold, &g.cold_pivots),
                     MCD_OK);
    ck_assert_int_gt(g.cold_pivots, 100);
    return g;
}

static void pile_group_free(pile_group *g)
{
    free(g->zeta_cold);
    mcd_problem_file_free(&g->f);
}

/* A nondegenerate LCP: A = L L^T + I (L m x m, entries in [-1, 1]) and b in
 * [-1, 1], from srand(seed): every solution value is nonzero, so the
 * solution's positive set is its basis. */
static void random_pd_lcp(int m, unsigned seed, double *A, double *b)
{
    double *L = malloc((size_t)m * m * sizeof *L);
    ck_assert_ptr_nonnull(L);
    srand(seed);
    for (int i = 0; i < m * m; i++) L[i] = 2.0 * rand() / RAND_MAX - 1.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < m; j++) {
            double s = i == j;
            for (int k = 0; k < m; k++) s += L[i * m + k] * L[j * m + k];
            A[i * m + j] = s;
        }
        b[i] = 2.0 * rand() / RAND_MAX - 1.0;
    }
    free(L);
}

START_TEST(solution_as_guess_takes_no_pivot)
{
    enum { m = 60 };
    double *A = malloc(m * m * sizeof *A), b[m], zeta_cold[m], zeta[m];
    ck_assert_ptr_nonnull(A);
    random_pd_lcp(m, 5, A, b);
    warm_run r;
    warm_run_alloc(&r, m);
    int cold_pivots, pivots = -1;
    ck_assert_int_eq(mcd_lemke(m, A, b, NULL, 50 * m, &r.w, zeta_cold, &cold_pivots), MCD_OK);
    ck_assert_int_gt(cold_pivots, 10);
    ck_assert_int_eq(mcd_lemke(m, A, b, zeta_cold, 50 * m, &r.w, zeta, &pivots), MCD_OK);
    ck_assert_msg(pivots == 0, "%d pivots from the solution's basis (cold: %d)", pivots,
                  cold_pivots);
    ck_assert_int_eq(r.ends.at_start, 1);
    double dz = 0.0;
    for (int i = 0; i < m; i++) dz = fmax(dz, fabs(zeta[i] - zeta_cold[i]));
    ck_assert_msg(dz <= 1e-12 * max_abs(m, zeta_cold), "|zeta - zeta_cold| = %g", dz);
    warm_run_free(&r);
    free(A);
}
END_TEST

/* A pile group from its own cold solution: its positive set is not a
 * basis (statically indeterminate: zero-valued zeta_j were basic, and
 * A_PP is singular), so the well-conditioned part is kept (choose_guess)
 * and the path from it, or the cold path, solves it. */
static void solution_as_guess(const char *file, int n)
{
    warm_run r;
    warm_run_alloc(&r, n);
    pile_group g = pile_group_solved_cold(file, n, &r);
    const mcd_mlcp *p = &g.f.mlcp;
    double *zeta = malloc((size_t)n * sizeof *zeta);
    ck_assert_ptr_nonnull(zeta);
    int pivots = -1;
    ck_assert_int_eq(mcd_lemke(n, p->M, p->q, g.zeta_cold, 50 * n, &r.w, zeta, &pivots), MCD_OK);
    const double res = lcp_residual(n, p->M, p->q, zeta);
    const double cold_res = lcp_residual(n, p->M, p->q, g.zeta_cold);
    ck_assert_msg(res <= fmax(1e-10 * max_abs(n, p->q), cold_res), "%s: residual %g (cold %g)",
                  file, res, cold_res);
    ck_assert_int_eq(r.ends.at_start + r.ends.by_path + r.ends.fell_back, 1);
    free(zeta);
    pile_group_free(&g);
    warm_run_free(&r);
}

START_TEST(pile_group_26_from_its_solution_is_solved)
{
    solution_as_guess("lemke_pile_regular_26.dat", 312);
}
END_TEST

START_TEST(pile_group_64_from_its_solution_is_solved)
{
    solution_as_guess("lemke_pile_regular_64.dat", 412);
}
END_TEST

static void random_guess(const char *file, int n)
{
    warm_run r;
    warm_run_alloc(&r, n);
    pile_group g = pile_group_solved_cold(file, n, &r);
    const mcd_mlcp *p = &g.f.mlcp;
    const double cold_residual = lcp_residual(n, p->M, p->q, g.zeta_cold);
    double *zeta = malloc((size_t)n * sizeof *zeta), *guess = malloc((size_t)n * sizeof *guess);
    ck_assert(zeta && guess);
    srand(11);
    for (int trial = 0; trial < 3; trial++) {
        for (int i = 0; i < n; i++) guess[i] = 2.0 * rand() / RAND_MAX - 1.0;
        int pivots;
        ck_assert_int_eq(mcd_lemke(n, p->M, p->q, guess, 50 * n, &r.w, zeta, &pivots), MCD_OK);
        const double res = lcp_residual(n, p->M, p->q, zeta);
        ck_assert_msg(res <= fmax(1e-10 * max_abs(n, p->q), cold_residual),
                      "%s, trial %d: residual %g (cold %g)", file, trial, res, cold_residual);
    }
    ck_assert_int_eq(r.ends.at_start + r.ends.by_path + r.ends.fell_back, 3);
    free(zeta), free(guess);
    pile_group_free(&g);
    warm_run_free(&r);
}

START_TEST(pile_group_26_from_a_random_guess_is_solved)
{
    random_guess("lemke_pile_regular_26.dat", 312);
}
END_TEST

START_TEST(pile_group_64_from_a_random_guess_is_solved)
{
    random_guess("lemke_pile_regular_64.dat", 412);
}
END_TEST

/* One contact's friction LCP (rows F_n, beta_+t, beta_-t, sigma; W =
 * diag(1, 2) on (n, t), mu = 1), separated and sliding, guessed as
 * sliding: that guess's warm path ends on a ray after one pivot. Solved
 * cold (*cold_pivots), then from the guess with first as r->w's
 * basis_start (NULL: none), into zeta; returns the pivots of the latter. */
static int ray_guess_run(const double *first, warm_run *r, int *cold_pivots, double zeta[4])
{
    enum { m = 4 };
    static const double A[m * m] = {1, 0, 0, 0, 0, 2, -2, 1, 0, -2, 2, 1, 1, -1, -1, 0};
    static const double b[m] = {1, 1, -1, 0}, guess[m] = {1, 0, 1, 1};
    int pivots;
    ck_assert_int_eq(mcd_lemke(m, A, b, NULL, 100, &r->w, zeta, cold_pivots), MCD_OK);
    r->w.basis_start = first;
    ck_assert_int_eq(mcd_lemke(m, A, b, guess, 100, &r->w, zeta, &pivots), MCD_OK);
    ck_assert_double_le(lcp_residual(m, A, b, zeta), 1e-15);
    return pivots;
}

START_TEST(warm_ray_falls_back_to_the_cold_path)
{
    warm_run r;
    warm_run_alloc(&r, 4);
    double zeta[4];
    int cold_pivots;
    const int pivots = ray_guess_run(NULL, &r, &cold_pivots, zeta);
    ck_assert_int_eq(r.ends.fell_back, 1);
    ck_assert_int_eq(r.ends.at_start + r.ends.by_path, 0);
    ck_assert_int_eq(pivots, cold_pivots + 1); /* the warm path's one pivot, then the cold path */
    warm_run_free(&r);
}
END_TEST

/* The pile group through the solver API: solved cold with its basis out,
 * then from that basis (0 pivots, the same point) and from the solution's
 * positive entries (pivots). */
static void basis_as_guess(const char *file, int n)
{
    mcd_problem_file f = tu_read_lcp_data(file, n);
    const mcd_mlcp *p = &f.mlcp;
    mcd_solver_ws *ws = NULL;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    double *z = calloc((size_t)n, sizeof *z), *z_cold = calloc((size_t)n, sizeof *z);
    unsigned char *basis = calloc((size_t)n, 1);
    ck_assert(z && z_cold && basis);
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MLCP_LEMKE);
    mcd_solver_stats cold, warm, positive;
    o.warm_start = 0;
    ck_assert_int_eq(mcd_solve_mlcp_lemke_basis(ws, p, &o, z_cold, basis, &cold, NULL), MCD_OK);
    int nbasic = 0, npositive = 0;
    for (int i = 0; i < n; i++) nbasic += basis[i], npositive += z_cold[i] > 0;
    ck_assert_int_gt(nbasic, npositive); /* degenerate: basic variables at zero */
    o.warm_start = 1;
    memcpy(z, z_cold, (size_t)n * sizeof *z);
    ck_assert_int_eq(mcd_solve_mlcp_lemke_basis(ws, p, &o, z, basis, &warm, NULL), MCD_OK);
    ck_assert_int_eq(warm.iterations, 0);
    ck_assert_double_le(warm.error, o.tol);
    for (int i = 0; i < n; i++)
        ck_assert_double_le(fabs(z[i] - z_cold[i]), 1e-9 * (1.0 + fabs(z_cold[i])));
    memcpy(z, z_cold, (size_t)n * sizeof *z);
    ck_assert_int_eq(mcd_solve_mlcp(ws, MCD_SOLVER_MLCP_LEMKE, p, &o, z, &positive, NULL), MCD_OK);
    ck_assert_int_gt(positive.iterations, 0);
    printf("%s: cold %d pivots; from its basis (%d basic, %d positive) %d, from its positive "
           "entries %d\n",
           file, cold.iterations, nbasic, npositive, warm.iterations, positive.iterations);
    mcd_error err = {0};
    ck_assert_int_eq(mcd_solve_mlcp_lemke_basis(ws, p, &o, z, NULL, NULL, &err), MCD_ERR_ARG);
    ck_assert_ptr_nonnull(strstr(err.msg, "basis"));
    free(z), free(z_cold), free(basis);
    mcd_solver_ws_free(ws);
    mcd_problem_file_free(&f);
}

START_TEST(pile_group_26_from_its_basis_takes_no_pivot)
{
    basis_as_guess("lemke_pile_regular_26.dat", 312);
}
END_TEST

START_TEST(pile_group_64_from_its_basis_takes_no_pivot)
{
    basis_as_guess("lemke_pile_regular_64.dat", 412);
}
END_TEST

/* The same LCP with a first guess (basis_start) that does not solve it as
 * it stands but whose warm path does: the basis {w}, from which the warm
 * path is the cold path itself (d = B e = e). After the guess's path ends
 * on a ray (its one pivot), the first guess's path solves it: counted as
 * by_path, not as a fall-back to the cold path. */
START_TEST(first_guess_paths_after_the_guess_ends_on_a_ray)
{
    static const double first[4] = {0, 0, 0, 0};
    warm_run r;
    warm_run_alloc(&r, 4);
    double zeta[4];
    int cold_pivots;
    const int pivots = ray_guess_run(first, &r, &cold_pivots, zeta);
    ck_assert_int_eq(r.ends.by_path, 1);
    ck_assert_int_eq(r.ends.at_start + r.ends.fell_back, 0);
    ck_assert_int_eq(pivots, cold_pivots + 1);
    warm_run_free(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solver-lemke-warm");
    TCase *tc = tcase_create("lemke-warm");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, solution_as_guess_takes_no_pivot);
    tcase_add_test(tc, pile_group_26_from_its_solution_is_solved);
    tcase_add_test(tc, pile_group_64_from_its_solution_is_solved);
    tcase_add_test(tc, pile_group_26_from_a_random_guess_is_solved);
    tcase_add_test(tc, pile_group_64_from_a_random_guess_is_solved);
    tcase_add_test(tc, warm_ray_falls_back_to_the_cold_path);
    tcase_add_test(tc, first_guess_paths_after_the_guess_ends_on_a_ray);
    tcase_add_test(tc, pile_group_26_from_its_basis_takes_no_pivot);
    tcase_add_test(tc, pile_group_64_from_its_basis_takes_no_pivot);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

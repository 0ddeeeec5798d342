/* The sparse Cholesky factorization (src/solver/sparse_cholesky.h) against
 * LAPACK's dpotrf/dpotrs: captured pile groups (tests/solver/data) and
 * random block-sparse SPD matrices (block diagonal, chain, random graph; 65
 * to 896 unknowns), a refactorization on the same set-up, the pattern's
 * entries, the refused set-ups, a matrix that is not positive definite
 * (and the recovery from it), no allocation in a factorization and solve;
 * and its callers: ccp-ipm's and ccp-admm's sparse doors (ccp_ipm.h,
 * ccp_admm.h) against their dense public doors on pile groups, and
 * mncp-fixpoint through a solver workspace, with LAPACK's dpotrf_
 * interposed to prove that no dense factorization of the group's size ran. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "mcdyn/ccp.h"
#include "mcdyn/problem_io.h"
#include "mcdyn/solver.h"
#include "common/alloc_counter.h"
#include "common/check_main.h"
#include "solver/ccp_admm.h"
#include "solver/ccp_ipm.h"
#include "solver/sparse_cholesky.h"
#include "solver/workspace.h"
#include "solver_testutil.h"

#include "base/lapack.h"

#include <check.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Relative agreement of the solves: the pile groups' W + shift I (shift
 * 1e-2 max diag W) have cond <~ 1e3, both factorizations are backward
 * stable, so the solutions agree to cond eps ~ 1e-13. */
#define SOLVE_TOL 1e-12
#define IPM_TOL   1e-9 /* the step method's tolerance (sim_method.c) */
#define ADMM_TOL  1e-9

/* LAPACK's dpotrf_, interposed: calls of order watched_n are counted, then
 * every call is forwarded to LAPACK (found in setup: dlsym allocates). */
typedef void potrf_fn(const char *, const int *, double *, const int *, int *);
static potrf_fn *lapack_potrf;
static int watched_n, watched_calls;

static void find_lapack_potrf(void)
{
    if (!lapack_potrf) lapack_potrf = (potrf_fn *)dlsym(RTLD_NEXT, "dpotrf_");
    ck_assert_ptr_nonnull(lapack_potrf);
}

void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info)
{
    if (*n == watched_n) watched_calls++;
    lapack_potrf(uplo, n, a, lda, info);
}

static const char *const groups[] = {"sphere_pile_poured_164_group.dat",
                                     "sphere_pile_poured_189_group.dat",
                                     "ccp_poured_admm_208_group.dat", "maxdiss_pile_73_group.dat"};
#define N_GROUPS (int)(sizeof groups / sizeof *groups)

static double max_abs(int n, const double *x)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

static double max_diagonal(int n, const double *W)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, W[(size_t)i * n + i]);
    return m;
}

/* x = (A + shift I)^-1 b by dpotrf/dpotrs (A row-major symmetric: its own
 * column-major copy); 0 if dpotrf fails. */
static int dense_solve(int n, const double *A, double shift, const double *b, double *x)
{
    double *F = malloc(sizeof(double) * n * n);
    memcpy(F, A, sizeof(double) * n * n);
    for (int i = 0; i < n; i++) F[(size_t)i * n + i] += shift;
    int one = 1, info;
    memcpy(x, b, sizeof(double) * n);
    dpotrf_("L", &n, F, &n, &info);
    if (info == 0) dpotrs_("L", &n, &one, F, &n, x, &n, &info);
    free(F);
    return info == 0;
}

/* (A + shift I) x = b by the sparse factor (set up for A's pattern) against
 * dense_solve, relative to |x|_inf. */
static void check_solve(mcd_sparse_cholesky *s, int n, const double *A, double shift, tu_rng *rng)
{
    double *b = malloc(sizeof(double) * 3 * n), *x = b + n, *x_ref = b + 2 * n;
    for (int i = 0; i < n; i++) b[i] = tu_uniform(rng, -1, 1);
    ck_assert(dense_solve(n, A, shift, b, x_ref));
    mcd_sparse_cholesky_gather(s, A, shift);
    ck_assert_int_eq(mcd_sparse_cholesky_factor(s), 1);
    memcpy(x, b, sizeof(double) * n);
    ck_assert_int_eq(mcd_sparse_cholesky_solve(s, x), 1);
    ck_assert_double_le(tu_max_diff(n, x, x_ref), SOLVE_TOL * max_abs(n, x_ref));
    free(b);
}

/* The entries cover W's nonzeros and the diagonal, each place once (in
 * either triangle), and only places inside W's nonzero 3 x 3 blocks or
 * the diagonal blocks. */
static void check_entries(mcd_sparse_cholesky *s, int n, int nb, const double *W)
{
    mcd_sparse_cholesky_entries e = mcd_sparse_cholesky_entries_of(s);
    unsigned char *mark = calloc((size_t)n * n, 1);
    for (size_t p = 0; p < e.count; p++) {
        size_t ij = (size_t)e.row[p] * n + e.col[p], ji = (size_t)e.col[p] * n + e.row[p];
        ck_assert_int_eq(mark[ij], 0);
        mark[ij] = mark[ji] = 1;
    }
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(mark[(size_t)i * n + i], 1);
        for (int j = 0; j < n; j++)
            if (W[(size_t)i * n + j] != 0) ck_assert_int_eq(mark[(size_t)i * n + j], 1);
    }
    for (size_t p = 0; p < e.count; p++) { /* inside a nonzero block of W or a diagonal one */
        int i = e.row[p], j = e.col[p];
        int bi = i < nb ? i : nb + (i - nb) / 3 * 3, bj = j < nb ? j : nb + (j - nb) / 3 * 3;
        int wi = i < nb ? 1 : 3, wj = j < nb ? 1 : 3, nonzero = bi == bj;
        for (int a = bi; a < bi + wi; a++)
            for (int c = bj; c < bj + wj; c++) nonzero |= W[(size_t)a * n + c] != 0;
        ck_assert_msg(nonzero, "entry (%d, %d) outside W's blocks", i, j);
    }
    free(mark);
}

START_TEST(pile_group_solves_are_dpotrf_solves)
{
    tu_rng rng = {0xc401 + (uint64_t)_i};
    mcd_problem_file pf = tu_read_fc3d_data(groups[_i]);
    const mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    mcd_sparse_cholesky *s = mcd_sparse_cholesky_create();
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(mcd_sparse_cholesky_setup(s, n, p->W, p->nb), 1);
    check_entries(s, n, p->nb, p->W);
    double d = max_diagonal(n, p->W);
    check_solve(s, n, p->W, 1e-2 * d, &rng);
    check_solve(s, n, p->W, 1e-1 * d, &rng); /* a new shift: the same set-up */
    ck_assert_int_eq(mcd_sparse_cholesky_factorizations(s), 2);
    mcd_sparse_cholesky_free(s);
    mcd_problem_file_free(&pf);
}
END_TEST

static const int sizes[][2] = {{2, 21}, {0, 100}, {5, 297}}; /* singles, triples */
#define N_SIZES (int)(sizeof sizes / sizeof *sizes)

START_TEST(random_solves_are_dpotrf_solves)
{
    tu_rng rng = {0xc402 + (uint64_t)_i};
    mcd_sparse_cholesky *s = mcd_sparse_cholesky_create();
    ck_assert_ptr_nonnull(s);
    for (int z = 0; z < N_SIZES; z++) {
        tu_layout l = tu_layout_make(sizes[z][0], sizes[z][1]);
        int n = l.n;
        unsigned char *B = tu_block_pattern(&rng, &l, _i);
        double *W = malloc(sizeof(double) * n * n);
        tu_block_sparse_spd(&rng, &l, B, W);
        ck_assert_int_eq(mcd_sparse_cholesky_setup(s, n, W, l.singles), 1);
        check_entries(s, n, l.singles, W);
        check_solve(s, n, W, 0.0, &rng);
        tu_block_sparse_spd(&rng, &l, B, W); /* new values, the same pattern */
        check_solve(s, n, W, 0.0, &rng);
        free(W), free(B);
    }
    mcd_sparse_cholesky_free(s);
}
END_TEST

/* Set-ups refused (the dense factor is then the callers'), and no
 * factorization or solve without a set-up. */
START_TEST(refused_setups)
{
    tu_rng rng = {0xc403};
    mcd_sparse_cholesky *s = mcd_sparse_cholesky_create();
    tu_layout l = tu_layout_make(1, 30); /* n = 91 */
    int n = l.n;
    double *W = malloc(sizeof(double) * n * n), b[1] = {1.0};
    unsigned char *B = tu_block_pattern(&rng, &l, TU_CHAIN);
    tu_block_sparse_spd(&rng, &l, B, W);
    ck_assert_int_eq(mcd_sparse_cholesky_setup(NULL, n, W, l.singles), 0);
    ck_assert_int_eq(mcd_sparse_cholesky_setup(s, n, NULL, l.singles), 0);
    ck_assert_int_eq(mcd_sparse_cholesky_setup(s, n, W, l.singles + 1), 0); /* 3 does not divide */
    ck_assert_int_eq(mcd_sparse_cholesky_setup(s, MCD_SPARSE_CHOLESKY_MIN_N, W, 1), 0);
    ck_assert_int_eq(mcd_sparse_cholesky_factor(s), 0);
    ck_assert_int_eq(mcd_sparse_cholesky_solve(s, b), 0);
    ck_assert_double_eq(b[0], 1.0);
    ck_assert_uint_eq(mcd_sparse_cholesky_entries_of(s).count, 0);
    ck_assert_int_eq(mcd_sparse_cholesky_setup(s, n, W, l.singles), 1); /* the chain: sparse */
    tu_spd_matrix(&rng, n, 1.0, W);                                     /* dense */
    ck_assert_int_eq(mcd_sparse_cholesky_setup(s, n, W, l.singles), 0);
    ck_assert_int_eq(mcd_sparse_cholesky_factor(s), 0);
    ck_assert_ptr_null(mcd_sparse_cholesky_product(NULL));
    ck_assert_int_eq(mcd_sparse_cholesky_factorizations(NULL), 0);
    mcd_sparse_cholesky_free(NULL);
    mcd_sparse_cholesky_free(s);
    free(W), free(B);
}
END_TEST

/* W - (max diag / 2) I of a pile group (W is positive semidefinite, its
 * least eigenvalue at most its least diagonal entry) is indefinite: the
 * factorization fails, solves then fail and leave b alone, and a positive
 * definite refill on the same set-up factors and solves again (ccp-ipm's
 * growing shift). The same for a random SPD matrix with one negative
 * diagonal entry. */
START_TEST(not_positive_definite_fails)
{
    tu_rng rng = {0xc404};
    mcd_problem_file pf = tu_read_fc3d_data(groups[0]);
    const mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    mcd_sparse_cholesky *s = mcd_sparse_cholesky_create();
    ck_assert_int_eq(mcd_sparse_cholesky_setup(s, n, p->W, p->nb), 1);
    double d = max_diagonal(n, p->W), *b = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) b[i] = i;
    mcd_sparse_cholesky_gather(s, p->W, -0.5 * d);
    ck_assert_int_eq(mcd_sparse_cholesky_factor(s), 0);
    ck_assert_int_eq(mcd_sparse_cholesky_solve(s, b), 0);
    for (int i = 0; i < n; i++) ck_assert_double_eq(b[i], i);
    check_solve(s, n, p->W, 1e-2 * d, &rng);
    mcd_problem_file_free(&pf);

    tu_layout l = tu_layout_make(0, 40);
    n = l.n;
    unsigned char *B = tu_block_pattern(&rng, &l, TU_RANDOM_GRAPH);
    double *W = malloc(sizeof(double) * n * n);
    tu_block_sparse_spd(&rng, &l, B, W);
    ck_assert_int_eq(mcd_sparse_cholesky_setup(s, n, W, 0), 1);
    double keep = W[(size_t)77 * n + 77];
    W[(size_t)77 * n + 77] = -keep;
    mcd_sparse_cholesky_gather(s, W, 0.0);
    ck_assert_int_eq(mcd_sparse_cholesky_factor(s), 0);
    W[(size_t)77 * n + 77] = keep;
    check_solve(s, n, W, 0.0, &rng);
    mcd_sparse_cholesky_free(s);
    free(W), free(B), free(b);
}
END_TEST

/* After the first factorization and solve of a set-up, factorizations and
 * solves allocate nothing (the counter is unavailable under
 * AddressSanitizer, alloc_counter.h). */
START_TEST(factor_and_solve_do_not_allocate)
{
    tu_rng rng = {0xc405};
    mcd_problem_file pf = tu_read_fc3d_data(groups[1]);
    const mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    mcd_sparse_cholesky *s = mcd_sparse_cholesky_create();
    ck_assert_int_eq(mcd_sparse_cholesky_setup(s, n, p->W, p->nb), 1);
    double d = max_diagonal(n, p->W), *b = malloc(sizeof(double) * n);
    check_solve(s, n, p->W, 1e-2 * d, &rng);
    for (int i = 0; i < n; i++) b[i] = tu_uniform(&rng, -1, 1);
    alloc_counter_start();
    mcd_sparse_cholesky_gather(s, p->W, 2e-2 * d);
    int ok = mcd_sparse_cholesky_factor(s) && mcd_sparse_cholesky_solve(s, b);
    long allocations = alloc_counter_stop();
    ck_assert_int_eq(ok, 1);
    if (ALLOC_COUNTER_AVAILABLE) ck_assert_int_eq(allocations, 0);
    mcd_sparse_cholesky_free(s);
    mcd_problem_file_free(&pf);
    free(b);
}
END_TEST

/* f = 1/2 g^T W g + q^T g. */
static double objective(const mcd_fc3d *p, const double *g)
{
    int n = mcd_fc3d_size(p);
    double f = 0.0;
    for (int i = 0; i < n; i++) {
        double wg = 0.0;
        for (int j = 0; j < n; j++) wg += p->W[(size_t)i * n + j] * g[j];
        f += g[i] * (0.5 * wg + p->q[i]);
    }
    return f;
}

typedef mcd_status ccp_sparse_door(const mcd_fc3d *, const mcd_ccp_opts *, double *, double *,
                                   mcd_sparse_cholesky *, mcd_ccp_stats *, mcd_error *);

/* One method on a pile group through its sparse door (with a state) and
 * its dense one (NULL state, as ccp.h's public door): both solve to tol
 * with the same status, iteration counts within max(2, 1 %) and the
 * objective within tol (1 + |f|); the sparse run factored with the state
 * (at least once per iteration for the IPM, factor_per_iteration) and
 * made no dpotrf of the group's order, the dense run did (so the count
 * catches a dense path). */
static void compare_doors(const char *file, ccp_sparse_door *door,
                          size_t work_size_of(const mcd_fc3d *), int max_iter,
                          int factor_per_iteration)
{
    mcd_problem_file pf = tu_read_fc3d_data(file);
    const mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    double *work = malloc(work_size_of(p) * sizeof *work);
    double *gs = calloc((size_t)n, sizeof *gs), *gd = calloc((size_t)n, sizeof *gd);
    mcd_sparse_cholesky *s = mcd_sparse_cholesky_create();
    mcd_ccp_opts o = mcd_ccp_default_opts();
    o.tol = IPM_TOL, o.max_iter = max_iter;
    mcd_ccp_stats ss, sd;
    watched_n = n, watched_calls = 0;
    mcd_status rs = door(p, &o, gs, work, s, &ss, NULL);
    int sparse_calls = watched_calls;
    watched_calls = 0;
    mcd_status rd = door(p, &o, gd, work, NULL, &sd, NULL);
    int dense_calls = watched_calls;
    watched_n = 0;
    double fs = objective(p, gs), fd = objective(p, gd);
    printf("%-36s sparse: %d iterations, residual %.3g, %ld factorizations; dense: %d, %.3g, "
           "%d dpotrf; f diff %.3g\n",
           file, ss.iterations, ss.residual, mcd_sparse_cholesky_factorizations(s), sd.iterations,
           sd.residual, dense_calls, fs - fd);
    ck_assert_int_eq(rs, MCD_OK);
    ck_assert_int_eq(rd, MCD_OK);
    int margin = sd.iterations / 100 > 2 ? sd.iterations / 100 : 2;
    ck_assert_int_le(abs(ss.iterations - sd.iterations), margin);
    ck_assert_double_le(fabs(fs - fd), o.tol * (1 + fabs(fd)));
    ck_assert_int_eq(sparse_calls, 0);
    ck_assert_int_gt(dense_calls, 0);
    ck_assert_int_ge(mcd_sparse_cholesky_factorizations(s),
                     factor_per_iteration ? ss.iterations + 1 : 1);
    mcd_sparse_cholesky_free(s);
    free(work), free(gs), free(gd);
    mcd_problem_file_free(&pf);
}

START_TEST(ipm_sparse_door_agrees_with_dense)
{
    compare_doors(groups[_i], mcd_ccp_solve_ipm_sparse, mcd_ccp_ipm_work_size, 100, 1);
}
END_TEST

START_TEST(admm_sparse_door_agrees_with_dense)
{
    compare_doors(groups[_i], mcd_ccp_solve_admm_sparse, mcd_ccp_admm_work_size, 100000, 0);
}
END_TEST

/* mncp-fixpoint (solver.h) on a pile group it solves: its ADMM factors
 * with the workspace's sparse state, and no dpotrf of the group's order
 * runs. */
START_TEST(fixed_point_takes_the_sparse_factor)
{
    mcd_problem_file pf = tu_read_fc3d_data("ccp_poured_admm_211_group.dat");
    const mcd_fc3d *p = &pf.fc3d;
    int n = mcd_fc3d_size(p);
    mcd_solver_ws *ws;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u);
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MNCP_FIXPOINT);
    mcd_solver_stats st;
    watched_n = n, watched_calls = 0;
    mcd_status s = mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_FIXPOINT, p, &o, r, u, &st, NULL);
    int calls = watched_calls;
    watched_n = 0;
    printf("211, mncp-fixpoint: %s, %d outer iterations, error %.3g, %ld factorizations\n",
           mcd_status_str(s), st.iterations, st.error,
           mcd_sparse_cholesky_factorizations(ws->sparse_cholesky));
    ck_assert_int_eq(s, MCD_OK);
    ck_assert_int_gt(mcd_sparse_cholesky_factorizations(ws->sparse_cholesky), 0);
    ck_assert_int_eq(calls, 0);
    mcd_solver_ws_free(ws);
    free(r), free(u);
    mcd_problem_file_free(&pf);
}
END_TEST

static Suite *sparse_cholesky_suite(void)
{
    Suite *s = suite_create("solver-sparse-cholesky");
    TCase *tc = tcase_create("sparse-cholesky");
    tcase_set_timeout(tc, 300);
    tcase_add_checked_fixture(tc, find_lapack_potrf, NULL);
    tcase_add_loop_test(tc, pile_group_solves_are_dpotrf_solves, 0, N_GROUPS);
    tcase_add_loop_test(tc, random_solves_are_dpotrf_solves, 0, TU_PATTERN_COUNT);
    tcase_add_test(tc, refused_setups);
    tcase_add_test(tc, not_positive_definite_fails);
    tcase_add_test(tc, factor_and_solve_do_not_allocate);
    tcase_add_loop_test(tc, ipm_sparse_door_agrees_with_dense, 0, N_GROUPS);
    tcase_add_loop_test(tc, admm_sparse_door_agrees_with_dense, 0, 2);
    tcase_add_test(tc, fixed_point_takes_the_sparse_factor);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(sparse_cholesky_suite());
}

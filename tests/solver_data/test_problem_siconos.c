/* Siconos as an oracle (test only; Debian's libsiconos-numerics):
 *   - our reader reads the same numbers as Siconos' own readers
 *     (linearComplementarity_newFromFile, mixedLinearComplementarity_
 *     newFromFile, frictionContact_newFromFile) from every shared .dat file
 *     and from our valid fixtures;
 *   - mcd_fc3d_error equals Siconos' fc3d_compute_error, called as Siconos'
 *     fc3d driver calls it (norm = |q|), on every shared frictional-contact
 *     problem, at our solver's iterate and at pseudo-random points. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/MixedLinearComplementarityProblem.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/fc3d_compute_error.h>

#include "common/check_main.h"
#include "fclib_read.h"
#include "mcdyn/problem_io.h"
#include "mcdyn/solver.h"
#include "problem_list.h"

#define RANDOM_POINTS 3

static void assert_matrix_eq(const char *file, NumericsMatrix *S, const double *A, int rows,
                             int cols, int r0, int c0, int ld)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            double s = NM_get_value(S, i, j), a = A[(size_t)(r0 + i) * ld + c0 + j];
            ck_assert_msg(s == a, "%s: (%d,%d) Siconos %.17g, ours %.17g", file, r0 + i, c0 + j, s,
                          a);
        }
}

static void assert_vector_eq(const char *file, const char *name, const double *s, const double *a,
                             int n)
{
    for (int i = 0; i < n; i++)
        ck_assert_msg(s[i] == a[i], "%s: %s[%d] Siconos %.17g, ours %.17g", file, name, i, s[i],
                      a[i]);
}

static void compare_lcp(const char *path, const mcd_mlcp *p)
{
    LinearComplementarityProblem *s = newLCP();
    ck_assert_int_eq(linearComplementarity_newFromFilename(s, path), 1);
    ck_assert_int_eq(s->size, p->n);
    assert_matrix_eq(path, s->M, p->M, p->n, p->n, 0, 0, p->n);
    assert_vector_eq(path, "q", s->q, p->q, p->n);
    freeLinearComplementarityProblem(s);
}

/* Siconos' dense n x m array (column-major) against our block at (r0, c0). */
static void compare_block(const char *path, const double *S, int rows, int cols, const double *M,
                          int r0, int c0, int ld)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            ck_assert_msg(S[i + (size_t)j * rows] == M[(size_t)(r0 + i) * ld + c0 + j],
                          "%s: (%d,%d) differs from Siconos' A, B, C or D", path, r0 + i, c0 + j);
}

static void compare_mlcp(const char *path, const mcd_mlcp *p)
{
    MixedLinearComplementarityProblem *s = mixedLinearComplementarity_new();
    ck_assert_int_eq(mixedLinearComplementarity_newFromFilename(s, path), 0);
    int n = s->n, m = s->m, size = p->n;
    ck_assert_int_eq(n + m, size);
    for (int i = 0; i < size; i++)
        ck_assert_msg(!!isinf(p->lo[i]) == (i < n), "%s: row %d kind differs", path, i);
    if (s->isStorageType1) {
        assert_matrix_eq(path, s->M, p->M, size, size, 0, 0, size);
        assert_vector_eq(path, "q", s->q, p->q, size);
    }
    if (s->isStorageType2) {
        compare_block(path, s->A, n, n, p->M, 0, 0, size);
        compare_block(path, s->B, m, m, p->M, n, n, size);
        compare_block(path, s->C, n, m, p->M, 0, n, size);
        compare_block(path, s->D, m, n, p->M, n, 0, size);
        assert_vector_eq(path, "a", s->a, p->q, n);
        assert_vector_eq(path, "b", s->b, p->q + n, m);
    }
    mixedLinearComplementarity_free(s);
}

/* Our row of 2D row i: 2D contacts are embedded in 3D. */
static int row_of(int dim, int i)
{
    return dim == 3 ? i : 3 * (i / 2) + i % 2;
}

static void compare_fc(const char *path, const mcd_problem_file *f)
{
    FrictionContactProblem *s = frictionContact_new_from_filename(path);
    ck_assert_ptr_nonnull(s);
    int dim = s->dimension, n = dim * s->numberOfContacts, n3 = mcd_fc3d_size(&f->fc3d);
    ck_assert_int_eq(dim, f->dimension);
    ck_assert_int_eq(s->numberOfContacts, f->fc3d.nc);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(s->q[i] == f->fc3d.q[row_of(dim, i)], "%s: q[%d] differs", path, i);
        for (int j = 0; j < n; j++)
            ck_assert_msg(NM_get_value(s->M, i, j) ==
                              f->fc3d.W[(size_t)row_of(dim, i) * n3 + row_of(dim, j)],
                          "%s: W(%d,%d) differs", path, i, j);
    }
    assert_vector_eq(path, "mu", s->mu, f->fc3d.mu, f->fc3d.nc);
    frictionContactProblem_free(s);
}

static void compare_file(const char *path)
{
    mcd_problem_file f;
    mcd_error err = {0};
    ck_assert_msg(mcd_problem_read_siconos(path, MCD_PROBLEM_AUTO, &f, &err) == MCD_OK, "%s",
                  err.msg);
    if (f.kind == MCD_PROBLEM_LCP) compare_lcp(path, &f.mlcp);
    if (f.kind == MCD_PROBLEM_MLCP) compare_mlcp(path, &f.mlcp);
    if (f.kind == MCD_PROBLEM_FC3D) compare_fc(path, &f);
    mcd_problem_file_free(&f);
}

START_TEST(test_reader_reads_what_siconos_reads)
{
    static const char *const folders[] = {"lcp", "mlcp", "fc3d"};
    static const char *const fixtures[] = {"lcp_sparse_triplet.dat", "lcp_sparse_csc.dat",
                                           "mlcp_abcd_only.dat", "fc2d_one_contact.dat"};
    for (int k = 0; k < 3; k++) {
        problem_list l = problem_list_read(folders[k]);
        for (int i = 0; i < l.count; i++)
            if (!is_fclib_path(l.paths[i])) compare_file(l.paths[i]);
        problem_list_free(&l);
    }
    for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++)
        compare_file(fixture_path(fixtures[i]));
}
END_TEST

static double norm2(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    return sqrt(s);
}

/* Siconos' error at r (it computes u = W r + q itself; it reads no
 * options, and creating NSGS options leaks inside Siconos). */
static double siconos_error(FrictionContactProblem *s, const double *r, int n)
{
    double *rr = malloc(2 * sizeof(double) * n), err = -1;
    ck_assert_ptr_nonnull(rr);
    memcpy(rr, r, sizeof(double) * n);
    fc3d_compute_error(s, rr, rr + n, INFINITY, NULL, norm2(s->q, n), &err);
    free(rr);
    return err;
}

/* Ours and Siconos' agree at r (u = W r + q). */
static void compare_error_at(const char *name, const mcd_fc3d *p, FrictionContactProblem *s,
                             const double *r)
{
    int n = mcd_fc3d_size(p);
    double *u = malloc(sizeof(double) * n);
    ck_assert_ptr_nonnull(u);
    for (int i = 0; i < n; i++) {
        u[i] = p->q[i];
        for (int j = 0; j < n; j++) u[i] += p->W[(size_t)i * n + j] * r[j];
    }
    double ours = mcd_fc3d_error(p, r, u), theirs = siconos_error(s, r, n);
    ck_assert_msg(fabs(ours - theirs) <= 1e-10 * theirs + 1e-15,
                  "%s: mcd_fc3d_error %.17g, Siconos %.17g", name, ours, theirs);
    printf("%-40s ours %.6e  Siconos %.6e\n", name, ours, theirs);
    free(u);
}

/* Our (3D, dense) problem as a Siconos problem; it owns copies. */
static FrictionContactProblem *as_siconos(const mcd_fc3d *p)
{
    int n = mcd_fc3d_size(p);
    double *W = malloc(sizeof(double) * n * n), *q = malloc(sizeof(double) * n),
           *mu = malloc(sizeof(double) * p->nc);
    ck_assert(W && q && mu);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) W[i + (size_t)j * n] = p->W[(size_t)i * n + j];
    memcpy(q, p->q, sizeof(double) * n);
    memcpy(mu, p->mu, sizeof(double) * p->nc);
    NumericsMatrix *M = NM_create_from_data(NM_DENSE, n, n, W);
    return frictionContactProblem_new_with_data(3, p->nc, M, q, mu);
}

/* Deterministic points spread over the cones and around them. */
static void random_point(unsigned *seed, double scale, int n, double *r)
{
    for (int i = 0; i < n; i++) {
        *seed = *seed * 1103515245u + 12345u;
        r[i] = scale * ((double)(*seed >> 8) / (1u << 24) - 0.3);
    }
}

static void check_error_on(const char *path, const char *name)
{
    mcd_problem_file f;
    mcd_error err = {0};
    ck_assert_msg(read_problem_file(path, MCD_PROBLEM_AUTO, &f, &err) == MCD_OK, "%s", err.msg);
    ck_assert_int_eq(f.fc3d.nb, 0);
    int n = mcd_fc3d_size(&f.fc3d);
    double *r = calloc(2 * (size_t)n, sizeof(double));
    mcd_solver_ws *ws = NULL;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, NULL), MCD_OK);
    mcd_solver_opts opts = mcd_solver_default_opts(MCD_SOLVER_MNCP_PLM);
    opts.max_iter = 30;
    mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_PLM, &f.fc3d, &opts, r, r + n, NULL, NULL);
    FrictionContactProblem *s = as_siconos(&f.fc3d);
    compare_error_at(name, &f.fc3d, s, r);
    unsigned seed = 7;
    for (int k = 0; k < RANDOM_POINTS; k++) {
        random_point(&seed, 1.0 + norm2(f.fc3d.q, n), n, r);
        compare_error_at(name, &f.fc3d, s, r);
    }
    frictionContactProblem_free(s);
    mcd_solver_ws_free(ws);
    free(r);
    mcd_problem_file_free(&f);
}

START_TEST(test_fc3d_error_is_siconos_error)
{
    problem_list l = problem_list_read("fc3d");
    for (int i = 0; i < l.count; i++) {
        check_error_on(l.paths[i], l.names[i]);
    }
    problem_list_free(&l);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("problem-siconos");
    TCase *t = tcase_create("oracle");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, test_reader_reads_what_siconos_reads);
    tcase_add_test(t, test_fc3d_error_is_siconos_error);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(suite());
}

/* A stationary point of PLM's merit psi with psi > 0: the frictional-contact
 * problem of the step at t = 18.841 s of `mcdyn sim models/pendulum12.yaml
 * --impact-law maxdiss` (3 contacts, planar, W singular: the in-plane rows
 * have a null vector v through all three contacts, and v^T q = -8.0e-8).
 * With contacts 2 and 3 sticking the velocity v^T q cannot be absorbed:
 * PLM stopped at psi = (v^T q)^2 / 2 = 3.2e-15, error 1.8e-6, for 100
 * iterations; the solution has contact 3 sliding at -1.2e-7. */
#include "common/check_main.h"
#include "mcdyn/problem_io.h"
#include "mcdyn/solver.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

START_TEST(plm_leaves_the_flat_set)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/solver_data/data/pendulum_maxdiss_fc3d.dat",
             getenv("MCDYN_SOURCE"));
    mcd_problem_file f;
    mcd_error err = {0};
    ck_assert_int_eq(mcd_problem_read_siconos(path, MCD_PROBLEM_FC3D, &f, &err), MCD_OK);
    const mcd_fc3d *p = &f.fc3d;
    int n = mcd_fc3d_size(p);
    ck_assert_int_eq(n, 9);
    mcd_solver_ws *ws = NULL;
    ck_assert_int_eq(mcd_solver_ws_create(n, &ws, &err), MCD_OK);
    double r[9] = {0}, u[9] = {0};
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MNCP_PLM);
    mcd_solver_stats st;
    ck_assert_int_eq(mcd_solve_fc3d(ws, MCD_SOLVER_MNCP_PLM, p, &o, r, u, &st, &err), MCD_OK);
    ck_assert(st.error <= 1e-10);
    ck_assert(mcd_fc3d_error(p, r, NULL) <= 1e-10);
    /* contact 3 slides: |r_t| = mu r_n, r_t opposite to u_t */
    ck_assert(fabs(hypot(r[7], r[8]) - p->mu[2] * r[6]) <= 1e-12);
    ck_assert(r[8] * u[8] < 0);
    mcd_solver_ws_free(ws);
    mcd_problem_file_free(&f);
}
END_TEST

static Suite *stall_suite(void)
{
    Suite *s = suite_create("solver-mncp-stall");
    TCase *tc = tcase_create("mncp-stall");
    tcase_add_test(tc, plm_leaves_the_flat_set);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(stall_suite());
}

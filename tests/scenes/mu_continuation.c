/* mu-continuation: a captured frictional-contact step solved along a
 * sequence of friction scales, each solve warm-started at the previous
 * one's point (docs/contact.md, "Jams"; built with the tests, not run by
 * them).
 *
 *   mu-continuation STEP.dat METHOD S1 S2 ...
 *
 * STEP.dat is a Siconos fc3d file (capture-problems); METHOD mncp-plm or
 * mncp-nsn. The problem's mu is scaled by S1 for a cold solve, then by S2,
 * ... each started from the previous r. One line per scale: status,
 * iterations, error (solver.h) and the sum of the normal impulses, which
 * grows without bound along a self-stress the targets load. */
#include "mcdyn/mcdyn.h"

#include <stdio.h>
#include <stdlib.h>

static int run(mcd_fc3d *p, mcd_solver_kind kind, int nscale, char **scale)
{
    const int n = p->nb + 3 * p->nc;
    double *mu = malloc((size_t)(p->nc ? p->nc : 1) * sizeof *mu);
    double *r = calloc((size_t)n, sizeof *r), *u = calloc((size_t)n, sizeof *u);
    mcd_solver_ws *ws = NULL;
    mcd_error e = {0};
    int rc = !mu || !r || !u || mcd_solver_ws_create(n, &ws, &e) != MCD_OK;
    for (int k = 0; !rc && k < p->nc; k++) mu[k] = p->mu[k];
    for (int i = 0; !rc && i < nscale; i++) {
        const double s = atof(scale[i]);
        for (int k = 0; k < p->nc; k++) p->mu[k] = s * mu[k];
        mcd_solver_opts o = mcd_solver_default_opts(kind);
        o.warm_start = i > 0;
        mcd_solver_stats st = {0};
        mcd_status status = mcd_solve_fc3d(ws, kind, p, &o, r, u, &st, &e);
        double sum_rn = 0.0;
        for (int k = 0; k < p->nc; k++) sum_rn += r[p->nb + 3 * k + MCD_ROW_N];
        printf("mu x %.4f %s: %s, %d iterations, error %.3g, sum r_n %.6g\n", s,
               o.warm_start ? "warm" : "cold", mcd_status_str(status), st.iterations, st.error,
               sum_rn);
        rc = status != MCD_OK && status != MCD_ERR_NOT_CONVERGED;
    }
    if (rc && e.msg[0]) fprintf(stderr, "mu-continuation: %s\n", e.msg);
    for (int k = 0; mu && k < p->nc; k++) p->mu[k] = mu[k];
    mcd_solver_ws_free(ws);
    free(mu), free(r), free(u);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s STEP.dat mncp-plm|mncp-nsn S1 [S2 ...]\n", argv[0]);
        return 2;
    }
    mcd_solver_kind kind;
    mcd_error e = {0};
    if (mcd_solver_from_name(argv[2], &kind, &e) != MCD_OK ||
        (kind != MCD_SOLVER_MNCP_PLM && kind != MCD_SOLVER_MNCP_NSN)) {
        fprintf(stderr, "mu-continuation: METHOD must be mncp-plm or mncp-nsn\n");
        return 2;
    }
    mcd_problem_file f = {0};
    if (mcd_problem_read_siconos(argv[1], MCD_PROBLEM_FC3D, &f, &e) != MCD_OK) {
        fprintf(stderr, "mu-continuation: %s\n", e.msg);
        return 1;
    }
    int rc = run(&f.fc3d, kind, argc - 3, argv + 3);
    mcd_problem_file_free(&f);
    return rc;
}

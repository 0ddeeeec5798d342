/* The maximum-dissipation law of Preclik et al. (Eq. 5) as a step method
 * (src/sim/sim_internal.h; docs/contact.md, "Maximum-dissipation law").
 *
 * The step's frictional contact problem (contact.h: W = Q_u Lambda Q_u^T,
 * q = free velocities with the normal-row targets folded in) is Eq. (5)
 * with the paper's A = W and b = -q. The discrete Signorini condition
 * xi/dt + dv_n >= 0 _|_ lambda_n >= 0 with the error reduction
 * eps min(0, xi/dt) + max(0, xi/dt) is the normal-row target of contact.h:
 * the speculative term -gap/dt for gap >= 0, and eps = penetration_gain for
 * gap < 0 (capped at max_correction_velocity, an addition to the paper).
 * Solved group by group (contact.h) by nonlinear block Gauss-Seidel
 * (mcd_maxdiss_solve) from the warm start (sim_warm.c; zero without it)
 * with the method's tol and max_iter, the step's solver workspace lent
 * for the failure path's Coulomb start; the
 * workspace is made with the capacity. */
#include "sim_internal.h"

#include <stdlib.h>

#include "mcdyn/impact.h"

struct mcd_sim_maxdiss {
    double *work; /* mcd_maxdiss_work_size of the largest problem */
};

mcd_status mcd_sim_maxdiss_create(mcd_sim *s, mcd_error *err)
{
    if (s->opt.solver != MCD_METHOD_MAXDISS_BGS) return MCD_OK;
    mcd_fc3d largest = {s->cap, s->m->nclosure_rows, NULL, NULL, NULL};
    size_t n = mcd_maxdiss_work_size(&largest);
    s->maxdiss = calloc(1, sizeof *s->maxdiss);
    if (s->maxdiss) s->maxdiss->work = calloc(n ? n : 1, sizeof *s->maxdiss->work);
    if (!s->maxdiss || !s->maxdiss->work)
        return mcd_fail(err, MCD_ERR_NOMEM, "maxdiss-bgs: out of memory");
    return MCD_OK;
}

void mcd_sim_maxdiss_free(mcd_sim *s)
{
    if (!s->maxdiss) return;
    free(s->maxdiss->work);
    free(s->maxdiss);
    s->maxdiss = NULL;
}

mcd_status mcd_sim_solve_maxdiss(mcd_sim *s, int g, int *iterations, double *residual, mcd_error *e)
{
    mcd_fc3d p;
    mcd_maxdiss_stats ms = {0};
    mcd_contact_group_fc3d(s->cws, g, &p);
    mcd_sim_warm_fc3d(s, g, &p, s->z);
    mcd_maxdiss_opts o = mcd_maxdiss_default_opts();
    if (s->opt.solver_opts.tol > 0) o.tol = s->opt.solver_opts.tol;
    if (s->opt.solver_opts.max_iter > 0) o.max_iter = s->opt.solver_opts.max_iter;
    o.coulomb_ws = s->sws; /* the failure path's Coulomb start */
    mcd_status r = mcd_maxdiss_solve(&p, &o, s->z, s->maxdiss->work, &ms, e);
    if (mcd_sim_solution_usable(s, r) && mcd_contact_group_take_fc3d(s->cws, g, s->z) != MCD_OK)
        r = MCD_ERR_NONFINITE;
    *iterations = ms.iterations, *residual = ms.residual;
    return r;
}

/* The solve of one step (src/sim/sim_internal.h): dispatch on the step
 * method, the MLCP / MNCP solvers of solver.h and the cone complementarity
 * solvers of ccp.h, each group started from the previous step's impulses
 * when solver_opts.warm_start (sim_warm.c), and the failure policy. */
#include "sim_internal.h"

#include <string.h>

#include "mcdyn/ccp.h"
#include "../solver/ccp_admm.h"
#include "../solver/ccp_ipm.h"
#include "../solver/workspace.h"

int mcd_sim_failure_warned(const mcd_sim *s, mcd_status r)
{
    return r == MCD_ERR_NOT_CONVERGED && s->opt.on_failure == MCD_ON_FAILURE_WARN && !s->retakable;
}

mcd_status mcd_sim_solver_outcome(mcd_sim *s, mcd_status r, const mcd_error *e, mcd_step_stats *st)
{
    st->solver_status = r;
    if (mcd_sim_failure_warned(s, r)) {
        s->solver_failures++;
        return MCD_OK;
    }
    if (r != MCD_OK)
        return mcd_fail(&s->err, r, "t = %.6f: solver %s: %s", s->t,
                        mcd_step_method_name(s->opt.solver),
                        e && e->msg[0] ? e->msg : mcd_status_str(r));
    return MCD_OK;
}

int mcd_sim_solution_usable(const mcd_sim *s, mcd_status r)
{
    return r == MCD_OK || mcd_sim_failure_warned(s, r);
}

/* Group g solved again from zero after its warm-started solve did not
 * converge (sim_warm.c); the iterations of both solves are counted. */
static mcd_status retry_cold(mcd_sim *s, mcd_sim_group_solve f, int g, int *iterations,
                             double *residual, mcd_error *e)
{
    int warm_iterations = *iterations;
    mcd_error_clear(e);
    mcd_sim_warm_set_cold(s, 1);
    mcd_status r = f(s, g, iterations, residual, e);
    mcd_sim_warm_set_cold(s, 0);
    *iterations += warm_iterations;
    return r;
}

mcd_status mcd_sim_solve_groups(mcd_sim *s, mcd_sim_group_solve f, mcd_step_stats *st)
{
    mcd_status worst = MCD_OK;
    mcd_error worst_err = {0};
    st->iterations = 0, st->residual = 0.0;
    for (int g = 0; g < mcd_contact_group_count(s->cws); g++) {
        int iterations = 0;
        double residual = 0.0;
        mcd_error e = {0};
        mcd_status r = f(s, g, &iterations, &residual, &e);
        if (r == MCD_ERR_NOT_CONVERGED && mcd_sim_warm_group(s, g))
            r = retry_cold(s, f, g, &iterations, &residual, &e);
        if (iterations > st->iterations) st->iterations = iterations;
        if (residual > st->residual) st->residual = residual;
        if (r != MCD_OK && !mcd_sim_solution_usable(s, r))
            return mcd_sim_solver_outcome(s, r, &e, st);
        if (r != MCD_OK && worst == MCD_OK) worst = r, worst_err = e;
    }
    return mcd_sim_solver_outcome(s, worst, &worst_err, st);
}

static mcd_status solve_mlcp(mcd_sim *s, int g, int *iterations, double *residual, mcd_error *e)
{
    mcd_solver_stats ss = {0};
    mcd_mlcp p;
    mcd_status r = mcd_contact_group_mlcp(s->cws, g, &p);
    if (r != MCD_OK) return mcd_fail(e, r, "group %d: MLCP not built", g);
    mcd_solver_opts o = s->opt.solver_opts;
    o.warm_start = mcd_sim_warm_mlcp(s, g, &p, s->z);
    const int lemke = s->opt.solver == MCD_METHOD_MLCP_LEMKE;
    if (lemke) {
        mcd_sim_warm_basis_guess(s, g, &p, s->z);
        r = mcd_solve_mlcp_lemke_basis(s->sws, &p, &o, s->z, mcd_sim_warm_basis_of_group(s), &ss,
                                       e);
    } else {
        r = mcd_solve_mlcp(s->sws, (mcd_solver_kind)s->opt.solver, &p, &o, s->z, &ss, e);
    }
    if (mcd_sim_solution_usable(s, r) && mcd_contact_group_take_mlcp(s->cws, g, s->z) != MCD_OK)
        r = MCD_ERR_NONFINITE;
    if (mcd_sim_solution_usable(s, r)) mcd_sim_warm_keep_mlcp(s, g, &p, s->z);
    if (mcd_sim_solution_usable(s, r) && lemke) mcd_sim_warm_basis_keep(s, g, &p);
    *iterations = ss.iterations, *residual = ss.error;
    return r;
}

static mcd_status solve_mncp(mcd_sim *s, int g, int *iterations, double *residual, mcd_error *e)
{
    mcd_solver_stats ss = {0};
    mcd_fc3d p;
    mcd_contact_group_fc3d(s->cws, g, &p);
    mcd_solver_opts o = s->opt.solver_opts;
    o.warm_start = mcd_sim_warm_fc3d(s, g, &p, s->z);
    mcd_status r =
        mcd_solve_fc3d(s->sws, (mcd_solver_kind)s->opt.solver, &p, &o, s->z, s->u, &ss, e);
    if (mcd_sim_solution_usable(s, r) && mcd_contact_group_take_fc3d(s->cws, g, s->z) != MCD_OK)
        r = MCD_ERR_NONFINITE;
    *iterations = ss.iterations, *residual = ss.error;
    return r;
}

/* The cone complementarity problem of Anitescu & Tasora (the CCP brief,
 * ccp-tasora-anitescu-revisited.md, Eq. (7)-(10)) in minimal coordinates:
 * nu = gamma = [p_b; F_u]
 * (closure rows free, the cones B_j = R of Eq. (8); contacts (F_n, F_f, F_o)
 * in K_mu), N = W = X Lambda X^T (Eq. 10: P^T M^-1 P with P = J^T Q^T), and
 * p = r = the free velocities nu_free with the normal-row target folded in:
 * r_n = nu_free,n - t_k, where t_k = -Phi/dt for Phi >= 0 is the
 * stabilisation term 1/dt Phi of Eq. (5d) (d_i,0 of Eq. 9), and for Phi < 0
 * the same term scaled by the penetration gain and capped (docs/contact.md).
 * The solution satisfies Phi/dt + nu_n+ = mu |nu_T+| on a sliding contact
 * (the relaxation term of Eq. 5d). Solved from the warm start (sim_warm.c;
 * gamma = 0 without it) by PGS (with the method's omega), APGD, ADMM or the interior-point method
 * (which starts from its own point); tol and max_iter from the
 * step's solver options; one problem per group. ADMM and the
 * interior-point method factor large block-sparse groups with the solver
 * workspace's sparse Cholesky state (sparse_cholesky.h, set up per solve). */
static mcd_status solve_ccp(mcd_sim *s, int g, int *iterations, double *residual, mcd_error *e)
{
    mcd_ccp_stats cs = {0};
    mcd_fc3d p;
    mcd_contact_group_fc3d(s->cws, g, &p);
    mcd_sim_warm_fc3d(s, g, &p, s->z);
    mcd_ccp_opts o = mcd_ccp_default_opts();
    o.tol = s->opt.solver_opts.tol > 0 ? s->opt.solver_opts.tol : o.tol;
    o.max_iter = s->opt.solver_opts.max_iter > 0 ? s->opt.solver_opts.max_iter : o.max_iter;
    if (s->opt.ccp_omega != 0) o.omega = s->opt.ccp_omega; /* out of (0, 2): the solver says so */
    mcd_status r =
        s->opt.solver == MCD_METHOD_CCP_APGD ? mcd_ccp_solve_apgd(&p, &o, s->z, s->ccp_work, &cs, e)
        : s->opt.solver == MCD_METHOD_CCP_ADMM
            ? mcd_ccp_solve_admm_sparse(&p, &o, s->z, s->ccp_work, s->sws->sparse_cholesky, &cs, e)
        : s->opt.solver == MCD_METHOD_CCP_IPM
            ? mcd_ccp_solve_ipm_sparse(&p, &o, s->z, s->ccp_work, s->sws->sparse_cholesky, &cs, e)
            : mcd_ccp_solve_pgs(&p, &o, s->z, s->ccp_work, &cs, e);
    if (mcd_sim_solution_usable(s, r) && mcd_contact_group_take_fc3d(s->cws, g, s->z) != MCD_OK)
        r = MCD_ERR_NONFINITE;
    *iterations = cs.iterations, *residual = cs.residual;
    return r;
}

static mcd_status solve_method(mcd_sim *s, mcd_step_stats *st)
{
    switch (s->opt.solver) {
    case MCD_METHOD_MLCP_PFB_RLM:
    case MCD_METHOD_MLCP_PFB_PLM:
    case MCD_METHOD_MLCP_LEMKE:
        return mcd_sim_solve_groups(s, solve_mlcp, st);
    case MCD_METHOD_MNCP_RLM:
    case MCD_METHOD_MNCP_PLM:
    case MCD_METHOD_MNCP_NSN:
    case MCD_METHOD_MNCP_FIXPOINT:
        return mcd_sim_solve_groups(s, solve_mncp, st);
    case MCD_METHOD_CCP_PGS:
    case MCD_METHOD_CCP_APGD:
    case MCD_METHOD_CCP_ADMM:
    case MCD_METHOD_CCP_IPM:
        return mcd_sim_solve_groups(s, solve_ccp, st);
    case MCD_METHOD_NSLCP_LEMKE:
    case MCD_METHOD_NSLCP_JUDICE:
        return mcd_sim_solve_nslcp(s, st);
    case MCD_METHOD_MAXDISS_BGS:
        return mcd_sim_solve_groups(s, mcd_sim_solve_maxdiss, st);
    default:
        return mcd_fail(&s->err, MCD_ERR_ARG, "unknown step method %d", (int)s->opt.solver);
    }
}

mcd_status mcd_sim_solve(mcd_sim *s, mcd_step_stats *st)
{
    const int warm = s->opt.solver_opts.warm_start;
    if (warm) mcd_sim_warm_match(s);
    mcd_status r = solve_method(s, st);
    if (warm && (r == MCD_OK || !s->retakable)) /* a step to be halved: not a previous step */
        mcd_sim_warm_record(s);
    return r;
}

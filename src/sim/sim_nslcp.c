/* The non-singular friction LCP of Peiret et al. (2017) as a step method
 * (src/sim/sim_internal.h): the step's per-contact terms set up once, then
 * the reduced LCP of include/mcdyn/nslcp.h built for each independent
 * group of the step (contact.h), solved by Lemke (nslcp-lemke, through
 * mcd_solve_mlcp) or by Judice-Pires block pivoting (nslcp-judice,
 * lcp_block_pivot.h), and its impulses left in the contact workspace; the
 * groups go through mcd_sim_solve_groups, the failure policy of the other
 * methods. */
#include "sim_internal.h"

#include <stdlib.h>
#include <string.h>

#include "mcdyn/lcp_block_pivot.h"
#include "mcdyn/nslcp.h"

struct mcd_sim_nslcp {
    mcd_nslcp_ws *ws;
    mcd_bpp_ws *bpp;
    mcd_solver_ws *lemke;
    double *z, *w; /* capacity of ws */
};

static int is_nslcp(mcd_step_method m)
{
    return m == MCD_METHOD_NSLCP_LEMKE || m == MCD_METHOD_NSLCP_JUDICE;
}

void mcd_sim_nslcp_free(mcd_sim *s)
{
    struct mcd_sim_nslcp *p = s->nslcp;
    if (!p) return;
    mcd_nslcp_ws_free(p->ws);
    mcd_bpp_ws_free(p->bpp);
    mcd_solver_ws_free(p->lemke);
    free(p->z), free(p->w);
    free(p);
    s->nslcp = NULL;
}

mcd_status mcd_sim_nslcp_create(mcd_sim *s, mcd_error *err)
{
    if (!is_nslcp(s->opt.solver)) return MCD_OK;
    mcd_status st = mcd_nslcp_check_options(&s->opt.nslcp, err);
    if (st != MCD_OK) return st;
    struct mcd_sim_nslcp *p = calloc(1, sizeof *p);
    if (!p) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    s->nslcp = p;
    st = mcd_nslcp_ws_create(s->cap, s->m->nclosure_rows, s->opt.nslcp.ndir, &p->ws, err);
    const int n = mcd_nslcp_capacity(p->ws) + 1;
    if (st == MCD_OK)
        st = s->opt.solver == MCD_METHOD_NSLCP_JUDICE ? mcd_bpp_ws_create(n, &p->bpp, err)
                                                      : mcd_solver_ws_create(n, &p->lemke, err);
    if (st == MCD_OK &&
        (!(p->z = calloc((size_t)n, sizeof *p->z)) || !(p->w = calloc((size_t)n, sizeof *p->w))))
        st = mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    return st; /* on failure mcd_sim_create frees through mcd_sim_nslcp_free */
}

struct mcd_sim_nslcp *mcd_sim_nslcp_detach(mcd_sim *s)
{
    struct mcd_sim_nslcp *p = s->nslcp;
    s->nslcp = NULL;
    return p;
}

mcd_status mcd_sim_nslcp_carry(mcd_sim *s, struct mcd_sim_nslcp *old)
{
    mcd_status st = MCD_OK;
    if (old && s->nslcp) st = mcd_nslcp_ws_carry_memory(s->nslcp->ws, old->ws, &s->err);
    struct mcd_sim_nslcp *now = s->nslcp;
    s->nslcp = old;
    mcd_sim_nslcp_free(s);
    s->nslcp = now;
    return st;
}

mcd_nslcp_ws *mcd_sim_nslcp_ws(struct mcd_sim *s)
{
    return s && s->nslcp ? s->nslcp->ws : NULL;
}

/* Block pivoting; its residual is the natural-map error of the LCP. */
static mcd_status solve_judice(mcd_sim *s, const mcd_mlcp *p, int *iterations, double *residual,
                               mcd_error *e)
{
    struct mcd_sim_nslcp *ns = s->nslcp;
    mcd_bpp_opts o = mcd_bpp_default_opts();
    o.max_iter = s->opt.solver_opts.max_iter;
    mcd_bpp_stats bs;
    mcd_status r = mcd_bpp_solve(ns->bpp, p->n, p->M, p->q, &o, ns->z, ns->w, &bs, e);
    *iterations = bs.iterations, *residual = bs.residual;
    if (r == MCD_OK && !(bs.residual <= s->opt.solver_opts.tol))
        r = mcd_fail(e, MCD_ERR_NOT_CONVERGED, "block pivoting: residual %.3g > tol %.3g",
                     bs.residual, s->opt.solver_opts.tol);
    return r;
}

/* Lemke's method, from the previous step's solution (mcd_nslcp_start)
 * when the warm start is on and some contact of group g matched: its
 * complementary basis is Lemke's starting guess (lemke.h). */
static mcd_status solve_lemke(mcd_sim *s, int g, const mcd_mlcp *p, int *iterations,
                              double *residual, mcd_error *e)
{
    mcd_solver_stats ss;
    mcd_solver_opts o = s->opt.solver_opts;
    o.warm_start = mcd_sim_warm_group(s, g) && mcd_nslcp_start(s->nslcp->ws, s->nslcp->z) > 0;
    mcd_status r =
        mcd_solve_mlcp(s->nslcp->lemke, MCD_SOLVER_MLCP_LEMKE, p, &o, s->nslcp->z, &ss, e);
    *iterations = ss.iterations, *residual = ss.error;
    return r;
}

/* Group g's LCP built, solved (from zero, or Lemke's warm start) and taken when usable
 * (mcd_sim_group_solve). */
static mcd_status solve_group(mcd_sim *s, int g, int *iterations, double *residual, mcd_error *e)
{
    struct mcd_sim_nslcp *ns = s->nslcp;
    mcd_mlcp p;
    mcd_status r = mcd_nslcp_build_group(ns->ws, s->cws, g, e);
    if (r != MCD_OK) return r;
    mcd_nslcp_lcp(ns->ws, &p);
    memset(ns->z, 0, (size_t)p.n * sizeof *ns->z);
    r = s->opt.solver == MCD_METHOD_NSLCP_JUDICE ? solve_judice(s, &p, iterations, residual, e)
                                                 : solve_lemke(s, g, &p, iterations, residual, e);
    if (mcd_sim_solution_usable(s, r) &&
        mcd_nslcp_take_group(ns->ws, s->cws, g, ns->z, e) != MCD_OK)
        r = MCD_ERR_NONFINITE;
    return r;
}

mcd_status mcd_sim_solve_nslcp(mcd_sim *s, mcd_step_stats *st)
{
    mcd_error e = {0};
    mcd_status r = mcd_nslcp_setup(s->nslcp->ws, s->cws, s->ncontacts, s->contacts, &s->opt.nslcp,
                                   &s->opt.contact, &e);
    if (r != MCD_OK) return mcd_sim_solver_outcome(s, r, &e, st);
    return mcd_sim_solve_groups(s, solve_group, st);
}

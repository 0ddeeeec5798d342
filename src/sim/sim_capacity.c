/* The simulator's contact capacity (src/sim/sim_internal.h): every
 * workspace whose size depends on the number of contacts is made here for
 * the current capacity, and made again, larger, when a step's contact
 * provider reports more contacts than fit (MCD_ERR_CAPACITY). The capacity
 * starts at min(MCD_SIM_INITIAL_CONTACTS, max_contacts) and grows
 * geometrically up to the hard limit mcd_sim_options.max_contacts; a step
 * that does not need more allocates nothing. State that outlives a step
 * (the non-singular LCP's friction memory) is carried into the new
 * workspaces; the warm start's record is not (a step after a growth
 * starts cold, sim_warm.c). */
#include "sim_internal.h"

#include <stdint.h>
#include <stdlib.h>

#include "mcdyn/ccp.h"

#define MCD_SIM_INITIAL_CONTACTS 64

/* *out = a * b + c when it fits in an int (all >= 0). */
static int checked_size(long long a, long long b, long long c, int *out)
{
    const long long v = a * b + c; /* a, b, c <= INT_MAX: no overflow in 64 bits */
    if (a < 0 || b < 0 || c < 0 || v > INT32_MAX) return 0;
    *out = (int)v;
    return 1;
}

static void free_capacity(mcd_sim *s)
{
    mcd_sim_nslcp_free(s);
    mcd_sim_maxdiss_free(s);
    mcd_sim_impact_free(s);
    mcd_sim_warm_free(s);
    mcd_sim_warm_basis_free(s);
    mcd_contact_ws_free(s->cws);
    mcd_solver_ws_free(s->sws);
    free(s->contacts), free(s->z), free(s->u), free(s->ccp_work);
    s->cws = NULL, s->sws = NULL, s->contacts = NULL;
    s->z = s->u = s->ccp_work = NULL;
    s->cap = 0;
}

void mcd_sim_capacity_free(mcd_sim *s)
{
    free_capacity(s);
}

/* Every contact-sized workspace for cap contacts (cap <= max_contacts). */
static mcd_status make_capacity(mcd_sim *s, int cap, mcd_error *err)
{
    const int nf = s->opt.contact.nf > 4 ? s->opt.contact.nf : 4;
    int nz, nr;
    /* unknowns of the largest step problem: closure rows, then n_f + 2 per
     * contact for the MLCP (3 per contact for the others), plus one */
    if (!checked_size(cap, nf + 2, (long long)s->m->nclosure_rows + 1, &nz) ||
        !checked_size(cap, 3, s->m->nclosure_rows, &nr))
        return mcd_fail(err, MCD_ERR_NOMEM, "%d contacts: problem size overflows", cap);
    const mcd_fc3d largest = {.nc = cap, .nb = s->m->nclosure_rows};
    const size_t ccp = s->opt.solver == MCD_METHOD_CCP_ADMM  ? mcd_ccp_admm_work_size(&largest)
                       : s->opt.solver == MCD_METHOD_CCP_IPM ? mcd_ccp_ipm_work_size(&largest)
                                                             : mcd_ccp_work_size(&largest);
    mcd_status st;
    if ((st = mcd_contact_ws_create(s->m, s->d, cap, nf, &s->cws, err)) != MCD_OK ||
        (st = mcd_solver_ws_create(nz, &s->sws, err)) != MCD_OK)
        return st;
    s->contacts = calloc((size_t)cap, sizeof *s->contacts);
    s->z = calloc((size_t)nz, sizeof *s->z), s->u = calloc((size_t)nz, sizeof *s->u);
    s->ccp_work = calloc(ccp ? ccp : 1, sizeof *s->ccp_work);
    if (!s->contacts || !s->z || !s->u || !s->ccp_work || (ccp == 0 && nr > 0))
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory for %d contacts", cap);
    s->cap = cap;
    if ((st = mcd_sim_nslcp_create(s, err)) != MCD_OK ||
        (st = mcd_sim_maxdiss_create(s, err)) != MCD_OK ||
        (st = mcd_sim_impact_create(s, err)) != MCD_OK ||
        (st = mcd_sim_warm_create(s, err)) != MCD_OK ||
        (st = mcd_sim_warm_basis_create(s, err)) != MCD_OK)
        return st;
    return MCD_OK;
}

mcd_status mcd_sim_capacity_create(mcd_sim *s, mcd_error *err)
{
    const int limit = s->opt.max_contacts;
    const int cap = limit < MCD_SIM_INITIAL_CONTACTS ? limit : MCD_SIM_INITIAL_CONTACTS;
    mcd_status st = make_capacity(s, cap, err);
    if (st != MCD_OK) free_capacity(s);
    return st;
}

mcd_status mcd_sim_capacity_grow(mcd_sim *s, int needed)
{
    const int limit = s->opt.max_contacts;
    const int old = s->cap;
    if (old >= limit) return MCD_ERR_CAPACITY;
    long long cap = 2 * (long long)old;
    if (cap < needed) cap = needed;
    if (cap > limit) cap = limit;
    struct mcd_sim_nslcp *memory = mcd_sim_nslcp_detach(s); /* state kept across the growth */
    free_capacity(s);
    mcd_status st = make_capacity(s, (int)cap, &s->err);
    if (st == MCD_OK) return mcd_sim_nslcp_carry(s, memory);
    free_capacity(s); /* back to the old size, which fitted before */
    mcd_error keep = s->err;
    if (make_capacity(s, old, &s->err) != MCD_OK) free_capacity(s);
    s->err = keep;
    mcd_sim_nslcp_carry(s, memory); /* fits: the old size held it */
    return st;
}

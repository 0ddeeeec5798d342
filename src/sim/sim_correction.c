/* Where contacts come to rest (sim_internal.h; docs/contact.md, "Split
 * correction" and "Resting gap"): the position step of the split
 * penetration correction, each group's frictionless MLCP on its closure
 * and normal rows (contact.h, mcd_contact_correction_*) solved by Lemke's
 * method with its fallback chain (mlcp-lemke: Lemke, then proximal
 * PFB-PLM) at the step's tolerance, and the displacement it gives kept for
 * advance (sim.c); groups where nothing penetrates deeper than the
 * velocity step's resolution (the band, contact_correction.h) cost
 * nothing. And each provided contact's resting gap s, the gap the
 * correction and the speculative targets then drive it to. */
#include "sim_internal.h"
#include "../contact/contact_correction.h"

#include <string.h>

mcd_status mcd_sim_rest_contacts(mcd_sim *s, int n, mcd_error *err)
{
    for (int k = 0; k < n; k++) {
        mcd_contact_point *p = &s->contacts[k];
        if (!(p->resting_gap >= 0 && p->resting_gap <= MCD_CONTACT_MAX_RESTING_GAP))
            return mcd_fail(err, MCD_ERR_ARG, "contact %d: resting_gap = %g m: must be in [0, %g]",
                            k, p->resting_gap, MCD_CONTACT_MAX_RESTING_GAP);
        p->gap -= p->resting_gap;
    }
    return MCD_OK;
}

int mcd_sim_corrects_positions(const mcd_sim *s)
{
    return s->opt.contact.position_correction && s->opt.contact.penetration_gain > 0 &&
           s->opt.solver != MCD_METHOD_NSLCP_LEMKE && s->opt.solver != MCD_METHOD_NSLCP_JUDICE;
}

/* Group g's correction solved and taken; the failure policy of the step
 * (a best iterate used and counted under warn-and-continue; st gets the
 * failed status either way). */
static mcd_status correct_group(mcd_sim *s, int g, mcd_step_stats *st)
{
    mcd_mlcp p;
    mcd_status r = mcd_contact_group_correction_mlcp(s->cws, g, s->contacts, &s->opt.contact, &p);
    if (r != MCD_OK) return mcd_fail(&s->err, r, "t = %.6f: position correction not built", s->t);
    if (p.n == 0) return MCD_OK;
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MLCP_LEMKE);
    o.tol = s->opt.solver_opts.tol > 0 ? s->opt.solver_opts.tol : o.tol;
    mcd_solver_stats ss = {0};
    mcd_error e = {0};
    r = mcd_solve_mlcp(s->sws, MCD_SOLVER_MLCP_LEMKE, &p, &o, s->z, &ss, &e);
    if (mcd_sim_solution_usable(s, r) &&
        mcd_contact_group_take_correction(s->cws, g, s->z) != MCD_OK)
        r = MCD_ERR_NONFINITE;
    if (r != MCD_OK) st->solver_status = r;
    if (mcd_sim_failure_warned(s, r)) {
        s->solver_failures++;
        return MCD_OK;
    }
    if (r != MCD_OK)
        return mcd_fail(&s->err, r,
                        "t = %.6f: position correction of group %d (%d rows, mlcp-lemke): %s", s->t,
                        g, p.n, e.msg[0] ? e.msg : mcd_status_str(r));
    return MCD_OK;
}

/* The tolerance the step's velocity solve was accepted at (the method's
 * default for 0), which sets the depth it cannot resolve: penetrations
 * within dt tol |q_g| are left to it (contact_correction.h). */
static double velocity_tolerance(const mcd_sim *s)
{
    const double tol = s->opt.solver_opts.tol;
    return tol > 0 ? tol : mcd_step_method_default_opts(s->opt.solver).tol;
}

mcd_status mcd_sim_position_step(mcd_sim *s, mcd_step_stats *st)
{
    const int nv = s->m->nv;
    if (s->corrected) memset(s->correction, 0, (size_t)nv * sizeof *s->correction);
    s->corrected = 0;
    int needed = 0;
    mcd_status r = mcd_contact_correction_begin_within(s->m, s->d, s->cws, s->qd_new, s->contacts,
                                                       velocity_tolerance(s), &needed);
    for (int g = 0; r == MCD_OK && needed && g < mcd_contact_group_count(s->cws); g++)
        r = correct_group(s, g, st);
    if (r == MCD_OK && needed)
        r = mcd_contact_correction_displacement(s->m, s->d, s->cws, s->correction);
    s->corrected = needed && r == MCD_OK;
    if (r != MCD_OK && !s->err.msg[0]) mcd_fail(&s->err, r, "t = %.6f: position correction", s->t);
    return r;
}

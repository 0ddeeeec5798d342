/* Impact laws other than Newton's restitution (src/sim/sim_internal.h). */
#include "sim_internal.h"

mcd_status mcd_sim_impact_create(mcd_sim *s, mcd_error *err)
{
    (void)s, (void)err;
    return MCD_OK;
}

void mcd_sim_impact_free(mcd_sim *s)
{
    (void)s;
}

mcd_status mcd_sim_impact_phase(mcd_sim *s, mcd_step_stats *st)
{
    (void)st;
    if (s->opt.impact_law == MCD_IMPACT_NEWTON) return MCD_OK;
    return mcd_fail(&s->err, MCD_ERR_UNSUPPORTED, "impact law %s is not available yet",
                    mcd_impact_law_name(s->opt.impact_law));
}

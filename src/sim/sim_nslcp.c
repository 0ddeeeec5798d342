/* The non-singular friction LCP of Peiret et al. (2017) as a step method
 * (src/sim/sim_internal.h). */
#include "sim_internal.h"

mcd_status mcd_sim_nslcp_create(mcd_sim *s, mcd_error *err)
{
    (void)s, (void)err;
    return MCD_OK;
}

void mcd_sim_nslcp_free(mcd_sim *s)
{
    (void)s;
}

mcd_status mcd_sim_solve_nslcp(mcd_sim *s, mcd_step_stats *st)
{
    (void)st;
    return mcd_fail(&s->err, MCD_ERR_UNSUPPORTED, "%s is not available yet",
                    mcd_step_method_name(s->opt.solver));
}

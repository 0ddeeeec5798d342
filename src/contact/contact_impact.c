/* Support of the impact laws other than Newton's (include/mcdyn/contact.h):
 * the impact problem at the pre-step velocities and the prior impulse P
 * that the impact phase adds to the step (docs/theory/impacts.md). With P
 * the step's velocities are nu+ = nu_free + W (P + lambda): the free
 * velocities and the problems' q move by W P, lambda is the solve's impulse
 * and P is added to it when it is taken (contact_problem.c). */
#include "contact_internal.h"

#include <math.h>

/* The impact problem goes to the solver layer as an mcd_fc3d: the contact
 * layer's names of a contact's rows must be the solver layer's. */
_Static_assert((int)MCD_ROW_N == (int)MCD_FC3D_N && (int)MCD_ROW_F == (int)MCD_FC3D_T1 &&
                   (int)MCD_ROW_O == (int)MCD_FC3D_T2,
               "contact.h's mcd_contact_row and problem.h's mcd_fc3d_row name the same rows");

mcd_status mcd_contact_impact_problem(mcd_contact_ws *w, mcd_fc3d *out)
{
    if (!w || !out) return MCD_ERR_ARG;
    if (mcd_contact_assemble_whole(w) != MCD_OK) return MCD_ERR_NOMEM;
    out->nc = w->nc;
    out->nb = w->nb;
    out->W = w->W.p;
    out->q = w->nu_minus;
    out->mu = w->mu;
    return MCD_OK;
}

mcd_status mcd_contact_add_impulse(mcd_contact_ws *w, const double *P)
{
    if (!w || (!P && w->nrows > 0)) return MCD_ERR_ARG;
    const int n = w->nrows;
    for (int i = 0; i < n; i++)
        if (!isfinite(P[i])) return MCD_ERR_NONFINITE;
    if (mcd_contact_assemble_whole(w) != MCD_OK) return MCD_ERR_NOMEM;
    for (int i = 0; i < n; i++) {
        double dv = 0.0;
        for (int j = 0; j < n; j++) dv += w->W.p[(size_t)i * n + j] * P[j];
        w->nu_free[i] += dv;
        w->fc_q[i] += dv;
    }
    for (int i = 0; i < n; i++) w->prior[i] += P[i];
    return MCD_OK;
}

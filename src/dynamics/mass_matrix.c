/* Composite-rigid-body mass matrix M = H phi M phi^* H^* by composite
 * inertias R(k) = M(k) + sum_children R(child) (tip to base, into d->R;
 * referred to the world origin, phi moves them unchanged), then for each
 * body F = R(k) H^*(k) and M(j, k) = H(j) F for k and each ancestor j
 * (Jain, "Robot and Multibody Dynamics", Ch. 6). O(N d) for tree depth d;
 * M is formed only here — every other algorithm avoids it. */
#include "dynamics_internal.h"

#include <string.h>

mcd_status mcd_mass_matrix(const mcd_model *m, mcd_data *d, const double *q, double *M)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s == MCD_OK && !M) s = mcd_fail(&d->err, MCD_ERR_ARG, "M is NULL");
    if (s != MCD_OK) return s;
    mcd_kinematics_pass(m, d, q);
    const int nv = m->nv;
    memset(M, 0, (size_t)nv * (size_t)nv * sizeof *M);
    for (int k = 0; k < m->nbody; k++) d->R[k] = d->bd[k].M;
    for (int k = m->nbody - 1; k >= 0; k--) {
        const mcd_body *B = &m->body[k];
        if (B->parent >= 0) mcd_sym6_add(&d->R[B->parent], &d->R[k]);
        double F[36];
        for (int c = 0; c < B->nv; c++)
            mcd_sym6_mul_v(F + 6 * c, &d->R[k], d->Hstar + 6 * (B->vadr + c));
        for (int j = k; j >= 0; j = m->body[j].parent) {
            const mcd_body *J = &m->body[j];
            for (int c = 0; c < B->nv; c++) {
                double col[6];
                mcd_hinge_project(col, d->Hstar + 6 * J->vadr, J->nv, F + 6 * c);
                for (int r = 0; r < J->nv; r++) {
                    M[(J->vadr + r) * nv + B->vadr + c] = col[r];
                    M[(B->vadr + c) * nv + J->vadr + r] = col[r];
                }
            }
        }
    }
    return MCD_OK;
}

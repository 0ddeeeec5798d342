/* Composite-rigid-body mass matrix: M = H phi M_c phi^* H^* evaluated by
 * composite inertias R(k) = M(k) + sum_children phi R(child) phi^T (tip to
 * base), then for each body F = R(k) S_k, M_kk = S_k^T F, and walking F up
 * the ancestors j: M_jk = S_j^T (phi F). O(N d) for depth d; M is formed
 * only here — every other algorithm avoids it. */
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
    for (int k = 0; k < m->nbody; k++) d->bd[k].P = m->body[k].inertia;
    for (int k = m->nbody - 1; k >= 0; k--) {
        const mcd_body *B = &m->body[k];
        mcd_body_data *b = &d->bd[k];
        if (B->parent >= 0) {
            mcd_sym6 Rp;
            mcd_sym6_to_parent(&Rp, &b->X_parent, &b->P);
            mcd_sym6_add(&d->bd[B->parent].P, &Rp);
        }
        double F[36], G[36];
        for (int c = 0; c < B->nv; c++) mcd_sym6_mul_v(F + 6 * c, &b->P, b->S + 6 * c);
        for (int c = 0; c < B->nv; c++) {
            double col[6];
            mcd_hinge_project(col, b->S, B->nv, F + 6 * c);
            for (int r = 0; r < B->nv; r++) M[(B->vadr + r) * nv + B->vadr + c] = col[r];
        }
        for (int j = k; m->body[j].parent >= 0; j = m->body[j].parent) {
            const mcd_pose *X = &d->bd[j].X_parent;
            for (int c = 0; c < B->nv; c++) {
                mcd_force_to_parent(G + 6 * c, X, F + 6 * c);
                memcpy(F + 6 * c, G + 6 * c, 6 * sizeof *F);
            }
            const int p = m->body[j].parent;
            const mcd_body *P = &m->body[p];
            for (int c = 0; c < B->nv; c++) {
                double col[6];
                mcd_hinge_project(col, d->bd[p].S, P->nv, F + 6 * c);
                for (int r = 0; r < P->nv; r++) {
                    M[(P->vadr + r) * nv + B->vadr + c] = col[r];
                    M[(B->vadr + c) * nv + P->vadr + r] = col[r];
                }
            }
        }
    }
    return MCD_OK;
}

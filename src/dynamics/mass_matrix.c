/* Composite-rigid-body mass matrix M = H phi M phi^* H^* by composite
 * inertias R(k) = M(k) + sum_children R(child) (tip to base, into d->R;
 * referred to the world origin, phi moves them unchanged), then for each
 * body F = R(k) H^*(k) and M(j, k) = H(j) F for k and each ancestor j
 * (Jain, "Robot and Multibody Dynamics", Ch. 6). O(N d) for tree depth d;
 * M is formed only here — every other algorithm avoids it. */
#include "dynamics_internal.h"

#include <string.h>

/* M(j, k) = H(j) F for body k's F = R(k) H^*(k) (n columns) and each
 * ancestor j, both triangles; inlined with n = 1 for one-column hinges. */
static inline void mass_matrix_columns(const mcd_model *m, const mcd_data *d, int k, int n,
                                       const double *F, double *M)
{
    const int nv = m->nv, vk = m->body[k].vadr;
    for (int j = k; j >= 0; j = m->body[j].parent) {
        const mcd_body *J = &m->body[j];
        for (int c = 0; c < n; c++) {
            double col[6];
            mcd_hinge_project(col, d->Hstar + 6 * J->vadr, J->nv, F + 6 * c);
            for (int r = 0; r < J->nv; r++) {
                M[(J->vadr + r) * nv + vk + c] = col[r];
                M[(vk + c) * nv + J->vadr + r] = col[r];
            }
        }
    }
}

/* R(k) tip to base and the columns of M they give. */
static void composite_loop(const mcd_model *m, mcd_data *d, double *M)
{
    for (int k = m->nbody - 1; k >= 0; k--) {
        const mcd_body *B = &m->body[k];
        const mcd_body_plan *plan = &d->plan[k];
        if (plan->leaf) /* else complete: its children added to it */
            mcd_rigid_inertia_to_sym6(&d->R[k], &d->bd[k].M);
        if (B->parent >= 0) { /* R(parent) = M(parent) or R(parent), + R(k) (mcd_body_plan) */
            mcd_sym6 M_parent;
            if (plan->starts_parent) mcd_rigid_inertia_to_sym6(&M_parent, &d->bd[B->parent].M);
            mcd_sym6_sum(&d->R[B->parent], plan->starts_parent ? &M_parent : &d->R[B->parent],
                         &d->R[k]);
        }
        double F[36];
        for (int c = 0; c < B->nv; c++)
            mcd_sym6_mul_v(F + 6 * c, &d->R[k], d->Hstar + 6 * (B->vadr + c));
        if (B->nv == 1)
            mass_matrix_columns(m, d, k, 1, F, M);
        else
            mass_matrix_columns(m, d, k, B->nv, F, M);
    }
}
MCD_AVX2_TWIN(composite_loop, (const mcd_model *m, mcd_data *d, double *M), (m, d, M))

mcd_status mcd_mass_matrix(const mcd_model *m, mcd_data *d, const double *q, double *M)
{
    mcd_status s = mcd_check_state(m, d, q);
    if (s == MCD_OK && !M) s = mcd_fail(&d->err, MCD_ERR_ARG, "M is NULL");
    if (s != MCD_OK) return s;
    mcd_kinematics_pass(m, d, q);
    memset(M, 0, (size_t)m->nv * (size_t)m->nv * sizeof *M);
    MCD_RUN(d, composite_loop, (m, d, M));
    return MCD_OK;
}

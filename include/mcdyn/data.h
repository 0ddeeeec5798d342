/* mcdyn — per-simulation workspace (after MuJoCo's mjModel / mjData split).
 *
 * An mcd_data is made for one model and holds every intermediate quantity
 * of the algorithms in preallocated arrays indexed by body. Nothing is
 * allocated after mcd_data_create; the algorithms in dynamics.h only write
 * into it. One mcd_data per thread.
 */
#ifndef MCDYN_DATA_H
#define MCDYN_DATA_H

#include "mcdyn/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per-body intermediate quantities, one struct per body (array of structs,
 * so one recursion step touches one contiguous block).
 *
 * Spatial quantities are referred to the world origin in world axes
 * ("absolute" coordinates): Jain's recursions are coordinate-free, and in
 * this frame the rigid-body transformation phi(parent, k) needed to move
 * forces and inertias between bodies is the identity, so the recursions
 * accumulate without transforms (docs/theory/spatial-operators.md). */
typedef struct mcd_body_data {
    mcd_pose X_world; /* body frame in the world */
    mcd_sym6 I;       /* rigid-body spatial inertia M(k) */
    double V[6];      /* spatial velocity [w; v] (v: velocity of the point at the origin) */
    double c[6];      /* velocity-product term: the time derivative of H^* times qd */
    double a[6];      /* spatial acceleration (RNEA / ABA) */
    double f[6];      /* spatial force: RNEA body force; ABA bias force z */
    mcd_sym6 P;       /* articulated-body inertia P (Jain) / composite inertia (CRBA) */
    double Dinv[36];  /* D^{-1} = (H P H^*)^{-1}, nv x nv row-major */
    double u[6];      /* innovations epsilon = T - H z, nv entries */
} mcd_body_data;

typedef struct mcd_data {
    const mcd_model *model;
    mcd_body_data *bd; /* model->nbody entries */
    double *S;         /* hinge maps H^*: 6 entries per velocity coordinate (nv x 6) */
    double *U;         /* P H^*: 6 entries per velocity coordinate (nv x 6) */
    double *q, *qd;    /* state scratch owned by data (nq, nv), for convenience */
    double *tmp_nv;    /* nv scratch */
    double *tmp_nv2;   /* nv scratch */
    int factor_valid;  /* 1 after mcd_minv_factor on the current configuration */
    /* NULL, or nv terms >= 0 added to the diagonal of M by the articulated-body
     * factorization, which then factors M + diag(hinge_diagonal) (each term
     * joins D(k) = H P H^* of its hinge, as MuJoCo's armature): the
     * simulator's implicit damping sets it to h (k_d + b) during a step
     * (sim.h) */
    const double *hinge_diagonal;
    struct mcd_osc_ws *osc;         /* operational-space workspace (osc.h) */
    struct mcd_closure_ws *closure; /* loop-closure workspace (closure.h), NULL without closures */
    mcd_error err;                  /* last error */
    mcd_error warn;                 /* last warning (e.g. redundant closures regularised) */
    long warn_count;                /* warnings recorded since creation */
} mcd_data;

mcd_status mcd_data_create(const mcd_model *m, mcd_data **out, mcd_error *err);
void mcd_data_free(mcd_data *d);

/* The last error message recorded in d ("" if none). */
const char *mcd_data_error(const mcd_data *d);

#ifdef __cplusplus
}
#endif
#endif

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
 * so one recursion step touches one contiguous block). Frames are the body
 * frames; every spatial quantity is in body coordinates unless noted. */
typedef struct mcd_body_data {
    mcd_pose X_parent; /* body frame in the parent body frame (X_tree * joint motion) */
    mcd_pose X_world;  /* body frame in the world */
    double S[36];      /* hinge map H^* : nv columns of 6 (column-major), body coords */
    double V[6];       /* spatial velocity of the body [w; v] */
    double c[6];       /* velocity-product (Coriolis) acceleration term */
    double a[6];       /* spatial acceleration (RNEA / ABA) */
    double f[6];       /* spatial force: RNEA body force, ABA bias force p */
    mcd_sym6 P;        /* articulated-body inertia P (Jain) / composite inertia (CRBA) */
    double U[36];      /* P H^*, nv columns of 6 */
    double Dinv[36];   /* D^{-1} = (H P H^*)^{-1}, nv x nv row-major */
    double u[6];       /* innovations residual epsilon = T - H z, nv entries */
} mcd_body_data;

typedef struct mcd_data {
    const mcd_model *model;
    mcd_body_data *bd;   /* model->nbody entries */
    double *q, *qd;      /* state scratch owned by data (nq, nv), for convenience */
    double *tmp_nv;      /* nv scratch */
    double *tmp_nv2;     /* nv scratch */
    int factor_valid;    /* 1 after mcd_minv_factor on the current configuration */
    mcd_error err;       /* last error */
} mcd_data;

mcd_status mcd_data_create(const mcd_model *m, mcd_data **out, mcd_error *err);
void mcd_data_free(mcd_data *d);

/* The last error message recorded in d ("" if none). */
const char *mcd_data_error(const mcd_data *d);

#ifdef __cplusplus
}
#endif
#endif

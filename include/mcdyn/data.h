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
 * Names follow Jain's spatial operator algebra ("Robot and Multibody
 * Dynamics", 2011; docs/theory/spatial-operators.md), one meaning per field.
 * Spatial quantities are referred to the world origin in world axes
 * ("absolute" coordinates): Jain's recursions are coordinate-free, and in
 * this frame the rigid-body transformation phi(parent, k) needed to move
 * forces and inertias between bodies is the identity, so the recursions
 * accumulate without transforms. Per-hinge quantities (H^*, G, D^{-1}, nu)
 * live in mcd_data, indexed by the body's velocity address. Each field
 * holds the result of the last algorithm that wrote it (dynamics.h). */
typedef struct mcd_body_data {
    mcd_pose X_world;    /* body frame in the world (kinematics) */
    mcd_rigid_inertia M; /* rigid-body spatial inertia M(k) about the world origin, in 10 numbers */
    double V[6];     /* spatial velocity V(k) = [w; v] (v: velocity of the point at the origin) */
    double a[6];     /* Coriolis acceleration a(k) = d/dt(H^*(k)) qd(k) */
    double alpha[6]; /* spatial acceleration alpha(k) (Newton-Euler, forward dynamics) */
    double z[6];     /* articulated-body residual force z(k), accumulated from b(k) - f_ext */
} mcd_body_data;

typedef struct mcd_data {
    const mcd_model *model;
    mcd_body_data *bd; /* model->nbody entries */
    /* Per hinge, at 6 vadr (6 doubles per velocity coordinate): */
    double *Hstar; /* hinge map H^*(k): nv(k) columns of 6, referred to the world origin */
    double *G;     /* Kalman gain G(k) = P(k) H^*(k) D(k)^{-1}: nv(k) columns of 6 */
    double *Dinv;  /* D(k)^{-1} = (H P H^*)^{-1}: nv(k) x nv(k), row-major, the hinges' blocks
                    * one after the other (a one-column hinge's is one number) */
    double *nu;    /* nu(k) = D(k)^{-1} eps(k), eps = T - H z (nv entries, at vadr) */
    /* Articulated-body inertias P(k) (Jain Ch. 7; P+(k) is never stored)
     * during the tip-to-base sweep: P(k) lives from its first child's
     * visit to its own in one of a few reused slots (a chain needs two),
     * not per body, so no P(k) survives the sweep. */
    mcd_sym6 *P;
    mcd_sym6 *R;      /* composite-body inertia R(k) of the mass matrix (nbody entries) */
    double *f;        /* Newton-Euler body force f(k) of inverse dynamics: 6 per body */
    double *q, *qd;   /* state scratch owned by data (nq, nv), for convenience */
    double *tmp_nv;   /* nv scratch */
    double *tmp_nv2;  /* nv scratch */
    int factor_valid; /* 1 after mcd_minv_factor on the current configuration */
    /* 1: the dynamics' recursion passes run their AVX2 build, 0: the
     * portable one; the results are bit-identical (dynamics.h). Set by
     * mcd_data_create from the CPU and the environment; may be set to 0. */
    int use_avx2;
    /* NULL, or nv terms >= 0 added to the diagonal of M by the articulated-body
     * factorization, which then factors M + diag(hinge_diagonal) (each term
     * joins D(k) = H P H^* of its hinge, as MuJoCo's armature): the
     * simulator's implicit damping sets it to h (k_d + b) during a step
     * (sim.h) */
    const double *hinge_diagonal;
    struct mcd_body_plan *plan;     /* per body: how the kinematics pass moves it (private) */
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

/* Private: loop-closure workspace and row assembly shared by the closure
 * algorithms (closure_rows.c, closure_solve.c, closure_dynamics.c). */
#ifndef MCDYN_SRC_CLOSURE_INTERNAL_H
#define MCDYN_SRC_CLOSURE_INTERNAL_H

#include "dynamics_internal.h"
#include "mcdyn/closure.h"
#include "mcdyn/osc.h"

typedef struct mcd_closure_ws {
    int rows;             /* r = model->nclosure_rows */
    int npts;             /* points in use: A (and B unless on the world) of each closure */
    mcd_osc_point *pts;   /* 2 nclosure */
    int *pt_a, *pt_b;     /* per closure: point indices of A and B (-1: world) */
    double *coef;         /* 6 per row: a_i, row value a_i . (V_A - V_B) */
    int *row_closure;     /* closure of each row */
    int *row_pa, *row_pb; /* points of each row (pb -1: the world) */
    double *Lambda;       /* (6 npts)^2 */
    double *A;            /* r x r: Q_b Lambda Q_b^T */
    double *evec;         /* r x r eigenvectors */
    double *eval;         /* r eigenvalues */
    double *work;         /* LAPACK workspace */
    int lwork;
    double *rhs, *sol; /* r */
    double *F;         /* 6 per point: Q_b^T p */
    double *vA, *vB;   /* 6 per closure: point velocities */
    double *aA, *aB;   /* 6 per closure: point accelerations */
    double *dq;        /* nv */
} mcd_closure_ws;

mcd_status mcd_closure_ws_create(mcd_data *d);
void mcd_closure_ws_free(mcd_data *d);

/* With kinematics done: closure frames in the world, points and rows. */
void mcd_closure_frames(const mcd_model *m, const mcd_data *d, int c, mcd_pose *XA, mcd_pose *XB);
void mcd_closure_assemble_rows(const mcd_model *m, mcd_data *d);

/* phi at the configuration of the last kinematics pass. */
void mcd_closure_errors_now(const mcd_model *m, const mcd_data *d, double *phi);

/* Spatial velocity (and acceleration) of a point on a body from the body's
 * absolute V (and true absolute acceleration a): classical quantities at x. */
void mcd_point_motion(const double V[6], const double x[3], double out[6]);
void mcd_point_acceleration(const double V[6], const double a[6], const double x[3], double out[6]);

/* Row values a_i . (Y_A - Y_B) for per-closure point quantities Y (6 each). */
void mcd_closure_row_values(const mcd_model *m, const mcd_closure_ws *w, const double *YA,
                            const double *YB, double *out);

/* A = Q_b Lambda Q_b^T at the current factorization. */
mcd_status mcd_closure_compliance(const mcd_model *m, mcd_data *d);

/* sol = A^+ rhs by eigen-decomposition; warns when A is rank deficient. */
mcd_status mcd_closure_solve(mcd_data *d);

/* dq = M^{-1} G_b^T sol (O(N)). */
void mcd_closure_apply(const mcd_model *m, mcd_data *d, double *dq);

#endif

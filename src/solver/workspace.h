/* Private: the solver workspace (solver.h's opaque mcd_solver_ws). All
 * memory of every solve comes from here; solver.c lends its arrays to the
 * algorithm being run. */
#ifndef MCDYN_SOLVER_WORKSPACE_H
#define MCDYN_SOLVER_WORKSPACE_H

#include "lm_sparse.h"
#include "sparse_cholesky.h"
#include "sparse_lu.h"
#include "mcdyn/solver.h"

#include <stddef.h>

#define MCD_WS_VECTORS     15 /* double vectors of 2 n_max each */
#define MCD_WS_INT_VECTORS 8  /* int vectors of n_max each */

struct mcd_solver_ws {
    int n_max;
    double *mat1;  /* n_max^2 */
    double *mat2;  /* n_max^2 */
    double *mat3;  /* 2 n_max (n_max + 1) */
    double *mat4;  /* n_max^2: the proximal stage's shifted matrix */
    double *vec;   /* MCD_WS_VECTORS x 2 n_max */
    int *ivec;     /* MCD_WS_INT_VECTORS x n_max */
    double *lwork; /* LAPACK work for dgels on (2 n_max) x n_max */
    int lwork_len;
    mcd_lm_sparse *sparse;                /* PLM's sparse step, set up per solve (lm_sparse.h) */
    mcd_sparse_lu *sparse_lu;             /* NSN's sparse step, set up per run (sparse_lu.h) */
    mcd_sparse_cholesky *sparse_cholesky; /* ADMM's and ccp-ipm's factor, set up per solve */
};

/* Vector slot k (2 n_max doubles); slots k and k + 1 are contiguous. */
static inline double *mcd_ws_vec(const mcd_solver_ws *ws, int k)
{
    return ws->vec + (size_t)k * 2 * (size_t)ws->n_max;
}

static inline int *mcd_ws_ivec(const mcd_solver_ws *ws, int k)
{
    return ws->ivec + (size_t)k * (size_t)ws->n_max;
}

#endif

/* Solver workspace: the one allocation of the solver layer (workspace.h). */
#include "workspace.h"

#include "../base/lapack.h"

#include <stdlib.h>

/* Optimal dgels work length for a (2n) x n least-squares problem, which
 * also covers every smaller n. */
static int dgels_work_length(int n)
{
    int m = 2 * n, one = 1, query = -1, info;
    double opt = 0.0, unused = 0.0; /* a and b are not read by a query */
    dgels_("N", &m, &n, &one, &unused, &m, &unused, &m, &opt, &query, &info);
    int len = info == 0 ? (int)opt : 0;
    /* dgels' minimum: min(m, n) + max(min(m, n), 1); the polish's dgesvd
     * of an n x n matrix needs 5 n (fc3d_polish.h) */
    return len > 5 * n ? len : 5 * n;
}

mcd_status mcd_solver_ws_create(int n, mcd_solver_ws **out, mcd_error *err)
{
    if (!out || n <= 0)
        return mcd_fail(err, MCD_ERR_ARG, "mcd_solver_ws_create: invalid size %d", n);
    *out = NULL;
    mcd_solver_ws *ws = calloc(1, sizeof *ws);
    if (!ws) return mcd_fail(err, MCD_ERR_NOMEM, "mcd_solver_ws_create: out of memory");
    size_t nn = (size_t)n;
    ws->n_max = n;
    ws->lwork_len = dgels_work_length(n);
    ws->mat1 = calloc(nn * nn, sizeof *ws->mat1);
    ws->mat2 = calloc(nn * nn, sizeof *ws->mat2);
    ws->mat3 = calloc(2 * nn * (nn + 1), sizeof *ws->mat3);
    ws->mat4 = calloc(nn * nn, sizeof *ws->mat4);
    ws->vec = calloc(MCD_WS_VECTORS * 2 * nn, sizeof *ws->vec);
    ws->ivec = calloc(MCD_WS_INT_VECTORS * nn, sizeof *ws->ivec);
    ws->lwork = calloc((size_t)ws->lwork_len, sizeof *ws->lwork);
    ws->sparse = mcd_lm_sparse_create();
    ws->sparse_lu = mcd_sparse_lu_create();
    ws->sparse_cholesky = mcd_sparse_cholesky_create();
    if (!ws->mat1 || !ws->mat2 || !ws->mat3 || !ws->mat4 || !ws->vec || !ws->ivec || !ws->lwork ||
        !ws->sparse || !ws->sparse_lu || !ws->sparse_cholesky) {
        mcd_solver_ws_free(ws);
        return mcd_fail(err, MCD_ERR_NOMEM, "mcd_solver_ws_create: out of memory for n = %d", n);
    }
    *out = ws;
    return MCD_OK;
}

void mcd_solver_ws_free(mcd_solver_ws *ws)
{
    if (!ws) return;
    free(ws->mat1);
    free(ws->mat2);
    free(ws->mat3);
    free(ws->mat4);
    free(ws->vec);
    free(ws->ivec);
    free(ws->lwork);
    mcd_lm_sparse_free(ws->sparse);
    mcd_sparse_lu_free(ws->sparse_lu);
    mcd_sparse_cholesky_free(ws->sparse_cholesky);
    free(ws);
}

int mcd_solver_ws_capacity(const mcd_solver_ws *ws)
{
    return ws ? ws->n_max : 0;
}

/* Reference operational-space compliance from the dense J M^{-1} J^T:
 * composite-body mass matrix, Cholesky factorization (LAPACK dpotrf) and
 * solves (dpotrs) with the point Jacobians. O(N^3); for validation and for
 * the benchmark against the O(N) recursion. Allocates its own workspace. */
#include "../base/lapack.h"
#include "dynamics_internal.h"
#include "mcdyn/osc.h"

#include <stdlib.h>
#include <string.h>

mcd_status mcd_osc_compliance_dense(const mcd_model *m, mcd_data *d, const double *q, int K,
                                    const mcd_osc_point *pts, mcd_osc_rows rows, double *Lambda)
{
    if (!m || !d || K < 1 || !pts || !Lambda || (rows != MCD_OSC_SPATIAL && rows != MCD_OSC_LINEAR))
        return MCD_ERR_ARG;
    const int nv = m->nv, r = (int)rows, nr = r * K;
    double *M = malloc((size_t)nv * nv * sizeof *M);
    double *J = malloc((size_t)nr * nv * sizeof *J), *X = malloc((size_t)nr * nv * sizeof *X);
    double *Jp = malloc(6 * (size_t)nv * sizeof *Jp);
    mcd_status s = (M && J && X && Jp) ? MCD_OK : mcd_fail(&d->err, MCD_ERR_NOMEM, "out of memory");
    if (s == MCD_OK) s = mcd_mass_matrix(m, d, q, M);
    for (int i = 0; s == MCD_OK && i < K; i++) { /* J rows of point i (world position given) */
        if (pts[i].body < 0 || pts[i].body >= m->nbody) {
            s = mcd_fail(&d->err, MCD_ERR_ARG, "point %d: body out of range", i);
            break;
        }
        double local[3];
        mcd_pose inv;
        mcd_pose_inv(&inv, &d->bd[pts[i].body].X_world);
        mcd_pose_apply(local, &inv, pts[i].x);
        s = mcd_point_jacobian(m, d, q, pts[i].body, local, MCD_REF_WORLD, Jp);
        memcpy(J + (size_t)r * i * nv, Jp + (size_t)(6 - r) * nv, (size_t)r * nv * sizeof *J);
    }
    if (s == MCD_OK) {
        /* Row-major M is its own column-major transpose (symmetric). X holds J^T
         * column-major: column c of X is row c of J, i.e. X = J row-major. */
        int info = 0;
        memcpy(X, J, (size_t)nr * nv * sizeof *X);
        dpotrf_("L", &nv, M, &nv, &info);
        if (info == 0) dpotrs_("L", &nv, &nr, M, &nv, X, &nv, &info);
        if (info != 0)
            s = mcd_fail(&d->err, MCD_ERR_SINGULAR, "dense reference: M not positive definite");
    }
    for (int i = 0; s == MCD_OK && i < nr; i++) /* Lambda = J (M^{-1} J^T) */
        for (int j = 0; j < nr; j++) {
            double t = 0.0;
            for (int k = 0; k < nv; k++) t += J[(size_t)i * nv + k] * X[(size_t)j * nv + k];
            Lambda[(size_t)i * nr + j] = t;
        }
    free(M), free(J), free(X), free(Jp);
    return s;
}

/* mcdyn — complementarity problem types (pure numerics, no mechanics).
 *
 * All matrices are dense, row-major. A problem struct does not own its
 * arrays unless it was made by mcd_mlcp_alloc / mcd_fc3d_alloc (then
 * mcd_mlcp_free / mcd_fc3d_free release them).
 */
#ifndef MCDYN_PROBLEM_H
#define MCDYN_PROBLEM_H

#include "mcdyn/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Mixed (box) linear complementarity problem: find z with lo <= z <= hi and
 * w = M z + q such that for each row i
 *     z_i = lo_i  =>  w_i >= 0,   lo_i < z_i < hi_i  =>  w_i = 0,   z_i = hi_i  =>  w_i <= 0.
 * Equality (free) rows: lo = -inf, hi = +inf. Complementarity rows: lo = 0,
 * hi = +inf. An LCP is an MLCP whose rows are all complementarity rows.
 * Any finite lo (lower-bounded row), any finite hi (upper-bounded row) and
 * both finite (box row, lo <= hi) are allowed; see solver.h for which
 * solver accepts which row kinds. */
typedef struct mcd_mlcp {
    int n;
    double *M;  /* n x n */
    double *q;  /* n */
    double *lo; /* n, may hold -INFINITY */
    double *hi; /* n, may hold +INFINITY */
} mcd_mlcp;

/* 3D frictional contact problem with optional bilateral rows (Siconos'
 * "local" problem extended by equality rows, the MNCP of Mylapilli & Jain
 * Eq. (55)-(56)). Unknowns r (size nb + 3 nc), velocities u = W r + q.
 * Rows [0, nb): bilateral, u_i = 0 with r_i free.
 * Contact k occupies rows nb + 3k + {0, 1, 2} = (normal, tangent 1,
 * tangent 2), Siconos' order, and satisfies Coulomb's law with mu[k]:
 *     r in K_mu,  u + mu |u_T| e_n in K_mu*,  r . (u + mu |u_T| e_n) = 0,
 * K_mu = {r_n >= 0, |r_T| <= mu r_n}.
 * The paper orders a contact (f, o, eta) = (tangent, tangent, normal); the
 * map is (normal, t1, t2) = (eta, f, o), see docs/solvers.md. */
typedef struct mcd_fc3d {
    int nc;     /* contacts */
    int nb;     /* bilateral rows */
    double *W;  /* (nb + 3nc) x (nb + 3nc) */
    double *q;  /* nb + 3nc */
    double *mu; /* nc, >= 0 */
} mcd_fc3d;

/* A contact's rows from its first row nb + 3k, Siconos' order: normal
 * first, then the two tangents (row nb + 3k + MCD_FC3D_T1, ...). The
 * contact layer's mcd_contact_row (MCD_ROW_N, MCD_ROW_F, MCD_ROW_O in
 * contact.h) names the same rows and agrees: contact_impact.c checks it
 * at compile time. */
typedef enum mcd_fc3d_row {
    MCD_FC3D_N = 0,   /* normal */
    MCD_FC3D_T1 = 1,  /* first tangent */
    MCD_FC3D_T2 = 2,  /* second tangent */
    MCD_FC3D_ROWS = 3 /* rows per contact */
} mcd_fc3d_row;

static inline int mcd_fc3d_size(const mcd_fc3d *p)
{
    return p->nb + 3 * p->nc;
}

/* Allocate the arrays of a problem of the given size: M/W and q zeroed,
 * lo = 0 and hi = +inf (an LCP), mu = 0. MCD_ERR_ARG for negative sizes,
 * MCD_ERR_NOMEM if allocation fails (p is then left empty). */
mcd_status mcd_mlcp_alloc(mcd_mlcp *p, int n, mcd_error *err);
/* Frees arrays made by mcd_mlcp_alloc and zeroes p (p may be NULL). */
void mcd_mlcp_free(mcd_mlcp *p);
mcd_status mcd_fc3d_alloc(mcd_fc3d *p, int nc, int nb, mcd_error *err);
void mcd_fc3d_free(mcd_fc3d *p);

/* Validates sizes, finiteness of M/W and q, lo <= hi, mu >= 0 and finite.
 * NULL arrays or negative sizes: MCD_ERR_ARG; NaN/Inf in M, W, q, mu, or
 * NaN / lo = +inf / hi = -inf in the bounds: MCD_ERR_NONFINITE; lo > hi or
 * mu < 0: MCD_ERR_ARG. The message names the first offending entry. */
mcd_status mcd_mlcp_check(const mcd_mlcp *p, mcd_error *err);
mcd_status mcd_fc3d_check(const mcd_fc3d *p, mcd_error *err);

#ifdef __cplusplus
}
#endif
#endif

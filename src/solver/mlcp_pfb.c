/* MLCP reformulated with the penalized Fischer-Burmeister function
 * (mlcp_pfb.h; Mylapilli & Jain Eq. (9), (45)-(48)).
 *
 * Row i, with w = M z + q and phi the PFB function of Eq. (8):
 *   free   Phi_i = -w_i                                   (Eq. 9, 2nd case)
 *   lower  Phi_i = phi(z_i - lo_i, w_i)                   (Eq. 9, 1st case, shifted)
 *   upper  Phi_i = phi(hi_i - z_i, -w_i)
 *   box    Phi_i = phi(z_i - lo_i, -phi(hi_i - z_i, -w_i))  (Billups' composition)
 */
#include "mlcp_pfb.h"

#include "dense.h"
#include "error_measures.h"
#include "mlcp_rows.h"
#include "ncp_functions.h"

#include <stddef.h>

static double row_phi(mcd_mlcp_row kind, double z, double w, double lo, double hi, double lambda)
{
    switch (kind) {
    case MCD_ROW_FREE:
        return -w;
    case MCD_ROW_LOWER:
        return mcd_ncp_pfb(z - lo, w, lambda);
    case MCD_ROW_UPPER:
        return mcd_ncp_pfb(hi - z, -w, lambda);
    case MCD_ROW_BOX:
        break;
    }
    return mcd_ncp_pfb(z - lo, -mcd_ncp_pfb(hi - z, -w, lambda), lambda);
}

void mcd_mlcp_pfb_residual(void *ctx, const double *z, double *phi)
{
    mcd_mlcp_pfb *s = ctx;
    const mcd_mlcp *p = s->p;
    mcd_dense_matvec(p->n, p->M, z, p->q, s->w);
    for (int i = 0; i < p->n; i++)
        phi[i] = row_phi(mcd_mlcp_row_kind(p->lo[i], p->hi[i]), z[i], s->w[i], p->lo[i], p->hi[i],
                         s->lambda);
}

double mcd_mlcp_pfb_error(void *ctx, const double *z)
{
    const mcd_mlcp_pfb *s = ctx;
    return mcd_mlcp_error_w(s->p, z, s->w);
}

/* 1 if row i sits on a kink of its NCP function: the set S_1 of Eq. (45)
 * (z_i = f_i = 0), shifted to the row's bound(s). */
static int row_at_kink(mcd_mlcp_row kind, double z, double w, double lo, double hi, double lambda)
{
    switch (kind) {
    case MCD_ROW_FREE:
        return 0;
    case MCD_ROW_LOWER:
        return z - lo == 0 && w == 0;
    case MCD_ROW_UPPER:
        return hi - z == 0 && w == 0;
    case MCD_ROW_BOX:
        break;
    }
    return (hi - z == 0 && w == 0) || (z - lo == 0 && mcd_ncp_pfb(hi - z, -w, lambda) == 0);
}

/* (alpha, beta) of J_i = alpha e_i^T + beta M_i. my = M_i . y is the
 * directional derivative of w_i along the kink direction y (Eq. 45). */
static void row_coefficients(mcd_mlcp_row kind, double z, double w, double lo, double hi,
                             double lambda, double my, double *alpha, double *beta)
{
    double ga, gb;
    switch (kind) {
    case MCD_ROW_FREE: /* Eq. (48) */
        *alpha = 0.0;
        *beta = -1.0;
        return;
    case MCD_ROW_LOWER: /* Eq. (45)-(47) with a = z - lo, b = w */
        mcd_ncp_pfb_grad(z - lo, w, lambda, 1.0, my, &ga, &gb);
        *alpha = ga;
        *beta = gb;
        return;
    case MCD_ROW_UPPER: /* a = hi - z, b = -w: both derivatives flip sign */
        mcd_ncp_pfb_grad(hi - z, -w, lambda, -1.0, -my, &ga, &gb);
        *alpha = -ga;
        *beta = -gb;
        return;
    case MCD_ROW_BOX:
        break;
    }
    /* Inner g = phi(hi - z, -w): dg/dz = -ga_in e_i - gb_in M_i. Outer
     * phi(z - lo, -g): dPhi/dz = ga_out e_i + gb_out (ga_in e_i + gb_in M_i).
     * At a kink the direction is y, pushed through the inner function. */
    double ga_in, gb_in, ga_out, gb_out;
    mcd_ncp_pfb_grad(hi - z, -w, lambda, -1.0, -my, &ga_in, &gb_in);
    double g = mcd_ncp_pfb(hi - z, -w, lambda);
    double dg = -ga_in - gb_in * my; /* derivative of g along y */
    mcd_ncp_pfb_grad(z - lo, -g, lambda, 1.0, -dg, &ga_out, &gb_out);
    *alpha = ga_out + gb_out * ga_in;
    *beta = gb_out * gb_in;
}

/* Marks the kink rows in y (Eq. 45: y_i = 1 for i in S_1); returns their count. */
static int mark_kinks(const mcd_mlcp_pfb *s, const double *z)
{
    const mcd_mlcp *p = s->p;
    int count = 0;
    for (int i = 0; i < p->n; i++) {
        mcd_mlcp_row kind = mcd_mlcp_row_kind(p->lo[i], p->hi[i]);
        s->y[i] = row_at_kink(kind, z[i], s->w[i], p->lo[i], p->hi[i], s->lambda) ? 1.0 : 0.0;
        count += s->y[i] != 0;
    }
    return count;
}

void mcd_mlcp_pfb_jacobian(void *ctx, const double *z, double *J)
{
    mcd_mlcp_pfb *s = ctx;
    const mcd_mlcp *p = s->p;
    int n = p->n;
    int kinks = mark_kinks(s, z);
    for (int i = 0; i < n; i++) {
        const double *Mi = p->M + (size_t)i * n;
        double *Ji = J + (size_t)i * n;
        double my = (kinks > 0 && s->y[i] != 0) ? mcd_dense_dot(n, Mi, s->y) : 0.0;
        double alpha, beta;
        row_coefficients(mcd_mlcp_row_kind(p->lo[i], p->hi[i]), z[i], s->w[i], p->lo[i], p->hi[i],
                         s->lambda, my, &alpha, &beta);
        for (int j = 0; j < n; j++) Ji[j] = beta * Mi[j];
        Ji[i] += alpha;
    }
}

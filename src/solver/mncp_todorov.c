/* Todorov's parameterisation of the frictional contact problem
 * (mncp_todorov.h; Mylapilli & Jain Sec. 4). */
#include "mncp_todorov.h"

#include "mcdyn/solver.h"
#include "dense.h"

#include <math.h>
#include <string.h>

/* |(a, b)|: the plain formula where its squares can neither overflow nor
 * underflow to a loss of accuracy, hypot (several times slower) elsewhere. */
static double norm2(double a, double b)
{
    double m = fmax(fabs(a), fabs(b));
    if (m > 1e-150 && m < 1e150) return sqrt(a * a + b * b);
    return hypot(a, b);
}

/* dF/dz entries, derived from F_n = max(0, -z_n), F_t = -s z_t,
 * s = min(1, mu F_n / |z_t|) (docs/solvers.md gives the corrected table of
 * Eq. (59)); t = z_t / |z_t|:
 *   dF_n/dz_n = -1 (z_n < 0),            dF_n/dz_t = 0
 *   stick: dF_t/dz_t = -I,               dF_t/dz_n = 0
 *   slip:  dF_t/dz_t = -s (I - t t^T),   dF_t/dz_n = -mu t dF_n/dz_n = mu t */
void mcd_todorov_contact(double mu, const double z[3], double F[3], double dF[9])
{
    double Fn = z[0] < 0 ? -z[0] : 0.0; /* Eq. (49) */
    if (dF) memset(dF, 0, 9 * sizeof *dF);
    if (Fn == 0) { /* separation: F_t = -s z_t with s = 0 */
        F[0] = F[1] = F[2] = 0.0;
        return;
    }
    double zt = norm2(z[1], z[2]);
    F[0] = Fn;
    if (zt <= mu * Fn) { /* stick, s = 1 (Eq. 50) */
        F[1] = -z[1];
        F[2] = -z[2];
        if (dF) dF[0] = dF[4] = dF[8] = -1.0;
        return;
    }
    double s = mu * Fn / zt; /* slip, s < 1 (Eq. 50) */
    double t1 = z[1] / zt, t2 = z[2] / zt;
    F[1] = -s * z[1];
    F[2] = -s * z[2];
    if (!dF) return;
    dF[0] = -1.0;
    dF[3] = mu * t1;
    dF[6] = mu * t2;
    dF[4] = -s * t2 * t2;
    dF[5] = s * t1 * t2;
    dF[7] = s * t1 * t2;
    dF[8] = -s * t1 * t1;
}

void mcd_mncp_units(const mcd_fc3d *p, double *scale)
{
    int n = mcd_fc3d_size(p);
    for (int i = 0; i < p->nb; i++) {
        double d = p->W[(size_t)i * n + i];
        scale[i] = d > 0 ? 1.0 / d : 1.0;
    }
    for (int k = 0; k < p->nc; k++) {
        int c = p->nb + 3 * k;
        double t = 0.0;
        for (int a = 0; a < 3; a++) t += p->W[(size_t)(c + a) * n + c + a];
        for (int a = 0; a < 3; a++) scale[c + a] = t > 0 ? 3.0 / t : 1.0;
    }
}

/* Scaled impulses rs = [x_b; F_u(z)] into r (and dF if not NULL). */
static void scaled_impulses(const mcd_fc3d *p, const double *x, double *r, double *dF)
{
    memcpy(r, x, (size_t)p->nb * sizeof *r);
    for (int k = 0; k < p->nc; k++) {
        int c = p->nb + 3 * k;
        mcd_todorov_contact(p->mu[k], x + c, r + c, dF ? dF + 9 * k : NULL);
    }
}

void mcd_mncp_residual(void *ctx, const double *x, double *phi)
{
    mcd_mncp *s = ctx;
    const mcd_fc3d *p = s->p;
    int n = mcd_fc3d_size(p);
    scaled_impulses(p, x, phi, NULL); /* phi holds rs for a moment */
    for (int i = 0; i < n; i++) s->r[i] = s->scale[i] * phi[i];
    mcd_dense_matvec(n, p->W, s->r, p->q, s->u);
    for (int i = 0; i < p->nb; i++) phi[i] = s->u[i];                   /* Phi_b, Eq. (55) */
    for (int i = p->nb; i < n; i++) phi[i] = s->u[i] - (phi[i] + x[i]); /* Phi_u, Eq. (55) */
}

double mcd_mncp_error(void *ctx, const double *x)
{
    const mcd_mncp *s = ctx;
    (void)x; /* r and u of the latest residual are those of x */
    return mcd_fc3d_error(s->p, s->r, s->u);
}

/* Row i of W diag(a) D, D = diag(I_nb, dF_1, ..., dF_nc): the first term of
 * Eq. (58) in scaled units. A separated contact (dF_n/dz_n = 0) has the
 * block dF = 0. */
static void row_times_block_diag(const mcd_fc3d *p, const double *scale, const double *Wi,
                                 const double *dF, double *Ji)
{
    for (int j = 0; j < p->nb; j++) Ji[j] = Wi[j] * scale[j];
    for (int k = 0; k < p->nc; k++) {
        int c = p->nb + 3 * k;
        const double *B = dF + 9 * k;
        if (B[0] == 0) {
            Ji[c] = Ji[c + 1] = Ji[c + 2] = 0.0;
            continue;
        }
        double w0 = Wi[c] * scale[c], w1 = Wi[c + 1] * scale[c], w2 = Wi[c + 2] * scale[c];
        for (int a = 0; a < 3; a++) Ji[c + a] = w0 * B[a] + w1 * B[3 + a] + w2 * B[6 + a];
    }
}

void mcd_mncp_jacobian(void *ctx, const double *x, double *J)
{
    mcd_mncp *s = ctx;
    const mcd_fc3d *p = s->p;
    int n = mcd_fc3d_size(p);
    scaled_impulses(p, x, s->r, s->dF);
    for (int i = 0; i < n; i++) s->r[i] *= s->scale[i];
    for (int i = 0; i < n; i++)
        row_times_block_diag(p, s->scale, p->W + (size_t)i * n, s->dF, J + (size_t)i * n);
    for (int k = 0; k < p->nc; k++) { /* the -(dF_u/dz + I) of Eq. (58) */
        int c = p->nb + 3 * k;
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                J[(size_t)(c + a) * n + c + b] -= s->dF[9 * k + 3 * a + b] + (a == b);
    }
}

void mcd_mncp_start_from(const mcd_fc3d *p, const double *scale, const double *r, double *u_scratch,
                         double *x)
{
    int n = mcd_fc3d_size(p);
    mcd_dense_matvec(n, p->W, r, p->q, u_scratch);
    for (int i = 0; i < p->nb; i++) x[i] = r[i] / scale[i];
    for (int i = p->nb; i < n; i++) x[i] = u_scratch[i] - r[i] / scale[i];
}

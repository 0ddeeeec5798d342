/* Todorov's parameterisation of the frictional contact problem
 * (mncp_todorov.h; Mylapilli & Jain Sec. 4). */
#include "mncp_todorov.h"

#include "mcdyn/solver.h"
#include "dense.h"

#include <math.h>
#include <string.h>

/* |(a, b)|: the plain formula where its squares can neither overflow nor
 * underflow to a loss of accuracy, and at a = b = 0 (a resting contact's
 * tangential part; sqrt(+0) = hypot(0, 0) = +0), hypot (several times
 * slower) elsewhere. m = fmax(|a|, |b|) written inline (a NaN one
 * ignored, as fmax does; the library call costs more than the rest). */
static double norm2(double a, double b)
{
    const double fa = fabs(a), fb = fabs(b);
    const double m = fa > fb || fb != fb ? fa : fb;
    if ((m > 1e-150 || m == 0) && m < 1e150) return sqrt(a * a + b * b);
    return hypot(a, b);
}

enum { N = MCD_FC3D_N, T1 = MCD_FC3D_T1, T2 = MCD_FC3D_T2, ROWS = MCD_FC3D_ROWS };

/* Entry (a, b) of a contact's ROWS x ROWS block dF/dz, row-major. */
static int at(int a, int b)
{
    return ROWS * a + b;
}

/* dF/dz entries, derived from F_n = max(0, -z_n), F_t = -s z_t,
 * s = min(1, mu F_n / |z_t|) (docs/solvers.md gives the corrected table of
 * Eq. (59)); t = z_t / |z_t|:
 *   dF_n/dz_n = -1 (z_n < 0),            dF_n/dz_t = 0
 *   stick: dF_t/dz_t = -I,               dF_t/dz_n = 0
 *   slip:  dF_t/dz_t = -s (I - t t^T),   dF_t/dz_n = -mu t dF_n/dz_n = mu t */
void mcd_todorov_contact(double mu, const double z[3], double F[3], double dF[9])
{
    double Fn = z[N] < 0 ? -z[N] : 0.0; /* Eq. (49) */
    if (dF) memset(dF, 0, ROWS * ROWS * sizeof *dF);
    if (Fn == 0) { /* separation: F_t = -s z_t with s = 0 */
        F[N] = F[T1] = F[T2] = 0.0;
        return;
    }
    double zt = norm2(z[T1], z[T2]);
    F[N] = Fn;
    if (zt <= mu * Fn) { /* stick, s = 1 (Eq. 50) */
        F[T1] = -z[T1];
        F[T2] = -z[T2];
        if (dF) dF[at(N, N)] = dF[at(T1, T1)] = dF[at(T2, T2)] = -1.0;
        return;
    }
    double s = mu * Fn / zt; /* slip, s < 1 (Eq. 50) */
    double t1 = z[T1] / zt, t2 = z[T2] / zt;
    F[T1] = -s * z[T1];
    F[T2] = -s * z[T2];
    if (!dF) return;
    dF[at(N, N)] = -1.0;
    dF[at(T1, N)] = mu * t1;
    dF[at(T2, N)] = mu * t2;
    dF[at(T1, T1)] = -s * t2 * t2;
    dF[at(T1, T2)] = s * t1 * t2;
    dF[at(T2, T1)] = s * t1 * t2;
    dF[at(T2, T2)] = -s * t1 * t1;
}

void mcd_mncp_units(const mcd_fc3d *p, double *scale)
{
    int n = mcd_fc3d_size(p);
    for (int i = 0; i < p->nb; i++) {
        double d = p->W[(size_t)i * n + i];
        scale[i] = d > 0 ? 1.0 / d : 1.0;
    }
    for (int k = 0; k < p->nc; k++) {
        int c = p->nb + ROWS * k;
        double t = 0.0;
        for (int a = 0; a < ROWS; a++) t += p->W[(size_t)(c + a) * n + c + a];
        for (int a = 0; a < ROWS; a++)
            scale[c + a] = t > 0 ? ROWS / t : 1.0; /* 1 / mean diagonal */
    }
}

/* Scaled impulses rs = [x_b; F_u(z)] into r (and dF if not NULL). */
static void scaled_impulses(const mcd_fc3d *p, const double *x, double *r, double *dF)
{
    memcpy(r, x, (size_t)p->nb * sizeof *r);
    for (int k = 0; k < p->nc; k++) {
        int c = p->nb + ROWS * k;
        mcd_todorov_contact(p->mu[k], x + c, r + c, dF ? dF + ROWS * ROWS * k : NULL);
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
        int c = p->nb + ROWS * k;
        const double *B = dF + ROWS * ROWS * k;
        if (B[at(N, N)] == 0) {
            Ji[c + N] = Ji[c + T1] = Ji[c + T2] = 0.0;
            continue;
        }
        double wn = Wi[c + N] * scale[c], w1 = Wi[c + T1] * scale[c], w2 = Wi[c + T2] * scale[c];
        for (int b = 0; b < ROWS; b++)
            Ji[c + b] = wn * B[at(N, b)] + w1 * B[at(T1, b)] + w2 * B[at(T2, b)];
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
        int c = p->nb + ROWS * k;
        for (int a = 0; a < ROWS; a++)
            for (int b = 0; b < ROWS; b++)
                J[(size_t)(c + a) * n + c + b] -= s->dF[ROWS * ROWS * k + ROWS * a + b] + (a == b);
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

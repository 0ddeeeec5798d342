/* Small dense kernels of the Levenberg-Marquardt step (small_dense.h). */
#include "small_dense.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* N_i,i: += J_ki J_k,i: over the rows J_k of J. */
void mcd_small_normal_matrix(int n, const double *J, double lambda, double *N)
{
    for (int i = 0; i < n; i++) memset(N + (size_t)i * n + i, 0, (size_t)(n - i) * sizeof *N);
    for (int k = 0; k < n; k++) {
        const double *Jk = J + (size_t)k * n;
        for (int i = 0; i < n; i++) {
            double a = Jk[i];
            if (a == 0) continue;
            double *Ni = N + (size_t)i * n;
            for (int j = i; j < n; j++) Ni[j] += a * Jk[j];
        }
    }
    for (int i = 0; i < n; i++) N[(size_t)i * n + i] += lambda;
}

/* |x| of m entries: the plain sum of squares where it can neither
 * overflow nor lose accuracy to underflow, else scaled by the largest
 * magnitude (as dnrm2, for any finite x). */
static double scaled_norm(int m, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < m; i++) s += x[i] * x[i];
    if (s > 1e-290 && s < 1e290) return sqrt(s);
    double big = 0.0;
    for (int i = 0; i < m; i++) big = fabs(x[i]) > big ? fabs(x[i]) : big;
    if (big == 0.0 || !isfinite(big)) return big;
    const double inv = 1.0 / big;
    s = 0.0;
    for (int i = 0; i < m; i++) s += (x[i] * inv) * (x[i] * inv);
    return big * sqrt(s);
}

/* In place on v (m entries, v[0] = alpha): the reflector H = I - tau u u^T
 * with u = [1; v[1:] / (alpha - beta)], H v = [beta; 0], beta = -sign(alpha)
 * |v| (dlarfg); returns tau, 0 when v[1:] = 0 (H = I, beta = alpha). */
static double householder(int m, double *v)
{
    const double xnorm = scaled_norm(m - 1, v + 1);
    if (xnorm == 0.0) return 0.0;
    const double alpha = v[0], r = fmax(fabs(alpha), xnorm);
    const double norm =
        r > 1e-145 && r < 1e145 ? sqrt(alpha * alpha + xnorm * xnorm) : hypot(alpha, xnorm);
    const double beta = -copysign(norm, alpha);
    const double scale = 1.0 / (alpha - beta);
    for (int i = 1; i < m; i++) v[i] *= scale;
    v[0] = beta;
    return (beta - alpha) / beta;
}

/* y := H y for the reflector (tau, u = [1; u[1:]]) of m entries. */
static void reflect(int m, double tau, const double *u, double *y)
{
    double t = y[0];
    for (int i = 1; i < m; i++) t += u[i] * y[i];
    t *= tau;
    y[0] -= t;
    for (int i = 1; i < m; i++) y[i] -= t * u[i];
}

int mcd_small_stacked_least_squares(int n, const double *J, const double *top, const double *bottom,
                                    double lambda, double *A, double *rhs, double *d)
{
    const int m = 2 * n;
    const double root = sqrt(lambda);
    for (int j = 0; j < n; j++) {
        double *col = A + (size_t)j * m;
        for (int i = 0; i < n; i++) col[i] = J[(size_t)i * n + j];
        memset(col + n, 0, (size_t)n * sizeof *col);
        col[n + j] = root;
    }
    for (int i = 0; i < n; i++) {
        rhs[i] = top ? -top[i] : 0.0;
        rhs[n + i] = bottom ? root * bottom[i] : 0.0;
    }
    for (int j = 0; j < n; j++) { /* reflector j on rows j .. n + j */
        double *cj = A + (size_t)j * m + j;
        const double tau = householder(n + 1, cj);
        if (tau == 0.0) continue;
        for (int k = j + 1; k < n; k++) reflect(n + 1, tau, cj, A + (size_t)k * m + j);
        reflect(n + 1, tau, cj, rhs + j);
    }
    for (int i = n - 1; i >= 0; i--) { /* R d = (Q^T rhs)[0, n) */
        const double rii = A[(size_t)i * m + i];
        if (rii == 0.0) return 0;
        double t = rhs[i];
        for (int k = i + 1; k < n; k++) t -= A[(size_t)k * m + i] * d[k];
        d[i] = t / rii;
    }
    return 1;
}

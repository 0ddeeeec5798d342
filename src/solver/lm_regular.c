/* Regular Levenberg-Marquardt (RLM), Mylapilli & Jain Sec. 5.1 (after
 * Bazaraa, Sherali & Shetty), lm.h.
 *
 * Each iteration solves (J^T J + lambda I) dx = -J^T Phi by Cholesky, J^T J
 * formed once per Jacobian and H = J^T J + lambda I refactored for each
 * lambda (the paper's "dx = H^{-1} (J^T Phi)" misses the minus sign of a
 * descent step), and compares the actual decrease of psi with the decrease
 * of its quadratic model q(x + dx) = 1/2 |Phi + J dx|^2:
 *     r = (psi(x + dx) - psi(x)) / (q(x + dx) - q(x)).
 * r < r_min: lambda *= lambda_step; r > 0: accept dx; r > r_max: lambda /=
 * lambda_step (not below lambda_min). Every trial counts as an iteration. */
#include "lm.h"

#include "../base/lapack.h"
#include "dense.h"

#include <math.h>
#include <string.h>

#define RLM_R_MIN       0.3 /* Sec. 5.1 */
#define RLM_R_MAX       0.8 /* Sec. 5.1 */
#define RLM_LAMBDA_STEP 20. /* Sec. 5.1 */
#define RLM_LAMBDA_MIN  1e-25
#define RLM_LAMBDA_MAX  1e200 /* beyond it dx is below rounding of x anyway */

/* step = -(J^T J + lambda I)^{-1} g. JtJ is stored in full, so its
 * row-major layout is also the column-major one LAPACK reads. 0 if the
 * Cholesky factorization fails (not positive definite in floating point).
 * LAPACK's blocked dpotrf on purpose, not small_dense.h's kernel: n is a
 * whole contact group's rows, with no bound (hundreds for a pile). The
 * kernel below 64 rows, as PLM uses it, is not neutral here: it changes
 * the rounding of every step, and RLM's accept/reject decisions with it
 * (tried on the rocking block with mlcp-pfb-rlm: contact forces moved by up
 * to 0.15 N over 1 s). */
static int damped_step(int n, const double *JtJ, double lambda, const double *g, double *H,
                       double *step)
{
    int info, one = 1;
    memcpy(H, JtJ, (size_t)n * n * sizeof *H);
    for (int i = 0; i < n; i++) H[(size_t)i * n + i] += lambda;
    dpotrf_("L", &n, H, &n, &info);
    if (info != 0) return 0;
    for (int i = 0; i < n; i++) step[i] = -g[i];
    dpotrs_("L", &n, &one, H, &n, step, &n, &info);
    return info == 0;
}

/* lm.h; with (J^T J + lambda I) dx = -g, 1/2 |Phi + J dx|^2 = psi + g.dx +
 * 1/2 dx.J^T J dx gives 1/2 (-g.dx + lambda |dx|^2), computed in O(n). */
double mcd_lm_predicted_decrease(int n, const double *g, const double *dx, double lambda)
{
    return 0.5 * (-mcd_dense_dot(n, g, dx) + lambda * mcd_dense_dot(n, dx, dx));
}

mcd_status mcd_lm_regular(const mcd_nls *sys, const mcd_lm_opts *o, const mcd_lm_ws *w, double *x,
                          mcd_lm_result *res)
{
    int n = sys->n;
    double *phi = w->phi, *phi_trial = w->phi_trial;
    sys->residual(sys->ctx, x, phi);
    double err = sys->error(sys->ctx, x);
    double psi = mcd_lm_merit(n, phi);
    double lambda = o->lambda0;
    int k = 0, jacobian_current = 0, state_at_x = 1;
    mcd_status status = isfinite(psi) ? MCD_OK : MCD_ERR_NONFINITE;
    while (status == MCD_OK && !(psi <= o->psi_tol || err <= o->tol)) {
        if (k == o->max_iter) {
            status = MCD_ERR_NOT_CONVERGED;
            break;
        }
        k++;
        if (!jacobian_current) { /* the state is at x here: J changes only after acceptance */
            sys->jacobian(sys->ctx, x, w->J);
            mcd_dense_gram(n, w->J, w->A);
            mcd_dense_matvec_t(n, w->J, phi, w->grad); /* grad psi = J^T Phi */
            jacobian_current = 1;
        }
        if (!damped_step(n, w->A, lambda, w->grad, w->H, w->step)) {
            lambda = fmin(lambda * RLM_LAMBDA_STEP, RLM_LAMBDA_MAX);
            continue;
        }
        double pred = mcd_lm_predicted_decrease(n, w->grad, w->step, lambda);
        for (int i = 0; i < n; i++) w->x_trial[i] = x[i] + w->step[i];
        sys->residual(sys->ctx, w->x_trial, phi_trial);
        double psi_trial = mcd_lm_merit(n, phi_trial);
        state_at_x = 0;
        double r = (isfinite(psi_trial) && pred > 0) ? (psi - psi_trial) / pred : -INFINITY;
        if (r < RLM_R_MIN) lambda = fmin(lambda * RLM_LAMBDA_STEP, RLM_LAMBDA_MAX);
        if (r > 0) {
            double *t = phi;
            phi = phi_trial;
            phi_trial = t;
            memcpy(x, w->x_trial, (size_t)n * sizeof *x);
            psi = psi_trial;
            err = sys->error(sys->ctx, x);
            state_at_x = 1;
            jacobian_current = 0;
            if (r > RLM_R_MAX) lambda = fmax(lambda / RLM_LAMBDA_STEP, RLM_LAMBDA_MIN);
        }
    }
    if (!state_at_x) sys->residual(sys->ctx, x, phi_trial);
    if (status == MCD_OK && !(err <= o->tol)) status = MCD_ERR_NOT_CONVERGED; /* psi_tol stop */
    res->iterations = k;
    res->psi = psi;
    res->error = err;
    return status;
}

/* Closed-chain dynamics in the operational-space route (include/mcdyn/closure.h):
 * acceleration-level forward dynamics with Baumgarte stabilisation, velocity
 * and position projections, and the semi-implicit Euler step. */
#include "closure_internal.h"

#include <math.h>
#include <string.h>

/* Point velocities of both closure frames (body velocities in bd.V). */
static void point_velocities(const mcd_model *m, mcd_data *d)
{
    mcd_closure_ws *w = d->closure;
    for (int c = 0; c < m->nclosure; c++) {
        mcd_point_motion(d->bd[m->closure[c].body_a].V, w->pts[w->pt_a[c]].x, w->vA + 6 * c);
        if (w->pt_b[c] >= 0)
            mcd_point_motion(d->bd[m->closure[c].body_b].V, w->pts[w->pt_b[c]].x, w->vB + 6 * c);
        else
            memset(w->vB + 6 * c, 0, 6 * sizeof *w->vB);
    }
}

/* Rate of change of the rows' directions times the relative motion: hinge
 * rows e_k turn with body A (e_k' = w_A x e_k); the distance row n turns as
 * n' = (dv - n (n . dv)) / |x_A - x_B|. Added to the rows' accelerations. */
static void add_direction_rates(const mcd_model *m, mcd_closure_ws *w, double *zeta)
{
    for (int i = 0; i < w->rows; i++) {
        const int c = w->row_closure[i];
        const mcd_closure *C = &m->closure[c];
        const double *a = w->coef + 6 * i, *vA = w->vA + 6 * c, *vB = w->vB + 6 * c;
        double dw[3], dv[3], t[3];
        mcd_v3_sub(dw, vA, vB);
        mcd_v3_sub(dv, vA + 3, vB + 3);
        if (C->type == MCD_CLOSURE_HINGE && mcd_v3_dot(a, a) > 0.5) {
            mcd_v3_cross(t, vA, a);
            zeta[i] += mcd_v3_dot(t, dw);
        } else if (C->type == MCD_CLOSURE_DISTANCE) {
            double x[3];
            const double *xB = w->pt_b[c] >= 0 ? w->pts[w->pt_b[c]].x : C->pose_b.p;
            mcd_v3_sub(x, w->pts[w->pt_a[c]].x, xB);
            double len = mcd_v3_norm(x), nd = mcd_v3_dot(a + 3, dv);
            if (len > 0) zeta[i] += (mcd_v3_dot(dv, dv) - nd * nd) / len;
        }
    }
}

/* p = A^+ (-(row values of the velocities in bd.V)); dq = M^{-1} G_b^T p. */
static mcd_status velocity_correction(const mcd_model *m, mcd_data *d, double *dq)
{
    mcd_closure_ws *w = d->closure;
    point_velocities(m, d);
    mcd_closure_row_values(m, w, w->vA, w->vB, w->rhs);
    for (int i = 0; i < w->rows; i++) w->rhs[i] = -w->rhs[i];
    mcd_status s = mcd_closure_compliance(m, d);
    if (s == MCD_OK) s = mcd_closure_solve(d);
    if (s == MCD_OK) mcd_closure_apply(m, d, dq);
    return s;
}

mcd_status mcd_closed_chain_forward_dynamics(const mcd_model *m, mcd_data *d, const double *q,
                                             const double *qd, const double *tau, double alpha,
                                             double beta, double *qdd, double *p_b)
{
    mcd_status s = mcd_forward_dynamics(m, d, q, qd, tau, NULL, qdd);
    if (s != MCD_OK || m->nclosure == 0) return s;
    if (!isfinite(alpha) || !isfinite(beta) || alpha < 0 || beta < 0)
        return mcd_fail(&d->err, MCD_ERR_ARG, "Baumgarte gains must be finite and >= 0");
    mcd_closure_ws *w = d->closure;
    double a_world[6], a_true[6];
    mcd_gravity_acceleration(m, a_world);
    mcd_closure_assemble_rows(m, d);
    point_velocities(m, d);
    for (int c = 0; c < m->nclosure; c++) { /* the rows' accelerations with qdd_free */
        const mcd_closure *C = &m->closure[c];
        for (int k = 0; k < 6; k++) a_true[k] = d->bd[C->body_a].alpha[k] - a_world[k];
        mcd_point_acceleration(d->bd[C->body_a].V, a_true, w->pts[w->pt_a[c]].x, w->aA + 6 * c);
        memset(w->aB + 6 * c, 0, 6 * sizeof *w->aB);
        if (C->body_b >= 0) {
            for (int k = 0; k < 6; k++) a_true[k] = d->bd[C->body_b].alpha[k] - a_world[k];
            mcd_point_acceleration(d->bd[C->body_b].V, a_true, w->pts[w->pt_b[c]].x, w->aB + 6 * c);
        }
    }
    double *zeta = w->sol; /* scratch until the solve */
    mcd_closure_row_values(m, w, w->aA, w->aB, zeta);
    add_direction_rates(m, w, zeta);
    mcd_closure_row_values(m, w, w->vA, w->vB, w->rhs); /* nu = G_b qd */
    for (int i = 0; i < w->rows; i++) w->rhs[i] = -zeta[i] - 2.0 * alpha * w->rhs[i];
    if (beta > 0) {
        mcd_closure_errors_now(m, d, zeta);
        for (int i = 0; i < w->rows; i++) w->rhs[i] -= beta * beta * zeta[i];
    }
    s = mcd_closure_compliance(m, d);
    if (s == MCD_OK) s = mcd_closure_solve(d);
    if (s != MCD_OK) return s;
    if (p_b) memcpy(p_b, w->sol, (size_t)w->rows * sizeof *p_b);
    mcd_closure_apply(m, d, w->dq);
    for (int i = 0; i < m->nv; i++) qdd[i] += w->dq[i];
    return MCD_OK;
}

mcd_status mcd_closure_project_velocity(const mcd_model *m, mcd_data *d, const double *q,
                                        double *qd)
{
    mcd_status s = mcd_minv_factor(m, d, q);
    if (s == MCD_OK) s = mcd_check_vector_nv(m, d, "qd", qd);
    if (s != MCD_OK || m->nclosure == 0) return s;
    mcd_velocity_pass(m, d, qd);
    mcd_closure_assemble_rows(m, d);
    s = velocity_correction(m, d, d->closure->dq);
    if (s == MCD_OK)
        for (int i = 0; i < m->nv; i++) qd[i] += d->closure->dq[i];
    return s;
}

mcd_status mcd_closure_project_position(const mcd_model *m, mcd_data *d, double *q, double tol,
                                        int max_iter, int *iterations)
{
    if (!m || !d || !q || !(tol > 0) || max_iter < 1) return MCD_ERR_ARG;
    mcd_closure_ws *w = d->closure;
    for (int it = 0;; it++) {
        mcd_status s = mcd_minv_factor(m, d, q);
        if (s != MCD_OK) return s;
        if (m->nclosure == 0) return MCD_OK;
        mcd_closure_errors_now(m, d, w->rhs);
        double worst = 0.0;
        for (int i = 0; i < w->rows; i++) worst = fmax(worst, fabs(w->rhs[i]));
        if (iterations) *iterations = it;
        if (!isfinite(worst))
            return mcd_fail(&d->err, MCD_ERR_NONFINITE, "closure errors are not finite");
        if (worst <= tol) return MCD_OK;
        if (it == max_iter)
            return mcd_fail(&d->err, MCD_ERR_NOT_CONVERGED,
                            "closure position projection: error %.3g after %d iterations", worst,
                            it);
        for (int i = 0; i < w->rows; i++) w->rhs[i] = -w->rhs[i];
        mcd_closure_assemble_rows(m, d);
        s = mcd_closure_compliance(m, d);
        if (s == MCD_OK) s = mcd_closure_solve(d);
        if (s != MCD_OK) return s;
        mcd_closure_apply(m, d, w->dq);
        s = mcd_integrate(m, q, w->dq, 1.0, q);
        if (s != MCD_OK) return mcd_fail(&d->err, s, "closure position projection diverged");
    }
}

mcd_status mcd_closure_step(const mcd_model *m, mcd_data *d, double *q, double *qd,
                            const double *tau, double dt, double tol)
{
    if (!m || !d || !q || !qd || !(dt > 0) || !isfinite(dt) || !(tol > 0)) return MCD_ERR_ARG;
    double *qdd = d->tmp_nv;
    mcd_status s = mcd_forward_dynamics(m, d, q, qd, tau, NULL, qdd);
    if (s != MCD_OK) return s;
    for (int i = 0; i < m->nv; i++) qd[i] += dt * qdd[i];
    if (m->nclosure > 0) { /* G_b qd+ = 0 at q, with the factorization just made */
        mcd_velocity_pass(m, d, qd);
        mcd_closure_assemble_rows(m, d);
        s = velocity_correction(m, d, d->closure->dq);
        if (s != MCD_OK) return s;
        for (int i = 0; i < m->nv; i++) qd[i] += d->closure->dq[i];
    }
    s = mcd_integrate(m, q, qd, dt, q);
    if (s != MCD_OK) return mcd_fail(&d->err, s, "integration produced a non-finite state");
    if (m->nclosure == 0) return MCD_OK;
    s = mcd_closure_project_position(m, d, q, tol, 20, NULL);
    if (s == MCD_OK) s = mcd_closure_project_velocity(m, d, q, qd);
    return s;
}

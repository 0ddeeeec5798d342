/* The energy balance of one step (step_energy.h). */
#include "step_energy.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct step_energy_ws {
    const mcd_model *m;
    mcd_data *d;
    double *q0, *qd0;      /* state before the step */
    double *tau, *C, *G;   /* damping forces, bias and gravity forces at (q0, qd0) */
    double *qdd, *qd_free; /* free-motion acceleration and velocity */
    double *M;             /* M(q), for the position correction's bound */
    double *qdd_g;         /* -M^-1 g at q: the correction's bound */
    double e0, e_scale0;   /* E before, and its scale */
};

void step_energy_ws_free(step_energy_ws *w)
{
    if (!w) return;
    mcd_data_free(w->d);
    free(w->q0), free(w->qd0), free(w->tau), free(w->C), free(w->G);
    free(w->qdd), free(w->qd_free), free(w->M), free(w->qdd_g);
    free(w);
}

step_energy_ws *step_energy_ws_create(const mcd_model *m)
{
    step_energy_ws *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->m = m;
    const size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    w->q0 = malloc(nq * sizeof(double));
    w->qd0 = malloc(nv * sizeof(double));
    w->tau = malloc(nv * sizeof(double));
    w->C = malloc(nv * sizeof(double));
    w->G = malloc(nv * sizeof(double));
    w->qdd = malloc(nv * sizeof(double));
    w->qd_free = malloc(nv * sizeof(double));
    w->M = malloc(nv * nv * sizeof(double));
    w->qdd_g = malloc(nv * sizeof(double));
    if (mcd_data_create(m, &w->d, NULL) != MCD_OK || !w->q0 || !w->qd0 || !w->tau || !w->C ||
        !w->G || !w->qdd || !w->qd_free || !w->M || !w->qdd_g) {
        step_energy_ws_free(w);
        return NULL;
    }
    return w;
}

/* T + sum_i m_i g |z_i| at the kinematics in w->d (V is measured from the
 * world origin, so its terms can be larger than the energy that moves). */
static double energy_scale(const step_energy_ws *w, double kinetic)
{
    const mcd_model *m = w->m;
    double s = kinetic;
    for (int k = 0; k < m->nbody; k++) {
        double c[3];
        mcd_pose_apply(c, &w->d->bd[k].X_world, m->body[k].mass.com);
        s += m->body[k].mass.mass * mcd_v3_norm(m->gravity) * fabs(c[2]);
    }
    return s;
}

void step_energy_before(step_energy_ws *w, mcd_sim *s)
{
    const mcd_model *m = w->m;
    memcpy(w->q0, mcd_sim_q(s), (size_t)m->nq * sizeof(double));
    memcpy(w->qd0, mcd_sim_qd(s), (size_t)m->nv * sizeof(double));
    double T, V;
    mcd_energy(m, w->d, w->q0, w->qd0, &T, &V);
    w->e0 = T + V;
    w->e_scale0 = energy_scale(w, T);
}

/* The passive joint damping the simulator applies, tau = -b qd. */
static void damping_forces(const mcd_model *m, const double *qd, double *tau)
{
    for (int k = 0; k < m->nbody; k++)
        for (int i = 0; i < m->body[k].nv; i++)
            tau[m->body[k].vadr + i] = -m->body[k].limits.damping * qd[m->body[k].vadr + i];
}

/* World velocity of the point p of body k (-1: the world) from the body
 * velocities in d: v = v_O + w x p (d->bd[k].V is [w; v_O] of the body
 * point at the world origin). */
static void point_velocity(const mcd_data *d, int k, const double p[3], double v[3])
{
    if (k < 0) {
        v[0] = v[1] = v[2] = 0.0;
        return;
    }
    double wxp[3];
    mcd_v3_cross(wxp, d->bd[k].V, p);
    mcd_v3_add(v, d->bd[k].V + 3, wxp);
}

/* |nu|^2 summed over the contacts of s, for the body velocities in d. */
static double contact_speed_sq(const mcd_data *d, mcd_sim *s, int nc)
{
    double sum = 0.0;
    for (int k = 0; k < nc; k++) {
        const mcd_contact_point *c = mcd_sim_contact(s, k);
        double va[3], vb[3], nu[3];
        point_velocity(d, c->body_a, c->pos, va);
        point_velocity(d, c->body_b, c->pos, vb);
        mcd_v3_sub(nu, va, vb);
        sum += mcd_v3_dot(nu, nu);
    }
    return sum;
}

/* W_corr and the sums |p|^2, |b|^2 over the step's contacts. */
static void contact_sums(mcd_sim *s, int nc, const step_energy_params *par, double *w_corr,
                         double *p_sq, double *b_sq)
{
    const mcd_contact_ws *ws = mcd_sim_contact_ws(s);
    *w_corr = *p_sq = *b_sq = 0.0;
    for (int k = 0; k < nc; k++) {
        const mcd_contact_point *c = mcd_sim_contact(s, k);
        const double *F = mcd_contact_impulse(ws, k); /* (F_f, F_o, F_n) */
        double b =
            c->gap >= 0 ? -c->gap / par->h : fmin(par->gain * -c->gap / par->h, par->max_velocity);
        *w_corr += F[2] * fmax(b, 0.0);
        *p_sq += mcd_v3_dot(F, F);
        *b_sq += b * b;
    }
}

/* W_pos = |g|_{M^-1} |delta|_M at q, the step's start (step_energy.h):
 * |g|_{M^-1}^2 = -g . qdd for qdd = M^-1 (0 - g), the forward dynamics at
 * rest without forces. Overwrites w->G, w->tau and w->qd_free. */
static mcd_status correction_bound(step_energy_ws *w, const double *delta, double *w_pos)
{
    const mcd_model *m = w->m;
    const int nv = m->nv;
    double dMd = 0.0, gMg = 0.0;
    for (int i = 0; i < nv; i++) w->qd_free[i] = 0.0, w->tau[i] = 0.0;
    mcd_status r = mcd_mass_matrix(m, w->d, w->q0, w->M);
    if (r == MCD_OK) r = mcd_gravity_forces(m, w->d, w->q0, w->G);
    if (r == MCD_OK) r = mcd_forward_dynamics(m, w->d, w->q0, w->qd_free, w->tau, NULL, w->qdd_g);
    if (r != MCD_OK) return r;
    for (int i = 0; i < nv; i++) {
        gMg -= w->G[i] * w->qdd_g[i];
        for (int j = 0; j < nv; j++) dMd += delta[i] * w->M[(size_t)i * nv + j] * delta[j];
    }
    *w_pos = sqrt(fmax(gMg, 0.0) * fmax(dMd, 0.0));
    return MCD_OK;
}

/* Whether the step moved q by a position correction. */
static int corrected(const mcd_model *m, const double *delta)
{
    for (int i = 0; i < m->nv; i++)
        if (delta[i] != 0.0) return 1;
    return 0;
}

mcd_status step_energy_after(step_energy_ws *w, mcd_sim *s, const mcd_step_stats *st,
                             const step_energy_params *par, step_energy *out)
{
    const mcd_model *m = w->m;
    mcd_data *d = w->d;
    const double *q1 = mcd_sim_q(s), *qd1 = mcd_sim_qd(s), h = par->h;
    const int nv = m->nv, nc = st->ncontacts;
    const double *delta = mcd_sim_position_correction(s);
    out->w_pos = 0.0;
    mcd_status r = corrected(m, delta) ? correction_bound(w, delta, &out->w_pos) : MCD_OK;
    damping_forces(m, w->qd0, w->tau);
    if (r == MCD_OK) r = mcd_bias_forces(m, d, w->q0, w->qd0, w->C);
    if (r == MCD_OK) r = mcd_gravity_forces(m, d, w->q0, w->G);
    if (r == MCD_OK) r = mcd_forward_dynamics(m, d, w->q0, w->qd0, w->tau, NULL, w->qdd);
    double T1, V1, T0p, V0p;
    if (r == MCD_OK) r = mcd_energy(m, d, w->q0, qd1, &T0p, &V0p); /* T(q, qd+), V(q) */
    if (r == MCD_OK) r = mcd_energy(m, d, q1, qd1, &T1, &V1);
    if (r != MCD_OK) return r;
    /* the damping the simulator applies is implicit (sim.h): -b qd+ acts
     * over the step, so tau^T qd+ = -b |qd+|^2 in the balance */
    damping_forces(m, qd1, w->tau);
    out->w_round = 64.0 * m->nbody * DBL_EPSILON * fmax(w->e_scale0, energy_scale(w, T1));
    /* R_T, R_V and h tau^T qd+ (c = C - g) */
    double c_qd = 0.0, g_qd = 0.0, tau_qd = 0.0;
    for (int i = 0; i < nv; i++) {
        c_qd += (w->C[i] - w->G[i]) * qd1[i];
        g_qd += w->G[i] * (h * qd1[i] + delta[i]); /* g^T (h qd+ + delta) */
        tau_qd += w->tau[i] * qd1[i];
        w->qd_free[i] = w->qd0[i] + h * w->qdd[i];
    }
    out->rise = T1 + V1 - w->e0;
    out->r_int = h * tau_qd + (T1 - T0p - h * c_qd) + (V1 - V0p - g_qd);
    /* M of the tolerance: |p|, |nu+| + |b|, |nu_free| + |b| at q */
    double p_sq, b_sq;
    contact_sums(s, nc, par, &out->w_corr, &p_sq, &b_sq);
    r = mcd_body_velocities(m, d, w->q0, qd1);
    const double nu_plus = r == MCD_OK ? sqrt(contact_speed_sq(d, s, nc)) : 0.0;
    if (r == MCD_OK) r = mcd_body_velocities(m, d, w->q0, w->qd_free);
    if (r != MCD_OK) return r;
    const double nu_free = sqrt(contact_speed_sq(d, s, nc));
    const double M = fmax(sqrt(p_sq), fmax(nu_plus, nu_free) + sqrt(b_sq));
    const double tol = fmax(par->tol, st->residual);
    out->w_tol = (3.0 + tol) * tol * M * M;
    return MCD_OK;
}

double step_energy_bound(const step_energy *e)
{
    return e->w_corr + e->w_pos + e->w_tol + e->w_round + e->r_int;
}

/* Impact laws other than Newton's restitution (src/sim/sim_internal.h,
 * docs/theory/impacts.md): the impact phase of a step.
 *
 * After the contact set-up, when some contact closes within the step faster
 * than restitution_velocity, the impact impulse P is computed at the
 * pre-step velocities nu- (W of the set-up) by the chosen law:
 *   maxdiss  the maximum-dissipation law (Preclik et al., Eq. 5) on the
 *            impact problem (impact.h, mcd_maxdiss_solve; no restitution);
 *   stronge  Stronge's global energetic restitution (restitution.h), the
 *            closure rows eliminated by their Schur complement.
 * Only contacts touching or closing within the step take part. P is added
 * to the step (mcd_contact_add_impulse): its free velocities move by W P and
 * the step's own problem, solved next without Newton targets, keeps every
 * contact from approaching. Contacts that still close faster than
 * restitution_velocity after an impact impact again (at most IMPACT_ROUNDS
 * times per step); below that speed the contact is sustained: the step's
 * problem resolves it inelastically. */
#include "sim_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../solver/small_dense.h"
#include "mcdyn/impact.h"
#include "mcdyn/restitution.h"

#define IMPACT_ROUNDS 8    /* impacts per step before the rest is sustained contact */
#define IMPACT_TOUCH  1e-9 /* [m] gap after the step's approach below which a contact takes part */
#define IMPACT_PIVOT_FLOOR                                                                         \
    1e-13 /* W_bb's pivots relative to its largest diagonal (redundant closures) */

struct mcd_sim_impact {
    mcd_stronge_ws *stronge;
    int *sel;         /* contacts taking part */
    double *W, *v;    /* the selected problem: (nb + 3 n)^2, nb + 3 n */
    double *mu, *e;   /* per selected contact */
    double *P, *full; /* its impulse; the impulse in the step's rows */
    double *vnow;     /* the step's rows: nu- + W (impulses so far) */
    double *U;        /* nb x nb Cholesky factor of W_bb = U^T U (stronge with closures) */
    double *Xt;       /* 3 n x nb: (W_bb^-1 W_bc)^T = W_cb W_bb^-1 */
    double *work;     /* mcd_maxdiss_work_size doubles */
};

mcd_status mcd_sim_impact_create(mcd_sim *s, mcd_error *err)
{
    if (s->opt.impact_law == MCD_IMPACT_NEWTON) return MCD_OK;
    s->opt.contact.no_restitution = 1;
    struct mcd_sim_impact *w = calloc(1, sizeof *w);
    if (!w) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    s->impact = w;
    const int K = s->cap, nb = s->m->nclosure_rows;
    const size_t k = (size_t)(K ? K : 1), nr = (size_t)nb + 3 * k, b = (size_t)(nb ? nb : 1);
    const mcd_fc3d largest = {.nc = K, .nb = nb};
    w->sel = malloc(k * sizeof *w->sel);
    w->W = malloc(nr * nr * sizeof *w->W), w->v = malloc(nr * sizeof *w->v);
    w->mu = malloc(k * sizeof *w->mu), w->e = malloc(k * sizeof *w->e);
    w->P = malloc(nr * sizeof *w->P), w->full = malloc(nr * sizeof *w->full);
    w->vnow = malloc(nr * sizeof *w->vnow);
    w->U = malloc(b * b * sizeof *w->U), w->Xt = malloc(b * 3 * k * sizeof *w->Xt);
    w->work = malloc((mcd_maxdiss_work_size(&largest) + 1) * sizeof *w->work);
    if (!w->sel || !w->W || !w->v || !w->mu || !w->e || !w->P || !w->full || !w->vnow || !w->U ||
        !w->Xt || !w->work)
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory for the impact phase");
    return mcd_stronge_ws_create(K, &w->stronge, err);
}

void mcd_sim_impact_free(mcd_sim *s)
{
    struct mcd_sim_impact *w = s->impact;
    if (!w) return;
    mcd_stronge_ws_free(w->stronge);
    free(w->sel), free(w->W), free(w->v), free(w->mu), free(w->e), free(w->P), free(w->full);
    free(w->vnow), free(w->U), free(w->Xt), free(w->work);
    free(w);
    s->impact = NULL;
}

/* Selects the contacts taking part (touching or closing within the step);
 * returns their number, *closing the number closing faster than v_e. */
static int select_contacts(const mcd_sim *s, const mcd_fc3d *p, int *closing)
{
    struct mcd_sim_impact *w = s->impact;
    const double dt = s->h, ve = s->opt.contact.restitution_velocity;
    int n = 0;
    *closing = 0;
    for (int k = 0; k < p->nc; k++) {
        const double vn = w->vnow[p->nb + 3 * k + MCD_ROW_N], gap = s->contacts[k].gap;
        if (gap + fmin(vn, 0.0) * dt > IMPACT_TOUCH) continue;
        w->sel[n++] = k;
        *closing += vn < -ve && gap + vn * dt < 0;
    }
    return n;
}

/* The selected rows (closure rows, then the selected contacts) of W and
 * vnow into w->W, w->v (size nb + 3 n). */
static void gather(const mcd_sim *s, const mcd_fc3d *p, int n)
{
    struct mcd_sim_impact *w = s->impact;
    const int nb = p->nb, nr = nb + 3 * p->nc, ns = nb + 3 * n;
    for (int i = 0; i < ns; i++) {
        const int ri = i < nb ? i : nb + 3 * w->sel[(i - nb) / 3] + (i - nb) % 3;
        w->v[i] = w->vnow[ri];
        for (int j = 0; j < ns; j++) {
            const int rj = j < nb ? j : nb + 3 * w->sel[(j - nb) / 3] + (j - nb) % 3;
            w->W[(size_t)i * ns + j] = p->W[(size_t)ri * nr + rj];
        }
    }
    for (int a = 0; a < n; a++) {
        w->mu[a] = p->mu[w->sel[a]];
        w->e[a] = s->contacts[w->sel[a]].restitution;
    }
}

/* Stronge's law on the selected rows. With closure rows b, their impulse
 * keeps nu_b: the contacts see W_cc - W_cb W_bb^-1 W_bc and nu_c - W_cb
 * W_bb^-1 nu_b, and p_b = -W_bb^-1 (nu_b + W_bc P_c). W_bb is factored by
 * small_dense.h's floored Cholesky (redundant closures make it singular);
 * Xt = W_cb W_bb^-1 row by row (W_bb symmetric: row i of Xt solves W_bb x =
 * row i of W_cb). */
static mcd_status stronge(mcd_sim *s, int nb, int n, mcd_error *e)
{
    struct mcd_sim_impact *w = s->impact;
    const int ns = nb + 3 * n, m = 3 * n;
    double *Wc = w->W + (size_t)nb * ns + nb, *vc = w->v + nb;
    if (nb > 0) {
        for (int i = 0; i < nb; i++)
            memcpy(w->U + (size_t)i * nb, w->W + (size_t)i * ns, (size_t)nb * sizeof *w->U);
        mcd_small_cholesky_floored(nb, w->U, IMPACT_PIVOT_FLOOR);
        for (int i = 0; i < m; i++) {
            double *Xi = w->Xt + (size_t)i * nb;
            memcpy(Xi, w->W + (size_t)(nb + i) * ns, (size_t)nb * sizeof *Xi);
            mcd_small_cholesky_solve(nb, w->U, Xi);
        }
        for (int i = 0; i < m; i++) {
            const double *Wib = w->W + (size_t)(nb + i) * ns; /* row i of W_cb */
            for (int j = 0; j < m; j++) {
                double t = 0.0;
                for (int k = 0; k < nb; k++) t += Wib[k] * w->Xt[(size_t)j * nb + k];
                Wc[(size_t)i * ns + j] -= t;
            }
            for (int k = 0; k < nb; k++) vc[i] -= w->Xt[(size_t)i * nb + k] * w->v[k];
        }
        for (int i = 0; i < m; i++) /* compact the contact block to stride m */
            memmove(w->W + (size_t)i * m, Wc + (size_t)i * ns, (size_t)m * sizeof *w->W);
        memmove(w->v, vc, (size_t)m * sizeof *w->v);
        for (int i = 0; i < m; i++) { /* symmetric and PSD up to rounding */
            w->W[(size_t)i * m + i] = fmax(w->W[(size_t)i * m + i], 0.0);
            for (int j = 0; j < i; j++) {
                const double a = 0.5 * (w->W[(size_t)i * m + j] + w->W[(size_t)j * m + i]);
                w->W[(size_t)i * m + j] = w->W[(size_t)j * m + i] = a;
            }
        }
    }
    mcd_status r =
        mcd_stronge_solve(w->stronge, n, w->W, w->v, w->mu, w->e, NULL, w->P + nb, NULL, e);
    if (r != MCD_OK || nb == 0) return r;
    for (int k = 0; k < nb; k++) { /* p_b = -(W_bb^-1 nu_b + X P_c), X = Xt^T */
        double t = 0.0;
        for (int j = 0; j < m; j++) t += w->Xt[(size_t)j * nb + k] * w->P[nb + j];
        w->P[k] = -t;
    }
    for (int k = 0; k < nb; k++) w->full[k] = w->vnow[k];
    mcd_small_cholesky_solve(nb, w->U, w->full);
    for (int k = 0; k < nb; k++) w->P[k] -= w->full[k];
    return MCD_OK;
}

static mcd_status maxdiss(mcd_sim *s, int nb, int n, mcd_error *e)
{
    struct mcd_sim_impact *w = s->impact;
    const mcd_fc3d p = {.nc = n, .nb = nb, .W = w->W, .q = w->v, .mu = w->mu};
    mcd_maxdiss_opts o = mcd_maxdiss_default_opts();
    o.tol = s->opt.solver_opts.tol > 0 ? s->opt.solver_opts.tol : o.tol;
    mcd_maxdiss_stats st;
    memset(w->P, 0, (size_t)(nb + 3 * n) * sizeof *w->P);
    mcd_status r = mcd_maxdiss_solve(&p, &o, w->P, w->work, &st, e);
    if (r != MCD_OK && mcd_sim_solution_usable(s, r)) { /* not converged, warned */
        s->solver_failures++;
        return MCD_OK;
    }
    return r;
}

/* Adds the selected impulse w->P to the step and to vnow. */
static mcd_status apply(mcd_sim *s, const mcd_fc3d *p, int n)
{
    struct mcd_sim_impact *w = s->impact;
    const int nb = p->nb, nr = nb + 3 * p->nc;
    memset(w->full, 0, (size_t)nr * sizeof *w->full);
    memcpy(w->full, w->P, (size_t)nb * sizeof *w->full);
    for (int a = 0; a < n; a++)
        memcpy(w->full + nb + 3 * w->sel[a], w->P + nb + 3 * a, 3 * sizeof *w->full);
    mcd_status r = mcd_contact_add_impulse(s->cws, w->full);
    for (int i = 0; r == MCD_OK && i < nr; i++)
        for (int j = 0; j < nr; j++) w->vnow[i] += p->W[(size_t)i * nr + j] * w->full[j];
    return r;
}

mcd_status mcd_sim_impact_phase(mcd_sim *s)
{
    if (s->opt.impact_law == MCD_IMPACT_NEWTON) return MCD_OK;
    struct mcd_sim_impact *w = s->impact;
    mcd_fc3d p;
    mcd_contact_impact_problem(s->cws, &p);
    memcpy(w->vnow, p.q, (size_t)(p.nb + 3 * p.nc) * sizeof *w->vnow);
    for (int round = 0; round < IMPACT_ROUNDS; round++) {
        int closing;
        const int n = select_contacts(s, &p, &closing);
        if (closing == 0) break;
        gather(s, &p, n);
        mcd_error e = {0};
        mcd_status r = s->opt.impact_law == MCD_IMPACT_STRONGE ? stronge(s, p.nb, n, &e)
                                                               : maxdiss(s, p.nb, n, &e);
        if (r == MCD_OK) r = apply(s, &p, n);
        if (r != MCD_OK)
            return mcd_fail(&s->err, r, "t = %.6f: impact law %s: %s", s->t,
                            mcd_impact_law_name(s->opt.impact_law),
                            e.msg[0] ? e.msg : mcd_status_str(r));
    }
    return MCD_OK;
}

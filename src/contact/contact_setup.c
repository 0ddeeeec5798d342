/* One step's contact set-up (include/mcdyn/contact.h): free motion, nodes
 * and rows (Q_b of the closures, Q_u of the contacts), Lambda by the O(N)
 * recursion, W = X Lambda X^T, free velocities and the normal-row targets. */
#include "contact_setup.h"

#include "../dynamics/closure_internal.h"
#include "../dynamics/dynamics_internal.h"
#include "../dynamics/energy_kinematics.h"
#include "../dynamics/osc_internal.h"
#include "contact_internal.h"

#include <math.h>
#include <string.h>

static mcd_status check_contacts(const mcd_model *m, mcd_data *d, const mcd_contact_ws *w,
                                 double dt, int nc, const mcd_contact_point *c,
                                 const mcd_contact_options *o)
{
    if (!(dt > 0) || !isfinite(dt)) return mcd_fail(&d->err, MCD_ERR_ARG, "dt must be > 0");
    if (nc < 0 || nc > w->max_contacts)
        return mcd_fail(&d->err, MCD_ERR_CAPACITY, "%d contacts exceed the workspace's %d", nc,
                        w->max_contacts);
    if (nc > 0 && !c) return mcd_fail(&d->err, MCD_ERR_ARG, "contacts is NULL");
    if (o->nf < 4 || o->nf % 2 || o->nf > w->max_nf)
        return mcd_fail(&d->err, MCD_ERR_ARG, "nf = %d: need an even number in [4, %d]", o->nf,
                        w->max_nf);
    if (!(o->penetration_gain >= 0) || !(o->max_correction_velocity >= 0) ||
        !(o->restitution_velocity >= 0) || !isfinite(o->direction_angle))
        return mcd_fail(&d->err, MCD_ERR_ARG, "invalid contact options");
    if (o->position_correction && !(o->penetration_gain <= 1))
        return mcd_fail(&d->err, MCD_ERR_ARG,
                        "penetration_gain = %g: the position correction removes a fraction in "
                        "[0, 1] of a penetration",
                        o->penetration_gain);
    for (int k = 0; k < nc; k++) {
        const mcd_contact_point *p = &c[k];
        if (p->body_a < 0 || p->body_a >= m->nbody || p->body_b < -1 || p->body_b >= m->nbody ||
            p->body_a == p->body_b)
            return mcd_fail(&d->err, MCD_ERR_ARG, "contact %d: invalid bodies %d, %d", k, p->body_a,
                            p->body_b);
        if (!mcd_v3_isfinite(p->pos) || !mcd_v3_isfinite(p->normal) || !isfinite(p->gap))
            return mcd_fail(&d->err, MCD_ERR_NONFINITE, "contact %d: non-finite geometry", k);
        if (fabs(mcd_v3_norm(p->normal) - 1.0) > 1e-6)
            return mcd_fail(&d->err, MCD_ERR_ARG, "contact %d: the normal is not a unit vector", k);
        if (!(p->mu >= 0) || !isfinite(p->mu) || !(p->restitution >= 0 && p->restitution <= 1))
            return mcd_fail(&d->err, MCD_ERR_ARG, "contact %d: mu = %g, e = %g out of range", k,
                            p->mu, p->restitution);
    }
    return MCD_OK;
}

/* Manifolds (docs/contact.md, "Manifolds"): consecutive contacts of the
 * same two bodies whose normals agree within MANIFOLD_ANGLE are the points
 * of one touching pair of shapes. Collision detection gives such a pair one
 * normal; Bullet's persistent manifold keeps points found at earlier poses,
 * whose normals differ from the newest by the rotation since (1e-12 rad in
 * the box block), far below the angle between distinct faces. */
#define MANIFOLD_ANGLE 1e-6 /* [rad] */

static int same_manifold(const mcd_contact_point *a, const mcd_contact_point *b)
{
    double d[3];
    mcd_v3_sub(d, a->normal, b->normal);
    return a->body_a == b->body_a && a->body_b == b->body_b && mcd_v3_norm(d) <= MANIFOLD_ANGLE;
}

/* The end of the manifold of the consecutive contacts from k. */
static int manifold_end(int nc, const mcd_contact_point *c, int k)
{
    int e = k;
    while (e < nc && same_manifold(&c[k], &c[e])) e++;
    return e;
}

/* The plane eta . x = level of the manifold k .. e - 1: eta the unit mean
 * of its normals, level the mean of eta . pos over its points. */
static double manifold_plane(const mcd_contact_point *c, int k, int e, double eta[3])
{
    double sum = 0.0;
    mcd_v3_set(eta, 0, 0, 0);
    for (int i = k; i < e; i++) mcd_v3_add(eta, eta, c[i].normal);
    mcd_v3_scale(eta, eta, 1.0 / mcd_v3_norm(eta));
    for (int i = k; i < e; i++) sum += mcd_v3_dot(eta, c[i].pos);
    return sum / (e - k);
}

/* Closure rows and points first (indices kept), then each contact's A and
 * B points, both at its position moved along eta onto the plane of its
 * manifold, and its rows (eta, f, o) with the manifold's normal eta on the
 * linear velocity. */
static void build_rows(const mcd_model *m, mcd_data *d, mcd_contact_ws *w, int nc,
                       const mcd_contact_point *c)
{
    int np = 0, nr = 0, angular = 0;
    if (m->nclosure > 0) {
        const mcd_closure_ws *cw = d->closure;
        mcd_closure_assemble_rows(m, d);
        memcpy(w->pts, cw->pts, (size_t)cw->npts * sizeof *w->pts);
        memcpy(w->row_pa, cw->row_pa, (size_t)cw->rows * sizeof *w->row_pa);
        memcpy(w->row_pb, cw->row_pb, (size_t)cw->rows * sizeof *w->row_pb);
        memcpy(w->coef, cw->coef, 6 * (size_t)cw->rows * sizeof *w->coef);
        np = cw->npts, nr = cw->rows;
        for (int i = 0; i < 3 * nr; i++) angular |= w->coef[6 * (i / 3) + i % 3] != 0.0;
    }
    double level = 0.0, eta[3] = {0, 0, 1};
    for (int k = 0, end = 0; k < nc; k++) {
        double *F = w->frame + 9 * k, x[3];
        if (k == end) end = manifold_end(nc, c, k), level = manifold_plane(c, k, end, eta);
        mcd_contact_frame_from_normal(eta, F);
        mcd_v3_copy(x, c[k].pos);
        mcd_v3_axpy(x, level - mcd_v3_dot(eta, c[k].pos), eta);
        const int pa = np, pb = c[k].body_b >= 0 ? np + 1 : -1;
        w->pts[np].body = c[k].body_a;
        mcd_v3_copy(w->pts[np++].x, x);
        if (pb >= 0) {
            w->pts[np].body = c[k].body_b;
            mcd_v3_copy(w->pts[np++].x, x);
        }
        static const int axis_of_row[3] = {
            [MCD_ROW_N] = MCD_AXIS_N, [MCD_ROW_F] = MCD_AXIS_F, [MCD_ROW_O] = MCD_AXIS_O};
        for (int r = 0; r < 3; r++, nr++) {
            double *a = w->coef + 6 * nr;
            a[0] = a[1] = a[2] = 0.0;
            mcd_v3_copy(a + 3, F + 3 * axis_of_row[r]);
            w->row_pa[nr] = pa;
            w->row_pb[nr] = pb;
        }
        w->mu[k] = c[k].mu;
    }
    w->npts = np;
    w->nrows = nr;
    w->rows = angular ? MCD_OSC_SPATIAL : MCD_OSC_LINEAR;
}

/* out_i = c_i . (v_A - v_B) from the point velocities in w->pt_vel. */
static void row_products(mcd_contact_ws *w, double *out)
{
    for (int i = 0; i < w->nrows; i++) {
        const double *a = w->coef + 6 * i, *va = w->pt_vel + 6 * w->row_pa[i];
        double v = 0.0;
        for (int j = 0; j < 6; j++) v += a[j] * va[j];
        if (w->row_pb[i] >= 0) {
            const double *vb = w->pt_vel + 6 * w->row_pb[i];
            for (int j = 0; j < 6; j++) v -= a[j] * vb[j];
        }
        out[i] = v;
    }
}

mcd_status mcd_contact_row_velocities(const mcd_model *m, mcd_data *d, mcd_contact_ws *w,
                                      const double *qd, double *out)
{
    mcd_status s = mcd_osc_velocities(m, d, qd, w->npts, w->pts, MCD_OSC_SPATIAL, w->pt_vel);
    if (s == MCD_OK) row_products(w, out);
    return s;
}

/* mcd_contact_row_velocities of the qd whose body velocities V are already
 * in d (the free motion's velocity pass), without the pass: each point's
 * [w; v_O + w x x] as mcd_osc_velocities forms it, then the rows. */
static void row_velocities_of_bodies(const mcd_data *d, mcd_contact_ws *w, double *out)
{
    for (int i = 0; i < w->npts; i++) {
        const double *V = d->bd[w->pts[i].body].V;
        double *v = w->pt_vel + 6 * i, t[3];
        mcd_v3_cross(t, V, w->pts[i].x);
        mcd_v3_copy(v, V);
        mcd_v3_add(v + 3, V + 3, t);
    }
    row_products(w, out);
}

/* The step's groups: rows in group order (a stable counting sort keeps
 * each group's closure rows before its contacts), then per group its
 * points, Lambda_g of those points only (the O(N) + O(K_g^2) recursion;
 * its blocks between points without a common moving ancestor are zero)
 * and W_g = X_g Lambda_g X_g^T into the pool Wg; a group on one free body
 * without children has W_g in closed form from the body's inertia instead
 * (osc_free_body.c), the same matrix without the sweep. */
static void order_groups(mcd_contact_ws *w)
{
    const int ng = w->ng;
    for (int g = 0; g <= ng; g++) w->g_start[g] = 0;
    for (int i = 0; i < w->nrows; i++) w->g_start[w->row_group[i] + 1]++;
    for (int g = 0; g < ng; g++) w->g_start[g + 1] += w->g_start[g];
    for (int g = 0; g < ng; g++) {
        w->g_nb[g] = 0;       /* cursor, then closure rows */
        w->g_corrects[g] = 0; /* until mcd_contact_correction_begin decides */
    }
    for (int i = 0; i < w->nrows; i++) {
        const int g = w->row_group[i];
        w->order[w->g_start[g] + w->g_nb[g]++] = i;
    }
    int c0 = 0;
    for (int g = 0; g < ng; g++) {
        int nb = 0;
        while (nb < w->g_nb[g] && w->order[w->g_start[g] + nb] < w->nb) nb++;
        w->g_nb[g] = nb;
        w->g_c0[g] = c0;
        c0 += (w->g_start[g + 1] - w->g_start[g] - nb) / 3;
    }
}

/* Group g's points (local numbering), rows and coefficients. */
static int gather_group(mcd_contact_ws *w, int g)
{
    int np = 0;
    for (int l = 0, i; l < w->g_start[g + 1] - w->g_start[g]; l++) {
        i = w->order[w->g_start[g] + l];
        const int p[2] = {w->row_pa[i], w->row_pb[i]};
        int *local[2] = {&w->g_pa[l], &w->g_pb[l]};
        for (int s = 0; s < 2; s++) {
            if (p[s] < 0) {
                *local[s] = -1;
                continue;
            }
            if (w->pt_local[p[s]] < 0) {
                w->pt_local[p[s]] = np;
                w->gpts[np++] = w->pts[p[s]];
            }
            *local[s] = w->pt_local[p[s]];
        }
        memcpy(w->g_coef + 6 * l, w->coef + 6 * i, 6 * sizeof *w->g_coef);
    }
    for (int l = w->g_start[g]; l < w->g_start[g + 1]; l++) { /* back to -1 */
        w->pt_local[w->row_pa[w->order[l]]] = -1;
        if (w->row_pb[w->order[l]] >= 0) w->pt_local[w->row_pb[w->order[l]]] = -1;
    }
    return np;
}

static mcd_status group_compliance(const mcd_model *m, mcd_data *d, mcd_contact_ws *w)
{
    w->ng = mcd_contact_partition(&w->grp, w->nrows, w->pts, w->row_pa, w->row_pb, w->row_group);
    order_groups(w);
    size_t total = 0;
    for (int g = 0; g < w->ng; g++) {
        const size_t n = (size_t)(w->g_start[g + 1] - w->g_start[g]);
        w->g_W0[g] = total;
        total += n * n;
    }
    if (mcd_contact_reserve(&w->Wg, total) != MCD_OK)
        return mcd_fail(&d->err, MCD_ERR_NOMEM, "out of memory for the W blocks (%zu doubles)",
                        total);
    const size_t r = (size_t)w->rows;
    for (int g = 0; g < w->ng; g++) {
        const int n = w->g_start[g + 1] - w->g_start[g], np = gather_group(w, g);
        const int body = mcd_osc_single_free_body(m, np, w->gpts);
        if (body >= 0) { /* closed form, no O(N) sweep */
            mcd_osc_free_body_row_compliance(m, d, body, w->gpts, w->rows, n, w->g_pa, w->g_pb,
                                             w->g_coef, w->g_work, w->Wg.p + w->g_W0[g]);
            continue;
        }
        if (mcd_contact_reserve(&w->Lambda, r * np * r * np) != MCD_OK)
            return mcd_fail(&d->err, MCD_ERR_NOMEM, "out of memory for Lambda of %d points", np);
        mcd_status s = mcd_osc_compliance(m, d, np, w->gpts, w->rows, w->Lambda.p);
        if (s != MCD_OK) return s;
        mcd_osc_row_compliance(np, w->Lambda.p, w->rows, n, w->g_pa, w->g_pb, w->g_coef,
                               w->Wg.p + w->g_W0[g]);
    }
    w->whole_valid = 0;
    return MCD_OK;
}

/* nu_n+ >= max(-e nu_n-, b): the target folded into the normal row; the
 * penetration branch of b for every point of a manifold that penetrates
 * anywhere (docs/contact.md, "Manifolds"), 0 when the position step removes
 * the penetration instead ("Split correction"). */
static double penetration_target(const mcd_contact_point *c, double dt,
                                 const mcd_contact_options *o)
{
    if (o->position_correction) return 0.0;
    return fmin(o->penetration_gain * -c->gap / dt, o->max_correction_velocity);
}

static double normal_target(const mcd_contact_point *c, int penetrating, double nu_n, double dt,
                            const mcd_contact_options *o)
{
    double b = penetrating ? penetration_target(c, dt, o) : -c->gap / dt;
    int closes = !o->no_restitution && nu_n < -o->restitution_velocity && c->gap + nu_n * dt < 0;
    return closes ? fmax(-c->restitution * nu_n, b) : b;
}

/* Some point of the manifold k .. e - 1 penetrates. */
static int manifold_penetrates(const mcd_contact_point *c, int k, int e)
{
    for (int i = k; i < e; i++)
        if (c[i].gap < 0) return 1;
    return 0;
}

/* MLCP direction angles in the (f, o) plane: nf evenly spaced with their
 * opposites, the first along -nu_t- (aligned) or at the fixed angle. */
static void directions(mcd_contact_ws *w, int k, const mcd_contact_options *o)
{
    const double *v = w->out_velocity + 3 * k;
    double first = o->direction_angle;
    if (o->directions == MCD_DIRECTIONS_ALIGNED)
        first = hypot(v[MCD_AXIS_F], v[MCD_AXIS_O]) > 1e-12 ? atan2(-v[MCD_AXIS_O], -v[MCD_AXIS_F])
                                                            : 0.0;
    for (int j = 0; j < o->nf; j++) w->theta[w->max_nf * k + j] = first + 2.0 * M_PI * j / o->nf;
}

/* The free acceleration dq = M^{-1} (tau - b) by mcd_forward_dynamics, or,
 * when the kinematics of q are already in d, by its part after the
 * kinematics pass (mcd_forward_dynamics_after_kinematics): the same dq, the
 * same articulated-body factorization left in d. */
static mcd_status free_acceleration(const mcd_model *m, mcd_data *d, const double *q,
                                    const double *qd, const double *tau, int kinematics_done,
                                    double *dq)
{
    if (!kinematics_done) return mcd_forward_dynamics(m, d, q, qd, tau, NULL, dq);
    mcd_status s = mcd_check_vector_nv(m, d, "qd", qd);
    if (s == MCD_OK) s = mcd_check_vector_nv(m, d, "tau", tau);
    return s == MCD_OK ? mcd_forward_dynamics_after_kinematics(m, d, qd, tau, NULL, dq) : s;
}

mcd_status mcd_contact_setup(const mcd_model *m, mcd_data *d, mcd_contact_ws *w, const double *q,
                             const double *qd, const double *tau, double dt, int nc,
                             const mcd_contact_point *c, const mcd_contact_options *opt)
{
    return mcd_contact_setup_at(m, d, w, q, qd, tau, dt, nc, c, opt, 0, NULL);
}

mcd_status mcd_contact_setup_at(const mcd_model *m, mcd_data *d, mcd_contact_ws *w, const double *q,
                                const double *qd, const double *tau, double dt, int nc,
                                const mcd_contact_point *c, const mcd_contact_options *opt,
                                int kinematics_done, double *kinetic)
{
    if (!m || !d || !w) return MCD_ERR_ARG;
    mcd_contact_options o = opt ? *opt : mcd_contact_default_options();
    mcd_status s = check_contacts(m, d, w, dt, nc, c, &o);
    if (s == MCD_OK) s = free_acceleration(m, d, q, qd, tau, kinematics_done, w->dq);
    if (s != MCD_OK) return s;
    w->nc = nc, w->nf = o.nf, w->dt = dt;
    for (int i = 0; i < m->nv; i++) w->qd_free[i] = qd[i] + dt * w->dq[i];
    build_rows(m, d, w, nc, c);
    /* the free motion's pass left V(qd): nu- and T(q, qd) from it */
    row_velocities_of_bodies(d, w, w->nu_minus);
    if (kinetic) *kinetic = mcd_kinetic_energy_of_velocities(m, d);
    if ((s = group_compliance(m, d, w)) != MCD_OK ||
        (s = mcd_contact_row_velocities(m, d, w, w->qd_free, w->nu_free)) != MCD_OK)
        return s;
    if (o.position_correction && mcd_contact_correction_reserve(w) != MCD_OK)
        return mcd_fail(&d->err, MCD_ERR_NOMEM, "out of memory for the position correction");
    memcpy(w->fc_q, w->nu_free, (size_t)w->nrows * sizeof *w->fc_q);
    for (int k = 0, end = 0, penetrating = 0; k < nc; k++) {
        const int row = w->nb + 3 * k;
        double *v = w->out_velocity + 3 * k;
        if (k == end) end = manifold_end(nc, c, k), penetrating = manifold_penetrates(c, k, end);
        mcd_contact_rows_to_axes(w->nu_minus + row, v);
        w->fc_q[row + MCD_ROW_N] -= normal_target(&c[k], penetrating, v[MCD_AXIS_N], dt, &o);
        directions(w, k, &o);
        memset(w->out_impulse + 3 * k, 0, 3 * sizeof *w->out_impulse);
    }
    memset(w->impulse, 0, (size_t)w->nrows * sizeof *w->impulse);
    memset(w->prior, 0, (size_t)w->nrows * sizeof *w->prior);
    return MCD_OK;
}

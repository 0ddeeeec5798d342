/* Warm start of the step's solves from the previous step's impulses
 * (src/sim/sim_internal.h; docs/scenarios.md, solver.warm_start).
 *
 * After every solve the step's contacts are recorded: body pair, world
 * point and the impulse on body A in world axes, F = F_f f + F_o o +
 * F_n eta. Before the next solve each new contact k is matched to the
 * recorded contact of the same body pair (either order: the impulse on A
 * changes sign with the order) whose point is nearest, if it lies within
 * MATCH_RADIUS; unmatched contacts start at zero. The matched impulse is
 * kept as a world vector and projected on the new frame (f, o, eta), so a
 * rotated normal or tangent plane transports the force itself rather than
 * its old components; the start is then projected on the new friction cone
 * {F_n >= 0, |F_t| <= mu F_n}, so every formulation gets an admissible
 * start. Closure rows start at zero (their rows are not matched).
 *
 * Per formulation: the frictional-contact problems (MNCP, CCP, maximum
 * dissipation) start from (F_n, F_f, F_o) per contact; the MLCP from
 * (F_n, beta, sigma): its friction directions are re-aligned to each
 * step's slip (contact.h), so the friction impulse (F_f, F_o) is written
 * on the step's own directions (friction_on_directions, from
 * mcd_contact_direction_angle): beta >= 0 on the two
 * that bracket it, 0 on the others; sigma, the slip speed, a frame-free
 * scalar, is kept per contact from the MLCP solution's sigma rows
 * (mcd_sim_warm_keep_mlcp) and recorded with the impulse. nslcp-lemke
 * starts from its own friction memory instead (mcd_nslcp_start, matched
 * as Eq. 42 of its paper matches), this file deciding only whether a
 * group starts warm (mcd_sim_warm_group); mlcp-lemke also starts from the
 * previous solution's basis of the matched contacts (sim_warm_basis.c,
 * through mcd_sim_warm_match_of).
 * A group none of whose contacts matched is solved cold, exactly as with
 * warm start off, and so is, a second time, a group whose warm-started
 * solve did not converge (sim_solve.c): a start near the previous step's
 * answer can sit on the wrong side of a change of contact mode (a box that
 * stops sliding: last step's friction on the cone's boundary), and the
 * repeat makes a warm-started solve fail only where the cold one fails
 * too. Storage is made with the capacity; a step allocates nothing (a
 * step that grows the capacity starts cold). */
#include "sim_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* [m] Contact points of one body pair closer than this are the same
 * contact: a point moves by |v| dt (1 mm at 1 m/s, dt = 1 ms) per step,
 * and distinct points of one pair (box corners, feet) lie centimetres
 * apart. A wrong match costs only iterations: the start is a guess. */
#define MATCH_RADIUS 5e-3

struct mcd_sim_warm {
    int n;               /* contacts recorded */
    int *pair;           /* 2 per recorded contact: body_a, body_b */
    double *pos;         /* 3 per recorded contact: world point */
    double *F;           /* 3 per recorded contact: impulse on A, world axes */
    double *sigma;       /* per recorded contact: the MLCP's slip speed sigma (0 if none) */
    double *start;       /* 3 per contact of the step: (F_n, F_f, F_o), its frame */
    double *start_sigma; /* per contact of the step: the matched sigma */
    double *step_sigma;  /* per contact of the step: sigma of its MLCP solution */
    char *matched;       /* per contact of the step */
    int *match;          /* per contact of the step: the recorded contact it matched, or -1 */
    double *match_sign;  /* per contact of the step: -1 if recorded in the other order, else 1 */
    int cold;            /* 1: the solves start cold (the retry of a failed warm solve) */
};

mcd_status mcd_sim_warm_create(mcd_sim *s, mcd_error *err)
{
    struct mcd_sim_warm *w = calloc(1, sizeof *w);
    s->warm = w;
    if (!w) return mcd_fail(err, MCD_ERR_NOMEM, "warm start: out of memory");
    const size_t cap = (size_t)s->cap;
    w->pair = calloc(2 * cap + 1, sizeof *w->pair);
    w->pos = calloc(3 * cap + 1, sizeof *w->pos);
    w->F = calloc(3 * cap + 1, sizeof *w->F);
    w->sigma = calloc(cap + 1, sizeof *w->sigma);
    w->start = calloc(MCD_FC3D_ROWS * cap + 1, sizeof *w->start);
    w->start_sigma = calloc(cap + 1, sizeof *w->start_sigma);
    w->step_sigma = calloc(cap + 1, sizeof *w->step_sigma);
    w->matched = calloc(cap + 1, sizeof *w->matched);
    w->match = calloc(cap + 1, sizeof *w->match);
    w->match_sign = calloc(cap + 1, sizeof *w->match_sign);
    if (!w->pair || !w->pos || !w->F || !w->sigma || !w->start || !w->start_sigma ||
        !w->step_sigma || !w->matched || !w->match || !w->match_sign)
        return mcd_fail(err, MCD_ERR_NOMEM, "warm start: out of memory");
    return MCD_OK;
}

void mcd_sim_warm_free(mcd_sim *s)
{
    struct mcd_sim_warm *w = s->warm;
    if (!w) return;
    free(w->pair), free(w->pos), free(w->F), free(w->sigma), free(w->start);
    free(w->start_sigma), free(w->step_sigma), free(w->matched), free(w->match);
    free(w->match_sign);
    free(w);
    s->warm = NULL;
}

/* The recorded contact nearest to c within MATCH_RADIUS with c's body pair
 * (sign -1 when recorded in the other order), or -1. */
static int nearest(const struct mcd_sim_warm *w, const mcd_contact_point *c, double *sign)
{
    int best = -1;
    double best_d2 = MATCH_RADIUS * MATCH_RADIUS;
    for (int i = 0; i < w->n; i++) {
        const int *pr = w->pair + 2 * i;
        const int same = pr[0] == c->body_a && pr[1] == c->body_b;
        if (!same && !(pr[0] == c->body_b && pr[1] == c->body_a)) continue;
        double d[3];
        mcd_v3_sub(d, w->pos + 3 * i, c->pos);
        const double d2 = mcd_v3_dot(d, d);
        if (d2 <= best_d2) best = i, best_d2 = d2, *sign = same ? 1.0 : -1.0;
    }
    return best;
}

/* start = the world impulse F in the frame R (rows f, o, eta: mcd_contact_axis)
 * as (F_n, F_f, F_o) (mcd_fc3d_row), projected on the cone of mu. */
static void start_in_frame(const double F[3], const double R[9], double mu, double sign,
                           double start[MCD_FC3D_ROWS])
{
    double Fn = sign * mcd_v3_dot(R + 3 * MCD_AXIS_N, F),
           Ff = sign * mcd_v3_dot(R + 3 * MCD_AXIS_F, F),
           Fo = sign * mcd_v3_dot(R + 3 * MCD_AXIS_O, F);
    Fn = fmax(Fn, 0.0);
    const double Ft = hypot(Ff, Fo), bound = mu * Fn;
    if (Ft > bound) {
        const double scale = Ft > 0 ? bound / Ft : 0.0;
        Ff *= scale, Fo *= scale;
    }
    start[MCD_FC3D_N] = Fn, start[MCD_FC3D_T1] = Ff, start[MCD_FC3D_T2] = Fo;
}

void mcd_sim_warm_match(mcd_sim *s)
{
    struct mcd_sim_warm *w = s->warm;
    for (int k = 0; k < s->ncontacts; k++) {
        const mcd_contact_point *c = &s->contacts[k];
        double sign = 1.0;
        const int i = nearest(w, c, &sign);
        w->matched[k] = i >= 0;
        w->match[k] = i, w->match_sign[k] = sign;
        w->start_sigma[k] = i >= 0 ? w->sigma[i] : 0.0;
        w->step_sigma[k] = 0.0; /* until an MLCP solution gives it */
        if (i >= 0)
            start_in_frame(w->F + 3 * i, mcd_contact_frame(s->cws, k), c->mu, sign,
                           w->start + MCD_FC3D_ROWS * k);
        else
            memset(w->start + MCD_FC3D_ROWS * k, 0, MCD_FC3D_ROWS * sizeof *w->start);
    }
    mcd_sim_warm_basis_forget_step(s);
}

int mcd_sim_warm_match_of(const mcd_sim *s, int k, double *sign)
{
    *sign = s->warm->match_sign[k];
    return s->warm->match[k];
}

void mcd_sim_warm_record(mcd_sim *s)
{
    struct mcd_sim_warm *w = s->warm;
    for (int k = 0; k < s->ncontacts; k++) {
        const mcd_contact_point *c = &s->contacts[k];
        const double *Fc = mcd_contact_impulse(s->cws, k); /* mcd_contact_axis */
        const double *R = mcd_contact_frame(s->cws, k);    /* rows f, o, eta */
        double *F = w->F + 3 * k;
        for (int a = 0; a < 3; a++)
            F[a] = Fc[MCD_AXIS_F] * R[3 * MCD_AXIS_F + a] + Fc[MCD_AXIS_O] * R[3 * MCD_AXIS_O + a] +
                   Fc[MCD_AXIS_N] * R[3 * MCD_AXIS_N + a];
        w->sigma[k] = w->step_sigma[k];
        w->pair[2 * k] = c->body_a, w->pair[2 * k + 1] = c->body_b;
        mcd_v3_copy(w->pos + 3 * k, c->pos);
    }
    w->n = s->ncontacts;
    mcd_sim_warm_basis_record(s);
}

int mcd_sim_warm_group(const mcd_sim *s, int g)
{
    if (!s->opt.solver_opts.warm_start || s->warm->cold) return 0;
    for (int j = 0; j < mcd_contact_group_ncontacts(s->cws, g); j++)
        if (s->warm->matched[mcd_contact_group_contact(s->cws, g, j)]) return 1;
    return 0;
}

void mcd_sim_warm_set_cold(mcd_sim *s, int cold)
{
    s->warm->cold = cold;
}

int mcd_sim_warm_fc3d(const mcd_sim *s, int g, const mcd_fc3d *p, double *r)
{
    memset(r, 0, (size_t)mcd_fc3d_size(p) * sizeof *r);
    if (!mcd_sim_warm_group(s, g)) return 0;
    for (int j = 0; j < p->nc; j++)
        memcpy(r + p->nb + MCD_FC3D_ROWS * j,
               s->warm->start + MCD_FC3D_ROWS * mcd_contact_group_contact(s->cws, g, j),
               MCD_FC3D_ROWS * sizeof *r);
    return 1;
}

/* beta (nf) of the friction impulse (F_f, F_o) on directions theta_l =
 * first + l h, h = 2 pi / nf: in the sector [theta_l, theta_l + h) that
 * holds its angle theta_l + a, F_t = beta_l d_l + beta_{l+1} d_{l+1} with
 * beta_l = |F_t| sin(h - a) / sin h and beta_{l+1} = |F_t| sin a / sin h
 * (the law of sines), the others 0. */
static void friction_on_directions(double Ff, double Fo, double first, int nf, double *beta)
{
    memset(beta, 0, (size_t)nf * sizeof *beta);
    const double Ft = hypot(Ff, Fo), h = 2.0 * M_PI / nf;
    if (!(Ft > 0)) return;
    const double phi = fmod(fmod(atan2(Fo, Ff) - first, 2.0 * M_PI) + 2.0 * M_PI, 2.0 * M_PI);
    const int l = phi / h < nf - 1 ? (int)(phi / h) : nf - 1; /* phi / h can round to nf */
    const double a = fmin(fmax(phi - l * h, 0.0), h);
    beta[l] = Ft * sin(h - a) / sin(h);
    beta[(l + 1) % nf] += Ft * sin(a) / sin(h);
}

/* The MLCP rows of a group: mcd_sim_mlcp_contact_rows. */
int mcd_sim_warm_mlcp(const mcd_sim *s, int g, const mcd_mlcp *p, double *z)
{
    memset(z, 0, (size_t)p->n * sizeof *z);
    if (!mcd_sim_warm_group(s, g)) return 0;
    const int nc = mcd_contact_group_ncontacts(s->cws, g), nf = s->opt.contact.nf;
    for (int j = 0; j < nc; j++) {
        const int k = mcd_contact_group_contact(s->cws, g, j);
        const double *start = s->warm->start + MCD_FC3D_ROWS * k;
        int first, sigma_row;
        mcd_sim_mlcp_contact_rows(p, nc, nf, j, &first, &sigma_row);
        double *row = z + first;
        row[0] = start[MCD_FC3D_N];
        friction_on_directions(start[MCD_FC3D_T1], start[MCD_FC3D_T2],
                               mcd_contact_direction_angle(s->cws, k), nf, row + 1);
        /* sigma alone, with no beta (F_t projected to 0), would make the
         * guessed basis singular: sigma's column is -E on the beta rows */
        const int slides = hypot(start[MCD_FC3D_T1], start[MCD_FC3D_T2]) > 0;
        z[sigma_row] = slides ? s->warm->start_sigma[k] : 0.0;
    }
    return 1;
}

void mcd_sim_warm_keep_mlcp(mcd_sim *s, int g, const mcd_mlcp *p, const double *z)
{
    const int nc = mcd_contact_group_ncontacts(s->cws, g), nf = s->opt.contact.nf;
    for (int j = 0; j < nc; j++) {
        int row, sigma_row;
        mcd_sim_mlcp_contact_rows(p, nc, nf, j, &row, &sigma_row);
        s->warm->step_sigma[mcd_contact_group_contact(s->cws, g, j)] = z[sigma_row];
    }
}

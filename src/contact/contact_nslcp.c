/* The non-singular friction LCP of Peiret et al. (2017) from a step's
 * contact set-up (include/mcdyn/nslcp.h): stick/slide directions, the
 * relaxation of Eq. (39)-(42), the Schur complement of the free impulses
 * (closure rows and tangent rows) and the recovery of the impulses, for
 * one independent group of the step at a time (contact.h: its rows of W
 * only) or for the whole step as one problem. The per-contact terms and the
 * friction forces remembered for Eq. (42) are kept per step contact, so
 * that the match with the previous step does not depend on the groups.
 *
 * Storage: the free block A_ff and the columns B, Y = A_ff^{-1} B are
 * column-major with leading dimension nfree (LAPACK); M is row-major. */
#include "../base/lapack.h"
#include "contact_internal.h"
#include "mcdyn/nslcp.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Per contact of a step: its bodies, position and world friction force,
 * and its solution (the warm start, mcd_nslcp_start): p_n, its mode and
 * directions, and (w_up, w_lo) of each direction. */
typedef struct contact_memory {
    int *a, *b;
    double *x, *lt; /* 3 per contact */
    double *pn;     /* per contact */
    double *vel;    /* 2 max_dir per contact */
    int *ndir;      /* per contact */
    unsigned char *sliding;
} contact_memory;

static void memory_free(contact_memory *m)
{
    free(m->a), free(m->b), free(m->x), free(m->lt), free(m->pn), free(m->vel), free(m->ndir);
    free(m->sliding);
}

/* Storage for c contacts of max_dir directions; 0 when out of memory. */
static int memory_alloc(contact_memory *m, size_t c, size_t max_dir)
{
    m->a = malloc(c * sizeof *m->a), m->b = malloc(c * sizeof *m->b);
    m->x = malloc(3 * c * sizeof *m->x), m->lt = malloc(3 * c * sizeof *m->lt);
    m->pn = malloc(c * sizeof *m->pn), m->vel = malloc(2 * c * max_dir * sizeof *m->vel);
    m->ndir = malloc(c * sizeof *m->ndir), m->sliding = malloc(c);
    return m->a && m->b && m->x && m->lt && m->pn && m->vel && m->ndir && m->sliding;
}

/* The first n contacts of src into dst (max_dir directions each). */
static void memory_copy(contact_memory *dst, const contact_memory *src, size_t n, size_t max_dir)
{
    memcpy(dst->a, src->a, n * sizeof *src->a), memcpy(dst->b, src->b, n * sizeof *src->b);
    memcpy(dst->x, src->x, 3 * n * sizeof *src->x),
        memcpy(dst->lt, src->lt, 3 * n * sizeof *src->lt);
    memcpy(dst->pn, src->pn, n * sizeof *src->pn),
        memcpy(dst->ndir, src->ndir, n * sizeof *src->ndir);
    memcpy(dst->sliding, src->sliding, n);
    memcpy(dst->vel, src->vel, 2 * n * max_dir * sizeof *src->vel);
}

struct mcd_nslcp_ws {
    int max_contacts, nb, max_dir, max_n, max_free;
    /* the step (mcd_nslcp_setup), per step contact k */
    int nc;                 /* contacts */
    double h, eps_b, rho;   /* step; closure relaxation, Eq. (40); phantom inertia */
    double *dir;            /* 2 max_dir per contact: (cos, sin) in the (f, o) plane */
    double *mu_dir;         /* max_dir per contact: the bound of each direction */
    int *ndir;              /* per contact: directions */
    unsigned char *sliding; /* per contact */
    double *eps_n, *eps_t;  /* per contact: Eq. (40) */
    double *d;              /* 3 per contact (n, f, o): Eq. (41)-(42) */
    double *back;           /* 3 per contact: position moved back by h nu- */
    unsigned char *taken;   /* per contact: its problem's solution taken */
    int *match;             /* per contact: the previous step's contact matched, or -1 */
    /* the problem built last: group g, or the whole step (g = -1) */
    int built, g;
    mcd_contact_block blk;   /* its rows and W block */
    int K, n, nfree;         /* directions, LCP size, free impulses */
    int *contact, *off;      /* per local contact: step index, offset among the K */
    double *M, *q, *lo, *hi; /* the LCP (max_n^2, max_n) */
    double *Aff;             /* max_free^2, then its Cholesky factor */
    double *B, *Y;           /* max_free x max_n */
    int *tangent;            /* max_n: B's column of a direction has two entries, in rows
                                tangent, tangent + 1; -1 for a normal's column */
    double *y0;              /* max_free: A_ff^{-1} q_f */
    double *x;               /* max_free: the free impulses */
    double *r;               /* nb + 3 max_contacts: impulses in fc3d order */
    /* lambda_t of Eq. (42): the previous step's contacts and this step's,
     * which become the previous ones once every contact is taken */
    int nprev;
    contact_memory prev, cur;
};

mcd_nslcp_options mcd_nslcp_default_options(void)
{
    mcd_nslcp_options o = {1e10, 1e8, 1e8, 1e5, 1e10, 1e8, 1e-3, 1e-2, 2, 1e-2};
    return o;
}

mcd_status mcd_nslcp_check_options(const mcd_nslcp_options *o, mcd_error *err)
{
    if (!o) return mcd_fail(err, MCD_ERR_ARG, "nslcp: NULL options");
    const double v[9] = {o->k_n, o->b_n,  o->k_t, o->b_t,           o->k_b,
                         o->b_b, o->v_th, o->rho, o->match_distance};
    static const char *const name[9] = {"k_n", "b_n",  "k_t", "b_t",           "k_b",
                                        "b_b", "v_th", "rho", "match_distance"};
    for (int i = 0; i < 9; i++) {
        if (!isfinite(v[i]))
            return mcd_fail(err, MCD_ERR_NONFINITE, "nslcp: %s is not finite", name[i]);
        if (v[i] < 0) return mcd_fail(err, MCD_ERR_ARG, "nslcp: %s = %g < 0", name[i], v[i]);
    }
    if (o->k_n + o->b_n == 0 || o->k_t + o->b_t == 0 || o->k_b + o->b_b == 0)
        return mcd_fail(err, MCD_ERR_ARG,
                        "nslcp: k_n + b_n, k_t + b_t and k_b + b_b must be > 0 (relaxation of "
                        "Eq. 40)");
    if (o->ndir < 2 || o->ndir > MCD_NSLCP_MAX_DIR)
        return mcd_fail(err, MCD_ERR_ARG, "nslcp: ndir = %d not in [2, %d]", o->ndir,
                        MCD_NSLCP_MAX_DIR);
    return MCD_OK;
}

/* a b <= SIZE_MAX / sizeof(double) (a, b > 0). */
static int doubles_fit(size_t a, size_t b)
{
    return a <= SIZE_MAX / sizeof(double) / b;
}

/* The LCP size max_n = max_contacts (1 + 2 max_dir) and the free impulses
 * max_free = nb + 2 max_contacts fit in an int, and the arrays M, B, Y and
 * A_ff, of (max_n + 1)^2, (max_free + 1)(max_n + 1), (max_free + 1)^2
 * doubles, in a size_t. */
static int sizes_fit(int max_contacts, int nb, int max_dir)
{
    const long long n = (long long)max_contacts * (1 + 2 * max_dir) + 1,
                    f = nb + 2LL * max_contacts + 1;
    return n <= INT_MAX && f <= INT_MAX && doubles_fit((size_t)n, (size_t)n) &&
           doubles_fit((size_t)f, (size_t)n) && doubles_fit((size_t)f, (size_t)f);
}

void mcd_nslcp_ws_free(mcd_nslcp_ws *w)
{
    if (!w) return;
    free(w->dir), free(w->mu_dir), free(w->ndir), free(w->sliding), free(w->eps_n);
    free(w->eps_t), free(w->d), free(w->back), free(w->taken), free(w->contact);
    free(w->off), free(w->M), free(w->q), free(w->lo), free(w->hi), free(w->Aff), free(w->B);
    free(w->Y), free(w->tangent), free(w->y0), free(w->x), free(w->r), free(w->match);
    memory_free(&w->prev), memory_free(&w->cur);
    free(w);
}

mcd_status mcd_nslcp_ws_create(int max_contacts, int nb, int max_dir, mcd_nslcp_ws **out,
                               mcd_error *err)
{
    if (!out || max_contacts < 0 || nb < 0 || max_dir < 2 || max_dir > MCD_NSLCP_MAX_DIR)
        return mcd_fail(err, MCD_ERR_ARG, "nslcp: bad workspace size");
    if (!sizes_fit(max_contacts, nb, max_dir))
        return mcd_fail(err, MCD_ERR_CAPACITY,
                        "nslcp: workspace of %d contacts, %d closure rows "
                        "and %d directions overflows its sizes",
                        max_contacts, nb, max_dir);
    mcd_nslcp_ws *w = calloc(1, sizeof *w);
    if (!w) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    w->max_contacts = max_contacts, w->nb = nb, w->max_dir = max_dir;
    w->max_n = max_contacts * (1 + 2 * max_dir);
    w->max_free = nb + 2 * max_contacts;
    const size_t c = (size_t)(max_contacts ? max_contacts : 1), n = (size_t)(w->max_n + 1),
                 f = (size_t)(w->max_free + 1), dc = c * (size_t)max_dir;
    w->dir = malloc(2 * dc * sizeof *w->dir), w->mu_dir = malloc(dc * sizeof *w->mu_dir);
    w->ndir = malloc(c * sizeof *w->ndir), w->sliding = malloc(c);
    w->eps_n = malloc(c * sizeof *w->eps_n), w->eps_t = malloc(c * sizeof *w->eps_t);
    w->d = malloc(3 * c * sizeof *w->d), w->back = malloc(3 * c * sizeof *w->back);
    w->taken = calloc(c, 1);
    w->contact = malloc(c * sizeof *w->contact), w->off = malloc(c * sizeof *w->off);
    w->M = malloc(n * n * sizeof *w->M), w->q = malloc(n * sizeof *w->q);
    w->lo = malloc(n * sizeof *w->lo), w->hi = malloc(n * sizeof *w->hi);
    w->Aff = malloc(f * f * sizeof *w->Aff);
    w->B = malloc(f * n * sizeof *w->B), w->Y = malloc(f * n * sizeof *w->Y);
    w->tangent = malloc(n * sizeof *w->tangent);
    w->y0 = malloc(f * sizeof *w->y0), w->x = malloc(f * sizeof *w->x);
    w->r = malloc(((size_t)nb + 3 * c) * sizeof *w->r);
    w->match = malloc(c * sizeof *w->match);
    const int memory =
        memory_alloc(&w->prev, c, (size_t)max_dir) && memory_alloc(&w->cur, c, (size_t)max_dir);
    if (!w->dir || !w->mu_dir || !w->ndir || !w->sliding || !w->eps_n || !w->eps_t || !w->d ||
        !w->back || !w->taken || !w->contact || !w->off || !w->M || !w->q || !w->lo || !w->hi ||
        !w->Aff || !w->B || !w->Y || !w->tangent || !w->y0 || !w->x || !w->r || !w->match ||
        !memory) {
        mcd_nslcp_ws_free(w);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    }
    *out = w;
    return MCD_OK;
}

int mcd_nslcp_capacity(const mcd_nslcp_ws *w)
{
    return w ? w->max_n : 0;
}

/* The previous step's friction force [N] of contact k, in (f, o): that of
 * the nearest previous contact of the same bodies within match_distance of
 * the point moved back by h nu-; zero if none. */
static void previous_force(mcd_nslcp_ws *w, const mcd_contact_ws *cws, const mcd_contact_point *c,
                           int k, double dist, double lt[2])
{
    int best = -1;
    double dmin = dist;
    for (int j = 0; j < w->nprev; j++) {
        if (w->prev.a[j] != c->body_a || w->prev.b[j] != c->body_b) continue;
        double dx[3];
        mcd_v3_sub(dx, w->back + 3 * k, w->prev.x + 3 * j);
        const double dj = mcd_v3_norm(dx);
        if (dj <= dmin) dmin = dj, best = j;
    }
    w->match[k] = best;
    const double *F = cws->frame + 9 * k;
    lt[0] = best < 0 ? 0.0 : mcd_v3_dot(F + 3 * MCD_AXIS_F, w->prev.lt + 3 * best);
    lt[1] = best < 0 ? 0.0 : mcd_v3_dot(F + 3 * MCD_AXIS_O, w->prev.lt + 3 * best);
}

/* Stick/slide mode and directions of contact k (Eq. 18-20 or Eq. 31-34). */
static void directions(mcd_nslcp_ws *w, int k, const double ut[2], double mu,
                       const mcd_nslcp_options *o)
{
    double *e = w->dir + 2 * (size_t)w->max_dir * k, *m = w->mu_dir + (size_t)w->max_dir * k;
    const double s = hypot(ut[0], ut[1]);
    w->sliding[k] = s >= o->v_th && s > 0;
    if (w->sliding[k]) { /* E = [e_t e_l], mu = (mu_k, 0), Eq. (34) */
        e[0] = ut[0] / s, e[1] = ut[1] / s;
        e[2] = -e[1], e[3] = e[0];
        m[0] = mu, m[1] = 0.0;
        w->ndir[k] = 2;
        return;
    }
    for (int j = 0; j < o->ndir; j++) {
        e[2 * j] = cos(M_PI * j / o->ndir), e[2 * j + 1] = sin(M_PI * j / o->ndir);
        m[j] = mu;
    }
    w->ndir[k] = o->ndir;
}

/* Per step contact: mode, directions, relaxation eps (Eq. 40) and d
 * (Eq. 41-42). */
static void contact_terms(mcd_nslcp_ws *w, const mcd_contact_ws *cws, const mcd_contact_point *c,
                          const mcd_nslcp_options *o, const mcd_contact_options *copt)
{
    const double h = w->h;
    w->eps_b = 1.0 / (o->k_b * h * h + o->b_b * h);
    for (int k = 0; k < w->nc; k++) {
        const double *v = cws->out_velocity + 3 * k, *F = cws->frame + 9 * k; /* nu-: f, o, n */
        for (int a = 0; a < 3; a++) /* the frame's rows are its axes f, o, eta */
            w->back[3 * k + a] =
                c[k].pos[a] - h * (v[0] * F[a] + v[1] * F[3 + a] + v[2] * F[6 + a]);
        directions(w, k, v, c[k].mu, o);
        w->eps_n[k] = 1.0 / (o->k_n * h * h + o->b_n * h);
        w->eps_t[k] = 1.0 / (o->k_t * h * h + o->b_t * h);
        const double phi = c[k].gap;
        const double vn = v[MCD_AXIS_N];
        const int closes =
            !copt->no_restitution && vn < -copt->restitution_velocity && phi + vn * h < 0;
        /* Eq. (41): d = eps h k phi - u for a penetration, its separation
         * speed capped at max_correction_velocity (the cap of the other
         * methods, contact.h: a joint that starts 0.9 rad outside its limit
         * would leave at eps h k 0.9 = 82 rad/s); a positive gap may close
         * within the step; the restitution target replaces either when
         * larger (the rule of the other methods) */
        const double bias =
            phi < 0 ? fmin(-w->eps_n[k] * h * o->k_n * phi, copt->max_correction_velocity)
                    : -phi / h;
        w->d[3 * k + MCD_ROW_N] = closes ? -fmax(bias, -c[k].restitution * vn) : -bias;
        double lt[2];
        previous_force(w, cws, &c[k], k, o->match_distance, lt);
        for (int a = 0; a < 2; a++) /* Eq. (42): rows F, O along axes f, o */
            w->d[3 * k + MCD_ROW_F + a] = -w->eps_t[k] * h * (lt[a] + o->b_t * v[MCD_AXIS_F + a]);
    }
}

/* Local row of free impulse i: closure rows, then (f, o) of each contact. */
static int free_row(const mcd_nslcp_ws *w, int i)
{
    const int nb = w->blk.nb;
    return i < nb ? i : nb + 3 * ((i - nb) / 2) + MCD_ROW_F + (i - nb) % 2;
}

/* A_ff = W_ff + eps_b, eps_t on the closure and tangent rows, q_f into y0,
 * and B = [A_fn, -E, E] (the problem's rows of W only). */
static void free_block(mcd_nslcp_ws *w, const mcd_contact_ws *cws)
{
    const int nf = w->nfree, nb = w->blk.nb, nc = w->blk.nc, nr = nb + 3 * nc, K = w->K;
    const double *W = w->blk.W;
    for (int i = 0; i < nf; i++) {
        const int ri = free_row(w, i);
        for (int j = 0; j < nf; j++)
            w->Aff[(size_t)j * nf + i] = W[(size_t)ri * nr + free_row(w, j)];
        if (i >= nb) {
            const int k = w->contact[(i - nb) / 2], a = (i - nb) % 2;
            w->Aff[(size_t)i * nf + i] += w->eps_t[k];
            w->y0[i] =
                cws->nu_free[mcd_contact_block_row(&w->blk, ri)] + w->d[3 * k + MCD_ROW_F + a];
        } else { /* closure row: delta_b = u_b = 0, the drift is projected after the step */
            w->Aff[(size_t)i * nf + i] += w->eps_b;
            w->y0[i] = cws->nu_free[mcd_contact_block_row(&w->blk, ri)];
        }
    }
    memset(w->B, 0, (size_t)nf * (size_t)w->n * sizeof *w->B);
    for (int j = 0; j < nc; j++) {
        const int rn = nb + 3 * j + MCD_ROW_N, k = w->contact[j];
        for (int i = 0; i < nf; i++) w->B[(size_t)j * nf + i] = W[(size_t)free_row(w, i) * nr + rn];
        w->tangent[j] = -1;
        const double *e = w->dir + 2 * (size_t)w->max_dir * k;
        for (int l = 0; l < w->ndir[k]; l++) {
            const int up = nc + w->off[j] + l, lo = up + K, t = nb + 2 * j;
            w->tangent[up] = w->tangent[lo] = t;
            for (int a = 0; a < 2; a++) {
                w->B[(size_t)up * nf + t + a] = -e[2 * l + a]; /* u_t = E (w_up - w_lo), Eq. (28) */
                w->B[(size_t)lo * nf + t + a] = e[2 * l + a];
            }
        }
    }
}

/* (B^T Y)_ij = b_i . y_j. Column i of B of a direction has two entries,
 * on its contact's tangent rows, so its products take two terms, equal
 * bit for bit to the sum over all nf (the other terms are zeros added in
 * order); only the normals' rows take all nf: O(nc n nf + n^2) instead of
 * O(n^2 nf), n = nc + 2K being 5 nc with the default 2 directions. */
static double btb_entry(const mcd_nslcp_ws *w, int i, const double *y)
{
    const double *bi = w->B + (size_t)i * w->nfree;
    const int t = w->tangent[i];
    if (t >= 0) return bi[t] * y[t] + bi[t + 1] * y[t + 1];
    double s = 0.0;
    for (int f = 0; f < w->nfree; f++) s += bi[f] * y[f];
    return s;
}

/* M = D - S B^T Y and q = q_c - S B^T y0 with S = diag(1 on p_n, -1 on w),
 * D = [[A_nn, 0, 0], [mu, 0, rho], [mu, rho, 0]] (Eq. 35 reduced). */
static void reduced_lcp(mcd_nslcp_ws *w, const mcd_contact_ws *cws)
{
    const int nf = w->nfree, n = w->n, nb = w->blk.nb, nc = w->blk.nc, K = w->K;
    const int nr = nb + 3 * nc;
    const double *W = w->blk.W;
    for (int i = 0; i < n; i++) {
        const double s = i < nc ? 1.0 : -1.0;
        for (int j = 0; j < n; j++)
            w->M[(size_t)i * n + j] = -s * btb_entry(w, i, w->Y + (size_t)j * nf);
        w->q[i] = -s * btb_entry(w, i, w->y0);
        w->lo[i] = 0.0, w->hi[i] = INFINITY;
    }
    for (int j = 0; j < nc; j++) {
        const int rn = nb + 3 * j + MCD_ROW_N, k = w->contact[j];
        for (int l = 0; l < nc; l++)
            w->M[(size_t)j * n + l] += W[(size_t)rn * nr + nb + 3 * l + MCD_ROW_N];
        w->M[(size_t)j * n + j] += w->eps_n[k];
        w->q[j] += cws->nu_free[mcd_contact_block_row(&w->blk, rn)] + w->d[3 * k + MCD_ROW_N];
        for (int l = 0; l < w->ndir[k]; l++) {
            const int up = nc + w->off[j] + l, lo = up + K;
            const double mu = w->mu_dir[(size_t)w->max_dir * k + l];
            w->M[(size_t)up * n + j] += mu; /* sigma~_lo row, Eq. (30) */
            w->M[(size_t)up * n + lo] += w->rho;
            w->M[(size_t)lo * n + j] += mu; /* sigma~_up row, Eq. (29) */
            w->M[(size_t)lo * n + up] += w->rho;
        }
    }
}

/* Every contact of the step set up last has been taken (so has a step
 * without contacts). */
static int step_taken(const mcd_nslcp_ws *w)
{
    for (int k = 0; k < w->nc; k++)
        if (!w->taken[k]) return 0;
    return 1;
}

/* The step set up last, fully taken, becomes the previous step of Eq. (42);
 * otherwise (a solve that failed) the previous step is kept. Then this
 * step's contacts, none taken. */
static void next_step(mcd_nslcp_ws *w, int nc, const mcd_contact_point *c)
{
    if (step_taken(w)) {
        const contact_memory t = w->prev;
        w->prev = w->cur, w->cur = t;
        w->nprev = w->nc;
    }
    w->nc = nc, w->built = 0, w->n = 0;
    for (int k = 0; k < nc; k++) {
        w->cur.a[k] = c[k].body_a, w->cur.b[k] = c[k].body_b;
        mcd_v3_copy(w->cur.x + 3 * k, c[k].pos);
        w->taken[k] = 0;
    }
}

mcd_status mcd_nslcp_ws_carry_memory(mcd_nslcp_ws *dst, const mcd_nslcp_ws *src, mcd_error *err)
{
    if (!dst || !src) return mcd_fail(err, MCD_ERR_ARG, "nslcp: NULL workspace");
    /* the step that src's next set-up would match against (next_step) */
    const int from_cur = step_taken(src);
    const contact_memory *m = from_cur ? &src->cur : &src->prev;
    const int n = from_cur ? src->nc : src->nprev;
    if (n > dst->max_contacts || src->max_dir != dst->max_dir)
        return mcd_fail(err, MCD_ERR_CAPACITY,
                        "nslcp: %d remembered contacts of %d directions exceed the "
                        "workspace's %d of %d",
                        n, src->max_dir, dst->max_contacts, dst->max_dir);
    memory_copy(&dst->cur, m, (size_t)n, (size_t)src->max_dir);
    memset(dst->taken, 1, (size_t)n); /* dst's next set-up makes them its previous step */
    dst->nc = n, dst->built = 0, dst->n = 0;
    return MCD_OK;
}

static mcd_status check_setup(const mcd_nslcp_ws *w, const mcd_contact_ws *cws, int nc,
                              const mcd_contact_point *c, const mcd_nslcp_options *o,
                              const mcd_contact_options *copt, mcd_error *err)
{
    if (!w || !cws || !o || !copt || (nc > 0 && !c))
        return mcd_fail(err, MCD_ERR_ARG, "nslcp: NULL argument");
    mcd_status s = mcd_nslcp_check_options(o, err);
    if (s != MCD_OK) return s;
    if (nc != cws->nc || cws->nb != w->nb)
        return mcd_fail(err, MCD_ERR_ARG,
                        "nslcp: %d contacts and %d closure rows given, the "
                        "set-up has %d and %d",
                        nc, w->nb, cws->nc, cws->nb);
    if (nc > w->max_contacts || o->ndir > w->max_dir)
        return mcd_fail(err, MCD_ERR_CAPACITY,
                        "nslcp: %d contacts / %d directions exceed the "
                        "workspace's %d / %d",
                        nc, o->ndir, w->max_contacts, w->max_dir);
    return MCD_OK;
}

mcd_status mcd_nslcp_setup(mcd_nslcp_ws *w, mcd_contact_ws *cws, int nc, const mcd_contact_point *c,
                           const mcd_nslcp_options *o, const mcd_contact_options *copt,
                           mcd_error *err)
{
    mcd_status s = check_setup(w, cws, nc, c, o, copt, err);
    if (s != MCD_OK) return s;
    next_step(w, nc, c);
    w->h = cws->dt, w->rho = o->rho;
    contact_terms(w, cws, c, o, copt);
    return MCD_OK;
}

/* The reduced LCP of group g's rows (g = -1: the whole step). */
static mcd_status build(mcd_nslcp_ws *w, mcd_contact_ws *cws, int g, mcd_error *err)
{
    if (!w || !cws) return mcd_fail(err, MCD_ERR_ARG, "nslcp: NULL argument");
    if (w->nc != cws->nc)
        return mcd_fail(err, MCD_ERR_ARG, "nslcp: set up for %d contacts, the step has %d", w->nc,
                        cws->nc);
    w->built = 0;
    mcd_status s = mcd_contact_block_of(cws, g, &w->blk);
    if (s == MCD_ERR_NOMEM) return mcd_fail(err, s, "out of memory for the whole W");
    if (s != MCD_OK)
        return mcd_fail(err, s, "nslcp: group %d not in [0, %d)", g, mcd_contact_group_count(cws));
    int K = 0;
    for (int j = 0; j < w->blk.nc; j++) {
        w->contact[j] = mcd_contact_block_contact(cws, &w->blk, j);
        w->off[j] = K;
        K += w->ndir[w->contact[j]];
    }
    w->g = g, w->K = K, w->n = w->blk.nc + 2 * K, w->nfree = w->blk.nb + 2 * w->blk.nc;
    free_block(w, cws);
    int nf = w->nfree, n = w->n, info = 0;
    if (nf > 0) { /* LAPACK on purpose: nf = nb + 2 nc grows with the contacts, n right sides */
        dpotrf_("L", &nf, w->Aff, &nf, &info);
        if (info != 0)
            return mcd_fail(err, MCD_ERR_SINGULAR,
                            "nslcp: the block of the closure and tangent rows is not positive "
                            "definite");
        memcpy(w->Y, w->B, (size_t)nf * (size_t)n * sizeof *w->Y);
        int one = 1;
        if (n > 0) dpotrs_("L", &nf, &n, w->Aff, &nf, w->Y, &nf, &info);
        dpotrs_("L", &nf, &one, w->Aff, &nf, w->y0, &nf, &info);
    }
    reduced_lcp(w, cws);
    w->built = 1;
    return MCD_OK;
}

mcd_status mcd_nslcp_build_group(mcd_nslcp_ws *w, mcd_contact_ws *cws, int g, mcd_error *err)
{
    if (g < 0) return mcd_fail(err, MCD_ERR_ARG, "nslcp: group %d < 0", g);
    return build(w, cws, g, err);
}

mcd_status mcd_nslcp_build(mcd_nslcp_ws *w, mcd_contact_ws *cws, int nc, const mcd_contact_point *c,
                           const mcd_nslcp_options *o, const mcd_contact_options *copt,
                           mcd_error *err)
{
    mcd_status s = mcd_nslcp_setup(w, cws, nc, c, o, copt, err);
    return s == MCD_OK ? build(w, cws, -1, err) : s;
}

mcd_status mcd_nslcp_lcp(mcd_nslcp_ws *w, mcd_mlcp *out)
{
    if (!w || !out) return MCD_ERR_ARG;
    out->n = w->n, out->M = w->M, out->q = w->q, out->lo = w->lo, out->hi = w->hi;
    return MCD_OK;
}

int mcd_nslcp_start(const mcd_nslcp_ws *w, double *z)
{
    if (!w || !z || !w->built) return 0;
    memset(z, 0, (size_t)w->n * sizeof *z);
    int matched = 0;
    for (int j = 0; j < w->blk.nc; j++) {
        const int k = w->contact[j], p = w->match[k];
        if (p < 0) continue;
        matched++;
        z[j] = w->prev.pn[p];
        if (w->prev.ndir[p] != w->ndir[k] || w->prev.sliding[p] != w->sliding[k]) continue;
        const double *v = w->prev.vel + 2 * (size_t)w->max_dir * p;
        for (int l = 0; l < w->ndir[k]; l++) {
            z[w->blk.nc + w->off[j] + l] = v[2 * l];
            z[w->blk.nc + w->K + w->off[j] + l] = v[2 * l + 1];
        }
    }
    return matched;
}

/* Per contact of the problem taken: its world friction force p_t / h (for
 * the next step's Eq. 42) and its velocity parameters. */
static void remember(mcd_nslcp_ws *w, const mcd_contact_ws *cws, const double *z)
{
    for (int j = 0; j < w->blk.nc; j++) {
        const int k = w->contact[j];
        const double *F = cws->frame + 9 * k, *p = w->r + w->blk.nb + 3 * j;
        for (int a = 0; a < 3; a++)
            w->cur.lt[3 * k + a] =
                (p[MCD_ROW_F] * F[3 * MCD_AXIS_F + a] + p[MCD_ROW_O] * F[3 * MCD_AXIS_O + a]) /
                w->h;
        double *v = w->cur.vel + 2 * (size_t)w->max_dir * k;
        w->cur.pn[k] = z[j], w->cur.ndir[k] = w->ndir[k], w->cur.sliding[k] = w->sliding[k];
        for (int l = 0; l < w->ndir[k]; l++) {
            v[2 * l] = z[w->blk.nc + w->off[j] + l];
            v[2 * l + 1] = z[w->blk.nc + w->K + w->off[j] + l];
        }
        w->taken[k] = 1;
    }
}

/* The solution z of the problem built last (group g, -1: the whole step). */
static mcd_status take(mcd_nslcp_ws *w, mcd_contact_ws *cws, int g, const double *z, mcd_error *err)
{
    if (!w || !cws || (w->n > 0 && !z)) return mcd_fail(err, MCD_ERR_ARG, "nslcp: NULL argument");
    if (!w->built || w->g != g)
        return mcd_fail(err, MCD_ERR_ARG, "nslcp: group %d taken, %s %d built", g,
                        w->built ? "group" : "none since set-up; last", w->g);
    const int nf = w->nfree, n = w->n, nb = w->blk.nb;
    for (int i = 0; i < n; i++)
        if (!isfinite(z[i])) return mcd_fail(err, MCD_ERR_NONFINITE, "nslcp: z[%d] not finite", i);
    for (int f = 0; f < nf; f++) { /* x = -(Y z + y0) */
        double t = w->y0[f];
        for (int j = 0; j < n; j++) t += w->Y[(size_t)j * nf + f] * z[j];
        w->x[f] = -t;
    }
    memcpy(w->r, w->x, (size_t)nb * sizeof *w->r);
    for (int j = 0; j < w->blk.nc; j++) {
        double *r = w->r + nb + 3 * j;
        r[MCD_ROW_N] = z[j], r[MCD_ROW_F] = w->x[nb + 2 * j], r[MCD_ROW_O] = w->x[nb + 2 * j + 1];
    }
    const mcd_status s =
        g < 0 ? mcd_contact_take_fc3d(cws, w->r) : mcd_contact_group_take_fc3d(cws, g, w->r);
    if (s != MCD_OK) return mcd_fail(err, MCD_ERR_NONFINITE, "nslcp: non-finite impulses");
    remember(w, cws, z);
    return MCD_OK;
}

mcd_status mcd_nslcp_take_group(mcd_nslcp_ws *w, mcd_contact_ws *cws, int g, const double *z,
                                mcd_error *err)
{
    if (g < 0) return mcd_fail(err, MCD_ERR_ARG, "nslcp: group %d < 0", g);
    return take(w, cws, g, z, err);
}

mcd_status mcd_nslcp_take(mcd_nslcp_ws *w, mcd_contact_ws *cws, const double *z, mcd_error *err)
{
    return take(w, cws, -1, z, err);
}

int mcd_nslcp_sliding(const mcd_nslcp_ws *w, int k)
{
    return w && k >= 0 && k < w->nc ? w->sliding[k] : 0;
}

int mcd_nslcp_ndirections(const mcd_nslcp_ws *w, int k)
{
    return w && k >= 0 && k < w->nc ? w->ndir[k] : 0;
}

mcd_status mcd_nslcp_velocity_params(const mcd_nslcp_ws *w, int k, int j, double *w_up,
                                     double *w_lo)
{
    if (!w || !w_up || !w_lo || k < 0 || k >= w->nc || !w->taken[k] || j < 0 || j >= w->ndir[k])
        return MCD_ERR_ARG;
    *w_up = w->cur.vel[2 * (size_t)w->max_dir * k + 2 * j];
    *w_lo = w->cur.vel[2 * (size_t)w->max_dir * k + 2 * j + 1];
    return MCD_OK;
}

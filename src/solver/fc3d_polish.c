/* The active-set polish of a frictional-contact problem (fc3d_polish.h). */
#include "fc3d_polish.h"

#include "../base/lapack.h"
#include "ccp_common.h"
#include "dense.h"
#include "mcdyn/solver.h"

#include <math.h>
#include <string.h>

#define POLISH_VREL         1e-6  /* v_sep relative to max(|u|, |q|) */
#define POLISH_RCOND        1e-10 /* singular values taken as 0, relative to the largest */
#define POLISH_REFINE       2     /* least-squares steps of one solve (the second refines) */
#define POLISH_CONSISTENT   1e-6  /* |S u| above this times v_sep: inconsistent */
#define POLISH_TRIES        4     /* near-tied contacts tried before one slides */
#define POLISH_TIE          0.5   /* |u_t| within this fraction of the largest: a near tie */
#define POLISH_PIVOTS       8     /* changes of mode, one contact at a time */
#define POLISH_BLOCK        20    /* block pivoting passes after the single changes */
#define POLISH_BLOCK_STALLS 3     /* block passes without fewer violations before single ones */
/* a velocity beyond this times tol max(|u|, |q|) violates a mode */
#define POLISH_BLOCK_VEPS 1e-3
/* relative excess of |r_t| over mu r_n that makes a contact slide */
#define POLISH_CONE_SLACK 1e-9

enum { MODE_SEPARATED, MODE_SLIDING, MODE_STICKING };
enum { N = MCD_FC3D_N, T1 = MCD_FC3D_T1, T2 = MCD_FC3D_T2, ROWS = MCD_FC3D_ROWS };

/* The contact of row i (-1 for a bilateral row). */
static int contact_of(const mcd_fc3d *p, int i)
{
    return i < p->nb ? -1 : (i - p->nb) / ROWS;
}

/* The mode of every contact at (r, u) (fc3d_polish.h). */
static void classify(const mcd_fc3d *p, const double *r, const double *u, double v_sep,
                     const mcd_polish_ws *w)
{
    for (int k = 0; k < p->nc; k++) {
        int c = p->nb + ROWS * k;
        double ut = hypot(u[c + T1], u[c + T2]);
        if (r[c + N] <= 0 || u[c + N] > v_sep) {
            w->mode[k] = MODE_SEPARATED;
        } else if (p->mu[k] == 0) { /* frictionless: r_t = 0 whatever u_t */
            w->mode[k] = MODE_SLIDING;
            w->s[2 * k] = w->s[2 * k + 1] = 0.0;
        } else if (ut > v_sep) {
            w->mode[k] = MODE_SLIDING;
            w->s[2 * k] = -u[c + T1] / ut;
            w->s[2 * k + 1] = -u[c + T2] / ut;
        } else {
            w->mode[k] = MODE_STICKING;
        }
    }
}

/* The rows of the unknowns of the current modes; returns their number m. */
static int unknowns(const mcd_fc3d *p, const mcd_polish_ws *w)
{
    int m = 0;
    for (int i = 0; i < p->nb; i++) w->col[m++] = i;
    for (int k = 0; k < p->nc; k++) {
        int c = p->nb + ROWS * k;
        if (w->mode[k] == MODE_SLIDING) w->col[m++] = c + N; /* r_t follows r_n */
        if (w->mode[k] != MODE_STICKING) continue;
        for (int a = 0; a < ROWS; a++) w->col[m++] = c + a;
    }
    return m;
}

static int is_sliding(const mcd_fc3d *p, const mcd_polish_ws *w, int i)
{
    int k = contact_of(p, i);
    return k >= 0 && w->mode[k] == MODE_SLIDING;
}

/* The start r_try = T y0: separated contacts at 0, sliding ones on the
 * cone's border in the direction s. */
static void start_point(const mcd_fc3d *p, const mcd_polish_ws *w, const double *r)
{
    int n = mcd_fc3d_size(p);
    if (r != w->r_try) memcpy(w->r_try, r, (size_t)n * sizeof *r);
    for (int k = 0; k < p->nc; k++) {
        int c = p->nb + ROWS * k;
        if (w->mode[k] == MODE_SEPARATED) w->r_try[c + N] = w->r_try[c + T1] = w->r_try[c + T2] = 0;
        if (w->mode[k] != MODE_SLIDING) continue;
        for (int a = 0; a < 2; a++) w->r_try[c + T1 + a] = p->mu[k] * r[c + N] * w->s[2 * k + a];
    }
}

/* A (row-major, m x m): A_jl = (W T)_{col_j, l}. */
static void system_matrix(const mcd_fc3d *p, const mcd_polish_ws *w, int m)
{
    int n = mcd_fc3d_size(p);
    for (int j = 0; j < m; j++) {
        const double *wrow = p->W + (size_t)w->col[j] * n;
        double *row = w->A + (size_t)j * m;
        for (int l = 0; l < m; l++) {
            int i = w->col[l];
            row[l] = wrow[i];
            if (!is_sliding(p, w, i)) continue;
            int k = contact_of(p, i), c = i - N; /* i: the sliding contact's normal row */
            row[l] += p->mu[k] * (w->s[2 * k] * wrow[c + T1] + w->s[2 * k + 1] * wrow[c + T2]);
        }
    }
}

/* The row-major A is the column-major M = A^T = U S V^T, so A = V S U^T
 * and A^+ = U S^+ V^T. Returns 0 if dgesvd fails. */
static int factor(const mcd_polish_ws *w, int m)
{
    int info = 0;
    dgesvd_("A", "A", &m, &m, w->A, &m, w->sigma, w->U, &m, w->VT, &m, w->work, &w->lwork, &info);
    return info == 0;
}

/* rhs <- A^+ rhs: y = S^+ V^T rhs, then U y. */
static void pseudo_solve(const mcd_polish_ws *w, int m)
{
    double cut = POLISH_RCOND * w->sigma[0];
    for (int i = 0; i < m; i++) {
        double t = 0.0;
        for (int j = 0; j < m; j++) t += w->VT[i + (size_t)j * m] * w->rhs[j];
        w->y[i] = w->sigma[i] > cut ? t / w->sigma[i] : 0.0;
    }
    for (int i = 0; i < m; i++) {
        double t = 0.0;
        for (int j = 0; j < m; j++) t += w->U[i + (size_t)j * m] * w->y[j];
        w->rhs[i] = t;
    }
}

/* r_try += T d. */
static void apply_step(const mcd_fc3d *p, const mcd_polish_ws *w, int m, const double *d)
{
    for (int l = 0; l < m; l++) {
        int i = w->col[l];
        w->r_try[i] += d[l];
        if (!is_sliding(p, w, i)) continue;
        int k = contact_of(p, i), c = i - N; /* i: the sliding contact's normal row */
        w->r_try[c + T1] += p->mu[k] * w->s[2 * k] * d[l];
        w->r_try[c + T2] += p->mu[k] * w->s[2 * k + 1] * d[l];
    }
}

/* Each contact's impulse projected on its cone (ccp_common.h). */
static void project_cones(const mcd_fc3d *p, double *r)
{
    for (int k = 0; k < p->nc; k++) mcd_ccp_proj3(p->mu[k], r + p->nb + ROWS * k);
}

/* The contact not separated of largest normal velocity in u_try, or -1
 * if none moves away. */
static int fastest_leaving(const mcd_fc3d *p, const mcd_polish_ws *w)
{
    int best = -1;
    for (int k = 0; k < p->nc; k++) {
        double un = w->u_try[p->nb + ROWS * k + N];
        if (w->mode[k] == MODE_SEPARATED || !(un > 0)) continue;
        if (best < 0 || un > w->u_try[p->nb + ROWS * best + N]) best = k;
    }
    return best;
}

/* Contacts among which the next change of mode is chosen by trying each. */
typedef struct pivot_choice {
    int count;
    int k[POLISH_TRIES];
} pivot_choice;

/* |u_t| of contact k in u_try. */
static double slip_speed(const mcd_fc3d *p, const mcd_polish_ws *w, int k)
{
    const double *v = w->u_try + p->nb + ROWS * k;
    return hypot(v[T1], v[T2]);
}

/* The sticking contact of largest |u_t| in u_try, or -1 if none slips. */
static int fastest_slipping(const mcd_fc3d *p, const mcd_polish_ws *w)
{
    int best = -1;
    for (int k = 0; k < p->nc; k++) {
        if (w->mode[k] != MODE_STICKING || !(slip_speed(p, w, k) > 0)) continue;
        if (best < 0 || slip_speed(p, w, k) > slip_speed(p, w, best)) best = k;
    }
    return best;
}

/* Contact k slides along sign x_t / |x_t|, x its part of the vector x. */
static void set_sliding(const mcd_fc3d *p, const mcd_polish_ws *w, int k, double sign,
                        const double *x)
{
    const double *xk = x + p->nb + ROWS * k;
    double nt = hypot(xk[T1], xk[T2]);
    w->mode[k] = MODE_SLIDING;
    w->s[2 * k] = sign * xk[T1] / nt;
    w->s[2 * k + 1] = sign * xk[T2] / nt;
}

/* Sticking contacts that could slide next: those whose |u_t| is within
 * POLISH_TIE of the largest, ut_max (at most POLISH_TRIES), each with its
 * direction s = -u_t / |u_t| set; their order of release decides which
 * face points keep friction, and near ties are decided by trying each
 * (choose_slip). Returns 2. */
static int slip_candidates(const mcd_fc3d *p, const mcd_polish_ws *w, double ut_max,
                           pivot_choice *c)
{
    c->count = 0;
    for (int k = 0; k < p->nc && c->count < POLISH_TRIES; k++) {
        if (w->mode[k] != MODE_STICKING || !(slip_speed(p, w, k) >= POLISH_TIE * ut_max)) continue;
        set_sliding(p, w, k, -1.0, w->u_try);
        w->mode[k] = MODE_STICKING;
        c->k[c->count++] = k;
    }
    return 2;
}

/* The next change of mode after a solve (r_try, u_try before the cone
 * projection), fc3d_polish.h: separate the contact of most negative
 * normal impulse; else, when the system was inconsistent, let the
 * sticking contact of largest |u_t| slide along -u_t, or separate the one
 * of largest normal velocity, whichever velocity is larger; else let the
 * sticking contact whose friction
 * leaves its cone the most slide, along its friction s = r_t / |r_t|.
 * Returns 0 when no contact needs a change, 1 when a mode was changed,
 * 2 when c holds near-tied contacts to slide (slip_candidates). */
static int next_pivot(const mcd_fc3d *p, const mcd_polish_ws *w, int inconsistent, pivot_choice *c)
{
    int worst = -1, out = -1;
    double worst_rn = 0.0, out_ratio = 1.0 + POLISH_CONE_SLACK;
    for (int k = 0; k < p->nc; k++) {
        const double *x = w->r_try + p->nb + ROWS * k;
        if (w->mode[k] == MODE_SEPARATED) continue;
        if (x[N] < worst_rn) worst_rn = x[N], worst = k;
        double nt = hypot(x[T1], x[T2]);
        if (w->mode[k] == MODE_STICKING && x[N] > 0 && nt > out_ratio * p->mu[k] * x[N])
            out_ratio = nt / (p->mu[k] * x[N]), out = k;
    }
    if (worst < 0 && inconsistent) {
        int k = fastest_slipping(p, w), leaving = fastest_leaving(p, w);
        double ut = k >= 0 ? slip_speed(p, w, k) : 0.0;
        if (k >= 0 && (leaving < 0 || ut > w->u_try[p->nb + ROWS * leaving + N]))
            return slip_candidates(p, w, ut, c);
        worst = leaving;
    }
    if (worst >= 0) {
        w->mode[worst] = MODE_SEPARATED;
        return 1;
    }
    if (out < 0) return 0;
    set_sliding(p, w, out, 1.0, w->r_try);
    return 1;
}

/* |S u_try|, the residual of the equations. */
static double equation_residual(const mcd_polish_ws *w, int m)
{
    double s = 0.0;
    for (int j = 0; j < m; j++) s += w->u_try[w->col[j]] * w->u_try[w->col[j]];
    return sqrt(s);
}

/* The least-squares point of the current modes from r into r_try,
 * u_try = W r_try + q, before any projection; returns the number of
 * unknowns m, 0 when there is none or the SVD fails or the point is not
 * finite. */
static int least_squares(const mcd_fc3d *p, const mcd_polish_ws *w, const double *r)
{
    int n = mcd_fc3d_size(p), m = unknowns(p, w);
    if (m == 0) return 0;
    start_point(p, w, r);
    system_matrix(p, w, m);
    if (!factor(w, m)) return 0;
    for (int it = 0; it < POLISH_REFINE; it++) {
        mcd_dense_matvec(n, p->W, w->r_try, p->q, w->u_try);
        for (int j = 0; j < m; j++) w->rhs[j] = -w->u_try[w->col[j]];
        pseudo_solve(w, m);
        if (!mcd_dense_isfinite(m, w->rhs)) return 0;
        apply_step(p, w, m, w->rhs);
    }
    mcd_dense_matvec(n, p->W, w->r_try, p->q, w->u_try);
    return mcd_dense_isfinite(n, w->r_try) ? m : 0;
}

/* r_try projected on the cones, u_try = W r_try + q; returns its error. */
static double projected_error(const mcd_fc3d *p, const mcd_polish_ws *w)
{
    int n = mcd_fc3d_size(p);
    project_cones(p, w->r_try);
    mcd_dense_matvec(n, p->W, w->r_try, p->q, w->u_try);
    return mcd_dense_isfinite(n, w->r_try) ? mcd_fc3d_error(p, w->r_try, w->u_try) : INFINITY;
}

/* The point of the current modes from r into r_try, u_try; returns its
 * error, or INFINITY when the SVD fails or the point is not finite.
 * With c, *pivot is next_pivot's answer for the next solve; without, 0. */
static double solve_modes(const mcd_fc3d *p, const mcd_polish_ws *w, const double *r, double v_sep,
                          pivot_choice *c, int *pivot)
{
    *pivot = 0;
    int m = least_squares(p, w, r);
    if (m == 0) return INFINITY;
    if (c) *pivot = next_pivot(p, w, equation_residual(w, m) > POLISH_CONSISTENT * v_sep, c);
    return projected_error(p, w);
}

/* The new mode of contact k after a least-squares solve (r_try, u_try
 * before the projection), or -1 if its mode holds (fc3d_polish.h, block
 * pivoting); a sliding contact's direction s is set here. */
static int block_mode(const mcd_fc3d *p, const mcd_polish_ws *w, int k, double v_eps)
{
    const double *x = w->r_try + p->nb + ROWS * k, *v = w->u_try + p->nb + ROWS * k;
    double *s = w->s + 2 * k, xt = hypot(x[T1], x[T2]), vt = hypot(v[T1], v[T2]);
    if (w->mode[k] == MODE_SEPARATED) return v[N] < -v_eps ? MODE_STICKING : -1;
    if (x[N] < 0) return MODE_SEPARATED;
    if (w->mode[k] == MODE_STICKING) {
        if (!(xt > (1.0 + POLISH_CONE_SLACK) * p->mu[k] * x[N])) return -1;
        s[0] = x[T1] / xt, s[1] = x[T2] / xt; /* slides along its friction */
        return MODE_SLIDING;
    }
    double along = v[T1] * s[0] + v[T2] * s[1]; /* the slip along the friction */
    if (!(vt > v_eps) || !(along > -(1.0 - POLISH_CONE_SLACK) * vt)) return -1;
    if (along > 0) return MODE_STICKING;    /* the slip would reverse */
    s[0] = -v[T1] / vt, s[1] = -v[T2] / vt; /* friction turned against the slip */
    return MODE_SLIDING;
}

/* Contact k's mode and the new one are sticking and sliding. */
static int stick_slip(int mode, int new_mode)
{
    return mode != MODE_SEPARATED && new_mode != MODE_SEPARATED;
}

/* The contacts whose modes the solve violates: the first limit of them take
 * their new modes (all of them: a block pivot; one: Murty's least-index
 * rule), except that a contact which changed between sticking and sliding
 * in the last pass does not change back in this one (a degenerate contact,
 * sliding at a vanishing speed on its cone's border, would otherwise
 * alternate); a sliding contact only turned counts in *turned. Returns how
 * many modes change. */
static int block_pivot(const mcd_fc3d *p, const mcd_polish_ws *w, double v_eps, int limit, int pass,
                       int *turned)
{
    int violated = 0, *last = w->mode + p->nc; /* pass of each contact's last change */
    *turned = 0;
    for (int k = 0; k < p->nc; k++) {
        int mode = block_mode(p, w, k, v_eps);
        if (mode < 0) continue;
        if (mode == w->mode[k]) {
            (*turned)++;
            continue;
        }
        if (stick_slip(w->mode[k], mode) && last[k] == pass - 1) continue;
        if (violated++ >= limit) continue;
        if (stick_slip(w->mode[k], mode)) last[k] = pass;
        w->mode[k] = mode;
    }
    return violated;
}

/* With every mode held by the last solve but its system inconsistent:
 * the sticking contact of largest |u_t| slides along -u_t, or the contact
 * of largest normal velocity separates, whichever velocity is larger (the
 * rule of next_pivot). Returns 1 if a mode changed. */
static int inconsistent_pivot(const mcd_fc3d *p, const mcd_polish_ws *w)
{
    int k = fastest_slipping(p, w), leaving = fastest_leaving(p, w);
    double ut = k >= 0 ? slip_speed(p, w, k) : 0.0;
    if (k >= 0 && (leaving < 0 || ut >= w->u_try[p->nb + ROWS * leaving + N])) {
        set_sliding(p, w, k, -1.0, w->u_try);
        return 1;
    }
    if (leaving < 0) return 0;
    w->mode[leaving] = MODE_SEPARATED;
    return 1;
}

/* Keeps r_try, u_try in r, u when their error e is below *error. */
static int keep_if_better(const mcd_fc3d *p, const mcd_polish_ws *w, double e, double *r, double *u,
                          double *error)
{
    if (!(e < *error)) return 0;
    int n = mcd_fc3d_size(p);
    memcpy(r, w->r_try, (size_t)n * sizeof *r);
    memcpy(u, w->u_try, (size_t)n * sizeof *u);
    *error = e;
    return 1;
}

/* The block principal pivoting passes (fc3d_polish.h); returns the number
 * of passes that improved r. */
static int block_passes(const mcd_fc3d *p, double tol, const mcd_polish_ws *w, double *r, double *u,
                        double *error, double v_sep)
{
    int improved = 0;
    double v_eps = POLISH_BLOCK_VEPS * tol * v_sep / POLISH_VREL;
    int fewest = p->nc + 1, stalls = 0, turned;
    classify(p, r, u, v_sep, w);
    for (int k = 0; k < p->nc; k++) w->mode[p->nc + k] = -2;
    for (int pass = 0; pass < POLISH_BLOCK && !(*error <= tol); pass++) {
        int m = least_squares(p, w, pass == 0 ? r : w->r_try);
        if (m == 0) break;
        int changed =
            block_pivot(p, w, v_eps, stalls < POLISH_BLOCK_STALLS ? p->nc : 1, pass, &turned);
        stalls = changed < fewest ? 0 : stalls + 1;
        fewest = changed < fewest ? changed : fewest;
        if (changed == 0 && equation_residual(w, m) > POLISH_CONSISTENT * v_sep)
            changed = inconsistent_pivot(p, w);
        improved += keep_if_better(p, w, projected_error(p, w), r, u, error);
        if (changed + turned == 0) break;
    }
    return improved;
}

/* Lets the candidate of c whose sliding gives the point of least error
 * slide (the first if none gives a finite one). */
static void choose_slip(const mcd_fc3d *p, const mcd_polish_ws *w, const double *r, double v_sep,
                        const pivot_choice *c)
{
    int best = c->k[0], unused;
    double best_e = INFINITY;
    for (int i = 0; i < c->count && c->count > 1; i++) {
        w->mode[c->k[i]] = MODE_SLIDING;
        double e = solve_modes(p, w, r, v_sep, NULL, &unused);
        w->mode[c->k[i]] = MODE_STICKING;
        if (e < best_e) best_e = e, best = c->k[i];
    }
    w->mode[best] = MODE_SLIDING;
}

int mcd_fc3d_polish(const mcd_fc3d *p, double tol, const mcd_polish_ws *w, double *r, double *u,
                    double *error)
{
    int n = mcd_fc3d_size(p), improved = 0;
    if (n >= POLISH_MAX_N) return 0;
    double v_sep = POLISH_VREL * fmax(mcd_dense_norm(n, u), mcd_dense_norm(n, p->q));
    classify(p, r, u, v_sep, w);
    for (int pivot = 0; pivot <= POLISH_PIVOTS && !(*error <= tol); pivot++) {
        int pivot_next;
        pivot_choice c = {0};
        double e = solve_modes(p, w, r, v_sep, &c, &pivot_next);
        improved += keep_if_better(p, w, e, r, u, error);
        if (!pivot_next) break;
        if (pivot_next == 2) choose_slip(p, w, r, v_sep, &c);
    }
    return improved + block_passes(p, tol, w, r, u, error, v_sep);
}

mcd_polish_ws mcd_polish_ws_lend(const mcd_solver_ws *ws)
{
    return (mcd_polish_ws){.A = ws->mat1,
                           .U = ws->mat2,
                           .VT = ws->mat3,
                           .sigma = mcd_ws_vec(ws, 4),
                           .work = ws->lwork,
                           .lwork = ws->lwork_len,
                           .col = mcd_ws_ivec(ws, 1),
                           .mode = mcd_ws_ivec(ws, 2),
                           .s = mcd_ws_vec(ws, 0),
                           .rhs = mcd_ws_vec(ws, 1),
                           .y = mcd_ws_vec(ws, 5),
                           .r_try = mcd_ws_vec(ws, 2),
                           .u_try = mcd_ws_vec(ws, 3)};
}

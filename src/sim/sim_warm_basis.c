/* Warm start of mlcp-lemke from the previous step's basis (sim_internal.h;
 * docs/solvers.md, "mlcp-lemke from the previous solution's basis (session 18)").
 *
 * The impulses alone (sim_warm.c) name a basis by their positive entries,
 * and on a statically indeterminate contact set (a pile: more impulse
 * components than the bodies have velocities) that basis is singular and
 * far from the solution's: Lemke's solution is a vertex, whose basis keeps
 * only as many impulse components as the rows are independent, some of
 * them degenerate (basic at zero), while the impulses re-split on the
 * step's friction directions name two per sliding or sticking contact.
 * So the basis of each contact's MLCP rows, (F_n, beta_1..beta_nf, sigma),
 * is kept after every mlcp-lemke solve (mcd_solve_mlcp_lemke_basis) and
 * recorded with the impulses; the next step's solve tries it first, as it
 * stands (0 pivots if the basis still solves the step's problem), and
 * last, as the start of a warm path where the impulses' positive entries'
 * path failed (solver.h: on the humanoid lying flat, whose contacts
 * alternate between two states from step to step, a path from last
 * step's exact basis took 59 pivots where the impulses' guess took 13,
 * so it is not the first start). A matched contact's pattern is turned
 * with the friction directions: the
 * recorded world direction of beta_1 (reversed with the body pair's order,
 * the impulse on A reversing with it) is found in the new step's (f, o)
 * plane and the pattern is shifted by the nearest whole number of
 * direction spacings. A contact matched without a recorded basis, or not
 * matched, falls back to the positive entries of its impulse start.
 * Storage is made with the capacity; a step allocates nothing. */
#include "sim_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct mcd_sim_warm_basis {
    int nrows;            /* nf + 2: a contact's MLCP rows F_n, beta_1..nf, sigma */
    unsigned char *mask;  /* nrows per recorded contact: 1 where its row was basic */
    char *has_mask;       /* per recorded contact */
    double *d1;           /* 3 per recorded contact: world direction of beta_1 */
    unsigned char *step;  /* nrows per contact of the step: its solution's basis */
    char *step_has;       /* per contact of the step */
    unsigned char *group; /* the guess / the solution's basis of one group's MLCP */
};

mcd_status mcd_sim_warm_basis_create(mcd_sim *s, mcd_error *err)
{
    struct mcd_sim_warm_basis *b = calloc(1, sizeof *b);
    s->warm_basis = b;
    if (!b) return mcd_fail(err, MCD_ERR_NOMEM, "warm start: out of memory");
    b->nrows = s->opt.contact.nf + 2;
    const size_t cap = (size_t)s->cap, rows = (size_t)b->nrows * cap + 1;
    b->mask = calloc(rows, 1), b->step = calloc(rows, 1);
    b->has_mask = calloc(cap + 1, 1), b->step_has = calloc(cap + 1, 1);
    b->d1 = calloc(3 * cap + 1, sizeof *b->d1);
    b->group = calloc((size_t)mcd_solver_ws_capacity(s->sws) + 1, 1);
    if (!b->mask || !b->step || !b->has_mask || !b->step_has || !b->d1 || !b->group)
        return mcd_fail(err, MCD_ERR_NOMEM, "warm start: out of memory");
    return MCD_OK;
}

void mcd_sim_warm_basis_free(mcd_sim *s)
{
    struct mcd_sim_warm_basis *b = s->warm_basis;
    if (!b) return;
    free(b->mask), free(b->step), free(b->has_mask), free(b->step_has), free(b->d1);
    free(b->group);
    free(b);
    s->warm_basis = NULL;
}

unsigned char *mcd_sim_warm_basis_of_group(const mcd_sim *s)
{
    return s->warm_basis->group;
}

/* The world direction of contact k's beta_1 at this step: cos(theta_1) f +
 * sin(theta_1) o (contact.h, mcd_contact_direction_angle). */
static void first_direction(const mcd_sim *s, int k, double d[3])
{
    const double *R = mcd_contact_frame(s->cws, k), th = mcd_contact_direction_angle(s->cws, k);
    for (int a = 0; a < 3; a++)
        d[a] = cos(th) * R[3 * MCD_AXIS_F + a] + sin(th) * R[3 * MCD_AXIS_O + a];
}

/* How many direction spacings h = 2 pi / nf the recorded contact i's
 * beta_1 (world d1, times sign) lies beyond the step contact k's beta_1,
 * in [0, nf). */
static int direction_shift(const mcd_sim *s, int k, int i, double sign)
{
    const struct mcd_sim_warm_basis *b = s->warm_basis;
    const int nf = b->nrows - 2;
    const double *R = mcd_contact_frame(s->cws, k), *d1 = b->d1 + 3 * i;
    const double phi =
        atan2(sign * mcd_v3_dot(R + 3 * MCD_AXIS_O, d1), sign * mcd_v3_dot(R + 3 * MCD_AXIS_F, d1));
    const double turns = (phi - mcd_contact_direction_angle(s->cws, k)) / (2.0 * M_PI / nf);
    const long shift = lround(turns) % nf;
    return (int)(shift < 0 ? shift + nf : shift);
}

/* The guessed basis of contact k (j-th of its group) on the group's rows:
 * the recorded one, turned, if k matched a contact with one, else z's
 * positive entries. */
static void guess_contact(const mcd_sim *s, const mcd_mlcp *p, int k, int j, int nc,
                          const double *z)
{
    const struct mcd_sim_warm_basis *b = s->warm_basis;
    const int nf = b->nrows - 2;
    int row, sigma_row;
    mcd_sim_mlcp_contact_rows(p, nc, nf, j, &row, &sigma_row);
    unsigned char *g = b->group;
    double sign = 1.0;
    const int i = mcd_sim_warm_match_of(s, k, &sign);
    if (i < 0 || !b->has_mask[i]) {
        for (int l = 0; l <= nf; l++) g[row + l] = z[row + l] > 0;
        g[sigma_row] = z[sigma_row] > 0;
        return;
    }
    const unsigned char *mask = b->mask + (size_t)b->nrows * i;
    const int shift = direction_shift(s, k, i, sign);
    g[row] = mask[0];
    for (int l = 0; l < nf; l++) g[row + 1 + (l + shift) % nf] = mask[1 + l];
    g[sigma_row] = mask[nf + 1];
}

void mcd_sim_warm_basis_guess(const mcd_sim *s, int g, const mcd_mlcp *p, const double *z)
{
    const int nc = mcd_contact_group_ncontacts(s->cws, g);
    memset(s->warm_basis->group, 0, (size_t)p->n);
    for (int j = 0; j < nc; j++)
        guess_contact(s, p, mcd_contact_group_contact(s->cws, g, j), j, nc, z);
}

void mcd_sim_warm_basis_keep(mcd_sim *s, int g, const mcd_mlcp *p)
{
    struct mcd_sim_warm_basis *b = s->warm_basis;
    const int nc = mcd_contact_group_ncontacts(s->cws, g), nf = b->nrows - 2;
    for (int j = 0; j < nc; j++) {
        const int k = mcd_contact_group_contact(s->cws, g, j);
        unsigned char *mask = b->step + (size_t)b->nrows * k;
        int row, sigma_row;
        mcd_sim_mlcp_contact_rows(p, nc, nf, j, &row, &sigma_row);
        memcpy(mask, b->group + row, (size_t)nf + 1);
        mask[nf + 1] = b->group[sigma_row];
        b->step_has[k] = 1;
    }
}

void mcd_sim_warm_basis_forget_step(mcd_sim *s)
{
    memset(s->warm_basis->step_has, 0, (size_t)s->cap);
}

void mcd_sim_warm_basis_record(mcd_sim *s)
{
    struct mcd_sim_warm_basis *b = s->warm_basis;
    memcpy(b->mask, b->step, (size_t)b->nrows * (size_t)s->ncontacts);
    memcpy(b->has_mask, b->step_has, (size_t)s->ncontacts);
    for (int k = 0; k < s->ncontacts; k++)
        if (b->step_has[k]) first_direction(s, k, b->d1 + 3 * k);
}

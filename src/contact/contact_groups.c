/* Independent contact groups (include/mcdyn/contact.h, docs/contact.md):
 * rows are coupled when their points' bodies share a moving subtree. Every
 * body maps to its root subtree (the ancestor whose parent is the world);
 * a row joins the subtrees of its A and B points (the world joins
 * nothing), and the groups are the connected classes of subtrees, found by
 * union-find over the roots the step touches. Cost O(rows + points), with
 * no pass over all bodies: only the touched roots are reset. A group's
 * rows and W block, as set up by contact_setup.c, are read through
 * mcd_contact_block_of. */
#include "contact_internal.h"

void mcd_contact_roots(const mcd_model *m, int *root)
{
    for (int k = 0; k < m->nbody; k++) /* parents come first */
        root[k] = m->body[k].parent < 0 ? k : root[m->body[k].parent];
}

static int find(int *uf, int a)
{
    while (uf[a] != a) {
        uf[a] = uf[uf[a]]; /* path halving */
        a = uf[a];
    }
    return a;
}

/* Root of point p's body, registered as touched on first sight. */
static int touch(mcd_contact_groups *g, const mcd_osc_point *pts, int p)
{
    const int r = g->root[pts[p].body];
    if (g->uf[r] < 0) {
        g->uf[r] = r;
        g->touched[g->ntouched++] = r;
    }
    return r;
}

int mcd_contact_partition(mcd_contact_groups *g, int nrows, const mcd_osc_point *pts,
                          const int *row_pa, const int *row_pb, int *row_group)
{
    g->ntouched = 0;
    for (int i = 0; i < nrows; i++) {
        const int a = find(g->uf, touch(g, pts, row_pa[i]));
        if (row_pb[i] < 0) continue;
        const int b = find(g->uf, touch(g, pts, row_pb[i]));
        if (a != b) g->uf[a < b ? b : a] = a < b ? a : b;
    }
    int ng = 0; /* numbered in order of first row */
    for (int i = 0; i < nrows; i++) {
        const int r = find(g->uf, g->root[pts[row_pa[i]].body]);
        if (g->group_of[r] < 0) g->group_of[r] = ng++;
        row_group[i] = g->group_of[r];
    }
    for (int t = 0; t < g->ntouched; t++) { /* back to untouched */
        g->uf[g->touched[t]] = -1;
        g->group_of[g->touched[t]] = -1;
    }
    return ng;
}

mcd_status mcd_contact_block_of(mcd_contact_ws *w, int g, mcd_contact_block *out)
{
    if (g < 0) {
        if (mcd_contact_assemble_whole(w) != MCD_OK) return MCD_ERR_NOMEM;
        *out = (mcd_contact_block){w->nb, w->nc, NULL, w->W.p};
        return MCD_OK;
    }
    if (g >= w->ng) return MCD_ERR_ARG;
    const int n = w->g_start[g + 1] - w->g_start[g];
    *out = (mcd_contact_block){w->g_nb[g], (n - w->g_nb[g]) / 3, w->order + w->g_start[g],
                               w->Wg.p + w->g_W0[g]};
    return MCD_OK;
}

int mcd_contact_block_contact(const mcd_contact_ws *w, const mcd_contact_block *b, int j)
{
    return (mcd_contact_block_row(b, b->nb + 3 * j) - w->nb) / 3;
}

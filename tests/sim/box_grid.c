/* The box grid of box_grid.h. */
#include "box_grid.h"

#include <stdio.h>
#include <stdlib.h>

/* Aborts on a failed build step: the grid is also used outside Check
 * (time_box_grid.c), where ck_assert cannot report. */
static void require(mcd_status st, const mcd_error *err)
{
    if (st == MCD_OK) return;
    fprintf(stderr, "box_grid: %s\n", err->msg[0] ? err->msg : mcd_status_str(st));
    abort();
}

mcd_model *box_grid_model(int n)
{
    mcd_error err = {0};
    const double I = 4 * SCENE_BOX_HALF * SCENE_BOX_HALF / 6.0; /* m (2 HALF)^2 / 6 */
    mcd_builder *b = NULL;
    require(mcd_builder_create(&b), &err);
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "box%d", i);
        mcd_link_desc l = mcd_link_desc_default();
        l.name = name;
        l.jtype = MCD_JOINT_FREE;
        l.mass.mass = 1.0;
        l.mass.inertia[0] = l.mass.inertia[4] = l.mass.inertia[8] = I;
        require(mcd_builder_add_link(b, &l, NULL, &err), &err);
    }
    mcd_model *m = NULL;
    require(mcd_model_build(b, &m, &err), &err);
    mcd_builder_free(b);
    return m;
}

void box_grid_rest(int n, double z0, double *q)
{
    for (int i = 0; i < n; i++) {
        double *qi = q + 7 * i;
        qi[0] = 2.0 * i, qi[1] = 0.0, qi[2] = SCENE_BOX_HALF + z0;
        qi[3] = 1.0, qi[4] = qi[5] = qi[6] = 0.0;
    }
}

mcd_status box_grid_plane(void *user, const mcd_model *m, const mcd_data *d, const double *q,
                          mcd_contact_point *c, int capacity, int *n, mcd_error *err)
{
    (void)user, (void)d;
    int total = 0;
    for (int b = 0; b < m->nbody; b++) {
        mcd_contact_point box[4];
        int nb = 0;
        const mcd_status st = scene_box_plane(NULL, m, d, q + m->body[b].qadr, box, 4, &nb, err);
        if (st != MCD_OK) return st;
        for (int k = 0; k < nb; k++, total++) {
            box[k].body_a = b;
            if (total < capacity) c[total] = box[k];
        }
    }
    *n = total;
    if (total > capacity)
        return mcd_fail(err, MCD_ERR_CAPACITY, "%d contacts, capacity %d", total, capacity);
    return MCD_OK;
}

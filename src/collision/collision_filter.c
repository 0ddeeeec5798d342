/* Which geom pairs are tested, and by whom (include/mcdyn/collision.h lists
 * the rules). The table is filled once, at creation; the broadphase never
 * pairs what it skips. */
#include "collision_internal.h"

#include <string.h>

int mcd_collision_is_analytic(mcd_geom_type a, mcd_geom_type b)
{
    if (a > b) {
        mcd_geom_type t = a;
        a = b, b = t;
    }
    if (a == MCD_GEOM_SPHERE && b == MCD_GEOM_SPHERE) return 1;
    return b == MCD_GEOM_PLANE && a != MCD_GEOM_PLANE && a != MCD_GEOM_MESH;
}

static int excluded(const mcd_collision_options *opt, int b0, int b1)
{
    for (int k = 0; k < opt->nexclude; k++) {
        int e0 = opt->exclude[2 * k], e1 = opt->exclude[2 * k + 1];
        if ((e0 == b0 && e1 == b1) || (e0 == b1 && e1 == b0)) return 1;
    }
    return 0;
}

/* 1 if the bodies are joined by a hinge (the world counts as the parent of
 * a root body only with filter_world_children, and never of a free one). */
static int adjacent(const mcd_model *m, const mcd_collision_options *opt, int b0, int b1)
{
    if (b0 > b1) {
        int t = b0;
        b0 = b1, b1 = t;
    }
    if (b0 >= 0) return m->body[b1].parent == b0;
    return opt->filter_world_children && m->body[b1].parent < 0 &&
           m->body[b1].jtype != MCD_JOINT_FREE;
}

static int pair_mode(const mcd_collision_world *w, const mcd_collision_options *opt, int i, int j)
{
    const mcd_model *m = w->model;
    const mcd_geom *gi = &m->geom[i], *gj = &m->geom[j];
    int bi = gi->body, bj = gj->body;
    if (bi == bj) return MCD_PAIR_SKIP; /* same body, or both on the world */
    int same_robot = gi->robot >= 0 && gi->robot == gj->robot;
    if (same_robot && !opt->self_collision) return MCD_PAIR_SKIP;
    if (adjacent(m, opt, bi, bj) || excluded(opt, bi, bj)) return MCD_PAIR_SKIP;
    if (gi->type == MCD_GEOM_PLANE && gj->type == MCD_GEOM_PLANE) return MCD_PAIR_SKIP;
    if (!opt->analytic || !mcd_collision_is_analytic(gi->type, gj->type)) return MCD_PAIR_BULLET;
    if ((bi < 0 && gi->type == MCD_GEOM_PLANE) || (bj < 0 && gj->type == MCD_GEOM_PLANE))
        return MCD_PAIR_DIRECT; /* a world plane overlaps every box: no broadphase */
    return MCD_PAIR_ANALYTIC;
}

void mcd_collision_fill_pairs(mcd_collision_world *w, const mcd_collision_options *opt)
{
    int n = w->ngeom;
    for (int i = 0; i < n; i++) {
        w->pair_table[(size_t)i * n + i] = MCD_PAIR_SKIP;
        for (int j = i + 1; j < n; j++) {
            unsigned char mode = (unsigned char)pair_mode(w, opt, i, j);
            w->pair_table[(size_t)i * n + j] = w->pair_table[(size_t)j * n + i] = mode;
        }
    }
}

int mcd_collision_pair_enabled(const mcd_collision_world *w, int geom_a, int geom_b)
{
    if (!w || geom_a < 0 || geom_b < 0 || geom_a >= w->ngeom || geom_b >= w->ngeom) return 0;
    return w->pair_table[(size_t)geom_a * w->ngeom + geom_b] != MCD_PAIR_SKIP;
}

/* Collecting one detection's contact points (src/collision/collision_internal.h):
 * the activation-distance test (the closed forms' delta, Bullet's pairs'
 * max(delta, bullet_activation_distance)), the A/B convention of collision.h, the
 * merging of duplicates, the reduction of coplanar manifolds to their hull
 * vertices. Points of one pair arrive together (one narrowphase call or one
 * closed form; the shim visits the pairs in the order of their geom
 * indices), so duplicates are looked for among the current pair's points
 * only, and they are reduced when the next pair begins (or the detection
 * ends). */
#include "collision_internal.h"
#include "contact_manifold.h"

#include <string.h>

void mcd_contact_sink_init(mcd_contact_sink *s, const mcd_collision_world *w, mcd_contact *c,
                           int capacity)
{
    s->w = w;
    s->c = c;
    s->capacity = capacity;
    s->n = 0;
    s->overflow = 0;
    s->pair_start = 0;
    s->cur_a = s->cur_b = -1;
}

/* 1 if the points c[0 .. n) of one geom pair come from a closed form
 * (contact_analytic.c, contact_plane.c): a shape's support polygon against
 * a plane (a box face's corners, an upright cylinder's square of rim
 * points, a capsule's two ends) or one point, each a vertex of the points'
 * hull by construction. */
static int one_closed_form(const mcd_contact *c, int n)
{
    for (int i = 0; i < n; i++)
        if (!c[i].closed_form) return 0;
    return 1;
}

/* The points of the current geom pair, from pair_start, reduced to the
 * hull vertices of their coplanar manifolds (contact_manifold.h); a single
 * closed form's points are that already. Only one geom pair's points: two
 * geoms of a body (plate64's sphere feet, a foot and a shin) are contacts
 * of their own, whose forces are read one by one (docs/collision.md). */
static void reduce_pair(mcd_contact_sink *s)
{
    mcd_contact *c = s->c + s->pair_start;
    const int n = s->n - s->pair_start;
    if (n > 0 && !one_closed_form(c, n)) s->n = s->pair_start + mcd_contact_manifold_reduce(c, n);
}

/* Stores the point if gap <= limit; closed_form as mcd_contact says. */
static void store(mcd_contact_sink *s, int ga, int gb, const double normal[3],
                  const double point_b[3], double gap, double limit, int closed_form)
{
    const mcd_collision_world *w = s->w;
    if (!(gap <= limit)) return;
    const mcd_model *m = w->model;
    double len = mcd_v3_norm(normal);
    if (!(len > 0)) return;
    mcd_contact c;
    memset(&c, 0, sizeof c); /* the padding after closed_form too: outputs compare bytewise */
    double n[3], pa[3];
    mcd_v3_scale(n, normal, 1.0 / len);
    mcd_v3_copy(pa, point_b);
    mcd_v3_axpy(pa, gap, n);
    if (m->geom[ga].body > m->geom[gb].body) {
        c.geom_a = ga, c.geom_b = gb;
        mcd_v3_copy(c.normal, n);
        mcd_v3_copy(c.point_a, pa);
        mcd_v3_copy(c.point_b, point_b);
    } else { /* B must be the lower body (the world, if involved) */
        c.geom_a = gb, c.geom_b = ga;
        mcd_v3_scale(c.normal, n, -1.0);
        mcd_v3_copy(c.point_a, point_b);
        mcd_v3_copy(c.point_b, pa);
    }
    c.body_a = m->geom[c.geom_a].body;
    c.body_b = m->geom[c.geom_b].body;
    c.gap = gap;
    c.closed_form = closed_form;
    mcd_v3_add(c.pos, c.point_a, c.point_b);
    mcd_v3_scale(c.pos, c.pos, 0.5);

    if (c.geom_a != s->cur_a || c.geom_b != s->cur_b) {
        reduce_pair(s);
        s->cur_a = c.geom_a, s->cur_b = c.geom_b;
        s->pair_start = s->n;
    }
    double tol2 = w->opt.merge_distance * w->opt.merge_distance;
    for (int k = s->pair_start; k < s->n; k++) {
        double d[3];
        mcd_v3_sub(d, c.pos, s->c[k].pos);
        if (mcd_v3_dot(d, d) <= tol2) {
            if (c.gap < s->c[k].gap) s->c[k] = c;
            return;
        }
    }
    if (s->n < s->capacity)
        s->c[s->n++] = c;
    else
        s->overflow++;
}

void mcd_contact_sink_add(mcd_contact_sink *s, int ga, int gb, const double normal[3],
                          const double point_b[3], double gap)
{
    store(s, ga, gb, normal, point_b, gap, s->w->opt.activation_distance, 1);
}

void mcd_contact_sink_add_within(mcd_contact_sink *s, int ga, int gb, const double normal[3],
                                 const double point_b[3], double gap, double limit)
{
    store(s, ga, gb, normal, point_b, gap, limit, 1);
}

void mcd_contact_sink_add_bullet(mcd_contact_sink *s, int ga, int gb, const double normal[3],
                                 const double point_b[3], double gap)
{
    store(s, ga, gb, normal, point_b, gap, s->w->bullet_delta, 0);
}

void mcd_contact_sink_finish(mcd_contact_sink *s)
{
    reduce_pair(s);
}

/* mcd_collision_detect (include/mcdyn/collision.h): geom poses from the
 * body poses, then Bullet's broadphase and narrowphase, the closed forms
 * for the analytic pairs, and the sink. Allocates nothing. */
#include "collision_internal.h"

#include <math.h>

/* 1 if every entry is finite: x * 0 is 0 for finite x, NaN otherwise. */
static int pose_finite(const mcd_pose *X)
{
    double z = 0.0;
    for (int i = 0; i < 9; i++) z += X->R[i] * 0.0;
    for (int i = 0; i < 3; i++) z += X->p[i] * 0.0;
    return z == 0.0;
}

/* The error for geom i, whose world pose is not finite: its body's pose,
 * or the product overflowing. */
static mcd_status fail_pose(const mcd_collision_world *w, const mcd_data *d, int i, mcd_error *err)
{
    const mcd_model *m = w->model;
    int b = m->geom[i].body;
    if (!pose_finite(&d->bd[b].X_world))
        return mcd_fail(err, MCD_ERR_NONFINITE,
                        "collision: body '%s' has a non-finite pose (NaN or Inf)", m->body_name[b]);
    return mcd_fail(err, MCD_ERR_NONFINITE, "collision: geom %d on body '%s' has a non-finite pose",
                    i, m->body_name[b]);
}

/* World poses of the moving geoms; Bullet is given none unless all are
 * finite. */
static mcd_status update_poses(mcd_collision_world *w, const mcd_data *d, mcd_error *err)
{
    const mcd_model *m = w->model;
    for (int i = 0; i < w->ngeom; i++) {
        int b = m->geom[i].body;
        if (b < 0) continue;
        mcd_pose_mul(&w->pose[i], &d->bd[b].X_world, &m->geom[i].pose);
        if (!pose_finite(&w->pose[i])) return fail_pose(w, d, i, err);
    }
    for (int i = 0; i < w->ngeom; i++)
        if (m->geom[i].body >= 0) mcd_bt_set_pose(w->bt, i, w->pose[i].R, w->pose[i].p);
    return MCD_OK;
}

static void on_pair(void *ctx, int g0, int g1)
{
    mcd_collision_analytic(ctx, g0, g1);
}

static void on_point(void *ctx, int ga, int gb, const double normal[3], const double point_b[3],
                     double dist)
{
    mcd_contact_sink_add_bullet(ctx, ga, gb, normal, point_b, dist);
}

mcd_status mcd_collision_detect(mcd_collision_world *w, const mcd_model *m, const mcd_data *d,
                                mcd_contact *contacts, int capacity, int *ncontacts, mcd_error *err)
{
    if (!w || !m || !d || !ncontacts)
        return mcd_fail(err, MCD_ERR_ARG, "mcd_collision_detect: NULL argument");
    *ncontacts = 0;
    if (m != w->model || d->model != m)
        return mcd_fail(err, MCD_ERR_ARG,
                        "mcd_collision_detect: the model or data is not the world's model");
    if (!contacts) {
        contacts = w->buf;
        capacity = w->opt.capacity;
        w->nbuf = 0;
    } else if (capacity < 0) {
        return mcd_fail(err, MCD_ERR_ARG, "mcd_collision_detect: negative capacity %d", capacity);
    }
    mcd_status s = update_poses(w, d, err);
    if (s != MCD_OK) return s;

    mcd_contact_sink sink;
    mcd_contact_sink_init(&sink, w, contacts, capacity);
    mcd_bt_detect(w->bt, on_pair, on_point, &sink);
    mcd_contact_sink_finish(&sink);
    *ncontacts = sink.n;
    if (contacts == w->buf) w->nbuf = sink.n;
    if (sink.overflow > 0)
        return mcd_fail(err, MCD_ERR_CAPACITY,
                        "collision: more contact points than the capacity %d (up to %ld more "
                        "found, before merging duplicates)",
                        capacity, sink.overflow);
    return MCD_OK;
}

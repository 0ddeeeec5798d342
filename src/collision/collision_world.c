/* The collision world: everything mcd_collision_detect needs, made once
 * (include/mcdyn/collision.h). Mesh files are read here. */
#include "collision_internal.h"
#include "mesh_load.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *body_name(const mcd_model *m, int b)
{
    return b < 0 ? "world" : m->body_name[b];
}

static const char *geom_type_name(mcd_geom_type t)
{
    static const char *names[] = {"sphere", "box", "cylinder", "capsule", "plane", "mesh"};
    return (int)t >= 0 && t < MCD_GEOM_TYPE_COUNT ? names[t] : "unknown";
}

/* Sizes Bullet's shapes can take (the builder checks only some). */
static mcd_status check_geom(const mcd_model *m, int i, mcd_error *err)
{
    const mcd_geom *g = &m->geom[i];
    const double *s = g->size;
    int ok = 1;
    switch (g->type) {
    case MCD_GEOM_SPHERE:
        ok = s[0] > 0;
        break;
    case MCD_GEOM_BOX:
        ok = s[0] > 0 && s[1] > 0 && s[2] > 0;
        break;
    case MCD_GEOM_CYLINDER:
        ok = s[0] > 0 && s[1] > 0;
        break;
    case MCD_GEOM_CAPSULE:
        ok = s[0] > 0 && s[1] >= 0;
        break;
    case MCD_GEOM_PLANE:
        break;
    case MCD_GEOM_MESH:
        ok = s[0] != 0 && s[1] != 0 && s[2] != 0 && g->mesh_path != NULL;
        break;
    default:
        return mcd_fail(err, MCD_ERR_MODEL, "geom %d: unknown type %d", i, (int)g->type);
    }
    if (!ok)
        return mcd_fail(err, MCD_ERR_MODEL, "geom %d (%s on body '%s'): invalid size", i,
                        geom_type_name(g->type), body_name(m, g->body));
    return MCD_OK;
}

static mcd_bt_type bt_type(mcd_geom_type t)
{
    switch (t) {
    case MCD_GEOM_SPHERE:
        return MCD_BT_SPHERE;
    case MCD_GEOM_BOX:
        return MCD_BT_BOX;
    case MCD_GEOM_CYLINDER:
        return MCD_BT_CYLINDER;
    case MCD_GEOM_CAPSULE:
        return MCD_BT_CAPSULE;
    case MCD_GEOM_PLANE:
        return MCD_BT_PLANE;
    default:
        return MCD_BT_HULL;
    }
}

/* Vertices of a mesh geom, scaled by its size, as a solid. */
static mcd_status load_mesh(const mcd_model *m, const mcd_geom *g, double **verts, int *n,
                            mcd_error *err)
{
    mcd_status s = mcd_mesh_load_vertices(g->mesh_path, body_name(m, g->body), verts, n, err);
    if (s != MCD_OK) return s;
    for (int k = 0; k < *n; k++)
        for (int c = 0; c < 3; c++) (*verts)[3 * k + c] *= g->size[c];
    if (!mcd_mesh_is_solid(*verts, *n)) {
        free(*verts);
        *verts = NULL;
        return mcd_fail(err, MCD_ERR_MODEL,
                        "mesh '%s': its vertices do not span a solid (flat or degenerate "
                        "convex hull)",
                        g->mesh_path);
    }
    return MCD_OK;
}

static mcd_status build_bullet(mcd_collision_world *w, mcd_error *err)
{
    const mcd_model *m = w->model;
    int n = w->ngeom;
    mcd_bt_shape *shape = calloc((size_t)(n ? n : 1), sizeof *shape);
    double **verts = calloc((size_t)(n ? n : 1), sizeof *verts);
    mcd_status s = MCD_OK;
    if (!shape || !verts) {
        s = mcd_fail(err, MCD_ERR_NOMEM, "out of memory creating the collision world");
        goto done;
    }
    for (int i = 0; i < n && s == MCD_OK; i++) {
        const mcd_geom *g = &m->geom[i];
        shape[i].type = bt_type(g->type);
        memcpy(shape[i].size, g->size, sizeof g->size);
        if (g->type == MCD_GEOM_MESH) s = load_mesh(m, g, &verts[i], &shape[i].nverts, err);
        shape[i].verts = verts[i];
        if (g->body < 0) {
            shape[i].is_static = 1;
            memcpy(shape[i].R, w->pose[i].R, sizeof shape[i].R);
            memcpy(shape[i].p, w->pose[i].p, sizeof shape[i].p);
        }
    }
    if (s != MCD_OK) goto done;
    mcd_bt_config cfg;
    cfg.nshape = n;
    cfg.shape = shape;
    cfg.pair_table = w->pair_table;
    cfg.threshold = w->bullet_delta + MCD_COLLISION_SLACK;
    cfg.plane_iterations = w->opt.plane_iterations;
    s = mcd_bt_world_create(&cfg, &w->bt, err);
done:
    if (verts)
        for (int i = 0; i < n; i++) free(verts[i]);
    free(verts);
    free(shape);
    return s;
}

mcd_status mcd_collision_world_create(const mcd_model *m, const mcd_collision_options *opt,
                                      mcd_collision_world **out, mcd_error *err)
{
    if (!m || !out) return mcd_fail(err, MCD_ERR_ARG, "mcd_collision_world_create: NULL argument");
    *out = NULL;
    mcd_collision_options o = opt ? *opt : mcd_collision_options_default();
    mcd_status s = mcd_collision_check_options(m, &o, err);
    for (int i = 0; i < m->ngeom && s == MCD_OK; i++) s = check_geom(m, i, err);
    if (s != MCD_OK) return s;

    mcd_collision_world *w = calloc(1, sizeof *w);
    if (!w) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory creating the collision world");
    w->model = m;
    w->opt = o;
    w->opt.exclude = NULL;
    w->bullet_delta = fmax(o.activation_distance, o.bullet_activation_distance);
    w->ngeom = m->ngeom;
    size_t n = (size_t)(m->ngeom ? m->ngeom : 1);
    w->pair_table = calloc(n * n, 1);
    w->pose = calloc(n, sizeof *w->pose);
    w->buf = calloc((size_t)(o.capacity ? o.capacity : 1), sizeof *w->buf);
    if (!w->pair_table || !w->pose || !w->buf) {
        mcd_collision_world_free(w);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory creating the collision world");
    }
    mcd_collision_fill_pairs(w, &o);
    for (int i = 0; i < m->ngeom; i++) /* world geoms keep this pose */
        w->pose[i] = m->geom[i].pose;
    s = build_bullet(w, err);
    if (s != MCD_OK) {
        mcd_collision_world_free(w);
        return s;
    }
    *out = w;
    return MCD_OK;
}

void mcd_collision_world_free(mcd_collision_world *w)
{
    if (!w) return;
    mcd_bt_world_free(w->bt);
    free(w->pair_table);
    free(w->pose);
    free(w->buf);
    free(w);
}

const mcd_contact *mcd_collision_world_contacts(const mcd_collision_world *w, int *n)
{
    if (n) *n = w ? w->nbuf : 0;
    return w ? w->buf : NULL;
}

/* mcd_model_build: from builder links to the run-time model.
 *
 * Fixed joints are merged: every link is assigned a host — itself for a
 * moving link, its parent's host for a fixed one (the world, -1, for links
 * fixed to the world) — and its pose in the host frame. Moving links become
 * the bodies, in the order they were added (parents before children, since
 * a parent index must exist when a link is added). */
#include "builder_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct link_host {
    int body;      /* body index of the host, -1 for the world */
    mcd_pose pose; /* link frame in the host frame */
    int robot;     /* the robot of the link (mcd_body.robot) */
} link_host;

static void assign_hosts(const mcd_builder *b, link_host *h, mcd_model *m)
{
    int n = 0;
    m->nrobot = 0;
    for (int i = 0; i < b->nlink; i++) {
        const builder_link *L = &b->link[i];
        h[i].robot = L->parent < 0 ? m->nrobot++ : h[L->parent].robot;
        if (L->jtype != MCD_JOINT_FIXED) {
            h[i].body = n++;
            mcd_pose_identity(&h[i].pose);
        } else if (L->parent < 0) {
            h[i].body = -1;
            h[i].pose = L->origin;
        } else {
            h[i].body = h[L->parent].body;
            mcd_pose_mul(&h[i].pose, &h[L->parent].pose, &L->origin);
        }
    }
    m->nbody = n;
}

static mcd_status alloc_model(mcd_model *m, const mcd_builder *b, mcd_error *err)
{
    m->body = calloc((size_t)(m->nbody ? m->nbody : 1), sizeof *m->body);
    m->body_name = calloc((size_t)(m->nbody ? m->nbody : 1), sizeof *m->body_name);
    m->joint_name = calloc((size_t)(m->nbody ? m->nbody : 1), sizeof *m->joint_name);
    m->frame = calloc((size_t)(b->nlink ? b->nlink : 1), sizeof *m->frame);
    m->frame_name = calloc((size_t)(b->nlink ? b->nlink : 1), sizeof *m->frame_name);
    m->geom = calloc((size_t)(b->ngeom ? b->ngeom : 1), sizeof *m->geom);
    m->visual = calloc((size_t)(b->nvisual ? b->nvisual : 1), sizeof *m->visual);
    m->visual_mesh = calloc((size_t)(b->nvisual ? b->nvisual : 1), sizeof *m->visual_mesh);
    if (!m->body || !m->body_name || !m->joint_name || !m->frame || !m->frame_name || !m->geom ||
        !m->visual || !m->visual_mesh)
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory building the model");
    return MCD_OK;
}

/* Bodies, names and mass properties (merged links add their mass). */
static mcd_status fill_bodies(mcd_model *m, const mcd_builder *b, const link_host *h,
                              mcd_error *err)
{
    int qadr = 0, vadr = 0;
    for (int i = 0; i < b->nlink; i++) {
        const builder_link *L = &b->link[i];
        if (L->jtype == MCD_JOINT_FIXED) continue;
        int k = h[i].body;
        mcd_body *B = &m->body[k];
        B->parent = L->parent < 0 ? -1 : h[L->parent].body;
        B->jtype = L->jtype;
        B->nq = mcd_joint_nq(L->jtype);
        B->nv = mcd_joint_nv(L->jtype);
        B->qadr = qadr;
        B->vadr = vadr;
        qadr += B->nq;
        vadr += B->nv;
        if (L->parent < 0)
            B->X_tree = L->origin;
        else
            mcd_pose_mul(&B->X_tree, &h[L->parent].pose, &L->origin);
        mcd_v3_copy(B->axis, L->axis);
        B->limits = L->limits;
        if (L->continuous) B->limits.has_position_limits = 0;
        B->first_child = B->next_sibling = -1;
        B->robot = h[i].robot;
        m->body_name[k] = mcd_builder_strdup(L->name);
        m->joint_name[k] = mcd_builder_strdup(L->joint_name);
        if (!m->body_name[k] || !m->joint_name[k])
            return mcd_fail(err, MCD_ERR_NOMEM, "out of memory building the model");
    }
    m->nq = qadr;
    m->nv = vadr;
    for (int i = 0; i < b->nlink; i++) {
        int k = h[i].body;
        if (k >= 0) mcd_mass_props_add(&m->body[k].mass, &b->link[i].mass, &h[i].pose);
    }
    return MCD_OK;
}

/* Tree links, depth, total mass and spatial inertias. depth: nbody scratch. */
static void link_tree(mcd_model *m, int *depth)
{
    m->max_depth = 0;
    for (int k = m->nbody - 1; k >= 0; k--) { /* children in ascending order */
        int p = m->body[k].parent;
        if (p >= 0) {
            m->body[k].next_sibling = m->body[p].first_child;
            m->body[p].first_child = k;
        }
    }
    m->total_mass = 0.0;
    for (int k = 0; k < m->nbody; k++) {
        int p = m->body[k].parent;
        depth[k] = p < 0 ? 1 : depth[p] + 1;
        if (depth[k] > m->max_depth) m->max_depth = depth[k];
        m->total_mass += m->body[k].mass.mass;
        const mcd_mass_props *mp = &m->body[k].mass;
        mcd_sym6_rigid(&m->body[k].inertia, mp->mass, mp->com, mp->inertia);
    }
}

/* A moving body must be able to accelerate: a leaf needs positive mass and
 * a positive-definite inertia; an inner body may be massless. */
static mcd_status validate_bodies(const mcd_model *m, mcd_error *err)
{
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        if (B->first_child >= 0) continue;
        if (!(B->mass.mass > 0.0))
            return mcd_fail(err, MCD_ERR_MODEL,
                            "link '%s': a moving link with no moving children needs positive "
                            "mass (has %g kg, fixed links merged)",
                            m->body_name[k], B->mass.mass);
        if (!mcd_inertia_positive_definite(B->mass.inertia))
            return mcd_fail(err, MCD_ERR_MODEL,
                            "link '%s': a moving link with no moving children needs a "
                            "positive-definite inertia (fixed links merged)",
                            m->body_name[k]);
    }
    return MCD_OK;
}

/* A builder geom (or visual) on its link's host body; nonzero when out of
 * memory. */
static int place_shape(mcd_geom *G, const mcd_geom *src, const link_host *h)
{
    *G = *src;
    G->mesh_path = NULL;
    G->robot = src->body >= 0 ? h[src->body].robot : -1;
    if (src->body >= 0) {
        G->body = h[src->body].body;
        mcd_pose_mul(&G->pose, &h[src->body].pose, &src->pose);
    }
    return src->mesh_path && !(G->mesh_path = mcd_builder_strdup(src->mesh_path));
}

static mcd_status fill_frames_geoms_nodes(mcd_model *m, const mcd_builder *b, const link_host *h,
                                          mcd_error *err)
{
    m->nframe = b->nlink;
    for (int i = 0; i < b->nlink; i++) {
        m->frame[i].body = h[i].body;
        m->frame[i].pose = h[i].pose;
        if (!(m->frame_name[i] = mcd_builder_strdup(b->link[i].name)))
            return mcd_fail(err, MCD_ERR_NOMEM, "out of memory building the model");
    }
    for (int g = 0; g < b->ngeom; g++)
        if (place_shape(&m->geom[m->ngeom++], &b->geom[g], h))
            return mcd_fail(err, MCD_ERR_NOMEM, "out of memory building the model");
    for (int g = 0; g < b->nvisual; g++)
        if (place_shape(&m->visual[m->nvisual++], &b->visual[g], h) ||
            mcd_visual_mesh_copy(&m->visual_mesh[g], &b->visual_mesh[g]))
            return mcd_fail(err, MCD_ERR_NOMEM, "out of memory building the model");
    if (b->nclosure > 0) {
        m->closure = calloc((size_t)b->nclosure, sizeof *m->closure);
        m->closure_name = calloc((size_t)b->nclosure, sizeof *m->closure_name);
        if (!m->closure || !m->closure_name)
            return mcd_fail(err, MCD_ERR_NOMEM, "out of memory building the model");
    }
    for (int c = 0; c < b->nclosure; c++) {
        const builder_closure *src = &b->closure[c];
        mcd_closure C = src->c;
        C.body_a = h[src->c.body_a].body;
        mcd_pose_mul(&C.pose_a, &h[src->c.body_a].pose, &src->c.pose_a);
        if (src->c.body_b >= 0) {
            C.body_b = h[src->c.body_b].body;
            mcd_pose_mul(&C.pose_b, &h[src->c.body_b].pose, &src->c.pose_b);
        }
        if (C.body_a < 0) { /* keep the moving side as A */
            mcd_pose t = C.pose_a;
            C.body_a = C.body_b, C.pose_a = C.pose_b;
            C.body_b = -1, C.pose_b = t;
        }
        if (C.body_a < 0 || C.body_a == C.body_b)
            return mcd_fail(err, MCD_ERR_MODEL,
                            "closure '%s': its two frames are on the same rigid body once fixed "
                            "joints are merged",
                            src->name);
        m->closure[c] = C;
        if (!(m->closure_name[c] = mcd_builder_strdup(src->name)))
            return mcd_fail(err, MCD_ERR_NOMEM, "out of memory building the model");
        m->nclosure++;
        m->nclosure_rows += mcd_closure_rows(C.type);
    }
    for (int n = 0; n < b->nnode; n++) {
        const builder_node *N = &b->node[n];
        int body = h[N->link].body;
        if (body < 0)
            return mcd_fail(err, MCD_ERR_MODEL, "node '%s': its link is fixed to the world",
                            N->name);
        mcd_pose pose;
        mcd_pose_mul(&pose, &h[N->link].pose, &N->pose);
        mcd_status s = mcd_model_add_node(m, N->name, body, &pose, NULL, err);
        if (s != MCD_OK) return s;
    }
    return MCD_OK;
}

mcd_status mcd_model_build(const mcd_builder *b, mcd_model **out, mcd_error *err)
{
    if (!b || !out) return mcd_fail(err, MCD_ERR_ARG, "mcd_model_build: NULL argument");
    *out = NULL;
    link_host *h = calloc((size_t)(b->nlink ? b->nlink : 1), sizeof *h);
    int *depth = calloc((size_t)(b->nlink ? b->nlink : 1), sizeof *depth);
    mcd_model *m = calloc(1, sizeof *m);
    mcd_status s = MCD_OK;
    if (!h || !m || !depth) {
        s = mcd_fail(err, MCD_ERR_NOMEM, "out of memory building the model");
        goto done;
    }
    assign_hosts(b, h, m);
    mcd_v3_copy(m->gravity, b->gravity);
    if ((s = alloc_model(m, b, err)) != MCD_OK) goto done;
    if (b->name && !(m->name = mcd_builder_strdup(b->name))) {
        s = mcd_fail(err, MCD_ERR_NOMEM, "out of memory building the model");
        goto done;
    }
    if ((s = fill_bodies(m, b, h, err)) != MCD_OK) goto done;
    link_tree(m, depth);
    if ((s = validate_bodies(m, err)) != MCD_OK) goto done;
    s = fill_frames_geoms_nodes(m, b, h, err);
done:
    free(h);
    free(depth);
    if (s != MCD_OK) {
        mcd_model_free(m);
        return s;
    }
    *out = m;
    return MCD_OK;
}

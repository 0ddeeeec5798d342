/* The model builder: collects links, geoms and nodes; mcd_model_build
 * validates them, merges fixed joints into their parents and lays the
 * bodies out in topological order (include/mcdyn/model.h). */
#include "builder_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *dup_string(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *r = malloc(n);
    if (r) memcpy(r, s, n);
    return r;
}

/* Grows a dynamic array to hold at least need elements of size sz. */
static int reserve(void **items, int *cap, int need, size_t sz)
{
    if (need <= *cap) return 1;
    int ncap = *cap ? *cap * 2 : 16;
    while (ncap < need) ncap *= 2;
    void *p = realloc(*items, (size_t)ncap * sz);
    if (!p) return 0;
    *items = p;
    *cap = ncap;
    return 1;
}

mcd_link_desc mcd_link_desc_default(void)
{
    mcd_link_desc d;
    memset(&d, 0, sizeof d);
    d.parent = -1;
    d.jtype = MCD_JOINT_FIXED;
    mcd_pose_identity(&d.origin);
    d.axis[2] = 1.0;
    return d;
}

mcd_status mcd_builder_create(mcd_builder **out)
{
    if (!out) return MCD_ERR_ARG;
    mcd_builder *b = calloc(1, sizeof *b);
    if (!b) return MCD_ERR_NOMEM;
    b->gravity[2] = -9.81;
    *out = b;
    return MCD_OK;
}

void mcd_builder_free(mcd_builder *b)
{
    if (!b) return;
    for (int i = 0; i < b->nlink; i++) {
        free(b->link[i].name);
        free(b->link[i].joint_name);
    }
    for (int i = 0; i < b->ngeom; i++) free(b->geom[i].mesh_path);
    for (int i = 0; i < b->nvisual; i++) {
        free(b->visual[i].mesh_path);
        mcd_visual_mesh_free(&b->visual_mesh[i]);
    }
    free(b->visual);
    free(b->visual_mesh);
    for (int i = 0; i < b->nnode; i++) free(b->node[i].name);
    for (int i = 0; i < b->nclosure; i++) free(b->closure[i].name);
    free(b->closure);
    free(b->link);
    free(b->geom);
    free(b->node);
    free(b->name);
    free(b);
}

int mcd_builder_nlinks(const mcd_builder *b)
{
    return b ? b->nlink : 0;
}

int mcd_builder_find_link(const mcd_builder *b, const char *name)
{
    if (!b || !name) return -1;
    for (int i = 0; i < b->nlink; i++)
        if (!strcmp(b->link[i].name, name)) return i;
    return -1;
}

static int find_joint(const mcd_builder *b, const char *name)
{
    for (int i = 0; i < b->nlink; i++)
        if (!strcmp(b->link[i].joint_name, name)) return i;
    return -1;
}

static int pose_finite(const mcd_pose *X)
{
    for (int i = 0; i < 9; i++)
        if (!isfinite(X->R[i])) return 0;
    return mcd_v3_isfinite(X->p);
}

/* 1 if R is a proper rotation to 1e-9. */
static int is_rotation(const double R[9])
{
    double RtR[9];
    mcd_m3t_mul(RtR, R, R);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (fabs(RtR[3 * i + j] - (i == j)) > 1e-9) return 0;
    double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                 R[2] * (R[3] * R[7] - R[4] * R[6]);
    return det > 0.0;
}

/* Nonzero if a link described by d would be fixed to the world: a fixed
 * joint to the world or to a link fixed to the world. */
static int welded_to_world(const mcd_builder *b, const mcd_link_desc *d)
{
    if (d->jtype != MCD_JOINT_FIXED) return 0;
    for (int p = d->parent; p >= 0; p = b->link[p].parent)
        if (b->link[p].jtype != MCD_JOINT_FIXED) return 0;
    return 1;
}

/* Mass properties: finite always; physically valid unless the link is fixed
 * to the world, where they never enter the dynamics (a URDF's fixed-base
 * root commonly carries a zero mass with a nonzero inertia). */
static mcd_status check_mass(const mcd_builder *b, const mcd_link_desc *d, mcd_error *err)
{
    char why[200];
    if (mcd_mass_props_valid(&d->mass, why, sizeof why)) return MCD_OK;
    if (!mcd_mass_props_finite(&d->mass))
        return mcd_fail(err, MCD_ERR_NONFINITE, "link '%s': %s", d->name, why);
    if (welded_to_world(b, d)) return MCD_OK;
    return mcd_fail(err, MCD_ERR_MODEL, "link '%s': %s", d->name, why);
}

static mcd_status check_link_desc(const mcd_builder *b, const mcd_link_desc *d, mcd_error *err)
{
    if (!d->name || !d->name[0]) return mcd_fail(err, MCD_ERR_ARG, "link without a name");
    if (mcd_builder_find_link(b, d->name) >= 0)
        return mcd_fail(err, MCD_ERR_MODEL, "link '%s': duplicate link name", d->name);
    const char *jn = d->joint_name ? d->joint_name : d->name;
    if (find_joint(b, jn) >= 0)
        return mcd_fail(err, MCD_ERR_MODEL, "link '%s': duplicate joint name '%s'", d->name, jn);
    if (d->parent < -1 || d->parent >= b->nlink)
        return mcd_fail(err, MCD_ERR_MODEL, "link '%s': parent index %d does not name a link",
                        d->name, d->parent);
    if ((int)d->jtype < 0 || d->jtype >= MCD_JOINT_TYPE_COUNT)
        return mcd_fail(err, MCD_ERR_MODEL, "link '%s': unknown joint type %d", d->name,
                        (int)d->jtype);
    if (!pose_finite(&d->origin) || !mcd_v3_isfinite(d->axis))
        return mcd_fail(err, MCD_ERR_NONFINITE, "link '%s': joint origin or axis is not finite",
                        d->name);
    if (!is_rotation(d->origin.R))
        return mcd_fail(err, MCD_ERR_MODEL, "link '%s': joint origin rotation is not a rotation",
                        d->name);
    int axial = d->jtype == MCD_JOINT_REVOLUTE || d->jtype == MCD_JOINT_CONTINUOUS ||
                d->jtype == MCD_JOINT_PRISMATIC;
    if (axial && !(mcd_v3_norm(d->axis) > 1e-12))
        return mcd_fail(err, MCD_ERR_MODEL, "link '%s': joint axis is zero", d->name);
    mcd_status s = check_mass(b, d, err);
    if (s != MCD_OK) return s;
    const mcd_joint_limits *l = &d->limits;
    if (!isfinite(l->damping) || !isfinite(l->friction) || !isfinite(l->effort) ||
        !isfinite(l->velocity) || (l->has_position_limits && !(l->lower <= l->upper)))
        return mcd_fail(err, MCD_ERR_MODEL, "link '%s': invalid joint limits or damping", d->name);
    return MCD_OK;
}

mcd_status mcd_builder_add_link(mcd_builder *b, const mcd_link_desc *d, int *index, mcd_error *err)
{
    if (!b || !d) return mcd_fail(err, MCD_ERR_ARG, "mcd_builder_add_link: NULL argument");
    mcd_status s = check_link_desc(b, d, err);
    if (s != MCD_OK) return s;
    if (!reserve((void **)&b->link, &b->link_cap, b->nlink + 1, sizeof *b->link))
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory adding link '%s'", d->name);
    builder_link *L = &b->link[b->nlink];
    memset(L, 0, sizeof *L);
    L->name = dup_string(d->name);
    L->joint_name = dup_string(d->joint_name ? d->joint_name : d->name);
    if (!L->name || !L->joint_name) {
        free(L->name);
        free(L->joint_name);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory adding link '%s'", d->name);
    }
    L->parent = d->parent;
    L->jtype = d->jtype == MCD_JOINT_CONTINUOUS ? MCD_JOINT_REVOLUTE : d->jtype;
    L->continuous = d->jtype == MCD_JOINT_CONTINUOUS;
    L->origin = d->origin;
    double n = mcd_v3_norm(d->axis);
    if (n > 0) mcd_v3_scale(L->axis, d->axis, 1.0 / n);
    L->mass = d->mass;
    L->limits = d->limits;
    if (index) *index = b->nlink;
    b->nlink++;
    return MCD_OK;
}

/* Checks g on link and appends a copy to the list (*list, *n, *cap). */
static mcd_status add_shape(mcd_builder *b, int link, const mcd_geom *g, mcd_geom **list, int *n,
                            int *cap, mcd_error *err)
{
    if (link < -1 || link >= b->nlink)
        return mcd_fail(err, MCD_ERR_ARG, "geom: link index %d does not name a link", link);
    if ((int)g->type < 0 || g->type >= MCD_GEOM_TYPE_COUNT)
        return mcd_fail(err, MCD_ERR_ARG, "geom: unknown type %d", (int)g->type);
    if (!pose_finite(&g->pose) || !mcd_v3_isfinite(g->size))
        return mcd_fail(err, MCD_ERR_NONFINITE, "geom on link %d: pose or size not finite", link);
    if (g->type != MCD_GEOM_PLANE && g->type != MCD_GEOM_MESH &&
        (g->size[0] <= 0 || ((g->type == MCD_GEOM_BOX) && (g->size[1] <= 0 || g->size[2] <= 0))))
        return mcd_fail(err, MCD_ERR_MODEL, "geom on link '%s': non-positive size",
                        link >= 0 ? b->link[link].name : "world");
    if (g->type == MCD_GEOM_MESH && (!g->mesh_path || !g->mesh_path[0]))
        return mcd_fail(err, MCD_ERR_ARG, "mesh geom without a file");
    if (!reserve((void **)list, cap, *n + 1, sizeof **list))
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory adding a geom");
    mcd_geom *G = &(*list)[*n];
    *G = *g;
    G->body = link;
    G->mesh_path = NULL;
    if (g->type == MCD_GEOM_MESH && !(G->mesh_path = dup_string(g->mesh_path)))
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory adding a geom");
    ++*n;
    return MCD_OK;
}

mcd_status mcd_builder_add_geom(mcd_builder *b, int link, const mcd_geom *g, mcd_error *err)
{
    if (!b || !g) return mcd_fail(err, MCD_ERR_ARG, "mcd_builder_add_geom: NULL argument");
    return add_shape(b, link, g, &b->geom, &b->ngeom, &b->geom_cap, err);
}

mcd_status mcd_builder_add_visual(mcd_builder *b, int link, const mcd_geom *g, mcd_error *err)
{
    if (!b || !g) return mcd_fail(err, MCD_ERR_ARG, "mcd_builder_add_visual: NULL argument");
    static const mcd_visual_mesh none = {0};
    return mcd_builder_add_visual_mesh(b, link, g, &none, err);
}

int mcd_visual_mesh_copy(mcd_visual_mesh *dst, const mcd_visual_mesh *src)
{
    *dst = (mcd_visual_mesh){0};
    if (src->nvert <= 0 || src->ntri <= 0) return 0;
    dst->vert = malloc((size_t)src->nvert * 3 * sizeof *dst->vert);
    dst->tri = malloc((size_t)src->ntri * 3 * sizeof *dst->tri);
    if (!dst->vert || !dst->tri) {
        mcd_visual_mesh_free(dst);
        return 1;
    }
    memcpy(dst->vert, src->vert, (size_t)src->nvert * 3 * sizeof *dst->vert);
    memcpy(dst->tri, src->tri, (size_t)src->ntri * 3 * sizeof *dst->tri);
    dst->nvert = src->nvert, dst->ntri = src->ntri;
    return 0;
}

void mcd_visual_mesh_free(mcd_visual_mesh *m)
{
    if (!m) return;
    free(m->vert), free(m->tri);
    *m = (mcd_visual_mesh){0};
}

/* The triangles of a visual mesh: none, or some on a mesh geom with finite
 * vertices and indices in range. */
static mcd_status check_visual_mesh(const mcd_geom *g, const mcd_visual_mesh *M, mcd_error *err)
{
    if (M->nvert == 0 && M->ntri == 0) return MCD_OK;
    if (g->type != MCD_GEOM_MESH)
        return mcd_fail(err, MCD_ERR_ARG, "visual mesh: triangles on a geom that is not a mesh");
    if (M->nvert <= 0 || M->ntri <= 0 || !M->vert || !M->tri)
        return mcd_fail(err, MCD_ERR_ARG, "visual mesh: %d vertices and %d triangles", M->nvert,
                        M->ntri);
    for (size_t i = 0; i < 3 * (size_t)M->nvert; i++)
        if (!isfinite(M->vert[i]))
            return mcd_fail(err, MCD_ERR_NONFINITE, "visual mesh: vertex %zu is not finite", i / 3);
    for (size_t i = 0; i < 3 * (size_t)M->ntri; i++)
        if (M->tri[i] < 0 || M->tri[i] >= M->nvert)
            return mcd_fail(err, MCD_ERR_ARG, "visual mesh: triangle %zu names vertex %d of %d",
                            i / 3, M->tri[i], M->nvert);
    return MCD_OK;
}

mcd_status mcd_builder_add_visual_mesh(mcd_builder *b, int link, const mcd_geom *g,
                                       const mcd_visual_mesh *mesh, mcd_error *err)
{
    if (!b || !g || !mesh)
        return mcd_fail(err, MCD_ERR_ARG, "mcd_builder_add_visual_mesh: NULL argument");
    mcd_status st = check_visual_mesh(g, mesh, err);
    if (st != MCD_OK) return st;
    if (!reserve((void **)&b->visual_mesh, &b->visual_mesh_cap, b->nvisual + 1,
                 sizeof *b->visual_mesh))
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory adding a visual");
    mcd_visual_mesh copy;
    if (mcd_visual_mesh_copy(&copy, mesh))
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory adding a visual");
    st = add_shape(b, link, g, &b->visual, &b->nvisual, &b->visual_cap, err);
    if (st == MCD_OK)
        b->visual_mesh[b->nvisual - 1] = copy;
    else
        mcd_visual_mesh_free(&copy);
    return st;
}

mcd_status mcd_builder_add_node(mcd_builder *b, const char *name, int link, const mcd_pose *pose,
                                int *index, mcd_error *err)
{
    if (!b || !name || !pose) return mcd_fail(err, MCD_ERR_ARG, "mcd_builder_add_node: NULL");
    if (link < 0 || link >= b->nlink)
        return mcd_fail(err, MCD_ERR_ARG, "node '%s': link index %d does not name a link", name,
                        link);
    if (!pose_finite(pose))
        return mcd_fail(err, MCD_ERR_NONFINITE, "node '%s': pose is not finite", name);
    for (int i = 0; i < b->nnode; i++)
        if (!strcmp(b->node[i].name, name))
            return mcd_fail(err, MCD_ERR_MODEL, "node '%s': duplicate node name", name);
    if (!reserve((void **)&b->node, &b->node_cap, b->nnode + 1, sizeof *b->node))
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory adding node '%s'", name);
    builder_node *N = &b->node[b->nnode];
    if (!(N->name = dup_string(name)))
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory adding node '%s'", name);
    N->link = link;
    N->pose = *pose;
    if (index) *index = b->nnode;
    b->nnode++;
    return MCD_OK;
}

mcd_status mcd_builder_add_closure(mcd_builder *b, const char *name, mcd_closure_type type,
                                   int link_a, const mcd_pose *pose_a, int link_b,
                                   const mcd_pose *pose_b, double length, int *index,
                                   mcd_error *err)
{
    if (!b || !name || !pose_a || !pose_b)
        return mcd_fail(err, MCD_ERR_ARG, "mcd_builder_add_closure: NULL argument");
    if ((int)type < 0 || type >= MCD_CLOSURE_TYPE_COUNT)
        return mcd_fail(err, MCD_ERR_ARG, "closure '%s': unknown type %d", name, (int)type);
    if (link_a < 0 || link_a >= b->nlink || link_b < -1 || link_b >= b->nlink)
        return mcd_fail(err, MCD_ERR_ARG, "closure '%s': link index out of range", name);
    if (link_a == link_b)
        return mcd_fail(err, MCD_ERR_MODEL, "closure '%s': both frames are on link '%s'", name,
                        b->link[link_a].name);
    if (!pose_finite(pose_a) || !pose_finite(pose_b) || !isfinite(length))
        return mcd_fail(err, MCD_ERR_NONFINITE, "closure '%s': pose or length not finite", name);
    if (!is_rotation(pose_a->R) || !is_rotation(pose_b->R))
        return mcd_fail(err, MCD_ERR_MODEL, "closure '%s': frame rotation is not a rotation", name);
    if (type == MCD_CLOSURE_DISTANCE && !(length > 0.0))
        return mcd_fail(err, MCD_ERR_MODEL, "closure '%s': distance closure needs length > 0",
                        name);
    for (int i = 0; i < b->nclosure; i++)
        if (!strcmp(b->closure[i].name, name))
            return mcd_fail(err, MCD_ERR_MODEL, "closure '%s': duplicate closure name", name);
    if (!reserve((void **)&b->closure, &b->closure_cap, b->nclosure + 1, sizeof *b->closure))
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory adding closure '%s'", name);
    builder_closure *C = &b->closure[b->nclosure];
    if (!(C->name = dup_string(name)))
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory adding closure '%s'", name);
    C->c.type = type;
    C->c.body_a = link_a;
    C->c.body_b = link_b;
    C->c.pose_a = *pose_a;
    C->c.pose_b = *pose_b;
    C->c.length = length;
    if (index) *index = b->nclosure;
    b->nclosure++;
    return MCD_OK;
}

mcd_status mcd_builder_set_gravity(mcd_builder *b, const double g[3], mcd_error *err)
{
    if (!b || !g) return mcd_fail(err, MCD_ERR_ARG, "mcd_builder_set_gravity: NULL argument");
    if (!mcd_v3_isfinite(g)) return mcd_fail(err, MCD_ERR_NONFINITE, "gravity is not finite");
    mcd_v3_copy(b->gravity, g);
    return MCD_OK;
}

mcd_status mcd_builder_set_name(mcd_builder *b, const char *name, mcd_error *err)
{
    if (!b || !name) return mcd_fail(err, MCD_ERR_ARG, "mcd_builder_set_name: NULL argument");
    char *n = dup_string(name);
    if (!n) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory");
    free(b->name);
    b->name = n;
    return MCD_OK;
}

char *mcd_builder_strdup(const char *s)
{
    return dup_string(s);
}

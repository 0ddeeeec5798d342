/* URDF import: <collision> and <visual> shapes (src/io/urdf_internal.h).
 *
 * Shapes map to mcd_geom sizes as model.h defines them: box size -> half
 * extents, cylinder and capsule length -> half length along z. The capsule
 * (not in the URDF specification, written by Bullet and Drake exporters)
 * has the length of its cylindrical part. A <visual> is read as a
 * <collision> (its <material> is ignored), and a visual mesh's triangles
 * are read from its file; the viewer draws them.
 */
#include "urdf_internal.h"

#include "../collision/mesh_load.h"

#include <stdlib.h>

/* The single element child of <geometry>. */
static mcd_status shape_of(const urdf_ctx *c, const xmlNode *geometry, const xmlNode **shape)
{
    *shape = NULL;
    for (const xmlNode *k = geometry->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE) continue;
        if (*shape) return urdf_fail(c, k, MCD_ERR_PARSE, "more than one shape in <geometry>");
        *shape = k;
    }
    if (!*shape) return urdf_fail(c, geometry, MCD_ERR_PARSE, "no shape in <geometry>");
    return MCD_OK;
}

/* cylinder, capsule: size[0] = radius, size[1] = half length */
static mcd_status parse_round(const urdf_ctx *c, const xmlNode *shape, mcd_geom *g)
{
    mcd_status st = urdf_nonneg_attr(c, shape, "radius", 1, 1, &g->size[0]);
    if (st == MCD_OK) st = urdf_nonneg_attr(c, shape, "length", 1, 1, &g->size[1]);
    g->size[1] *= 0.5;
    return st;
}

/* A <mesh>'s type, scale into g and filename into *uri (the caller frees
 * it and resolves it). */
static mcd_status mesh_attrs(const urdf_ctx *c, const xmlNode *shape, mcd_geom *g, char **uri)
{
    g->type = MCD_GEOM_MESH;
    g->size[0] = g->size[1] = g->size[2] = 1.0;
    mcd_status st = urdf_numbers_attr(c, shape, "scale", 3, 0, g->size);
    return st == MCD_OK ? urdf_string_attr(c, shape, "filename", 1, uri) : st;
}

static mcd_status parse_mesh(const urdf_ctx *c, const xmlNode *shape, mcd_geom *g)
{
    char *uri;
    mcd_status st = mesh_attrs(c, shape, g, &uri);
    if (st != MCD_OK) return st;
    st = urdf_resolve_mesh(c, shape, uri, &g->mesh_path);
    free(uri);
    return st;
}

static mcd_status parse_shape(const urdf_ctx *c, const xmlNode *shape, mcd_geom *g)
{
    if (urdf_is(shape, "sphere")) {
        g->type = MCD_GEOM_SPHERE;
        return urdf_nonneg_attr(c, shape, "radius", 1, 1, &g->size[0]);
    }
    if (urdf_is(shape, "box")) {
        g->type = MCD_GEOM_BOX;
        mcd_status st = urdf_nonneg_attr(c, shape, "size", 3, 1, g->size);
        mcd_v3_scale(g->size, g->size, 0.5);
        return st;
    }
    if (urdf_is(shape, "cylinder") || urdf_is(shape, "capsule")) {
        g->type = urdf_is(shape, "cylinder") ? MCD_GEOM_CYLINDER : MCD_GEOM_CAPSULE;
        return parse_round(c, shape, g);
    }
    if (urdf_is(shape, "mesh")) return parse_mesh(c, shape, g);
    return urdf_fail(c, shape, MCD_ERR_UNSUPPORTED, "unsupported collision shape");
}

/* Grows the list (*list, *n) by one zeroed entry. */
static urdf_geom *append_geom(urdf_geom **list, int *n)
{
    urdf_geom *g = realloc(*list, (size_t)(*n + 1) * sizeof *g);
    if (!g) return NULL;
    *list = g;
    g += (*n)++;
    *g = (urdf_geom){0};
    return g;
}

mcd_status urdf_parse_collision(const urdf_ctx *c, const xmlNode *node, urdf_link *l)
{
    const xmlNode *geometry, *shape;
    mcd_status st = urdf_child(c, node, "geometry", 1, &geometry);
    if (st == MCD_OK) st = shape_of(c, geometry, &shape);
    if (st != MCD_OK) return st;
    urdf_geom *g = append_geom(&l->geom, &l->ngeom);
    if (!g) return mcd_fail(c->err, MCD_ERR_NOMEM, "out of memory");
    g->node = node;
    g->geom.body = -1;
    st = urdf_origin(c, node, &g->geom.pose);
    if (st == MCD_OK) st = parse_shape(c, shape, &g->geom);
    return st;
}

/* The shape of a <visual> into g, errors into the context's own err. */
static mcd_status parse_visual_shape(const urdf_ctx *c, const xmlNode *node, mcd_geom *g)
{
    const xmlNode *geometry, *shape;
    g->body = -1;
    mcd_status st = urdf_child(c, node, "geometry", 1, &geometry);
    if (st == MCD_OK) st = shape_of(c, geometry, &shape);
    if (st == MCD_OK) st = urdf_origin(c, node, &g->pose);
    if (st != MCD_OK) return st;
    if (!urdf_is(shape, "mesh")) {
        st = parse_shape(c, shape, g);
        const int flat =
            g->size[0] <= 0 || (g->type == MCD_GEOM_BOX && g->size[1] * g->size[2] <= 0);
        return st == MCD_OK && flat ? urdf_fail(c, shape, MCD_ERR_MODEL, "a zero size") : st;
    }
    char *uri;
    int found = 0;
    st = mesh_attrs(c, shape, g, &uri);
    if (st != MCD_OK) return st;
    g->mesh_path = urdf_mesh_path(c, uri, &found);
    free(uri);
    if (!g->mesh_path) return mcd_fail(c->err, MCD_ERR_NOMEM, "out of memory");
    return found ? MCD_OK : MCD_ERR_IO;
}

/* The triangles of v, a visual mesh of link l, from its file; a file that
 * cannot be read, has no triangles or is over the bound is MCD_ERR_PARSE
 * (the message says why), never the silent MCD_ERR_IO of a missing file. */
static mcd_status read_triangles(const urdf_ctx *c, const urdf_link *l, urdf_geom *v)
{
    mcd_status st =
        mcd_mesh_load_triangles(v->geom.mesh_path, l->name, MCD_VISUAL_MESH_MAX, &v->mesh, c->err);
    return st == MCD_OK || st == MCD_ERR_NOMEM ? st : MCD_ERR_PARSE;
}

mcd_status urdf_parse_visual(const urdf_ctx *c, const xmlNode *node, urdf_link *l, int *drop)
{
    mcd_error e;
    mcd_error_clear(&e);
    urdf_ctx quiet = *c;
    quiet.err = &e;
    urdf_geom v = {node, {0}, {0}};
    mcd_status st = parse_visual_shape(&quiet, node, &v.geom);
    if (st == MCD_OK && v.geom.type == MCD_GEOM_MESH) st = read_triangles(&quiet, l, &v);
    urdf_geom *slot = st == MCD_OK ? append_geom(&l->visual, &l->nvisual) : NULL;
    if (slot) {
        *slot = v;
        return MCD_OK;
    }
    free(v.geom.mesh_path), free(v.mesh.vert), free(v.mesh.tri);
    if (st == MCD_ERR_NOMEM || st == MCD_OK)
        return mcd_fail(c->err, MCD_ERR_NOMEM, "out of memory");
    if (st != MCD_ERR_IO) urdf_warn(c, node, "visual left out (collision shapes drawn): %s", e.msg);
    *drop = 1;
    return MCD_OK;
}

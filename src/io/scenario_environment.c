/* Scenario loading: the environment, static geometry on the world
 * (src/io/scenario_internal.h).
 *
 * Each entry is a geom of the builder on link -1, added before any robot so
 * that entry k is geom k of the model. Its keys depend on its type: every
 * type takes name, type, xyz and rpy; sphere radius; capsule and cylinder
 * radius and half_length; box half_extents; mesh file (resolved against the
 * scenario's directory, and it must exist) and scale. Names are unique,
 * never "world", and once the model is built never the name of a link.
 */
#include "scenario_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const geom_names[MCD_GEOM_TYPE_COUNT] = {
    [MCD_GEOM_SPHERE] = "sphere",   [MCD_GEOM_BOX] = "box",     [MCD_GEOM_CYLINDER] = "cylinder",
    [MCD_GEOM_CAPSULE] = "capsule", [MCD_GEOM_PLANE] = "plane", [MCD_GEOM_MESH] = "mesh"};

/* clang-format off */
#define COMMON_KEYS {.key = "name"}, {.key = "type"}, {.key = "xyz"}, {.key = "rpy"}
static const scn_field sphere_keys[] = {COMMON_KEYS, {.key = "radius"}};
static const scn_field box_keys[] = {COMMON_KEYS, {.key = "half_extents"}};
static const scn_field round_keys[] = {COMMON_KEYS, {.key = "radius"}, {.key = "half_length"}};
static const scn_field plane_keys[] = {COMMON_KEYS};
static const scn_field mesh_keys[] = {COMMON_KEYS, {.key = "file"}, {.key = "scale"}};
#undef COMMON_KEYS
/* clang-format on */

typedef struct geom_schema {
    const scn_field *keys;
    int n;
} geom_schema;

static const geom_schema schemas[MCD_GEOM_TYPE_COUNT] = {
    [MCD_GEOM_SPHERE] = {sphere_keys, SCN_COUNT(sphere_keys)},
    [MCD_GEOM_BOX] = {box_keys, SCN_COUNT(box_keys)},
    [MCD_GEOM_CYLINDER] = {round_keys, SCN_COUNT(round_keys)},
    [MCD_GEOM_CAPSULE] = {round_keys, SCN_COUNT(round_keys)},
    [MCD_GEOM_PLANE] = {plane_keys, SCN_COUNT(plane_keys)},
    [MCD_GEOM_MESH] = {mesh_keys, SCN_COUNT(mesh_keys)},
};

static mcd_status positive(const scn_ctx *c, const scn_at *map, const char *key, double *out)
{
    scn_at at;
    mcd_status st = scn_require(c, map, key, &at);
    return st == MCD_OK ? scn_number(c, &at, (scn_bounds)SCN_POSITIVE, out) : st;
}

static mcd_status check_readable(const scn_ctx *c, const scn_at *at, const char *path)
{
    FILE *f = fopen(path, "rb");
    char reason[128] = "";
    if (f) {
        fclose(f);
        return MCD_OK;
    }
    strerror_r(errno, reason, sizeof reason);
    return scn_fail(c, at, MCD_ERR_IO, "%s: cannot open: %s", path, reason);
}

/* file and scale of a mesh; g->mesh_path receives the resolved file. */
static mcd_status parse_mesh(const scn_ctx *c, const scn_at *map, mcd_geom *g)
{
    scn_at at;
    const char *file;
    mcd_v3_set(g->size, 1, 1, 1);
    mcd_status st = scn_require(c, map, "file", &at);
    if (st == MCD_OK) st = scn_string(c, &at, 1, &file);
    if (st == MCD_OK) st = scn_path(c, file, &g->mesh_path);
    if (st == MCD_OK) st = check_readable(c, &at, g->mesh_path);
    if (st == MCD_OK && scn_find(map, "scale", &at))
        st = scn_vector(c, &at, 3, (scn_bounds)SCN_POSITIVE, g->size);
    return st;
}

static mcd_status parse_size(const scn_ctx *c, const scn_at *map, mcd_geom *g)
{
    scn_at at;
    mcd_status st = MCD_OK;
    int elongated = g->type == MCD_GEOM_CYLINDER || g->type == MCD_GEOM_CAPSULE;
    if (elongated || g->type == MCD_GEOM_SPHERE) st = positive(c, map, "radius", &g->size[0]);
    if (st == MCD_OK && elongated) st = positive(c, map, "half_length", &g->size[1]);
    if (st == MCD_OK && g->type == MCD_GEOM_BOX) st = scn_require(c, map, "half_extents", &at);
    if (st == MCD_OK && g->type == MCD_GEOM_BOX)
        st = scn_vector(c, &at, 3, (scn_bounds)SCN_POSITIVE, g->size);
    if (st == MCD_OK && g->type == MCD_GEOM_MESH) st = parse_mesh(c, map, g);
    return st;
}

/* The name of entry i: nonempty, not "world", not the name of an earlier entry. */
static mcd_status parse_name(const scn_ctx *c, const scn_at *seq, const scn_at *map, int i,
                             const char **name)
{
    scn_at at, other;
    mcd_status st = scn_require(c, map, "name", &at);
    if (st == MCD_OK) st = scn_string(c, &at, 1, name);
    if (st != MCD_OK) return st;
    if (strcmp(*name, "world") == 0)
        return scn_fail(c, &at, MCD_ERR_MODEL, "'world' is reserved for the world frame");
    for (int j = 0; j < i; j++)
        if (strcmp(c->s->env_name[j], *name) == 0) {
            scn_item(seq, j, &other);
            return scn_fail(c, &at, MCD_ERR_MODEL, "duplicate environment name (first at line %d)",
                            other.node->line);
        }
    return MCD_OK;
}

/* The geom of the entry map, of the given type, named name. */
static mcd_status add_geom(const scn_ctx *c, const scn_at *map, int type, const char *name, int i)
{
    mcd_geom g = {.type = (mcd_geom_type)type, .body = -1};
    mcd_error e;
    mcd_status st = scn_pose(c, map, "xyz", "rpy", &g.pose);
    if (st == MCD_OK) st = parse_size(c, map, &g);
    if (st == MCD_OK && mcd_builder_add_geom(c->b, -1, &g, &e) != MCD_OK)
        st = scn_fail(c, map, e.status, "%s", e.msg);
    free(g.mesh_path);
    if (st == MCD_OK && !(c->s->env_name[i] = strdup(name)))
        st = mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    if (st == MCD_OK) c->s->env_geom[i] = i;
    return st;
}

static mcd_status parse_entry(const scn_ctx *c, const scn_at *seq, int i)
{
    scn_at map, at;
    int type;
    const char *name;
    scn_item(seq, i, &map);
    mcd_status st = scn_check_mapping(c, &map, NULL, 0);
    if (st == MCD_OK) st = scn_require(c, &map, "type", &at);
    if (st == MCD_OK) st = scn_choice(c, &at, geom_names, MCD_GEOM_TYPE_COUNT, &type);
    if (st == MCD_OK) st = scn_check_mapping(c, &map, schemas[type].keys, schemas[type].n);
    if (st == MCD_OK) st = parse_name(c, seq, &map, i, &name);
    if (st == MCD_OK) st = add_geom(c, &map, type, name, i);
    return st;
}

mcd_status scn_add_environment(const scn_ctx *c, const scn_at *doc)
{
    mcd_scenario *s = c->s;
    scn_at seq;
    if (!scn_find(doc, "environment", &seq)) return MCD_OK;
    mcd_status st = scn_check_sequence(c, &seq, 0);
    if (st != MCD_OK || seq.node->nitem == 0) return st;
    s->env_name = calloc((size_t)seq.node->nitem, sizeof *s->env_name);
    s->env_geom = calloc((size_t)seq.node->nitem, sizeof *s->env_geom);
    if (!s->env_name || !s->env_geom)
        return mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    for (int i = 0; st == MCD_OK && i < seq.node->nitem; i++) {
        st = parse_entry(c, &seq, i);
        s->nenv += st == MCD_OK;
    }
    return st;
}

mcd_status scn_check_env_names(const scn_ctx *c, const scn_at *doc)
{
    scn_at seq, map, at;
    if (!scn_find(doc, "environment", &seq)) return MCD_OK;
    for (int i = 0; i < c->s->nenv; i++) {
        if (mcd_model_frame_index(c->s->model, c->s->env_name[i]) < 0) continue;
        scn_item(&seq, i, &map);
        scn_find(&map, "name", &at);
        return scn_fail(c, &at, MCD_ERR_MODEL, "'%s' is also the name of a link",
                        c->s->env_name[i]);
    }
    return MCD_OK;
}

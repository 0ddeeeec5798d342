/* Scenario loading: one geom entry's shape (src/io/scenario_internal.h).
 *
 * Shared by the environment (geoms on the world) and the robots' geoms
 * (geoms added to a robot's links). Every type takes type, xyz and rpy;
 * sphere radius; capsule and cylinder radius and half_length; box
 * half_extents; mesh file (resolved against the scenario's directory, and it
 * must exist) and scale. The caller names one more key of its own (the
 * environment's name, a robot geom's link).
 */
#include "scenario_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const geom_names[MCD_GEOM_TYPE_COUNT] = {
    [MCD_GEOM_SPHERE] = "sphere",   [MCD_GEOM_BOX] = "box",     [MCD_GEOM_CYLINDER] = "cylinder",
    [MCD_GEOM_CAPSULE] = "capsule", [MCD_GEOM_PLANE] = "plane", [MCD_GEOM_MESH] = "mesh"};

/* The keys of each type beyond the caller's own key (slot 0 of the lists). */
/* clang-format off */
#define COMMON_KEYS {.key = NULL}, {.key = "type"}, {.key = "xyz"}, {.key = "rpy"}
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

/* The allowed keys of a geom of type type whose caller's key is own_key. */
static mcd_status check_keys(const scn_ctx *c, const scn_at *map, int type, const char *own_key)
{
    scn_field keys[SCN_MAX_FIELDS];
    const geom_schema *s = &schemas[type];
    memcpy(keys, s->keys, (size_t)s->n * sizeof *keys);
    keys[0].key = own_key;
    return scn_check_mapping(c, map, keys, s->n);
}

mcd_status scn_parse_geom(const scn_ctx *c, const scn_at *map, const char *own_key, mcd_geom *g)
{
    scn_at at;
    int type;
    memset(g, 0, sizeof *g);
    mcd_status st = scn_check_mapping(c, map, NULL, 0);
    if (st == MCD_OK) st = scn_require(c, map, "type", &at);
    if (st == MCD_OK) st = scn_choice(c, &at, geom_names, MCD_GEOM_TYPE_COUNT, &type);
    if (st != MCD_OK) return st;
    g->type = (mcd_geom_type)type;
    st = check_keys(c, map, type, own_key);
    if (st == MCD_OK) st = scn_pose(c, map, "xyz", "rpy", &g->pose);
    if (st == MCD_OK) st = parse_size(c, map, g);
    return st;
}

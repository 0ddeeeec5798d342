/* Scenario loading: loop closures (src/io/scenario_internal.h).
 *
 * Each closure joins frame a on one link to frame b on another link or on
 * the world ("world"); link names are the builder's, prefixes included. A
 * closure written with the world as a is stored with its sides swapped
 * (the builder wants a link on side A). Names are unique; length is given
 * for distance closures only, and is positive.
 */
#include "scenario_internal.h"

#include <string.h>

static const scn_field closure_fields[] = {
    {.key = "name"}, {.key = "type"}, {.key = "a"}, {.key = "b"}, {.key = "length"},
};

static const scn_field frame_fields[] = {{.key = "link"}, {.key = "xyz"}, {.key = "rpy"}};

/* Side key of map: the builder link (-1: the world) and the frame on it. */
static mcd_status parse_side(const scn_ctx *c, const scn_at *map, const char *key, int *link,
                             mcd_pose *pose)
{
    scn_at side, at;
    const char *name;
    mcd_status st = scn_require(c, map, key, &side);
    if (st == MCD_OK) st = scn_check_mapping(c, &side, frame_fields, SCN_COUNT(frame_fields));
    if (st == MCD_OK) st = scn_require(c, &side, "link", &at);
    if (st == MCD_OK) st = scn_string(c, &at, 1, &name);
    if (st != MCD_OK) return st;
    int world = strcmp(name, "world") == 0;
    *link = world ? -1 : mcd_builder_find_link(c->b, name);
    if (!world && *link < 0) return scn_fail(c, &at, MCD_ERR_MODEL, "unknown link '%s'", name);
    return scn_pose(c, &side, "xyz", "rpy", pose);
}

static mcd_status parse_length(const scn_ctx *c, const scn_at *map, int type, double *length)
{
    scn_at at;
    int given = scn_find(map, "length", &at);
    *length = 0.0;
    if (type == MCD_CLOSURE_DISTANCE && !given) return scn_require(c, map, "length", &at);
    if (type != MCD_CLOSURE_DISTANCE && given)
        return scn_fail(c, &at, MCD_ERR_PARSE, "only distance closures have a length");
    return given ? scn_number(c, &at, (scn_bounds)SCN_POSITIVE, length) : MCD_OK;
}

/* The name of closure i: nonempty, not the name of an earlier closure. */
static mcd_status parse_name(const scn_ctx *c, const scn_at *seq, const scn_at *map, int i,
                             const char **name)
{
    scn_at at, other, other_name;
    mcd_status st = scn_require(c, map, "name", &at);
    if (st == MCD_OK) st = scn_string(c, &at, 1, name);
    for (int j = 0; st == MCD_OK && j < i; j++) {
        scn_item(seq, j, &other);
        scn_find(&other, "name", &other_name);
        if (strcmp(other_name.node->text, *name) == 0)
            st = scn_fail(c, &at, MCD_ERR_MODEL, "duplicate closure name (first at line %d)",
                          other_name.node->line);
    }
    return st;
}

static mcd_status parse_type(const scn_ctx *c, const scn_at *map, int *type)
{
    const char *names[MCD_CLOSURE_TYPE_COUNT];
    scn_at at;
    for (int k = 0; k < MCD_CLOSURE_TYPE_COUNT; k++)
        names[k] = mcd_closure_type_name((mcd_closure_type)k);
    mcd_status st = scn_require(c, map, "type", &at);
    return st == MCD_OK ? scn_choice(c, &at, names, MCD_CLOSURE_TYPE_COUNT, type) : st;
}

static mcd_status add_closure(const scn_ctx *c, const scn_at *seq, int i)
{
    scn_at map;
    const char *name;
    int type, link[2];
    mcd_pose pose[2];
    double length;
    mcd_error e;
    scn_item(seq, i, &map);
    mcd_status st = scn_check_mapping(c, &map, closure_fields, SCN_COUNT(closure_fields));
    if (st == MCD_OK) st = parse_name(c, seq, &map, i, &name);
    if (st == MCD_OK) st = parse_type(c, &map, &type);
    if (st == MCD_OK) st = parse_side(c, &map, "a", &link[0], &pose[0]);
    if (st == MCD_OK) st = parse_side(c, &map, "b", &link[1], &pose[1]);
    if (st == MCD_OK) st = parse_length(c, &map, type, &length);
    if (st != MCD_OK) return st;
    if (link[0] < 0 && link[1] < 0)
        return scn_fail(c, &map, MCD_ERR_MODEL, "both frames are on the world");
    int a = link[0] < 0; /* the world on side a: swap */
    if (mcd_builder_add_closure(c->b, name, (mcd_closure_type)type, link[a], &pose[a], link[!a],
                                &pose[!a], length, NULL, &e) != MCD_OK)
        return scn_fail(c, &map, e.status, "%s", e.msg);
    return MCD_OK;
}

mcd_status scn_add_closures(const scn_ctx *c, const scn_at *doc)
{
    scn_at seq;
    if (!scn_find(doc, "closures", &seq)) return MCD_OK;
    mcd_status st = scn_check_sequence(c, &seq, 0);
    for (int i = 0; st == MCD_OK && i < seq.node->nitem; i++) st = add_closure(c, &seq, i);
    return st;
}

/* Scenario loading: a robot's geoms, collision shapes added to its links
 * (src/io/scenario_internal.h).
 *
 * robots[i].geoms is a list of entries, each a shape (scenario_geom.c) and
 * link, the URDF name of the link (without the robot's prefix) that carries
 * it; xyz and rpy place the shape in that link's frame. They come on top of
 * the URDF's <collision> shapes, or instead of them with ignore_collision:
 * true (a URDF whose collision meshes are not at hand, or shapes simpler
 * than its meshes).
 */
#include "scenario_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The builder index of robot r's link named link (URDF name), or an error
 * located at at. */
static mcd_status find_link(const scn_ctx *c, const scn_at *at, const mcd_scenario_robot *r,
                            const char *link, int *index)
{
    size_t len = strlen(r->prefix) + strlen(link) + 1;
    char *name = malloc(len);
    if (!name) return mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    snprintf(name, len, "%s%s", r->prefix, link);
    *index = mcd_builder_find_link(c->b, name);
    free(name);
    if (*index >= r->frame_begin && *index < r->frame_end && *index >= 0) return MCD_OK;
    return scn_fail(c, at, MCD_ERR_MODEL, "no link '%s' in %s", link, r->urdf);
}

static mcd_status add_entry(const scn_ctx *c, const scn_at *seq, int i, const mcd_scenario_robot *r)
{
    scn_at map, at;
    mcd_geom g;
    mcd_error e;
    const char *link;
    int index = -1;
    scn_item(seq, i, &map);
    mcd_status st = scn_parse_geom(c, &map, "link", &g);
    if (st == MCD_OK && g.type == MCD_GEOM_PLANE)
        st = scn_fail(c, &map, MCD_ERR_MODEL, "a plane belongs to the environment, not to a link");
    if (st == MCD_OK) st = scn_require(c, &map, "link", &at);
    if (st == MCD_OK) st = scn_string(c, &at, 1, &link);
    if (st == MCD_OK) st = find_link(c, &at, r, link, &index);
    if (st == MCD_OK && mcd_builder_add_geom(c->b, index, &g, &e) != MCD_OK)
        st = scn_fail(c, &map, e.status, "%s", e.msg);
    free(g.mesh_path);
    return st;
}

mcd_status scn_add_robot_geoms(const scn_ctx *c, const scn_at *robot, const mcd_scenario_robot *r)
{
    scn_at seq;
    if (!scn_find(robot, "geoms", &seq)) return MCD_OK;
    mcd_status st = scn_check_sequence(c, &seq, 1);
    for (int i = 0; st == MCD_OK && i < seq.node->nitem; i++) st = add_entry(c, &seq, i, r);
    return st;
}

/* URDF import: the <robot> element (src/io/urdf_internal.h).
 *
 * Its <link> and <joint> children are parsed in document order; every other
 * child (<material>, <gazebo>, <transmission>, <mujoco>, ...) is ignored.
 */
#include "urdf_internal.h"

#include <stdlib.h>
#include <string.h>

static int count_children(const xmlNode *node, const char *name)
{
    int n = 0;
    for (const xmlNode *k = node->children; k; k = k->next) n += urdf_is(k, name);
    return n;
}

static mcd_status allocate(const urdf_ctx *c, const xmlNode *node, urdf_robot *r)
{
    int nlink = count_children(node, "link"), njoint = count_children(node, "joint");
    if (nlink == 0) return urdf_fail(c, node, MCD_ERR_MODEL, "no <link>");
    r->link = calloc((size_t)nlink, sizeof *r->link);
    r->joint = calloc((size_t)njoint + 1, sizeof *r->joint);
    r->order = calloc((size_t)nlink, sizeof *r->order);
    if (!r->link || !r->joint || !r->order) return mcd_fail(c->err, MCD_ERR_NOMEM, "out of memory");
    return MCD_OK;
}

static mcd_status parse_children(const urdf_ctx *c, const xmlNode *node, urdf_robot *r)
{
    mcd_status st = MCD_OK;
    for (const xmlNode *k = node->children; k && st == MCD_OK; k = k->next) {
        if (urdf_is(k, "link"))
            st = urdf_parse_link(c, k, &r->link[r->nlink++]);
        else if (urdf_is(k, "joint"))
            st = urdf_parse_joint(c, k, &r->joint[r->njoint++]);
    }
    return st;
}

mcd_status urdf_parse_robot(const urdf_ctx *c, const xmlNode *node, urdf_robot *r)
{
    memset(r, 0, sizeof *r);
    if (!urdf_is(node, "robot"))
        return urdf_fail(c, node, MCD_ERR_PARSE, "not a URDF: the root element is not <robot>");
    mcd_status st = urdf_string_attr(c, node, "name", 0, &r->name);
    if (st == MCD_OK) st = allocate(c, node, r);
    if (st == MCD_OK) st = parse_children(c, node, r);
    return st;
}

void urdf_robot_free(urdf_robot *r)
{
    for (int i = 0; i < r->nlink; i++) urdf_link_free(&r->link[i]);
    for (int i = 0; i < r->njoint; i++) urdf_joint_free(&r->joint[i]);
    free(r->link);
    free(r->joint);
    free(r->order);
    free(r->name);
}

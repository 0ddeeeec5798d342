/* URDF import: <joint> (src/io/urdf_internal.h).
 *
 * The joint origin is the child link frame in the parent link frame; the
 * axis (default (1, 0, 0)) is in that frame. <limit lower upper> gives
 * position limits to revolute and prismatic joints when either bound is
 * written; effort and velocity are recorded for every type. <dynamics>
 * damping and friction are recorded. <mimic> is not modelled (urdf.h says
 * why): an error naming the ignore_mimic option, or with that option a
 * warning, the joint staying independent.
 */
#include "urdf_internal.h"

#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    mcd_joint_type type;
} joint_types[] = {
    {"revolute", MCD_JOINT_REVOLUTE},   {"continuous", MCD_JOINT_CONTINUOUS},
    {"prismatic", MCD_JOINT_PRISMATIC}, {"fixed", MCD_JOINT_FIXED},
    {"floating", MCD_JOINT_FREE},
};

static mcd_status parse_type(const urdf_ctx *c, const xmlNode *node, mcd_joint_type *type)
{
    char *name;
    mcd_status st = urdf_string_attr(c, node, "type", 0, &name);
    if (st != MCD_OK) return st;
    for (size_t i = 0; i < sizeof joint_types / sizeof joint_types[0]; i++)
        if (strcmp(name, joint_types[i].name) == 0) {
            *type = joint_types[i].type;
            free(name);
            return MCD_OK;
        }
    if (strcmp(name, "planar") == 0)
        st = urdf_fail(c, node, MCD_ERR_UNSUPPORTED, "planar joints are not supported");
    else
        st = urdf_fail(c, node, MCD_ERR_PARSE, "unknown joint type \"%s\"", name);
    free(name);
    return st;
}

/* The link attribute of the required child <parent> or <child>. */
static mcd_status link_ref(const urdf_ctx *c, const xmlNode *node, const char *tag, char **name)
{
    const xmlNode *ref;
    mcd_status st = urdf_child(c, node, tag, 1, &ref);
    return st == MCD_OK ? urdf_string_attr(c, ref, "link", 1, name) : st;
}

static int has_axis(mcd_joint_type t)
{
    return t == MCD_JOINT_REVOLUTE || t == MCD_JOINT_CONTINUOUS || t == MCD_JOINT_PRISMATIC;
}

static mcd_status parse_axis(const urdf_ctx *c, const xmlNode *node, urdf_joint *j)
{
    const xmlNode *axis;
    mcd_v3_set(j->axis, 1, 0, 0);
    mcd_status st = urdf_child(c, node, "axis", 0, &axis);
    if (st == MCD_OK && axis) st = urdf_numbers_attr(c, axis, "xyz", 3, 0, j->axis);
    if (st == MCD_OK && has_axis(j->type) && !(mcd_v3_norm(j->axis) > 0))
        st = urdf_fail(c, axis, MCD_ERR_MODEL, "zero joint axis");
    return st;
}

static mcd_status parse_position_limits(const urdf_ctx *c, const xmlNode *limit,
                                        mcd_joint_limits *l)
{
    l->has_position_limits =
        xmlHasProp(limit, (const xmlChar *)"lower") || xmlHasProp(limit, (const xmlChar *)"upper");
    mcd_status st = urdf_numbers_attr(c, limit, "lower", 1, 0, &l->lower);
    if (st == MCD_OK) st = urdf_numbers_attr(c, limit, "upper", 1, 0, &l->upper);
    if (st == MCD_OK && l->lower > l->upper)
        st = urdf_fail(c, limit, MCD_ERR_MODEL, "lower limit %g above upper limit %g", l->lower,
                       l->upper);
    return st;
}

static mcd_status parse_limits(const urdf_ctx *c, const xmlNode *node, urdf_joint *j)
{
    const xmlNode *limit, *dynamics;
    mcd_joint_limits *l = &j->limits;
    mcd_status st = urdf_child(c, node, "limit", 0, &limit);
    if (st == MCD_OK && limit) st = urdf_nonneg_attr(c, limit, "effort", 1, 0, &l->effort);
    if (st == MCD_OK && limit) st = urdf_nonneg_attr(c, limit, "velocity", 1, 0, &l->velocity);
    if (st == MCD_OK && limit && (j->type == MCD_JOINT_REVOLUTE || j->type == MCD_JOINT_PRISMATIC))
        st = parse_position_limits(c, limit, l);
    if (st == MCD_OK) st = urdf_child(c, node, "dynamics", 0, &dynamics);
    if (st == MCD_OK && dynamics) st = urdf_nonneg_attr(c, dynamics, "damping", 1, 0, &l->damping);
    if (st == MCD_OK && dynamics)
        st = urdf_nonneg_attr(c, dynamics, "friction", 1, 0, &l->friction);
    return st;
}

static mcd_status check_mimic(const urdf_ctx *c, const xmlNode *node)
{
    const xmlNode *mimic;
    mcd_status st = urdf_child(c, node, "mimic", 0, &mimic);
    if (st != MCD_OK || !mimic) return st;
    if (c->opt.ignore_mimic) {
        urdf_warn(c, mimic, "ignored (ignore_mimic): the joint stays independent");
        return MCD_OK;
    }
    return urdf_fail(c, mimic, MCD_ERR_UNSUPPORTED,
                     "mimic joints are not supported: the coupling q = multiplier q_master + "
                     "offset is not a loop closure of this library (whose rows relate two "
                     "frames); load with ignore_mimic to keep the joint independent (mcdyn: "
                     "--ignore-mimic; scenario robot: ignore_mimic: true; C: "
                     "mcd_urdf_options.ignore_mimic = 1)");
}

mcd_status urdf_parse_joint(const urdf_ctx *c, const xmlNode *node, urdf_joint *j)
{
    memset(j, 0, sizeof *j);
    j->node = node;
    j->parent = j->child = -1;
    mcd_status st = urdf_string_attr(c, node, "name", 1, &j->name);
    if (st == MCD_OK) st = parse_type(c, node, &j->type);
    if (st == MCD_OK) st = urdf_origin(c, node, &j->origin);
    if (st == MCD_OK) st = link_ref(c, node, "parent", &j->parent_name);
    if (st == MCD_OK) st = link_ref(c, node, "child", &j->child_name);
    if (st == MCD_OK) st = parse_axis(c, node, j);
    if (st == MCD_OK) st = parse_limits(c, node, j);
    if (st == MCD_OK) st = check_mimic(c, node);
    return st;
}

void urdf_joint_free(urdf_joint *j)
{
    free(j->name);
    free(j->parent_name);
    free(j->child_name);
}

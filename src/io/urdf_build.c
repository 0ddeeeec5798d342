/* URDF import: builder calls for a resolved robot (src/io/urdf_internal.h).
 *
 * Links are added parents first, their link and joint names prefixed. The
 * root link hangs from the world at the target's base pose by a free joint
 * (floating base) or a fixed one (merged into the world by the builder);
 * every other link by the joint that has it as child. Builder
 * errors are prefixed with the location of the link they concern: the link
 * being added, or for the final validation the link its message names
 * ("link 'NAME': ..."), else the file alone.
 */
#include "urdf_internal.h"

#include <stdlib.h>
#include <string.h>

/* The description of link l; names are set by the caller. */
static mcd_link_desc link_desc(const urdf_ctx *c, const urdf_robot *r, const urdf_link *l,
                               const urdf_target *t, const int *index)
{
    mcd_link_desc d = mcd_link_desc_default();
    d.mass = l->mass;
    if (l->parent_joint < 0) {
        d.parent = -1;
        d.jtype = c->opt.floating_base ? MCD_JOINT_FREE : MCD_JOINT_FIXED;
        d.origin = t->base;
        return d;
    }
    const urdf_joint *j = &r->joint[l->parent_joint];
    d.parent = index[j->parent];
    d.jtype = j->type;
    d.origin = j->origin;
    mcd_v3_copy(d.axis, j->axis);
    d.limits = j->limits;
    return d;
}

/* prefix followed by name, NULL when out of memory. */
static char *prefixed(const char *prefix, const char *name)
{
    size_t np = strlen(prefix), nn = strlen(name) + 1;
    char *s = malloc(np + nn);
    if (!s) return NULL;
    memcpy(s, prefix, np);
    memcpy(s + np, name, nn);
    return s;
}

/* The builder's message for link l, naming the option that repairs it. */
static const char *repair_hint(const urdf_link *l)
{
    if (!urdf_inertia_unbalanced(&l->mass)) return "";
    return "; load with balance_inertia to replace it by the isotropic inertia of the same "
           "trace (mcdyn: --balance-inertia; scenario robot: balance_inertia: true; C: "
           "mcd_urdf_options.balance_inertia = 1)";
}

/* Adds link l as described by d, then its collision and visual geometry. */
static mcd_status add_desc(const urdf_ctx *c, const urdf_link *l, const mcd_link_desc *d,
                           int *index, mcd_builder *b)
{
    mcd_error e;
    mcd_error_clear(&e);
    if (mcd_builder_add_link(b, d, index, &e) != MCD_OK)
        return urdf_fail(c, l->node, e.status, "%s%s", e.msg, repair_hint(l));
    for (int g = 0; g < l->ngeom; g++)
        if (mcd_builder_add_geom(b, *index, &l->geom[g].geom, &e) != MCD_OK)
            return urdf_fail(c, l->geom[g].node, e.status, "%s", e.msg);
    for (int g = 0; g < l->nvisual; g++)
        if (mcd_builder_add_visual_mesh(b, *index, &l->visual[g].geom, &l->visual[g].mesh, &e) !=
            MCD_OK)
            return urdf_fail(c, l->visual[g].node, e.status, "%s", e.msg);
    return MCD_OK;
}

/* Adds link li with prefixed link and joint names; index[] maps links to the
 * builder. The root's joint is named after its link. */
static mcd_status add_link(const urdf_ctx *c, const urdf_robot *r, int li, int *index,
                           const urdf_target *t)
{
    const urdf_link *l = &r->link[li];
    mcd_link_desc d = link_desc(c, r, l, t, index);
    const char *joint = l->parent_joint < 0 ? l->name : r->joint[l->parent_joint].name;
    char *link_name = prefixed(t->prefix, l->name), *joint_name = prefixed(t->prefix, joint);
    mcd_status st;
    if (link_name && joint_name) {
        d.name = link_name;
        d.joint_name = joint_name;
        st = add_desc(c, l, &d, &index[li], t->b);
    } else {
        st = mcd_fail(c->err, MCD_ERR_NOMEM, "out of memory");
    }
    free(link_name);
    free(joint_name);
    return st;
}

mcd_status urdf_add_robot(const urdf_ctx *c, const urdf_robot *r, urdf_target *t)
{
    int *index = malloc((size_t)r->nlink * sizeof *index);
    if (!index) return mcd_fail(c->err, MCD_ERR_NOMEM, "out of memory");
    mcd_status st = MCD_OK;
    for (int k = 0; st == MCD_OK && k < r->nlink; k++) st = add_link(c, r, r->order[k], index, t);
    if (st == MCD_OK) t->root = index[r->order[0]];
    free(index);
    return st;
}

/* The link named by a builder message "link 'NAME': ...", NULL if none. */
static const xmlNode *link_named_in(const urdf_robot *r, const char *msg)
{
    static const char prefix[] = "link '";
    if (strncmp(msg, prefix, strlen(prefix)) != 0) return NULL;
    const char *name = msg + strlen(prefix), *end = strchr(name, '\'');
    for (int i = 0; end && i < r->nlink; i++)
        if (strlen(r->link[i].name) == (size_t)(end - name) &&
            strncmp(r->link[i].name, name, (size_t)(end - name)) == 0)
            return r->link[i].node;
    return NULL;
}

mcd_status urdf_build_model(const urdf_ctx *c, const urdf_robot *r, mcd_model **out)
{
    mcd_builder *b;
    mcd_error e;
    mcd_error_clear(&e);
    mcd_status st = mcd_builder_create(&b);
    if (st != MCD_OK) return mcd_fail(c->err, st, "%s: cannot create a model builder", c->file);
    urdf_target t = {.b = b, .prefix = "", .root = -1};
    mcd_pose_identity(&t.base);
    st = mcd_builder_set_name(b, r->name, &e);
    if (st != MCD_OK) mcd_fail(c->err, st, "%s: %s", c->file, e.msg);
    if (st == MCD_OK) st = urdf_add_robot(c, r, &t);
    if (st == MCD_OK) {
        st = mcd_model_build(b, out, &e);
        if (st != MCD_OK) urdf_fail(c, link_named_in(r, e.msg), st, "%s", e.msg);
    }
    mcd_builder_free(b);
    return st;
}

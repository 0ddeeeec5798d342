/* URDF import: <link> and its <inertial> (src/io/urdf_internal.h).
 *
 * <inertial><origin xyz rpy/> places the centre of mass at xyz and gives the
 * axes in which <inertia> is written, rotated by R = rpy: the inertia about
 * the centre of mass in link axes is R I R^T. Without <inertial> the link is
 * massless. Mass and inertia are validated by the builder; with the
 * balance_inertia option an inertia violating the triangle inequality is
 * first made isotropic (same trace), with a warning.
 */
#include "urdf_internal.h"

#include "../model/inertia.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const inertia_attr[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};

/* The symmetric matrix of <inertia ixx ixy ixz iyy iyz izz/>, row-major. */
static mcd_status parse_inertia(const urdf_ctx *c, const xmlNode *node, double I[9])
{
    double v[6];
    for (int i = 0; i < 6; i++) {
        mcd_status st = urdf_numbers_attr(c, node, inertia_attr[i], 1, 1, &v[i]);
        if (st != MCD_OK) return st;
    }
    I[0] = v[0], I[1] = v[1], I[2] = v[2];
    I[3] = v[1], I[4] = v[3], I[5] = v[4];
    I[6] = v[2], I[7] = v[4], I[8] = v[5];
    return MCD_OK;
}

/* 1 if the positive semidefinite inertia I has principal moments l (ascending)
 * violating the triangle inequality (tolerance as the builder's). */
static int unbalanced(const double I[9], double l[3])
{
    double scale = fabs(I[0]) + fabs(I[4]) + fabs(I[8]);
    mcd_sym3_eigenvalues(I, l);
    double tol = 1e-9 * scale;
    return l[0] >= -tol && l[0] + l[1] < l[2] - tol;
}

int urdf_inertia_unbalanced(const mcd_mass_props *m)
{
    double l[3];
    return unbalanced(m->inertia, l);
}

/* Replaces a positive semidefinite inertia whose principal moments violate
 * the triangle inequality by the isotropic one of the same trace; anything
 * else is left to the builder's validation. */
static void balance_inertia(const urdf_ctx *c, const xmlNode *node, double I[9])
{
    double l[3];
    if (!unbalanced(I, l)) return;
    double mean = (l[0] + l[1] + l[2]) / 3.0;
    urdf_warn(c, node,
              "principal moments %g, %g, %g kg m^2 violate the triangle inequality: "
              "replaced by %g (balance_inertia)",
              l[0], l[1], l[2], mean);
    for (int i = 0; i < 9; i++) I[i] = i % 4 == 0 ? mean : 0.0;
}

static mcd_status parse_inertial(const urdf_ctx *c, const xmlNode *node, mcd_mass_props *m)
{
    const xmlNode *mass, *inertia;
    mcd_pose X;
    double I[9];
    mcd_status st = urdf_origin(c, node, &X);
    if (st == MCD_OK) st = urdf_child(c, node, "mass", 1, &mass);
    if (st == MCD_OK) st = urdf_numbers_attr(c, mass, "value", 1, 1, &m->mass);
    if (st == MCD_OK) st = urdf_child(c, node, "inertia", 1, &inertia);
    if (st == MCD_OK) st = parse_inertia(c, inertia, I);
    if (st != MCD_OK) return st;
    if (c->opt.balance_inertia) balance_inertia(c, inertia, I);
    mcd_v3_copy(m->com, X.p);
    mcd_m3_rotate_sym(m->inertia, X.R, I);
    return MCD_OK;
}

/* Frees the n shapes of list and what they own. */
static void free_shapes(urdf_geom *list, int n)
{
    for (int i = 0; i < n; i++) {
        free(list[i].geom.mesh_path);
        free(list[i].mesh.vert), free(list[i].mesh.tri);
    }
    free(list);
}

/* l->visual := copies of the collision shapes l->geom. */
static mcd_status visuals_from_collision(const urdf_ctx *c, urdf_link *l)
{
    free_shapes(l->visual, l->nvisual);
    l->visual = NULL, l->nvisual = 0;
    if (l->ngeom == 0) return MCD_OK;
    if (!(l->visual = calloc((size_t)l->ngeom, sizeof *l->visual)))
        return mcd_fail(c->err, MCD_ERR_NOMEM, "out of memory");
    for (int i = 0; i < l->ngeom; i++, l->nvisual++) {
        l->visual[i] = l->geom[i];
        const char *path = l->geom[i].geom.mesh_path;
        if (path && !(l->visual[i].geom.mesh_path = strdup(path)))
            return mcd_fail(c->err, MCD_ERR_NOMEM, "out of memory");
    }
    return MCD_OK;
}

/* Reads the <collision> and <visual> children of a link. A link with no
 * <visual>, or with one that cannot be drawn (its mesh file is missing), is
 * drawn by its collision shapes: its visuals become copies of them. */
static mcd_status parse_shapes(const urdf_ctx *c, const xmlNode *node, urdf_link *l)
{
    mcd_status st = MCD_OK;
    int drop = 0;
    for (const xmlNode *k = node->children; k && st == MCD_OK; k = k->next)
        if (urdf_is(k, "collision") && !c->opt.ignore_collision)
            st = urdf_parse_collision(c, k, l);
        else if (urdf_is(k, "visual"))
            st = urdf_parse_visual(c, k, l, &drop);
    if (st == MCD_OK && (drop || l->nvisual == 0)) st = visuals_from_collision(c, l);
    return st;
}

mcd_status urdf_parse_link(const urdf_ctx *c, const xmlNode *node, urdf_link *l)
{
    const xmlNode *inertial;
    memset(l, 0, sizeof *l);
    l->node = node;
    l->parent_joint = -1;
    mcd_status st = urdf_string_attr(c, node, "name", 1, &l->name);
    if (st == MCD_OK) st = urdf_child(c, node, "inertial", 0, &inertial);
    if (st == MCD_OK && inertial) st = parse_inertial(c, inertial, &l->mass);
    if (st == MCD_OK) st = parse_shapes(c, node, l);
    return st;
}

void urdf_link_free(urdf_link *l)
{
    free_shapes(l->geom, l->ngeom);
    free_shapes(l->visual, l->nvisual);
    free(l->name);
}

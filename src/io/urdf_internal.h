/* URDF import internals, shared by src/io/urdf*.c (not installed).
 *
 * The loader works in three passes over the libxml2 tree:
 *   urdf_robot.c  <robot> -> urdf_robot (links, joints, parsed values)
 *   urdf_tree.c   names -> indices, the single root, parents-first order
 *   urdf_build.c  urdf_robot -> builder calls (-> mcd_model)
 * Every value keeps the XML node it came from, so any later error can name
 * the file, line and element.
 */
#ifndef MCDYN_IO_URDF_INTERNAL_H
#define MCDYN_IO_URDF_INTERNAL_H

#include "mcdyn/urdf.h"

#include <libxml/tree.h>

/* What every parsing step needs: where messages point, how files resolve. */
typedef struct urdf_ctx {
    const char *file;     /* the name used in messages */
    const char *base_dir; /* directory of relative file names, NULL: current */
    mcd_urdf_options opt;
    mcd_error *err;
} urdf_ctx;

/* One <collision> or <visual> shape of a link; geom.mesh_path and the
 * arrays of mesh (the triangles of a visual mesh, else all zero) are owned. */
typedef struct urdf_geom {
    const xmlNode *node;
    mcd_geom geom;
    mcd_visual_mesh mesh;
} urdf_geom;

typedef struct urdf_link {
    const xmlNode *node;
    char *name;
    mcd_mass_props mass; /* in the link frame */
    urdf_geom *geom;
    int ngeom;
    urdf_geom *visual; /* <visual> shapes, or copies of geom (urdf_parse_link) */
    int nvisual;
    int parent_joint; /* joint having this link as child, -1 for the root */
} urdf_link;

typedef struct urdf_joint {
    const xmlNode *node;
    char *name;
    mcd_joint_type type;
    mcd_pose origin; /* joint (= child link) frame in the parent link frame */
    double axis[3];
    mcd_joint_limits limits;
    char *parent_name, *child_name;
    int parent, child; /* link indices, set by urdf_resolve_tree */
} urdf_joint;

typedef struct urdf_robot {
    char *name;
    urdf_link *link;
    int nlink;
    urdf_joint *joint;
    int njoint;
    int *order; /* nlink link indices, every parent before its children */
} urdf_robot;

/* ---- urdf_xml.c: located messages and attribute readers ---------------- */

/* Records "file:line: <element name="...">: message" in c->err; returns st. */
mcd_status urdf_fail(const urdf_ctx *c, const xmlNode *node, mcd_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Sends a located warning to the options' sink, if any. */
void urdf_warn(const urdf_ctx *c, const xmlNode *node, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Nonzero if node is the element <name>. */
int urdf_is(const xmlNode *node, const char *name);
/* The only child element <name> of node in *child (NULL when absent; an
 * error when repeated, or when absent and required). */
mcd_status urdf_child(const urdf_ctx *c, const xmlNode *node, const char *name, int required,
                      const xmlNode **child);
/* A copy of attribute attr (free with free); an error when absent, or empty
 * and nonempty is set. */
mcd_status urdf_string_attr(const urdf_ctx *c, const xmlNode *node, const char *attr, int nonempty,
                            char **out);
/* n (at most 3) finite numbers separated by white space from attribute attr
 * into out; out is left unchanged when the attribute is absent and not
 * required. */
mcd_status urdf_numbers_attr(const urdf_ctx *c, const xmlNode *node, const char *attr, int n,
                             int required, double *out);
/* As urdf_numbers_attr, and none of the numbers may be negative. */
mcd_status urdf_nonneg_attr(const urdf_ctx *c, const xmlNode *node, const char *attr, int n,
                            int required, double *out);
/* The pose of the child <origin xyz rpy> of node (identity when absent). */
mcd_status urdf_origin(const urdf_ctx *c, const xmlNode *node, mcd_pose *X);

/* ---- urdf_mesh.c: mesh file names -------------------------------------- */

/* Resolves a collision mesh file name (package://, file://, absolute or
 * relative) to a path in *path (free with free), warning when the file
 * cannot be found (the model loads; reading the mesh, when a collision world
 * is made, fails naming the file and the link). A package:// URI that no
 * search directory holds resolves to the URI itself. */
mcd_status urdf_resolve_mesh(const urdf_ctx *c, const xmlNode *node, const char *uri, char **path);
/* The same resolution without a warning: *found tells whether the file
 * exists. NULL when out of memory. */
char *urdf_mesh_path(const urdf_ctx *c, const char *uri, int *found);

/* ---- urdf_geom.c: <collision> ------------------------------------------ */

/* Appends the shape of a <collision> element to link l. */
mcd_status urdf_parse_collision(const urdf_ctx *c, const xmlNode *node, urdf_link *l);
/* Appends the shape of a <visual> element to l->visual, or sets *drop when
 * it cannot be drawn: its mesh file is not found (silently), or it does not
 * parse (with a located warning). Only running out of memory is an error:
 * visuals never stop a model from loading. */
mcd_status urdf_parse_visual(const urdf_ctx *c, const xmlNode *node, urdf_link *l, int *drop);

/* ---- urdf_link.c / urdf_joint.c ---------------------------------------- */

mcd_status urdf_parse_link(const urdf_ctx *c, const xmlNode *node, urdf_link *l);
/* 1 if the link inertia violates the triangle inequality (what the
 * balance_inertia option repairs). */
int urdf_inertia_unbalanced(const mcd_mass_props *m);
void urdf_link_free(urdf_link *l);
mcd_status urdf_parse_joint(const urdf_ctx *c, const xmlNode *node, urdf_joint *j);
void urdf_joint_free(urdf_joint *j);

/* ---- urdf_robot.c / urdf_tree.c / urdf_build.c ------------------------- */

/* Parses the <robot> element into r (zeroed first; free with urdf_robot_free). */
mcd_status urdf_parse_robot(const urdf_ctx *c, const xmlNode *node, urdf_robot *r);
void urdf_robot_free(urdf_robot *r);
/* Resolves joint link names, checks for a single root and no cycle, and
 * fills r->order. */
mcd_status urdf_resolve_tree(const urdf_ctx *c, urdf_robot *r);
/* Where a robot's links go in a builder. */
typedef struct urdf_target {
    mcd_builder *b;
    const char *prefix; /* prepended to every link and joint name ("" for none) */
    mcd_pose base;      /* root link frame (fixed base) or free-joint frame in the world */
    int root;           /* receives the builder index of the root link */
} urdf_target;

/* Appends the links of a resolved robot (and their collision geometry) to
 * t->b and sets t->root. */
mcd_status urdf_add_robot(const urdf_ctx *c, const urdf_robot *r, urdf_target *t);
/* Builds the model of a resolved robot: no prefix, root at the world origin,
 * model named after the robot. */
mcd_status urdf_build_model(const urdf_ctx *c, const urdf_robot *r, mcd_model **out);

#endif

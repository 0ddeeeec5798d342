/* Private: the builder's storage, shared by builder.c and model_build.c. */
#ifndef MCDYN_SRC_MODEL_BUILDER_INTERNAL_H
#define MCDYN_SRC_MODEL_BUILDER_INTERNAL_H

#include "inertia.h"
#include "mcdyn/model.h"

typedef struct builder_link {
    char *name, *joint_name;
    int parent;
    mcd_joint_type jtype; /* continuous is stored as revolute ... */
    int continuous;       /* ... with this flag */
    mcd_pose origin;
    double axis[3];
    mcd_mass_props mass;
    mcd_joint_limits limits;
} builder_link;

typedef struct builder_node {
    char *name;
    int link;
    mcd_pose pose;
} builder_node;

typedef struct builder_closure {
    char *name;
    mcd_closure c; /* body_a / body_b hold builder link indices */
} builder_closure;

struct mcd_builder {
    builder_link *link;
    int nlink, link_cap;
    mcd_geom *geom; /* geom.body holds the builder link index (-1: world) */
    int ngeom, geom_cap;
    mcd_geom *visual; /* as geom */
    int nvisual, visual_cap;
    mcd_visual_mesh *visual_mesh; /* one per visual, all zero when it has no triangles */
    int visual_mesh_cap;
    builder_node *node;
    int nnode, node_cap;
    builder_closure *closure;
    int nclosure, closure_cap;
    double gravity[3];
    char *name;
};

char *mcd_builder_strdup(const char *s);
/* *dst := a copy of src's arrays (all zero for a zero src); nonzero when
 * out of memory (dst left all zero). */
int mcd_visual_mesh_copy(mcd_visual_mesh *dst, const mcd_visual_mesh *src);
/* Frees the arrays of m (which may be NULL). */
void mcd_visual_mesh_free(mcd_visual_mesh *m);

#endif

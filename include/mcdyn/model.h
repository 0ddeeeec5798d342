/* mcdyn — the model: an immutable tree of rigid bodies joined by hinges.
 *
 * A model is made with the builder (mcd_builder_*) or a loader (URDF), is
 * validated once when it is finished, and is read-only afterwards: any
 * number of mcd_data may share it.
 *
 * Bodies are stored in topological order (parent index < child index); the
 * world is parent -1. Each body has exactly one hinge (joint) to its parent.
 * Fixed joints are merged into their parent at build time (mass properties
 * combined), so they cost nothing at run time; the merged links stay
 * addressable by name as frames.
 *
 * Generalized coordinates per hinge type (nq / nv):
 *   revolute, continuous  1 / 1   angle [rad] about the axis
 *   prismatic             1 / 1   displacement [m] along the axis
 *   spherical             4 / 3   q: unit quaternion [w x y z] of the body in
 *                                 the joint frame; v: angular velocity in the
 *                                 body frame
 *   free                  7 / 6   q: position [x y z] of the body origin in the
 *                                 parent joint frame, then a unit quaternion;
 *                                 v: linear velocity [vx vy vz] of the origin in
 *                                 the parent joint frame, then angular velocity
 *                                 in the body frame (MuJoCo's convention)
 */
#ifndef MCDYN_MODEL_H
#define MCDYN_MODEL_H

#include "mcdyn/spatial.h"
#include "mcdyn/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mcd_joint_type {
    MCD_JOINT_FIXED = 0,
    MCD_JOINT_REVOLUTE,
    MCD_JOINT_CONTINUOUS,
    MCD_JOINT_PRISMATIC,
    MCD_JOINT_SPHERICAL,
    MCD_JOINT_FREE,
    MCD_JOINT_TYPE_COUNT
} mcd_joint_type;

/* "revolute", "continuous", ... */
const char *mcd_joint_type_name(mcd_joint_type t);
/* Number of position / velocity coordinates of a hinge type. */
int mcd_joint_nq(mcd_joint_type t);
int mcd_joint_nv(mcd_joint_type t);

/* Mass properties of a body in its own frame. */
typedef struct mcd_mass_props {
    double mass;       /* [kg] */
    double com[3];     /* centre of mass in the body frame [m] */
    double inertia[9]; /* rotational inertia about the centre of mass, body axes, row-major */
} mcd_mass_props;

/* Joint data recorded from the model description (limits, damping). */
typedef struct mcd_joint_limits {
    int has_position_limits;
    double lower, upper; /* [rad] or [m] */
    double effort;       /* 0 when not given */
    double velocity;     /* 0 when not given */
    double damping;      /* viscous, N m s/rad or N s/m */
    double friction;     /* Coulomb joint friction (recorded, not used by dynamics) */
} mcd_joint_limits;

typedef enum mcd_geom_type {
    MCD_GEOM_SPHERE = 0, /* size[0] = radius */
    MCD_GEOM_BOX,        /* size = half extents */
    MCD_GEOM_CYLINDER,   /* size[0] = radius, size[1] = half length along z */
    MCD_GEOM_CAPSULE,    /* size[0] = radius, size[1] = half length of the segment along z */
    MCD_GEOM_PLANE,      /* the plane z = 0 of the geom frame, normal +z */
    MCD_GEOM_MESH,       /* mesh file reference (path resolved), scale in size */
    MCD_GEOM_TYPE_COUNT
} mcd_geom_type;

/* Collision geometry attached to a body (body -1: the world). */
typedef struct mcd_geom {
    mcd_geom_type type;
    int body;
    mcd_pose pose; /* geom frame in the body frame */
    double size[3];
    char *mesh_path; /* MCD_GEOM_MESH only, otherwise NULL */
    /* Set by mcd_model_build (ignored when adding): the robot of the geom's
     * link (mcd_body.robot; links fixed to the world keep their robot), -1
     * for geoms added on the world itself (the environment). */
    int robot;
} mcd_geom;

/* The triangles of a visual mesh (an MCD_GEOM_MESH in mcd_model.visual),
 * as its file holds them: vertices in the file's frame before the visual's
 * scale (its size), and triangles given by three vertex indices in the
 * file's winding (counter-clockwise seen from outside in well-formed files). */
typedef struct mcd_visual_mesh {
    int nvert;    /* vertices */
    int ntri;     /* triangles */
    double *vert; /* nvert x 3, the file's units (metres in URDF meshes) */
    int *tri;     /* ntri x 3, indices in [0, nvert) */
} mcd_visual_mesh;

/* One body of the tree and the hinge that joins it to its parent. */
typedef struct mcd_body {
    int parent;           /* parent body index, -1 for the world */
    mcd_joint_type jtype; /* never MCD_JOINT_FIXED once built (merged away) */
    int qadr, vadr;       /* first index of the hinge's coordinates in q and v */
    int nq, nv;           /* hinge coordinate counts */
    mcd_pose X_tree;      /* hinge (joint) frame in the parent body frame */
    double axis[3];       /* unit hinge axis in the joint frame (= body frame) */
    mcd_mass_props mass;  /* in the body frame */
    mcd_sym6 inertia;     /* spatial inertia about the body origin (from mass) */
    mcd_joint_limits limits;
    int first_child, next_sibling; /* tree links, -1 when none */
    /* The robot the body belongs to: the links hanging from one link joined
     * to the world (a URDF's root link, fixed or floating, and everything
     * below it) are one robot; robots are numbered 0 .. nrobot - 1 in the
     * order their root links were added. */
    int robot;
} mcd_body;

/* A named frame: a URDF link. Moving links are bodies (pose = identity);
 * links merged by fixed joints keep their frame on the body they joined. */
typedef struct mcd_frame {
    int body;      /* -1 for frames on the world */
    mcd_pose pose; /* frame in the body frame */
} mcd_frame;

/* A node: a frame fixed on a body, where contact or closure forces act and
 * whose Jacobian and operational-space compliance are computed. */
typedef struct mcd_node {
    int body;
    mcd_pose pose; /* node frame in the body frame */
} mcd_node;

/* Loop-closure constraint between frame A on body_a and frame B on body_b
 * (body_b -1: the world). Rows (docs/theory/operational-space.md):
 *   ball      3: the two origins coincide (world-axis rows)
 *   hinge     5: ball + the z axes of A and B stay parallel (2 angular rows)
 *   weld      6: the frames coincide
 *   distance  1: the origins stay at the distance `length` */
typedef enum mcd_closure_type {
    MCD_CLOSURE_BALL = 0,
    MCD_CLOSURE_HINGE,
    MCD_CLOSURE_WELD,
    MCD_CLOSURE_DISTANCE,
    MCD_CLOSURE_TYPE_COUNT
} mcd_closure_type;

/* "ball", "hinge", ...; rows of each type (3, 5, 6, 1). */
const char *mcd_closure_type_name(mcd_closure_type t);
int mcd_closure_rows(mcd_closure_type t);

typedef struct mcd_closure {
    mcd_closure_type type;
    int body_a, body_b; /* body_b = -1: the world */
    mcd_pose pose_a;    /* frame A in body A */
    mcd_pose pose_b;    /* frame B in body B (in the world if body_b = -1) */
    double length;      /* distance closures: the kept distance [m] */
} mcd_closure;

typedef struct mcd_model {
    int nbody;         /* moving bodies */
    int nq, nv;        /* total coordinates */
    mcd_body *body;    /* nbody entries, topological order */
    char **body_name;  /* nbody names (the URDF link name of each moving body) */
    char **joint_name; /* nbody names of the hinges */
    int nframe;
    mcd_frame *frame;
    char **frame_name; /* nframe names (every link, moving or merged) */
    int nnode;
    mcd_node *node;
    char **node_name;
    int ngeom;
    mcd_geom *geom;
    int nclosure;
    mcd_closure *closure;
    char **closure_name;
    int nclosure_rows; /* total constraint rows of all closures */
    double gravity[3]; /* world frame [m/s^2], default (0, 0, -9.81) */
    double total_mass;
    char *name;
    int max_depth; /* longest root-to-leaf path, in bodies */
    int nrobot;    /* links joined to the world (mcd_body.robot), counting fixed ones */
    /* Visual geometry (a URDF's <visual>): drawn by viewers, never used by
     * collision; body, pose and robot as for geom. */
    int nvisual;
    mcd_geom *visual;
    /* nvisual entries, the triangles of each visual mesh whose file was
     * read (the URDF loader reads them); all zero for the other visuals,
     * which are drawn as primitives (or a mesh as the hull of its file's
     * vertices). Freed with the model. */
    mcd_visual_mesh *visual_mesh;
} mcd_model;

/* ---- builder ------------------------------------------------------------ */

typedef struct mcd_builder mcd_builder;

/* Description of one link and the joint that joins it to its parent.
 * parent: index returned by mcd_builder_add_link, or -1 for the world. */
typedef struct mcd_link_desc {
    const char *name;       /* unique link name (required) */
    const char *joint_name; /* unique joint name (optional: defaults to the link name) */
    int parent;
    mcd_joint_type jtype;
    mcd_pose origin; /* joint frame in the parent link frame */
    double axis[3];  /* joint axis in the joint frame (normalised by the builder) */
    mcd_mass_props mass;
    mcd_joint_limits limits;
} mcd_link_desc;

/* A link description with identity origin, axis z, zero mass. */
mcd_link_desc mcd_link_desc_default(void);

mcd_status mcd_builder_create(mcd_builder **out);
void mcd_builder_free(mcd_builder *b);

/* Adds a link; *index (may be NULL) receives its builder index, to be used
 * as a parent, a geom's or a node's link. Names must be unique. */
mcd_status mcd_builder_add_link(mcd_builder *b, const mcd_link_desc *desc, int *index,
                                mcd_error *err);
/* Adds collision geometry to a link (-1: the world). */
mcd_status mcd_builder_add_geom(mcd_builder *b, int link, const mcd_geom *geom, mcd_error *err);
/* Adds visual geometry to a link (-1: the world), checked as a geom: kept in
 * mcd_model.visual, not used by collision. */
mcd_status mcd_builder_add_visual(mcd_builder *b, int link, const mcd_geom *geom, mcd_error *err);
/* mcd_builder_add_visual with the triangles of a visual mesh (geom->type is
 * MCD_GEOM_MESH; mesh is copied and checked: at least one vertex and one
 * triangle, finite vertices, indices in range); the model keeps them in
 * mcd_model.visual_mesh. */
mcd_status mcd_builder_add_visual_mesh(mcd_builder *b, int link, const mcd_geom *geom,
                                       const mcd_visual_mesh *mesh, mcd_error *err);
/* Adds a node on a link at the given pose in the link frame. */
mcd_status mcd_builder_add_node(mcd_builder *b, const char *name, int link, const mcd_pose *pose,
                                int *index, mcd_error *err);
/* Adds a loop closure between a frame on link_a and one on link_b (-1: the
 * world), poses in the link frames. length (> 0) is used by distance
 * closures only. */
mcd_status mcd_builder_add_closure(mcd_builder *b, const char *name, mcd_closure_type type,
                                   int link_a, const mcd_pose *pose_a, int link_b,
                                   const mcd_pose *pose_b, double length, int *index,
                                   mcd_error *err);
mcd_status mcd_builder_set_gravity(mcd_builder *b, const double g[3], mcd_error *err);
mcd_status mcd_builder_set_name(mcd_builder *b, const char *name, mcd_error *err);
/* Number of links added so far. */
int mcd_builder_nlinks(const mcd_builder *b);
/* Index of a link by name, -1 if absent. */
int mcd_builder_find_link(const mcd_builder *b, const char *name);

/* Validates and builds the model: unique names, acyclic tree, finite values,
 * unit axes, non-negative mass, symmetric positive semidefinite inertia
 * obeying the triangle inequality, and positive mass and positive-definite
 * inertia for every moving body after fixed-joint merging unless the body
 * carries moving descendants (massless intermediate links are allowed).
 * The mass properties of links fixed to the world (merged into it) need
 * only be finite: they never enter the dynamics. Each violation is
 * reported naming the link. The builder may be freed or reused afterwards. */
mcd_status mcd_model_build(const mcd_builder *b, mcd_model **out, mcd_error *err);

void mcd_model_free(mcd_model *m);

/* Index of a moving body / frame / node / joint by name; -1 if absent. */
int mcd_model_body_index(const mcd_model *m, const char *name);
int mcd_model_frame_index(const mcd_model *m, const char *name);
int mcd_model_node_index(const mcd_model *m, const char *name);
int mcd_model_joint_index(const mcd_model *m, const char *name);
int mcd_model_closure_index(const mcd_model *m, const char *name);

/* The neutral configuration: zero angles and displacements, identity
 * quaternions, zero free-joint positions. q has m->nq entries. */
mcd_status mcd_model_neutral(const mcd_model *m, double *q);

/* Checks that q has finite entries and unit quaternions (|norm - 1| <= 1e-6);
 * the message in err names the offending joint. */
mcd_status mcd_model_check_q(const mcd_model *m, const double *q, mcd_error *err);

/* Adds a node to a built model (for programs that pick nodes after loading,
 * e.g. `mcdyn query --node`). Must be called before any mcd_data is made
 * from the model. */
mcd_status mcd_model_add_node(mcd_model *m, const char *name, int body, const mcd_pose *pose,
                              int *index, mcd_error *err);

#ifdef __cplusplus
}
#endif
#endif

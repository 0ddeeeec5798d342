/* mcdyn — URDF import.
 *
 * Reads a URDF robot description (libxml2, network access disabled) and
 * builds an mcd_model with the builder of model.h, or appends the robot to a
 * caller's builder (mcd_urdf_load_into):
 *  - every <link> becomes a builder link; its frame is the frame of the joint
 *    that has it as child (the root link's frame is the world frame, or the
 *    free-joint frame with a floating base);
 *  - <inertial>: mass, centre of mass = origin xyz, inertia rotated into the
 *    link frame by the origin rpy (I_link = R I R^T); no <inertial>: zero mass.
 *    The mass properties of links welded to the world (a fixed base's root
 *    and the links fixed to it) are never used and need only be finite;
 *    a moving link's inertia that no rigid body has is an error whose
 *    message names the balance_inertia option;
 *  - <joint> types: revolute, continuous (revolute without position limits),
 *    prismatic, fixed (merged into the parent body by the builder, the link
 *    stays addressable as a frame), floating (a free joint); planar is
 *    rejected as unsupported. <axis> defaults to (1, 0, 0); <limit> and
 *    <dynamics> (damping, friction) are recorded, a revolute or prismatic
 *    joint having position limits when <limit> writes lower or upper;
 *  - <mimic> (q_j = multiplier q_i + offset) is an error (MCD_ERR_UNSUPPORTED)
 *    unless ignore_mimic is set: the coupling of two joint coordinates is not
 *    a loop closure of closure.h, whose rows constrain the relative motion of
 *    two frames (a mimic row involves the bodies on both sides of both
 *    joints), in the dynamics and in the contact layer alike;
 *  - <collision> geometry: sphere, box, cylinder, mesh, and the common
 *    <capsule radius length> extension (length of the cylindrical part);
 *    mesh file names are resolved (package:// against the package paths of
 *    the options, then ROS_PACKAGE_PATH; file://, absolute, or relative to
 *    the URDF's directory) and recorded, not loaded (the collision layer
 *    reads them); a collision mesh that cannot be found gives a warning,
 *    and reading it fails naming the file and the link; with
 *    ignore_collision set, <collision> is not read at all;
 *  - <visual> geometry: the same shapes, resolved the same way, kept in
 *    mcd_model.visual (drawn by the replay page, never used by collision);
 *    a link without <visual>, or with one that cannot be drawn, gets copies
 *    of its collision shapes instead: silently when a visual mesh file is
 *    not found (robot packages often ship without them), with a warning
 *    when a <visual> does not parse; a <visual> never stops a model from
 *    loading;
 *  - <material>, <gazebo>, <transmission>, <mujoco> and other extension
 *    elements are ignored.
 * The XML declaration version="0.0" written by some exporters is accepted.
 * Numbers are read with strtod in the C locale's format ('.' decimal point);
 * NaN, Inf, garbage and wrong counts are errors.
 *
 * Errors name the place: "path:line: <element name=\"...\">: what is wrong"
 * (status MCD_ERR_PARSE for malformed input, MCD_ERR_NONFINITE for NaN/Inf
 * or out-of-range numbers, MCD_ERR_UNSUPPORTED for valid URDF this library
 * does not handle, MCD_ERR_MODEL for structural or physical errors,
 * MCD_ERR_IO when the file cannot be read). Mass and inertia are validated
 * by the builder (model.h); its messages name the link and are prefixed with
 * the path, line and element of that link. Neither libxml2 nor this loader
 * prints anything.
 */
#ifndef MCDYN_URDF_H
#define MCDYN_URDF_H

#include "mcdyn/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Receives one warning message (a missing mesh, an ignored <mimic>, ...);
 * msg is only valid during the call. */
typedef void (*mcd_urdf_warn_fn)(void *user, const char *msg);

typedef struct mcd_urdf_options {
    /* Nonzero: the root link is attached to the world by a free joint named
     * after the link. Zero: the root link is fixed to the world (merged into
     * it: its mass does not count in the model's total mass). */
    int floating_base;
    /* Directories searched, in order, for package://PKG/REST URIs: the file
     * is DIR/PKG/REST, or DIR/REST when DIR is named PKG. The directories
     * of the environment variable ROS_PACKAGE_PATH (':'-separated) are
     * searched after these. May be NULL when npackage_paths is 0. */
    const char *const *package_paths;
    int npackage_paths;
    /* Nonzero: a link inertia whose principal moments violate the triangle
     * inequality (no rigid body has it; some published files carry one) is
     * replaced, with a warning, by the isotropic inertia of the same trace
     * (MuJoCo's balanceinertia). Zero: such a link is an error naming this
     * option (--balance-inertia of mcdyn, balance_inertia of a scenario
     * robot). */
    int balance_inertia;
    /* Nonzero: a <mimic> joint is loaded as an independent joint, with a
     * warning. Zero: a <mimic> is an error naming this option
     * (--ignore-mimic of mcdyn, ignore_mimic of a scenario robot). */
    int ignore_mimic;
    /* Nonzero: <collision> elements are not read (the links get no
     * collision geometry and their meshes are not looked for), for callers
     * that give the links shapes of their own (a scenario robot's geoms).
     * Zero: they are read as described above. */
    int ignore_collision;
    /* Optional warnings sink (NULL: warnings are dropped). */
    mcd_urdf_warn_fn warn;
    void *warn_user;
} mcd_urdf_options;

/* Fixed base, no package search path, no inertia balancing, no warnings
 * sink. */
mcd_urdf_options mcd_urdf_default_options(void);

/* Loads the URDF file at path. opt may be NULL (default options). On success
 * *out receives a new model (free with mcd_model_free); on failure *out is
 * NULL and err (may be NULL) holds the message. Relative mesh file names are
 * resolved against the directory of path. */
mcd_status mcd_urdf_load_file(const char *path, const mcd_urdf_options *opt, mcd_model **out,
                              mcd_error *err);

/* Loads a URDF held in the NUL-terminated string xml. name_for_messages (may
 * be NULL: "<string>") stands for the file name in messages. Relative mesh
 * file names are resolved against the current directory. */
mcd_status mcd_urdf_load_string(const char *xml, const char *name_for_messages,
                                const mcd_urdf_options *opt, mcd_model **out, mcd_error *err);

/* Appends the robot of the URDF file at path to the builder b instead of
 * building a model, so that several robots, loop closures, nodes and world
 * geometry can be combined before mcd_model_build:
 *  - name_prefix (NULL or "": none) is prepended to every link and joint
 *    name, so that two copies of a robot can share one builder;
 *  - the root link hangs from the world at base_pose (NULL: identity): it is
 *    fixed there, or, with opt->floating_base, attached by a free joint whose
 *    frame is base_pose (free-joint coordinates zero and an identity
 *    quaternion put the root link at base_pose); the free joint is named
 *    after the (prefixed) root link;
 *  - *root_link (may be NULL) receives the builder index of the root link
 *    (-1 on failure).
 * The builder's name and gravity are left unchanged; mass and inertia are
 * validated when the model is built, by mcd_model_build, whose messages name
 * the (prefixed) link but not the URDF line. Relative mesh file names are
 * resolved against the directory of path. On failure err holds the message
 * (as for mcd_urdf_load_file) and the builder may hold part of the robot:
 * discard it. */
mcd_status mcd_urdf_load_into(mcd_builder *b, const char *path, const mcd_urdf_options *opt,
                              const char *name_prefix, const mcd_pose *base_pose, int *root_link,
                              mcd_error *err);

/* As mcd_urdf_load_into for a URDF held in the NUL-terminated string xml
 * (name_for_messages and mesh files as for mcd_urdf_load_string). */
mcd_status mcd_urdf_load_string_into(mcd_builder *b, const char *xml, const char *name_for_messages,
                                     const mcd_urdf_options *opt, const char *name_prefix,
                                     const mcd_pose *base_pose, int *root_link, mcd_error *err);

#ifdef __cplusplus
}
#endif
#endif

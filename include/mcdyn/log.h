/* mcdyn — trajectory log in HDF5 (Debian's libhdf5): a self-describing file
 * of one run that h5py, MATLAB or HDFView read without mcdyn.
 *
 * Layout (docs/outputs.md lists every dataset with its shape and unit):
 *   /model/body_name, joint_name (nbody strings), body_parent (nbody, -1 =
 *   world), body_com (nbody x 3, body frame [m]); /model/geom_type (ngeom:
 *   0 sphere, 1 box, 2 cylinder, 3 capsule, 4 plane, 5 mesh), geom_body
 *   (-1 = world), geom_size (ngeom x 3 [m]), geom_pose (ngeom x 7: x y z qw
 *   qx qy qz in the body frame), geom_mesh (ngeom strings, "" unless mesh),
 *   mesh_vertex (N x 3: the vertices of every mesh geom, scaled, geom frame
 *   [m]; collision uses their convex hull), geom_mesh_vertex (ngeom x 2:
 *   first row in mesh_vertex and count, 0 0 unless mesh); visual_type,
 *   visual_body, visual_size, visual_pose, visual_mesh, visual_mesh_vertex:
 *   the same for the model's visual shapes (mcd_model.visual; a visual mesh
 *   that does not load has no vertices); mesh_triangle (T x 3: the
 *   triangles of the visual meshes, mcd_model.visual_mesh, as vertex indices
 *   counted from the visual's first row in mesh_vertex), visual_mesh_triangle
 *   (nvisual x 2: first row in mesh_triangle and count, 0 0 for a visual
 *   without triangles, drawn as a primitive or a hull);
 *   /steps/t (n [s]), q (n x nq), qd (n x nv), body_pose (n x nbody x 7:
 *   world pose of each body frame), ncontacts, iterations (n), residual (n),
 *   contact_body (n x slots x 2), contact_point, contact_normal (n x slots x
 *   3, world [m]), contact_force (n x slots x 3: Fn, Ff, Fo [N], contact
 *   frame): the first `slots` contacts of each step, unused slots hold -1
 *   bodies and NaN;
 *   /contacts/body (N x 2), point, normal, force (Fn, Ff, Fo), force_world
 *   (N x 3, world [N]): every contact of every step, N the sum of
 *   /steps/ncontacts, step i's contacts in the rows from the sum of the
 *   counts before it;
 *   root attributes "format" = "mcdyn-log 1", "scenario" (the scenario's
 *   text).
 * Steps are buffered in blocks and written as hyperslabs of chunked,
 * deflate-compressed datasets; appending allocates nothing. The file is
 * written under PATH.tmp-XXXXXX and renamed to PATH by mcd_log_close, so a
 * failed run leaves no partial file. mcd_log_open turns off HDF5's printing
 * of errors for the process (they come back as statuses and messages).
 */
#ifndef MCDYN_LOG_H
#define MCDYN_LOG_H

#include "mcdyn/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mcd_log mcd_log;

/* One contact of a step. */
typedef struct mcd_log_contact {
    int body_a, body_b;    /* body indices, -1 = the world */
    double point[3];       /* world contact point [m] */
    double normal[3];      /* unit normal from B to A */
    double force[3];       /* Fn, Ff, Fo: impulse / dt in the contact frame [N] */
    double force_world[3]; /* the same force in world coordinates [N] */
} mcd_log_contact;

/* One recorded step. */
typedef struct mcd_log_step {
    double t;                       /* [s] */
    const double *q, *qd;           /* model nq and nv values */
    const double *body_pose;        /* nbody x 7: world x y z qw qx qy qz of each body frame */
    int ncontacts;                  /* contacts of the step (may exceed the slots) */
    const mcd_log_contact *contact; /* ncontacts entries, all logged in /contacts */
    int iterations;
    double residual;
} mcd_log_step;

/* Creates the log for model m at path (written as a temporary file until
 * mcd_log_close). scenario_text (may be NULL) is stored as an attribute;
 * contact_slots >= 0 contacts are kept per step in /steps (at least one slot
 * is stored); /contacts keeps them all. */
mcd_status mcd_log_open(const char *path, const mcd_model *m, const char *scenario_text,
                        int contact_slots, mcd_log **out, mcd_error *err);

/* Appends one step (no allocation; a full block is written to the file).
 * A negative ncontacts, or contacts without their array, is MCD_ERR_ARG. */
mcd_status mcd_log_append(mcd_log *log, const mcd_log_step *s, mcd_error *err);

/* Writes the last block, closes the file and renames it to its path; frees
 * log. On failure the temporary file is removed. */
mcd_status mcd_log_close(mcd_log *log, mcd_error *err);

/* Frees log and removes its temporary file (a failed run). NULL is a no-op. */
void mcd_log_discard(mcd_log *log);

#ifdef __cplusplus
}
#endif
#endif

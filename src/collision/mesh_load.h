/* Private: vertices of mesh files, for convex-hull collision geoms, and
 * triangles of mesh files, for visual meshes drawn as themselves.
 *
 * Files are read by Assimp (Debian's libassimp): STL (ASCII and binary),
 * Wavefront OBJ, COLLADA (.dae) and the other formats Assimp imports, chosen
 * by the file name's extension (any case). The vertices of every mesh of
 * the file are taken in the file's root frame: node transformations are
 * applied, and so is a COLLADA <unit meter> scale; a COLLADA <up_axis> is
 * ignored (coordinates are used as written, z up as in ROS), as RViz and
 * MoveIt do. Collision needs only vertices (the geom is their convex hull):
 * the file is read without any post-processing. Visual meshes need their
 * triangles: Assimp triangulates the faces and joins identical vertices.
 */
#ifndef MCDYN_SRC_COLLISION_MESH_LOAD_H
#define MCDYN_SRC_COLLISION_MESH_LOAD_H

#include "mcdyn/model.h"
#include "mcdyn/status.h"

/* The bound on a visual mesh: at most this many vertices and this many
 * triangles (after triangulation and joining). A robot link's visual mesh
 * has thousands to tens of thousands of triangles; at the bound it takes
 * 36 MB in the model and 32 MB in a replay page (12 bytes per vertex and
 * per triangle, in base64). */
#define MCD_VISUAL_MESH_MAX 1000000

/* Reads the vertices of path, a collision mesh of link (the name used in
 * messages), into *verts (malloc'd, 3 doubles per vertex, freed by the
 * caller) and their number into *nverts. Errors name the link and the path:
 * MCD_ERR_UNSUPPORTED (no importer for the extension), MCD_ERR_IO (cannot
 * open), MCD_ERR_PARSE (Assimp rejects the file, a non-finite vertex, no
 * vertices), MCD_ERR_NOMEM. */
mcd_status mcd_mesh_load_vertices(const char *path, const char *link, double **verts, int *nverts,
                                  mcd_error *err);

/* Reads the triangles of path, a visual mesh of link (the name used in
 * messages), into *mesh (mcd_visual_mesh: vertices in the file's root frame,
 * unscaled; 3 vertex indices per triangle in the file's winding; arrays
 * malloc'd, freed by the caller). Points and lines of the file are left
 * out. Each mesh of the file placed by a node adds its own vertices. At
 * most max_count vertices and max_count triangles (MCD_VISUAL_MESH_MAX,
 * smaller in tests). Errors name the link and the path: those of
 * mcd_mesh_load_vertices, MCD_ERR_PARSE when the file has no triangle,
 * MCD_ERR_MODEL when a count exceeds max_count. */
mcd_status mcd_mesh_load_triangles(const char *path, const char *link, int max_count,
                                   mcd_visual_mesh *mesh, mcd_error *err);

/* 1 if the points span a solid: four of them are not coplanar (relative
 * tolerance 1e-9 of their extent); 0 for flat, collinear or single points. */
int mcd_mesh_is_solid(const double *verts, int nverts);

#endif

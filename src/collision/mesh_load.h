/* Private: vertices of mesh files, for convex-hull collision geoms.
 *
 * Files are read by Assimp (Debian's libassimp): STL (ASCII and binary),
 * Wavefront OBJ, COLLADA (.dae) and the other formats Assimp imports, chosen
 * by the file name's extension (any case). The vertices of every mesh of
 * the file are taken in the file's root frame: node transformations are
 * applied, and so is a COLLADA <unit meter> scale; a COLLADA <up_axis> is
 * ignored (coordinates are used as written, z up as in ROS), as RViz and
 * MoveIt do. Only vertices matter: the geom is their convex hull.
 */
#ifndef MCDYN_SRC_COLLISION_MESH_LOAD_H
#define MCDYN_SRC_COLLISION_MESH_LOAD_H

#include "mcdyn/status.h"

/* Reads the vertices of path, a collision mesh of link (the name used in
 * messages), into *verts (malloc'd, 3 doubles per vertex, freed by the
 * caller) and their number into *nverts. Errors name the link and the path:
 * MCD_ERR_UNSUPPORTED (no importer for the extension), MCD_ERR_IO (cannot
 * open), MCD_ERR_PARSE (Assimp rejects the file, a non-finite vertex, no
 * vertices), MCD_ERR_NOMEM. */
mcd_status mcd_mesh_load_vertices(const char *path, const char *link, double **verts, int *nverts,
                                  mcd_error *err);

/* 1 if the points span a solid: four of them are not coplanar (relative
 * tolerance 1e-9 of their extent); 0 for flat, collinear or single points. */
int mcd_mesh_is_solid(const double *verts, int nverts);

#endif

/* Private: vertices of mesh files, for convex-hull collision geoms.
 *
 * Formats, chosen by the file name's extension (any case):
 *   .stl  binary STL (80-byte header, triangle count, 50-byte triangles) or
 *         ASCII STL ("solid ... vertex x y z ... endsolid"); a file whose
 *         size matches the binary layout is read as binary even if its
 *         header starts with "solid"
 *   .obj  Wavefront OBJ: the "v x y z [w]" lines; faces, normals, texture
 *         coordinates, groups and materials are ignored
 * Anything else is MCD_ERR_UNSUPPORTED. Only vertices matter: the geom is
 * their convex hull.
 */
#ifndef MCDYN_SRC_COLLISION_MESH_LOAD_H
#define MCDYN_SRC_COLLISION_MESH_LOAD_H

#include "mcdyn/status.h"

/* Reads the vertices of path into *verts (malloc'd, 3 doubles per vertex,
 * freed by the caller) and their number into *nverts. Errors name the path:
 * MCD_ERR_UNSUPPORTED (format), MCD_ERR_IO (cannot open or read),
 * MCD_ERR_PARSE (malformed, non-finite number, no vertices), MCD_ERR_NOMEM. */
mcd_status mcd_mesh_load_vertices(const char *path, double **verts, int *nverts, mcd_error *err);

/* 1 if the points span a solid: four of them are not coplanar (relative
 * tolerance 1e-9 of their extent); 0 for flat, collinear or single points. */
int mcd_mesh_is_solid(const double *verts, int nverts);

#endif

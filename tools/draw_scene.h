/* `mcdyn draw`: the picture of a model at one configuration, as 2D polylines
 * and marks on a view plane (draw_plot.h turns a scene into a PNG).
 *
 * What is drawn:
 *  - bodies: a segment from each body's origin (its joint) to the origin of
 *    each child body, to the centre of each of its collision geoms, to each
 *    closure frame on it and to each link frame merged into it;
 *  - joints: a dot at each body origin (a square for joints to the world,
 *    free joints excepted);
 *  - closures: a cross at each of the two frames of every closure, and a
 *    dashed segment between them (a point when the closure holds);
 *  - collision geometry as outlines: spheres as circles, boxes by their 12
 *    edges, cylinders and capsules by their end circles and silhouette,
 *    planes as a square around the picture, meshes as a small frame at the
 *    mesh origin. World geometry is a layer of its own. */
#ifndef MCDYN_TOOLS_DRAW_SCENE_H
#define MCDYN_TOOLS_DRAW_SCENE_H

#include "mcdyn/data.h"

/* A view: the world directions of the picture's horizontal (u) and
 * vertical (v) axes. */
typedef struct draw_view {
    const char *name;
    double u[3], v[3];
    const char *ulabel, *vlabel;
} draw_view;

/* The view called name ("xz", "yz", "xy", "iso"); 0 on success, -1 for an
 * unknown name. */
int draw_view_from_name(const char *name, draw_view *view);

/* "xz, yz, xy, iso", for messages. */
const char *draw_view_names(void);

typedef enum draw_layer {
    DRAW_WORLD_GEOMETRY = 0,
    DRAW_GEOMETRY,
    DRAW_BODIES,
    DRAW_CLOSURE_GAPS,
    DRAW_LAYER_COUNT
} draw_layer;

typedef enum draw_mark {
    DRAW_JOINT = 0,
    DRAW_GROUND_JOINT,
    DRAW_CLOSURE_FRAME,
    DRAW_MARK_COUNT
} draw_mark;

/* 2D points, two doubles each. In a polyline layer a point (NAN, NAN) ends
 * a polyline. */
typedef struct draw_points {
    double *uv;
    int n, cap;
} draw_points;

typedef struct draw_scene {
    draw_points line[DRAW_LAYER_COUNT];
    draw_points mark[DRAW_MARK_COUNT];
    double lo[2], hi[2]; /* bounding box of everything drawn (lo > hi when empty) */
} draw_scene;

/* Draws model m at configuration q (forward kinematics in d) seen in view.
 * s must be zero-initialised or freed before. Returns 0, or -1 with a
 * message in msg (out of memory, a bad configuration). */
int draw_scene_build(draw_scene *s, const mcd_model *m, mcd_data *d, const double *q,
                     const draw_view *view, char *msg, size_t msglen);

void draw_scene_free(draw_scene *s);

#endif

/* A run read back from its HDF5 log (include/mcdyn/log.h) for the replay
 * page: the model's bodies and geometry, and the steps decimated to a frame
 * rate, in single precision (what the page draws). */
#ifndef MCDYN_TOOLS_VIEW_RUN_H
#define MCDYN_TOOLS_VIEW_RUN_H

#include <stddef.h>

typedef struct view_geom {
    int type, body; /* mcd_geom_type; body index, -1 = the world */
    double size[3], pose[7];
    float *mesh; /* mesh geoms: nmesh vertices x 3 in the geom frame, scale applied */
    int nmesh;
    int *tri; /* visual meshes with triangles: ntri x 3 indices into mesh, else NULL */
    int ntri;
} view_geom;

typedef struct view_run {
    int nbody, ngeom;
    char **body_name;
    int *body_parent; /* parent body index, -1 = the world */
    view_geom *geom;
    int nvisual;
    view_geom *visual; /* visual shapes (none in older logs) */
    long nframe;
    float *t;              /* nframe [s] */
    float *pose;           /* nframe x nbody x 7: world x y z qw qx qy qz of each body frame */
    int *ncontacts;        /* nframe: contacts of each frame's step */
    long ncontact;         /* contacts of all frames, the sum of ncontacts */
    float *contact_point;  /* ncontact x 3, world [m]: frame 0's contacts, then frame 1's... */
    float *contact_normal; /* ncontact x 3 */
    float *contact_force;  /* ncontact x 3: the force on body A, world [N] */
} view_run;

/* Reads the log at path keeping at most fps frames per simulated second
 * (the first and the last step always). Returns 0, or -1 with the reason in
 * msg: not an HDF5 file, not an mcdyn log, missing or misshapen datasets. */
int view_run_read(const char *path, double fps, view_run *run, char *msg, size_t msglen);

void view_run_free(view_run *run);

#endif

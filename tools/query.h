/* `mcdyn query`: what is computed and printed for a model at one state.
 *
 * The command (cmd_query.c) loads the model, resolves the requested nodes
 * and the state, then runs every section of query_sections (in order):
 * first all the computations, then, when they all succeeded, the JSON
 * output. A new output (e.g. the operational-space inertia of the nodes)
 * is one more section in query_sections.c.
 */
#ifndef MCDYN_TOOLS_QUERY_H
#define MCDYN_TOOLS_QUERY_H

#include "json.h"
#include "mcdyn/dynamics.h"
#include "mcdyn/osc.h"

/* A requested node: a point with axes fixed on a link (URDF link name). */
typedef struct query_node {
    const char *name; /* as given on the command line */
    char *link;       /* owned copy */
    double offset[3]; /* node origin in the link frame */
    int node;         /* index in the model, -1 if the link is fixed to the world */
    mcd_pose world;   /* node frame in the world (computed) */
    double *J;        /* 6 x nv, world-aligned, rows [w; v] (computed) */
} query_node;

typedef struct query {
    mcd_model *m;
    mcd_data *d;
    double *q, *qd, *tau; /* the state */
    double *M, *C, *qdd;  /* computed */
    int nnode;
    query_node *nodes;
    double *Lambda; /* 6 nnode x 6 nnode operational-space compliance (computed) */
} query;

typedef struct query_section {
    /* Computes the section's values; NULL if there is nothing to compute.
     * On failure returns the status with a message in err. */
    mcd_status (*compute)(query *qy, mcd_error *err);
    /* Writes the section's members into the top-level JSON object. */
    void (*write)(const query *qy, json_writer *w);
} query_section;

extern const query_section query_sections[];
extern const int query_nsections;

#endif

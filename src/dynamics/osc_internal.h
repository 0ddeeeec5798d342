/* Private: the operational-space workspace held by mcd_data. */
#ifndef MCDYN_SRC_OSC_INTERNAL_H
#define MCDYN_SRC_OSC_INTERNAL_H

#include "mcdyn/osc.h"

/* Where a body stands with respect to the points of one call. */
enum {
    MCD_OSC_OFF_PATH = 0,      /* neither it nor a descendant carries a point */
    MCD_OSC_ON_PATH = 1,       /* a descendant carries a point */
    MCD_OSC_CARRIES_POINT = 2, /* it carries a point */
};

typedef struct mcd_osc_ws {
    int capacity;  /* points per call */
    int max_chain; /* key ancestors per point: min(2 capacity - 1, tree depth) */
    /* per body; key_slot, marked and nbranch are -1, 0, 0 outside a call of
     * mcd_osc_compliance, which resets only the bodies on its path */
    double *Omega; /* 36 per body: Omega(k), row-major */
    int *key_slot; /* slot of a key body, -1 otherwise */
    int *marked;   /* MCD_OSC_OFF_PATH, MCD_OSC_ON_PATH or MCD_OSC_CARRIES_POINT */
    int *nbranch;  /* children whose subtree carries a point */
    int *path;     /* the marked bodies of the current call, in decreasing index order */
    int npath;
    /* per key slot (at most 2 capacity - 1) */
    int *slot_body;   /* body of the slot */
    int *slot_parent; /* nearest key ancestor's slot, -1 at a root */
    double *Psi_seg;  /* 36 per slot: tau-bar product up to the key ancestor */
    /* per point */
    int *chain_len;       /* number of key ancestors (the point's own body first) */
    int *chain_slot;      /* max_chain per point */
    double *chain_Psi;    /* 36 per chain entry: Z = Psi(point body -> ancestor) phi(x), 6 x r
                           * row-major, r = the call's rows (osc_compliance.c) */
    double *chain_OmegaZ; /* 36 per chain entry: Omega(ancestor) Z, 6 x r, made when a
                           * block of Lambda first needs it */
    unsigned char *chain_OmegaZ_made; /* per chain entry: chain_OmegaZ made in this call */
    mcd_osc_point *points;            /* capacity: node positions for mcd_node_compliance */
} mcd_osc_ws;

/* The body carrying all npts points if it is a free body whose parent is
 * the world and which has no children, -1 otherwise (osc_free_body.c). */
int mcd_osc_single_free_body(const mcd_model *m, int npts, const mcd_osc_point *pts);

/* mcd_osc_row_compliance's W for rows whose points all lie on that body
 * (mcd_osc_single_free_body), in closed form from the body's mass
 * properties and pose in d (kinematics current), without Lambda:
 * W_ij = b_i^T I_c^{-1} b_j + e_i . e_j / m (osc_free_body.c). work: 9 n
 * doubles. */
void mcd_osc_free_body_row_compliance(const mcd_model *m, const mcd_data *d, int body,
                                      const mcd_osc_point *pts, mcd_osc_rows rows, int n,
                                      const int *pa, const int *pb, const double *coef,
                                      double *work, double *W);

/* Frees d->osc. */
void mcd_osc_release(mcd_data *d);

#endif

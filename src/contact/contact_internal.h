/* Private: the contact workspace shared by the files of src/contact. */
#ifndef MCDYN_SRC_CONTACT_INTERNAL_H
#define MCDYN_SRC_CONTACT_INTERNAL_H

#include "mcdyn/contact.h"
#include "mcdyn/osc.h"

#include <stddef.h>

/* Union-find over root subtrees (contact_groups.c). */
typedef struct mcd_contact_groups {
    int *root;     /* nbody: the ancestor whose parent is the world */
    int *uf;       /* nbody: union-find parent of a touched root, -1 untouched */
    int *group_of; /* nbody: group of a class representative, -1 */
    int *touched;  /* the roots touched by the current partition */
    int ntouched;
} mcd_contact_groups;

/* A growable array of doubles (contact_ws.c): grown, never shrunk, by
 * mcd_contact_reserve when a step needs more (the only allocation of a
 * step, and only of a step that needs more than any before). */
typedef struct mcd_contact_buf {
    double *p;
    size_t n;
} mcd_contact_buf;

struct mcd_contact_ws {
    int max_contacts, max_nf, max_pts, max_rows, max_mlcp;
    int nb;            /* closure rows (model) */
    int nc, nf;        /* contacts and MLCP directions of the current step */
    int npts, nrows;   /* points and rows of the current step */
    mcd_osc_rows rows; /* Lambda rows: linear unless closures need angular rows */
    double dt;
    mcd_osc_point *pts; /* closure points, then A (and B) of each contact */
    int *row_pa, *row_pb;
    double *coef;         /* 6 per row */
    double *pt_vel;       /* 6 per point */
    double *nu_minus;     /* per row: G qd */
    double *nu_free;      /* per row: G (qd + dt qdd_free) */
    double *qd_free;      /* nv */
    double *frame;        /* 9 per contact: rows f, o, eta */
    double *theta;        /* max_nf per contact: direction angles in (f, o) */
    double *mu;           /* per contact */
    double *fc_q;         /* per row: nu_free with the normal targets folded in */
    double *impulse;      /* per row: [p_b; (F_n, F_f, F_o) per contact] */
    double *prior;        /* per row: impact impulse added before the solve (contact_impact.c) */
    double *nu_plus;      /* per row: G qd+ after the velocity update (contact_correction.c) */
    double *corr;         /* per row: pseudo-impulses of the position correction */
    double *out_impulse;  /* 3 per contact: (F_f, F_o, F_n) */
    double *out_velocity; /* 3 per contact: (nu_f, nu_o, nu_n) before the step */
    double *F_pts;        /* 6 per point */
    double *dq;           /* nv */
    /* groups of the current step (contact_groups.c, contact_setup.c) */
    mcd_contact_groups grp;
    int ng;                 /* groups */
    int *row_group;         /* per row: its group */
    int *order;             /* rows in group order: each group's closure rows, then its contacts */
    int *g_start;           /* ng + 1: group g's rows are order[g_start[g] .. g_start[g + 1]) */
    int *g_nb;              /* per group: closure rows */
    int *g_c0;              /* per group: its first contact in group order */
    size_t *g_W0;           /* per group: offset of its W block in Wg */
    int *g_corrects;        /* per group: the position step corrects it (contact_correction.c) */
    int *pt_local;          /* per point: index in the group being set up, -1 */
    mcd_osc_point *gpts;    /* the group's points */
    int *g_pa, *g_pb;       /* the group's rows: local point indices */
    double *g_coef;         /* the group's rows: 6 coefficients each */
    double *g_work;         /* 9 per row: the closed form of a free body's W */
    double *g_q, *g_mu;     /* per row / contact in group order: the group problems' q and mu */
    double *g_theta;        /* max_nf per contact in group order */
    mcd_contact_buf Lambda; /* (r npts)^2 of the largest group */
    mcd_contact_buf Wg;     /* sum over groups of n_g^2: W_g = X_g Lambda_g X_g^T */
    mcd_contact_buf W;      /* nrows^2: the whole W, assembled on demand (whole_valid) */
    int whole_valid;
    mcd_contact_buf M, WT, mq, mlo, mhi; /* MLCP of the problem asked for last */
};

/* A contact's three problem rows (F_n, F_f, F_o) as outputs along the
 * frame's axes (F_f, F_o, F_n) (contact.h: mcd_contact_row, _axis). */
static inline void mcd_contact_rows_to_axes(const double *row, double *axis)
{
    axis[MCD_AXIS_F] = row[MCD_ROW_F];
    axis[MCD_AXIS_O] = row[MCD_ROW_O];
    axis[MCD_AXIS_N] = row[MCD_ROW_N];
}

/* Grows b to hold at least n doubles; MCD_ERR_NOMEM on failure (b kept). */
mcd_status mcd_contact_reserve(mcd_contact_buf *b, size_t n);

/* root[k] for every body of m. */
void mcd_contact_roots(const mcd_model *m, int *root);
/* Groups of nrows rows with points pts: row_group[i] in [0, ng), numbered
 * in order of their first row; returns ng. g->uf and g->group_of must be
 * -1 on every root (as left by the previous call). */
int mcd_contact_partition(mcd_contact_groups *g, int nrows, const mcd_osc_point *pts,
                          const int *row_pa, const int *row_pb, int *row_group);

/* Row values c . (V_A - V_B) of the step's rows for the joint velocities
 * qd (kinematics of the set-up in d; contact_setup.c). */
mcd_status mcd_contact_row_velocities(const mcd_model *m, mcd_data *d, mcd_contact_ws *w,
                                      const double *qd, double *out);

/* Q^T of the per-row values rows (nrows) into the per-point forces F_pts,
 * then M^{-1} of them into dqd (nv), O(N) (contact_problem.c). */
mcd_status mcd_contact_apply_rows(const mcd_model *m, mcd_data *d, mcd_contact_ws *w,
                                  const double *rows, double *dqd);

/* The position correction's MLCP buffers for the step's largest group,
 * grown in the set-up as the other group blocks (contact_correction.c). */
mcd_status mcd_contact_correction_reserve(mcd_contact_ws *w);

/* The whole W (nrows^2) from the groups' blocks, zero between groups. */
mcd_status mcd_contact_assemble_whole(mcd_contact_ws *w);

/* A problem's rows: nb closure rows, then nc contacts (rows n, f, o in
 * mcd_contact_row order), row[l] the step row of its local row l (NULL:
 * the identity) and W its block (n x n row-major, n = nb + 3 nc). */
typedef struct mcd_contact_block {
    int nb, nc;
    const int *row;
    const double *W;
} mcd_contact_block;

/* Group g's rows and W block (pointers into w, valid until the next
 * set-up); g = -1: the whole problem, its W assembled
 * (mcd_contact_assemble_whole). MCD_ERR_ARG for g out of range,
 * MCD_ERR_NOMEM when the whole W cannot be assembled (contact_groups.c). */
mcd_status mcd_contact_block_of(mcd_contact_ws *w, int g, mcd_contact_block *out);
/* The step row of block b's local row l. */
static inline int mcd_contact_block_row(const mcd_contact_block *b, int l)
{
    return b->row ? b->row[l] : l;
}
/* The step index of block b's contact j. */
int mcd_contact_block_contact(const mcd_contact_ws *w, const mcd_contact_block *b, int j);

/* Contact frame (rows f, o, eta) from the unit normal eta. */
void mcd_contact_frame_from_normal(const double eta[3], double frame[9]);

#endif

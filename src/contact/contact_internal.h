/* Private: the contact workspace shared by the files of src/contact. */
#ifndef MCDYN_SRC_CONTACT_INTERNAL_H
#define MCDYN_SRC_CONTACT_INTERNAL_H

#include "mcdyn/contact.h"
#include "mcdyn/osc.h"

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
    double *Lambda;       /* (6 max_pts)^2 */
    double *W;            /* max_rows^2: X Lambda X^T */
    double *pt_vel;       /* 6 per point */
    double *nu_minus;     /* per row: G qd */
    double *nu_free;      /* per row: G (qd + dt qdd_free) */
    double *qd_free;      /* nv */
    double *frame;        /* 9 per contact: rows f, o, eta */
    double *theta;        /* max_nf per contact: direction angles in (f, o) */
    double *mu;           /* per contact */
    double *fc_q;         /* per row: nu_free with the normal targets folded in */
    mcd_mlcp mlcp;        /* arrays of max_mlcp (M: max_mlcp^2) */
    double *WT;           /* max_rows x max_mlcp scratch */
    double *impulse;      /* per row: [p_b; (F_n, F_f, F_o) per contact] */
    double *prior;        /* per row: impact impulse added before the solve (contact_impact.c) */
    double *out_impulse;  /* 3 per contact: (F_f, F_o, F_n) */
    double *out_velocity; /* 3 per contact: (nu_f, nu_o, nu_n) before the step */
    double *F_pts;        /* 6 per point */
    double *dq;           /* nv */
};

/* Contact frame (rows f, o, eta) from the unit normal eta. */
void mcd_contact_frame_from_normal(const double eta[3], double frame[9]);

#endif

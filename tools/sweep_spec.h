/* A sweep file (docs/scale-out.md): a base scenario, overrides shared by
 * every case, grid axes and random variables over scenario keys addressed
 * by path (mcd_scenario_load_with), and what to record per case.
 *
 * Cases are numbered 0 .. ncase-1: case i is grid point i / samples (axes in
 * file order, the first varying slowest) with random sample i % samples.
 * Sample j draws the same values at every grid point (common random
 * numbers: a grid axis compares like with like). */
#ifndef MCDYN_TOOLS_SWEEP_SPEC_H
#define MCDYN_TOOLS_SWEEP_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "mcdyn/scenario.h"

/* The most cases a sweep may have. */
#define SWEEP_MAX_CASES 100000000L

/* One grid axis: path takes each of the values (scalars as written). */
typedef struct sweep_axis {
    char *path;
    char **value;
    int nvalue;
} sweep_axis;

typedef enum sweep_dist {
    SWEEP_UNIFORM = 0, /* uniform on [a, b), a < b */
    SWEEP_NORMAL       /* normal, mean a, standard deviation b > 0 */
} sweep_dist;

/* One random variable. */
typedef struct sweep_random {
    char *path;
    sweep_dist dist;
    double a, b;
} sweep_random;

typedef struct sweep_spec {
    char *scenario;             /* the base scenario, resolved against the sweep file's directory */
    uint64_t fingerprint;       /* FNV-1a of the sweep file's and the scenario's bytes */
    mcd_scenario_override *set; /* overrides of every case (paths and values owned) */
    int nset;
    sweep_axis *axis;
    int naxis;
    sweep_random *random;
    int nrandom;
    uint64_t seed;
    long samples;  /* random samples per grid point (1 without random variables) */
    long ncase;    /* grid points times samples */
    char **column; /* CSV columns recorded at the end, and their minimum and maximum */
    int ncolumn;
    char *trajectories; /* directory of each case's trajectory, NULL: none */
    int trajectory_h5;  /* 1: HDF5 logs (log.h), 0: CSV files */
} sweep_spec;

/* Reads the sweep file at path strictly. Returns 0, or -1 with
 * "path:line:column: key 'K': what is wrong" (or a file error) in msg. */
int sweep_spec_load(const char *path, sweep_spec *sp, char *msg, size_t len);
void sweep_spec_free(sweep_spec *sp);

/* The varied paths in summary order: the grid axes, then the random
 * variables; k in [0, naxis + nrandom). */
const char *sweep_spec_varied_path(const sweep_spec *sp, int k);

#endif

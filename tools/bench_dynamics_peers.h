/* The peer table of `mcdyn bench dynamics`: mcdyn against Bullet's
 * btMultiBody on the revolute chains (bench_bullet.h) and against MuJoCo
 * on robot URDFs (bench_mujoco_robot.h), at the same random state, each
 * pair cross-checked before it is timed. */
#ifndef MCDYN_TOOLS_BENCH_DYNAMICS_PEERS_H
#define MCDYN_TOOLS_BENCH_DYNAMICS_PEERS_H

#include "mcdyn/model.h"

/* Values of a pair must agree to this, ||a - b||_inf / max(1, ||b||_inf),
 * before the pair is timed. */
#define BENCH_PEER_TOLERANCE 1e-9

/* ||a - b||_inf / max(1, ||b||_inf) over n entries (infinity if NaN). */
double bench_peer_difference(const double *a, const double *b, int n);

/* Prints what the table shows and its column headers. */
void bench_peers_header(void);

/* One row: forward dynamics of m (a fixed-base chain of one-axis joints)
 * by mcdyn and by Bullet. Returns 0, or 1 when a call or the cross-check
 * fails (a note is printed instead of the row when Bullet is absent). */
int bench_peers_bullet(const char *label, const mcd_model *m, int samples);

/* Three rows: forward dynamics, inverse dynamics and the mass matrix of m,
 * loaded from the URDF at path, by mcdyn and by MuJoCo. Returns 0, or 1
 * when a call or a cross-check fails. */
int bench_peers_mujoco(const char *label, const char *path, int floating_base, const mcd_model *m,
                       int samples);

/* Fills q (nq), and qd, qdd, tau (nv each) with a reproducible random
 * state: q = neutral (+) a random velocity over 1 s, the rest uniform in
 * [-1, 1]. */
mcd_status bench_random_state(const mcd_model *m, double *q, double *qd, double *qdd, double *tau);

#endif

/* The MuJoCo side of `mcdyn bench dynamics` and `mcdyn bench lambda`: a
 * robot's URDF loaded into MuJoCo 2.2.2 as its twin, with the dynamics
 * exactly as the URDF describes them (tests/mujoco/mujoco_urdf.h, shared
 * with the MuJoCo cross-check test), and MuJoCo's own routines for the
 * quantities mcdyn computes. Compiled only when MuJoCo is found
 * (MCDYN_HAVE_MUJOCO).
 *
 * Passive forces and constraints are disabled (mjDSBL_PASSIVE,
 * mjDSBL_CONSTRAINT), as mcdyn's dynamics has neither. Every timed call
 * starts from qpos and qvel, as mcdyn's calls start from q and qd:
 *   forward dynamics  mj_kinematics, mj_comPos, mj_crb, mj_factorM, mj_comVel,
 *                     mj_rne (bias), qacc = mj_solveM(qfrc_applied - bias)
 *                     (what mj_forward computes without constraints, minus
 *                     its collision, tendon, actuator and sensor stages)
 *   inverse dynamics  mj_kinematics, mj_comPos, mj_comVel, mj_rne with qacc
 *   mass matrix       mj_kinematics, mj_comPos, mj_crb, mj_fullM (dense, as mcdyn)
 *   compliance        mj_kinematics, mj_comPos, mj_crb, mj_factorM, mj_jac per
 *                     point, X = mj_solveM2(J^T) (X^T X = J M^-1 J^T), X X^T
 *                     (the factor-and-solve path of mj_projectConstraint)
 * Results are read back in mcdyn's coordinate order (coordinate_map.h).
 */
#ifndef MCDYN_TOOLS_BENCH_MUJOCO_ROBOT_H
#define MCDYN_TOOLS_BENCH_MUJOCO_ROBOT_H

#include "mcdyn/model.h"

typedef struct bench_mujoco_robot bench_mujoco_robot;

/* Loads the URDF at path (the file m was loaded from, with the same
 * floating_base) into MuJoCo; mass_floor as in mujoco_urdf_options. Returns
 * 0, or -1 with a message in msg (msglen bytes). */
int bench_mujoco_robot_load(const char *path, int floating_base, double mass_floor,
                            const mcd_model *m, bench_mujoco_robot **out, char *msg, int msglen);
void bench_mujoco_robot_free(bench_mujoco_robot *r);

/* Copies a state in mcdyn's order into MuJoCo: q (nq), qd, qdd and tau (nv;
 * qdd and tau may be NULL). */
void bench_mujoco_set_state(bench_mujoco_robot *r, const double *q, const double *qd,
                            const double *qdd, const double *tau);

/* The timed calls (see above). */
void bench_mujoco_forward_dynamics(bench_mujoco_robot *r);
void bench_mujoco_inverse_dynamics(bench_mujoco_robot *r);
void bench_mujoco_mass_matrix(bench_mujoco_robot *r);

/* Their results in mcdyn's order: qdd (nv), tau (nv), M (nv x nv). */
void bench_mujoco_get_qdd(const bench_mujoco_robot *r, double *qdd);
void bench_mujoco_get_tau(const bench_mujoco_robot *r, double *tau);
void bench_mujoco_get_mass_matrix(const bench_mujoco_robot *r, double *M);

/* Sets K points (K <= 16) for the compliance: point k at world position
 * x[3k .. 3k+2] on mcdyn body body[k], found in MuJoCo by its name. Returns
 * 0, or -1 with a message in msg. */
int bench_mujoco_set_points(bench_mujoco_robot *r, const mcd_model *m, int K, const int *body,
                            const double *x, char *msg, int msglen);
/* The timed compliance J M^-1 J^T of the points' linear velocities. */
void bench_mujoco_compliance(bench_mujoco_robot *r);
/* Its 3K x 3K result, row-major, point by point as mcdyn's MCD_OSC_LINEAR. */
void bench_mujoco_get_compliance(const bench_mujoco_robot *r, double *Lambda);

#endif

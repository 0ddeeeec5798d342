/* The Bullet side of `mcdyn bench dynamics`: a fixed-base tree of revolute
 * and prismatic joints as a btMultiBody of Debian's double-precision Bullet
 * (BulletDynamics-float64), and its articulated-body forward dynamics,
 * btMultiBody::computeAccelerationsArticulatedBodyAlgorithmMultiDof.
 * Compiled only when Bullet's dynamics library is found
 * (MCDYN_HAVE_BULLET_DYNAMICS). Plain C types only: bench_bullet_model.h
 * fills the links from an mcd_model.
 *
 * The multibody has no damping (btMultiBody's default linear and angular
 * damping of 0.04 is set to 0), keeps its gyroscopic term (the physics),
 * and receives gravity as a force m g at every link's centre of mass, as
 * btMultiBodyDynamicsWorld applies it. Bullet places each link frame at its
 * centre of mass with the body's axes, and takes a diagonal inertia there.
 */
#ifndef MCDYN_TOOLS_BENCH_BULLET_H
#define MCDYN_TOOLS_BENCH_BULLET_H

#ifdef __cplusplus
extern "C" {
#endif

/* One link and the joint to its parent. */
typedef struct bench_bullet_link {
    int parent;        /* parent link, -1 for the fixed base (at the world origin); < own index */
    int prismatic;     /* 0: revolute */
    double R[9];       /* joint frame in the parent body frame at q = 0, row-major rotation */
    double p[3];       /* ... and origin [m] */
    double axis[3];    /* unit joint axis in the body frame */
    double mass;       /* [kg], > 0 */
    double com[3];     /* centre of mass in the body frame [m] */
    double inertia[3]; /* principal moments about the centre of mass along the body axes */
    double link_force[3]; /* force at the centre of mass, world frame (m g) [N] */
} bench_bullet_link;

typedef struct bench_bullet_multibody bench_bullet_multibody;

/* Builds the multibody of n links (n >= 1). Returns 0, or -1 with a message
 * in msg (msglen bytes) when Bullet cannot be set up. */
int bench_bullet_make(const bench_bullet_link *links, int n, bench_bullet_multibody **out,
                      char *msg, int msglen);
void bench_bullet_free(bench_bullet_multibody *b);

/* Joint accelerations qdd (n entries) at joint positions q, velocities qd
 * and joint forces tau (n entries each). Timed by the benchmark as a whole:
 * setting the state (setJointPos updates Bullet's cached link rotations and
 * offsets, its kinematics), the joint forces, and one call of the
 * articulated-body algorithm with dt = 0 (no velocity update). */
void bench_bullet_forward_dynamics(bench_bullet_multibody *b, const double *q, const double *qd,
                                   const double *tau, double *qdd);

#ifdef __cplusplus
}
#endif
#endif

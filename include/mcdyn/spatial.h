/* mcdyn — spatial algebra in Jain's spatial-operator convention.
 *
 * Conventions (docs/theory/spatial-operators.md has the derivations):
 *  - 3-vectors are double[3]; 3x3 matrices are row-major double[9].
 *  - A pose (R, p) of frame c in frame a: x_a = R x_c + p. The columns of R
 *    are c's axes in a's coordinates; p is c's origin in a's coordinates.
 *  - Spatial velocity (motion) V = [w; v]: angular velocity, then the linear
 *    velocity of the frame origin, both in the frame's own coordinates.
 *  - Spatial force f = [n; F]: moment about the frame origin, then force.
 *  - Jain's rigid-body transformation operator for a pose (R, p) of c in a:
 *        phi(a,c) = [[R, p~ R], [0, R]]          (6x6, acts on forces)
 *    forces:  f_a = phi(a,c) f_c;   velocities: V_c = phi(a,c)^T V_a;
 *    spatial inertias: M_a = phi(a,c) M_c phi(a,c)^T.
 *  - Spatial inertia about a frame origin, mass m, centre of mass c and
 *    rotational inertia J_o about the origin:  M = [[J_o, m c~], [-m c~, m I]].
 *  - Unit quaternions are [w, x, y, z] (Hamilton); R(q) maps the rotated
 *    frame's coordinates to the reference frame's.
 *
 * Everything here is static inline, allocation-free and branch-light.
 */
#ifndef MCDYN_SPATIAL_H
#define MCDYN_SPATIAL_H

#include <math.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#define MCD_RESTRICT __restrict
#else
#define MCD_RESTRICT restrict
#endif

/* ---- 3-vectors ---------------------------------------------------------- */

static inline void mcd_v3_set(double r[3], double x, double y, double z)
{
    r[0] = x;
    r[1] = y;
    r[2] = z;
}
static inline void mcd_v3_copy(double r[3], const double a[3])
{
    memcpy(r, a, 3 * sizeof(double));
}
static inline double mcd_v3_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline double mcd_v3_norm(const double a[3])
{
    return sqrt(mcd_v3_dot(a, a));
}
static inline void mcd_v3_add(double r[3], const double a[3], const double b[3])
{
    r[0] = a[0] + b[0];
    r[1] = a[1] + b[1];
    r[2] = a[2] + b[2];
}
static inline void mcd_v3_sub(double r[3], const double a[3], const double b[3])
{
    r[0] = a[0] - b[0];
    r[1] = a[1] - b[1];
    r[2] = a[2] - b[2];
}
static inline void mcd_v3_scale(double r[3], const double a[3], double s)
{
    r[0] = a[0] * s;
    r[1] = a[1] * s;
    r[2] = a[2] * s;
}
/* r += s a */
static inline void mcd_v3_axpy(double r[3], double s, const double a[3])
{
    r[0] += s * a[0];
    r[1] += s * a[1];
    r[2] += s * a[2];
}
/* r = a x b (r may not alias a or b) */
static inline void mcd_v3_cross(double r[3], const double a[3], const double b[3])
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}
static inline int mcd_v3_isfinite(const double a[3])
{
    return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]);
}

/* ---- 3x3 matrices (row-major) ------------------------------------------ */

static inline void mcd_m3_identity(double R[9])
{
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memcpy(R, I, sizeof I);
}
/* r = A x */
static inline void mcd_m3_mul_v(double r[3], const double A[9], const double x[3])
{
    r[0] = A[0] * x[0] + A[1] * x[1] + A[2] * x[2];
    r[1] = A[3] * x[0] + A[4] * x[1] + A[5] * x[2];
    r[2] = A[6] * x[0] + A[7] * x[1] + A[8] * x[2];
}
/* r = A^T x */
static inline void mcd_m3t_mul_v(double r[3], const double A[9], const double x[3])
{
    r[0] = A[0] * x[0] + A[3] * x[1] + A[6] * x[2];
    r[1] = A[1] * x[0] + A[4] * x[1] + A[7] * x[2];
    r[2] = A[2] * x[0] + A[5] * x[1] + A[8] * x[2];
}
/* C = A B (C may not alias) */
static inline void mcd_m3_mul(double C[9], const double A[9], const double B[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}
/* C = A^T B (C may not alias) */
static inline void mcd_m3t_mul(double C[9], const double A[9], const double B[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            C[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
}
/* C = A B^T (C may not alias) */
static inline void mcd_m3_mul_t(double C[9], const double A[9], const double B[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            C[3 * i + j] =
                A[3 * i] * B[3 * j] + A[3 * i + 1] * B[3 * j + 1] + A[3 * i + 2] * B[3 * j + 2];
}
static inline void mcd_m3_transpose(double T[9], const double A[9])
{
    T[0] = A[0], T[1] = A[3], T[2] = A[6];
    T[3] = A[1], T[4] = A[4], T[5] = A[7];
    T[6] = A[2], T[7] = A[5], T[8] = A[8];
}
/* S = a~, the skew-symmetric matrix with a~ x = a x x */
static inline void mcd_m3_skew(double S[9], const double a[3])
{
    S[0] = 0, S[1] = -a[2], S[2] = a[1];
    S[3] = a[2], S[4] = 0, S[5] = -a[0];
    S[6] = -a[1], S[7] = a[0], S[8] = 0;
}
/* B = R A R^T for symmetric A (B may not alias); 45 multiplications. */
static inline void mcd_m3_rotate_sym(double *MCD_RESTRICT B, const double *MCD_RESTRICT R,
                                     const double *MCD_RESTRICT A)
{
    double T[9];
    mcd_m3_mul(T, R, A);
    for (int i = 0; i < 3; i++)
        for (int j = i; j < 3; j++)
            B[3 * i + j] = B[3 * j + i] =
                T[3 * i] * R[3 * j] + T[3 * i + 1] * R[3 * j + 1] + T[3 * i + 2] * R[3 * j + 2];
}

/* Rotation about a unit axis by angle (Rodrigues). */
static inline void mcd_m3_axis_angle(double R[9], const double u[3], double angle)
{
    double c = cos(angle), s = sin(angle), t = 1.0 - c;
    double x = u[0], y = u[1], z = u[2];
    R[0] = t * x * x + c, R[1] = t * x * y - s * z, R[2] = t * x * z + s * y;
    R[3] = t * x * y + s * z, R[4] = t * y * y + c, R[5] = t * y * z - s * x;
    R[6] = t * x * z - s * y, R[7] = t * y * z + s * x, R[8] = t * z * z + c;
}

/* Rotation from URDF roll-pitch-yaw: R = Rz(yaw) Ry(pitch) Rx(roll). */
static inline void mcd_m3_rpy(double R[9], double roll, double pitch, double yaw)
{
    double cr = cos(roll), sr = sin(roll), cp = cos(pitch), sp = sin(pitch);
    double cy = cos(yaw), sy = sin(yaw);
    R[0] = cy * cp, R[1] = cy * sp * sr - sy * cr, R[2] = cy * sp * cr + sy * sr;
    R[3] = sy * cp, R[4] = sy * sp * sr + cy * cr, R[5] = sy * sp * cr - cy * sr;
    R[6] = -sp, R[7] = cp * sr, R[8] = cp * cr;
}

/* ---- unit quaternions [w, x, y, z] -------------------------------------- */

static inline void mcd_quat_to_m3(double R[9], const double q[4])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = 1 - 2 * (x * x + y * y);
}
/* Unit quaternion of a rotation matrix (Shepperd's method, w >= 0). */
static inline void mcd_quat_from_m3(double q[4], const double R[9])
{
    double tr = R[0] + R[4] + R[8];
    if (tr > 0.0) {
        double s = 2.0 * sqrt(1.0 + tr);
        q[0] = 0.25 * s;
        q[1] = (R[7] - R[5]) / s;
        q[2] = (R[2] - R[6]) / s;
        q[3] = (R[3] - R[1]) / s;
    } else if (R[0] > R[4] && R[0] > R[8]) {
        double s = 2.0 * sqrt(1.0 + R[0] - R[4] - R[8]);
        q[0] = (R[7] - R[5]) / s;
        q[1] = 0.25 * s;
        q[2] = (R[1] + R[3]) / s;
        q[3] = (R[2] + R[6]) / s;
    } else if (R[4] > R[8]) {
        double s = 2.0 * sqrt(1.0 + R[4] - R[0] - R[8]);
        q[0] = (R[2] - R[6]) / s;
        q[1] = (R[1] + R[3]) / s;
        q[2] = 0.25 * s;
        q[3] = (R[5] + R[7]) / s;
    } else {
        double s = 2.0 * sqrt(1.0 + R[8] - R[0] - R[4]);
        q[0] = (R[3] - R[1]) / s;
        q[1] = (R[2] + R[6]) / s;
        q[2] = (R[5] + R[7]) / s;
        q[3] = 0.25 * s;
    }
    if (q[0] < 0)
        for (int i = 0; i < 4; i++) q[i] = -q[i];
}
/* r = a * b (Hamilton product; r may not alias) */
static inline void mcd_quat_mul(double r[4], const double a[4], const double b[4])
{
    r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}
static inline double mcd_quat_norm(const double q[4])
{
    return sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
}
/* Normalises q in place; returns 0 if q is zero or not finite. */
static inline int mcd_quat_normalize(double q[4])
{
    double n = mcd_quat_norm(q);
    if (!(n > 0.0) || !isfinite(n)) return 0;
    for (int i = 0; i < 4; i++) q[i] /= n;
    return 1;
}
/* q = exp(rotation vector theta / 2): the unit quaternion rotating by |theta|
 * about theta/|theta|. Exact for any |theta| (Taylor series near zero). */
static inline void mcd_quat_exp(double q[4], const double theta[3])
{
    double a = 0.5 * mcd_v3_norm(theta), s;
    if (a < 1e-8)
        s = 0.5 * (1.0 - a * a / 6.0); /* sin(a)/(2a) to O(a^4) */
    else
        s = 0.5 * sin(a) / a;
    q[0] = cos(a);
    q[1] = s * theta[0];
    q[2] = s * theta[1];
    q[3] = s * theta[2];
}
/* theta = log(q): rotation vector of the unit quaternion q (shortest arc). */
static inline void mcd_quat_log(double theta[3], const double q[4])
{
    double w = q[0], vn = sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double sgn = w < 0 ? -1.0 : 1.0;
    double angle = 2.0 * atan2(vn, fabs(w)); /* in [0, pi] */
    double k = vn < 1e-12 ? 2.0 * sgn / (fabs(w) > 0 ? fabs(w) : 1.0) : sgn * angle / vn;
    theta[0] = k * q[1];
    theta[1] = k * q[2];
    theta[2] = k * q[3];
}

/* ---- poses -------------------------------------------------------------- */

/* A rigid pose of a child frame c in a parent frame a: x_a = R x_c + p. */
typedef struct mcd_pose {
    double R[9];
    double p[3];
} mcd_pose;

static inline void mcd_pose_identity(mcd_pose *X)
{
    mcd_m3_identity(X->R);
    X->p[0] = X->p[1] = X->p[2] = 0.0;
}
/* ac = ab * bc (pose of c in a from b in a and c in b; ac may not alias) */
static inline void mcd_pose_mul(mcd_pose *ac, const mcd_pose *ab, const mcd_pose *bc)
{
    mcd_m3_mul(ac->R, ab->R, bc->R);
    mcd_m3_mul_v(ac->p, ab->R, bc->p);
    mcd_v3_add(ac->p, ac->p, ab->p);
}
/* inverse pose (ia may not alias) */
static inline void mcd_pose_inv(mcd_pose *ia, const mcd_pose *a)
{
    mcd_m3_transpose(ia->R, a->R);
    mcd_m3_mul_v(ia->p, ia->R, a->p);
    mcd_v3_scale(ia->p, ia->p, -1.0);
}
/* r = X x (a point of c expressed in a) */
static inline void mcd_pose_apply(double r[3], const mcd_pose *X, const double x[3])
{
    mcd_m3_mul_v(r, X->R, x);
    mcd_v3_add(r, r, X->p);
}

/* ---- spatial vectors: motion [w; v], force [n; F] ----------------------- */

/* Velocity of the parent (a) expressed in the child (c): V_c = phi(a,c)^T V_a.
 * Vc may not alias Va. */
static inline void mcd_motion_to_child(double Vc[6], const mcd_pose *X, const double Va[6])
{
    double t[3];
    mcd_m3t_mul_v(Vc, X->R, Va);    /* w_c = R^T w_a */
    mcd_v3_cross(t, Va, X->p);      /* w_a x p        */
    mcd_v3_add(t, t, Va + 3);       /* v_a + w_a x p  */
    mcd_m3t_mul_v(Vc + 3, X->R, t); /* R^T (...)      */
}
/* Force of the child (c) expressed in the parent (a): f_a = phi(a,c) f_c.
 * fa may not alias fc. */
static inline void mcd_force_to_parent(double fa[6], const mcd_pose *X, const double fc[6])
{
    double n[3];
    mcd_m3_mul_v(fa + 3, X->R, fc + 3); /* F_a = R F_c          */
    mcd_m3_mul_v(n, X->R, fc);          /* R n_c                */
    mcd_v3_cross(fa, X->p, fa + 3);     /* p x F_a              */
    mcd_v3_add(fa, fa, n);              /* n_a = R n_c + p x F_a */
}
/* Motion of the child (c) expressed in the parent (a): V_a = phi(a,c)^{-T} V_c.
 * Va may not alias Vc. */
static inline void mcd_motion_to_parent(double Va[6], const mcd_pose *X, const double Vc[6])
{
    double t[3];
    mcd_m3_mul_v(Va, X->R, Vc);     /* w_a = R w_c        */
    mcd_m3_mul_v(t, X->R, Vc + 3);  /* R v_c              */
    mcd_v3_cross(Va + 3, X->p, Va); /* p x w_a            */
    mcd_v3_sub(Va + 3, t, Va + 3);  /* v_a = R v_c - p x w_a */
}
/* Force of the parent (a) expressed in the child (c): f_c = phi(a,c)^{-1} f_a. */
static inline void mcd_force_to_child(double fc[6], const mcd_pose *X, const double fa[6])
{
    double n[3];
    mcd_v3_cross(n, X->p, fa + 3); /* p x F_a            */
    mcd_v3_sub(n, fa, n);          /* n_a - p x F_a      */
    mcd_m3t_mul_v(fc, X->R, n);
    mcd_m3t_mul_v(fc + 3, X->R, fa + 3);
}
/* Motion cross product r = V x m (Featherstone's crm): [w x mw; w x mv + v x mw]. */
static inline void mcd_motion_cross(double r[6], const double V[6], const double m[6])
{
    double t[3];
    mcd_v3_cross(r, V, m);
    mcd_v3_cross(r + 3, V, m + 3);
    mcd_v3_cross(t, V + 3, m);
    mcd_v3_add(r + 3, r + 3, t);
}
/* Force cross product r = V x* f (Featherstone's crf): [w x n + v x F; w x F]. */
static inline void mcd_force_cross(double r[6], const double V[6], const double f[6])
{
    double t[3];
    mcd_v3_cross(r, V, f);
    mcd_v3_cross(t, V + 3, f + 3);
    mcd_v3_add(r, r, t);
    mcd_v3_cross(r + 3, V, f + 3);
}

/* ---- symmetric 6x6 matrices (spatial and articulated inertias) ---------- */

/* M = [[A, B], [B^T, C]] with A, C symmetric; rows and columns ordered [w; v]. */
typedef struct mcd_sym6 {
    double A[9], B[9], C[9];
} mcd_sym6;

static inline void mcd_sym6_zero(mcd_sym6 *M)
{
    memset(M, 0, sizeof *M);
}

/* Rigid-body spatial inertia about the frame origin, from mass m, centre of
 * mass c and rotational inertia Jc about the centre of mass (frame axes). */
static inline void mcd_sym6_rigid(mcd_sym6 *M, double m, const double c[3], const double Jc[9])
{
    double cx = c[0], cy = c[1], cz = c[2];
    /* J_o = J_c - m c~ c~  (parallel-axis theorem) */
    M->A[0] = Jc[0] + m * (cy * cy + cz * cz);
    M->A[4] = Jc[4] + m * (cx * cx + cz * cz);
    M->A[8] = Jc[8] + m * (cx * cx + cy * cy);
    M->A[1] = M->A[3] = Jc[1] - m * cx * cy;
    M->A[2] = M->A[6] = Jc[2] - m * cx * cz;
    M->A[5] = M->A[7] = Jc[5] - m * cy * cz;
    /* B = m c~ */
    M->B[0] = M->B[4] = M->B[8] = 0.0;
    M->B[1] = -cz * m, M->B[2] = cy * m;
    M->B[3] = cz * m, M->B[5] = -cx * m;
    M->B[6] = -cy * m, M->B[7] = cx * m;
    memset(M->C, 0, sizeof M->C);
    M->C[0] = M->C[4] = M->C[8] = m;
}
/* A rigid-body spatial inertia in 10 numbers (80 bytes instead of the 216
 * of its mcd_sym6): M = [[J_o, m c~], [-m c~, m 1]] about a frame origin,
 * with J_o = J_c - m c~ c~ the rotational inertia about that origin
 * (parallel-axis theorem) and h = m c the first moment of mass (Jain,
 * "Robot and Multibody Dynamics", Eq. 2.21; Featherstone, Eq. 2.63). The
 * entries are those mcd_sym6_rigid computes, so the functions below give
 * bitwise the results of the same operations on the mcd_sym6. */
typedef struct mcd_rigid_inertia {
    double J[6]; /* J_o, upper triangle by rows: xx, xy, xz, yy, yz, zz */
    double h[3]; /* m c */
    double m;    /* mass */
} mcd_rigid_inertia;

/* M about the frame origin from mass m, centre of mass c and rotational
 * inertia Jc about the centre of mass (frame axes), as mcd_sym6_rigid. */
static inline void mcd_rigid_inertia_make(mcd_rigid_inertia *M, double m, const double c[3],
                                          const double Jc[9])
{
    double cx = c[0], cy = c[1], cz = c[2];
    M->J[0] = Jc[0] + m * (cy * cy + cz * cz);
    M->J[3] = Jc[4] + m * (cx * cx + cz * cz);
    M->J[5] = Jc[8] + m * (cx * cx + cy * cy);
    M->J[1] = Jc[1] - m * cx * cy;
    M->J[2] = Jc[2] - m * cx * cz;
    M->J[4] = Jc[5] - m * cy * cz;
    M->h[0] = cx * m, M->h[1] = cy * m, M->h[2] = cz * m;
    M->m = m;
}
/* The full mcd_sym6 of M: A = J_o, B = m c~ = h~, C = m 1. */
static inline void mcd_rigid_inertia_to_sym6(mcd_sym6 *S, const mcd_rigid_inertia *M)
{
    const double *J = M->J, *h = M->h;
    S->A[0] = J[0], S->A[1] = J[1], S->A[2] = J[2];
    S->A[3] = J[1], S->A[4] = J[3], S->A[5] = J[4];
    S->A[6] = J[2], S->A[7] = J[4], S->A[8] = J[5];
    S->B[0] = 0.0, S->B[1] = -h[2], S->B[2] = h[1];
    S->B[3] = h[2], S->B[4] = 0.0, S->B[5] = -h[0];
    S->B[6] = -h[1], S->B[7] = h[0], S->B[8] = 0.0;
    for (int i = 0; i < 9; i++) S->C[i] = i % 4 == 0 ? M->m : 0.0;
}
/* r = M x without the products by the structural zeros of m c~ and m 1:
 * the sums of mcd_sym6_mul_v less their zero terms (r may not alias x). */
static inline void mcd_rigid_inertia_mul_v(double *MCD_RESTRICT r,
                                           const mcd_rigid_inertia *MCD_RESTRICT M,
                                           const double *MCD_RESTRICT x)
{
    const double *J = M->J, *h = M->h, m = M->m;
    r[0] = J[0] * x[0] + J[1] * x[1] + J[2] * x[2] + -h[2] * x[4] + h[1] * x[5];
    r[1] = J[1] * x[0] + J[3] * x[1] + J[4] * x[2] + h[2] * x[3] + -h[0] * x[5];
    r[2] = J[2] * x[0] + J[4] * x[1] + J[5] * x[2] + -h[1] * x[3] + h[0] * x[4];
    r[3] = h[2] * x[1] + -h[1] * x[2] + m * x[3];
    r[4] = -h[2] * x[0] + h[0] * x[2] + m * x[4];
    r[5] = h[1] * x[0] + -h[0] * x[1] + m * x[5];
}
/* r = M x (r may not alias x) */
static inline void mcd_sym6_mul_v(double *MCD_RESTRICT r, const mcd_sym6 *MCD_RESTRICT M,
                                  const double *MCD_RESTRICT x)
{
    const double *A = M->A, *B = M->B, *C = M->C;
    r[0] = A[0] * x[0] + A[1] * x[1] + A[2] * x[2] + B[0] * x[3] + B[1] * x[4] + B[2] * x[5];
    r[1] = A[3] * x[0] + A[4] * x[1] + A[5] * x[2] + B[3] * x[3] + B[4] * x[4] + B[5] * x[5];
    r[2] = A[6] * x[0] + A[7] * x[1] + A[8] * x[2] + B[6] * x[3] + B[7] * x[4] + B[8] * x[5];
    r[3] = B[0] * x[0] + B[3] * x[1] + B[6] * x[2] + C[0] * x[3] + C[1] * x[4] + C[2] * x[5];
    r[4] = B[1] * x[0] + B[4] * x[1] + B[7] * x[2] + C[3] * x[3] + C[4] * x[4] + C[5] * x[5];
    r[5] = B[2] * x[0] + B[5] * x[1] + B[8] * x[2] + C[6] * x[3] + C[7] * x[4] + C[8] * x[5];
}
/* r = a + b (r may be a) */
static inline void mcd_sym6_sum(mcd_sym6 *r, const mcd_sym6 *a, const mcd_sym6 *MCD_RESTRICT b)
{
    for (int i = 0; i < 9; i++) {
        r->A[i] = a->A[i] + b->A[i];
        r->B[i] = a->B[i] + b->B[i];
        r->C[i] = a->C[i] + b->C[i];
    }
}
/* a += b */
static inline void mcd_sym6_add(mcd_sym6 *MCD_RESTRICT a, const mcd_sym6 *MCD_RESTRICT b)
{
    for (int i = 0; i < 9; i++) {
        a->A[i] += b->A[i];
        a->B[i] += b->B[i];
        a->C[i] += b->C[i];
    }
}
/* a -= U Dinv U^T for an n-column U (6 x n, column k is U[6k .. 6k+5]) and
 * a symmetric n x n Dinv (row-major). */
static inline void mcd_sym6_sub_udu(mcd_sym6 *MCD_RESTRICT a, int n, const double *MCD_RESTRICT U,
                                    const double *MCD_RESTRICT Dinv)
{
    for (int k = 0; k < n; k++) {
        double w[6] = {0, 0, 0, 0, 0, 0}; /* w = sum_l Dinv_kl U_l */
        for (int l = 0; l < n; l++)
            for (int i = 0; i < 6; i++) w[i] += Dinv[n * k + l] * U[6 * l + i];
        const double *u = U + 6 * k;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                a->A[3 * i + j] -= w[i] * u[j];
                a->B[3 * i + j] -= w[i] * u[3 + j];
                a->C[3 * i + j] -= w[3 + i] * u[3 + j];
            }
    }
}
/* r = (a + b) - u u^T d for a scalar d (a one-column articulated-inertia
 * update) in one pass over the 27 entries, (a + b) - (d u) u^T entry by
 * entry; r may be a. */
static inline void mcd_sym6_sum_sub_uut(mcd_sym6 *r, const mcd_sym6 *a,
                                        const mcd_sym6 *MCD_RESTRICT b,
                                        const double *MCD_RESTRICT u, double d)
{
    for (int i = 0; i < 3; i++) {
        const double wa = d * u[i], wc = d * u[3 + i];
        for (int j = 0; j < 3; j++) {
            r->A[3 * i + j] = (a->A[3 * i + j] + b->A[3 * i + j]) - wa * u[j];
            r->B[3 * i + j] = (a->B[3 * i + j] + b->B[3 * i + j]) - wa * u[3 + j];
            r->C[3 * i + j] = (a->C[3 * i + j] + b->C[3 * i + j]) - wc * u[3 + j];
        }
    }
}

/* r = (M + b) - u u^T d for a rigid-body M (mcd_rigid_inertia) and a
 * scalar d: mcd_sym6_sum_sub_uut with a = M, without adding M's structural
 * zeros (the diagonal of m c~, the off-diagonal of m 1), which changes no
 * entry but the sign of an exact zero (0.0 + -0.0 is +0.0). */
static inline void mcd_sym6_rigid_sum_sub_uut(mcd_sym6 *MCD_RESTRICT r,
                                              const mcd_rigid_inertia *MCD_RESTRICT M,
                                              const mcd_sym6 *MCD_RESTRICT b,
                                              const double *MCD_RESTRICT u, double d)
{
    const double *J = M->J, *h = M->h;
    const double A[9] = {J[0], J[1], J[2], J[1], J[3], J[4], J[2], J[4], J[5]};
    double w[6];
    for (int i = 0; i < 6; i++) w[i] = d * u[i];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            r->A[3 * i + j] = (A[3 * i + j] + b->A[3 * i + j]) - w[i] * u[j];
            r->C[3 * i + j] = b->C[3 * i + j] - w[3 + i] * u[3 + j];
            r->B[3 * i + j] = b->B[3 * i + j] - w[i] * u[3 + j];
        }
    for (int i = 0; i < 3; i++) r->C[4 * i] = (M->m + b->C[4 * i]) - w[3 + i] * u[3 + i];
    /* B = m c~ = h~: the off-diagonal entries */
    r->B[1] = (-h[2] + b->B[1]) - w[0] * u[4];
    r->B[2] = (h[1] + b->B[2]) - w[0] * u[5];
    r->B[3] = (h[2] + b->B[3]) - w[1] * u[3];
    r->B[5] = (-h[0] + b->B[5]) - w[1] * u[5];
    r->B[6] = (-h[1] + b->B[6]) - w[2] * u[3];
    r->B[7] = (h[0] + b->B[7]) - w[2] * u[4];
}

/* Transform a child inertia to the parent: Ma = phi(a,c) Mc phi(a,c)^T
 * (Ma may not alias Mc). */
static inline void mcd_sym6_to_parent(mcd_sym6 *Ma, const mcd_pose *X, const mcd_sym6 *Mc)
{
    double A[9], B[9], C[9], P[9], T[9], U[9];
    /* rotate the three blocks: A' = R A R^T, B' = R B R^T, C' = R C R^T */
    mcd_m3_rotate_sym(A, X->R, Mc->A);
    mcd_m3_mul(T, X->R, Mc->B);
    mcd_m3_mul_t(B, T, X->R);
    mcd_m3_rotate_sym(C, X->R, Mc->C);
    /* translate: [[I, p~], [0, I]] M' [[I, 0], [-p~, I]] */
    mcd_m3_skew(P, X->p);
    mcd_m3_mul(T, P, C); /* p~ C' */
    for (int i = 0; i < 9; i++) Ma->B[i] = B[i] + T[i];
    mcd_m3_mul(U, B, P);     /* B' p~ */
    mcd_m3_mul(Ma->A, T, P); /* p~ C' p~ */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            /* A' - B' p~ + p~ B'^T - p~ C' p~ ; (p~ B'^T)_{ij} = -(B' p~)_{ji} */
            Ma->A[3 * i + j] = A[3 * i + j] - U[3 * i + j] - U[3 * j + i] - Ma->A[3 * i + j];
        }
    memcpy(Ma->C, C, sizeof C);
}

#ifdef __cplusplus
}
#endif
#endif

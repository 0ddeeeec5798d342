/* Private: recursion passes shared by the dynamics algorithms. Each pass
 * works on (model, data) arrays only; the public functions in dynamics.h
 * check inputs, then chain passes. */
#ifndef MCDYN_SRC_DYNAMICS_INTERNAL_H
#define MCDYN_SRC_DYNAMICS_INTERNAL_H

#include "mcdyn/dynamics.h"

#include <math.h>

/* The recursion passes have two builds in this library when it is
 * compiled for x86-64 by GCC or Clang: the portable one and the same C
 * compiled for AVX2 (wider vectors and three-operand instructions; no FMA,
 * which the AVX2 target does not enable, and no reassociation without
 * -ffast-math: the same roundings, so bit-identical results; tested by
 * tests/dynamics/test_isa_paths.c). mcd_data_create sets d->use_avx2 when
 * the CPU has AVX2 and MCDYN_PORTABLE is not set in the environment
 * (mcd_avx2_available). MCD_AVX2 marks a pass's AVX2 build: flatten
 * compiles the helpers it calls into it with the AVX2 target. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define MCD_HAVE_AVX2_PATH 1
#define MCD_AVX2           __attribute__((target("avx2"), flatten))
#else
#define MCD_HAVE_AVX2_PATH 0
#endif

/* 1 if the AVX2 builds can run here and MCDYN_PORTABLE is unset. */
int mcd_avx2_available(void);

/* MCD_AVX2_TWIN(name, params, args) defines name_avx2, the AVX2 build of
 * the pass `static void name params` (called with args); MCD_RUN(d, name,
 * args) calls the build d chose. */
#if MCD_HAVE_AVX2_PATH
#define MCD_AVX2_TWIN(name, params, args)                                                          \
    MCD_AVX2 static void name##_avx2 params                                                        \
    {                                                                                              \
        name args;                                                                                 \
    }
#define MCD_RUN(d, name, args) ((d)->use_avx2 ? name##_avx2 args : name args)
#else
#define MCD_AVX2_TWIN(name, params, args)
#define MCD_RUN(d, name, args) name args
#endif

/* Input checks: a NULL vector or a NaN/Inf entry is reported in d->err
 * naming the vector and the joint. */
mcd_status mcd_check_state(const mcd_model *m, mcd_data *d, const double *q);
mcd_status mcd_check_vector_nv(const mcd_model *m, mcd_data *d, const char *what, const double *v);
mcd_status mcd_check_fext(const mcd_model *m, mcd_data *d, const double *f_ext);

/* The hot part of one body for the recursion passes: the model's numbers
 * they read (copied from mcd_body, whose 536 bytes they would otherwise
 * touch in four cache lines) and what they may skip, fixed by the model and
 * found once by mcd_data_plan, in 128 bytes. A revolute hinge about a
 * coordinate axis +-e_axis of its joint frame turns two columns with one
 * sincos; a tree rotation that is exactly the identity needs no 3x3
 * product; an inertia about the centre of mass that is exactly diagonal
 * rotates with 27 multiplications instead of 45; a floating base's
 * translation columns need no products. Other hinges, tree rotations and
 * inertias are read from the model. */
typedef struct mcd_body_plan {
    int parent, qadr, vadr, nv; /* as mcd_body's */
    int axis;                   /* 0, 1, 2: revolute about +-e_axis; -1: any other hinge */
    int P_slot;                 /* where P(k) lives in d->P (mcd_aba_plan_slots) */
    int P_parent_slot;          /* where P(parent) lives, -1 at a root */
    int dinv_adr; /* D(k)^{-1} at d->Dinv + dinv_adr: the sum of nv^2 over the bodies before k */
    unsigned char free_joint;    /* the hinge is a free joint */
    unsigned char tree_identity; /* X_tree.R is exactly the identity */
    unsigned char inertia_diag;  /* mass.inertia has exact zeros off its diagonal */
    /* A free joint at the root whose joint frame does not turn (X_tree.R
     * exactly the identity): H^*'s translation columns are exactly [0; e_k],
     * so products with them are entries of the other factor. */
    unsigned char unit_translation;
    /* The articulated-body sweep starts P(k) = M(k) at a leaf and, for any
     * other body, when its highest-index child (the first one the sweep
     * visits) adds to it: no separate copy of M into P. */
    unsigned char leaf;          /* no children */
    unsigned char starts_parent; /* the highest-index child of its parent */
    double sign;                 /* the sign of the axis */
    double tree_p[3];            /* X_tree.p */
    double mass, com[3];         /* mass.mass, mass.com */
    double inertia_diagonal[3];  /* mass.inertia's diagonal, with inertia_diag */
} mcd_body_plan;
_Static_assert(sizeof(mcd_body_plan) == 128, "a plan is two cache lines");

/* The plans of m's bodies, into plan[0 .. nbody - 1] (kinematics.c),
 * all but the slots of P. */
void mcd_data_plan(const mcd_model *m, mcd_body_plan *plan);

/* The slots of P(k) in plan (articulated_body.c): P(k) is live from the
 * visit of its highest-index child (or its own visit, at a leaf) to its own
 * visit in the tip-to-base sweep; a slot is handed out when P(k) starts and
 * returned after k's visit, to a stack free_slots (nbody entries). Returns
 * the number of slots, at most nbody. */
int mcd_aba_plan_slots(const mcd_model *m, mcd_body_plan *plan, int *free_slots);

/* Base to tip: X_world, the hinge maps d->Hstar and the world inertias M(k)
 * from q. */
void mcd_kinematics_pass(const mcd_model *m, mcd_data *d, const double *q);

/* Base to tip: body velocities V and Coriolis accelerations a (needs the
 * kinematics pass). */
void mcd_velocity_pass(const mcd_model *m, mcd_data *d, const double *qd);

/* mcd_velocity_pass and the body forces where the articulated-body bias
 * sweep starts: z(k) = b(k) - f_ext(k), b(k) = V x* (M V) (f_ext NULL:
 * none). */
void mcd_velocity_bias_pass(const mcd_model *m, mcd_data *d, const double *qd, const double *f_ext);

/* mcd_kinematics_pass and mcd_velocity_bias_pass in one base-to-tip sweep
 * (the same results). */
void mcd_kinematics_velocity_bias_pass(const mcd_model *m, mcd_data *d, const double *q,
                                       const double *qd, const double *f_ext);

/* Articulated-body sweep, tip to base (Jain's innovations factorization):
 * P, D^{-1} and G = P H^* D^{-1} of every body. Needs the kinematics pass. Fails with
 * MCD_ERR_SINGULAR naming the joint when some D is not positive definite. */
mcd_status mcd_aba_inertia_pass(const mcd_model *m, mcd_data *d);

/* Tip to base: nu = D^{-1} eps, eps = T - H z (into d->nu), from generalized
 * forces tau (NULL: zero) and the forces already in bd.z (accumulated in
 * place), with no Coriolis accelerations (M^{-1} x). Needs the inertia
 * pass. */
void mcd_aba_bias_pass(const mcd_model *m, mcd_data *d, const double *tau);

/* mcd_aba_inertia_pass and the bias sweep with the Coriolis accelerations
 * bd.a (z+ = z + P+ a + G eps) in one tip-to-base sweep, the only one
 * that reads P(k) after its inertia step (forward dynamics). Fails as
 * mcd_aba_inertia_pass. */
mcd_status mcd_aba_inertia_bias_pass(const mcd_model *m, mcd_data *d, const double *tau);

/* Base to tip: accelerations qdd and bd.alpha, from the base acceleration
 * a_world (world coordinates, NULL for zero). */
void mcd_aba_accel_pass(const mcd_model *m, mcd_data *d, const double a_world[6], int with_a,
                        double *qdd);

/* Forward dynamics after the kinematics pass of q (mcd_forward_dynamics
 * without its argument checks and kinematics pass): the velocity pass, the
 * bias forces less f_ext (NULL: none), the three articulated-body sweeps;
 * qdd receives the accelerations. For callers that have made the
 * kinematics pass of the same q themselves and checked qd, tau and qdd. */
mcd_status mcd_forward_dynamics_after_kinematics(const mcd_model *m, mcd_data *d, const double *qd,
                                                 const double *tau, const double *f_ext,
                                                 double *qdd);

/* Records a warning in d->warn and counts it. */
void mcd_warn(mcd_data *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Inverse of a small symmetric positive-definite matrix (n <= 6,
 * row-major; only its upper triangle is read) by Cholesky; returns 0 if A
 * is not positive definite. */
int mcd_small_spd_inverse_n(int n, const double *A, double *Ainv);
static inline int mcd_small_spd_inverse(int n, const double *A, double *Ainv)
{
    if (n != 1) return mcd_small_spd_inverse_n(n, A, Ainv);
    if (!(A[0] > 0.0) || !(A[0] < HUGE_VAL)) return 0;
    Ainv[0] = 1.0 / A[0];
    return 1;
}

/* The world's spatial acceleration that stands in for gravity: [0; -g]. */
static inline void mcd_gravity_acceleration(const mcd_model *m, double a[6])
{
    a[0] = a[1] = a[2] = 0.0;
    a[3] = -m->gravity[0];
    a[4] = -m->gravity[1];
    a[5] = -m->gravity[2];
}

/* r = S x for a map S of n columns of 6 (H^* or G); r = S^T f. */
static inline void mcd_hinge_apply(double *restrict r, const double *restrict S, int n,
                                   const double *restrict x)
{
    if (n == 1) {
        for (int i = 0; i < 6; i++) r[i] = S[i] * x[0];
        return;
    }
    for (int i = 0; i < 6; i++) r[i] = 0.0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < 6; i++) r[i] += S[6 * k + i] * x[k];
}
static inline void mcd_hinge_project(double *restrict r, const double *restrict S, int n,
                                     const double *restrict f)
{
    for (int k = 0; k < n; k++) {
        const double *s = S + 6 * k;
        r[k] = s[0] * f[0] + s[1] * f[1] + s[2] * f[2] + s[3] * f[3] + s[4] * f[4] + s[5] * f[5];
    }
}

#endif

/* Private: rigid-body mass properties — validation and combination. */
#ifndef MCDYN_SRC_MODEL_INERTIA_H
#define MCDYN_SRC_MODEL_INERTIA_H

#include "mcdyn/model.h"

/* Eigenvalues of a symmetric 3x3 matrix, ascending (cyclic Jacobi). */
void mcd_sym3_eigenvalues(const double A[9], double lambda[3]);

/* 1 if mass, centre of mass and inertia are all finite. */
int mcd_mass_props_finite(const mcd_mass_props *mp);

/* Checks one link's mass properties: finite, mass >= 0, inertia symmetric
 * and positive semidefinite, principal moments obeying the triangle
 * inequality. On failure writes a reason into why (size n) and returns 0. */
int mcd_mass_props_valid(const mcd_mass_props *mp, char *why, int n);

/* 1 if the rotational inertia is positive definite (relative to its size). */
int mcd_inertia_positive_definite(const double I[9]);

/* acc += mp placed at pose X (mass properties of a link rigidly attached to
 * the accumulating body; mp in the link frame, X = link frame in the body
 * frame). Both about their own centres of mass. */
void mcd_mass_props_add(mcd_mass_props *acc, const mcd_mass_props *mp, const mcd_pose *X);

#endif

/* Rewrites URDF <inertial> elements in principal axes, exactly.
 *
 * MuJoCo 2.2.2 diagonalises every inertia matrix with mju_eig3, whose
 * result reproduces the matrix only to about 1e-6 relative: panda_link1's
 * inertia (0.7 kg m^2 with products of inertia of 0.02) comes back off by
 * 4.6e-7. Handing MuJoCo an inertia that is already diagonal avoids that
 * error: the inertia is diagonalised here by LAPACK's dsyev, to rounding
 * error, and the principal axes are folded into the <origin rpy>, so the
 * element describes the same body to about 1e-16.
 */
#ifndef MCDYN_TESTS_PRINCIPAL_INERTIA_H
#define MCDYN_TESTS_PRINCIPAL_INERTIA_H

#include <libxml/tree.h>

/* Rewrites one <inertial> element whose <inertia> has nonzero products of
 * inertia (others are left as they are). Returns 0, or -1 with a message
 * in err when the element is malformed. */
int principal_inertia_rewrite(xmlNode *inertial, char *err, int errlen);

#endif

/* Loads a URDF into MuJoCo (2.2.2) with the dynamics exactly as the URDF
 * describes them, for use as a test oracle.
 *
 * MuJoCo's URDF importer is told, through a <mujoco><compiler/></mujoco>
 * element added to a copy of the file, to use the <inertial> elements
 * verbatim: no inertia from geometry, no balancing, and no mass or inertia
 * bounds unless asked for (mass_floor). In the copy, <visual> and
 * <collision> elements are removed (their mesh files are not needed for
 * dynamics) and inertias are written in principal axes (principal_inertia.h:
 * MuJoCo's own diagonalisation is inexact). Links joined by fixed joints
 * stay separate MuJoCo bodies (fusestatic="false"): fusing them would make
 * MuJoCo diagonalise the combined inertias, inexactly. With floating_base,
 * a link named "world" (which MuJoCo's importer takes for its own world
 * body) and a URDF "floating" joint named MUJOCO_URDF_FREE_JOINT from it
 * to the root link are added: a free joint on a top-level body.
 * The copy is handed to MuJoCo through its virtual file system: no
 * temporary file is written.
 */
#ifndef MCDYN_TESTS_MUJOCO_URDF_H
#define MCDYN_TESTS_MUJOCO_URDF_H

#include <mujoco/mujoco.h>

#define MUJOCO_URDF_FREE_JOINT "mujoco_urdf_free_joint"

typedef struct mujoco_urdf_options {
    int floating_base;
    /* Lower bound on every body's mass and principal inertias (MuJoCo's
     * boundmass and boundinertia), 0 for none. MuJoCo 2.2.2 rejects massless
     * moving bodies, which some URDFs use as intermediate links of
     * multi-axis joints; a floor of 1e-12 perturbs M by about 1e-12. */
    double mass_floor;
} mujoco_urdf_options;

/* Returns the compiled model, or NULL with a message in err. */
mjModel *mujoco_load_urdf(const char *path, const mujoco_urdf_options *opt, char *err, int errlen);

#endif

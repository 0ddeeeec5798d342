/* Maps mcdyn's generalized coordinates to MuJoCo's, joint by joint.
 *
 * Hinges are matched by joint name; mcdyn's free joint (a floating base)
 * is matched to MuJoCo's only free joint, whatever their names. Both
 * libraries order a joint's own coordinates alike (free joint: position,
 * then quaternion [w x y z]; velocity: linear in the parent frame, then
 * angular in the body frame), so the map is a permutation of joint blocks.
 */
#ifndef MCDYN_TESTS_COORDINATE_MAP_H
#define MCDYN_TESTS_COORDINATE_MAP_H

#include <mujoco/mujoco.h>

#include "mcdyn/model.h"

typedef struct coordinate_map {
    int nq, nv;
    int *qpos; /* qpos[i]: MuJoCo qpos index of mcdyn's q[i] */
    int *dof;  /* dof[i]: MuJoCo dof index of mcdyn's v[i] */
} coordinate_map;

/* Returns 0, or -1 with a message in err when the joints do not match one
 * to one with the same types. */
int coordinate_map_make(coordinate_map *map, const mcd_model *m, const mjModel *mj, char *err,
                        int errlen);
void coordinate_map_free(coordinate_map *map);

#endif

/* Maps mcdyn's generalized coordinates to MuJoCo's (coordinate_map.h). */
#include "coordinate_map.h"

#include <stdio.h>
#include <stdlib.h>

/* MuJoCo's joint type for an mcdyn hinge type. */
static int mujoco_joint_type(mcd_joint_type t)
{
    switch (t) {
    case MCD_JOINT_REVOLUTE:
    case MCD_JOINT_CONTINUOUS:
        return mjJNT_HINGE;
    case MCD_JOINT_PRISMATIC:
        return mjJNT_SLIDE;
    case MCD_JOINT_SPHERICAL:
        return mjJNT_BALL;
    case MCD_JOINT_FREE:
        return mjJNT_FREE;
    default:
        return -1;
    }
}

static int find_free_joint(const mjModel *mj)
{
    for (int j = 0; j < mj->njnt; j++)
        if (mj->jnt_type[j] == mjJNT_FREE) return j;
    return -1;
}

/* MuJoCo joint matching mcdyn body k, or -1 with a message. */
static int matching_joint(const mcd_model *m, int k, const mjModel *mj, char *err, int errlen)
{
    const mcd_body *b = &m->body[k];
    const char *name = m->joint_name[k];
    int j = b->jtype == MCD_JOINT_FREE ? find_free_joint(mj) : mj_name2id(mj, mjOBJ_JOINT, name);
    if (j < 0) {
        snprintf(err, errlen, "joint '%s' has no MuJoCo counterpart", name);
        return -1;
    }
    if (mj->jnt_type[j] != mujoco_joint_type(b->jtype)) {
        snprintf(err, errlen, "joint '%s' is %s in mcdyn but of MuJoCo type %d", name,
                 mcd_joint_type_name(b->jtype), mj->jnt_type[j]);
        return -1;
    }
    return j;
}

int coordinate_map_make(coordinate_map *map, const mcd_model *m, const mjModel *mj, char *err,
                        int errlen)
{
    if (m->nq != mj->nq || m->nv != mj->nv || m->nbody != mj->njnt) {
        snprintf(err, errlen, "mcdyn has nq %d nv %d and %d joints, MuJoCo nq %d nv %d and %d",
                 m->nq, m->nv, m->nbody, mj->nq, mj->nv, mj->njnt);
        return -1;
    }
    map->nq = m->nq;
    map->nv = m->nv;
    map->qpos = malloc(sizeof(int) * (size_t)(m->nq + m->nv));
    int *used = calloc((size_t)mj->njnt, sizeof(int));
    if (!map->qpos || !used) {
        snprintf(err, errlen, "out of memory");
        free(used);
        coordinate_map_free(map);
        return -1;
    }
    map->dof = map->qpos + m->nq;
    int status = 0;
    for (int k = 0; k < m->nbody; k++) {
        int j = matching_joint(m, k, mj, err, errlen);
        if (j >= 0 && used[j]) {
            snprintf(err, errlen, "MuJoCo joint %d matches two mcdyn joints", j);
            j = -1;
        }
        if (j < 0) {
            status = -1;
            break;
        }
        used[j] = 1;
        const mcd_body *b = &m->body[k];
        for (int i = 0; i < b->nq; i++) map->qpos[b->qadr + i] = mj->jnt_qposadr[j] + i;
        for (int i = 0; i < b->nv; i++) map->dof[b->vadr + i] = mj->jnt_dofadr[j] + i;
    }
    free(used);
    if (status != 0) coordinate_map_free(map);
    return status;
}

void coordinate_map_free(coordinate_map *map)
{
    free(map->qpos);
    map->qpos = map->dof = NULL;
}

/* The run-time model: lookups, neutral configuration, state validation and
 * release (include/mcdyn/model.h). */
#include "mcdyn/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    int nq, nv;
} joint_info[MCD_JOINT_TYPE_COUNT] = {
    [MCD_JOINT_FIXED] = {"fixed", 0, 0},           [MCD_JOINT_REVOLUTE] = {"revolute", 1, 1},
    [MCD_JOINT_CONTINUOUS] = {"continuous", 1, 1}, [MCD_JOINT_PRISMATIC] = {"prismatic", 1, 1},
    [MCD_JOINT_SPHERICAL] = {"spherical", 4, 3},   [MCD_JOINT_FREE] = {"free", 7, 6},
};

static const struct {
    const char *name;
    int rows;
} closure_info[MCD_CLOSURE_TYPE_COUNT] = {
    [MCD_CLOSURE_BALL] = {"ball", 3},
    [MCD_CLOSURE_HINGE] = {"hinge", 5},
    [MCD_CLOSURE_WELD] = {"weld", 6},
    [MCD_CLOSURE_DISTANCE] = {"distance", 1},
};

const char *mcd_closure_type_name(mcd_closure_type t)
{
    return (int)t >= 0 && t < MCD_CLOSURE_TYPE_COUNT ? closure_info[t].name : "unknown";
}
int mcd_closure_rows(mcd_closure_type t)
{
    return (int)t >= 0 && t < MCD_CLOSURE_TYPE_COUNT ? closure_info[t].rows : 0;
}

static int valid_type(mcd_joint_type t)
{
    return (int)t >= 0 && t < MCD_JOINT_TYPE_COUNT;
}

const char *mcd_joint_type_name(mcd_joint_type t)
{
    return valid_type(t) ? joint_info[t].name : "unknown";
}
int mcd_joint_nq(mcd_joint_type t)
{
    return valid_type(t) ? joint_info[t].nq : 0;
}
int mcd_joint_nv(mcd_joint_type t)
{
    return valid_type(t) ? joint_info[t].nv : 0;
}

static void free_names(char **names, int n)
{
    if (!names) return;
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
}

void mcd_model_free(mcd_model *m)
{
    if (!m) return;
    free_names(m->body_name, m->nbody);
    free_names(m->joint_name, m->nbody);
    free_names(m->frame_name, m->nframe);
    free_names(m->node_name, m->nnode);
    free_names(m->closure_name, m->nclosure);
    free(m->closure);
    for (int g = 0; g < m->ngeom; g++) free(m->geom[g].mesh_path);
    free(m->geom);
    for (int g = 0; g < m->nvisual; g++) {
        free(m->visual[g].mesh_path);
        if (m->visual_mesh) free(m->visual_mesh[g].vert), free(m->visual_mesh[g].tri);
    }
    free(m->visual);
    free(m->visual_mesh);
    free(m->body);
    free(m->frame);
    free(m->node);
    free(m->name);
    free(m);
}

static int find_name(char *const *names, int n, const char *name)
{
    if (!names || !name) return -1;
    for (int i = 0; i < n; i++)
        if (names[i] && !strcmp(names[i], name)) return i;
    return -1;
}

int mcd_model_body_index(const mcd_model *m, const char *name)
{
    return m ? find_name(m->body_name, m->nbody, name) : -1;
}
int mcd_model_frame_index(const mcd_model *m, const char *name)
{
    return m ? find_name(m->frame_name, m->nframe, name) : -1;
}
int mcd_model_node_index(const mcd_model *m, const char *name)
{
    return m ? find_name(m->node_name, m->nnode, name) : -1;
}
int mcd_model_joint_index(const mcd_model *m, const char *name)
{
    return m ? find_name(m->joint_name, m->nbody, name) : -1;
}
int mcd_model_closure_index(const mcd_model *m, const char *name)
{
    return m ? find_name(m->closure_name, m->nclosure, name) : -1;
}

mcd_status mcd_model_neutral(const mcd_model *m, double *q)
{
    if (!m || !q) return MCD_ERR_ARG;
    memset(q, 0, (size_t)m->nq * sizeof *q);
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        if (B->jtype == MCD_JOINT_SPHERICAL) q[B->qadr] = 1.0;
        if (B->jtype == MCD_JOINT_FREE) q[B->qadr + 3] = 1.0;
    }
    return MCD_OK;
}

mcd_status mcd_model_check_q(const mcd_model *m, const double *q, mcd_error *err)
{
    if (!m || !q) return mcd_fail(err, MCD_ERR_ARG, "NULL model or configuration");
    double acc = 0.0; /* x * 0 is NaN for NaN/Inf: a flat scan for the common case */
    for (int i = 0; i < m->nq; i++) acc += q[i] * 0.0;
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        for (int i = 0; acc != 0.0 && i < B->nq; i++)
            if (!isfinite(q[B->qadr + i]))
                return mcd_fail(err, MCD_ERR_NONFINITE, "q[%d] (joint '%s') is not finite",
                                B->qadr + i, m->joint_name[k]);
        int quat = B->jtype == MCD_JOINT_SPHERICAL ? B->qadr
                   : B->jtype == MCD_JOINT_FREE    ? B->qadr + 3
                                                   : -1;
        if (quat >= 0 && fabs(mcd_quat_norm(q + quat) - 1.0) > 1e-6)
            return mcd_fail(err, MCD_ERR_ARG,
                            "q[%d..%d] (joint '%s') is not a unit quaternion (norm %.9g)", quat,
                            quat + 3, m->joint_name[k], mcd_quat_norm(q + quat));
    }
    return MCD_OK;
}

mcd_status mcd_model_add_node(mcd_model *m, const char *name, int body, const mcd_pose *pose,
                              int *index, mcd_error *err)
{
    if (!m || !name || !pose) return mcd_fail(err, MCD_ERR_ARG, "mcd_model_add_node: NULL");
    if (body < 0 || body >= m->nbody)
        return mcd_fail(err, MCD_ERR_ARG, "node '%s': body index %d out of range", name, body);
    if (find_name(m->node_name, m->nnode, name) >= 0)
        return mcd_fail(err, MCD_ERR_MODEL, "node '%s': duplicate node name", name);
    for (int i = 0; i < 9; i++)
        if (!isfinite(pose->R[i]))
            return mcd_fail(err, MCD_ERR_NONFINITE, "node '%s': pose is not finite", name);
    if (!mcd_v3_isfinite(pose->p))
        return mcd_fail(err, MCD_ERR_NONFINITE, "node '%s': pose is not finite", name);
    mcd_node *nodes = realloc(m->node, (size_t)(m->nnode + 1) * sizeof *nodes);
    if (nodes) m->node = nodes;
    char **names = realloc(m->node_name, (size_t)(m->nnode + 1) * sizeof *names);
    if (names) m->node_name = names;
    size_t len = strlen(name) + 1;
    char *copy = malloc(len);
    if (!nodes || !names || !copy) {
        free(copy);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory adding node '%s'", name);
    }
    memcpy(copy, name, len);
    m->node[m->nnode].body = body;
    m->node[m->nnode].pose = *pose;
    m->node_name[m->nnode] = copy;
    if (index) *index = m->nnode;
    m->nnode++;
    return MCD_OK;
}

/* Scenario loading: the initial state q0, qd0 (src/io/scenario_internal.h).
 *
 * q0 starts neutral (mcd_model_neutral) and qd0 zero; each robot's q and qd
 * map its joint names (as written in its URDF, without the prefix) to
 * values: a number for a joint with one coordinate, a sequence for more
 * (free joint q: x y z qw qx qy qz, qd: vx vy vz wx wy wz; spherical q: the
 * quaternion, qd: wx wy wz). Only the robot's own moving joints are
 * accepted (fixed joints have no coordinates). A quaternion must be unit to
 * QUAT_TOL (decimals as written) and is normalized.
 */
#include "scenario_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define QUAT_TOL 1e-3

/* *joint: body index of the moving joint of robot r named name (without the
 * prefix), -1 if none. Returns 0 when out of memory. */
static int robot_joint(const mcd_model *m, const mcd_scenario_robot *r, const char *name,
                       int *joint)
{
    size_t np = strlen(r->prefix), nn = strlen(name) + 1;
    char *full = malloc(np + nn);
    if (!full) return 0;
    memcpy(full, r->prefix, np);
    memcpy(full + np, name, nn);
    int k = mcd_model_joint_index(m, full);
    free(full);
    *joint = k >= r->body_begin && k < r->body_end ? k : -1;
    return 1;
}

/* n coordinates: a number when n is 1, else a sequence of n numbers. */
static mcd_status read_coords(const scn_ctx *c, const scn_at *at, int n, double *dst)
{
    if (n == 1) return scn_number(c, at, (scn_bounds)SCN_ANY, dst);
    return scn_vector(c, at, n, (scn_bounds)SCN_ANY, dst);
}

/* Checks and normalizes the quaternion of joint body B in q, if any. */
static mcd_status unit_quaternion(const scn_ctx *c, const scn_at *at, const mcd_body *B, double *q)
{
    double *quat = B->jtype == MCD_JOINT_FREE        ? q + B->qadr + 3
                   : B->jtype == MCD_JOINT_SPHERICAL ? q + B->qadr
                                                     : NULL;
    if (!quat) return MCD_OK;
    double norm = mcd_quat_norm(quat);
    if (fabs(norm - 1.0) > QUAT_TOL)
        return scn_fail(c, at, MCD_ERR_ARG,
                        "the quaternion [%g, %g, %g, %g] is not a unit quaternion (norm %.9g)",
                        quat[0], quat[1], quat[2], quat[3], norm);
    mcd_quat_normalize(quat);
    return MCD_OK;
}

/* The entries of the q (velocity 0) or qd (velocity 1) map of robot r. */
static mcd_status read_map(const scn_ctx *c, const scn_at *map, const mcd_scenario_robot *r,
                           int velocity)
{
    const mcd_model *m = c->s->model;
    mcd_status st = scn_check_mapping(c, map, NULL, 0);
    for (int i = 0; st == MCD_OK && i < yt_map_size(map->node); i++) {
        scn_at at;
        int k;
        scn_entry(map, i, &at);
        if (!robot_joint(m, r, scn_entry_key(map, i), &k))
            return mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
        if (k < 0)
            return scn_fail(c, &at, MCD_ERR_MODEL,
                            "no moving joint of this robot is named '%s' (fixed joints have no "
                            "coordinates)",
                            scn_entry_key(map, i));
        const mcd_body *B = &m->body[k];
        if (velocity) {
            st = read_coords(c, &at, B->nv, c->s->qd0 + B->vadr);
        } else {
            st = read_coords(c, &at, B->nq, c->s->q0 + B->qadr);
            if (st == MCD_OK) st = unit_quaternion(c, &at, B, c->s->q0);
        }
    }
    return st;
}

mcd_status scn_parse_state(const scn_ctx *c, const scn_at *doc)
{
    mcd_scenario *s = c->s;
    scn_at seq, robot, map;
    s->q0 = malloc(((size_t)s->model->nq + 1) * sizeof *s->q0);
    s->qd0 = calloc((size_t)s->model->nv + 1, sizeof *s->qd0);
    if (!s->q0 || !s->qd0) return mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    mcd_model_neutral(s->model, s->q0);
    scn_find(doc, "robots", &seq);
    mcd_status st = MCD_OK;
    for (int i = 0; st == MCD_OK && i < s->nrobot; i++) {
        scn_item(&seq, i, &robot);
        if (scn_find(&robot, "q", &map)) st = read_map(c, &map, &s->robot[i], 0);
        if (st == MCD_OK && scn_find(&robot, "qd", &map)) st = read_map(c, &map, &s->robot[i], 1);
    }
    return st;
}

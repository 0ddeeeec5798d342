/* Scenario loading: the robots' actuators (src/io/scenario_internal.h,
 * docs/scenarios.md "Actuators").
 *
 * Each robot's actuators key is a sequence of entries applied in order: an
 * entry names joints of the robot (all of its one-coordinate joints, or a
 * list of URDF names without the prefix), a type (torque, position,
 * velocity), gains, a target, a feedforward torque and an effort limit; a
 * later entry replaces an earlier one on the joints they share. Targets and
 * feedforward torques are a number (every joint), a map joint -> number
 * (every joint of the entry, no other), {file: name.csv} (a column per
 * joint, scenario_actuator_file.c) or, for targets, initial: the robot's
 * initial q (position) or qd (velocity). The result is one mcd_actuator
 * (sim.h) per driven velocity coordinate, in dof order.
 */
#include "scenario_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[] = {"torque", "position", "velocity"};

static const scn_field entry_fields[] = {
    {.key = "joints"}, {.key = "type"},        {.key = "kp"},           {.key = "kd"},
    {.key = "target"}, {.key = "feedforward"}, {.key = "effort_limit"},
};

/* One entry being read: its robot, its joints (body indices) and the
 * actuator every joint starts from. */
typedef struct entry {
    const scn_ctx *c;
    const mcd_scenario_robot *r;
    int *joint;
    int njoint;
    mcd_actuator proto;
} entry;

/* The body of robot r's moving joint named name (no prefix), -1 if none;
 * -2 when out of memory. */
static int robot_joint(const mcd_model *m, const mcd_scenario_robot *r, const char *name)
{
    size_t np = strlen(r->prefix), nn = strlen(name) + 1;
    char *full = malloc(np + nn);
    if (!full) return -2;
    memcpy(full, r->prefix, np);
    memcpy(full + np, name, nn);
    int k = mcd_model_joint_index(m, full);
    free(full);
    return k >= r->body_begin && k < r->body_end ? k : -1;
}

/* The URDF name of joint body k of robot r (the model's, prefix removed). */
static const char *joint_name(const entry *e, int k)
{
    return e->c->s->model->joint_name[k] + strlen(e->r->prefix);
}

static mcd_status add_named_joint(entry *e, const scn_at *at)
{
    const mcd_model *m = e->c->s->model;
    const char *name;
    mcd_status st = scn_string(e->c, at, 1, &name);
    if (st != MCD_OK) return st;
    const int k = robot_joint(m, e->r, name);
    if (k == -2) return mcd_fail(e->c->err, MCD_ERR_NOMEM, "%s: out of memory", e->c->file);
    if (k < 0)
        return scn_fail(e->c, at, MCD_ERR_MODEL, "no moving joint of this robot is named '%s'",
                        name);
    if (m->body[k].nv != 1)
        return scn_fail(e->c, at, MCD_ERR_MODEL,
                        "joint '%s' has %d coordinates: actuators drive one-coordinate joints "
                        "(revolute, continuous, prismatic)",
                        name, m->body[k].nv);
    for (int j = 0; j < e->njoint; j++)
        if (e->joint[j] == k) return scn_fail(e->c, at, MCD_ERR_ARG, "joint '%s' twice", name);
    e->joint[e->njoint++] = k;
    return MCD_OK;
}

/* joints: all, or a sequence of names. */
static mcd_status read_joints(entry *e, const scn_at *map)
{
    const mcd_model *m = e->c->s->model;
    scn_at at, item;
    mcd_status st = scn_require(e->c, map, "joints", &at);
    if (st != MCD_OK) return st;
    if (!(e->joint = calloc((size_t)m->nbody + 1, sizeof *e->joint)))
        return mcd_fail(e->c->err, MCD_ERR_NOMEM, "%s: out of memory", e->c->file);
    if (at.node->kind == YT_SCALAR && at.node->text && strcmp(at.node->text, "all") == 0) {
        for (int k = e->r->body_begin; k < e->r->body_end; k++)
            if (m->body[k].nv == 1) e->joint[e->njoint++] = k;
        return e->njoint > 0 ? MCD_OK
                             : scn_fail(e->c, &at, MCD_ERR_MODEL,
                                        "the robot has no one-coordinate joint to drive");
    }
    st = scn_check_sequence(e->c, &at, 1);
    for (int i = 0; st == MCD_OK && i < at.node->nitem; i++) { /* distinct: <= nbody */
        scn_item(&at, i, &item);
        st = add_named_joint(e, &item);
    }
    return st;
}

/* A key of the entry that its type uses (required or optional) or not. */
static mcd_status gain(const entry *e, const scn_at *map, const char *key, int used, int required,
                       double *out)
{
    scn_at at;
    const int present = scn_find(map, key, &at);
    *out = 0.0;
    if (present && !used)
        return scn_fail(e->c, &at, MCD_ERR_PARSE, "a %s actuator has no %s",
                        type_names[e->proto.type], key);
    if (!present && required)
        return scn_fail(e->c, map, MCD_ERR_PARSE, "a %s actuator needs %s",
                        type_names[e->proto.type], key);
    return present ? scn_number(e->c, &at, (scn_bounds)SCN_NONNEG, out) : MCD_OK;
}

static mcd_status read_type_and_gains(entry *e, const scn_at *map)
{
    scn_at at;
    int type;
    mcd_status st = scn_require(e->c, map, "type", &at);
    if (st == MCD_OK) st = scn_choice(e->c, &at, type_names, SCN_COUNT(type_names), &type);
    if (st != MCD_OK) return st;
    e->proto.type = (mcd_actuator_type)type;
    const int pos = type == MCD_ACTUATOR_POSITION, vel = type == MCD_ACTUATOR_VELOCITY;
    st = gain(e, map, "kp", pos, pos, &e->proto.kp);
    if (st == MCD_OK) st = gain(e, map, "kd", pos || vel, vel, &e->proto.kd);
    return st;
}

/* effort_limit of joint k: urdf | none | a number > 0 (absent: none). */
static mcd_status effort_limit(const entry *e, const scn_at *map, int k, double *out)
{
    scn_at at;
    *out = INFINITY;
    if (!scn_find(map, "effort_limit", &at)) return MCD_OK;
    const char *text = at.node->kind == YT_SCALAR ? at.node->text : NULL;
    if (text && strcmp(text, "none") == 0) return MCD_OK;
    if (!text || strcmp(text, "urdf") != 0)
        return scn_number(e->c, &at, (scn_bounds)SCN_POSITIVE, out);
    *out = e->c->s->model->body[k].limits.effort;
    if (!(*out > 0))
        return scn_fail(e->c, &at, MCD_ERR_MODEL,
                        "joint '%s' has no effort limit in its URDF (<limit effort>)",
                        joint_name(e, k));
    return MCD_OK;
}

/* Keeps the columns of a table in the scenario. */
static mcd_status keep_series(const scn_ctx *c, double *col)
{
    mcd_scenario *s = c->s;
    double **grown = realloc(s->series, ((size_t)s->nseries + 1) * sizeof *grown);
    if (!grown) {
        free(col);
        return mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    }
    s->series = grown;
    s->series[s->nseries++] = col;
    return MCD_OK;
}

/* out[j] from the file named at at (key file): the column of each joint. */
static mcd_status signal_file(const entry *e, const scn_at *at, mcd_signal *out)
{
    const char *name;
    scn_table t;
    mcd_status st = scn_string(e->c, at, 1, &name);
    if (st != MCD_OK) return st;
    st = scn_read_table(e->c, at, name, &t);
    for (int j = 0; st == MCD_OK && j < e->njoint; j++) {
        const int col = scn_table_column(&t, joint_name(e, e->joint[j]));
        if (col < 0)
            st = scn_fail(e->c, at, MCD_ERR_PARSE, "file '%s' has no column '%s'", name,
                          joint_name(e, e->joint[j]));
        else
            out[j] = (mcd_signal){0.0, t.nrow, t.col, t.col + (size_t)col * (size_t)t.nrow};
    }
    scn_table_free_names(&t);
    if (st != MCD_OK) free(t.col);
    return st == MCD_OK ? keep_series(e->c, t.col) : st;
}

/* The entry's joint named key, its index in e->joint; -1 if none. */
static int entry_joint(const entry *e, const char *key)
{
    for (int j = 0; j < e->njoint; j++)
        if (strcmp(joint_name(e, e->joint[j]), key) == 0) return j;
    return -1;
}

/* out[j] from a map joint -> number naming each joint of the entry once. */
static mcd_status signal_map(const entry *e, const scn_at *map, mcd_signal *out)
{
    scn_at at;
    mcd_status st = scn_check_mapping(e->c, map, NULL, 0);
    for (int i = 0; st == MCD_OK && i < yt_map_size(map->node); i++) {
        scn_entry(map, i, &at);
        const int j = entry_joint(e, scn_entry_key(map, i));
        if (j < 0)
            return scn_fail(e->c, &at, MCD_ERR_MODEL, "'%s' is not among this entry's joints",
                            scn_entry_key(map, i));
        st = scn_number(e->c, &at, (scn_bounds)SCN_ANY, &out[j].value);
    }
    for (int j = 0; st == MCD_OK && j < e->njoint; j++)
        if (!scn_find(map, joint_name(e, e->joint[j]), &at))
            return scn_fail(e->c, map, MCD_ERR_PARSE, "no value for joint '%s'",
                            joint_name(e, e->joint[j]));
    return st;
}

/* out[j] = the robot's initial q (position) or qd (otherwise) of each joint. */
static void signal_initial(const entry *e, int position, mcd_signal *out)
{
    const mcd_scenario *s = e->c->s;
    for (int j = 0; j < e->njoint; j++) {
        const mcd_body *B = &s->model->body[e->joint[j]];
        out[j].value = position ? s->q0[B->qadr] : s->qd0[B->vadr];
    }
}

/* A target (initial allowed) or feedforward value of every joint. */
static mcd_status read_signal(const entry *e, const scn_at *at, int initial_allowed,
                              mcd_signal *out)
{
    scn_at file;
    memset(out, 0, (size_t)e->njoint * sizeof *out);
    if (at->node->kind == YT_MAPPING && yt_map_size(at->node) == 1 && scn_find(at, "file", &file))
        return signal_file(e, &file, out);
    if (at->node->kind == YT_MAPPING) return signal_map(e, at, out);
    if (initial_allowed && at->node->kind == YT_SCALAR && strcmp(at->node->text, "initial") == 0) {
        signal_initial(e, e->proto.type == MCD_ACTUATOR_POSITION, out);
        return MCD_OK;
    }
    double v;
    mcd_status st = scn_number(e->c, at, (scn_bounds)SCN_ANY, &v);
    for (int j = 0; st == MCD_OK && j < e->njoint; j++) out[j].value = v;
    return st;
}

/* target (position, velocity: required; torque: none) and feedforward
 * (optional) of each joint. */
static mcd_status read_signals(const entry *e, const scn_at *map, mcd_signal *target,
                               mcd_signal *ff)
{
    scn_at at;
    mcd_status st = MCD_OK;
    const int torque = e->proto.type == MCD_ACTUATOR_TORQUE;
    memset(target, 0, (size_t)e->njoint * sizeof *target);
    memset(ff, 0, (size_t)e->njoint * sizeof *ff);
    if (scn_find(map, "target", &at))
        st = torque ? scn_fail(e->c, &at, MCD_ERR_PARSE, "a torque actuator has no target")
                    : read_signal(e, &at, 1, target);
    else if (!torque)
        st = scn_fail(e->c, map, MCD_ERR_PARSE, "a %s actuator needs a target",
                      type_names[e->proto.type]);
    if (st == MCD_OK && scn_find(map, "feedforward", &at)) st = read_signal(e, &at, 0, ff);
    return st;
}

/* Entry i of robot r's actuators into slot (per dof) and used. */
static mcd_status read_entry(const scn_ctx *c, const scn_at *seq, int i,
                             const mcd_scenario_robot *r, mcd_actuator *slot, int *used)
{
    entry e = {.c = c, .r = r};
    scn_at map;
    scn_item(seq, i, &map);
    mcd_signal *target = NULL, *ff = NULL;
    mcd_status st = scn_check_mapping(c, &map, entry_fields, SCN_COUNT(entry_fields));
    if (st == MCD_OK) st = read_joints(&e, &map);
    if (st == MCD_OK) st = read_type_and_gains(&e, &map);
    if (st == MCD_OK && (!(target = calloc((size_t)e.njoint, sizeof *target)) ||
                         !(ff = calloc((size_t)e.njoint, sizeof *ff))))
        st = mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    if (st == MCD_OK) st = read_signals(&e, &map, target, ff);
    for (int j = 0; st == MCD_OK && j < e.njoint; j++) {
        const int dof = c->s->model->body[e.joint[j]].vadr;
        mcd_actuator a = e.proto;
        a.dof = dof, a.target = target[j], a.feedforward = ff[j];
        st = effort_limit(&e, &map, e.joint[j], &a.effort_limit);
        slot[dof] = a, used[dof] = 1;
    }
    free(target), free(ff), free(e.joint);
    return st;
}

static mcd_status read_robot(const scn_ctx *c, const scn_at *robot, const mcd_scenario_robot *r,
                             mcd_actuator *slot, int *used)
{
    scn_at seq;
    if (!scn_find(robot, "actuators", &seq)) return MCD_OK;
    mcd_status st = scn_check_sequence(c, &seq, 1);
    for (int i = 0; st == MCD_OK && i < seq.node->nitem; i++)
        st = read_entry(c, &seq, i, r, slot, used);
    return st;
}

/* The used slots, in dof order, into the scenario. */
static mcd_status collect(const scn_ctx *c, const mcd_actuator *slot, const int *used, int nv)
{
    mcd_scenario *s = c->s;
    int n = 0;
    for (int v = 0; v < nv; v++) n += used[v];
    if (!(s->actuator = calloc((size_t)n + 1, sizeof *s->actuator)))
        return mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    for (int v = 0; v < nv; v++)
        if (used[v]) s->actuator[s->nactuator++] = slot[v];
    return MCD_OK;
}

mcd_status scn_parse_actuators(const scn_ctx *c, const scn_at *doc)
{
    const int nv = c->s->model->nv;
    scn_at seq, robot;
    mcd_actuator *slot = calloc((size_t)nv + 1, sizeof *slot);
    int *used = calloc((size_t)nv + 1, sizeof *used);
    mcd_status st =
        slot && used ? MCD_OK : mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    scn_find(doc, "robots", &seq);
    for (int i = 0; st == MCD_OK && i < c->s->nrobot; i++) {
        scn_item(&seq, i, &robot);
        st = read_robot(c, &robot, &c->s->robot[i], slot, used);
    }
    if (st == MCD_OK) st = collect(c, slot, used, nv);
    free(slot), free(used);
    return st;
}

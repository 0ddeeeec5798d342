/* The sections of `mcdyn query`'s JSON output (query.h). */
#include "query.h"

#include <stdlib.h>
#include <string.h>

static void write_names(json_writer *w, const char *key, char *const *names, int n)
{
    json_key(w, key);
    json_array_begin(w);
    for (int i = 0; i < n; i++) json_string(w, names[i]);
    json_array_end(w);
}

/* "model", "nq", "nv", "joint_names", "joint_types", "body_names" */
static void write_model(const query *qy, json_writer *w)
{
    const mcd_model *m = qy->m;
    json_key(w, "model");
    json_string(w, m->name ? m->name : "");
    json_key(w, "nq");
    json_int(w, m->nq);
    json_key(w, "nv");
    json_int(w, m->nv);
    write_names(w, "joint_names", m->joint_name, m->nbody);
    json_key(w, "joint_types");
    json_array_begin(w);
    for (int k = 0; k < m->nbody; k++) json_string(w, mcd_joint_type_name(m->body[k].jtype));
    json_array_end(w);
    write_names(w, "body_names", m->body_name, m->nbody);
}

/* "q", "qd", "tau" */
static void write_state(const query *qy, json_writer *w)
{
    json_key(w, "q");
    json_double_array(w, qy->q, qy->m->nq);
    json_key(w, "qd");
    json_double_array(w, qy->qd, qy->m->nv);
    json_key(w, "tau");
    json_double_array(w, qy->tau, qy->m->nv);
}

static mcd_status compute_dynamics(query *qy, mcd_error *err)
{
    const mcd_model *m = qy->m;
    mcd_status s = mcd_mass_matrix(m, qy->d, qy->q, qy->M);
    if (s == MCD_OK) s = mcd_bias_forces(m, qy->d, qy->q, qy->qd, qy->C);
    if (s == MCD_OK) s = mcd_forward_dynamics(m, qy->d, qy->q, qy->qd, qy->tau, NULL, qy->qdd);
    if (s != MCD_OK) mcd_fail(err, s, "%s", mcd_data_error(qy->d));
    return s;
}

/* "M" (nv x nv), "C" (bias forces), "qdd" (forward dynamics) */
static void write_dynamics(const query *qy, json_writer *w)
{
    const int nv = qy->m->nv;
    json_key(w, "M");
    json_matrix(w, qy->M, nv, nv);
    json_key(w, "C");
    json_double_array(w, qy->C, nv);
    json_key(w, "qdd");
    json_double_array(w, qy->qdd, nv);
}

/* A node on a link fixed to the world: constant pose, zero Jacobian. */
static void world_node(const mcd_model *m, query_node *n)
{
    const mcd_frame *f = &m->frame[mcd_model_frame_index(m, n->link)];
    mcd_pose_apply(n->world.p, &f->pose, n->offset);
    memcpy(n->world.R, f->pose.R, sizeof n->world.R);
    memset(n->J, 0, sizeof(double) * 6 * (size_t)m->nv);
}

static mcd_status compute_nodes(query *qy, mcd_error *err)
{
    for (int i = 0; i < qy->nnode; i++) {
        query_node *n = &qy->nodes[i];
        if (n->node < 0) {
            world_node(qy->m, n);
            continue;
        }
        mcd_status s = mcd_node_pose(qy->m, qy->d, qy->q, n->node, &n->world);
        if (s == MCD_OK) s = mcd_node_jacobian(qy->m, qy->d, qy->q, n->node, MCD_REF_WORLD, n->J);
        if (s != MCD_OK) return mcd_fail(err, s, "node '%s': %s", n->name, mcd_data_error(qy->d));
    }
    return MCD_OK;
}

/* "nodes": [{"name", "link", "offset", "position", "rotation", "jacobian"}] */
static void write_nodes(const query *qy, json_writer *w)
{
    json_key(w, "nodes");
    json_array_begin(w);
    for (int i = 0; i < qy->nnode; i++) {
        const query_node *n = &qy->nodes[i];
        json_object_begin(w);
        json_key(w, "name");
        json_string(w, n->name);
        json_key(w, "link");
        json_string(w, n->link);
        json_key(w, "offset");
        json_double_array(w, n->offset, 3);
        json_key(w, "position");
        json_double_array(w, n->world.p, 3);
        json_key(w, "rotation");
        json_matrix(w, n->world.R, 3, 3);
        json_key(w, "jacobian");
        json_matrix(w, n->J, 6, qy->m->nv);
        json_object_end(w);
    }
    json_array_end(w);
}

/* Lambda = J M^{-1} J^T of the nodes by the O(N) + O(K^2) recursion; rows
 * and columns of a node on a link fixed to the world are zero. */
static mcd_status compute_lambda(query *qy, mcd_error *err)
{
    const int K = qy->nnode, n = 6 * K;
    if (K == 0) return MCD_OK;
    mcd_status s = mcd_osc_reserve(qy->d, K);
    if (s == MCD_OK) s = mcd_minv_factor(qy->m, qy->d, qy->q);
    if (s != MCD_OK) return mcd_fail(err, s, "Lambda: %s", mcd_data_error(qy->d));
    mcd_osc_point *pts = malloc(sizeof *pts * (size_t)K);
    int *idx = malloc(sizeof *idx * (size_t)K), np = 0;
    double *L = malloc(sizeof *L * (size_t)n * n);
    if (!pts || !idx || !L) s = mcd_fail(err, MCD_ERR_NOMEM, "Lambda: out of memory");
    for (int i = 0; s == MCD_OK && i < K; i++) {
        if (qy->nodes[i].node < 0) continue;
        idx[np] = i;
        pts[np].body = qy->m->node[qy->nodes[i].node].body;
        memcpy(pts[np++].x, qy->nodes[i].world.p, sizeof pts[0].x);
    }
    if (s == MCD_OK && np > 0 &&
        (s = mcd_osc_compliance(qy->m, qy->d, np, pts, MCD_OSC_SPATIAL, L)) != MCD_OK)
        mcd_fail(err, s, "Lambda: %s", mcd_data_error(qy->d));
    if (s == MCD_OK) {
        memset(qy->Lambda, 0, sizeof(double) * (size_t)n * n);
        for (int a = 0; a < np; a++)
            for (int b = 0; b < np; b++)
                for (int i = 0; i < 6; i++)
                    for (int j = 0; j < 6; j++)
                        qy->Lambda[(6 * idx[a] + i) * n + 6 * idx[b] + j] =
                            L[(6 * a + i) * 6 * np + 6 * b + j];
    }
    free(pts), free(idx), free(L);
    return s;
}

/* "lambda": 6K x 6K, node blocks in --node order, rows [w; v] world-aligned */
static void write_lambda(const query *qy, json_writer *w)
{
    json_key(w, "lambda");
    json_matrix(w, qy->Lambda, 6 * qy->nnode, 6 * qy->nnode);
}

const query_section query_sections[] = {
    {NULL, write_model},
    {NULL, write_state},
    {compute_dynamics, write_dynamics},
    {compute_nodes, write_nodes},
    {compute_lambda, write_lambda},
};
const int query_nsections = (int)(sizeof query_sections / sizeof *query_sections);

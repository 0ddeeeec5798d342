/* `mcdyn query MODEL.urdf [options]`: loads a URDF and prints, as JSON, the
 * model's coordinates and names, M, C and forward dynamics at one state,
 * and the world pose and Jacobian of requested nodes (query.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "mcdyn/urdf.h"
#include "query.h"

typedef struct query_options {
    const char *path;
    int floating_base, quiet, balance_inertia, ignore_mimic;
    const char *q, *qd, *tau; /* comma-separated numbers, NULL for the default */
    int nnode;
    const char **node_args; /* "LINK[:x,y,z]", nnode entries (argv) */
} query_options;

#define QUERY_MAX_NUMBERS 4e6 /* numbers in the output, see usage() */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcdyn query MODEL.urdf [--floating-base] [--q Q] [--qd QD] [--tau TAU]\n"
            "                  [--node LINK[:x,y,z]]... [--balance-inertia] [--ignore-mimic]\n"
            "                  [--package-path DIR]... [--quiet]\n\n"
            "Loads a URDF model and prints one JSON object on standard output:\n"
            "  model, nq, nv       model name and numbers of position / velocity coordinates\n"
            "  joint_names, joint_types, body_names   one entry per moving body, in order\n"
            "  q, qd, tau          the state used\n"
            "  M                   mass matrix (nv x nv, array of rows)\n"
            "  C                   bias forces: Coriolis, centrifugal and gravity (nv)\n"
            "  qdd                 forward dynamics, M^-1 (tau - C) (nv)\n"
            "  nodes               per --node: name, link, offset, world position and rotation\n"
            "                      (3 x 3, columns are the node axes), and jacobian: 6 x nv,\n"
            "                      rows [angular; linear] velocity in world-aligned axes at\n"
            "                      the node origin\n"
            "  lambda              operational-space compliance J M^-1 J^T of the nodes\n"
            "                      (6K x 6K for K nodes, blocks in --node order, rows and\n"
            "                      columns [angular; linear], world-aligned; O(N) recursion)\n\n"
            "options:\n"
            "  --floating-base     attach the root link to the world by a free joint (q: x y z\n"
            "                      then quaternion w x y z; qd: linear velocity in the world,\n"
            "                      then angular velocity in the body frame)\n"
            "  --q Q               comma-separated joint positions, nq numbers (default: the\n"
            "                      neutral configuration); quaternions must have unit norm\n"
            "  --qd QD             comma-separated joint velocities, nv numbers (default: 0)\n"
            "  --tau TAU           comma-separated joint forces, nv numbers (default: 0)\n"
            "  --node LINK[:x,y,z] a node on the URDF link LINK (links merged by fixed joints\n"
            "                      included) at offset x,y,z in the link frame (default: its\n"
            "                      origin), with the link's axes; may be repeated\n"
            "  --balance-inertia   replace a link inertia that no rigid body can have\n"
            "                      (triangle inequality violated, as in some published\n"
            "                      files) by the isotropic inertia of the same trace, with a\n"
            "                      warning; without it such a file is an error\n"
            "  --ignore-mimic      load a <mimic> joint as an independent joint, with a\n"
            "                      warning; without it such a file is an error\n"
            "  --package-path DIR  a directory searched for package://PKG/... mesh files (as\n"
            "                      DIR/PKG/... or, when DIR is named PKG, DIR/...), before\n"
            "                      those of ROS_PACKAGE_PATH; may be repeated\n"
            "  --quiet             do not print the URDF loader's warnings (collision meshes\n"
            "                      not found, inertias balanced, <mimic> ignored)\n"
            "  -h, --help          print this help\n\n"
            "The output holds nv^2 + 6 K nv + 36 K^2 + 5 nv + 12 K numbers for K nodes; a\n"
            "model and nodes needing more than 4e6 (about 100 MB) are refused.\n"
            "Errors are reported on standard error; the exit code is 1 for a bad model or\n"
            "value, a failed write to standard output, 2 for bad usage.\n");
}

/* The slot of a valued option, or NULL if a is not one. --node values
 * are appended to node_args instead. */
static const char **option_slot(query_options *o, const char *a)
{
    if (!strcmp(a, "--q")) return &o->q;
    if (!strcmp(a, "--qd")) return &o->qd;
    if (!strcmp(a, "--tau")) return &o->tau;
    if (!strcmp(a, "--node")) return &o->node_args[o->nnode];
    return NULL;
}

/* Returns -1 when the command should run, else the exit code. */
static int parse_options(int argc, char **argv, query_options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = option_slot(o, a);
        if (args_is_help(a)) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--floating-base")) {
            o->floating_base = 1;
        } else if (!strcmp(a, "--quiet")) {
            o->quiet = 1;
        } else if (!strcmp(a, "--balance-inertia")) {
            o->balance_inertia = 1;
        } else if (!strcmp(a, "--ignore-mimic")) {
            o->ignore_mimic = 1;
        } else if (!strcmp(a, "--package-path")) {
            if (i + 1 >= argc) return args_usage_error("query", "option '%s' needs a value", a);
            int rc = args_add_package_path("query", argv[++i]);
            if (rc) return rc;
        } else if (slot) {
            if (i + 1 >= argc) return args_usage_error("query", "option '%s' needs a value", a);
            *slot = argv[++i];
            o->nnode += !strcmp(a, "--node");
        } else if (a[0] == '-') {
            return args_usage_error("query", "unknown option '%s'", a);
        } else if (!o->path) {
            o->path = a;
        } else {
            return args_usage_error("query", "unexpected argument '%s' (one model file only)", a);
        }
    }
    if (!o->path) return args_usage_error("query", "missing the model file (MODEL.urdf)");
    return -1;
}

static void print_warning(void *user, const char *msg)
{
    (void)user;
    fprintf(stderr, "mcdyn query: warning: %s\n", msg);
}

/* Splits "LINK[:x,y,z]" into the node's link (a copy) and offset. */
static int parse_node(query_node *n, const char *arg)
{
    const char *colon = strrchr(arg, ':');
    size_t link_len = colon ? (size_t)(colon - arg) : strlen(arg);
    n->name = arg;
    if (link_len == 0) return args_fail("query", "--node '%s': the link name is missing", arg);
    n->link = malloc(link_len + 1);
    if (!n->link) return args_fail("query", "out of memory");
    memcpy(n->link, arg, link_len);
    n->link[link_len] = '\0';
    char msg[256];
    if (colon && args_parse_doubles(colon + 1, n->offset, 3, msg, sizeof msg) != 3)
        return args_fail("query", "--node '%s': the offset must be three finite numbers x,y,z",
                         arg);
    return 0;
}

/* Adds the node on its link's body (or marks it fixed to the world). */
static int add_node(mcd_model *m, query_node *n)
{
    int f = mcd_model_frame_index(m, n->link);
    if (f < 0)
        return args_fail("query", "--node '%s': the model has no link '%s'", n->name, n->link);
    const mcd_frame *frame = &m->frame[f];
    n->node = -1;
    if (frame->body < 0) return 0;
    mcd_pose offset, pose;
    mcd_pose_identity(&offset);
    memcpy(offset.p, n->offset, sizeof offset.p);
    mcd_pose_mul(&pose, &frame->pose, &offset);
    mcd_error err;
    if (mcd_model_add_node(m, n->name, frame->body, &pose, &n->node, &err) != MCD_OK)
        return args_fail("query", "--node '%s': %s", n->name, err.msg);
    return 0;
}

static int parse_state(query *qy, const query_options *o)
{
    const mcd_model *m = qy->m;
    mcd_error err;
    if (args_parse_vector("query", "--q", o->q, "nq", m->nq, qy->q) ||
        args_parse_vector("query", "--qd", o->qd, "nv", m->nv, qy->qd) ||
        args_parse_vector("query", "--tau", o->tau, "nv", m->nv, qy->tau))
        return 1;
    if (mcd_model_check_q(m, qy->q, &err) != MCD_OK) return args_fail("query", "--q: %s", err.msg);
    return 0;
}

static double *alloc_doubles(int n)
{
    return calloc((size_t)(n > 0 ? n : 1), sizeof(double));
}

static void query_free(query *qy)
{
    for (int i = 0; i < qy->nnode; i++) {
        free(qy->nodes[i].J);
        free(qy->nodes[i].link);
    }
    free(qy->nodes);
    free(qy->q);
    free(qy->qd);
    free(qy->tau);
    free(qy->M);
    free(qy->C);
    free(qy->qdd);
    free(qy->Lambda);
    mcd_data_free(qy->d);
    mcd_model_free(qy->m);
}

static int allocate_state(query *qy)
{
    const mcd_model *m = qy->m;
    qy->q = alloc_doubles(m->nq);
    qy->qd = alloc_doubles(m->nv);
    qy->tau = alloc_doubles(m->nv);
    qy->M = alloc_doubles(m->nv * m->nv);
    qy->C = alloc_doubles(m->nv);
    qy->qdd = alloc_doubles(m->nv);
    qy->Lambda = alloc_doubles(36 * qy->nnode * qy->nnode);
    int ok = qy->q && qy->qd && qy->tau && qy->M && qy->C && qy->qdd && qy->Lambda;
    for (int i = 0; i < qy->nnode && ok; i++)
        ok = (qy->nodes[i].J = alloc_doubles(6 * m->nv)) != NULL;
    if (!ok) return args_fail("query", "out of memory");
    mcd_model_neutral(m, qy->q);
    return 0;
}

static int load_model(query *qy, const query_options *o)
{
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.floating_base = o->floating_base;
    opt.warn = o->quiet ? NULL : print_warning;
    opt.balance_inertia = o->balance_inertia;
    opt.ignore_mimic = o->ignore_mimic;
    mcd_error err;
    if (mcd_urdf_load_file(o->path, &opt, &qy->m, &err) != MCD_OK)
        return args_fail("query", "%s", err.msg);
    return 0;
}

/* The output holds M (nv^2 numbers), 6 K nv Jacobian entries, the 6K x 6K
 * Lambda and a few vectors of nv for K nodes; refused above
 * QUERY_MAX_NUMBERS (about 100 MB of JSON at up to 25 bytes a number). */
static int check_size(int nv, int nnode)
{
    const double v = nv, k = nnode;
    const double numbers = v * v + 6 * k * v + 36 * k * k + 5 * v + 12 * k;
    if (numbers <= QUERY_MAX_NUMBERS) return 0;
    return args_fail("query",
                     "the output would hold %.3g numbers (nv = %d, %d nodes), more than the "
                     "limit of %.0f (`mcdyn query --help`)",
                     numbers, nv, nnode, QUERY_MAX_NUMBERS);
}

/* Loads the model, adds the nodes (before the workspace is made) and sets
 * the state. */
static int setup(query *qy, const query_options *o)
{
    if (load_model(qy, o) || check_size(qy->m->nv, o->nnode)) return 1;
    qy->nodes = calloc((size_t)(o->nnode > 0 ? o->nnode : 1), sizeof *qy->nodes);
    if (!qy->nodes) return args_fail("query", "out of memory");
    while (qy->nnode < o->nnode) {
        query_node *n = &qy->nodes[qy->nnode++];
        if (parse_node(n, o->node_args[qy->nnode - 1]) || add_node(qy->m, n)) return 1;
    }
    mcd_error err;
    if (mcd_data_create(qy->m, &qy->d, &err) != MCD_OK) return args_fail("query", "%s", err.msg);
    if (allocate_state(qy)) return 1;
    return parse_state(qy, o);
}

static int run_sections(query *qy)
{
    for (int i = 0; i < query_nsections; i++) {
        mcd_error err;
        if (query_sections[i].compute && query_sections[i].compute(qy, &err) != MCD_OK)
            return args_fail("query", "%s", err.msg);
    }
    json_writer w;
    json_begin(&w, stdout);
    for (int i = 0; i < query_nsections && !ferror(stdout); i++) query_sections[i].write(qy, &w);
    json_end(&w);
    return 0;
}

int mcd_cmd_query(int argc, char **argv)
{
    query_options o = {0};
    o.node_args = malloc(sizeof(char *) * (size_t)argc);
    int code = o.node_args ? parse_options(argc, argv, &o) : args_fail("query", "out of memory");
    if (code < 0) {
        query qy = {0};
        code = setup(&qy, &o) || run_sections(&qy);
        query_free(&qy);
    }
    free(o.node_args);
    return code;
}

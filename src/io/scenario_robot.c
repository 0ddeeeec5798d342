/* Scenario loading: robots, URDF files appended to the builder
 * (src/io/scenario_internal.h).
 *
 * Each robot is loaded by mcd_urdf_load_into with its prefix and base pose;
 * its links are the builder links added by that call, which are also its
 * model frames (frames keep the builder's link order). URDF errors are
 * passed through, prefixed with the location of the robot's urdf key, and
 * URDF warnings are kept in the scenario, prefixed the same way. Shapes
 * listed under geoms are added to its links after (scenario_robot_geom.c). The
 * initial state (q, qd) is read once the model is built (scenario_state.c).
 */
#include "scenario_internal.h"

#include "mcdyn/urdf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const base_names[] = {"fixed", "floating"};

static const scn_field robot_fields[] = {
    {.key = "urdf"},
    {.key = "prefix"},
    {.key = "base"},
    {.key = "position"},
    {.key = "rpy"},
    {.key = "q"},
    {.key = "qd"},
    {.key = "package_paths"},
    {.key = "actuators"},
    {.key = "geoms"},
    {"balance_inertia", SCN_BOOL, offsetof(mcd_urdf_options, balance_inertia), SCN_ANY},
    {"ignore_mimic", SCN_BOOL, offsetof(mcd_urdf_options, ignore_mimic), SCN_ANY},
    {"ignore_collision", SCN_BOOL, offsetof(mcd_urdf_options, ignore_collision), SCN_ANY},
};

/* Receives the URDF loader's warnings for one robot. */
typedef struct warning_sink {
    const scn_ctx *c;
    const scn_at *at;  /* the robot's urdf key */
    mcd_status status; /* MCD_ERR_NOMEM if a warning could not be kept */
} warning_sink;

static void keep_warning(void *user, const char *msg)
{
    warning_sink *w = user;
    mcd_scenario *s = w->c->s;
    const char *fmt = "%s:%d:%d: key '%s': %s";
    const yt_node *n = w->at->node;
    int len = snprintf(NULL, 0, fmt, w->c->file, n->line, n->column, w->at->key, msg);
    char *text = malloc((size_t)len + 1);
    char **grown = text ? realloc(s->warning, ((size_t)s->nwarning + 1) * sizeof *grown) : NULL;
    if (!grown) {
        free(text);
        w->status = MCD_ERR_NOMEM;
        return;
    }
    snprintf(text, (size_t)len + 1, fmt, w->c->file, n->line, n->column, w->at->key, msg);
    s->warning = grown;
    s->warning[s->nwarning++] = text;
}

static void free_paths(char **paths, int n)
{
    for (int i = 0; i < n; i++) free(paths[i]);
    free(paths);
}

/* The package search path, resolved against the scenario's directory. */
static mcd_status parse_packages(const scn_ctx *c, const scn_at *map, char ***paths, int *n)
{
    scn_at seq, item;
    const char *dir;
    *paths = NULL;
    *n = 0;
    if (!scn_find(map, "package_paths", &seq)) return MCD_OK;
    mcd_status st = scn_check_sequence(c, &seq, 1);
    if (st != MCD_OK) return st;
    if (!(*paths = calloc((size_t)seq.node->nitem, sizeof **paths)))
        return mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    for (int i = 0; st == MCD_OK && i < seq.node->nitem; i++) {
        scn_item(&seq, i, &item);
        st = scn_string(c, &item, 1, &dir);
        if (st == MCD_OK) st = scn_path(c, dir, &(*paths)[i]);
        *n += st == MCD_OK;
    }
    return st;
}

/* prefix, base and base pose of robot r. */
static mcd_status parse_placement(const scn_ctx *c, const scn_at *map, mcd_scenario_robot *r)
{
    scn_at at;
    const char *prefix = "";
    mcd_status st = MCD_OK;
    if (scn_find(map, "prefix", &at)) st = scn_string(c, &at, 0, &prefix);
    if (st == MCD_OK && !(r->prefix = strdup(prefix)))
        st = mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    if (st == MCD_OK && scn_find(map, "base", &at))
        st = scn_choice(c, &at, base_names, SCN_COUNT(base_names), &r->floating_base);
    if (st == MCD_OK) st = scn_pose(c, map, "position", "rpy", &r->base_pose);
    return st;
}

/* Loads the URDF of robot r, whose urdf key is at, into the builder. */
static mcd_status load_urdf(const scn_ctx *c, const scn_at *at, mcd_urdf_options *opt,
                            mcd_scenario_robot *r)
{
    warning_sink w = {c, at, MCD_OK};
    mcd_error e;
    opt->floating_base = r->floating_base;
    opt->warn = keep_warning;
    opt->warn_user = &w;
    r->frame_begin = mcd_builder_nlinks(c->b);
    mcd_status st =
        mcd_urdf_load_into(c->b, r->urdf, opt, r->prefix, &r->base_pose, &r->root_frame, &e);
    r->frame_end = mcd_builder_nlinks(c->b);
    if (st != MCD_OK) return scn_fail(c, at, st, "%s", e.msg);
    if (w.status != MCD_OK) return mcd_fail(c->err, w.status, "%s: out of memory", c->file);
    return MCD_OK;
}

static mcd_status add_robot(const scn_ctx *c, const scn_at *seq, int i)
{
    mcd_scenario_robot *r = &c->s->robot[i];
    mcd_urdf_options opt = mcd_urdf_default_options();
    scn_at map, at;
    const char *file;
    char **packages = NULL;
    scn_item(seq, i, &map);
    mcd_status st = scn_read_fields(c, &map, robot_fields, SCN_COUNT(robot_fields), &opt);
    if (st == MCD_OK) st = parse_placement(c, &map, r);
    if (st == MCD_OK) st = scn_require(c, &map, "urdf", &at);
    if (st == MCD_OK) st = scn_string(c, &at, 1, &file);
    if (st == MCD_OK) st = scn_path(c, file, &r->urdf);
    if (st == MCD_OK) st = parse_packages(c, &map, &packages, &opt.npackage_paths);
    opt.package_paths = (const char *const *)packages;
    if (st == MCD_OK) st = load_urdf(c, &at, &opt, r);
    if (st == MCD_OK) st = scn_add_robot_geoms(c, &map, r);
    free_paths(packages, opt.npackage_paths);
    return st;
}

mcd_status scn_add_robots(const scn_ctx *c, const scn_at *doc)
{
    mcd_scenario *s = c->s;
    scn_at seq;
    mcd_status st = scn_require(c, doc, "robots", &seq);
    if (st == MCD_OK) st = scn_check_sequence(c, &seq, 1);
    if (st != MCD_OK) return st;
    if (!(s->robot = calloc((size_t)seq.node->nitem, sizeof *s->robot)))
        return mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    for (int i = 0; st == MCD_OK && i < seq.node->nitem; i++) {
        s->nrobot++; /* counted first: mcd_scenario_free frees a half-made robot */
        st = add_robot(c, &seq, i);
    }
    return st;
}

void scn_robot_bodies(const scn_ctx *c)
{
    const mcd_model *m = c->s->model;
    for (int i = 0; i < c->s->nrobot; i++) {
        mcd_scenario_robot *r = &c->s->robot[i];
        r->body_begin = m->nbody;
        r->body_end = 0;
        for (int f = r->frame_begin; f < r->frame_end; f++) {
            int b = m->frame[f].body;
            if (b >= 0 && b < r->body_begin) r->body_begin = b;
            if (b >= 0 && b + 1 > r->body_end) r->body_end = b + 1;
        }
        if (r->body_end == 0) r->body_begin = 0;
    }
}

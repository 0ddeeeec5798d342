/* Scenario loading: the model (src/io/scenario_internal.h).
 *
 * The builder receives the name and gravity, the environment (first, so
 * that environment entry k is geom k), the robots and the closures, then
 * builds the model. A build error is located at the robot holding the link
 * it names ("link 'NAME': ..."), at the closure it names ("closure 'NAME':
 * ..."), or else at the start of the document.
 */
#include "scenario_internal.h"

#include <string.h>

/* The NAME of a message starting with prefix NAME', into name. */
static int quoted_name(const char *msg, const char *prefix, char *name, size_t len)
{
    size_t n = strlen(prefix);
    if (strncmp(msg, prefix, n) != 0) return 0;
    const char *end = strchr(msg + n, '\'');
    if (!end || (size_t)(end - msg - n) >= len) return 0;
    memcpy(name, msg + n, (size_t)(end - msg - n));
    name[end - msg - n] = '\0';
    return 1;
}

/* The urdf key of the robot whose links include the builder link named name. */
static void locate_link(const scn_ctx *c, const scn_at *doc, const char *name, scn_at *at)
{
    int link = mcd_builder_find_link(c->b, name);
    scn_at seq, robot;
    scn_find(doc, "robots", &seq);
    for (int i = 0; i < c->s->nrobot; i++) {
        const mcd_scenario_robot *r = &c->s->robot[i];
        if (link < r->frame_begin || link >= r->frame_end) continue;
        scn_item(&seq, i, &robot);
        scn_find(&robot, "urdf", at);
    }
}

/* The closure entry named name. */
static void locate_closure(const scn_at *doc, const char *name, scn_at *at)
{
    scn_at seq, closure, key;
    if (!scn_find(doc, "closures", &seq)) return;
    for (int i = 0; i < seq.node->nitem; i++) {
        scn_item(&seq, i, &closure);
        if (scn_find(&closure, "name", &key) && strcmp(key.node->text, name) == 0) *at = closure;
    }
}

static mcd_status build(const scn_ctx *c, const scn_at *doc)
{
    mcd_error e;
    char name[MCD_ERROR_LEN];
    scn_at at = *doc;
    mcd_status st = mcd_model_build(c->b, &c->s->model, &e);
    if (st == MCD_OK) return MCD_OK;
    if (quoted_name(e.msg, "link '", name, sizeof name)) locate_link(c, doc, name, &at);
    if (quoted_name(e.msg, "closure '", name, sizeof name)) locate_closure(doc, name, &at);
    return scn_fail(c, &at, st, "%s", e.msg);
}

static mcd_status set_gravity(const scn_ctx *c, const scn_at *doc)
{
    scn_at at;
    double g[3];
    mcd_error e;
    if (!scn_find(doc, "gravity", &at)) return MCD_OK;
    mcd_status st = scn_vector(c, &at, 3, (scn_bounds)SCN_ANY, g);
    if (st == MCD_OK && mcd_builder_set_gravity(c->b, g, &e) != MCD_OK)
        st = scn_fail(c, &at, e.status, "%s", e.msg);
    return st;
}

mcd_status scn_build_model(const scn_ctx *c, const scn_at *doc)
{
    mcd_error e;
    mcd_status st = mcd_builder_set_name(c->b, c->s->name, &e);
    if (st != MCD_OK) return mcd_fail(c->err, st, "%s: %s", c->file, e.msg);
    st = set_gravity(c, doc);
    if (st == MCD_OK) st = scn_add_environment(c, doc);
    if (st == MCD_OK) st = scn_add_robots(c, doc);
    if (st == MCD_OK) st = scn_add_closures(c, doc);
    if (st == MCD_OK) st = build(c, doc);
    if (st != MCD_OK) return st;
    scn_robot_bodies(c);
    return scn_check_env_names(c, doc);
}

/* Scenario loading: the environment, static geometry on the world
 * (src/io/scenario_internal.h).
 *
 * Each entry is a geom of the builder on link -1, added before any robot so
 * that entry k is geom k of the model. Its keys are name and the shape's
 * keys (scenario_geom.c). Names are unique, never "world", and once the
 * model is built never the name of a link.
 */
#include "scenario_internal.h"

#include <stdlib.h>
#include <string.h>

/* The name of entry i: nonempty, not "world", not the name of an earlier entry. */
static mcd_status parse_name(const scn_ctx *c, const scn_at *seq, const scn_at *map, int i,
                             const char **name)
{
    scn_at at, other;
    mcd_status st = scn_require(c, map, "name", &at);
    if (st == MCD_OK) st = scn_string(c, &at, 1, name);
    if (st != MCD_OK) return st;
    if (strcmp(*name, "world") == 0)
        return scn_fail(c, &at, MCD_ERR_MODEL, "'world' is reserved for the world frame");
    for (int j = 0; j < i; j++)
        if (strcmp(c->s->env_name[j], *name) == 0) {
            scn_item(seq, j, &other);
            return scn_fail(c, &at, MCD_ERR_MODEL, "duplicate environment name (first at line %d)",
                            other.node->line);
        }
    return MCD_OK;
}

/* Adds the geom g of entry i, named name, on the world. */
static mcd_status add_geom(const scn_ctx *c, const scn_at *map, mcd_geom *g, const char *name,
                           int i)
{
    mcd_error e;
    mcd_status st = MCD_OK;
    g->body = -1;
    if (mcd_builder_add_geom(c->b, -1, g, &e) != MCD_OK)
        st = scn_fail(c, map, e.status, "%s", e.msg);
    if (st == MCD_OK && !(c->s->env_name[i] = strdup(name)))
        st = mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    if (st == MCD_OK) c->s->env_geom[i] = i;
    return st;
}

static mcd_status parse_entry(const scn_ctx *c, const scn_at *seq, int i)
{
    scn_at map;
    mcd_geom g;
    const char *name;
    scn_item(seq, i, &map);
    mcd_status st = scn_parse_geom(c, &map, "name", &g);
    if (st == MCD_OK) st = parse_name(c, seq, &map, i, &name);
    if (st == MCD_OK) st = add_geom(c, &map, &g, name, i);
    free(g.mesh_path);
    return st;
}

mcd_status scn_add_environment(const scn_ctx *c, const scn_at *doc)
{
    mcd_scenario *s = c->s;
    scn_at seq;
    if (!scn_find(doc, "environment", &seq)) return MCD_OK;
    mcd_status st = scn_check_sequence(c, &seq, 0);
    if (st != MCD_OK || seq.node->nitem == 0) return st;
    s->env_name = calloc((size_t)seq.node->nitem, sizeof *s->env_name);
    s->env_geom = calloc((size_t)seq.node->nitem, sizeof *s->env_geom);
    if (!s->env_name || !s->env_geom)
        return mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    for (int i = 0; st == MCD_OK && i < seq.node->nitem; i++) {
        st = parse_entry(c, &seq, i);
        s->nenv += st == MCD_OK;
    }
    return st;
}

mcd_status scn_check_env_names(const scn_ctx *c, const scn_at *doc)
{
    scn_at seq, map, at;
    if (!scn_find(doc, "environment", &seq)) return MCD_OK;
    for (int i = 0; i < c->s->nenv; i++) {
        if (mcd_model_frame_index(c->s->model, c->s->env_name[i]) < 0) continue;
        scn_item(&seq, i, &map);
        scn_find(&map, "name", &at);
        return scn_fail(c, &at, MCD_ERR_MODEL, "'%s' is also the name of a link",
                        c->s->env_name[i]);
    }
    return MCD_OK;
}

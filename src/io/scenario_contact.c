/* Scenario loading: the contact section (src/io/scenario_internal.h).
 *
 * Global parameters are read with the other settings; the per-pair
 * overrides name links and environment entries, so they are read once the
 * model is built. A pair starts from the global values; at least one of mu,
 * restitution and enabled must be written, the two objects must differ and
 * no pair may be given twice (in either order).
 */
#include "scenario_internal.h"

#include <stdlib.h>

/* Names of mcd_direction_mode (contact.h) and mcd_penetration_method, in
 * enum order. */
static const char *const direction_mode_names[] = {"aligned", "fixed"};
static const char *const penetration_names[MCD_PENETRATION_METHOD_COUNT] = {"none", "velocity",
                                                                            "position"};

#define CON(field) offsetof(mcd_contact_settings, field)
static const scn_field contact_fields[] = {
    {"mu", SCN_NUMBER, CON(mu), SCN_NONNEG},
    {"restitution", SCN_NUMBER, CON(restitution), SCN_UNIT},
    {"activation_distance", SCN_NUMBER, CON(activation_distance), SCN_NONNEG},
    {"resting_gap", SCN_NUMBER, CON(resting_gap), {0.0, MCD_CONTACT_MAX_RESTING_GAP, 0, 0}},
    {"self_collision", SCN_BOOL, CON(self_collision), SCN_ANY},
    {"joint_limits", SCN_BOOL, CON(joint_limits), SCN_ANY},
    {"directions", SCN_INT, CON(directions), {4, INFINITY, 0, 0}},
    {"max_points", SCN_INT, CON(max_points), {1, MCD_SIM_MAX_CONTACTS, 0, 0}},
    {.key = "direction_mode"},
    {.key = "impact_law"},
    {"direction_angle", SCN_NUMBER, CON(direction_angle), SCN_ANY},
    {.key = "penetration"},
    {.key = "pairs"},
};

static const scn_field penetration_fields[] = {
    {.key = "method"},
    {"gain", SCN_NUMBER, CON(penetration_gain), SCN_UNIT},
    {"max_velocity", SCN_NUMBER, CON(penetration_max_velocity), SCN_NONNEG},
};
#undef CON

static mcd_status parse_penetration(const scn_ctx *c, const scn_at *map, mcd_contact_settings *s)
{
    scn_at pen, at;
    int v;
    if (!scn_find(map, "penetration", &pen)) return MCD_OK;
    mcd_status st = scn_read_fields(c, &pen, penetration_fields, SCN_COUNT(penetration_fields), s);
    if (st == MCD_OK && scn_find(&pen, "method", &at)) {
        st = scn_choice(c, &at, penetration_names, MCD_PENETRATION_METHOD_COUNT, &v);
        if (st == MCD_OK) s->penetration = (mcd_penetration_method)v;
    }
    /* the position step removes a fraction of each depth: 0 would remove
     * nothing while solving a problem every step (method none says so) */
    if (st == MCD_OK && s->penetration == MCD_PENETRATION_POSITION && !(s->penetration_gain > 0))
        st = scn_fail(c, scn_find(&pen, "gain", &at) ? &at : &pen, MCD_ERR_ARG,
                      "gain = %g: method position needs a gain in (0, 1] (method none turns the "
                      "correction off)",
                      s->penetration_gain);
    return st;
}

mcd_status scn_parse_contact(const scn_ctx *c, const scn_at *doc)
{
    mcd_contact_settings *s = &c->s->settings.contact;
    scn_at map, at;
    int v;
    if (!scn_find(doc, "contact", &map)) return MCD_OK;
    mcd_status st = scn_read_fields(c, &map, contact_fields, SCN_COUNT(contact_fields), s);
    if (st == MCD_OK && s->directions % 2 != 0 && scn_find(&map, "directions", &at))
        st = scn_fail(c, &at, MCD_ERR_ARG,
                      "must be even (each direction comes with its opposite), got %d",
                      s->directions);
    if (st == MCD_OK && scn_find(&map, "direction_mode", &at)) {
        st = scn_choice(c, &at, direction_mode_names, SCN_COUNT(direction_mode_names), &v);
        if (st == MCD_OK) s->direction_mode = (mcd_direction_mode)v;
    }
    if (st == MCD_OK && scn_find(&map, "impact_law", &at)) {
        const char *name;
        mcd_error e;
        st = scn_string(c, &at, 1, &name);
        if (st == MCD_OK && mcd_impact_law_from_name(name, &s->impact_law, &e) != MCD_OK)
            st = scn_fail(c, &at, MCD_ERR_PARSE, "%s", e.msg);
    }
    if (st == MCD_OK) st = parse_penetration(c, &map, s);
    return st;
}

#define PAIR(field) offsetof(mcd_contact_pair, field)
static const scn_field pair_fields[] = {
    {.key = "a"},
    {.key = "b"},
    {"mu", SCN_NUMBER, PAIR(mu), SCN_NONNEG},
    {"restitution", SCN_NUMBER, PAIR(restitution), SCN_UNIT},
    {"enabled", SCN_BOOL, PAIR(enabled), SCN_ANY},
};
#undef PAIR

/* The link or environment entry named by key of map. */
static mcd_status parse_object(const scn_ctx *c, const scn_at *map, const char *key,
                               mcd_scenario_object *o)
{
    scn_at at;
    const char *name;
    mcd_status st = scn_require(c, map, key, &at);
    if (st == MCD_OK) st = scn_string(c, &at, 1, &name);
    if (st != MCD_OK) return st;
    o->env = mcd_scenario_env_index(c->s, name);
    o->frame = o->env < 0 ? mcd_model_frame_index(c->s->model, name) : -1;
    if (o->env < 0 && o->frame < 0)
        return scn_fail(c, &at, MCD_ERR_MODEL, "no link or environment entry is named '%s'", name);
    return MCD_OK;
}

static int same_object(mcd_scenario_object x, mcd_scenario_object y)
{
    return x.frame == y.frame && x.env == y.env;
}

static int same_pair(const mcd_contact_pair *p, const mcd_contact_pair *q)
{
    return (same_object(p->a, q->a) && same_object(p->b, q->b)) ||
           (same_object(p->a, q->b) && same_object(p->b, q->a));
}

/* Pair i of the sequence seq into c->s->settings.contact.pair[i]. */
static mcd_status parse_pair(const scn_ctx *c, const scn_at *seq, int i)
{
    mcd_contact_settings *s = &c->s->settings.contact;
    mcd_contact_pair *p = &s->pair[i];
    scn_at map, at;
    scn_item(seq, i, &map);
    *p = (mcd_contact_pair){.mu = s->mu, .restitution = s->restitution, .enabled = 1};
    mcd_status st = scn_read_fields(c, &map, pair_fields, SCN_COUNT(pair_fields), p);
    if (st == MCD_OK) st = parse_object(c, &map, "a", &p->a);
    if (st == MCD_OK) st = parse_object(c, &map, "b", &p->b);
    if (st != MCD_OK) return st;
    if (scn_find(&map, "b", &at) && same_object(p->a, p->b))
        return scn_fail(c, &at, MCD_ERR_MODEL, "a pair needs two different objects");
    if (!scn_find(&map, "mu", &at) && !scn_find(&map, "restitution", &at) &&
        !scn_find(&map, "enabled", &at))
        return scn_fail(c, &map, MCD_ERR_PARSE, "sets nothing (write mu, restitution or enabled)");
    for (int j = 0; j < i; j++)
        if (same_pair(p, &s->pair[j]))
            return scn_fail(c, &map, MCD_ERR_MODEL, "the same pair as contact.pairs[%d] (line %d)",
                            j, seq->node->item[j].line);
    return MCD_OK;
}

mcd_status scn_parse_pairs(const scn_ctx *c, const scn_at *doc)
{
    mcd_contact_settings *s = &c->s->settings.contact;
    scn_at map, seq;
    if (!scn_find(doc, "contact", &map) || !scn_find(&map, "pairs", &seq)) return MCD_OK;
    mcd_status st = scn_check_sequence(c, &seq, 0);
    if (st != MCD_OK || seq.node->nitem == 0) return st;
    s->pair = calloc((size_t)seq.node->nitem, sizeof *s->pair);
    if (!s->pair) return mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    for (int i = 0; st == MCD_OK && i < seq.node->nitem; i++) {
        st = parse_pair(c, &seq, i);
        s->npair += st == MCD_OK;
    }
    return st;
}

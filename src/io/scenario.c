/* Scenario loading: entry points, the pipeline and freeing
 * (include/mcdyn/scenario.h, src/io/scenario_internal.h).
 *
 * The document's keys are checked first, then read in dependency order:
 * the simple settings, the model (environment, robots, closures), the
 * initial state and the contact pairs, which need the built model. The
 * scenario is filled in place and freed whole on any error.
 */
#include "scenario_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SET(field) offsetof(mcd_scenario_settings, field)
static const scn_field document_fields[] = {
    {.key = "name"},
    {.key = "gravity"},
    {.key = "robots"},
    {.key = "closures"},
    {.key = "environment"},
    {.key = "contact"},
    {.key = "solver"},
    {.key = "nslcp"},
    {.key = "integrator"},
    {"dt", SCN_NUMBER, SET(dt), SCN_POSITIVE},
    {"duration", SCN_NUMBER, SET(duration), SCN_POSITIVE},
    {"closure_tolerance", SCN_NUMBER, SET(closure_tolerance), SCN_POSITIVE},
    {.key = "output"},
};
#undef SET

/* The file name of path without its directory and extension. */
static char *stem(const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *dot = strrchr(base, '.');
    return strndup(base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
}

/* The scenario's name: the name key, else default_name's stem. */
static mcd_status parse_name(const scn_ctx *c, const scn_at *doc, const char *default_name)
{
    scn_at at;
    const char *name;
    mcd_status st = MCD_OK;
    if (scn_find(doc, "name", &at)) {
        st = scn_string(c, &at, 1, &name);
        if (st == MCD_OK) c->s->name = strdup(name);
    } else {
        c->s->name = stem(default_name);
    }
    if (st == MCD_OK && !c->s->name)
        st = mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    return st;
}

static mcd_status parse_document(const scn_ctx *c, const yt_node *root, const char *default_name)
{
    if (!root || yt_is_null(root))
        return mcd_fail(c->err, MCD_ERR_PARSE, "%s: empty scenario (robots are required)", c->file);
    scn_at doc = {.node = root, .key = ""};
    mcd_status st =
        scn_read_fields(c, &doc, document_fields, SCN_COUNT(document_fields), &c->s->settings);
    if (st == MCD_OK) st = parse_name(c, &doc, default_name);
    if (st == MCD_OK) st = scn_parse_settings(c, &doc);
    if (st == MCD_OK) st = scn_parse_contact(c, &doc);
    if (st == MCD_OK) st = scn_parse_nslcp(c, &doc);
    if (st == MCD_OK) st = scn_build_model(c, &doc);
    if (st == MCD_OK) st = scn_parse_state(c, &doc);
    if (st == MCD_OK) st = scn_parse_actuators(c, &doc);
    if (st == MCD_OK) st = scn_parse_pairs(c, &doc);
    return st;
}

/* Makes the scenario of a parsed document; file and dir as in scn_ctx. */
static mcd_status load(const char *file, const char *dir, const char *default_name,
                       const yt_node *root, mcd_scenario **out, mcd_error *err)
{
    mcd_scenario *s = calloc(1, sizeof *s);
    if (!s) return mcd_fail(err, MCD_ERR_NOMEM, "%s: out of memory", file);
    s->settings = mcd_scenario_default_settings();
    scn_ctx c = {file, dir, err, s, NULL};
    mcd_status st = mcd_builder_create(&c.b);
    if (st != MCD_OK) mcd_fail(err, st, "%s: cannot create a model builder", file);
    if (st == MCD_OK) st = parse_document(&c, root, default_name);
    mcd_builder_free(c.b);
    if (st != MCD_OK) {
        mcd_scenario_free(s);
        return st;
    }
    *out = s;
    return MCD_OK;
}

/* The directory part of path into *dir ("" for "/x", NULL for a bare name). */
static mcd_status directory_of(const char *path, char **dir, mcd_error *err)
{
    const char *slash = strrchr(path, '/');
    *dir = slash ? strndup(path, (size_t)(slash - path)) : NULL;
    if (slash && !*dir) return mcd_fail(err, MCD_ERR_NOMEM, "%s: out of memory", path);
    return MCD_OK;
}

static mcd_status parse_file(const char *path, yt_node **root, mcd_error *err)
{
    char reason[128] = "";
    FILE *f = fopen(path, "rb");
    if (!f) {
        strerror_r(errno, reason, sizeof reason);
        return mcd_fail(err, MCD_ERR_IO, "%s: cannot open: %s", path, reason);
    }
    mcd_status st = yt_parse_file(f, path, root, err);
    fclose(f);
    return st;
}

mcd_status scn_load_edited(const char *path, scn_edit edit, const void *ctx, mcd_scenario **out,
                           mcd_error *err)
{
    *out = NULL;
    mcd_error_clear(err);
    yt_node *root = NULL;
    char *dir = NULL;
    mcd_status st = parse_file(path, &root, err);
    if (st == MCD_OK && edit) st = edit(path, &root, ctx, err);
    if (st == MCD_OK) st = directory_of(path, &dir, err);
    if (st == MCD_OK) st = load(path, dir, path, root, out, err);
    free(dir);
    yt_free(root);
    return st;
}

mcd_status mcd_scenario_load(const char *path, mcd_scenario **out, mcd_error *err)
{
    if (!path || !out) return mcd_fail(err, MCD_ERR_ARG, "mcd_scenario_load: NULL argument");
    return scn_load_edited(path, NULL, NULL, out, err);
}

mcd_status mcd_scenario_load_string(const char *yaml, const char *name_for_messages,
                                    const char *base_dir, mcd_scenario **out, mcd_error *err)
{
    if (!yaml || !out) return mcd_fail(err, MCD_ERR_ARG, "mcd_scenario_load_string: NULL argument");
    *out = NULL;
    mcd_error_clear(err);
    const char *file = name_for_messages ? name_for_messages : "<string>";
    yt_node *root = NULL;
    mcd_status st = yt_parse_string(yaml, file, &root, err);
    if (st == MCD_OK)
        st = load(file, base_dir, name_for_messages ? name_for_messages : "scenario", root, out,
                  err);
    yt_free(root);
    return st;
}

static void free_strings(char **v, int n)
{
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
}

void mcd_scenario_free(mcd_scenario *s)
{
    if (!s) return;
    for (int i = 0; i < s->nrobot; i++) {
        free(s->robot[i].urdf);
        free(s->robot[i].prefix);
    }
    free(s->robot);
    free_strings(s->env_name, s->nenv);
    free(s->env_geom);
    free(s->settings.contact.pair);
    free(s->settings.output.csv);
    free(s->settings.output.plot);
    free(s->settings.output.h5);
    free(s->settings.output.html);
    free_strings(s->settings.output.plot_columns, s->settings.output.nplot_columns);
    free_strings(s->warning, s->nwarning);
    free(s->q0);
    free(s->qd0);
    free(s->actuator);
    for (int i = 0; i < s->nseries; i++) free(s->series[i]);
    free(s->series);
    mcd_model_free(s->model);
    free(s->name);
    free(s);
}

int mcd_scenario_env_index(const mcd_scenario *s, const char *name)
{
    for (int i = 0; s && name && i < s->nenv; i++)
        if (strcmp(s->env_name[i], name) == 0) return i;
    return -1;
}

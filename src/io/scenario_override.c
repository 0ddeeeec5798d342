/* Scenario overrides: scalar keys of the parsed document replaced by path
 * before the strict loader reads it (include/mcdyn/scenario.h).
 *
 * A path is walked segment by segment through the tree of yaml_tree.h: a
 * key in a mapping (added when absent, with an empty mapping when more
 * follows), then its [i] indices into sequences (which must exist). The
 * last node becomes a plain scalar holding the value. Added nodes take the
 * line and column of the mapping they are added to, so that the loader's
 * messages about them point at their parent.
 */
#include "scenario_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct override_list {
    const mcd_scenario_override *ov;
    int n;
} override_list;

static mcd_status fail(mcd_error *err, const char *path, const char *what)
{
    return mcd_fail(err, MCD_ERR_ARG, "override '%s': %s", path, what);
}

/* Appends an empty node to the collection n; NULL when out of memory. */
static yt_node *append(yt_node *n)
{
    if (n->nitem == n->cap) {
        int cap = n->cap ? 2 * n->cap : 8;
        yt_node *item = realloc(n->item, (size_t)cap * sizeof *item);
        if (!item) return NULL;
        n->item = item;
        n->cap = cap;
    }
    yt_node *added = &n->item[n->nitem++];
    memset(added, 0, sizeof *added);
    added->line = n->line;
    added->column = n->column;
    return added;
}

/* n becomes the plain scalar text (its old text freed); 0 when out of memory. */
static int set_scalar(yt_node *n, const char *text, size_t len)
{
    char *copy = strndup(text, len);
    if (!copy) return 0;
    free(n->text);
    n->kind = YT_SCALAR;
    n->text = copy;
    n->plain = 1;
    return 1;
}

/* The value of key (len bytes) in the mapping map, added (a null scalar)
 * when absent; NULL when out of memory. */
static yt_node *entry(yt_node *map, const char *key, size_t len)
{
    for (int i = 0; i + 1 < map->nitem; i += 2)
        if (strlen(map->item[i].text) == len && !strncmp(map->item[i].text, key, len))
            return &map->item[i + 1];
    yt_node *k = append(map);
    if (!k || !set_scalar(k, key, len)) return NULL;
    yt_node *v = append(map);
    if (!v || !set_scalar(v, "", 0)) return NULL;
    return &map->item[map->nitem - 1];
}

/* Steps from *n into the mapping key at *p (advanced past it). A null
 * scalar (an empty section such as "contact:") becomes an empty mapping. */
static mcd_status step_key(const char *path, const char **p, yt_node **n, mcd_error *err)
{
    size_t len = strcspn(*p, ".[]");
    if (len == 0) return fail(err, path, "empty key in the path");
    if (yt_is_null(*n)) {
        free((*n)->text);
        (*n)->text = NULL;
        (*n)->kind = YT_MAPPING;
    }
    if ((*n)->kind != YT_MAPPING)
        return fail(err, path, "steps into a value that is not a mapping");
    yt_node *child = entry(*n, *p, len);
    if (!child) return mcd_fail(err, MCD_ERR_NOMEM, "override '%s': out of memory", path);
    *n = child;
    *p += len;
    return MCD_OK;
}

/* Steps from the sequence *n into item [i] at *p (advanced past it). */
static mcd_status step_index(const char *path, const char **p, yt_node **n, mcd_error *err)
{
    char *end;
    const char *digits = *p + 1;
    long i = strtol(digits, &end, 10);
    if (end == digits || *digits < '0' || *digits > '9' || *end != ']')
        return fail(err, path, "an index must be [N] with N a decimal number");
    if ((*n)->kind != YT_SEQUENCE)
        return fail(err, path, "an index into a value that is not a sequence");
    if (i >= (*n)->nitem) return fail(err, path, "index past the end of the sequence");
    *n = &(*n)->item[i];
    *p = end + 1;
    return MCD_OK;
}

/* Sets the key at ov->path of the document *root to ov->value. */
static mcd_status apply(yt_node *root, const mcd_scenario_override *ov, mcd_error *err)
{
    const char *path = ov->path, *p = path;
    yt_node *n = root;
    mcd_status st = MCD_OK;
    while (st == MCD_OK) {
        st = step_key(path, &p, &n, err);
        while (st == MCD_OK && *p == '[') st = step_index(path, &p, &n, err);
        if (st != MCD_OK || *p == '\0') break;
        if (*p != '.' || p[1] == '\0') return fail(err, path, "malformed path");
        p++;
    }
    if (st != MCD_OK) return st;
    if (n->kind != YT_SCALAR) return fail(err, path, "names a mapping or a sequence, not a scalar");
    if (!set_scalar(n, ov->value, strlen(ov->value)))
        return mcd_fail(err, MCD_ERR_NOMEM, "override '%s': out of memory", path);
    return MCD_OK;
}

static mcd_status apply_all(const char *file, yt_node **root, const void *ctx, mcd_error *err)
{
    const override_list *list = ctx;
    if (!*root && list->n > 0) {
        if (!(*root = calloc(1, sizeof **root)))
            return mcd_fail(err, MCD_ERR_NOMEM, "%s: out of memory", file);
        (*root)->kind = YT_MAPPING;
        (*root)->line = (*root)->column = 1;
    }
    mcd_status st = MCD_OK;
    for (int i = 0; i < list->n && st == MCD_OK; i++) st = apply(*root, &list->ov[i], err);
    return st;
}

mcd_status mcd_scenario_load_with(const char *path, const mcd_scenario_override *ov, int n,
                                  mcd_scenario **out, mcd_error *err)
{
    if (!path || !out || n < 0 || (n > 0 && !ov))
        return mcd_fail(err, MCD_ERR_ARG,
                        "mcd_scenario_load_with: NULL argument or negative count");
    *out = NULL;
    for (int i = 0; i < n; i++)
        if (!ov[i].path || !ov[i].value)
            return mcd_fail(err, MCD_ERR_ARG,
                            "mcd_scenario_load_with: override %d has a NULL "
                            "path or value",
                            i);
    override_list list = {ov, n};
    return scn_load_edited(path, apply_all, &list, out, err);
}

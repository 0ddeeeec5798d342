/* Scenario loading: located errors, key paths and typed values
 * (src/io/scenario_internal.h).
 *
 * Types follow YAML's core schema, strictly: a number is a plain (unquoted)
 * scalar that strtod reads whole ('.' decimal point), so "0.5" in quotes is
 * a string; .nan, .inf, nan, inf and overflowing numbers are MCD_ERR_NONFINITE;
 * a boolean is true or false; null (empty, ~, null) is accepted nowhere.
 */
#include "scenario_internal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

mcd_status scn_fail(const scn_ctx *c, const scn_at *at, mcd_status st, const char *fmt, ...)
{
    char what[MCD_ERROR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!at->key[0])
        return mcd_fail(c->err, st, "%s:%d:%d: %s", c->file, at->node->line, at->node->column,
                        what);
    return mcd_fail(c->err, st, "%s:%d:%d: key '%s': %s", c->file, at->node->line, at->node->column,
                    at->key, what);
}

/* "a mapping", "a sequence", "null", "'text'" */
static const char *describe(const yt_node *n, char *buf, size_t len)
{
    if (n->kind == YT_MAPPING) return "a mapping";
    if (n->kind == YT_SEQUENCE) return "a sequence";
    if (yt_is_null(n)) return "null";
    if (snprintf(buf, len, "'%s'", n->text) >= (int)len) snprintf(buf + len - 5, 5, "...'");
    return buf;
}

static mcd_status type_error(const scn_ctx *c, const scn_at *at, const char *expected)
{
    char buf[64];
    return scn_fail(c, at, MCD_ERR_PARSE, "expected %s, got %s", expected,
                    describe(at->node, buf, sizeof buf));
}

/* dst = a b c, cut to SCN_KEY_LEN - 1 characters (long paths only shorten
 * messages). */
static void join_path(char *dst, const char *a, const char *b, const char *c)
{
    const char *parts[3] = {a, b, c};
    size_t n = 0;
    for (int p = 0; p < 3; p++)
        for (const char *s = parts[p]; *s && n + 1 < SCN_KEY_LEN; s++) dst[n++] = *s;
    dst[n] = '\0';
}

/* child's path: parent's, then ".key" */
static void at_key(scn_at *child, const scn_at *parent, const yt_node *node, const char *key)
{
    child->node = node;
    join_path(child->key, parent->key, parent->key[0] ? "." : "", key);
}

void scn_item(const scn_at *seq, int i, scn_at *child)
{
    char index[16];
    snprintf(index, sizeof index, "[%d]", i);
    child->node = &seq->node->item[i];
    join_path(child->key, seq->key, index, "");
}

void scn_entry(const scn_at *map, int i, scn_at *child)
{
    at_key(child, map, &map->node->item[2 * i + 1], map->node->item[2 * i].text);
}

const char *scn_entry_key(const scn_at *map, int i)
{
    return map->node->item[2 * i].text;
}

/* "a, b, c" from the first count names. */
static void join_names(char *buf, size_t len, const char *const *names, int count)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < count && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
        used += n > 0 ? (size_t)n : 0;
    }
}

/* Entry i of a mapping: a key outside the n fields (fields NULL: any), or a
 * repeated key. */
static mcd_status check_key(const scn_ctx *c, const scn_at *map, int i, const scn_field *fields,
                            int n)
{
    const yt_node *m = map->node, *k = &m->item[2 * i];
    scn_at at;
    at_key(&at, map, k, k->text);
    int known = !fields;
    for (int f = 0; !known && f < n; f++) known = strcmp(fields[f].key, k->text) == 0;
    if (!known) {
        const char *names[SCN_MAX_FIELDS];
        char list[MCD_ERROR_LEN / 2];
        for (int f = 0; f < n && f < SCN_MAX_FIELDS; f++) names[f] = fields[f].key;
        join_names(list, sizeof list, names, n < SCN_MAX_FIELDS ? n : SCN_MAX_FIELDS);
        return scn_fail(c, &at, MCD_ERR_PARSE, "unknown key (expected one of: %s)", list);
    }
    for (int j = 0; j < i; j++)
        if (strcmp(m->item[2 * j].text, k->text) == 0)
            return scn_fail(c, &at, MCD_ERR_PARSE, "duplicate key (first at line %d)",
                            m->item[2 * j].line);
    return MCD_OK;
}

mcd_status scn_check_mapping(const scn_ctx *c, const scn_at *at, const scn_field *fields, int n)
{
    if (at->node->kind != YT_MAPPING) return type_error(c, at, "a mapping");
    mcd_status st = MCD_OK;
    for (int i = 0; st == MCD_OK && i < yt_map_size(at->node); i++)
        st = check_key(c, at, i, fields, n);
    return st;
}

mcd_status scn_check_sequence(const scn_ctx *c, const scn_at *at, int min_items)
{
    if (at->node->kind != YT_SEQUENCE) return type_error(c, at, "a sequence");
    if (at->node->nitem < min_items)
        return scn_fail(c, at, MCD_ERR_PARSE, "needs at least %d item%s", min_items,
                        min_items > 1 ? "s" : "");
    return MCD_OK;
}

int scn_find(const scn_at *map, const char *key, scn_at *child)
{
    for (int i = 0; i < yt_map_size(map->node); i++)
        if (strcmp(scn_entry_key(map, i), key) == 0) {
            scn_entry(map, i, child);
            return 1;
        }
    return 0;
}

mcd_status scn_require(const scn_ctx *c, const scn_at *map, const char *key, scn_at *child)
{
    if (scn_find(map, key, child)) return MCD_OK;
    scn_at missing;
    at_key(&missing, map, map->node, key);
    return scn_fail(c, &missing, MCD_ERR_PARSE, "missing (required)");
}

static int is_plain_value(const yt_node *n)
{
    return n->kind == YT_SCALAR && n->plain;
}

static mcd_status check_bounds(const scn_ctx *c, const scn_at *at, scn_bounds b, double v)
{
    int low_ok = b.lo_open ? v > b.lo : v >= b.lo;
    int high_ok = b.hi_open ? v < b.hi : v <= b.hi;
    if (low_ok && high_ok) return MCD_OK;
    if (isinf(b.hi))
        return scn_fail(c, at, MCD_ERR_ARG, "must be %s %g (got %g)", b.lo_open ? ">" : ">=", b.lo,
                        v);
    return scn_fail(c, at, MCD_ERR_ARG, "must be in %c%g, %g%c (got %g)", b.lo_open ? '(' : '[',
                    b.lo, b.hi, b.hi_open ? ')' : ']', v);
}

/* YAML's spellings of NaN and infinity. */
static int is_yaml_nonfinite(const char *s)
{
    static const char *const words[] = {".nan", ".inf", "+.inf", "-.inf"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcasecmp(s, words[i]) == 0) return 1;
    return 0;
}

mcd_status scn_number(const scn_ctx *c, const scn_at *at, scn_bounds b, double *out)
{
    const yt_node *n = at->node;
    if (!is_plain_value(n) || yt_is_null(n)) return type_error(c, at, "a number");
    char *end;
    double v = strtod(n->text, &end);
    int whole = end != n->text && !*end;
    if (is_yaml_nonfinite(n->text) || (whole && !isfinite(v)))
        return scn_fail(c, at, MCD_ERR_NONFINITE, "'%s' is NaN, infinite or out of range", n->text);
    if (!whole) return type_error(c, at, "a number");
    mcd_status st = check_bounds(c, at, b, v);
    if (st == MCD_OK) *out = v;
    return st;
}

mcd_status scn_int(const scn_ctx *c, const scn_at *at, int min, int max, int *out)
{
    const yt_node *n = at->node;
    if (!is_plain_value(n) || yt_is_null(n)) return type_error(c, at, "an integer");
    char *end;
    errno = 0;
    long v = strtol(n->text, &end, 10);
    if (end == n->text || *end) return type_error(c, at, "an integer");
    if (errno == ERANGE || v > INT_MAX || v < INT_MIN)
        return scn_fail(c, at, MCD_ERR_ARG, "'%s' is out of range", n->text);
    if (v < min) return scn_fail(c, at, MCD_ERR_ARG, "must be >= %d (got %ld)", min, v);
    if (v > max) return scn_fail(c, at, MCD_ERR_ARG, "must be <= %d (got %ld)", max, v);
    *out = (int)v;
    return MCD_OK;
}

mcd_status scn_bool(const scn_ctx *c, const scn_at *at, int *out)
{
    static const char *const words[] = {"false", "False", "FALSE", "true", "True", "TRUE"};
    const yt_node *n = at->node;
    const int count = (int)(sizeof words / sizeof words[0]);
    for (int i = 0; is_plain_value(n) && i < count; i++)
        if (strcmp(n->text, words[i]) == 0) {
            *out = i >= count / 2;
            return MCD_OK;
        }
    return type_error(c, at, "true or false");
}

mcd_status scn_string(const scn_ctx *c, const scn_at *at, int nonempty, const char **out)
{
    const yt_node *n = at->node;
    if (n->kind != YT_SCALAR || yt_is_null(n)) return type_error(c, at, "a string");
    if (nonempty && !n->text[0]) return scn_fail(c, at, MCD_ERR_ARG, "must not be empty");
    *out = n->text;
    return MCD_OK;
}

mcd_status scn_string_copy(const scn_ctx *c, const scn_at *at, char **out)
{
    const char *text;
    mcd_status st = scn_string(c, at, 1, &text);
    if (st != MCD_OK) return st;
    char *copy = strdup(text);
    if (!copy) return mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    free(*out);
    *out = copy;
    return MCD_OK;
}

mcd_status scn_vector(const scn_ctx *c, const scn_at *at, int n, scn_bounds b, double *out)
{
    char what[32];
    snprintf(what, sizeof what, "a sequence of %d numbers", n);
    if (at->node->kind != YT_SEQUENCE) return type_error(c, at, what);
    if (at->node->nitem != n)
        return scn_fail(c, at, MCD_ERR_PARSE, "expected %d numbers, got %d", n, at->node->nitem);
    mcd_status st = MCD_OK;
    for (int i = 0; st == MCD_OK && i < n; i++) {
        scn_at item;
        scn_item(at, i, &item);
        st = scn_number(c, &item, b, &out[i]);
    }
    return st;
}

mcd_status scn_choice(const scn_ctx *c, const scn_at *at, const char *const *names, int count,
                      int *out)
{
    const char *text;
    mcd_status st = scn_string(c, at, 0, &text);
    if (st != MCD_OK) return st;
    for (int i = 0; i < count; i++)
        if (strcmp(text, names[i]) == 0) {
            *out = i;
            return MCD_OK;
        }
    char list[MCD_ERROR_LEN / 2];
    join_names(list, sizeof list, names, count);
    return scn_fail(c, at, MCD_ERR_PARSE, "unknown value '%s' (expected one of: %s)", text, list);
}

mcd_status scn_pose(const scn_ctx *c, const scn_at *map, const char *xyz_key, const char *rpy_key,
                    mcd_pose *X)
{
    double xyz[3] = {0, 0, 0}, rpy[3] = {0, 0, 0};
    scn_at at;
    mcd_status st = MCD_OK;
    if (scn_find(map, xyz_key, &at)) st = scn_vector(c, &at, 3, (scn_bounds)SCN_ANY, xyz);
    if (st == MCD_OK && scn_find(map, rpy_key, &at))
        st = scn_vector(c, &at, 3, (scn_bounds)SCN_ANY, rpy);
    if (st != MCD_OK) return st;
    mcd_m3_rpy(X->R, rpy[0], rpy[1], rpy[2]);
    mcd_v3_copy(X->p, xyz);
    return MCD_OK;
}

mcd_status scn_path(const scn_ctx *c, const char *name, char **out)
{
    int relative = name[0] != '/' && c->dir;
    size_t nd = relative ? strlen(c->dir) + 1 : 0, nn = strlen(name) + 1;
    *out = malloc(nd + nn);
    if (!*out) return mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    if (relative) {
        memcpy(*out, c->dir, nd - 1);
        (*out)[nd - 1] = '/';
    }
    memcpy(*out + nd, name, nn);
    return MCD_OK;
}

/* URDF import: located messages and attribute readers (src/io/urdf_internal.h). */
#include "urdf_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define URDF_MAX_NUMBERS 3

int urdf_is(const xmlNode *node, const char *name)
{
    return node && node->type == XML_ELEMENT_NODE && strcmp((const char *)node->name, name) == 0;
}

/* "<tag name="...">" or "<tag>" */
static void element_text(const xmlNode *node, char *buf, size_t len)
{
    xmlChar *name = xmlGetProp(node, (const xmlChar *)"name");
    if (name)
        snprintf(buf, len, "<%s name=\"%s\">", (const char *)node->name, (const char *)name);
    else
        snprintf(buf, len, "<%s>", (const char *)node->name);
    xmlFree(name);
}

/* The <link> or <joint> that holds node, NULL if none. */
static const xmlNode *owner_of(const xmlNode *node)
{
    for (const xmlNode *a = node->parent; a && a->type == XML_ELEMENT_NODE; a = a->parent)
        if (urdf_is(a, "link") || urdf_is(a, "joint")) return a;
    return NULL;
}

/* "file:line: <tag name="..."> in <link name="...">" */
static void location_text(const urdf_ctx *c, const xmlNode *node, char *buf, size_t len)
{
    char here[160], owner[160];
    if (!node) {
        snprintf(buf, len, "%s", c->file);
        return;
    }
    element_text(node, here, sizeof here);
    const xmlNode *o = owner_of(node);
    if (o) {
        element_text(o, owner, sizeof owner);
        snprintf(buf, len, "%s:%ld: %s in %s", c->file, xmlGetLineNo(node), here, owner);
    } else {
        snprintf(buf, len, "%s:%ld: %s", c->file, xmlGetLineNo(node), here);
    }
}

mcd_status urdf_fail(const urdf_ctx *c, const xmlNode *node, mcd_status st, const char *fmt, ...)
{
    char where[400], what[MCD_ERROR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    location_text(c, node, where, sizeof where);
    return mcd_fail(c->err, st, "%s: %s", where, what);
}

void urdf_warn(const urdf_ctx *c, const xmlNode *node, const char *fmt, ...)
{
    char where[400], what[MCD_ERROR_LEN], msg[sizeof where + sizeof what + 2];
    if (!c->opt.warn) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    location_text(c, node, where, sizeof where);
    snprintf(msg, sizeof msg, "%s: %s", where, what);
    c->opt.warn(c->opt.warn_user, msg);
}

mcd_status urdf_child(const urdf_ctx *c, const xmlNode *node, const char *name, int required,
                      const xmlNode **child)
{
    *child = NULL;
    for (const xmlNode *k = node->children; k; k = k->next) {
        if (!urdf_is(k, name)) continue;
        if (*child) return urdf_fail(c, k, MCD_ERR_PARSE, "more than one <%s>", name);
        *child = k;
    }
    if (required && !*child) return urdf_fail(c, node, MCD_ERR_PARSE, "missing <%s>", name);
    return MCD_OK;
}

mcd_status urdf_string_attr(const urdf_ctx *c, const xmlNode *node, const char *attr, int nonempty,
                            char **out)
{
    *out = NULL;
    xmlChar *value = xmlGetProp(node, (const xmlChar *)attr);
    if (!value) return urdf_fail(c, node, MCD_ERR_PARSE, "missing attribute '%s'", attr);
    if (nonempty && !value[0]) {
        xmlFree(value);
        return urdf_fail(c, node, MCD_ERR_PARSE, "empty attribute '%s'", attr);
    }
    *out = strdup((const char *)value);
    xmlFree(value);
    return *out ? MCD_OK : mcd_fail(c->err, MCD_ERR_NOMEM, "out of memory");
}

/* Parses exactly n numbers from text into v. */
static mcd_status parse_numbers(const urdf_ctx *c, const xmlNode *node, const char *attr,
                                const char *text, int n, double *v)
{
    const char *s = text;
    int count = 0;
    for (;;) {
        while (isspace((unsigned char)*s)) s++;
        if (!*s) break;
        char *end;
        double x = strtod(s, &end);
        if (end == s || (*end && !isspace((unsigned char)*end)))
            return urdf_fail(c, node, MCD_ERR_PARSE, "attribute %s=\"%s\": not a number", attr,
                             text);
        if (!isfinite(x))
            return urdf_fail(c, node, MCD_ERR_NONFINITE,
                             "attribute %s=\"%s\": NaN, Inf or out of range", attr, text);
        if (count == n) break;
        v[count++] = x;
        s = end;
    }
    if (count != n || *s)
        return urdf_fail(c, node, MCD_ERR_PARSE, "attribute %s=\"%s\": expected %d number%s", attr,
                         text, n, n > 1 ? "s" : "");
    return MCD_OK;
}

/* Reads the n numbers of attr into v; *present tells whether attr exists. */
static mcd_status read_numbers(const urdf_ctx *c, const xmlNode *node, const char *attr, int n,
                               int required, double *v, int *present)
{
    xmlChar *text = xmlGetProp(node, (const xmlChar *)attr);
    *present = text != NULL;
    if (!text)
        return required ? urdf_fail(c, node, MCD_ERR_PARSE, "missing attribute '%s'", attr)
                        : MCD_OK;
    mcd_status st = parse_numbers(c, node, attr, (const char *)text, n, v);
    xmlFree(text);
    return st;
}

mcd_status urdf_numbers_attr(const urdf_ctx *c, const xmlNode *node, const char *attr, int n,
                             int required, double *out)
{
    double v[URDF_MAX_NUMBERS];
    int present;
    mcd_status st = read_numbers(c, node, attr, n, required, v, &present);
    if (st == MCD_OK && present) memcpy(out, v, (size_t)n * sizeof *v);
    return st;
}

mcd_status urdf_nonneg_attr(const urdf_ctx *c, const xmlNode *node, const char *attr, int n,
                            int required, double *out)
{
    double v[URDF_MAX_NUMBERS];
    int present;
    mcd_status st = read_numbers(c, node, attr, n, required, v, &present);
    for (int i = 0; st == MCD_OK && present && i < n; i++)
        if (v[i] < 0) st = urdf_fail(c, node, MCD_ERR_MODEL, "attribute %s: negative", attr);
    if (st == MCD_OK && present) memcpy(out, v, (size_t)n * sizeof *v);
    return st;
}

mcd_status urdf_origin(const urdf_ctx *c, const xmlNode *node, mcd_pose *X)
{
    const xmlNode *origin;
    double xyz[3] = {0, 0, 0}, rpy[3] = {0, 0, 0};
    mcd_status st = urdf_child(c, node, "origin", 0, &origin);
    if (st == MCD_OK && origin) st = urdf_numbers_attr(c, origin, "xyz", 3, 0, xyz);
    if (st == MCD_OK && origin) st = urdf_numbers_attr(c, origin, "rpy", 3, 0, rpy);
    if (st != MCD_OK) return st;
    mcd_m3_rpy(X->R, rpy[0], rpy[1], rpy[2]);
    mcd_v3_copy(X->p, xyz);
    return MCD_OK;
}

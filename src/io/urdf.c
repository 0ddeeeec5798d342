/* URDF import: entry points, file reading and XML parsing (include/mcdyn/urdf.h).
 *
 * All four entry points share one path: read, parse, resolve the tree, then
 * either build a model or append the robot to the caller's builder.
 *
 * libxml2 runs with network access disabled, no DTD loading, and its error
 * and warning output switched off: the first fatal error is read back from
 * the parser context and reported with file and line.
 */
#include "urdf_internal.h"

#include <errno.h>
#include <libxml/parser.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

mcd_urdf_options mcd_urdf_default_options(void)
{
    return (mcd_urdf_options){0};
}

/* Reads the whole stream into a NUL-terminated buffer. */
static char *read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    while (text) {
        n += fread(text + n, 1, cap - 1 - n, f);
        if (n < cap - 1) break;
        char *grown = realloc(text, 2 * cap);
        if (!grown) free(text);
        text = grown;
        cap *= 2;
    }
    if (text) text[n] = '\0';
    *len = n;
    return text;
}

static mcd_status read_file(const char *path, char **text, size_t *len, mcd_error *err)
{
    char reason[128] = "read error";
    FILE *f = fopen(path, "rb");
    if (!f) {
        strerror_r(errno, reason, sizeof reason);
        return mcd_fail(err, MCD_ERR_IO, "%s: cannot open: %s", path, reason);
    }
    *text = read_all(f, len);
    int failed = ferror(f);
    if (failed) strerror_r(errno, reason, sizeof reason);
    fclose(f);
    if (!*text) return mcd_fail(err, MCD_ERR_NOMEM, "%s: out of memory", path);
    if (!failed) return MCD_OK;
    free(*text);
    *text = NULL;
    return mcd_fail(err, MCD_ERR_IO, "%s: cannot read: %s", path, reason);
}

/* Rewrites the version="0.0" of a leading XML declaration, written by some
 * exporters and fatal to libxml2, as "1.0" (same length: lines unchanged). */
static void accept_version_0(char *text)
{
    static const char bom[] = "\xEF\xBB\xBF";
    char *s = strncmp(text, bom, 3) == 0 ? text + 3 : text;
    if (strncmp(s, "<?xml", 5) != 0) return;
    char *end = strstr(s, "?>");
    char *v = strstr(s, "version");
    if (!end || !v || v > end) return;
    v += strlen("version");
    v += strspn(v, " \t\r\n");
    if (*v++ != '=') return;
    v += strspn(v, " \t\r\n");
    char quote = *v++;
    if ((quote == '"' || quote == '\'') && strncmp(v, "0.0", 3) == 0 && v[3] == quote) v[0] = '1';
}

/* Strips the newline libxml2 ends its messages with. */
static void trim_message(char *msg, size_t len, const char *text)
{
    snprintf(msg, len, "%s", text ? text : "malformed XML");
    size_t n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r')) msg[--n] = '\0';
}

static mcd_status parse_xml(const urdf_ctx *c, const char *text, size_t len, xmlDoc **doc)
{
    const int options =
        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES;
    if (len > INT_MAX) return mcd_fail(c->err, MCD_ERR_UNSUPPORTED, "%s: file too large", c->file);
    xmlInitParser();
    xmlParserCtxt *ctx = xmlNewParserCtxt();
    if (!ctx) return mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    *doc = xmlCtxtReadMemory(ctx, text, (int)len, c->file, NULL, options);
    mcd_status st = MCD_OK;
    if (!*doc) {
        const xmlError *e = xmlCtxtGetLastError(ctx);
        char msg[MCD_ERROR_LEN];
        trim_message(msg, sizeof msg, e ? e->message : NULL);
        st = mcd_fail(c->err, MCD_ERR_PARSE, "%s:%d: malformed XML: %s", c->file, e ? e->line : 0,
                      msg);
    }
    xmlFreeParserCtxt(ctx);
    return st;
}

/* Parses text (modified in place), then builds the model *out or, when out
 * is NULL, appends the robot to t->b. */
static mcd_status load(const urdf_ctx *c, char *text, size_t len, urdf_target *t, mcd_model **out)
{
    xmlDoc *doc;
    urdf_robot robot;
    accept_version_0(text);
    mcd_status st = parse_xml(c, text, len, &doc);
    if (st != MCD_OK) return st;
    st = urdf_parse_robot(c, xmlDocGetRootElement(doc), &robot);
    if (st == MCD_OK) st = urdf_resolve_tree(c, &robot);
    if (st == MCD_OK) st = out ? urdf_build_model(c, &robot, out) : urdf_add_robot(c, &robot, t);
    urdf_robot_free(&robot);
    xmlFreeDoc(doc);
    return st;
}

static urdf_ctx make_ctx(const char *file, const mcd_urdf_options *opt, mcd_error *err)
{
    urdf_ctx c = {file, NULL, opt ? *opt : mcd_urdf_default_options(), err};
    mcd_error_clear(err);
    return c;
}

/* The directory part of path into *dir ("" for "/x", NULL for a bare name). */
static mcd_status directory_of(const char *path, char **dir, mcd_error *err)
{
    const char *slash = strrchr(path, '/');
    *dir = slash ? strndup(path, (size_t)(slash - path)) : NULL;
    if (slash && !*dir) return mcd_fail(err, MCD_ERR_NOMEM, "%s: out of memory", path);
    return MCD_OK;
}

/* The file variant of load. */
static mcd_status load_path(const char *path, const mcd_urdf_options *opt, urdf_target *t,
                            mcd_model **out, mcd_error *err)
{
    urdf_ctx c = make_ctx(path, opt, err);
    char *text = NULL, *dir;
    size_t len = 0;
    mcd_status st = read_file(path, &text, &len, err);
    if (st != MCD_OK) return st;
    st = directory_of(path, &dir, err);
    c.base_dir = dir;
    if (st == MCD_OK) st = load(&c, text, len, t, out);
    free(dir);
    free(text);
    return st;
}

/* The string variant of load. */
static mcd_status load_text(const char *xml, const char *name_for_messages,
                            const mcd_urdf_options *opt, urdf_target *t, mcd_model **out,
                            mcd_error *err)
{
    urdf_ctx c = make_ctx(name_for_messages ? name_for_messages : "<string>", opt, err);
    char *text = strdup(xml);
    if (!text) return mcd_fail(err, MCD_ERR_NOMEM, "%s: out of memory", c.file);
    mcd_status st = load(&c, text, strlen(text), t, out);
    free(text);
    return st;
}

static urdf_target make_target(mcd_builder *b, const char *prefix, const mcd_pose *base_pose)
{
    urdf_target t = {.b = b, .prefix = prefix ? prefix : "", .root = -1};
    if (base_pose)
        t.base = *base_pose;
    else
        mcd_pose_identity(&t.base);
    return t;
}

mcd_status mcd_urdf_load_file(const char *path, const mcd_urdf_options *opt, mcd_model **out,
                              mcd_error *err)
{
    if (!out || !path) return mcd_fail(err, MCD_ERR_ARG, "mcd_urdf_load_file: NULL argument");
    *out = NULL;
    return load_path(path, opt, NULL, out, err);
}

mcd_status mcd_urdf_load_string(const char *xml, const char *name_for_messages,
                                const mcd_urdf_options *opt, mcd_model **out, mcd_error *err)
{
    if (!out || !xml) return mcd_fail(err, MCD_ERR_ARG, "mcd_urdf_load_string: NULL argument");
    *out = NULL;
    return load_text(xml, name_for_messages, opt, NULL, out, err);
}

mcd_status mcd_urdf_load_into(mcd_builder *b, const char *path, const mcd_urdf_options *opt,
                              const char *name_prefix, const mcd_pose *base_pose, int *root_link,
                              mcd_error *err)
{
    if (!b || !path) return mcd_fail(err, MCD_ERR_ARG, "mcd_urdf_load_into: NULL argument");
    urdf_target t = make_target(b, name_prefix, base_pose);
    mcd_status st = load_path(path, opt, &t, NULL, err);
    if (root_link) *root_link = t.root;
    return st;
}

mcd_status mcd_urdf_load_string_into(mcd_builder *b, const char *xml, const char *name_for_messages,
                                     const mcd_urdf_options *opt, const char *name_prefix,
                                     const mcd_pose *base_pose, int *root_link, mcd_error *err)
{
    if (!b || !xml) return mcd_fail(err, MCD_ERR_ARG, "mcd_urdf_load_string_into: NULL argument");
    urdf_target t = make_target(b, name_prefix, base_pose);
    mcd_status st = load_text(xml, name_for_messages, opt, &t, NULL, err);
    if (root_link) *root_link = t.root;
    return st;
}

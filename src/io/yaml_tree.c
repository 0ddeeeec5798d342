/* A YAML document as a tree of nodes (src/io/yaml_tree.h).
 *
 * libyaml's parser delivers events (stream, document, scalar, sequence and
 * mapping start and end, alias); a node is read from its first event by
 * read_node, collections recursively until their end event. Each event is
 * deleted by the function that receives it; a node that fails to read is
 * cleared before the error returns, so that the caller frees only what it
 * holds.
 */
#include "yaml_tree.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct yt_reader {
    yaml_parser_t parser;
    const char *name; /* in messages */
    FILE *file;       /* the input, NULL for a string */
    mcd_error *err;
} yt_reader;

/* Records "name:line:column: message" (MCD_ERR_PARSE). */
static mcd_status fail_at(const yt_reader *r, const yaml_mark_t *m, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static mcd_status fail_at(const yt_reader *r, const yaml_mark_t *m, const char *fmt, ...)
{
    char what[MCD_ERROR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return mcd_fail(r->err, MCD_ERR_PARSE, "%s:%zu:%zu: %s", r->name, m->line + 1, m->column + 1,
                    what);
}

/* The error of a failed yaml_parser_parse. */
static mcd_status parser_error(const yt_reader *r)
{
    const yaml_parser_t *p = &r->parser;
    char reason[128] = "read error";
    if (p->error == YAML_READER_ERROR && r->file && ferror(r->file)) {
        strerror_r(errno, reason, sizeof reason);
        return mcd_fail(r->err, MCD_ERR_IO, "%s: cannot read: %s", r->name, reason);
    }
    if (p->error == YAML_MEMORY_ERROR)
        return mcd_fail(r->err, MCD_ERR_NOMEM, "%s: out of memory", r->name);
    const char *problem = p->problem ? p->problem : "unknown error";
    if (p->error == YAML_READER_ERROR)
        return mcd_fail(r->err, MCD_ERR_PARSE, "%s: malformed YAML: %s at byte %zu", r->name,
                        problem, p->problem_offset);
    if (p->context)
        return fail_at(r, &p->problem_mark, "malformed YAML: %s (%s at line %zu, column %zu)",
                       problem, p->context, p->context_mark.line + 1, p->context_mark.column + 1);
    return fail_at(r, &p->problem_mark, "malformed YAML: %s", problem);
}

static mcd_status next_event(yt_reader *r, yaml_event_t *ev)
{
    return yaml_parser_parse(&r->parser, ev) ? MCD_OK : parser_error(r);
}

/* Rejects aliases, anchors and explicit tags. */
static mcd_status check_plain_data(const yt_reader *r, const yaml_event_t *ev)
{
    const yaml_char_t *anchor = NULL, *tag = NULL;
    if (ev->type == YAML_ALIAS_EVENT)
        return fail_at(r, &ev->start_mark, "aliases (*%s) are not supported",
                       (const char *)ev->data.alias.anchor);
    if (ev->type == YAML_SCALAR_EVENT) {
        anchor = ev->data.scalar.anchor;
        tag = ev->data.scalar.tag;
    } else if (ev->type == YAML_SEQUENCE_START_EVENT) {
        anchor = ev->data.sequence_start.anchor;
        tag = ev->data.sequence_start.tag;
    } else {
        anchor = ev->data.mapping_start.anchor;
        tag = ev->data.mapping_start.tag;
    }
    if (anchor)
        return fail_at(r, &ev->start_mark, "anchors (&%s) are not supported", (const char *)anchor);
    if (tag) return fail_at(r, &ev->start_mark, "tags (%s) are not supported", (const char *)tag);
    return MCD_OK;
}

static void node_clear(yt_node *n)
{
    for (int i = 0; i < n->nitem; i++) node_clear(&n->item[i]);
    free(n->item);
    free(n->text);
    memset(n, 0, sizeof *n);
}

static mcd_status read_scalar(const yt_reader *r, const yaml_event_t *ev, yt_node *out)
{
    const char *value = (const char *)ev->data.scalar.value;
    size_t len = ev->data.scalar.length;
    out->kind = YT_SCALAR;
    out->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    if (memchr(value, '\0', len)) return fail_at(r, &ev->start_mark, "NUL character in a scalar");
    out->text = malloc(len + 1);
    if (!out->text) return mcd_fail(r->err, MCD_ERR_NOMEM, "%s: out of memory", r->name);
    memcpy(out->text, value, len);
    out->text[len] = '\0';
    return MCD_OK;
}

/* Room for one more item. */
static int grow(yt_node *n)
{
    if (n->nitem < n->cap) return 1;
    int cap = n->cap ? 2 * n->cap : 8;
    yt_node *item = realloc(n->item, (size_t)cap * sizeof *item);
    if (!item) return 0;
    n->item = item;
    n->cap = cap;
    return 1;
}

static mcd_status read_node(yt_reader *r, yaml_event_t *ev, int depth, yt_node *out);

/* Reads the items of a collection until its end event. */
static mcd_status read_items(yt_reader *r, yaml_event_type_t end, int depth, yt_node *out)
{
    for (;;) {
        yaml_event_t ev;
        mcd_status st = next_event(r, &ev);
        if (st != MCD_OK) return st;
        if (ev.type == end) {
            yaml_event_delete(&ev);
            return MCD_OK;
        }
        if (!grow(out)) {
            yaml_event_delete(&ev);
            return mcd_fail(r->err, MCD_ERR_NOMEM, "%s: out of memory", r->name);
        }
        yt_node *child = &out->item[out->nitem];
        yaml_mark_t at = ev.start_mark;
        st = read_node(r, &ev, depth + 1, child);
        if (st != MCD_OK) return st;
        out->nitem++;
        if (out->kind == YT_MAPPING && out->nitem % 2 == 1 && child->kind != YT_SCALAR)
            return fail_at(r, &at, "mapping keys must be scalars");
    }
}

/* Reads the node that starts with ev (deleted here). */
static mcd_status read_node(yt_reader *r, yaml_event_t *ev, int depth, yt_node *out)
{
    memset(out, 0, sizeof *out);
    out->line = (int)ev->start_mark.line + 1;
    out->column = (int)ev->start_mark.column + 1;
    mcd_status st = check_plain_data(r, ev);
    if (st == MCD_OK && depth > YT_MAX_DEPTH)
        st = fail_at(r, &ev->start_mark, "nested deeper than %d levels", YT_MAX_DEPTH);
    if (st == MCD_OK && ev->type == YAML_SCALAR_EVENT) {
        st = read_scalar(r, ev, out);
    } else if (st == MCD_OK) {
        int sequence = ev->type == YAML_SEQUENCE_START_EVENT;
        out->kind = sequence ? YT_SEQUENCE : YT_MAPPING;
        st = read_items(r, sequence ? YAML_SEQUENCE_END_EVENT : YAML_MAPPING_END_EVENT, depth, out);
    }
    yaml_event_delete(ev);
    if (st != MCD_OK) node_clear(out);
    return st;
}

/* Reads the event that must come next and drops it; *type receives its type. */
static mcd_status skip_event(yt_reader *r, yaml_event_type_t *type, yaml_mark_t *mark)
{
    yaml_event_t ev;
    mcd_status st = next_event(r, &ev);
    if (st != MCD_OK) return st;
    *type = ev.type;
    *mark = ev.start_mark;
    yaml_event_delete(&ev);
    return MCD_OK;
}

/* Stream start, at most one document holding one node, stream end. */
static mcd_status read_stream(yt_reader *r, yt_node **root)
{
    yaml_event_type_t type;
    yaml_mark_t mark;
    yaml_event_t ev;
    mcd_status st = skip_event(r, &type, &mark); /* stream start */
    if (st == MCD_OK) st = skip_event(r, &type, &mark);
    if (st != MCD_OK || type == YAML_STREAM_END_EVENT) return st;
    if (!(*root = calloc(1, sizeof **root)))
        return mcd_fail(r->err, MCD_ERR_NOMEM, "%s: out of memory", r->name);
    st = next_event(r, &ev);
    if (st == MCD_OK) st = read_node(r, &ev, 1, *root);
    if (st == MCD_OK) st = skip_event(r, &type, &mark); /* document end */
    if (st == MCD_OK) st = skip_event(r, &type, &mark);
    if (st == MCD_OK && type != YAML_STREAM_END_EVENT)
        st = fail_at(r, &mark, "more than one YAML document");
    return st;
}

static mcd_status parse(yt_reader *r, yt_node **root)
{
    *root = NULL;
    mcd_status st = read_stream(r, root);
    yaml_parser_delete(&r->parser);
    if (st != MCD_OK) {
        yt_free(*root);
        *root = NULL;
    }
    return st;
}

mcd_status yt_parse_file(FILE *f, const char *name, yt_node **root, mcd_error *err)
{
    yt_reader r = {.name = name, .file = f, .err = err};
    if (!yaml_parser_initialize(&r.parser))
        return mcd_fail(err, MCD_ERR_NOMEM, "%s: out of memory", name);
    yaml_parser_set_input_file(&r.parser, f);
    return parse(&r, root);
}

mcd_status yt_parse_string(const char *text, const char *name, yt_node **root, mcd_error *err)
{
    yt_reader r = {.name = name, .err = err};
    if (!yaml_parser_initialize(&r.parser))
        return mcd_fail(err, MCD_ERR_NOMEM, "%s: out of memory", name);
    yaml_parser_set_input_string(&r.parser, (const unsigned char *)text, strlen(text));
    return parse(&r, root);
}

void yt_free(yt_node *root)
{
    if (!root) return;
    node_clear(root);
    free(root);
}

int yt_is_null(const yt_node *n)
{
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
    if (n->kind != YT_SCALAR || !n->plain) return 0;
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
        if (strcmp(n->text, nulls[i]) == 0) return 1;
    return 0;
}

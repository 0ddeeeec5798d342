/* A YAML document as a tree of nodes, read with libyaml's event parser
 * (src/io/yaml_tree.c; not installed).
 *
 * Only the plain data subset is accepted: scalars, sequences and mappings
 * with scalar keys, in a single document. Anchors, aliases and explicit tags
 * are errors, as is nesting deeper than YT_MAX_DEPTH. Every node keeps the
 * 1-based line and column where it starts, so that later errors can point
 * at it. Nothing is interpreted here: scalars stay text.
 */
#ifndef MCDYN_IO_YAML_TREE_H
#define MCDYN_IO_YAML_TREE_H

#include "mcdyn/status.h"

#include <stdio.h>

#define YT_MAX_DEPTH 64

typedef enum yt_kind { YT_SCALAR = 0, YT_SEQUENCE, YT_MAPPING } yt_kind;

typedef struct yt_node {
    yt_kind kind;
    int line, column; /* 1-based */
    char *text;       /* scalars: the value, NUL-terminated (NULL for collections) */
    int plain;        /* scalars: written without quotes or a block indicator */
    /* Sequences: the items. Mappings: keys (scalars) and values alternate,
     * item[2k] the k-th key and item[2k + 1] its value. */
    struct yt_node *item;
    int nitem, cap;
} yt_node;

/* Parses the YAML stream of the open file f (name used in messages) into a
 * tree in *root (free with yt_free). An empty stream gives *root = NULL;
 * malformed YAML is MCD_ERR_PARSE with "name:line:column: malformed YAML:
 * ..." in err. */
mcd_status yt_parse_file(FILE *f, const char *name, yt_node **root, mcd_error *err);
/* As yt_parse_file for the NUL-terminated string text. */
mcd_status yt_parse_string(const char *text, const char *name, yt_node **root, mcd_error *err);
void yt_free(yt_node *root);

/* Nonzero for a plain scalar meaning null: empty, "~", "null", "Null", "NULL". */
int yt_is_null(const yt_node *n);
/* Number of entries of a mapping. */
static inline int yt_map_size(const yt_node *n)
{
    return n->nitem / 2;
}

#endif

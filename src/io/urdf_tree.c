/* URDF import: the kinematic tree (src/io/urdf_internal.h).
 *
 * Link and joint names must be unique; each joint names a known parent and
 * child; no link is the child of two joints; exactly one link (the root) is
 * the child of none; every link is reachable from the root (otherwise the
 * unreachable links form a cycle). The order is a depth-first preorder from
 * the root, children in document order.
 */
#include "urdf_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct named_index {
    const char *name;
    const xmlNode *node;
    int index; /* document order */
} named_index;

static int compare_names(const void *a, const void *b)
{
    const named_index *x = a, *y = b;
    return strcmp(x->name, y->name);
}

/* By name, then by document order, so the first of equal names comes first. */
static int compare_names_then_index(const void *a, const void *b)
{
    const named_index *x = a, *y = b;
    int s = strcmp(x->name, y->name);
    return s ? s : (x->index > y->index) - (x->index < y->index);
}

/* Sorts n names; reports the second of two equal ones. */
static mcd_status sort_unique(const urdf_ctx *c, named_index *v, int n, const char *what)
{
    qsort(v, (size_t)n, sizeof *v, compare_names_then_index);
    for (int i = 1; i < n; i++)
        if (strcmp(v[i - 1].name, v[i].name) == 0)
            return urdf_fail(c, v[i].node, MCD_ERR_MODEL, "duplicate %s name (first at line %ld)",
                             what, xmlGetLineNo(v[i - 1].node));
    return MCD_OK;
}

static mcd_status check_joint_names(const urdf_ctx *c, const urdf_robot *r)
{
    named_index *v = malloc(((size_t)r->njoint + 1) * sizeof *v);
    if (!v) return mcd_fail(c->err, MCD_ERR_NOMEM, "out of memory");
    for (int i = 0; i < r->njoint; i++) v[i] = (named_index){r->joint[i].name, r->joint[i].node, i};
    mcd_status st = sort_unique(c, v, r->njoint, "joint");
    free(v);
    return st;
}

static int find_link(const named_index *links, int n, const char *name)
{
    named_index key = {name, NULL, -1};
    const named_index *hit = bsearch(&key, links, (size_t)n, sizeof key, compare_names);
    return hit ? hit->index : -1;
}

/* Sets the parent and child of joint j and the parent joint of its child. */
static mcd_status connect_joint(const urdf_ctx *c, urdf_robot *r, const named_index *links, int j)
{
    urdf_joint *jt = &r->joint[j];
    jt->parent = find_link(links, r->nlink, jt->parent_name);
    jt->child = find_link(links, r->nlink, jt->child_name);
    if (jt->parent < 0)
        return urdf_fail(c, jt->node, MCD_ERR_MODEL, "unknown parent link \"%s\"", jt->parent_name);
    if (jt->child < 0)
        return urdf_fail(c, jt->node, MCD_ERR_MODEL, "unknown child link \"%s\"", jt->child_name);
    if (jt->parent == jt->child)
        return urdf_fail(c, jt->node, MCD_ERR_MODEL, "link \"%s\" is its own parent",
                         jt->child_name);
    urdf_link *child = &r->link[jt->child];
    if (child->parent_joint >= 0)
        return urdf_fail(c, jt->node, MCD_ERR_MODEL,
                         "link \"%s\" already has a parent joint (line %ld)", jt->child_name,
                         xmlGetLineNo(r->joint[child->parent_joint].node));
    child->parent_joint = j;
    return MCD_OK;
}

static mcd_status connect_joints(const urdf_ctx *c, urdf_robot *r)
{
    named_index *links = malloc((size_t)r->nlink * sizeof *links);
    if (!links) return mcd_fail(c->err, MCD_ERR_NOMEM, "out of memory");
    for (int i = 0; i < r->nlink; i++)
        links[i] = (named_index){r->link[i].name, r->link[i].node, i};
    mcd_status st = sort_unique(c, links, r->nlink, "link");
    for (int j = 0; st == MCD_OK && j < r->njoint; j++) st = connect_joint(c, r, links, j);
    free(links);
    return st;
}

/* The only link without a parent joint. */
static mcd_status find_root(const urdf_ctx *c, const urdf_robot *r, int *root)
{
    *root = -1;
    for (int i = 0; i < r->nlink; i++) {
        if (r->link[i].parent_joint >= 0) continue;
        if (*root >= 0)
            return urdf_fail(c, r->link[i].node, MCD_ERR_MODEL,
                             "second root link (the first is \"%s\", line %ld): every link but "
                             "one must be the child of a joint",
                             r->link[*root].name, xmlGetLineNo(r->link[*root].node));
        *root = i;
    }
    if (*root < 0)
        return urdf_fail(c, r->link[0].node->parent, MCD_ERR_MODEL,
                         "no root link: the joints form a cycle");
    return MCD_OK;
}

/* Children of each link in document order: child[first[l] .. first[l+1]-1]. */
static void child_lists(const urdf_robot *r, int *first, int *child)
{
    memset(first, 0, ((size_t)r->nlink + 1) * sizeof *first);
    for (int j = 0; j < r->njoint; j++) first[r->joint[j].parent + 1]++;
    for (int l = 0; l < r->nlink; l++) first[l + 1] += first[l];
    for (int j = 0; j < r->njoint; j++) child[first[r->joint[j].parent]++] = r->joint[j].child;
    for (int l = r->nlink; l > 0; l--) first[l] = first[l - 1];
    first[0] = 0;
}

/* Depth-first preorder from root into r->order; seen[l] is set for every
 * link reached. stack holds nlink entries. */
static void order_links(urdf_robot *r, int root, const int *first, const int *child, int *stack,
                        unsigned char *seen)
{
    int top = 0, n = 0;
    stack[top++] = root;
    while (top > 0) {
        int l = stack[--top];
        r->order[n++] = l;
        seen[l] = 1;
        for (int k = first[l + 1] - 1; k >= first[l]; k--) stack[top++] = child[k];
    }
}

static mcd_status order_tree(const urdf_ctx *c, urdf_robot *r, int root)
{
    size_t n = (size_t)r->nlink;
    int *buf = malloc((2 * n + 1 + (size_t)r->njoint) * sizeof *buf);
    unsigned char *seen = calloc(n, 1);
    mcd_status st = MCD_OK;
    if (buf && seen) {
        int *first = buf, *stack = buf + n + 1, *child = stack + n;
        child_lists(r, first, child);
        order_links(r, root, first, child, stack, seen);
        for (int i = 0; st == MCD_OK && i < r->nlink; i++)
            if (!seen[i])
                st = urdf_fail(c, r->link[i].node, MCD_ERR_MODEL,
                               "link is part of a kinematic cycle");
    } else {
        st = mcd_fail(c->err, MCD_ERR_NOMEM, "out of memory");
    }
    free(buf);
    free(seen);
    return st;
}

mcd_status urdf_resolve_tree(const urdf_ctx *c, urdf_robot *r)
{
    int root;
    mcd_status st = check_joint_names(c, r);
    if (st == MCD_OK) st = connect_joints(c, r);
    if (st == MCD_OK) st = find_root(c, r, &root);
    if (st == MCD_OK) st = order_tree(c, r, root);
    return st;
}

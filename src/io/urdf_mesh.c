/* URDF import: resolution of mesh file names (src/io/urdf_internal.h).
 *
 * package://PKG/REST   DIR/PKG/REST for the first search directory DIR
 *                      holding it (left as the URI when none does)
 * file:///abs/path     /abs/path
 * /abs/path            itself
 * rel/path             relative to the URDF's directory (or the current one)
 * Other schemes are never fetched: such a file counts as not found.
 */
#include "urdf_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char package_scheme[] = "package://";
static const char file_scheme[] = "file://";

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int readable(const char *path)
{
    return access(path, R_OK) == 0;
}

/* dir/name, or a copy of name when dir is NULL; NULL when out of memory. */
static char *join_path(const char *dir, const char *name)
{
    if (!dir) return strdup(name);
    size_t n = strlen(dir), m = strlen(name);
    char *s = malloc(n + m + 2);
    if (!s) return NULL;
    memcpy(s, dir, n);
    s[n] = '/';
    memcpy(s + n + 1, name, m + 1);
    return s;
}

/* The first DIR/rest that exists, or a copy of uri. */
static char *resolve_package(const urdf_ctx *c, const char *uri, int *found)
{
    const char *rest = uri + strlen(package_scheme);
    for (int i = 0; i < c->opt.npackage_paths; i++) {
        char *path = join_path(c->opt.package_paths[i], rest);
        if (!path) return NULL;
        if (readable(path)) {
            *found = 1;
            return path;
        }
        free(path);
    }
    *found = 0;
    return strdup(uri);
}

static char *resolve_plain(const urdf_ctx *c, const char *name, int *found)
{
    char *path = join_path(name[0] == '/' ? NULL : c->base_dir, name);
    *found = path && readable(path);
    return path;
}

static char *resolve(const urdf_ctx *c, const char *uri, int *found)
{
    if (starts_with(uri, package_scheme)) return resolve_package(c, uri, found);
    if (starts_with(uri, file_scheme)) return resolve_plain(c, uri + strlen(file_scheme), found);
    *found = 0;
    if (strstr(uri, "://")) return strdup(uri);
    return resolve_plain(c, uri, found);
}

mcd_status urdf_resolve_mesh(const urdf_ctx *c, const xmlNode *node, const char *uri,
                             const char *role, char **path)
{
    int found;
    *path = resolve(c, uri, &found);
    if (!*path) return mcd_fail(c->err, MCD_ERR_NOMEM, "out of memory");
    if (found) return MCD_OK;
    if (strcmp(*path, uri) == 0)
        urdf_warn(c, node, "%s mesh \"%s\" not found", role, uri);
    else
        urdf_warn(c, node, "%s mesh \"%s\" not found: %s", role, uri, *path);
    return MCD_OK;
}

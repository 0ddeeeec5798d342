/* URDF import: resolution of mesh file names (src/io/urdf_internal.h).
 *
 * package://PKG/REST   DIR/PKG/REST, or DIR/REST when DIR is itself named
 *                      PKG, for the first search directory DIR holding it:
 *                      the options' package_paths, then the directories of
 *                      the environment variable ROS_PACKAGE_PATH (separated
 *                      by ':'); left as the URI when none does
 * file:///abs/path     /abs/path
 * /abs/path            itself
 * rel/path             relative to the URDF's directory (or the current one)
 * Other schemes are never fetched: such a file counts as not found.
 */
#include "urdf_internal.h"

#include <stdio.h>
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

/* The file of package PKG (pkg, n bytes) path REST in directory dir, when it
 * exists: dir/PKG/REST, or dir/REST when dir's last component is PKG. NULL
 * with *nomem set when out of memory. */
static char *package_file(const char *dir, size_t ndir, const char *pkg, size_t n, const char *rest,
                          int *nomem)
{
    while (ndir > 1 && dir[ndir - 1] == '/') ndir--;
    size_t len = ndir + n + strlen(rest) + 3;
    char *path = malloc(len);
    if (!path) {
        *nomem = 1;
        return NULL;
    }
    snprintf(path, len, "%.*s/%.*s/%s", (int)ndir, dir, (int)n, pkg, rest);
    if (readable(path)) return path;
    const char *base = dir + ndir;
    while (base > dir && base[-1] != '/') base--;
    if ((size_t)(dir + ndir - base) == n && strncmp(base, pkg, n) == 0) {
        snprintf(path, len, "%.*s/%s", (int)ndir, dir, rest);
        if (readable(path)) return path;
    }
    free(path);
    return NULL;
}

/* The first existing file of package://PKG/REST in the options' package
 * paths, then in ROS_PACKAGE_PATH; a copy of uri when none holds it. */
static char *resolve_package(const urdf_ctx *c, const char *uri, int *found)
{
    const char *pkg = uri + strlen(package_scheme), *slash = strchr(pkg, '/');
    *found = 0;
    if (!slash) return strdup(uri);
    size_t n = (size_t)(slash - pkg);
    int nomem = 0;
    char *path = NULL;
    for (int i = 0; !path && !nomem && i < c->opt.npackage_paths; i++) {
        const char *dir = c->opt.package_paths[i];
        path = package_file(dir, strlen(dir), pkg, n, slash + 1, &nomem);
    }
    const char *env = getenv("ROS_PACKAGE_PATH");
    for (const char *d = env; d && *d && !path && !nomem;) {
        size_t len = strcspn(d, ":");
        if (len > 0) path = package_file(d, len, pkg, n, slash + 1, &nomem);
        d += len + (d[len] == ':');
    }
    if (nomem) return NULL;
    *found = path != NULL;
    return path ? path : strdup(uri);
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

char *urdf_mesh_path(const urdf_ctx *c, const char *uri, int *found)
{
    return resolve(c, uri, found);
}

mcd_status urdf_resolve_mesh(const urdf_ctx *c, const xmlNode *node, const char *uri, char **path)
{
    int found;
    *path = resolve(c, uri, &found);
    if (!*path) return mcd_fail(c->err, MCD_ERR_NOMEM, "out of memory");
    if (found) return MCD_OK;
    if (strcmp(*path, uri) == 0)
        urdf_warn(c, node, "collision mesh \"%s\" not found", uri);
    else
        urdf_warn(c, node, "collision mesh \"%s\" not found: %s", uri, *path);
    return MCD_OK;
}

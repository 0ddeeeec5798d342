/* The files the replay page inlines (tools/viewer/embed.py generates
 * view_assets.c at build time): the page template and its script
 * (tools/viewer/viewer.html, viewer.js) and three.js from
 * tools/viewer/node_modules (its license, the core, OrbitControls and the
 * convex hull of mesh geoms). */
#ifndef MCDYN_TOOLS_VIEW_ASSETS_H
#define MCDYN_TOOLS_VIEW_ASSETS_H

#include <stddef.h>

typedef struct view_asset {
    const char *name; /* file name, e.g. "three.core.js" */
    const unsigned char *data;
    size_t size; /* bytes (data has one more, a terminating 0) */
} view_asset;

/* The assets, ended by an entry with a NULL name. */
extern const view_asset view_assets[];

/* NULL when three.js was embedded; else how to get it (mcdyn view prints it). */
extern const char *const view_assets_missing;

#endif

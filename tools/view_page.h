/* The replay page: one self-contained HTML file (three.js, the viewer and
 * the run inlined; docs/outputs.md, "The replay page"). */
#ifndef MCDYN_TOOLS_VIEW_PAGE_H
#define MCDYN_TOOLS_VIEW_PAGE_H

#include <stddef.h>

#include "view_run.h"

#define VIEW_DEFAULT_FPS    60.0 /* frames kept per simulated second */
#define VIEW_DEFAULT_MAX_MB 20.0 /* the page's size bound [MB = 10^6 bytes] */

/* Writes the page of run to html_path, all or nothing (atomic_file.h).
 * title is shown on the page (any text: it is escaped). Returns 0, or -1
 * with the reason in msg: the page would exceed max_mb megabytes, three.js
 * was not built in, the file cannot be written. */
int view_page_write(const view_run *run, const char *title, const char *html_path, double max_mb,
                    char *msg, size_t msglen);

/* Reads the HDF5 log at h5_path at fps frames per second and writes its
 * page; title NULL: the log's file name without directory and extension. */
int view_page_from_log(const char *h5_path, const char *html_path, const char *title, double fps,
                       double max_mb, char *msg, size_t msglen);

#endif

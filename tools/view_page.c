/* The replay page (tools/view_page.h): the template tools/viewer/viewer.html
 * with, in place of its @MCDYN_SCRIPTS@ line, three.js as text/plain
 * scripts, the run as JSON and the viewer as a module script. Text from the
 * input (body names, the title) reaches the page only inside JSON strings
 * where '<', '>' and '&' are \u escapes, so no name can close the script
 * element; the run's numbers are base64 little-endian float32 arrays. */
#include "view_page.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "view_assets.h"

#define SCRIPTS_MARK "@MCDYN_SCRIPTS@"

static const char *const three_modules[] = {"three.LICENSE",   "three.core.js",
                                            "three.module.js", "OrbitControls.js",
                                            "ConvexHull.js",   "ConvexGeometry.js"};

static const view_asset *asset(const char *name)
{
    for (const view_asset *a = view_assets; a->name; a++)
        if (!strcmp(a->name, name)) return a;
    return NULL;
}

/* A JSON string safe inside an HTML <script> element. */
static void json_text(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static size_t base64_size(size_t bytes)
{
    return (bytes + 2) / 3 * 4 + 2;
}

static void base64(FILE *f, const unsigned char *b, size_t n)
{
    static const char digit[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    fputc('"', f);
    for (size_t i = 0; i < n; i += 3) {
        const uint32_t v = (uint32_t)b[i] << 16 | (i + 1 < n ? (uint32_t)b[i + 1] << 8 : 0) |
                           (i + 2 < n ? b[i + 2] : 0);
        fputc(digit[v >> 18 & 63], f), fputc(digit[v >> 12 & 63], f);
        fputc(i + 1 < n ? digit[v >> 6 & 63] : '=', f), fputc(i + 2 < n ? digit[v & 63] : '=', f);
    }
    fputc('"', f);
}

/* n 32-bit values (floats or ints) as base64 of their little-endian bytes. */
static int base64_words(FILE *f, const void *words, size_t n)
{
    unsigned char *b = n <= SIZE_MAX / 4 ? malloc(4 * n + 1) : NULL;
    if (!b) return -1;
    for (size_t i = 0; i < n; i++) {
        uint32_t w;
        memcpy(&w, (const unsigned char *)words + 4 * i, 4);
        for (int k = 0; k < 4; k++) b[4 * i + (size_t)k] = (unsigned char)(w >> (8 * k));
    }
    base64(f, b, 4 * n);
    free(b);
    return 0;
}

static void json_numbers(FILE *f, const double *v, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        if (isfinite(v[i]))
            fprintf(f, "%s%.9g", i ? "," : "", v[i]);
        else
            fprintf(f, "%snull", i ? "," : "");
    }
    fputc(']', f);
}

/* The shapes as the JSON member name: type, body, size, pose, mesh and
 * triangles. */
static int write_shapes(FILE *f, const char *name, const view_geom *shape, int n)
{
    fprintf(f, ",\"%s\":[", name);
    for (int k = 0; k < n; k++) {
        const view_geom *g = &shape[k];
        fprintf(f, "%s{\"type\":%d,\"body\":%d,\"size\":", k ? "," : "", g->type, g->body);
        json_numbers(f, g->size, 3);
        fputs(",\"pose\":", f);
        json_numbers(f, g->pose, 7);
        fputs(",\"mesh\":", f);
        if (g->nmesh == 0)
            fputs("null", f);
        else if (base64_words(f, g->mesh, (size_t)g->nmesh * 3))
            return -1;
        fputs(",\"triangles\":", f);
        if (g->ntri == 0)
            fputs("null", f);
        else if (base64_words(f, g->tri, (size_t)g->ntri * 3))
            return -1;
        fputc('}', f);
    }
    fputc(']', f);
    return 0;
}

/* The run as one JSON object (docs/outputs.md lists its members). */
static int write_data(FILE *f, const view_run *run, const char *title)
{
    const size_t n = (size_t)run->nframe, c3 = (size_t)run->ncontact * 3;
    fputs("{\"format\":\"mcdyn-view 1\",\"title\":", f);
    json_text(f, title);
    fprintf(f, ",\"model_bodies\":%d,\"bodies\":[", run->nbody);
    for (int k = 0; k < run->nbody; k++) {
        if (k) fputc(',', f);
        json_text(f, run->body_name[k]);
    }
    fputs("],\"parents\":[", f);
    for (int k = 0; k < run->nbody; k++) fprintf(f, "%s%d", k ? "," : "", run->body_parent[k]);
    fputc(']', f);
    if (write_shapes(f, "geoms", run->geom, run->ngeom) ||
        write_shapes(f, "visuals", run->visual, run->nvisual))
        return -1;
    const char *name[] = {
        "t", "pose", "ncontacts", "contact_point", "contact_normal", "contact_force"};
    const void *data[] = {run->t,
                          run->pose,
                          run->ncontacts,
                          run->contact_point,
                          run->contact_normal,
                          run->contact_force};
    const size_t count[] = {n, n * (size_t)run->nbody * 7, n, c3, c3, c3};
    for (int k = 0; k < 6; k++) {
        fprintf(f, ",\"%s\":", name[k]);
        if (base64_words(f, data[k], count[k])) return -1;
    }
    fputc('}', f);
    return 0;
}

/* An upper bound of the page's size in bytes. */
static double page_size(const view_run *run)
{
    double bytes = 4096;
    for (const view_asset *a = view_assets; a->name; a++) bytes += (double)a->size + 64;
    for (int k = 0; k < run->nbody; k++) bytes += 6.0 * (double)strlen(run->body_name[k]) + 16;
    for (int k = 0; k < run->ngeom; k++)
        bytes += 256 + (double)base64_size(12 * (size_t)run->geom[k].nmesh);
    for (int k = 0; k < run->nvisual; k++)
        bytes += 256 + (double)base64_size(12 * (size_t)run->visual[k].nmesh) +
                 (double)base64_size(12 * (size_t)run->visual[k].ntri);
    const double per_frame = 4.0 * (2 + 7.0 * run->nbody);
    return bytes + 4.0 / 3.0 * (per_frame * (double)run->nframe + 36.0 * (double)run->ncontact) +
           64;
}

static void write_script(FILE *f, const char *type, const char *id, const view_asset *a)
{
    fprintf(f, "<script type=\"%s\"%s%s%s>", type, id ? " id=\"" : "", id ? id : "",
            id ? "\"" : "");
    fwrite(a->data, 1, a->size, f);
    fputs("</script>\n", f);
}

static int write_page(FILE *f, const view_run *run, const char *title)
{
    const view_asset *tpl = asset("viewer.html"), *js = asset("viewer.js");
    const char *mark = tpl ? strstr((const char *)tpl->data, SCRIPTS_MARK) : NULL;
    if (!mark || !js) return -1;
    fwrite(tpl->data, 1, (size_t)(mark - (const char *)tpl->data), f);
    for (size_t k = 0; k < sizeof three_modules / sizeof *three_modules; k++)
        write_script(f, "text/plain", three_modules[k], asset(three_modules[k]));
    fputs("<script type=\"application/json\" id=\"mcdyn-data\">", f);
    if (write_data(f, run, title)) return -1;
    fputs("</script>\n", f);
    write_script(f, "module", NULL, js);
    fputs(mark + strlen(SCRIPTS_MARK), f);
    return 0;
}

int view_page_write(const view_run *run, const char *title, const char *html_path, double max_mb,
                    char *msg, size_t msglen)
{
    if (view_assets_missing) {
        snprintf(msg, msglen, "%s", view_assets_missing);
        return -1;
    }
    for (size_t k = 0; k < sizeof three_modules / sizeof *three_modules; k++)
        if (!asset(three_modules[k])) {
            snprintf(msg, msglen, "the viewer was built without %s", three_modules[k]);
            return -1;
        }
    const double mb = page_size(run) / 1e6;
    if (mb > max_mb) {
        snprintf(msg, msglen,
                 "%s: the page would take up to %.1f MB (%ld frames), more than the bound of "
                 "%.1f MB: lower the frame rate (--fps) or raise the bound (--max-mb)",
                 html_path, mb, run->nframe, max_mb);
        return -1;
    }
    atomic_file out;
    if (atomic_file_open(&out, html_path, msg, msglen)) return -1;
    if (write_page(out.f, run, title)) {
        atomic_file_discard(&out);
        snprintf(msg, msglen, "%s: out of memory or a broken viewer template", html_path);
        return -1;
    }
    return atomic_file_commit(&out, msg, msglen);
}

/* The file name of path without directory and extension, into buf. */
static const char *base_name(const char *path, char *buf, size_t len)
{
    const char *slash = strrchr(path, '/');
    snprintf(buf, len, "%s", slash ? slash + 1 : path);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf) *dot = '\0';
    return buf;
}

int view_page_from_log(const char *h5_path, const char *html_path, const char *title, double fps,
                       double max_mb, char *msg, size_t msglen)
{
    view_run run;
    char name[256];
    if (view_run_read(h5_path, fps, &run, msg, msglen)) return -1;
    int rc = view_page_write(&run, title ? title : base_name(h5_path, name, sizeof name), html_path,
                             max_mb, msg, msglen);
    view_run_free(&run);
    return rc;
}

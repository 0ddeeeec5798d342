/* `mcdyn view`: the HDF5 log of a run as a self-contained HTML replay. */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "view_page.h"

typedef struct view_options {
    const char *log, *html, *title;
    double fps, max_mb;
} view_options;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcdyn view RUN.h5 --html replay.html [--fps F] [--max-mb M] [--title TEXT]\n\n"
            "Writes one self-contained HTML file (three.js and the run inlined; it works offline,\n"
            "opened by double-click) that replays the HDF5 log of `mcdyn sim --h5`: the collision\n"
            "geometry of the robots and the environment, contact points with normal-force\n"
            "arrows, play/pause, a time slider, speed, camera orbit and zoom. The URL fragment\n"
            "#t=SECONDS opens the page paused at that time (docs/outputs.md).\n\n"
            "options:\n"
            "  --html FILE    the page to write (all or nothing)\n"
            "  --fps F        frames kept per simulated second (default %g)\n"
            "  --max-mb M     the page's size bound in MB (default %g): a longer run is an error\n"
            "  --title TEXT   the page's title (default: the log's file name)\n"
            "  -h, --help     print this help\n\n"
            "Exit code 0 on success, 1 when the log cannot be read or the page not written,\n"
            "2 for bad usage.\n",
            VIEW_DEFAULT_FPS, VIEW_DEFAULT_MAX_MB);
}

static int parse(int argc, char **argv, view_options *o)
{
    memset(o, 0, sizeof *o);
    o->fps = VIEW_DEFAULT_FPS, o->max_mb = VIEW_DEFAULT_MAX_MB;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (args_is_help(a)) {
            usage(stdout);
            return 0;
        }
        int bad = !v;
        if (!strcmp(a, "--html"))
            o->html = v;
        else if (!strcmp(a, "--title"))
            o->title = v;
        else if (!strcmp(a, "--fps"))
            bad = bad || args_parse_double(v, &o->fps) || !(o->fps > 0 && o->fps <= 1000);
        else if (!strcmp(a, "--max-mb"))
            bad = bad || args_parse_double(v, &o->max_mb) || !(o->max_mb > 0 && o->max_mb <= 4000);
        else if (a[0] != '-' && !o->log) {
            o->log = a;
            continue;
        } else {
            fprintf(stderr, "mcdyn view: unknown argument '%s'\n\n", a);
            usage(stderr);
            return 2;
        }
        if (bad) {
            fprintf(stderr, "mcdyn view: option '%s' needs a valid value\n", a);
            return 2;
        }
        i++;
    }
    if (!o->log || !o->html) {
        fprintf(stderr, "mcdyn view: %s\n\n",
                o->log ? "no --html FILE given" : "no log file given");
        usage(stderr);
        return 2;
    }
    return -1;
}

int mcd_cmd_view(int argc, char **argv)
{
    view_options o;
    int code = parse(argc, argv, &o);
    if (code >= 0) return code;
    char msg[1024];
    if (view_page_from_log(o.log, o.html, o.title, o.fps, o.max_mb, msg, sizeof msg)) {
        fprintf(stderr, "mcdyn view: %s\n", msg);
        return 1;
    }
    printf("replay            %s\n", o.html);
    return 0;
}

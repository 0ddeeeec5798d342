/* Reading a sweep file (tools/sweep_spec.h) from the YAML tree of the
 * scenario loader (src/io/yaml_tree.h): every key checked, every error
 * located "file:line:column: key 'K': what". */
#include "sweep_spec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "yaml_tree.h"

typedef struct spec_reader {
    const char *file;
    char *msg;
    size_t len;
} spec_reader;

static int fail(const spec_reader *r, const yt_node *n, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int fail(const spec_reader *r, const yt_node *n, const char *key, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(r->msg, r->len, "%s:%d:%d: key '%s': %s", r->file, n->line, n->column, key, what);
    return -1;
}

/* n must be a mapping with unique keys, each among the allowed ones (NULL:
 * any). */
static int check_mapping(const spec_reader *r, const yt_node *n, const char *key,
                         const char *const *allowed, int nallowed)
{
    if (n->kind != YT_MAPPING) return fail(r, n, key, "expected a mapping");
    for (int i = 0; i < n->nitem; i += 2) {
        const char *k = n->item[i].text;
        int known = allowed == NULL;
        for (int a = 0; a < nallowed && !known; a++) known = !strcmp(k, allowed[a]);
        if (!known) return fail(r, &n->item[i], k, "unknown key in '%s'", key);
        for (int j = 0; j < i; j += 2)
            if (!strcmp(k, n->item[j].text)) return fail(r, &n->item[i], k, "duplicate key");
    }
    return 0;
}

/* The value of key in the mapping n, NULL when absent. */
static const yt_node *find(const yt_node *n, const char *key)
{
    for (int i = 0; i + 1 < n->nitem; i += 2)
        if (!strcmp(n->item[i].text, key)) return &n->item[i + 1];
    return NULL;
}

static int scalar(const spec_reader *r, const yt_node *n, const char *key)
{
    if (n->kind != YT_SCALAR || yt_is_null(n))
        return fail(r, n, key, "expected a value (a scalar)");
    return 0;
}

static int number(const spec_reader *r, const yt_node *n, const char *key, double *v)
{
    if (scalar(r, n, key) || !n->plain || args_parse_double(n->text, v))
        return fail(r, n, key, "expected a finite number");
    return 0;
}

static char *copy(const char *text)
{
    char *c = strdup(text);
    if (!c) abort(); /* the command cannot go on without memory */
    return c;
}

static void *array(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) abort();
    return p;
}

/* Every path is varied or set only once. */
static int new_path(const spec_reader *r, const sweep_spec *sp, const yt_node *key)
{
    const char *p = key->text;
    int seen = 0;
    for (int i = 0; i < sp->nset; i++) seen |= !strcmp(sp->set[i].path, p);
    for (int i = 0; i < sp->naxis; i++) seen |= !strcmp(sp->axis[i].path, p);
    for (int i = 0; i < sp->nrandom; i++) seen |= !strcmp(sp->random[i].path, p);
    if (seen) return fail(r, key, p, "this path is already set or varied");
    if (!*p) return fail(r, key, p, "empty path");
    return 0;
}

static int read_set(const spec_reader *r, const yt_node *n, sweep_spec *sp)
{
    if (check_mapping(r, n, "set", NULL, 0)) return -1;
    sp->set = array((size_t)yt_map_size(n), sizeof *sp->set);
    for (int i = 0; i < n->nitem; i += 2) {
        const yt_node *k = &n->item[i], *v = &n->item[i + 1];
        if (new_path(r, sp, k) || scalar(r, v, k->text)) return -1;
        sp->set[sp->nset].path = copy(k->text);
        sp->set[sp->nset++].value = copy(v->text);
    }
    return 0;
}

static int read_axis(const spec_reader *r, const yt_node *k, const yt_node *v, sweep_axis *a)
{
    if (v->kind != YT_SEQUENCE || v->nitem == 0)
        return fail(r, v, k->text, "expected a nonempty list of values");
    a->value = array((size_t)v->nitem, sizeof *a->value);
    for (int j = 0; j < v->nitem; j++) {
        if (scalar(r, &v->item[j], k->text)) return -1;
        a->value[a->nvalue++] = copy(v->item[j].text);
    }
    return 0;
}

static int read_grid(const spec_reader *r, const yt_node *n, sweep_spec *sp)
{
    if (check_mapping(r, n, "grid", NULL, 0)) return -1;
    sp->axis = array((size_t)yt_map_size(n), sizeof *sp->axis);
    for (int i = 0; i < n->nitem; i += 2) {
        const yt_node *k = &n->item[i];
        if (new_path(r, sp, k)) return -1;
        sweep_axis *a = &sp->axis[sp->naxis++];
        a->path = copy(k->text);
        if (read_axis(r, k, &n->item[i + 1], a)) return -1;
        if (sp->ncase > SWEEP_MAX_CASES / a->nvalue)
            return fail(r, k, k->text, "more than %ld cases", SWEEP_MAX_CASES);
        sp->ncase *= a->nvalue;
    }
    return 0;
}

/* {uniform: [a, b]} with a < b, or {normal: [mean, sd]} with sd > 0. */
static int read_distribution(const spec_reader *r, const yt_node *k, const yt_node *v,
                             sweep_random *x)
{
    static const char *const kinds[] = {"uniform", "normal"};
    if (check_mapping(r, v, k->text, kinds, 2)) return -1;
    if (yt_map_size(v) != 1) return fail(r, v, k->text, "expected one of uniform: or normal:");
    const yt_node *range = &v->item[1];
    x->dist = strcmp(v->item[0].text, "uniform") ? SWEEP_NORMAL : SWEEP_UNIFORM;
    if (range->kind != YT_SEQUENCE || range->nitem != 2)
        return fail(r, range, k->text, "expected [low, high] or [mean, standard deviation]");
    if (number(r, &range->item[0], k->text, &x->a) || number(r, &range->item[1], k->text, &x->b))
        return -1;
    if (x->dist == SWEEP_UNIFORM && !(x->a < x->b))
        return fail(r, range, k->text, "empty range: low must be below high");
    if (x->dist == SWEEP_NORMAL && !(x->b > 0))
        return fail(r, range, k->text, "the standard deviation must be positive");
    return 0;
}

static int read_count(const spec_reader *r, const yt_node *n, const char *key, long max,
                      unsigned long long *out)
{
    char *end;
    errno = 0;
    if (scalar(r, n, key) || !n->plain || n->text[0] < '0' || n->text[0] > '9')
        return fail(r, n, key, "expected a nonnegative integer");
    *out = strtoull(n->text, &end, 10);
    if (*end || errno || (max > 0 && *out > (unsigned long long)max))
        return fail(r, n, key, "expected an integer in [0, %ld]", max > 0 ? max : 0L);
    return 0;
}

static int read_vary(const spec_reader *r, const yt_node *n, sweep_spec *sp)
{
    if (check_mapping(r, n, "random.vary", NULL, 0)) return -1;
    if (n->nitem == 0) return fail(r, n, "random.vary", "no random variable");
    sp->random = array((size_t)yt_map_size(n), sizeof *sp->random);
    for (int i = 0; i < n->nitem; i += 2) {
        const yt_node *k = &n->item[i];
        if (new_path(r, sp, k)) return -1;
        sweep_random *x = &sp->random[sp->nrandom++];
        x->path = copy(k->text);
        if (read_distribution(r, k, &n->item[i + 1], x)) return -1;
    }
    return 0;
}

static int read_random(const spec_reader *r, const yt_node *n, sweep_spec *sp)
{
    static const char *const keys[] = {"seed", "samples", "vary"};
    const yt_node *seed, *samples, *vary;
    unsigned long long v;
    if (check_mapping(r, n, "random", keys, 3)) return -1;
    if (!(seed = find(n, "seed")))
        return fail(r, n, "random", "a random sweep needs a seed (random.seed: N)");
    if (!(samples = find(n, "samples"))) return fail(r, n, "random", "missing samples");
    if (!(vary = find(n, "vary"))) return fail(r, n, "random", "missing vary");
    if (read_count(r, seed, "random.seed", 0, &v)) return -1;
    sp->seed = v;
    if (read_count(r, samples, "random.samples", SWEEP_MAX_CASES, &v) || v == 0)
        return fail(r, samples, "random.samples", "expected an integer in [1, %ld]",
                    SWEEP_MAX_CASES);
    sp->samples = (long)v;
    return read_vary(r, vary, sp);
}

static int read_columns(const spec_reader *r, const yt_node *n, sweep_spec *sp)
{
    if (n->kind != YT_SEQUENCE) return fail(r, n, "record.columns", "expected a list");
    sp->column = array((size_t)n->nitem, sizeof *sp->column);
    for (int i = 0; i < n->nitem; i++) {
        if (scalar(r, &n->item[i], "record.columns")) return -1;
        sp->column[sp->ncolumn++] = copy(n->item[i].text);
    }
    return 0;
}

static int read_record(const spec_reader *r, const yt_node *n, sweep_spec *sp)
{
    static const char *const keys[] = {"columns", "trajectories", "format"};
    const yt_node *v;
    if (check_mapping(r, n, "record", keys, 3)) return -1;
    if ((v = find(n, "columns")) && read_columns(r, v, sp)) return -1;
    if ((v = find(n, "trajectories"))) {
        if (scalar(r, v, "record.trajectories")) return -1;
        sp->trajectories = copy(v->text);
    }
    if ((v = find(n, "format"))) {
        if (scalar(r, v, "record.format") || (strcmp(v->text, "csv") && strcmp(v->text, "h5")))
            return fail(r, v, "record.format", "expected csv or h5");
        sp->trajectory_h5 = !strcmp(v->text, "h5");
    }
    return 0;
}

/* The whole file at path (to free), or NULL with the reason in msg. */
static char *read_bytes(const char *path, size_t *n, char *msg, size_t len)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long size = -1;
    if (f && fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)size + 1))) {
        *n = fread(text, 1, (size_t)size, f);
        text[*n] = '\0';
    }
    if (!text) snprintf(msg, len, "%s: cannot read: %s", path, strerror(errno ? errno : EIO));
    if (f) fclose(f);
    return text;
}

/* FNV-1a, 64 bits, continued from h. */
static uint64_t fnv1a(uint64_t h, const char *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)bytes[i]) * 0x100000001b3ULL;
    return h;
}

static int read_scenario(const spec_reader *r, const yt_node *n, const char *path, sweep_spec *sp)
{
    if (scalar(r, n, "scenario")) return -1;
    const char *slash = strrchr(path, '/');
    size_t dir = slash && n->text[0] != '/' ? (size_t)(slash - path) + 1 : 0;
    sp->scenario = array(dir + strlen(n->text) + 1, 1);
    memcpy(sp->scenario, path, dir);
    strcpy(sp->scenario + dir, n->text);
    size_t len;
    char *text = read_bytes(sp->scenario, &len, r->msg, r->len);
    if (!text) return -1;
    sp->fingerprint = fnv1a(sp->fingerprint, text, len);
    free(text);
    return 0;
}

static int read_document(const spec_reader *r, const yt_node *root, const char *path,
                         sweep_spec *sp)
{
    static const char *const keys[] = {"scenario", "set", "grid", "random", "record"};
    const yt_node *v;
    if (check_mapping(r, root, "", keys, 5)) return -1;
    if (!(v = find(root, "scenario"))) return fail(r, root, "scenario", "missing key");
    if (read_scenario(r, v, path, sp)) return -1;
    if ((v = find(root, "set")) && read_set(r, v, sp)) return -1;
    if ((v = find(root, "grid")) && read_grid(r, v, sp)) return -1;
    if ((v = find(root, "random")) && read_random(r, v, sp)) return -1;
    if (sp->ncase > SWEEP_MAX_CASES / sp->samples)
        return fail(r, root, "random.samples", "more than %ld cases", SWEEP_MAX_CASES);
    sp->ncase *= sp->samples;
    return (v = find(root, "record")) ? read_record(r, v, sp) : 0;
}

int sweep_spec_load(const char *path, sweep_spec *sp, char *msg, size_t len)
{
    memset(sp, 0, sizeof *sp);
    sp->samples = sp->ncase = 1;
    size_t n;
    char *text = read_bytes(path, &n, msg, len);
    if (!text) return -1;
    spec_reader r = {path, msg, len};
    mcd_error err = {0};
    yt_node *root = NULL;
    int rc = -1;
    if (strlen(text) != n)
        snprintf(msg, len, "%s: NUL byte in the file", path);
    else if (yt_parse_string(text, path, &root, &err) != MCD_OK)
        snprintf(msg, len, "%s", err.msg);
    else if (!root)
        snprintf(msg, len, "%s: empty sweep file (scenario is required)", path);
    else {
        sp->fingerprint = fnv1a(0xcbf29ce484222325ULL, text, n);
        rc = read_document(&r, root, path, sp);
    }
    yt_free(root);
    free(text);
    if (rc) sweep_spec_free(sp);
    return rc;
}

void sweep_spec_free(sweep_spec *sp)
{
    for (int i = 0; i < sp->nset; i++) {
        free((char *)sp->set[i].path);
        free((char *)sp->set[i].value);
    }
    for (int i = 0; i < sp->naxis; i++) {
        for (int j = 0; j < sp->axis[i].nvalue; j++) free(sp->axis[i].value[j]);
        free(sp->axis[i].value);
        free(sp->axis[i].path);
    }
    for (int i = 0; i < sp->nrandom; i++) free(sp->random[i].path);
    for (int i = 0; i < sp->ncolumn; i++) free(sp->column[i]);
    free(sp->set);
    free(sp->axis);
    free(sp->random);
    free(sp->column);
    free(sp->trajectories);
    free(sp->scenario);
    memset(sp, 0, sizeof *sp);
}

const char *sweep_spec_varied_path(const sweep_spec *sp, int k)
{
    return k < sp->naxis ? sp->axis[k].path : sp->random[k - sp->naxis].path;
}

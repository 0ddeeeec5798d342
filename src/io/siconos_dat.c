/* Siconos `.dat` problem files: the LCP and frictional-contact layouts,
 * telling the kind of a file, and the entry point (include/mcdyn/problem_io.h). */
#include "problem_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

mcd_status problem_read_lcp(problem_text *t, mcd_problem_file *out)
{
    int n;
    mcd_mlcp p = {0};
    mcd_status s = problem_read_int(t, "n", 1, PROBLEM_MAX_SIZE, &n);
    if (s == MCD_OK) s = problem_require_numbers(t, "the LCP's q", n);
    if (s == MCD_OK) s = mcd_mlcp_alloc(&p, n, t->err);
    if (s != MCD_OK) return s;
    s = problem_read_matrix(t, "M", n, n, p.M);
    if (s == MCD_OK) s = problem_read_vector(t, "q", n, p.q);
    if (s != MCD_OK) {
        mcd_mlcp_free(&p);
        return s;
    }
    for (int i = 0; i < n; i++) {
        p.lo[i] = 0.0;
        p.hi[i] = INFINITY;
    }
    out->kind = MCD_PROBLEM_LCP;
    out->dimension = 0;
    out->mlcp = p;
    return MCD_OK;
}

static mcd_status read_mu(problem_text *t, int nc, double *mu)
{
    for (int k = 0; k < nc; k++) {
        mcd_status s = problem_read_entry(t, (problem_entry){"mu", k, -1}, &mu[k]);
        if (s == MCD_OK && mu[k] < 0)
            s = problem_fail(t, MCD_ERR_PARSE, "mu[%d] = %g is negative", k, mu[k]);
        if (s != MCD_OK) return s;
    }
    return MCD_OK;
}

/* 2D contact k (rows 2k, 2k+1) -> 3D rows 3k, 3k+1; row 3k+2 decoupled. */
static void embed_2d(int nc, const double *W2, const double *q2, mcd_fc3d *p)
{
    int n2 = 2 * nc, n3 = 3 * nc;
    for (int i = 0; i < n2; i++) {
        int i3 = 3 * (i / 2) + i % 2;
        p->q[i3] = q2[i];
        for (int j = 0; j < n2; j++)
            p->W[(size_t)i3 * n3 + 3 * (j / 2) + j % 2] = W2[(size_t)i * n2 + j];
    }
    for (int k = 0; k < nc; k++) {
        double wt = W2[(size_t)(2 * k + 1) * n2 + 2 * k + 1];
        p->W[(size_t)(3 * k + 2) * n3 + 3 * k + 2] = wt > 0 ? wt : 1.0;
        p->q[3 * k + 2] = 0.0;
    }
}

/* W and q of a 2D problem, embedded into p. */
static mcd_status read_2d(problem_text *t, int nc, mcd_fc3d *p)
{
    size_t n2 = 2 * (size_t)nc;
    double *W2 = calloc(n2 * n2 + n2, sizeof(double));
    if (!W2) return problem_fail(t, MCD_ERR_NOMEM, "out of memory for the 2D problem");
    double *q2 = W2 + n2 * n2;
    mcd_status s = problem_read_matrix(t, "W", (int)n2, (int)n2, W2);
    if (s == MCD_OK) s = problem_read_vector(t, "q", (int)n2, q2);
    if (s == MCD_OK) embed_2d(nc, W2, q2, p);
    free(W2);
    return s;
}

static mcd_status read_fc_body(problem_text *t, int dim, mcd_fc3d *p)
{
    int size = 3 * p->nc;
    mcd_status s;
    if (dim == 2) {
        s = read_2d(t, p->nc, p);
    } else {
        s = problem_read_matrix(t, "W", size, size, p->W);
        if (s == MCD_OK) s = problem_read_vector(t, "q", size, p->q);
    }
    if (s == MCD_OK) s = read_mu(t, p->nc, p->mu);
    return s;
}

mcd_status problem_read_fc(problem_text *t, mcd_problem_file *out)
{
    int dim, nc;
    mcd_fc3d p = {0};
    mcd_status s = problem_read_int(t, "dimension", 2, 3, &dim);
    if (s == MCD_OK) s = problem_read_int(t, "number of contacts", 1, PROBLEM_MAX_SIZE / 3, &nc);
    if (s == MCD_OK) s = problem_require_numbers(t, "the contacts' q and mu", (long)nc * (dim + 1));
    if (s == MCD_OK) s = mcd_fc3d_alloc(&p, nc, 0, t->err);
    if (s != MCD_OK) return s;
    s = read_fc_body(t, dim, &p);
    if (s != MCD_OK) {
        mcd_fc3d_free(&p);
        return s;
    }
    out->kind = MCD_PROBLEM_FC3D;
    out->dimension = dim;
    out->fc3d = p;
    return MCD_OK;
}

/* The leading integers of the file (up to HEAD; fewer if the file ends or a
 * token is not an integer). A missing value fits every layout. */
#define HEAD 3
typedef struct file_head {
    long v[HEAD];
    int count;
} file_head;

static file_head read_head(problem_text *t)
{
    file_head h = {{0}, 0};
    const char *tok;
    size_t len;
    problem_text_rewind(t);
    while (h.count < HEAD && problem_text_token(t, &tok, &len)) {
        char buf[32], *end;
        if (len >= sizeof buf) break;
        memcpy(buf, tok, len);
        buf[len] = '\0';
        h.v[h.count] = strtol(buf, &end, 10);
        if (*end != '\0' || end == buf) break;
        h.count++;
    }
    problem_text_rewind(t);
    return h;
}

/* Value k is absent, or satisfies lo <= v <= hi. */
static int head_in(const file_head *h, int k, long lo, long hi)
{
    return k >= h->count || (h->v[k] >= lo && h->v[k] <= hi);
}

/* Loose signatures: a file that fits one is read as that kind, so that a
 * wrong size deeper in is reported as such. */
static int fits(const file_head *h, mcd_problem_kind k)
{
    switch (k) {
    case MCD_PROBLEM_LCP: /* n, storage */
        return head_in(h, 0, 1, PROBLEM_MAX_SIZE) && head_in(h, 1, 0, 2);
    case MCD_PROBLEM_MLCP: /* flag, flag, n, m */
        return head_in(h, 0, 0, 1) && head_in(h, 1, 0, 1);
    case MCD_PROBLEM_FC3D: /* dimension, nc, storage */
        return head_in(h, 0, 2, 3) && head_in(h, 2, 0, 2);
    default:
        return 0;
    }
}

static mcd_status read_kind(problem_text *t, mcd_problem_kind k, mcd_problem_file *out)
{
    problem_text_rewind(t);
    if (k == MCD_PROBLEM_LCP) return problem_read_lcp(t, out);
    if (k == MCD_PROBLEM_MLCP) return problem_read_mlcp(t, out);
    return problem_read_fc(t, out);
}

/* Reading a file as each kind that fits its first numbers. */
typedef struct kind_trials {
    int fitting, read;
    mcd_error best; /* the failure that read furthest into the file */
    size_t best_pos;
    mcd_problem_kind best_kind;
} kind_trials;

/* Reads t as kind k: the first success goes to out, later ones are
 * counted and dropped. */
static void try_kind(problem_text *t, mcd_problem_kind k, mcd_problem_file *out, kind_trials *tr)
{
    mcd_problem_file got = {0};
    mcd_error e = {0}, *caller = t->err;
    t->err = &e;
    mcd_status s = read_kind(t, k, &got);
    t->err = caller;
    tr->fitting++;
    if (s == MCD_OK) {
        if (tr->read++)
            mcd_problem_file_free(&got);
        else
            *out = got;
    } else if (!tr->best.msg[0] || t->pos > tr->best_pos) {
        tr->best = e;
        tr->best_pos = t->pos;
        tr->best_kind = k;
    }
}

/* Exactly one fitting kind must read the file. */
static mcd_status read_auto(problem_text *t, mcd_problem_file *out)
{
    file_head h = read_head(t);
    if (h.count == 0)
        return mcd_fail(t->err, MCD_ERR_PARSE,
                        "%s:1: not a Siconos problem file (it does not start with a number)",
                        t->path);
    kind_trials tr = {0, 0, {0}, 0, MCD_PROBLEM_AUTO};
    for (int k = MCD_PROBLEM_LCP; k < MCD_PROBLEM_KIND_COUNT; k++)
        if (fits(&h, (mcd_problem_kind)k)) try_kind(t, (mcd_problem_kind)k, out, &tr);
    if (tr.read == 1) return MCD_OK;
    if (tr.read > 1) {
        mcd_problem_file_free(out);
        return mcd_fail(t->err, MCD_ERR_PARSE,
                        "%s: valid as more than one problem kind; give the kind explicitly",
                        t->path);
    }
    if (!tr.fitting)
        return mcd_fail(t->err, MCD_ERR_PARSE,
                        "%s:1: not a Siconos LCP, MLCP or frictional-contact file (its first "
                        "numbers fit none of the layouts)",
                        t->path);
    return mcd_fail(t->err, tr.best.status, "%s (reading it as %s)", tr.best.msg,
                    mcd_problem_kind_name(tr.best_kind));
}

mcd_status mcd_problem_read_siconos(const char *path, mcd_problem_kind kind, mcd_problem_file *out,
                                    mcd_error *err)
{
    if (!path || !out || (int)kind < 0 || kind >= MCD_PROBLEM_KIND_COUNT)
        return mcd_fail(err, MCD_ERR_ARG,
                        "mcd_problem_read_siconos: NULL path or out, or bad kind");
    memset(out, 0, sizeof *out);
    problem_text t;
    mcd_status s = problem_text_load(&t, path, err);
    if (s != MCD_OK) return s;
    const char *tok;
    size_t len;
    if (!problem_text_token(&t, &tok, &len))
        s = mcd_fail(err, MCD_ERR_PARSE, "%s: the file holds no numbers", path);
    else if (kind == MCD_PROBLEM_AUTO)
        s = read_auto(&t, out);
    else
        s = read_kind(&t, kind, out);
    problem_text_free(&t);
    return s;
}

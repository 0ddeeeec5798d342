/* Writing Siconos `.dat` problem files (include/mcdyn/problem_io.h): the
 * dense layouts that mcd_problem_read_siconos reads back bit for bit. */
#include "mcdyn/problem_io.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Shortest text that reads back as the same double. */
#define EXACT "%.17g"

/* A dense NumericsMatrix: storage 0, the sizes twice, the entries column
 * by column. */
static void write_dense(FILE *f, int n, const double *A)
{
    fprintf(f, "0\n%d %d\n%d %d\n", n, n, n, n);
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++)
            fprintf(f, EXACT "%c", A[(size_t)i * n + j], i + 1 < n ? ' ' : '\n');
    }
}

static void write_vector(FILE *f, int n, const double *v)
{
    for (int i = 0; i < n; i++) fprintf(f, EXACT "%c", v[i], i + 1 < n ? ' ' : '\n');
}

/* 1 for an equality row, 0 for a complementarity row (lo = 0, hi = +inf),
 * -1 for a row the MLCP layout cannot hold. */
static int row_is_free(const mcd_mlcp *p, int i)
{
    if (p->hi[i] != INFINITY) return -1;
    if (p->lo[i] == -INFINITY) return 1;
    return p->lo[i] == 0.0 ? 0 : -1;
}

/* The MLCP layout with isStorageType1 only: one block per run of rows of
 * one kind. */
static void write_mlcp_body(FILE *f, const mcd_mlcp *p, int nfree)
{
    fprintf(f, "1 0\n%d %d\n0", nfree, p->n - nfree);
    for (int i = 1; i <= p->n; i++)
        if (i == p->n || row_is_free(p, i) != row_is_free(p, i - 1)) fprintf(f, " %d", i);
    fprintf(f, "\n");
    for (int i = 0; i < p->n; i++)
        if (i == 0 || row_is_free(p, i) != row_is_free(p, i - 1))
            fprintf(f, "%d ", row_is_free(p, i) ? 0 : 1);
    fprintf(f, "\n");
    write_dense(f, p->n, p->M);
    write_vector(f, p->n, p->q);
}

static mcd_status check_mlcp(const mcd_mlcp *p, int *nfree, mcd_error *err)
{
    mcd_status s = mcd_mlcp_check(p, err);
    if (s != MCD_OK) return s;
    if (p->n < 1) return mcd_fail(err, MCD_ERR_ARG, "problem writer: empty MLCP");
    *nfree = 0;
    for (int i = 0; i < p->n; i++) {
        int k = row_is_free(p, i);
        if (k < 0)
            return mcd_fail(err, MCD_ERR_UNSUPPORTED,
                            "problem writer: MLCP row %d has bounds [%g, %g]; the Siconos layout "
                            "holds only equality rows and rows with bounds [0, inf)",
                            i, p->lo[i], p->hi[i]);
        *nfree += k;
    }
    return MCD_OK;
}

static mcd_status check_fc3d(const mcd_fc3d *p, mcd_error *err)
{
    mcd_status s = mcd_fc3d_check(p, err);
    if (s != MCD_OK) return s;
    if (p->nb != 0)
        return mcd_fail(err, MCD_ERR_UNSUPPORTED,
                        "problem writer: %d bilateral rows; the Siconos frictional-contact "
                        "layout has none",
                        p->nb);
    if (p->nc < 1) return mcd_fail(err, MCD_ERR_ARG, "problem writer: no contacts");
    return MCD_OK;
}

static void write_fc3d_body(FILE *f, const mcd_fc3d *p)
{
    int n = mcd_fc3d_size(p);
    fprintf(f, "3\n%d\n", p->nc);
    write_dense(f, n, p->W);
    write_vector(f, n, p->q);
    write_vector(f, p->nc, p->mu);
}

static mcd_status write_file(const char *path, const mcd_mlcp *mlcp, int nfree,
                             const mcd_fc3d *fc3d, mcd_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return mcd_fail(err, MCD_ERR_IO, "problem writer: cannot open '%s': %s", path,
                        strerror(errno));
    if (mlcp) {
        write_mlcp_body(f, mlcp, nfree);
    } else {
        write_fc3d_body(f, fc3d);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return mcd_fail(err, MCD_ERR_IO, "problem writer: error writing '%s'", path);
    return MCD_OK;
}

mcd_status mcd_problem_write_mlcp(const char *path, const mcd_mlcp *p, mcd_error *err)
{
    int nfree = 0;
    if (!path || !p) return mcd_fail(err, MCD_ERR_ARG, "problem writer: NULL path or problem");
    mcd_status s = check_mlcp(p, &nfree, err);
    return s == MCD_OK ? write_file(path, p, nfree, NULL, err) : s;
}

mcd_status mcd_problem_write_fc3d(const char *path, const mcd_fc3d *p, mcd_error *err)
{
    if (!path || !p) return mcd_fail(err, MCD_ERR_ARG, "problem writer: NULL path or problem");
    mcd_status s = check_fc3d(p, err);
    return s == MCD_OK ? write_file(path, NULL, 0, p, err) : s;
}

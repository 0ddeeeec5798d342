/* The summary of a sweep as an HDF5 file (tools/sweep_summary_h5.h). */
#include "sweep_summary_h5.h"

#include <hdf5.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep_csv.h"
#include "sweep_run.h"

/* The summary's fields: field[i * ncol + c] is column c of row i. */
typedef struct table {
    char **name, *name_buf;
    int ncol;
    long nrow;
    char **field, **row_buf;
} table;

static void *array(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) abort(); /* the command cannot go on without memory */
    return p;
}

/* Splits the header and the rows; -1 when a row has another field count. */
static int split_table(const sweep_summary *s, table *t)
{
    char *header = NULL;
    size_t hlen = 0;
    FILE *h = open_memstream(&header, &hlen);
    if (!h) abort();
    sweep_run_header(s->sp, h);
    fclose(h);
    t->name_buf = array(hlen + 1, 1);
    t->ncol = sweep_csv_split(header, t->name_buf, NULL, 0);
    t->name = array((size_t)t->ncol, sizeof *t->name);
    sweep_csv_split(header, t->name_buf, t->name, t->ncol);
    free(header);
    t->nrow = s->sp->ncase;
    t->field = array((size_t)t->nrow * (size_t)t->ncol, sizeof *t->field);
    t->row_buf = array((size_t)t->nrow, sizeof *t->row_buf);
    for (long i = 0; i < t->nrow; i++) {
        t->row_buf[i] = array(strlen(s->row[i]) + 1, 1);
        char **f = t->field + i * t->ncol;
        if (sweep_csv_split(s->row[i], t->row_buf[i], f, t->ncol) != t->ncol) return -1;
    }
    return 0;
}

static void free_table(table *t)
{
    for (long i = 0; t->row_buf && i < t->nrow; i++) free(t->row_buf[i]);
    free(t->row_buf);
    free(t->field);
    free(t->name);
    free(t->name_buf);
}

/* Numbers in text separated by spaces into v (cap entries); their count,
 * or -1 when text holds anything else. */
static int numbers(const char *text, double *v, int cap)
{
    int n = 0;
    for (const char *p = text; *p;) {
        char *end;
        double x = strtod(p, &end);
        if (end == p || (*end && *end != ' ')) return -1;
        if (v && n < cap) v[n] = x;
        n++;
        p = *end ? end + 1 : end;
    }
    return n;
}

/* The width of column c: 1 when each row holds one number or nothing, n
 * when each holds n > 1 numbers, 0 for strings (status and message are
 * strings even when every one is empty). */
static int column_width(const table *t, int c)
{
    int width = 0, uneven = 0;
    if (!strcmp(t->name[c], "status") || !strcmp(t->name[c], "message")) return 0;
    for (long i = 0; i < t->nrow; i++) {
        int n = numbers(t->field[i * t->ncol + c], NULL, 0);
        if (n < 0) return 0;
        uneven |= i > 0 && n != width;
        if (n > width) width = n;
    }
    return width <= 1 ? 1 : uneven ? 0 : width;
}

static int write_dataset(hid_t g, const char *name, hid_t type, int rank, const hsize_t *dims,
                         const void *data)
{
    hid_t space = H5Screate_simple(rank, dims, NULL);
    hid_t d = H5Dcreate2(g, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int bad = d < 0 || H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0;
    if (d >= 0) H5Dclose(d);
    H5Sclose(space);
    return bad;
}

static int write_column(hid_t g, const table *t, int c)
{
    char name[512];
    snprintf(name, sizeof name, "%s", t->name[c]);
    for (char *p = name; *p; p++)
        if (*p == '/') *p = '_';
    const int width = column_width(t, c);
    const hsize_t dims[2] = {(hsize_t)t->nrow, (hsize_t)width};
    if (width == 0) {
        const char **text = array((size_t)t->nrow, sizeof *text);
        for (long i = 0; i < t->nrow; i++) text[i] = t->field[i * t->ncol + c];
        hid_t str = H5Tcopy(H5T_C_S1);
        H5Tset_size(str, H5T_VARIABLE);
        int bad = write_dataset(g, name, str, 1, dims, text);
        H5Tclose(str);
        free(text);
        return bad;
    }
    double *v = array((size_t)t->nrow * (size_t)width, sizeof *v);
    for (long i = 0; i < t->nrow; i++) {
        double *vi = v + i * width;
        if (numbers(t->field[i * t->ncol + c], vi, width) == 0) vi[0] = NAN;
    }
    int bad = write_dataset(g, name, H5T_NATIVE_DOUBLE, width > 1 ? 2 : 1, dims, v);
    free(v);
    return bad;
}

static int write_file(const char *tmp, const sweep_summary *s, const table *t)
{
    char identity[128];
    snprintf(identity, sizeof identity, "mcdyn sweep %016" PRIx64 " cases %ld", s->sp->fingerprint,
             s->sp->ncase);
    hid_t file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0) return 1;
    hid_t str = H5Tcopy(H5T_C_S1), scalar = H5Screate(H5S_SCALAR);
    H5Tset_size(str, H5T_VARIABLE);
    hid_t a = H5Acreate2(file, "sweep", str, scalar, H5P_DEFAULT, H5P_DEFAULT);
    const char *text = identity;
    int bad = a < 0 || H5Awrite(a, str, &text) < 0;
    if (a >= 0) H5Aclose(a);
    H5Sclose(scalar), H5Tclose(str);
    hid_t g = H5Gcreate2(file, "summary", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    bad |= g < 0;
    for (int c = 0; c < t->ncol && !bad; c++) bad = write_column(g, t, c);
    if (g >= 0) H5Gclose(g);
    bad |= H5Fclose(file) < 0;
    return bad;
}

int sweep_summary_h5(const sweep_summary *s, const char *path, char *msg, size_t len)
{
    table t;
    memset(&t, 0, sizeof t);
    char *tmp = array(strlen(path) + 16, 1);
    sprintf(tmp, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(tmp), bad = fd < 0;
    if (fd >= 0) close(fd);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* errors become messages, nothing printed */
    if (!bad && split_table(s, &t)) {
        snprintf(msg, len, "%s: a summary row does not match the header", path);
        bad = 2;
    }
    if (!bad && write_file(tmp, s, &t)) bad = 1;
    if (!bad && rename(tmp, path) != 0) bad = 1;
    if (bad == 1) snprintf(msg, len, "cannot write the HDF5 summary %s", path);
    if (bad && fd >= 0) unlink(tmp);
    free(tmp);
    free_table(&t);
    return bad ? -1 : 0;
}

/* `mcdyn draw --trajectory CSV --time T`: the state of the recorded row
 * nearest to T, rebuilt from the CSV's columns (draw_trajectory.h). The
 * body columns give each body's world pose: its orientation, and its origin
 * x - R c from the centre of mass x and the body-frame centre of mass c; a
 * free or spherical joint's coordinates are its hinge motion
 *   X_J = (X_world(parent) X_tree)^{-1} X_world(body)
 * (kinematics.c: X_world = X_world(parent) X_tree X_J). */
#include "draw_trajectory.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A quaternion column set farther than this from unit norm is refused (the
 * CSV writes 17 digits, so a recorded one is unit to rounding). */
#define QUAT_NORM_TOL 1e-6

typedef struct csv_table {
    char *header; /* the header line, split in place */
    char **name;  /* ncol column names, pointing into header */
    int ncol;
    char *best;    /* the chosen row */
    double *value; /* ncol values of the chosen row (NAN when empty) */
} csv_table;

static int failf(char *msg, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
    return 1;
}

static void strip_newline(char *s)
{
    s[strcspn(s, "\r\n")] = '\0';
}

/* Splits line at commas into at most n fields (the count in *count). */
static int split(char *line, char **field, int n)
{
    int count = 0;
    for (char *p = line;; p++) {
        if (count < n) field[count] = p;
        count++;
        p = strchr(p, ',');
        if (!p) break;
        *p = '\0';
    }
    return count;
}

static int read_header(FILE *f, const char *path, csv_table *t, char *msg, size_t len)
{
    size_t cap = 0;
    if (getline(&t->header, &cap, f) <= 0) return failf(msg, len, "%s: empty file", path);
    strip_newline(t->header);
    int n = 1;
    for (const char *p = t->header; *p; p++) n += *p == ',';
    t->name = calloc((size_t)n, sizeof *t->name);
    t->value = calloc((size_t)n, sizeof *t->value);
    if (!t->name || !t->value) return failf(msg, len, "out of memory");
    t->ncol = split(t->header, t->name, n);
    if (strcmp(t->name[0], "t") != 0)
        return failf(msg, len, "%s: the first column is '%s', not 't' (not a trajectory CSV)", path,
                     t->name[0]);
    return 0;
}

/* The number field text holds (NAN for an empty field); 1 if not a number. */
static int parse_number(const char *text, double *v)
{
    if (!*text) {
        *v = NAN;
        return 0;
    }
    char *end;
    *v = strtod(text, &end);
    return *end != '\0';
}

/* Keeps the row nearest to time and parses it into t->value. */
static int read_rows(FILE *f, const char *path, double time, csv_table *t, double *t_row, char *msg,
                     size_t len)
{
    char *line = NULL;
    size_t cap = 0;
    double best_gap = INFINITY;
    long best_line = 0;
    for (long lineno = 2; getline(&line, &cap, f) > 0; lineno++) {
        strip_newline(line);
        double tr;
        const size_t tlen = strcspn(line, ",");
        const char saved = line[tlen];
        line[tlen] = '\0';
        const int bad = parse_number(line, &tr) || !isfinite(tr);
        line[tlen] = saved;
        if (bad) {
            free(line);
            return failf(msg, len, "%s:%ld: t is not a number", path, lineno);
        }
        if (fabs(tr - time) < best_gap) {
            best_gap = fabs(tr - time), best_line = lineno, *t_row = tr;
            free(t->best);
            if (!(t->best = strdup(line))) break;
        }
    }
    free(line);
    if (!t->best) return failf(msg, len, "%s: no rows (or out of memory)", path);
    char **field = calloc((size_t)t->ncol, sizeof *field);
    if (!field) return failf(msg, len, "out of memory");
    const int n = split(t->best, field, t->ncol);
    int rc = n != t->ncol ? failf(msg, len, "%s:%ld: %d fields, the header has %d", path, best_line,
                                  n, t->ncol)
                          : 0;
    for (int i = 0; rc == 0 && i < n; i++)
        if (parse_number(field[i], &t->value[i]))
            rc = failf(msg, len, "%s:%ld: column %s: '%s' is not a number", path, best_line,
                       t->name[i], field[i]);
    free(field);
    return rc;
}

/* The value of column prefix.suffix, or 1 with a message when it is
 * missing or empty. */
static int column(const csv_table *t, const char *path, const char *prefix, const char *suffix,
                  double *v, char *msg, size_t len)
{
    const size_t n = strlen(prefix);
    for (int i = 0; i < t->ncol; i++)
        if (!strncmp(t->name[i], prefix, n) && t->name[i][n] == '.' &&
            !strcmp(t->name[i] + n + 1, suffix)) {
            *v = t->value[i];
            if (isfinite(*v)) return 0;
            return failf(msg, len, "%s: column %s.%s of the chosen row is not a finite number",
                         path, prefix, suffix);
        }
    return failf(msg, len,
                 "%s: no column %s.%s (a CSV of another scenario, or written before the joint "
                 "columns existed?)",
                 path, prefix, suffix);
}

/* World pose of body k from its body columns. */
static int body_pose(const mcd_model *m, const csv_table *t, const char *path, int k, mcd_pose *X,
                     char *msg, size_t len)
{
    static const char *const names[7] = {"x", "y", "z", "qw", "qx", "qy", "qz"};
    double v[7], c[3];
    for (int i = 0; i < 7; i++)
        if (column(t, path, m->body_name[k], names[i], &v[i], msg, len)) return 1;
    if (fabs(mcd_quat_norm(v + 3) - 1.0) > QUAT_NORM_TOL)
        return failf(msg, len, "%s: the orientation of body %s is not a unit quaternion", path,
                     m->body_name[k]);
    mcd_quat_normalize(v + 3);
    mcd_quat_to_m3(X->R, v + 3);
    mcd_m3_mul_v(c, X->R, m->body[k].mass.com);
    mcd_v3_sub(X->p, v, c);
    return 0;
}

/* Coordinates of a free or spherical hinge from the recorded poses. */
static int ball_coordinates(const mcd_model *m, mcd_data *d, const csv_table *t, const char *path,
                            int k, double *q, char *msg, size_t len)
{
    const mcd_body *B = &m->body[k];
    mcd_pose Xw, Xpj, Xpj_inv, XJ;
    mcd_pose_identity(&Xw); /* set by body_pose; initialised for the compiler's flow analysis */
    if (body_pose(m, t, path, k, &Xw, msg, len)) return 1;
    if (B->parent < 0) {
        Xpj = B->X_tree;
    } else { /* the parent's coordinates are set: it comes first */
        if (mcd_forward_kinematics(m, d, q) != MCD_OK)
            return failf(msg, len, "%s: %s", path, mcd_data_error(d));
        mcd_pose_mul(&Xpj, &d->bd[B->parent].X_world, &B->X_tree);
    }
    mcd_pose_inv(&Xpj_inv, &Xpj);
    mcd_pose_mul(&XJ, &Xpj_inv, &Xw);
    double *qj = q + B->qadr;
    if (B->jtype == MCD_JOINT_FREE) {
        mcd_v3_copy(qj, XJ.p);
        qj += 3;
    }
    mcd_quat_from_m3(qj, XJ.R);
    return 0;
}

static int model_state(const mcd_model *m, mcd_data *d, const csv_table *t, const char *path,
                       double *q, char *msg, size_t len)
{
    mcd_model_neutral(m, q);
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        const int ball = B->jtype == MCD_JOINT_FREE || B->jtype == MCD_JOINT_SPHERICAL;
        if (ball ? ball_coordinates(m, d, t, path, k, q, msg, len)
                 : column(t, path, m->joint_name[k], "q", &q[B->qadr], msg, len))
            return 1;
    }
    mcd_error err;
    if (mcd_model_check_q(m, q, &err) != MCD_OK) return failf(msg, len, "%s: %s", path, err.msg);
    return 0;
}

int draw_trajectory_state(const mcd_model *m, mcd_data *d, const char *path, double time, double *q,
                          double *t_row, char *msg, size_t msglen)
{
    FILE *f = fopen(path, "r");
    if (!f) return failf(msg, msglen, "cannot read the trajectory '%s'", path);
    csv_table t = {0};
    int rc = read_header(f, path, &t, msg, msglen) ||
             read_rows(f, path, time, &t, t_row, msg, msglen) ||
             model_state(m, d, &t, path, q, msg, msglen);
    fclose(f);
    free(t.header), free(t.name), free(t.best), free(t.value);
    return rc;
}

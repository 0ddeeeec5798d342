/* Rewrites URDF <inertial> elements in principal axes (principal_inertia.h). */
#include "principal_inertia.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* LAPACK: eigenvalues and eigenvectors of a symmetric matrix. */
void dsyev_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
            double *work, const int *lwork, int *info);

static xmlNode *child_element(xmlNode *node, const char *name)
{
    for (xmlNode *c = node->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && !xmlStrcmp(c->name, BAD_CAST name)) return c;
    return NULL;
}

/* Reads n numbers from attribute name of node (absent: zeros). */
static int read_numbers(xmlNode *node, const char *name, int n, double *v)
{
    for (int i = 0; i < n; i++) v[i] = 0.0;
    xmlChar *text = node ? xmlGetProp(node, BAD_CAST name) : NULL;
    if (!text) return 0;
    const char *p = (const char *)text;
    int i = 0;
    for (char *end; i < n; i++, p = end) {
        v[i] = strtod(p, &end);
        if (end == p) break;
    }
    xmlFree(text);
    return i == n ? 0 : -1;
}

static void write_numbers(xmlNode *node, const char *name, int n, const double *v)
{
    char text[128];
    int len = 0;
    for (int i = 0; i < n; i++)
        len += snprintf(text + len, sizeof text - (size_t)len, "%s%.17g", i ? " " : "", v[i]);
    xmlSetProp(node, BAD_CAST name, BAD_CAST text);
}

/* R = Rz(yaw) Ry(pitch) Rx(roll), row-major (the URDF convention). */
static void rpy_to_matrix(const double rpy[3], double R[9])
{
    double cr = cos(rpy[0]), sr = sin(rpy[0]), cp = cos(rpy[1]), sp = sin(rpy[1]);
    double cy = cos(rpy[2]), sy = sin(rpy[2]);
    double M[9] = {cy * cp,
                   cy * sp * sr - sy * cr,
                   cy * sp * cr + sy * sr,
                   sy * cp,
                   sy * sp * sr + cy * cr,
                   sy * sp * cr - cy * sr,
                   -sp,
                   cp * sr,
                   cp * cr};
    for (int i = 0; i < 9; i++) R[i] = M[i];
}

static void matrix_to_rpy(const double R[9], double rpy[3])
{
    rpy[0] = atan2(R[7], R[8]);
    rpy[1] = atan2(-R[6], hypot(R[7], R[8]));
    rpy[2] = atan2(R[3], R[0]);
}

/* Eigenvalues w and orthonormal eigenvectors (columns of V, row-major). */
static int eigen_symmetric(const double I[9], double w[3], double V[9])
{
    double a[9], work[64];
    const int n = 3, lwork = 64;
    int info;
    for (int i = 0; i < 9; i++) a[i] = I[i]; /* symmetric: row- = column-major */
    dsyev_("V", "U", &n, a, &n, w, work, &lwork, &info);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) V[3 * r + c] = a[3 * c + r];
    return info;
}

/* Orders the columns of the rotation R (and the principal moments w) so
 * that |R[2][0]| is smallest, keeping rpy well away from gimbal lock, and
 * makes det R = +1. */
static void condition_axes(double R[9], double w[3])
{
    int first = 0;
    for (int c = 1; c < 3; c++)
        if (fabs(R[6 + c]) < fabs(R[6 + first])) first = c;
    double S[9], ws[3];
    for (int c = 0; c < 3; c++) { /* cyclic: the orientation is kept */
        int from = (first + c) % 3;
        ws[c] = w[from];
        for (int r = 0; r < 3; r++) S[3 * r + c] = R[3 * r + from];
    }
    double det = S[0] * (S[4] * S[8] - S[5] * S[7]) - S[1] * (S[3] * S[8] - S[5] * S[6]) +
                 S[2] * (S[3] * S[7] - S[4] * S[6]);
    for (int r = 0; r < 3 && det < 0; r++) S[3 * r + 2] = -S[3 * r + 2];
    for (int i = 0; i < 9; i++) R[i] = S[i];
    for (int i = 0; i < 3; i++) w[i] = ws[i];
}

int principal_inertia_rewrite(xmlNode *inertial, char *err, int errlen)
{
    static const char *const names[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
    xmlNode *inertia = child_element(inertial, "inertia");
    double v[6], rpy[3], Ro[9], V[9], w[3], R[9];
    for (int i = 0; i < 6; i++)
        if (!inertia || read_numbers(inertia, names[i], 1, &v[i]) != 0) {
            snprintf(err, errlen, "line %d: bad <inertia>", inertial->line);
            return -1;
        }
    if (v[1] == 0.0 && v[2] == 0.0 && v[4] == 0.0) return 0;
    xmlNode *origin = child_element(inertial, "origin");
    const double I[9] = {v[0], v[1], v[2], v[1], v[3], v[4], v[2], v[4], v[5]};
    if (read_numbers(origin, "rpy", 3, rpy) != 0 || eigen_symmetric(I, w, V) != 0) {
        snprintf(err, errlen, "line %d: bad <origin rpy> or inertia", inertial->line);
        return -1;
    }
    rpy_to_matrix(rpy, Ro);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            R[3 * r + c] = Ro[3 * r] * V[c] + Ro[3 * r + 1] * V[3 + c] + Ro[3 * r + 2] * V[6 + c];
    condition_axes(R, w);
    matrix_to_rpy(R, rpy);
    if (!origin) origin = xmlNewChild(inertial, NULL, BAD_CAST "origin", NULL);
    write_numbers(origin, "rpy", 3, rpy);
    const double principal[6] = {w[0], 0.0, 0.0, w[1], 0.0, w[2]};
    for (int i = 0; i < 6; i++) write_numbers(inertia, names[i], 1, &principal[i]);
    return 0;
}

/* Rigid-body mass properties: validation (physical realizability) and the
 * combination of rigidly attached links (fixed-joint merging). */
#include "inertia.h"

#include <math.h>
#include <stdio.h>

void mcd_sym3_eigenvalues(const double A[9], double lambda[3])
{
    double a[3][3] = {{A[0], A[1], A[2]}, {A[3], A[4], A[5]}, {A[6], A[7], A[8]}};
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        double scale = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]);
        if (off <= 1e-300 || off <= 1e-17 * scale) break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (a[p][q] == 0.0) continue;
                double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 3; k++) { /* rotate columns p, q */
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) { /* rotate rows p, q */
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
            }
    }
    double l[3] = {a[0][0], a[1][1], a[2][2]};
    for (int i = 0; i < 2; i++) /* sort ascending */
        for (int j = 0; j < 2 - i; j++)
            if (l[j] > l[j + 1]) {
                double t = l[j];
                l[j] = l[j + 1];
                l[j + 1] = t;
            }
    lambda[0] = l[0], lambda[1] = l[1], lambda[2] = l[2];
}

int mcd_inertia_positive_definite(const double I[9])
{
    double l[3];
    mcd_sym3_eigenvalues(I, l);
    return l[0] > 1e-12 * fmax(l[2], 1e-300) && l[0] > 0.0;
}

int mcd_mass_props_finite(const mcd_mass_props *mp)
{
    for (int i = 0; i < 9; i++)
        if (!isfinite(mp->inertia[i])) return 0;
    return isfinite(mp->mass) && mcd_v3_isfinite(mp->com);
}

int mcd_mass_props_valid(const mcd_mass_props *mp, char *why, int n)
{
    if (!isfinite(mp->mass) || !mcd_v3_isfinite(mp->com)) {
        snprintf(why, n, "mass or centre of mass is not finite");
        return 0;
    }
    for (int i = 0; i < 9; i++)
        if (!isfinite(mp->inertia[i])) {
            snprintf(why, n, "inertia is not finite");
            return 0;
        }
    if (mp->mass < 0.0) {
        snprintf(why, n, "negative mass %g kg", mp->mass);
        return 0;
    }
    const double *I = mp->inertia;
    double scale = fabs(I[0]) + fabs(I[4]) + fabs(I[8]);
    double tol = 1e-9 * scale + 1e-300;
    if (fabs(I[1] - I[3]) > tol || fabs(I[2] - I[6]) > tol || fabs(I[5] - I[7]) > tol) {
        snprintf(why, n, "inertia matrix is not symmetric");
        return 0;
    }
    double l[3];
    mcd_sym3_eigenvalues(I, l);
    if (l[0] < -tol) {
        snprintf(why, n,
                 "inertia is not positive semidefinite (principal moments %g, %g, %g kg m^2)", l[0],
                 l[1], l[2]);
        return 0;
    }
    /* triangle inequality of the principal moments: l0 + l1 >= l2 */
    if (l[0] + l[1] < l[2] - tol) {
        snprintf(why, n,
                 "principal moments %g, %g, %g kg m^2 violate the triangle inequality "
                 "(no rigid body has them)",
                 l[0], l[1], l[2]);
        return 0;
    }
    if (mp->mass == 0.0 && scale > 0.0) {
        snprintf(why, n, "zero mass with non-zero inertia");
        return 0;
    }
    return 1;
}

void mcd_mass_props_add(mcd_mass_props *acc, const mcd_mass_props *mp, const mcd_pose *X)
{
    double m1 = acc->mass, m2 = mp->mass, m = m1 + m2;
    if (m2 == 0.0) return;
    double c2[3], I2[9];
    mcd_pose_apply(c2, X, mp->com);
    mcd_m3_rotate_sym(I2, X->R, mp->inertia);
    double c[3];
    for (int i = 0; i < 3; i++) c[i] = (m1 * acc->com[i] + m2 * c2[i]) / m;
    /* parallel-axis terms: m (|d|^2 I - d d^T) for each part about the new com */
    double d1[3], d2[3];
    mcd_v3_sub(d1, acc->com, c);
    mcd_v3_sub(d2, c2, c);
    double n1 = mcd_v3_dot(d1, d1), n2 = mcd_v3_dot(d2, d2);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double delta = i == j ? 1.0 : 0.0;
            acc->inertia[3 * i + j] += I2[3 * i + j] + m1 * (n1 * delta - d1[i] * d1[j]) +
                                       m2 * (n2 * delta - d2[i] * d2[j]);
        }
    mcd_v3_copy(acc->com, c);
    acc->mass = m;
}

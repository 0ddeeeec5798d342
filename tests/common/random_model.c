/* Test support: random models and states (random_model.h). */
#include "random_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

double test_uniform(test_rng *r, double lo, double hi)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    unsigned long long x = r->s * 2685821657736338717ULL;
    return lo + (hi - lo) * ((double)(x >> 11) / 9007199254740992.0);
}

static void random_unit(test_rng *r, double u[3])
{
    do {
        for (int i = 0; i < 3; i++) u[i] = test_uniform(r, -1, 1);
    } while (mcd_v3_norm(u) < 0.1);
    mcd_v3_scale(u, u, 1.0 / mcd_v3_norm(u));
}

static void random_rotation(test_rng *r, double R[9])
{
    double u[3];
    random_unit(r, u);
    mcd_m3_axis_angle(R, u, test_uniform(r, -M_PI, M_PI));
}

/* Principal moments satisfying the triangle inequality, rotated randomly. */
static void random_mass(test_rng *r, mcd_mass_props *mp)
{
    mp->mass = test_uniform(r, 0.2, 3.0);
    for (int i = 0; i < 3; i++) mp->com[i] = test_uniform(r, -0.2, 0.2);
    double a = test_uniform(r, 0.05, 0.4), b = test_uniform(r, 0.05, 0.4),
           c = test_uniform(r, 0.05, 0.4); /* box half sizes */
    double D[9] = {0}, R[9];
    D[0] = mp->mass * (b * b + c * c) / 3.0;
    D[4] = mp->mass * (a * a + c * c) / 3.0;
    D[8] = mp->mass * (a * a + b * b) / 3.0;
    random_rotation(r, R);
    mcd_m3_rotate_sym(mp->inertia, R, D);
}

mcd_model *test_random_tree(test_rng *r, int n, int flags)
{
    mcd_builder *b = NULL;
    mcd_error err = {0};
    if (mcd_builder_create(&b) != MCD_OK) return NULL;
    for (int i = 0; i < n; i++) {
        mcd_link_desc d = mcd_link_desc_default();
        char name[32], jname[32];
        snprintf(name, sizeof name, "link%d", i);
        snprintf(jname, sizeof jname, "joint%d", i);
        d.name = name;
        d.joint_name = jname;
        d.parent = i == 0 ? -1 : (flags & TEST_TREE_BRANCHING) ? (int)test_uniform(r, 0, i) : i - 1;
        int choices[4], nc = 0;
        if (flags & TEST_TREE_REVOLUTE) choices[nc++] = MCD_JOINT_REVOLUTE;
        if (flags & TEST_TREE_PRISMATIC) choices[nc++] = MCD_JOINT_PRISMATIC;
        if (flags & TEST_TREE_SPHERICAL) choices[nc++] = MCD_JOINT_SPHERICAL;
        if (nc == 0) choices[nc++] = MCD_JOINT_REVOLUTE;
        d.jtype = (mcd_joint_type)choices[(int)test_uniform(r, 0, nc)];
        if ((flags & TEST_TREE_FIXED) && i > 0 && i < n - 1 && test_uniform(r, 0, 1) < 0.2)
            d.jtype = MCD_JOINT_FIXED;
        if (i == 0 && (flags & TEST_TREE_FREE_BASE)) d.jtype = MCD_JOINT_FREE;
        random_rotation(r, d.origin.R);
        for (int k = 0; k < 3; k++) d.origin.p[k] = test_uniform(r, -0.5, 0.5);
        random_unit(r, d.axis);
        random_mass(r, &d.mass);
        if (mcd_builder_add_link(b, &d, NULL, &err) != MCD_OK) {
            fprintf(stderr, "random tree: %s\n", err.msg);
            mcd_builder_free(b);
            return NULL;
        }
    }
    mcd_model *m = NULL;
    if (mcd_model_build(b, &m, &err) != MCD_OK) fprintf(stderr, "random tree: %s\n", err.msg);
    mcd_builder_free(b);
    return m;
}

mcd_model *test_revolute_chain(int n)
{
    mcd_builder *b = NULL;
    mcd_error err = {0};
    if (mcd_builder_create(&b) != MCD_OK) return NULL;
    for (int i = 0; i < n; i++) {
        mcd_link_desc d = mcd_link_desc_default();
        char name[32];
        snprintf(name, sizeof name, "link%d", i);
        d.name = name;
        d.parent = i - 1;
        d.jtype = MCD_JOINT_REVOLUTE;
        if (i > 0) d.origin.p[2] = -0.5;
        mcd_v3_set(d.axis, i % 2 == 0, i % 2 == 1, 0);
        d.mass.mass = 1.0;
        mcd_v3_set(d.mass.com, 0, 0, -0.25);
        d.mass.inertia[0] = d.mass.inertia[4] = 0.021;
        d.mass.inertia[8] = 0.002;
        if (mcd_builder_add_link(b, &d, NULL, &err) != MCD_OK) {
            mcd_builder_free(b);
            return NULL;
        }
    }
    mcd_model *m = NULL;
    mcd_model_build(b, &m, &err);
    mcd_builder_free(b);
    return m;
}

void test_random_q(test_rng *r, const mcd_model *m, double *q)
{
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        double *qi = q + B->qadr;
        if (B->jtype == MCD_JOINT_SPHERICAL || B->jtype == MCD_JOINT_FREE) {
            double *quat = qi + (B->jtype == MCD_JOINT_FREE ? 3 : 0);
            for (int i = 0; i < 4; i++) quat[i] = test_uniform(r, -1, 1);
            mcd_quat_normalize(quat);
            if (B->jtype == MCD_JOINT_FREE)
                for (int i = 0; i < 3; i++) qi[i] = test_uniform(r, -1, 1);
        } else {
            qi[0] = test_uniform(r, -M_PI, M_PI);
        }
    }
}

void test_random_vec(test_rng *r, double *v, int n, double scale)
{
    for (int i = 0; i < n; i++) v[i] = test_uniform(r, -scale, scale);
}

double test_rel_err(const double *a, const double *b, int n)
{
    double num = 0.0, den = 1.0;
    for (int i = 0; i < n; i++) {
        num = fmax(num, fabs(a[i] - b[i]));
        den = fmax(den, fabs(b[i]));
    }
    return num / den;
}

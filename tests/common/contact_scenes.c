/* The contact scenes of contact_scenes.h. */
#include "contact_scenes.h"

#include <check.h>

mcd_model *scene_free_body(const char *name, double mass, const double inertia[3], const double *g)
{
    mcd_builder *b = NULL;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    if (g) ck_assert_int_eq(mcd_builder_set_gravity(b, g, NULL), MCD_OK);
    mcd_link_desc l = mcd_link_desc_default();
    l.name = name;
    l.jtype = MCD_JOINT_FREE;
    l.mass.mass = mass;
    l.mass.inertia[0] = inertia[0], l.mass.inertia[4] = inertia[1], l.mass.inertia[8] = inertia[2];
    ck_assert_int_eq(mcd_builder_add_link(b, &l, NULL, NULL), MCD_OK);
    mcd_model *m = NULL;
    ck_assert_int_eq(mcd_model_build(b, &m, NULL), MCD_OK);
    mcd_builder_free(b);
    return m;
}

mcd_model *scene_ball_model(void)
{
    const double inertia[3] = {0.4, 0.4, 0.4}; /* 2/5 m r^2 */
    return scene_free_body("ball", 1.0, inertia, NULL);
}

mcd_status scene_ball_plane(void *user, const mcd_model *m, const mcd_data *d, const double *q,
                            mcd_contact_point *c, int capacity, int *n, mcd_error *err)
{
    (void)user, (void)m, (void)d, (void)err;
    *n = 0;
    double gap = q[2] - 1.0;
    if (gap > 0.01) return MCD_OK;
    if (capacity < 1) return MCD_ERR_CAPACITY;
    mcd_contact_point p = {0, -1, {q[0], q[1], 0.5 * gap}, {0, 0, 1}, gap, SCENE_BALL_MU, 0.0, 0.0};
    c[0] = p;
    *n = 1;
    return MCD_OK;
}

mcd_model *scene_box_model(void)
{
    const double I = 4 * SCENE_BOX_HALF * SCENE_BOX_HALF / 6.0; /* m (2 HALF)^2 / 6 */
    const double inertia[3] = {I, I, I};
    return scene_free_body("box", 1.0, inertia, NULL);
}

mcd_status scene_box_plane(void *user, const mcd_model *m, const mcd_data *d, const double *q,
                           mcd_contact_point *c, int capacity, int *n, mcd_error *err)
{
    (void)user, (void)m, (void)d, (void)err;
    double R[9];
    mcd_quat_to_m3(R, q + 3);
    *n = 0;
    for (int k = 0; k < 4; k++) {
        const double h = SCENE_BOX_HALF;
        const double corner[3] = {(k & 1) ? h : -h, (k & 2) ? h : -h, -h};
        double p[3];
        mcd_m3_mul_v(p, R, corner);
        mcd_v3_add(p, p, q);
        if (p[2] > 0.01) continue;
        if (*n >= capacity) return MCD_ERR_CAPACITY;
        mcd_contact_point cp = {0, -1, {p[0], p[1], 0.5 * p[2]}, {0, 0, 1}, p[2], 0.5, 0.3, 0.0};
        c[(*n)++] = cp;
    }
    return MCD_OK;
}

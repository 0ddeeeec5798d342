/* Test support for the collision tests (collision_fixture.h). */
#include "collision_fixture.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scene_begin(scene *s)
{
    memset(s, 0, sizeof *s);
    ck_assert_int_eq(mcd_builder_create(&s->b), MCD_OK);
}

int scene_link(scene *s, const char *name, int parent, mcd_joint_type jtype, const mcd_pose *origin,
               const double axis[3])
{
    mcd_link_desc d = mcd_link_desc_default();
    d.name = name;
    d.parent = parent;
    d.jtype = jtype;
    if (origin) d.origin = *origin;
    if (axis) mcd_v3_copy(d.axis, axis);
    d.mass.mass = 1.0;
    d.mass.inertia[0] = d.mass.inertia[4] = d.mass.inertia[8] = 0.01;
    int index = -1;
    mcd_error err = {0};
    ck_assert_msg(mcd_builder_add_link(s->b, &d, &index, &err) == MCD_OK, "%s", err.msg);
    return index;
}

int scene_free_body(scene *s, const char *name)
{
    return scene_link(s, name, -1, MCD_JOINT_FREE, NULL, NULL);
}

void scene_geom(scene *s, int link, mcd_geom_type type, double s0, double s1, double s2,
                const mcd_pose *pose, const char *mesh)
{
    mcd_geom g;
    memset(&g, 0, sizeof g);
    g.type = type;
    if (pose)
        g.pose = *pose;
    else
        mcd_pose_identity(&g.pose);
    mcd_v3_set(g.size, s0, s1, s2);
    g.mesh_path = (char *)mesh;
    mcd_error err = {0};
    ck_assert_msg(mcd_builder_add_geom(s->b, link, &g, &err) == MCD_OK, "%s", err.msg);
}

mcd_status scene_finish(scene *s, const mcd_collision_options *opt, mcd_error *err)
{
    ck_assert_msg(mcd_model_build(s->b, &s->m, err) == MCD_OK, "%s", err->msg);
    ck_assert_msg(mcd_data_create(s->m, &s->d, err) == MCD_OK, "%s", err->msg);
    return mcd_collision_world_create(s->m, opt, &s->w, err);
}

void scene_place(scene *s, const char *body, double x, double y, double z, const double R[9])
{
    int k = mcd_model_body_index(s->m, body);
    ck_assert_int_ge(k, 0);
    ck_assert_int_eq(s->m->body[k].jtype, MCD_JOINT_FREE);
    double *q = s->d->q + s->m->body[k].qadr;
    q[0] = x, q[1] = y, q[2] = z;
    double I[9];
    mcd_m3_identity(I);
    mcd_quat_from_m3(q + 3, R ? R : I);
}

mcd_status scene_detect(scene *s, mcd_error *err)
{
    ck_assert_int_eq(mcd_forward_kinematics(s->m, s->d, s->d->q), MCD_OK);
    return mcd_collision_detect(s->w, s->m, s->d, s->c, SCENE_CAPACITY, &s->n, err);
}

void scene_free(scene *s)
{
    mcd_collision_world_free(s->w);
    mcd_data_free(s->d);
    mcd_model_free(s->m);
    mcd_builder_free(s->b);
    memset(s, 0, sizeof *s);
}

/* The largest gap point i may have: a closed form's delta, or against a
 * plane its pair's deepest gap + flat_tolerance; a pair Bullet answers:
 * max(delta, bullet_activation_distance) (collision.h). Checks that the
 * point's closed_form says which of the two found it. */
static double gap_limit(const scene *s, const mcd_collision_options *o, int i)
{
    const mcd_contact *c = &s->c[i];
    const mcd_geom_type ta = s->m->geom[c->geom_a].type, tb = s->m->geom[c->geom_b].type;
    int plane = ta == MCD_GEOM_PLANE || tb == MCD_GEOM_PLANE;
    int mesh = ta == MCD_GEOM_MESH || tb == MCD_GEOM_MESH;
    int spheres = ta == MCD_GEOM_SPHERE && tb == MCD_GEOM_SPHERE;
    int closed_form = o->analytic && ((plane && !mesh) || spheres);
    ck_assert_msg(c->closed_form == closed_form, "contact %d: closed_form %d, expected %d", i,
                  c->closed_form, closed_form);
    if (!closed_form) return fmax(o->activation_distance, o->bullet_activation_distance);
    if (spheres) return o->activation_distance;
    double deepest = INFINITY;
    for (int k = 0; k < s->n; k++)
        if (s->c[k].geom_a == c->geom_a && s->c[k].geom_b == c->geom_b)
            deepest = fmin(deepest, s->c[k].gap);
    ck_assert_msg(deepest <= o->activation_distance, "contact %d: pair beyond delta", i);
    return fmax(o->activation_distance, deepest + o->flat_tolerance);
}

void scene_check_invariants(const scene *s, const mcd_collision_options *opt)
{
    mcd_collision_options o = opt ? *opt : mcd_collision_options_default();
    for (int i = 0; i < s->n; i++) {
        const mcd_contact *c = &s->c[i];
        double d[3], mid[3];
        ck_assert_msg(fabs(mcd_v3_norm(c->normal) - 1) < 1e-12, "contact %d: normal not unit", i);
        mcd_v3_sub(d, c->point_a, c->point_b);
        ck_assert_msg(fabs(mcd_v3_dot(d, c->normal) - c->gap) < 1e-12,
                      "contact %d: gap %.17g != (pa - pb).n %.17g", i, c->gap,
                      mcd_v3_dot(d, c->normal));
        mcd_v3_add(mid, c->point_a, c->point_b);
        mcd_v3_scale(mid, mid, 0.5);
        mcd_v3_sub(d, mid, c->pos);
        ck_assert_msg(mcd_v3_norm(d) < 1e-12, "contact %d: pos is not the midpoint", i);
        ck_assert_msg(c->body_a > c->body_b, "contact %d: body_a %d <= body_b %d", i, c->body_a,
                      c->body_b);
        ck_assert_int_eq(c->body_a, s->m->geom[c->geom_a].body);
        ck_assert_int_eq(c->body_b, s->m->geom[c->geom_b].body);
        ck_assert_msg(c->gap <= gap_limit(s, &o, i), "contact %d: gap %g beyond delta %g", i,
                      c->gap, o.activation_distance);
        if (i > 0) { /* pairs ordered by (lower geom, higher geom) */
            const mcd_contact *p = &s->c[i - 1];
            int plo = p->geom_a < p->geom_b ? p->geom_a : p->geom_b;
            int phi = p->geom_a ^ p->geom_b ^ plo;
            int lo = c->geom_a < c->geom_b ? c->geom_a : c->geom_b, hi = c->geom_a ^ c->geom_b ^ lo;
            ck_assert_msg(plo < lo || (plo == lo && phi <= hi), "contact %d out of order", i);
        }
        for (int j = 0; j < i; j++) {
            const mcd_contact *e = &s->c[j];
            if (e->geom_a != c->geom_a || e->geom_b != c->geom_b) continue;
            mcd_v3_sub(d, e->pos, c->pos);
            ck_assert_msg(mcd_v3_norm(d) > o.merge_distance, "contacts %d and %d not merged", j, i);
        }
    }
}

void rot_rpy(double R[9], double roll, double pitch, double yaw)
{
    mcd_m3_rpy(R, roll, pitch, yaw);
}

mcd_pose pose_rpy(double roll, double pitch, double yaw, double x, double y, double z)
{
    mcd_pose X;
    mcd_m3_rpy(X.R, roll, pitch, yaw);
    mcd_v3_set(X.p, x, y, z);
    return X;
}

const char *data_path(const char *name)
{
    static char buf[4096];
    const char *src = getenv("MCDYN_SOURCE");
    snprintf(buf, sizeof buf, "%s/tests/collision/data/%s", src ? src : ".", name);
    return buf;
}

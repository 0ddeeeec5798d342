/* Which pairs collide: self-collision between non-adjacent bodies of a
 * chain, never between adjacent ones, exclusions, the world rules. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "collision_fixture.h"

/* A chain base -> l1 -> l2 -> l3 of revolute joints about x, links 1 m
 * long along +y, each carrying a box around its segment a little longer
 * than the link (adjacent boxes overlap at every joint), base fixed to the
 * world by a revolute joint, and a ground plane 2 m below. */
static void chain(scene *s, const mcd_collision_options *o)
{
    mcd_error err = {0};
    scene_begin(s);
    double x[3] = {1, 0, 0};
    mcd_pose step = pose_rpy(0, 0, 0, 0, 1, 0), box = pose_rpy(0, 0, 0, 0, 0.5, 0);
    int l = scene_link(s, "base", -1, MCD_JOINT_REVOLUTE, NULL, x);
    scene_geom(s, l, MCD_GEOM_BOX, 0.1, 0.6, 0.1, &box, NULL);
    const char *names[3] = {"l1", "l2", "l3"};
    for (int k = 0; k < 3; k++) {
        l = scene_link(s, names[k], l, MCD_JOINT_REVOLUTE, &step, x);
        scene_geom(s, l, MCD_GEOM_BOX, 0.1, 0.6, 0.1, &box, NULL);
    }
    mcd_pose ground = pose_rpy(0, 0, 0, 0, 0, -2);
    scene_geom(s, -1, MCD_GEOM_PLANE, 0, 0, 0, &ground, NULL);
    ck_assert_msg(scene_finish(s, o, &err) == MCD_OK, "%s", err.msg);
}

static int touches(const scene *s, int b0, int b1)
{
    for (int i = 0; i < s->n; i++)
        if ((s->c[i].body_a == b0 && s->c[i].body_b == b1) ||
            (s->c[i].body_a == b1 && s->c[i].body_b == b0))
            return 1;
    return 0;
}

/* Folds the chain so that l2 comes back over the base (joint angles
 * 0, pi - eps, pi - eps ...) */
static void fold(scene *s, double a1, double a2, double a3)
{
    s->d->q[0] = 0;
    s->d->q[1] = a1;
    s->d->q[2] = a2;
    s->d->q[3] = a3;
}

START_TEST(adjacent_never_collide)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    chain(&s, &o);
    fold(&s, 0, 0, 0); /* straight: every joint's boxes overlap by 0.2 m */
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 0);
    for (int g = 0; g < 3; g++) ck_assert(!mcd_collision_pair_enabled(s.w, g, g + 1));
    ck_assert(mcd_collision_pair_enabled(s.w, 0, 2));
    ck_assert(mcd_collision_pair_enabled(s.w, 1, 3));
    ck_assert(!mcd_collision_pair_enabled(s.w, 0, 0));
    scene_free(&s);
}
END_TEST

START_TEST(non_adjacent_collide)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    chain(&s, &o);
    /* l1 folds back over the base, l2 folds back again: l2 lies on top of
     * base's segment region shifted by 0.2 m in z? No: fold in the y-z plane
     * by 170 degrees so l2's box overlaps base's box */
    fold(&s, M_PI - 0.05, M_PI - 0.05, 0);
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_msg(touches(&s, 0, 2), "base and l2 should touch (%d points)", s.n);
    ck_assert(!touches(&s, 0, 1) && !touches(&s, 1, 2) && !touches(&s, 2, 3));
    scene_check_invariants(&s, &o);
    for (int i = 0; i < s.n; i++) ck_assert_int_ge(s.c[i].body_b, 0);
    scene_free(&s);

    o.self_collision = 0;
    chain(&s, &o);
    fold(&s, M_PI - 0.05, M_PI - 0.05, 0);
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_eq(s.n, 0);
    scene_free(&s);

    o.self_collision = 1;
    const int ex[2] = {2, 0};
    o.exclude = ex;
    o.nexclude = 1;
    chain(&s, &o);
    fold(&s, M_PI - 0.05, M_PI - 0.05, 0);
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert(!touches(&s, 0, 2));
    scene_free(&s);
}
END_TEST

START_TEST(world_collides_with_root_unless_filtered)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    chain(&s, &o);
    /* the chain hanging down reaches the ground plane 2 m below: l1's box
     * reaches -1.1 - ... (base points down from its joint) */
    s.d->q[0] = -M_PI / 2; /* base along -z: its box spans z in [-1.1, 0.1] */
    s.d->q[1] = 0;
    s.d->q[2] = 0;
    s.d->q[3] = 0;
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert(touches(&s, 1, -1)); /* l1 reaches z = -2.1: into the ground */
    for (int i = 0; i < s.n; i++)
        if (s.c[i].body_b == -1) ck_assert_int_eq(s.c[i].geom_b, 4);
    ck_assert(mcd_collision_pair_enabled(s.w, 0, 4)); /* root vs world: tested */
    scene_free(&s);
    const int ex[2] = {-1, 1}; /* the world and l1 */
    o.exclude = ex;
    o.nexclude = 1;
    chain(&s, &o);
    ck_assert(!mcd_collision_pair_enabled(s.w, 1, 4));
    ck_assert(mcd_collision_pair_enabled(s.w, 2, 4));
    scene_free(&s);
    o.exclude = NULL;
    o.nexclude = 0;
    o.filter_world_children = 1;
    chain(&s, &o);
    ck_assert(!mcd_collision_pair_enabled(s.w, 0, 4));
    ck_assert(mcd_collision_pair_enabled(s.w, 1, 4));
    scene_free(&s);
    /* a free-floating root is never adjacent to the world */
    scene_begin(&s);
    int b = scene_free_body(&s, "b");
    scene_geom(&s, b, MCD_GEOM_SPHERE, 0.1, 0, 0, NULL, NULL);
    scene_geom(&s, -1, MCD_GEOM_PLANE, 0, 0, 0, NULL, NULL);
    scene_geom(&s, -1, MCD_GEOM_BOX, 1, 1, 1, NULL, NULL);
    ck_assert_msg(scene_finish(&s, &o, &err) == MCD_OK, "%s", err.msg);
    ck_assert(mcd_collision_pair_enabled(s.w, 0, 1));
    ck_assert(!mcd_collision_pair_enabled(s.w, 1, 2)); /* world-world */
    scene_free(&s);
}
END_TEST

START_TEST(fixed_links_merge_into_one_body)
{
    /* a link fixed to its parent is the same body: their geoms never
     * collide; a link fixed to the world holds world geoms */
    scene s;
    mcd_error err = {0};
    scene_begin(&s);
    int base = scene_link(&s, "base", -1, MCD_JOINT_FIXED, NULL, NULL);
    int arm = scene_link(&s, "arm", base, MCD_JOINT_REVOLUTE, NULL, NULL);
    int hand = scene_link(&s, "hand", arm, MCD_JOINT_FIXED, NULL, NULL);
    scene_geom(&s, base, MCD_GEOM_BOX, 1, 1, 1, NULL, NULL);
    scene_geom(&s, arm, MCD_GEOM_BOX, 0.5, 0.5, 0.5, NULL, NULL);
    scene_geom(&s, hand, MCD_GEOM_SPHERE, 0.3, 0, 0, NULL, NULL);
    ck_assert_msg(scene_finish(&s, NULL, &err) == MCD_OK, "%s", err.msg);
    ck_assert_int_eq(s.m->geom[0].body, -1);
    ck_assert(!mcd_collision_pair_enabled(s.w, 1, 2)); /* same body after merging */
    ck_assert(mcd_collision_pair_enabled(s.w, 0, 1));  /* world vs root: tested */
    ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
    ck_assert_int_gt(s.n, 0); /* arm and hand inside the base */
    for (int i = 0; i < s.n; i++) {
        ck_assert_int_eq(s.c[i].body_b, -1);
        ck_assert_int_eq(s.c[i].body_a, 0);
    }
    scene_check_invariants(&s, NULL);
    scene_free(&s);
}
END_TEST

/* Robots: the links below one link joined to the world. A fixed-base
 * robot with two arms on a torso fixed to the world (geoms 0-2; the torso's
 * geom is a world geom of that robot), a free box (3) and a two-link free
 * robot (4, 5). Without self_collision the arms and the torso of one robot
 * never collide, but every geom collides with the geoms of the other
 * robots; with it, the non-adjacent links of one robot collide too. */
START_TEST(different_robots_always_collide)
{
    mcd_error err = {0};
    for (int self = 0; self < 2; self++) {
        scene s;
        mcd_collision_options o = mcd_collision_options_default();
        o.self_collision = self;
        scene_begin(&s);
        int torso = scene_link(&s, "torso", -1, MCD_JOINT_FIXED, NULL, NULL);
        int left = scene_link(&s, "left", torso, MCD_JOINT_REVOLUTE, NULL, NULL);
        int right = scene_link(&s, "right", torso, MCD_JOINT_REVOLUTE, NULL, NULL);
        int box = scene_free_body(&s, "box");
        int r0 = scene_free_body(&s, "r0");
        int r1 = scene_link(&s, "r1", r0, MCD_JOINT_REVOLUTE, NULL, NULL);
        scene_geom(&s, torso, MCD_GEOM_BOX, 1, 1, 1, NULL, NULL);
        scene_geom(&s, left, MCD_GEOM_SPHERE, 0.1, 0, 0, NULL, NULL);
        scene_geom(&s, right, MCD_GEOM_SPHERE, 0.1, 0, 0, NULL, NULL);
        scene_geom(&s, box, MCD_GEOM_BOX, 0.1, 0.1, 0.1, NULL, NULL);
        scene_geom(&s, r0, MCD_GEOM_SPHERE, 0.1, 0, 0, NULL, NULL);
        scene_geom(&s, r1, MCD_GEOM_SPHERE, 0.1, 0, 0, NULL, NULL);
        ck_assert_msg(scene_finish(&s, &o, &err) == MCD_OK, "%s", err.msg);
        ck_assert_int_eq(s.m->nrobot, 3);
        ck_assert_int_eq(s.m->body[0].robot, s.m->body[1].robot);      /* left, right */
        ck_assert_int_ne(s.m->body[0].robot, s.m->body[2].robot);      /* left, box */
        ck_assert_int_eq(s.m->body[3].robot, s.m->body[4].robot);      /* r0, r1 */
        ck_assert_int_eq(s.m->geom[0].robot, s.m->body[0].robot);      /* torso: on the world */
        ck_assert_int_eq(mcd_collision_pair_enabled(s.w, 1, 2), self); /* left-right */
        ck_assert_int_eq(mcd_collision_pair_enabled(s.w, 0, 1), self); /* torso-left */
        ck_assert(mcd_collision_pair_enabled(s.w, 0, 3));              /* torso-box */
        ck_assert(!mcd_collision_pair_enabled(s.w, 4, 5));             /* adjacent */
        for (int a = 1; a <= 2; a++)
            for (int b = 3; b <= 5; b++) ck_assert(mcd_collision_pair_enabled(s.w, a, b));
        ck_assert(mcd_collision_pair_enabled(s.w, 3, 4) && mcd_collision_pair_enabled(s.w, 3, 5));
        /* the spheres of the arms, the box and the free robot all at the
         * origin: every enabled pair touches */
        ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
        int seen[6][6] = {{0}};
        for (int i = 0; i < s.n; i++) seen[s.c[i].geom_a][s.c[i].geom_b] = 1;
        ck_assert(seen[3][1] && seen[3][2] && seen[5][3] && seen[4][1]);
        ck_assert_int_eq(seen[2][1], self);
        scene_check_invariants(&s, &o);
        scene_free(&s);
    }
}
END_TEST

int main(void)
{
    Suite *su = suite_create("collision-filter");
    TCase *tc = tcase_create("filter");
    tcase_add_test(tc, adjacent_never_collide);
    tcase_add_test(tc, non_adjacent_collide);
    tcase_add_test(tc, world_collides_with_root_unless_filtered);
    tcase_add_test(tc, fixed_links_merge_into_one_body);
    tcase_add_test(tc, different_robots_always_collide);
    suite_add_tcase(su, tc);
    return run_suite(su);
}

/* What Bullet allocates during detection: the heap blocks it takes through
 * its allocator hook while a scene of every shape type moves in and out of
 * contact for many steps. The C side allocates nothing by construction;
 * this measures Bullet's internal pools and arrays. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "collision/bullet_shim.h"
#include "collision_fixture.h"

#define NBODY 6

static void build(scene *s, const mcd_collision_options *o)
{
    mcd_error err = {0};
    scene_begin(s);
    scene_geom(s, -1, MCD_GEOM_PLANE, 0, 0, 0, NULL, NULL);
    mcd_pose wall = pose_rpy(0, 0, 0, 0, 0, 0.5);
    scene_geom(s, -1, MCD_GEOM_BOX, 0.3, 0.3, 0.3, &wall, NULL);
    const char *names[NBODY] = {"b0", "b1", "b2", "b3", "b4", "b5"};
    const mcd_geom_type types[NBODY] = {MCD_GEOM_BOX,      MCD_GEOM_SPHERE, MCD_GEOM_CAPSULE,
                                        MCD_GEOM_CYLINDER, MCD_GEOM_MESH,   MCD_GEOM_BOX};
    for (int k = 0; k < NBODY; k++) {
        int b = scene_free_body(s, names[k]);
        double sz = types[k] == MCD_GEOM_MESH ? 0.3 : 0.15;
        scene_geom(s, b, types[k], sz, sz, sz, NULL,
                   types[k] == MCD_GEOM_MESH ? data_path("cube.obj") : NULL);
    }
    ck_assert_msg(scene_finish(s, o, &err) == MCD_OK, "%s", err.msg);
}

/* Bodies on circles of different speeds around the world box, bobbing
 * through the plane and through each other. */
static void move(scene *s, int step)
{
    const char *names[NBODY] = {"b0", "b1", "b2", "b3", "b4", "b5"};
    for (int k = 0; k < NBODY; k++) {
        double t = 0.01 * step * (1 + 0.3 * k) + k, R[9];
        rot_rpy(R, sin(t), 0.7 * t, 0.3 * t);
        scene_place(s, names[k], 0.6 * cos(t), 0.6 * sin(t), 0.3 + 0.35 * sin(2.3 * t), R);
    }
}

START_TEST(no_allocation_in_steady_state)
{
    scene s;
    mcd_error err = {0};
    mcd_collision_options o = mcd_collision_options_default();
    o.activation_distance = 0.01;
    build(&s, &o);
    long total = 0, first = 0, points = 0;
    for (int round = 0; round < 3; round++) {
        mcd_bt_alloc_count_begin();
        for (int step = 0; step < 2000; step++) {
            move(&s, step);
            ck_assert_int_eq(scene_detect(&s, &err), MCD_OK);
            points += s.n;
        }
        long n = mcd_bt_alloc_count_end();
        if (round == 0) first = n;
        total += n;
        printf("round %d: %ld Bullet heap blocks in 2000 detections\n", round, n);
    }
    printf("%ld contact points in all\n", points);
    ck_assert_int_gt(points, 1000);
    /* the same trajectory again: nothing new to grow */
    ck_assert_msg(total - first == 0, "Bullet allocated %ld blocks after the first round",
                  total - first);
    scene_free(&s);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("collision-alloc");
    TCase *tc = tcase_create("alloc");
    tcase_add_test(tc, no_allocation_in_steady_state);
    suite_add_tcase(su, tc);
    return run_suite_fork(su, CK_NOFORK);
}

/* Not a test: the measurement of docs/collision.md, "Performance". The a1
 * (a URDF path, floating base) standing on a plane at its standing pose
 * (thighs 0.9 rad, calves -1.8 rad, feet 0.1 mm into the floor), with the
 * scenario runner's collision options (self_collision as given, default 0;
 * activation distance 1e-9 m). 1000 warm-up detections, then either N
 * detections for callgrind or 20 timed rounds of 20000, best round
 * printed.
 *   a1_collision_bench A1_URDF [SELF_COLLISION [N]]
 *   valgrind --tool=callgrind --toggle-collect=mcd_collision_detect \
 *       a1_collision_bench A1_URDF 0 1000 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcdyn/mcdyn.h"
#include "base/clock.h"

/* The a1 with a plane on the world; NULL on failure (message printed). */
static mcd_model *load(const char *urdf)
{
    mcd_error err = {0};
    mcd_builder *b = NULL;
    mcd_model *m = NULL;
    mcd_urdf_options uo = mcd_urdf_default_options();
    uo.floating_base = 1;
    mcd_pose base;
    mcd_pose_identity(&base);
    mcd_geom g;
    memset(&g, 0, sizeof g);
    g.type = MCD_GEOM_PLANE;
    g.body = -1;
    mcd_pose_identity(&g.pose);
    mcd_status s = mcd_builder_create(&b);
    if (s == MCD_OK) s = mcd_urdf_load_into(b, urdf, &uo, "", &base, NULL, &err);
    if (s == MCD_OK) s = mcd_builder_add_geom(b, -1, &g, &err);
    if (s == MCD_OK) s = mcd_model_build(b, &m, &err);
    mcd_builder_free(b);
    if (s != MCD_OK) fprintf(stderr, "%s\n", err.msg);
    return m;
}

/* The standing pose, the base lowered until the feet are 0.1 mm deep. */
static void stand(const mcd_model *m, mcd_data *d, double *q)
{
    const char *legs[4] = {"FR", "FL", "RR", "RL"};
    mcd_model_neutral(m, q);
    for (int l = 0; l < 4; l++) {
        char n[64];
        snprintf(n, sizeof n, "%s_thigh_joint", legs[l]);
        q[m->body[mcd_model_joint_index(m, n)].qadr] = 0.9;
        snprintf(n, sizeof n, "%s_calf_joint", legs[l]);
        q[m->body[mcd_model_joint_index(m, n)].qadr] = -1.8;
    }
    mcd_forward_kinematics(m, d, q);
    double zmin = 1e9;
    for (int i = 0; i < m->ngeom; i++) {
        if (m->geom[i].type != MCD_GEOM_SPHERE || m->geom[i].body < 0) continue;
        mcd_pose X;
        mcd_pose_mul(&X, &d->bd[m->geom[i].body].X_world, &m->geom[i].pose);
        if (X.p[2] - m->geom[i].size[0] < zmin) zmin = X.p[2] - m->geom[i].size[0];
    }
    q[2] = -zmin - 1e-4;
    mcd_forward_kinematics(m, d, q);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s A1_URDF [SELF_COLLISION [N]]\n", argv[0]);
        return 2;
    }
    mcd_error err = {0};
    mcd_model *m = load(argv[1]);
    mcd_data *d = NULL;
    if (!m || mcd_data_create(m, &d, &err) != MCD_OK) return 1;
    double *q = calloc((size_t)m->nq, sizeof *q);
    stand(m, d, q);
    mcd_collision_options o = mcd_collision_options_default();
    o.self_collision = argc > 2 ? atoi(argv[2]) : 0;
    o.activation_distance = 1e-9;
    mcd_collision_world *w = NULL;
    if (mcd_collision_world_create(m, &o, &w, &err) != MCD_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    mcd_contact c[256];
    int n = 0, rounds = argc > 3 ? 1 : 20, per_round = argc > 3 ? atoi(argv[3]) : 20000;
    for (int k = 0; k < 1000; k++) mcd_collision_detect(w, m, d, c, 256, &n, &err);
    double best = 1e9;
    for (int r = 0; r < rounds; r++) {
        double t0 = mcd_clock_seconds();
        for (int k = 0; k < per_round; k++) mcd_collision_detect(w, m, d, c, 256, &n, &err);
        double t = (mcd_clock_seconds() - t0) / per_round;
        if (t < best) best = t;
    }
    printf("%d geoms, %d contacts, best of %d x %d: %.3f us per detection\n", m->ngeom, n, rounds,
           per_round, best * 1e6);
    mcd_collision_world_free(w);
    free(q);
    mcd_data_free(d);
    mcd_model_free(m);
    return 0;
}

/* Real-world URDF loading end to end on tests/io/data/quadruped: a go1-like
 * quadruped with a zero-mass root welded to the world, package:// collision
 * meshes in STL, COLLADA and OBJ, missing visual meshes and a <mimic>
 * finger; and the shared robot models, which load without a word about
 * their (absent) visual meshes. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check_main.h"
#include "mcdyn/collision.h"
#include "mcdyn/dynamics.h"
#include "urdf_fixture.h"

/* At q = 0 the foot soles are 0.4 m below the base (the URDF's comment). */
#define SOLE_Z (-0.4)

static char package_dir[1024], urdf_path[1024];

static const char *quadruped(void)
{
    snprintf(urdf_path, sizeof urdf_path, "%s",
             source_file("tests/io/data/quadruped/quadruped.urdf"));
    return urdf_path;
}

static const char *packages(void)
{
    snprintf(package_dir, sizeof package_dir, "%s", source_file("tests/io/data/quadruped"));
    return package_dir;
}

static mcd_urdf_options quadruped_options(warnings *w)
{
    static const char *dirs[1];
    dirs[0] = packages();
    mcd_urdf_options opt = fixture_options(0, w);
    opt.package_paths = dirs;
    opt.npackage_paths = 1;
    opt.ignore_mimic = 1;
    return opt;
}

START_TEST(quadruped_loads)
{
    mcd_model *m = NULL;
    mcd_error err;
    /* the mimic finger is an error naming the option */
    ck_assert_int_eq(mcd_urdf_load_file(quadruped(), NULL, &m, &err), MCD_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(err.msg, "<joint name=\"finger_right_joint\">") &&
                      strstr(err.msg, "ignore_mimic"),
                  "%s", err.msg);
    /* with it: one warning (the mimic), none about the visual meshes, the
     * collision meshes found in the package */
    warnings w = {0};
    mcd_urdf_options opt = quadruped_options(&w);
    ck_assert_int_eq(mcd_urdf_load_file(quadruped(), &opt, &m, &err), MCD_OK);
    ck_assert_msg(w.count == 1 && warnings_contain(&w, "<mimic>"), "%d warnings: %s", w.count,
                  w.text[0]);
    ck_assert_int_eq(m->nbody, 14); /* 4 x 3 leg joints, 2 fingers */
    /* base, trunk and gripper are welded to the world: their mass is not
     * in the model (base's zero mass with nonzero inertia is accepted) */
    ck_assert_double_eq_tol(m->total_mass, 4 * (0.7 + 1.0 + 0.2) + 2 * 0.02, 1e-12);
    int nmesh = 0;
    for (int g = 0; g < m->ngeom; g++) {
        if (m->geom[g].type != MCD_GEOM_MESH) continue;
        nmesh++;
        ck_assert_msg(access(m->geom[g].mesh_path, R_OK) == 0, "%s", m->geom[g].mesh_path);
        ck_assert_ptr_nonnull(strstr(m->geom[g].mesh_path, "/quadruped_description/meshes/"));
    }
    ck_assert_int_eq(nmesh, 9);
    mcd_model_free(m);
    /* through ROS_PACKAGE_PATH instead of the options */
    w.count = 0;
    opt.npackage_paths = 0;
    ck_assert_int_eq(setenv("ROS_PACKAGE_PATH", packages(), 1), 0);
    ck_assert_int_eq(mcd_urdf_load_file(quadruped(), &opt, &m, &err), MCD_OK);
    ck_assert_int_eq(unsetenv("ROS_PACKAGE_PATH"), 0);
    ck_assert_int_eq(w.count, 1);
    mcd_model_free(m);
    /* on a free joint the zero-mass root is a body: rejected, named */
    opt.floating_base = 1;
    ck_assert_int_eq(mcd_urdf_load_file(quadruped(), &opt, &m, &err), MCD_ERR_MODEL);
    ck_assert_msg(strstr(err.msg, "<link name=\"base\">") &&
                      strstr(err.msg, "zero mass with non-zero inertia"),
                  "%s", err.msg);
}
END_TEST

/* The quadruped over a ground plane at z = plane_z, at configuration q set
 * by set_q (NULL: q = 0); returns the contacts (self-collision off). */
static int quadruped_contacts(double plane_z, void (*set_q)(const mcd_model *, double *),
                              const char *const *dirs, int ndirs, mcd_contact *c, int cap,
                              mcd_model **out, mcd_error *err)
{
    mcd_builder *b;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    warnings w = {0};
    mcd_urdf_options opt = fixture_options(0, &w);
    opt.package_paths = dirs;
    opt.npackage_paths = ndirs;
    opt.ignore_mimic = 1;
    ck_assert_int_eq(mcd_urdf_load_into(b, quadruped(), &opt, NULL, NULL, NULL, err), MCD_OK);
    mcd_geom ground = {.type = MCD_GEOM_PLANE, .body = -1};
    mcd_pose_identity(&ground.pose);
    ground.pose.p[2] = plane_z;
    ck_assert_int_eq(mcd_builder_add_geom(b, -1, &ground, err), MCD_OK);
    mcd_model *m;
    ck_assert_int_eq(mcd_model_build(b, &m, err), MCD_OK);
    mcd_builder_free(b);
    *out = m;
    mcd_collision_options co = mcd_collision_options_default();
    co.activation_distance = 0.01;
    co.self_collision = 0;
    mcd_collision_world *cw;
    mcd_status s = mcd_collision_world_create(m, &co, &cw, err);
    if (s != MCD_OK) return -1;
    mcd_data *d;
    ck_assert_int_eq(mcd_data_create(m, &d, err), MCD_OK);
    double *q = calloc((size_t)m->nq, sizeof *q);
    if (set_q) set_q(m, q);
    ck_assert_int_eq(mcd_forward_kinematics(m, d, q), MCD_OK);
    int n = 0;
    ck_assert_int_eq(mcd_collision_detect(cw, m, d, c, cap, &n, err), MCD_OK);
    free(q);
    mcd_data_free(d);
    mcd_collision_world_free(cw);
    return n;
}

/* The leg of a body name ("FR_calf" -> 0 .. "RL_calf" -> 3), -1 if none. */
static int leg_of(const char *name)
{
    static const char *const legs[] = {"FR_", "FL_", "RR_", "RL_"};
    for (int k = 0; k < 4; k++)
        if (!strncmp(name, legs[k], 3)) return k;
    return -1;
}

/* At q = 0, 3 mm above the ground: each foot sole (the OBJ calf's bottom
 * face, 3 cm square) touches with its four corners, at 0.015 sqrt 2 from
 * the calf's axis through (+-0.19, +-0.13); nothing else is within 1 cm.
 * Vertices come through Assimp in single precision (1e-8 m here). */
START_TEST(quadruped_feet_on_the_ground)
{
    static const char *dirs[1];
    dirs[0] = packages();
    mcd_contact c[64];
    mcd_model *m;
    mcd_error err;
    int n = quadruped_contacts(SOLE_Z - 0.003, NULL, dirs, 1, c, 64, &m, &err);
    ck_assert_msg(n == 16, "%d contacts: %s", n, err.msg);
    for (int i = 0; i < n; i++) {
        const char *body = m->body_name[c[i].body_a];
        ck_assert_msg(strstr(body, "_calf") != NULL, "%s", body);
        ck_assert_int_eq(c[i].body_b, -1);
        ck_assert_double_eq_tol(c[i].gap, 0.003, 1e-8);
        int k = leg_of(body);
        double ax = k < 2 ? 0.19 : -0.19, ay = k % 2 ? 0.13 : -0.13;
        ck_assert_double_eq_tol(hypot(c[i].point_a[0] - ax, c[i].point_a[1] - ay),
                                0.015 * sqrt(2.0), 1e-7);
        ck_assert_double_eq_tol(c[i].point_a[2], SOLE_Z, 1e-8);
    }
    mcd_model_free(m);
}
END_TEST

static void fold_calves(const mcd_model *m, double *q)
{
    for (int k = 0; k < m->nbody; k++)
        if (strstr(m->joint_name[k], "_calf_joint")) q[m->body[k].qadr] = M_PI;
}

/* Calves folded up along the thighs (calf joints at pi): the lowest points
 * are the knees at z = -0.2; the COLLADA thigh (written in centimetres,
 * 4 cm square section) touches with its four bottom corners at 0.02 sqrt 2
 * from the hip's vertical, which holds only if the file's unit is applied. */
START_TEST(quadruped_thighs_from_collada)
{
    static const char *dirs[1];
    dirs[0] = packages();
    mcd_contact c[96];
    mcd_model *m;
    mcd_error err;
    int n = quadruped_contacts(-0.2 - 0.003, fold_calves, dirs, 1, c, 96, &m, &err);
    ck_assert_msg(n > 0, "%s", err.msg);
    int thigh = 0;
    for (int i = 0; i < n; i++) {
        ck_assert_double_eq_tol(c[i].gap, 0.003, 1e-8);
        const char *body = m->body_name[c[i].body_a];
        if (!strstr(body, "_thigh")) continue;
        thigh++;
        int k = leg_of(body);
        double ax = k < 2 ? 0.19 : -0.19, ay = k % 2 ? 0.13 : -0.13;
        ck_assert_double_eq_tol(hypot(c[i].point_a[0] - ax, c[i].point_a[1] - ay), 0.02 * sqrt(2.0),
                                1e-7);
    }
    ck_assert_int_eq(thigh, 16);
    mcd_model_free(m);
}
END_TEST

/* Without the package: the model loads (warnings), reading the meshes fails
 * naming the file and the link (the trunk's is merged into the world). */
START_TEST(quadruped_without_its_package)
{
    mcd_contact c[8];
    mcd_model *m;
    mcd_error err;
    ck_assert_int_eq(quadruped_contacts(-1, NULL, NULL, 0, c, 8, &m, &err), -1);
    ck_assert_int_eq(err.status, MCD_ERR_IO);
    ck_assert_msg(strstr(err.msg, "link 'world': mesh "
                                  "'package://quadruped_description/meshes/trunk.stl'"),
                  "%s", err.msg);
    mcd_model_free(m);
}
END_TEST

/* The command: query with --package-path prints only the mimic warning. */
START_TEST(query_package_path)
{
    const char *exe = getenv("MCDYN_EXE");
    ck_assert_ptr_nonnull(exe);
    char log[] = "/tmp/mcdyn-quadruped-XXXXXX", cmd[4096];
    int fd = mkstemp(log);
    ck_assert_int_ge(fd, 0);
    close(fd);
    snprintf(cmd, sizeof cmd,
             "'%s' query '%s' --ignore-mimic --package-path '%s' >/dev/null 2>'%s'", exe,
             quadruped(), packages(), log);
    ck_assert_int_eq(system(cmd), 0);
    FILE *f = fopen(log, "r");
    ck_assert_ptr_nonnull(f);
    char line[1024];
    int lines = 0, mimic = 0;
    while (fgets(line, sizeof line, f)) lines++, mimic += strstr(line, "<mimic>") != NULL;
    fclose(f);
    unlink(log);
    ck_assert_int_eq(lines, 1);
    ck_assert_int_eq(mimic, 1);
}
END_TEST

/* The command: sim finds the scenario robot's meshes with --package-path
 * (they are read to make the collision world), and fails without it naming
 * the file. */
START_TEST(sim_package_path)
{
    const char *exe = getenv("MCDYN_EXE");
    ck_assert_ptr_nonnull(exe);
    char dir[] = "/tmp/mcdyn-quadruped-XXXXXX", path[1200], cmd[4096];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/scene.yaml", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f,
            "robots:\n  - {urdf: '%s', position: [0, 0, 0.45], ignore_mimic: true}\n"
            "environment:\n  - {name: floor, type: plane}\nduration: 0.01\n",
            quadruped());
    fclose(f);
    for (int with = 0; with < 2; with++) {
        snprintf(cmd, sizeof cmd,
                 "'%s' sim '%s/scene.yaml' --quiet --out '%s/t.csv' %s%s%s >/dev/null 2>'%s/err'",
                 exe, dir, dir, with ? "--package-path '" : "", with ? packages() : "",
                 with ? "'" : "", dir);
        int rc = system(cmd);
        snprintf(path, sizeof path, "%s/err", dir);
        f = fopen(path, "r");
        ck_assert_ptr_nonnull(f);
        char line[1024] = "";
        if (!fgets(line, sizeof line, f)) line[0] = '\0';
        fclose(f);
        if (with)
            ck_assert_msg(rc == 0, "sim with --package-path: %s", line);
        else
            ck_assert_msg(rc != 0 && strstr(line, "quadruped_description/meshes/trunk.stl"), "%s",
                          line);
    }
    snprintf(cmd, sizeof cmd, "rm -r '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Every shared model loads (floating base, go1 and anymal with
 * balance_inertia, panda with ignore_mimic) with no word about visual
 * meshes; go1 without balance_inertia fails naming it. */
START_TEST(shared_models_no_visual_warnings)
{
    static const char *const files[] = {"example-robot-data/a1.urdf",
                                        "example-robot-data/go1.urdf",
                                        "example-robot-data/anymal_c_simple.urdf",
                                        "example-robot-data/panda_collision.urdf",
                                        "example-robot-data/solo12.urdf",
                                        "example-robot-data/double_pendulum_simple.urdf",
                                        "bullet3/humanoid.urdf"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        for (int floating = 0; floating < 2; floating++) {
            warnings w = {0};
            mcd_urdf_options opt = fixture_options(floating, &w);
            opt.balance_inertia = 1;
            opt.ignore_mimic = 1;
            mcd_model *m = NULL;
            mcd_error err;
            mcd_status s = mcd_urdf_load_file(shared_model(files[i]), &opt, &m, &err);
            ck_assert_msg(s == MCD_OK, "%s: %s", files[i], err.msg);
            ck_assert_msg(!warnings_contain(&w, "visual"), "%s: %s", files[i], w.text[0]);
            mcd_model_free(m);
        }
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.floating_base = 1;
    mcd_model *m = NULL;
    mcd_error err;
    ck_assert_int_eq(
        mcd_urdf_load_file(shared_model("example-robot-data/go1.urdf"), &opt, &m, &err),
        MCD_ERR_MODEL);
    ck_assert_msg(strstr(err.msg, "balance_inertia") && strstr(err.msg, "--balance-inertia"), "%s",
                  err.msg);
    /* fixed base: go1's base is welded to the world and loads as it is */
    opt.floating_base = 0;
    ck_assert_int_eq(
        mcd_urdf_load_file(shared_model("example-robot-data/go1.urdf"), &opt, &m, &err), MCD_OK);
    mcd_model_free(m);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("io-urdf-quadruped");
    TCase *tc = tcase_create("quadruped");
    tcase_add_test(tc, quadruped_loads);
    tcase_add_test(tc, quadruped_feet_on_the_ground);
    tcase_add_test(tc, quadruped_thighs_from_collada);
    tcase_add_test(tc, quadruped_without_its_package);
    tcase_add_test(tc, query_package_path);
    tcase_add_test(tc, sim_package_path);
    tcase_add_test(tc, shared_models_no_visual_warnings);
    suite_add_tcase(su, tc);
    return run_suite(su);
}

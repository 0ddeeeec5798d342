/* Visual meshes drawn as themselves: the triangles of a mesh file
 * (src/collision/mesh_load.h, mcd_mesh_load_triangles), carried by the URDF
 * loader and the builder into mcd_model.visual_mesh.
 *
 * References independent of the loader: the files' own vertex and face
 * lists (a unit cube of quads; the L-shaped plate of models/l_block.urdf,
 * 12 vertices and 20 triangles), and the volume by the divergence theorem,
 * V = 1/6 sum over triangles of x0 . (x1 x x2), which is the solid's exact
 * volume only when the triangles close its surface with outward winding.
 * The L's coordinates are dyadic fractions, exact in Assimp's single
 * precision, so the sum is exact up to double rounding (1e-12 is 10^4 ulp
 * of the terms); the convex hull of the same vertices (0.013671875 m^3,
 * the notch's triangle 0.25 x 0.25 / 2 x 0.0625 added) misses it by
 * 0.001953125. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collision/mesh_load.h"
#include "mcdyn/model.h"
#include "urdf_fixture.h"
#include "common/check_main.h"

#define EXACT 1e-12

/* V = 1/6 sum x0 . (x1 x x2) over the triangles (divergence theorem). */
static double enclosed_volume(const mcd_visual_mesh *M)
{
    double V = 0;
    for (int t = 0; t < M->ntri; t++) {
        const double *a = M->vert + 3 * M->tri[3 * t], *b = M->vert + 3 * M->tri[3 * t + 1],
                     *c = M->vert + 3 * M->tri[3 * t + 2];
        V += a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
             a[2] * (b[0] * c[1] - b[1] * c[0]);
    }
    return V / 6;
}

/* The "v x y z" lines of an OBJ file (at most max) into v; their count. */
static int obj_vertices(const char *path, double *v, int max)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char line[256];
    int n = 0;
    while (fgets(line, sizeof line, f))
        if (line[0] == 'v' && line[1] == ' ' && n < max)
            n += sscanf(line + 2, "%lf %lf %lf", &v[3 * n], &v[3 * n + 1], &v[3 * n + 2]) == 3;
    fclose(f);
    return n;
}

/* Each vertex of M is one of the file's, and each of the file's is in M once. */
static void check_same_vertices(const mcd_visual_mesh *M, const char *obj)
{
    double ref[3 * 64];
    const int n = obj_vertices(obj, ref, 64);
    ck_assert_int_eq(M->nvert, n);
    for (int i = 0; i < n; i++) {
        int matches = 0;
        for (int j = 0; j < M->nvert; j++)
            matches += fabs(M->vert[3 * j] - ref[3 * i]) +
                           fabs(M->vert[3 * j + 1] - ref[3 * i + 1]) +
                           fabs(M->vert[3 * j + 2] - ref[3 * i + 2]) ==
                       0;
        ck_assert_msg(matches == 1, "file vertex %d found %d times", i, matches);
    }
}

static void free_mesh(mcd_visual_mesh *M)
{
    free(M->vert), free(M->tri);
}

/* Six quads, triangulated: 12 triangles on the 8 corners (Assimp repeats a
 * vertex per face corner; joining leaves the 8), enclosing the unit volume. */
START_TEST(unit_cube_triangles)
{
    const char *cube = source_file("tests/collision/data/cube.obj");
    mcd_visual_mesh M;
    mcd_error err;
    ck_assert_int_eq(mcd_mesh_load_triangles(cube, "a", MCD_VISUAL_MESH_MAX, &M, &err), MCD_OK);
    ck_assert_int_eq(M.ntri, 12);
    check_same_vertices(&M, cube);
    ck_assert_double_eq_tol(enclosed_volume(&M), 1.0, EXACT);
    free_mesh(&M);
}
END_TEST

/* The non-convex L: its own 20 triangles on its 12 vertices, enclosing its
 * own volume, not its hull's. */
START_TEST(l_block_keeps_its_notch)
{
    const char *obj = source_file("models/meshes/l_block.obj");
    mcd_visual_mesh M;
    mcd_error err;
    ck_assert_int_eq(mcd_mesh_load_triangles(obj, "l", MCD_VISUAL_MESH_MAX, &M, &err), MCD_OK);
    ck_assert_int_eq(M.ntri, 20);
    check_same_vertices(&M, obj);
    const double volume = 0.1875 * 0.0625, hull = 0.21875 * 0.0625;
    ck_assert_double_eq_tol(enclosed_volume(&M), volume, EXACT);
    ck_assert(fabs(enclosed_volume(&M) - hull) > 0.001);
    free_mesh(&M);
}
END_TEST

/* Writes text to a new file named name in a fresh directory; its path. */
static const char *temp_file(const char *name, const char *text)
{
    static char path[512];
    char dir[] = "/tmp/mcdyn-visual-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void remove_temp(const char *path)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    unlink(path);
    *strrchr(dir, '/') = '\0';
    rmdir(dir);
}

/* Fails with status st and a message holding the link, the path and what. */
static void expect_load_error(const char *path, int max_count, mcd_status st, const char *what)
{
    mcd_visual_mesh M = {7, 7, NULL, NULL};
    mcd_error err;
    ck_assert_int_eq(mcd_mesh_load_triangles(path, "lnk", max_count, &M, &err), st);
    ck_assert_msg(strstr(err.msg, "link 'lnk'") && strstr(err.msg, path) && strstr(err.msg, what),
                  "%s", err.msg);
    ck_assert(M.nvert == 0 && M.ntri == 0 && !M.vert && !M.tri);
}

START_TEST(bad_visual_meshes)
{
    expect_load_error("/nonexistent/part.obj", MCD_VISUAL_MESH_MAX, MCD_ERR_IO, "cannot open");
    expect_load_error(source_file("tests/collision/data/bad.obj"), MCD_VISUAL_MESH_MAX,
                      MCD_ERR_PARSE, "cannot be read");
    /* zero faces: Assimp's validation rejects the file; lines only: no
     * triangle to draw */
    const char *points = temp_file("points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n");
    expect_load_error(points, MCD_VISUAL_MESH_MAX, MCD_ERR_PARSE, "contains no faces");
    remove_temp(points);
    const char *lines = temp_file("lines.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2\nl 2 3\n");
    expect_load_error(lines, MCD_VISUAL_MESH_MAX, MCD_ERR_PARSE, "no triangles");
    remove_temp(lines);
    /* the bound: the cube's 12 triangles over a bound of 11, then 8
     * vertices over 7 (the same check that MCD_VISUAL_MESH_MAX makes) */
    const char *cube = source_file("tests/collision/data/cube.obj");
    expect_load_error(cube, 11, MCD_ERR_MODEL, "more than the bound of 11");
    mcd_visual_mesh M;
    mcd_error err;
    ck_assert_int_eq(mcd_mesh_load_triangles(cube, "a", 12, &M, &err), MCD_OK);
    free_mesh(&M);
    const char *tri = temp_file("tri.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    ck_assert_int_eq(mcd_mesh_load_triangles(tri, "a", 2, &M, &err), MCD_ERR_MODEL);
    ck_assert_int_eq(mcd_mesh_load_triangles(tri, "a", 3, &M, &err), MCD_OK);
    ck_assert_int_eq(M.ntri, 1);
    free_mesh(&M);
    remove_temp(tri);
}
END_TEST

/* The bundled scene's URDF: its visual mesh reaches mcd_model.visual_mesh
 * as the loader reads it; the collision boxes have none. */
START_TEST(urdf_visual_mesh_in_the_model)
{
    mcd_model *m = NULL;
    mcd_error err;
    warnings w = {0};
    mcd_urdf_options opt = fixture_options(1, &w);
    ck_assert_int_eq(mcd_urdf_load_file(source_file("models/l_block.urdf"), &opt, &m, &err),
                     MCD_OK);
    ck_assert_int_eq(w.count, 0);
    ck_assert_int_eq(m->nvisual, 1);
    ck_assert_int_eq(m->visual[0].type, MCD_GEOM_MESH);
    mcd_visual_mesh ref;
    ck_assert_int_eq(
        mcd_mesh_load_triangles(m->visual[0].mesh_path, "l", MCD_VISUAL_MESH_MAX, &ref, &err),
        MCD_OK);
    const mcd_visual_mesh *M = &m->visual_mesh[0];
    ck_assert(M->nvert == ref.nvert && M->ntri == ref.ntri);
    ck_assert(!memcmp(M->vert, ref.vert, 3 * sizeof(double) * (size_t)ref.nvert));
    ck_assert(!memcmp(M->tri, ref.tri, 3 * sizeof(int) * (size_t)ref.ntri));
    ck_assert_double_eq_tol(enclosed_volume(M), 0.1875 * 0.0625, EXACT);
    free_mesh(&ref);
    mcd_model_free(m);
}
END_TEST

/* A visual mesh without triangles (lines only) is left out with a warning
 * naming the file and the reason; the link is drawn by its collision shape. */
START_TEST(urdf_visual_mesh_without_triangles)
{
    const char *points = temp_file("lines.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2\nl 2 3\n");
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<robot name='p'><link name='a'><inertial><mass value='1'/>"
             "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial>"
             "<visual><geometry><mesh filename='%s'/></geometry></visual>"
             "<collision><geometry><sphere radius='0.1'/></geometry></collision></link></robot>",
             points);
    warnings w = {0};
    mcd_urdf_options opt = fixture_options(1, &w);
    mcd_model *m = load_string_ok(xml, &opt);
    ck_assert_msg(w.count == 1 && warnings_contain(&w, "visual left out") &&
                      warnings_contain(&w, "no triangles") && warnings_contain(&w, points),
                  "%d: %s", w.count, w.text[0]);
    ck_assert_int_eq(m->nvisual, 1);
    ck_assert_int_eq(m->visual[0].type, MCD_GEOM_SPHERE);
    ck_assert_int_eq(m->visual_mesh[0].ntri, 0);
    mcd_model_free(m);
    remove_temp(points);
}
END_TEST

/* The builder checks the triangles it is given. */
START_TEST(builder_checks_triangles)
{
    mcd_builder *b;
    ck_assert_int_eq(mcd_builder_create(&b), MCD_OK);
    mcd_geom g = {0};
    g.type = MCD_GEOM_MESH;
    g.mesh_path = "x.obj";
    g.size[0] = g.size[1] = g.size[2] = 1;
    mcd_pose_identity(&g.pose);
    double v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    int t[3] = {0, 1, 3};
    mcd_visual_mesh M = {3, 1, v, t};
    mcd_error err;
    ck_assert_int_eq(mcd_builder_add_visual_mesh(b, -1, &g, &M, &err), MCD_ERR_ARG);
    ck_assert_msg(strstr(err.msg, "names vertex 3 of 3"), "%s", err.msg);
    t[2] = 2, v[4] = NAN;
    ck_assert_int_eq(mcd_builder_add_visual_mesh(b, -1, &g, &M, &err), MCD_ERR_NONFINITE);
    v[4] = 0, g.type = MCD_GEOM_BOX;
    ck_assert_int_eq(mcd_builder_add_visual_mesh(b, -1, &g, &M, &err), MCD_ERR_ARG);
    g.type = MCD_GEOM_MESH;
    ck_assert_int_eq(mcd_builder_add_visual_mesh(b, -1, &g, &M, &err), MCD_OK);
    mcd_model *m;
    ck_assert_int_eq(mcd_model_build(b, &m, &err), MCD_OK);
    mcd_builder_free(b);
    ck_assert_int_eq(m->visual_mesh[0].ntri, 1);
    ck_assert_int_eq(m->visual_mesh[0].tri[2], 2);
    ck_assert_double_eq(m->visual_mesh[0].vert[3], 1.0);
    mcd_model_free(m);
}
END_TEST

static Suite *visual_mesh_suite(void)
{
    Suite *s = suite_create("visual_mesh");
    TCase *tc = tcase_create("visual_mesh");
    tcase_add_test(tc, unit_cube_triangles);
    tcase_add_test(tc, l_block_keeps_its_notch);
    tcase_add_test(tc, bad_visual_meshes);
    tcase_add_test(tc, urdf_visual_mesh_in_the_model);
    tcase_add_test(tc, urdf_visual_mesh_without_triangles);
    tcase_add_test(tc, builder_checks_triangles);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(visual_mesh_suite());
}

/* `mcdyn draw`: a model's picture as projected polylines and marks
 * (tools/draw_scene.h). */
#include "draw_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcdyn/dynamics.h"

#define CIRCLE_SEGMENTS 48
#define MESH_AXIS       0.05 /* length of the frame drawn for a mesh [m] */

static const draw_view views[] = {
    {"xz", {1, 0, 0}, {0, 0, 1}, "x [m]", "z [m]"},
    {"yz", {0, 1, 0}, {0, 0, 1}, "y [m]", "z [m]"},
    {"xy", {1, 0, 0}, {0, 1, 0}, "x [m]", "y [m]"},
    /* seen from (1, -1, 1): right (1, 1, 0) / sqrt 2, up (-1, 1, 2) / sqrt 6 */
    {"iso",
     {0.70710678118654752, 0.70710678118654752, 0},
     {-0.40824829046386302, 0.40824829046386302, 0.81649658092772603},
     "isometric view [m]",
     "[m]"},
};

int draw_view_from_name(const char *name, draw_view *view)
{
    for (size_t i = 0; i < sizeof views / sizeof *views; i++)
        if (!strcmp(name, views[i].name)) {
            *view = views[i];
            return 0;
        }
    return -1;
}

const char *draw_view_names(void)
{
    return "xz, yz, xy, iso";
}

/* The state of one build: the scene, the view, and the 3D bounding box of
 * what was drawn (for planes, which have no size of their own). */
typedef struct builder {
    draw_scene *s;
    const draw_view *view;
    int failed;
    double lo3[3], hi3[3];
} builder;

static void push(builder *b, draw_points *p, double u, double v)
{
    if (b->failed) return;
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 64;
        double *uv = realloc(p->uv, 2 * sizeof(double) * (size_t)cap);
        if (!uv) {
            b->failed = 1;
            return;
        }
        p->uv = uv, p->cap = cap;
    }
    p->uv[2 * p->n] = u, p->uv[2 * p->n + 1] = v;
    p->n++;
    if (isnan(u)) return;
    draw_scene *s = b->s;
    s->lo[0] = fmin(s->lo[0], u), s->hi[0] = fmax(s->hi[0], u);
    s->lo[1] = fmin(s->lo[1], v), s->hi[1] = fmax(s->hi[1], v);
}

/* Adds world point x to polyline layer p (ends nothing). */
static void point3(builder *b, draw_points *p, const double x[3])
{
    for (int k = 0; k < 3; k++)
        b->lo3[k] = fmin(b->lo3[k], x[k]), b->hi3[k] = fmax(b->hi3[k], x[k]);
    push(b, p, mcd_v3_dot(x, b->view->u), mcd_v3_dot(x, b->view->v));
}

static void end_line(builder *b, draw_points *p)
{
    push(b, p, NAN, NAN);
}

static void segment(builder *b, draw_points *p, const double x0[3], const double x1[3])
{
    point3(b, p, x0);
    point3(b, p, x1);
    end_line(b, p);
}

static void mark(builder *b, draw_mark kind, const double x[3])
{
    for (int k = 0; k < 3; k++)
        b->lo3[k] = fmin(b->lo3[k], x[k]), b->hi3[k] = fmax(b->hi3[k], x[k]);
    push(b, &b->s->mark[kind], mcd_v3_dot(x, b->view->u), mcd_v3_dot(x, b->view->v));
}

/* Circle of radius r about centre c in the plane of the unit vectors e1, e2. */
static void circle(builder *b, draw_points *p, const double c[3], const double e1[3],
                   const double e2[3], double r)
{
    for (int i = 0; i <= CIRCLE_SEGMENTS; i++) {
        double t = 2 * M_PI * i / CIRCLE_SEGMENTS, x[3];
        for (int k = 0; k < 3; k++) x[k] = c[k] + r * (cos(t) * e1[k] + sin(t) * e2[k]);
        point3(b, p, x);
    }
    end_line(b, p);
}

/* Column k of the rotation R (the geom's axis k in the world). */
static void axis_of(double a[3], const double R[9], int k)
{
    mcd_v3_set(a, R[k], R[3 + k], R[6 + k]);
}

static void draw_box(builder *b, draw_points *p, const mcd_pose *G, const double half[3])
{
    double corner[8][3];
    for (int c = 0; c < 8; c++) {
        double local[3] = {(c & 1 ? 1 : -1) * half[0], (c & 2 ? 1 : -1) * half[1],
                           (c & 4 ? 1 : -1) * half[2]};
        mcd_pose_apply(corner[c], G, local);
    }
    for (int c = 0; c < 8; c++)
        for (int bit = 1; bit < 8; bit <<= 1)
            if (!(c & bit)) segment(b, p, corner[c], corner[c | bit]);
}

/* Cylinder (capsule: with round ends) of radius r and half length h along
 * the geom's z axis: the two end circles, the two silhouette lines and, for
 * a capsule, the outlines of the end spheres in the view plane. */
static void draw_cylinder(builder *b, draw_points *p, const mcd_pose *G, double r, double h,
                          int capsule)
{
    double ex[3], ey[3], ez[3], n[3], w[3], end[2][3];
    axis_of(ex, G->R, 0), axis_of(ey, G->R, 1), axis_of(ez, G->R, 2);
    for (int e = 0; e < 2; e++) {
        for (int k = 0; k < 3; k++) end[e][k] = G->p[k] + (e ? h : -h) * ez[k];
        circle(b, p, end[e], ex, ey, r);
        if (capsule) circle(b, p, end[e], b->view->u, b->view->v, r);
    }
    mcd_v3_cross(n, b->view->u, b->view->v);
    mcd_v3_cross(w, ez, n);
    double len = mcd_v3_norm(w);
    if (len < 1e-9) return; /* seen along its axis: the circles are the outline */
    mcd_v3_scale(w, w, r / len);
    for (int side = -1; side <= 1; side += 2) {
        double x0[3], x1[3];
        for (int k = 0; k < 3; k++)
            x0[k] = end[0][k] + side * w[k], x1[k] = end[1][k] + side * w[k];
        segment(b, p, x0, x1);
    }
}

static void draw_mesh_frame(builder *b, draw_points *p, const mcd_pose *G)
{
    for (int k = 0; k < 3; k++) {
        double a[3], x[3];
        axis_of(a, G->R, k);
        for (int i = 0; i < 3; i++) x[i] = G->p[i] + MESH_AXIS * a[i];
        segment(b, p, G->p, x);
    }
}

/* The plane z = 0 of G as a square of half size half, centred on the point
 * of the plane nearest to centre. */
static void draw_plane(builder *b, draw_points *p, const mcd_pose *G, const double centre[3],
                       double half)
{
    double ex[3], ey[3], ez[3], d[3], c[3], x[5][3];
    axis_of(ex, G->R, 0), axis_of(ey, G->R, 1), axis_of(ez, G->R, 2);
    mcd_v3_sub(d, centre, G->p);
    double off = mcd_v3_dot(d, ez);
    for (int k = 0; k < 3; k++) c[k] = centre[k] - off * ez[k];
    for (int i = 0; i < 5; i++) {
        double sx = (i == 1 || i == 2) ? 1 : -1, sy = (i >= 2 && i <= 3) ? 1 : -1;
        for (int k = 0; k < 3; k++) x[i][k] = c[k] + half * (sx * ex[k] + sy * ey[k]);
        point3(b, p, x[i]);
    }
    end_line(b, p);
}

/* The world pose of geom g and the layer it is drawn in. */
static draw_points *geom_pose(builder *b, const mcd_model *m, const mcd_data *d, int g, mcd_pose *G)
{
    const mcd_geom *geom = &m->geom[g];
    *G = geom->pose;
    if (geom->body >= 0) mcd_pose_mul(G, &d->bd[geom->body].X_world, &geom->pose);
    return &b->s->line[geom->body < 0 ? DRAW_WORLD_GEOMETRY : DRAW_GEOMETRY];
}

/* Draws geom g, except a plane (drawn last, sized by the rest): returns 0
 * for a plane, 1 otherwise. */
static int draw_geom(builder *b, const mcd_model *m, const mcd_data *d, int g)
{
    const mcd_geom *geom = &m->geom[g];
    mcd_pose G;
    draw_points *p = geom_pose(b, m, d, g, &G);
    switch (geom->type) {
    case MCD_GEOM_SPHERE:
        circle(b, p, G.p, b->view->u, b->view->v, geom->size[0]);
        break;
    case MCD_GEOM_BOX:
        draw_box(b, p, &G, geom->size);
        break;
    case MCD_GEOM_CYLINDER:
        draw_cylinder(b, p, &G, geom->size[0], geom->size[1], 0);
        break;
    case MCD_GEOM_CAPSULE:
        draw_cylinder(b, p, &G, geom->size[0], geom->size[1], 1);
        break;
    case MCD_GEOM_MESH:
        draw_mesh_frame(b, p, &G);
        break;
    case MCD_GEOM_PLANE:
        return 0;
    default:
        break;
    }
    return 1;
}

/* World position of a point given on body k (-1: the world). */
static void world_point(const mcd_data *d, int body, const double local[3], double x[3])
{
    if (body < 0)
        mcd_v3_copy(x, local);
    else
        mcd_pose_apply(x, &d->bd[body].X_world, local);
}

/* The bodies' segments and joints. */
static void draw_bodies(builder *b, const mcd_model *m, const mcd_data *d)
{
    draw_points *p = &b->s->line[DRAW_BODIES];
    for (int k = 0; k < m->nbody; k++) {
        const double *o = d->bd[k].X_world.p;
        int grounded = m->body[k].parent < 0 && m->body[k].jtype != MCD_JOINT_FREE;
        mark(b, grounded ? DRAW_GROUND_JOINT : DRAW_JOINT, o);
        if (m->body[k].parent >= 0) segment(b, p, d->bd[m->body[k].parent].X_world.p, o);
        for (int g = 0; g < m->ngeom; g++) {
            double c[3];
            if (m->geom[g].body != k || m->geom[g].type == MCD_GEOM_PLANE) continue;
            world_point(d, k, m->geom[g].pose.p, c);
            segment(b, p, o, c);
        }
        for (int f = 0; f < m->nframe; f++) {
            double c[3];
            if (m->frame[f].body != k || mcd_v3_norm(m->frame[f].pose.p) == 0) continue;
            world_point(d, k, m->frame[f].pose.p, c);
            segment(b, p, o, c);
        }
    }
}

/* Closure frames: crosses, the gap between them and the segments that tie
 * them to their bodies. */
static void draw_closures(builder *b, const mcd_model *m, const mcd_data *d)
{
    for (int c = 0; c < m->nclosure; c++) {
        const mcd_closure *C = &m->closure[c];
        double xa[3], xb[3];
        world_point(d, C->body_a, C->pose_a.p, xa);
        world_point(d, C->body_b, C->pose_b.p, xb);
        segment(b, &b->s->line[DRAW_BODIES], d->bd[C->body_a].X_world.p, xa);
        if (C->body_b >= 0) segment(b, &b->s->line[DRAW_BODIES], d->bd[C->body_b].X_world.p, xb);
        segment(b, &b->s->line[DRAW_CLOSURE_GAPS], xa, xb);
        mark(b, DRAW_CLOSURE_FRAME, xa);
        mark(b, DRAW_CLOSURE_FRAME, xb);
    }
}

int draw_scene_build(draw_scene *s, const mcd_model *m, mcd_data *d, const double *q,
                     const draw_view *view, char *msg, size_t msglen)
{
    memset(s, 0, sizeof *s);
    s->lo[0] = s->lo[1] = INFINITY;
    s->hi[0] = s->hi[1] = -INFINITY;
    builder b = {s, view, 0, {INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    if (mcd_forward_kinematics(m, d, q) != MCD_OK) {
        snprintf(msg, msglen, "%s", mcd_data_error(d));
        return -1;
    }
    draw_bodies(&b, m, d);
    draw_closures(&b, m, d);
    int planes = 0;
    for (int g = 0; g < m->ngeom; g++) planes += !draw_geom(&b, m, d, g);
    if (planes > 0) {
        double centre[3] = {0, 0, 0}, half = 0.5;
        if (b.lo3[0] <= b.hi3[0])
            for (int k = 0; k < 3; k++) {
                centre[k] = 0.5 * (b.lo3[k] + b.hi3[k]);
                half = fmax(half, 0.6 * (b.hi3[k] - b.lo3[k]));
            }
        for (int g = 0; g < m->ngeom; g++) {
            mcd_pose G;
            if (m->geom[g].type != MCD_GEOM_PLANE) continue;
            draw_plane(&b, geom_pose(&b, m, d, g, &G), &G, centre, half);
        }
    }
    if (b.failed) {
        snprintf(msg, msglen, "out of memory drawing the model");
        draw_scene_free(s);
        return -1;
    }
    return 0;
}

void draw_scene_free(draw_scene *s)
{
    for (int i = 0; i < DRAW_LAYER_COUNT; i++) free(s->line[i].uv);
    for (int i = 0; i < DRAW_MARK_COUNT; i++) free(s->mark[i].uv);
    memset(s, 0, sizeof *s);
}

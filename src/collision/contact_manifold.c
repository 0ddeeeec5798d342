/* Coplanar contact manifolds reduced to the vertices of their convex hull
 * (contact_manifold.h; docs/collision.md, "Coplanar manifolds: hull
 * vertices only").
 *
 * Each manifold is projected on the tangent plane of its mean normal eta:
 * coordinates (u, v) of the points' midpoints, heights along eta of the
 * points on A and on B. The convex hull of the (u, v) is found (Andrew's
 * monotone chain, points within tau of a hull edge dropped); when it drops
 * a point and the manifold is flat (both heights affine functions of
 * (u, v) within tau), only its vertices are kept. Work per manifold: O(m^2)
 * for m <= MCD_MANIFOLD_MAX points (the insertion sort), O(m) otherwise. */
#include "contact_manifold.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* One manifold in the tangent plane of its mean normal. */
typedef struct projection {
    int m;
    double u[MCD_MANIFOLD_MAX], v[MCD_MANIFOLD_MAX];   /* midpoints about their centroid */
    double ha[MCD_MANIFOLD_MAX], hb[MCD_MANIFOLD_MAX]; /* point_a, point_b along eta */
    double tau, tau2; /* flatness and hull tolerance [m], its square */
} projection;

static int same_manifold(const mcd_contact *a, const mcd_contact *b)
{
    double d[3];
    mcd_v3_sub(d, a->normal, b->normal);
    return a->body_a == b->body_a && a->body_b == b->body_b &&
           mcd_v3_dot(d, d) <= MCD_MANIFOLD_NORMAL * MCD_MANIFOLD_NORMAL;
}

/* The end of the manifold of the consecutive points from k. */
static int manifold_end(const mcd_contact *c, int n, int k)
{
    int e = k + 1;
    while (e < n && same_manifold(&c[k], &c[e])) e++;
    return e;
}

/* Unit t1, t2 with (t1, t2, eta) right-handed: t1 across the axis least
 * aligned with eta. */
static void tangent_frame(const double eta[3], double t1[3], double t2[3])
{
    double e[3] = {0, 0, 0};
    int i = fabs(eta[0]) <= fabs(eta[1]) ? 0 : 1;
    if (fabs(eta[2]) < fabs(eta[i])) i = 2;
    e[i] = 1;
    mcd_v3_cross(t1, e, eta);
    mcd_v3_scale(t1, t1, 1.0 / mcd_v3_norm(t1));
    mcd_v3_cross(t2, eta, t1);
}

static void project(const mcd_contact *c, int m, projection *p)
{
    double eta[3] = {0, 0, 0}, t1[3], t2[3], o[3] = {0, 0, 0}, r2 = 0, x = 0;
    for (int i = 0; i < m; i++) mcd_v3_add(eta, eta, c[i].normal), mcd_v3_add(o, o, c[i].pos);
    mcd_v3_scale(eta, eta, 1.0 / mcd_v3_norm(eta));
    mcd_v3_scale(o, o, 1.0 / m);
    tangent_frame(eta, t1, t2);
    const double level = mcd_v3_dot(eta, o);
    p->m = m;
    for (int i = 0; i < m; i++) {
        double d[3];
        mcd_v3_sub(d, c[i].pos, o);
        p->u[i] = mcd_v3_dot(t1, d), p->v[i] = mcd_v3_dot(t2, d);
        p->ha[i] = mcd_v3_dot(eta, c[i].point_a) - level;
        p->hb[i] = mcd_v3_dot(eta, c[i].point_b) - level;
        const double d2 = p->u[i] * p->u[i] + p->v[i] * p->v[i];
        if (d2 > r2) r2 = d2;
        for (int j = 0; j < 3; j++) x = fabs(c[i].pos[j]) > x ? fabs(c[i].pos[j]) : x;
    }
    p->tau = MCD_MANIFOLD_RELATIVE * sqrt(r2) + MCD_MANIFOLD_ROUNDING * DBL_EPSILON * x;
    p->tau2 = p->tau * p->tau;
}

/* (a - o) x (b - o) in the tangent plane. */
static double cross(const projection *p, int o, int a, int b)
{
    return (p->u[a] - p->u[o]) * (p->v[b] - p->v[o]) - (p->v[a] - p->v[o]) * (p->u[b] - p->u[o]);
}

/* The squared distance of points a and b in the tangent plane. */
static double dist2(const projection *p, int a, int b)
{
    const double du = p->u[a] - p->u[b], dv = p->v[a] - p->v[b];
    return du * du + dv * dv;
}

/* 1 if the point a of the turn (o, a, b) lies inside the chord from o to b
 * or within tau outside it: (a - o) x (b - o) <= tau |b - o|. */
static int within_chord(const projection *p, int o, int a, int b)
{
    const double t = cross(p, o, a, b);
    return t <= 0 || t * t <= p->tau2 * dist2(p, o, b);
}

/* The point farthest from point o (o = -1: from the centroid). */
static int farthest(const projection *p, int o)
{
    int best = 0;
    double dmax = -1;
    for (int i = 0; i < p->m; i++) {
        double d = o < 0 ? p->u[i] * p->u[i] + p->v[i] * p->v[i] : dist2(p, i, o);
        if (d > dmax) dmax = d, best = i;
    }
    return best;
}

/* The point farthest from the line through points i0 and i1. */
static int farthest_from_line(const projection *p, int i0, int i1)
{
    int best = 0;
    double dmax = -1;
    for (int i = 0; i < p->m; i++) {
        double d = fabs(cross(p, i0, i1, i));
        if (d > dmax) dmax = d, best = i;
    }
    return best;
}

/* 1 if the heights f are within tau of the affine function of (u, v)
 * through the points i0, i1, i2 (dim 2), or of the linear one along the
 * line i0 i1 (dim 1). */
static int affine(const projection *p, const double *f, int dim, int i0, int i1, int i2)
{
    const double e1u = p->u[i1] - p->u[i0], e1v = p->v[i1] - p->v[i0];
    const double e2u = p->u[i2] - p->u[i0], e2v = p->v[i2] - p->v[i0];
    const double det = e1u * e2v - e1v * e2u, len2 = e1u * e1u + e1v * e1v;
    for (int i = 0; i < p->m; i++) {
        const double du = p->u[i] - p->u[i0], dv = p->v[i] - p->v[i0];
        double a = 0, b = 0; /* (du, dv) = a e1 + b e2 */
        if (dim == 2)
            a = (du * e2v - dv * e2u) / det, b = (e1u * dv - e1v * du) / det;
        else if (dim == 1)
            a = (du * e1u + dv * e1v) / len2;
        const double fit = f[i0] + a * (f[i1] - f[i0]) + b * (f[i2] - f[i0]);
        if (!(fabs(f[i] - fit) <= p->tau)) return 0;
    }
    return 1;
}

/* The dimension of the manifold's (u, v) within tau (0: one point, 1: a
 * segment, 2: a polygon), or -1 when it is not flat: the points on A or
 * those on B are not on one plane. One point is flat at any gaps: the
 * deepest constrains the most, and the contact set-up puts them all at one
 * node. */
static int flat_dimension(const projection *p)
{
    const int i0 = farthest(p, -1), i1 = farthest(p, i0), i2 = farthest_from_line(p, i0, i1);
    const double d01 = dist2(p, i0, i1), t = cross(p, i0, i1, i2);
    if (d01 <= p->tau2) return 0;
    const int dim = t * t <= p->tau2 * d01 ? 1 : 2;
    if (!affine(p, p->ha, dim, i0, i1, i2) || !affine(p, p->hb, dim, i0, i1, i2)) return -1;
    return dim;
}

/* idx sorted by (u, v). */
static void sort_points(const projection *p, int *idx)
{
    for (int i = 0; i < p->m; i++) {
        int k = i, j = i;
        for (; j > 0; j--) {
            const int q = idx[j - 1];
            if (p->u[q] < p->u[k] || (p->u[q] == p->u[k] && p->v[q] <= p->v[k])) break;
            idx[j] = q;
        }
        idx[j] = k;
    }
}

/* Pops from the chain h[0 .. k) the points within tau outside the chord
 * from the one before them to q; returns the new k. */
static int pop_flat(const projection *p, const int *h, int k, int lo, int q)
{
    while (k >= lo + 2 && within_chord(p, h[k - 2], h[k - 1], q)) k--;
    return k;
}

/* The convex hull of the points idx[0 .. m), sorted by (u, v), counter-
 * clockwise in h (Andrew's monotone chain, room for 2m): a point within tau
 * outside the chord of its neighbours is no vertex. Returns the number of
 * vertices, >= 2 when two points are farther than tau apart. */
static int hull(const projection *p, const int *idx, int *h)
{
    int k = 0;
    for (int s = 0; s < p->m; s++) { /* lower chain */
        k = pop_flat(p, h, k, 0, idx[s]);
        h[k++] = idx[s];
    }
    const int lower = k - 1; /* the upper chain starts at the last point */
    for (int s = p->m - 2; s >= 0; s--) {
        k = pop_flat(p, h, k, lower, idx[s]);
        h[k++] = idx[s];
    }
    k--; /* the first point closes the chain */
    /* the chains' ends (the first and last points by u) are vertices of the
     * exact hull; within tau of the chord of their neighbours they are not */
    for (int i = 0; k > 2 && i < k;) {
        const int prev = h[(i + k - 1) % k], next = h[(i + 1) % k];
        if (within_chord(p, prev, h[i], next)) {
            for (int j = i; j < k - 1; j++) h[j] = h[j + 1];
            k--;
            i = 0;
        } else {
            i++;
        }
    }
    return k;
}

/* Marks in keep the points of manifold c[0 .. m) to keep (m <=
 * MCD_MANIFOLD_MAX) and returns their number; m when it keeps them all,
 * with keep then undefined. The flatness is tested only when the hull
 * drops a point. */
static int select_points(const mcd_contact *c, int m, unsigned char *keep)
{
    if (m < 3) return m; /* two points are their own hull */
    projection p;
    int idx[MCD_MANIFOLD_MAX], h[2 * MCD_MANIFOLD_MAX];
    project(c, m, &p);
    for (int i = 0; i < m; i++) idx[i] = i;
    sort_points(&p, idx);
    const int k = hull(&p, idx, h);
    if (k == m) return m;
    const int dim = flat_dimension(&p);
    if (dim < 0) return m;
    for (int i = 0; i < m; i++) keep[i] = 0;
    if (dim == 0) { /* one point: the deepest */
        int best = 0;
        for (int i = 1; i < m; i++)
            if (c[i].gap < c[best].gap) best = i;
        keep[best] = 1;
        return 1;
    }
    for (int i = 0; i < k; i++) keep[h[i]] = 1;
    return k;
}

/* The kept points of src[0 .. m) copied in order to dst (dst <= src);
 * returns their number. */
static int reduce_one(mcd_contact *dst, const mcd_contact *src, int m)
{
    unsigned char keep[MCD_MANIFOLD_MAX];
    const int n = m <= MCD_MANIFOLD_MAX ? select_points(src, m, keep) : m;
    if (n == m) {
        if (dst != src) memmove(dst, src, (size_t)m * sizeof *dst);
        return m;
    }
    for (int i = 0, j = 0; i < m; i++)
        if (keep[i]) dst[j++] = src[i];
    return n;
}

int mcd_contact_manifold_reduce(mcd_contact *c, int n)
{
    int out = 0;
    for (int k = 0; k < n;) {
        const int e = manifold_end(c, n, k);
        out += reduce_one(c + out, c + k, e - k);
        k = e;
    }
    return out;
}

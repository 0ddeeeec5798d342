/* Reproducible random robot states (random_state.h). */
#include "random_state.h"

#include <math.h>

void random_seed(random_stream *r, uint64_t seed)
{
    r->state = seed;
}

/* splitmix64 */
static uint64_t next_u64(random_stream *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double random_uniform(random_stream *r, double lo, double hi)
{
    double unit = (double)(next_u64(r) >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * unit;
}

void random_vector(random_stream *r, int n, double scale, double *v)
{
    for (int i = 0; i < n; i++) v[i] = random_uniform(r, -scale, scale);
}

/* Uniform unit quaternion (Shoemake's method). */
static void random_quaternion(random_stream *r, double q[4])
{
    const double two_pi = 2.0 * acos(-1.0);
    double u1 = random_uniform(r, 0, 1), u2 = random_uniform(r, 0, two_pi);
    double u3 = random_uniform(r, 0, two_pi);
    double a = sqrt(1.0 - u1), b = sqrt(u1);
    q[0] = a * cos(u2);
    q[1] = a * sin(u2);
    q[2] = b * cos(u3);
    q[3] = b * sin(u3);
}

static double random_joint_position(random_stream *r, const mcd_body *b)
{
    const mcd_joint_limits *l = &b->limits;
    if (l->has_position_limits && l->lower < l->upper) return random_uniform(r, l->lower, l->upper);
    double half_range = b->jtype == MCD_JOINT_PRISMATIC ? 1.0 : acos(-1.0);
    return random_uniform(r, -half_range, half_range);
}

void random_configuration(random_stream *r, const mcd_model *m, double *q)
{
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *b = &m->body[k];
        double *qk = q + b->qadr;
        switch (b->jtype) {
        case MCD_JOINT_FREE:
            random_vector(r, 3, 1.0, qk);
            random_quaternion(r, qk + 3);
            break;
        case MCD_JOINT_SPHERICAL:
            random_quaternion(r, qk);
            break;
        default:
            qk[0] = random_joint_position(r, b);
            break;
        }
    }
}

/* The links of a Bullet btMultiBody from an mcd_model (bench_bullet_model.h). */
#include "bench_bullet_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Off-diagonal products of inertia below this fraction of the largest
 * moment count as zero (rounding of a diagonal inertia). */
#define DIAGONAL_TOLERANCE 1e-12

static int is_diagonal(const double I[9])
{
    double scale = fmax(fabs(I[0]), fmax(fabs(I[4]), fabs(I[8])));
    double off = fmax(fmax(fabs(I[1]), fabs(I[2])),
                      fmax(fabs(I[3]), fmax(fabs(I[5]), fmax(fabs(I[6]), fabs(I[7])))));
    return off <= DIAGONAL_TOLERANCE * scale;
}

static int link_from_body(const mcd_model *m, int i, bench_bullet_link *l, char *msg, int msglen)
{
    const mcd_body *b = &m->body[i];
    const char *name = m->body_name[i];
    if (b->jtype != MCD_JOINT_REVOLUTE && b->jtype != MCD_JOINT_CONTINUOUS &&
        b->jtype != MCD_JOINT_PRISMATIC) {
        snprintf(msg, (size_t)msglen, "body '%s': a %s joint (Bullet's side takes one-axis joints)",
                 name, mcd_joint_type_name(b->jtype));
        return -1;
    }
    if (!(b->mass.mass > 0) || !is_diagonal(b->mass.inertia)) {
        snprintf(
            msg, (size_t)msglen,
            "body '%s': Bullet needs a positive mass and an inertia diagonal in the body frame",
            name);
        return -1;
    }
    l->parent = b->parent;
    l->prismatic = b->jtype == MCD_JOINT_PRISMATIC;
    memcpy(l->R, b->X_tree.R, sizeof l->R);
    memcpy(l->p, b->X_tree.p, sizeof l->p);
    memcpy(l->axis, b->axis, sizeof l->axis);
    l->mass = b->mass.mass;
    memcpy(l->com, b->mass.com, sizeof l->com);
    for (int k = 0; k < 3; k++) {
        l->inertia[k] = b->mass.inertia[4 * k];
        l->link_force[k] = b->mass.mass * m->gravity[k];
    }
    return 0;
}

int bench_bullet_links_from_model(const mcd_model *m, bench_bullet_link *links, char *msg,
                                  int msglen)
{
    for (int i = 0; i < m->nbody; i++)
        if (link_from_body(m, i, &links[i], msg, msglen) != 0) return -1;
    return 0;
}

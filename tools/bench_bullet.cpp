// A fixed-base tree as a btMultiBody, and its forward dynamics
// (bench_bullet.h).
#include "bench_bullet.h"

#include <cstdio>
#include <new>

#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <LinearMath/btAlignedObjectArray.h>

struct bench_bullet_multibody {
    btMultiBody *body;
    int n;
    // Bullet's scratch space, sized by its first call and reused.
    btAlignedObjectArray<btScalar> scratch_r;
    btAlignedObjectArray<btVector3> scratch_v;
    btAlignedObjectArray<btMatrix3x3> scratch_m;
};

static btVector3 vec(const double v[3])
{
    return btVector3(v[0], v[1], v[2]);
}

// Bullet's rotParentToThis maps parent-frame vectors into the link frame at
// q = 0: the transpose of the joint frame's rotation R.
static btQuaternion parent_to_link(const double R[9])
{
    const btMatrix3x3 Rt(R[0], R[3], R[6], R[1], R[4], R[7], R[2], R[5], R[8]);
    btQuaternion r;
    Rt.getRotation(r);
    return r;
}

static void setup_link(btMultiBody *body, const bench_bullet_link *links, int i)
{
    const bench_bullet_link &l = links[i];
    const btVector3 zero(0, 0, 0);
    const btVector3 parent_com = l.parent >= 0 ? vec(links[l.parent].com) : zero;
    // From the parent's centre of mass to the joint, in the parent frame;
    // from the joint to this link's centre of mass, in this link's frame.
    const btVector3 parent_com_to_pivot = vec(l.p) - parent_com;
    const btVector3 pivot_to_com = vec(l.com);
    const btQuaternion rot = parent_to_link(l.R);
    if (l.prismatic)
        body->setupPrismatic(i, l.mass, vec(l.inertia), l.parent, rot, vec(l.axis),
                             parent_com_to_pivot, pivot_to_com, true);
    else
        body->setupRevolute(i, l.mass, vec(l.inertia), l.parent, rot, vec(l.axis),
                            parent_com_to_pivot, pivot_to_com, true);
}

extern "C" int bench_bullet_make(const bench_bullet_link *links, int n,
                                 bench_bullet_multibody **out, char *msg, int msglen)
{
    *out = nullptr;
    for (int i = 0; i < n; i++)
        if (links[i].parent < -1 || links[i].parent >= i || !(links[i].mass > 0)) {
            std::snprintf(msg, (size_t)msglen, "link %d: bad parent or mass for Bullet", i);
            return -1;
        }
    bench_bullet_multibody *b = new (std::nothrow) bench_bullet_multibody;
    if (!b || n < 1) {
        std::snprintf(msg, (size_t)msglen, n < 1 ? "no links" : "out of memory");
        delete b;
        return -1;
    }
    b->n = n;
    // Fixed base of no mass at the world origin; no sleeping.
    b->body = new btMultiBody(n, 0.0, btVector3(0, 0, 0), true, false);
    for (int i = 0; i < n; i++) setup_link(b->body, links, i);
    b->body->finalizeMultiDof();
    b->body->setLinearDamping(0.0);
    b->body->setAngularDamping(0.0);
    for (int i = 0; i < n; i++) b->body->addLinkForce(i, vec(links[i].link_force));
    *out = b;
    return 0;
}

extern "C" void bench_bullet_free(bench_bullet_multibody *b)
{
    if (!b) return;
    delete b->body;
    delete b;
}

extern "C" void bench_bullet_forward_dynamics(bench_bullet_multibody *b, const double *q,
                                              const double *qd, const double *tau, double *qdd)
{
    btMultiBody *body = b->body;
    for (int i = 0; i < b->n; i++) {
        body->setJointPos(i, q[i]);
        body->setJointVel(i, qd[i]);
        body->addJointTorqueMultiDof(i, &tau[i]); // sets, does not add
    }
    body->computeAccelerationsArticulatedBodyAlgorithmMultiDof(0.0, b->scratch_r, b->scratch_v,
                                                               b->scratch_m, false, false, false);
    // Bullet leaves [Y (ndof), base accelerations (6), joint accelerations]
    // in scratch_r.
    const int joint_accel = body->getNumDofs() + 6;
    for (int i = 0; i < b->n; i++)
        qdd[i] = b->scratch_r[joint_accel + body->getLink(i).m_dofOffset];
}

/* The Bullet shim (bullet_shim.h): the only C++ in mcdyn.
 *
 * Bullet's btCollisionWorld is used with four changes, each because a
 * stateless query "contact points at this configuration" differs from a
 * game's persistent contact cache:
 *  - every point an algorithm reports is captured as it is reported (a
 *    btManifoldResult whose addContactPoint hands the point to C), so
 *    nothing goes through btPersistentManifold's cache: no point from an
 *    earlier call survives, no reduction to 4 points, and the cache's
 *    merge radius (the breaking threshold) never fuses distinct corners;
 *  - each manifold's breaking threshold (the distance up to which the
 *    algorithms report points) is our activation distance, not Bullet's
 *    global gContactBreakingThreshold, and the bounding boxes are grown by
 *    the same amount instead of that global;
 *  - box-box pairs use the convex-convex algorithm (GJK, EPA), because
 *    btBoxBoxDetector reports nothing for separated boxes. When GJK gives
 *    one point between two polyhedra (boxes, hulls), we clip the two
 *    nearest faces (btPolyhedralContactClipping, as Bullet's polyhedral
 *    path does) into the contact polygon, penetrating or separated by less
 *    than the threshold. The polyhedral features live in a side table, not
 *    on the collision shapes: Bullet's own polyhedral path keeps its clip
 *    buffers in each pair's algorithm, which is freed and remade whenever
 *    a pair leaves and re-enters the broadphase (a heap allocation per
 *    new contact); ours are made once;
 *  - the convex-plane algorithm makes plane_iterations perturbed support
 *    queries (Bullet's multi-point option), each reported with the exact
 *    distance at the unperturbed pose, so a box flat on a plane gives its
 *    4 corners in one call;
 *  - the dispatcher visits the overlapping pairs sorted by geom indices
 *    instead of in the pair cache's hash order, which depends on history.
 */
#include "bullet_shim.h"

#include <btBulletCollisionCommon.h>
#include <BulletCollision/CollisionShapes/btConvexPolyhedron.h>
#include <BulletCollision/NarrowPhaseCollision/btPolyhedralContactClipping.h>
#include <LinearMath/btAlignedAllocator.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace
{

/* Pool sizes: one manifold and one algorithm per overlapping pair. Past
 * this many simultaneous pairs Bullet falls back to the heap. */
const int kMaxPool = 4096;
/* Clipping scratch reserved at creation (vertices of a clipped face). */
const int kClipReserve = 256;
/* A GJK/EPA normal within this angle of a face normal is that face's
 * normal: the contact is (at least) vertex-face and its polygon is clipped
 * [rad]. */
const double kFaceAngle = 1e-3;
/* The same for shapes that touch (|distance| <= kTouchingDistance): GJK's
 * normal there is the direction of a vector of length ~|distance|, off by
 * rounding over it; measured 1.7e-3 rad off the face on boxes resting on
 * boxes (box_block), which then kept one point of their four for a step
 * [rad], and the distance below which two shapes touch (the scenario
 * runner's resting gap) [m]. */
const double kTouchingFaceAngle = 1e-2;
const double kTouchingDistance = 1e-9;

void set_transform(btTransform &t, const double R[9], const double p[3])
{
    t.setBasis(btMatrix3x3(R[0], R[1], R[2], R[3], R[4], R[5], R[6], R[7], R[8]));
    t.setOrigin(btVector3(p[0], p[1], p[2]));
}

} // namespace

struct mcd_bt_world;

namespace
{

/* Sets our threshold on every manifold it makes, and runs the narrowphase
 * on the pairs in a fixed order. */
class Dispatcher : public btCollisionDispatcher
{
  public:
    Dispatcher(btCollisionConfiguration *conf, mcd_bt_world *owner)
        : btCollisionDispatcher(conf), owner_(owner)
    {
    }
    btPersistentManifold *getNewManifold(const btCollisionObject *b0,
                                         const btCollisionObject *b1) override;
    void dispatchAllCollisionPairs(btOverlappingPairCache *cache, const btDispatcherInfo &info,
                                   btDispatcher *dispatcher) override;

  private:
    mcd_bt_world *owner_;
};

/* Keeps the broadphase from pairing what the pair table skips. */
class PairFilter : public btOverlapFilterCallback
{
  public:
    const unsigned char *table = nullptr;
    int n = 0;
    bool needBroadphaseCollision(btBroadphaseProxy *p0, btBroadphaseProxy *p1) const override
    {
        const btCollisionObject *o0 = static_cast<btCollisionObject *>(p0->m_clientObject);
        const btCollisionObject *o1 = static_cast<btCollisionObject *>(p1->m_clientObject);
        unsigned char mode =
            table[(size_t)o0->getUserIndex() * (size_t)n + (size_t)o1->getUserIndex()];
        return mode == MCD_PAIR_BULLET || mode == MCD_PAIR_ANALYTIC;
    }
};

/* Grows the moving geoms' boxes by our threshold (Bullet's own update uses
 * the global gContactBreakingThreshold). */
class World : public btCollisionWorld
{
  public:
    World(btDispatcher *d, btBroadphaseInterface *b, btCollisionConfiguration *c,
          mcd_bt_world *owner)
        : btCollisionWorld(d, b, c), owner_(owner)
    {
    }
    void updateAabbs() override;
    void setPaddedAabb(btCollisionObject *o);

  private:
    mcd_bt_world *owner_;
};

/* Hands every reported point to C, the first one only once a second one
 * comes or flush() is called: a lone GJK/EPA point between two polyhedra is
 * replaced by the clipped contact polygon, which contains it (collide_pair). */
class Capture : public btManifoldResult
{
  public:
    Capture(const btCollisionObjectWrapper *w0, const btCollisionObjectWrapper *w1,
            mcd_bt_world *owner);
    void addContactPoint(const btVector3 &normal_on_b, const btVector3 &point_on_b,
                         btScalar dist) override;
    void flush();

    int count = 0;
    btVector3 normal, point;
    btScalar dist = 0;
    const btCollisionObject *a = nullptr, *b = nullptr;

  private:
    void emit(const btVector3 &normal_on_b, const btVector3 &point_on_b, btScalar d) const;
    mcd_bt_world *owner_;
};

/* Points of a face clipping: geom a holds the reference face, geom b the
 * clipped face; normals point from b to a. */
class ClipResult : public btDiscreteCollisionDetectorInterface::Result
{
  public:
    ClipResult(mcd_bt_world *owner, int ga, int gb) : owner_(owner), ga_(ga), gb_(gb) {}
    void setShapeIdentifiersA(int, int) override {}
    void setShapeIdentifiersB(int, int) override {}
    void addContactPoint(const btVector3 &normal_on_b, const btVector3 &point_on_b,
                         btScalar dist) override;

    int count = 0;

  private:
    mcd_bt_world *owner_;
    int ga_, gb_;
};

} // namespace

struct mcd_bt_world {
    /* Declaration order is destruction order reversed: the world goes
     * first (it removes its objects' proxies from the broadphase). */
    std::unique_ptr<btDefaultCollisionConfiguration> conf;
    std::unique_ptr<Dispatcher> dispatcher;
    std::unique_ptr<btDbvtBroadphase> broadphase;
    PairFilter filter;
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    /* per geom: polyhedral features of boxes and hulls, else null */
    std::vector<std::unique_ptr<btPolyhedralConvexShape>> features;
    std::vector<std::unique_ptr<btCollisionObject>> objects;
    std::unique_ptr<World> world;
    std::vector<int> moving; /* geoms on moving bodies */
    /* the pairs of one detection whose boxes overlap, sorted by geoms;
     * reserved for every pair the table allows */
    std::vector<btBroadphasePair *> order;
    /* the MCD_PAIR_DIRECT pairs (lower geom, higher geom), sorted */
    std::vector<std::pair<int, int>> direct;
    const unsigned char *table = nullptr;
    int n = 0;
    double threshold = 0;
    btVertexArray clip1, clip2;
    mcd_bt_pair_fn pair_fn = nullptr;
    mcd_bt_point_fn point_fn = nullptr;
    void *ctx = nullptr;
};

namespace
{

btPersistentManifold *Dispatcher::getNewManifold(const btCollisionObject *b0,
                                                 const btCollisionObject *b1)
{
    btPersistentManifold *m = btCollisionDispatcher::getNewManifold(b0, b1);
    if (m) {
        m->setContactBreakingThreshold(owner_->threshold);
        m->setContactProcessingThreshold(owner_->threshold);
    }
    return m;
}

Capture::Capture(const btCollisionObjectWrapper *w0, const btCollisionObjectWrapper *w1,
                 mcd_bt_world *owner)
    : btManifoldResult(w0, w1), owner_(owner)
{
    /* some algorithms (sphere-sphere) test this instead of the manifold's
     * threshold */
    m_closestPointDistanceThreshold = owner->threshold;
}

int pair_key_lo(const btBroadphasePair *p)
{
    int a = static_cast<btCollisionObject *>(p->m_pProxy0->m_clientObject)->getUserIndex();
    int b = static_cast<btCollisionObject *>(p->m_pProxy1->m_clientObject)->getUserIndex();
    return std::min(a, b);
}

int pair_key_hi(const btBroadphasePair *p)
{
    int a = static_cast<btCollisionObject *>(p->m_pProxy0->m_clientObject)->getUserIndex();
    int b = static_cast<btCollisionObject *>(p->m_pProxy1->m_clientObject)->getUserIndex();
    return std::max(a, b);
}

bool pair_before(const btBroadphasePair *x, const btBroadphasePair *y)
{
    int xl = pair_key_lo(x), yl = pair_key_lo(y);
    return xl < yl || (xl == yl && pair_key_hi(x) < pair_key_hi(y));
}

void collide_pair(mcd_bt_world *w, btBroadphasePair &pair, btCollisionDispatcher &disp,
                  const btDispatcherInfo &info);

/* Replaces the pair cache's walk in hash order: the pairs whose exact
 * boxes overlap (the tree's boxes are fattened, and the cache drops
 * departed pairs only gradually) are sorted by (lower geom, higher geom),
 * so the output order depends on the configuration only. */
void Dispatcher::dispatchAllCollisionPairs(btOverlappingPairCache *cache,
                                           const btDispatcherInfo &info, btDispatcher *)
{
    std::vector<btBroadphasePair *> &order = owner_->order;
    order.clear();
    btBroadphasePairArray &pairs = cache->getOverlappingPairArray();
    for (int i = 0; i < pairs.size(); i++) {
        const btBroadphaseProxy *p0 = pairs[i].m_pProxy0, *p1 = pairs[i].m_pProxy1;
        if (TestAabbAgainstAabb2(p0->m_aabbMin, p0->m_aabbMax, p1->m_aabbMin, p1->m_aabbMax))
            order.push_back(&pairs[i]);
    }
    std::sort(order.begin(), order.end(), pair_before);
    /* merge with the direct pairs, which are never in the cache */
    const std::vector<std::pair<int, int>> &direct = owner_->direct;
    size_t k = 0;
    for (btBroadphasePair *p : order) {
        const std::pair<int, int> key(pair_key_lo(p), pair_key_hi(p));
        for (; k < direct.size() && direct[k] < key; k++)
            owner_->pair_fn(owner_->ctx, direct[k].first, direct[k].second);
        collide_pair(owner_, *p, *this, info);
    }
    for (; k < direct.size(); k++) owner_->pair_fn(owner_->ctx, direct[k].first, direct[k].second);
}

void World::setPaddedAabb(btCollisionObject *o)
{
    btVector3 lo, hi, pad(owner_->threshold, owner_->threshold, owner_->threshold);
    o->getCollisionShape()->getAabb(o->getWorldTransform(), lo, hi);
    getBroadphase()->setAabb(o->getBroadphaseHandle(), lo - pad, hi + pad, getDispatcher());
}

void World::updateAabbs()
{
    for (int i : owner_->moving) setPaddedAabb(owner_->objects[(size_t)i].get());
}

void Capture::addContactPoint(const btVector3 &normal_on_b, const btVector3 &point_on_b, btScalar d)
{
    if (d > owner_->threshold) return;
    /* The manifold's body 1 is the side the normal is on (btManifoldResult). */
    const btCollisionObject *o0 = m_body0Wrap->getCollisionObject();
    const btCollisionObject *o1 = m_body1Wrap->getCollisionObject();
    if (m_manifoldPtr && m_manifoldPtr->getBody0() != o0) std::swap(o0, o1);
    if (count == 1) emit(normal, point, dist);
    a = o0, b = o1;
    normal = normal_on_b, point = point_on_b, dist = d;
    if (++count > 1) emit(normal_on_b, point_on_b, d);
}

/* The deferred first point, if it is still alone. */
void Capture::flush()
{
    if (count == 1) emit(normal, point, dist);
}

void Capture::emit(const btVector3 &normal_on_b, const btVector3 &point_on_b, btScalar d) const
{
    const double n[3] = {normal_on_b.x(), normal_on_b.y(), normal_on_b.z()};
    const double p[3] = {point_on_b.x(), point_on_b.y(), point_on_b.z()};
    owner_->point_fn(owner_->ctx, a->getUserIndex(), b->getUserIndex(), n, p, d);
}

void ClipResult::addContactPoint(const btVector3 &normal_on_b, const btVector3 &point_on_b,
                                 btScalar d)
{
    if (d > owner_->threshold) return;
    count++;
    const double n[3] = {normal_on_b.x(), normal_on_b.y(), normal_on_b.z()};
    const double p[3] = {point_on_b.x(), point_on_b.y(), point_on_b.z()};
    owner_->point_fn(owner_->ctx, ga_, gb_, n, p, d);
}

const btConvexPolyhedron *polyhedron(const mcd_bt_world *w, const btCollisionObject *o)
{
    const btPolyhedralConvexShape *f = w->features[(size_t)o->getUserIndex()].get();
    return f ? f->getConvexPolyhedron() : nullptr;
}

/* The outward normal (world) of the face of hull h whose normal is
 * nearest dir, and the cosine of their angle. */
double nearest_face(const btConvexPolyhedron &h, const btTransform &t, const btVector3 &dir,
                    btVector3 &normal)
{
    const btVector3 local = t.getBasis().transpose() * dir;
    double best = -2;
    for (int i = 0; i < h.m_faces.size(); i++) {
        const btScalar *p = h.m_faces[i].m_plane;
        const btVector3 f(p[0], p[1], p[2]);
        double c = f.dot(local);
        if (c > best) best = c, normal = t.getBasis() * f;
    }
    return best;
}

/* btCollisionDispatcher::defaultNearCallback for one pair of the table,
 * with the capture and the face clipping. */
void collide_pair(mcd_bt_world *w, btBroadphasePair &pair, btCollisionDispatcher &disp,
                  const btDispatcherInfo &info)
{
    const btCollisionObject *o0 = static_cast<btCollisionObject *>(pair.m_pProxy0->m_clientObject);
    const btCollisionObject *o1 = static_cast<btCollisionObject *>(pair.m_pProxy1->m_clientObject);
    int g0 = o0->getUserIndex(), g1 = o1->getUserIndex();
    unsigned char mode = w->table[(size_t)g0 * (size_t)w->n + (size_t)g1];
    if (mode == MCD_PAIR_ANALYTIC) {
        w->pair_fn(w->ctx, g0, g1);
        return;
    }
    if (mode != MCD_PAIR_BULLET) return;
    btCollisionObjectWrapper w0(nullptr, o0->getCollisionShape(), o0, o0->getWorldTransform(), -1,
                                -1);
    btCollisionObjectWrapper w1(nullptr, o1->getCollisionShape(), o1, o1->getWorldTransform(), -1,
                                -1);
    if (!pair.m_algorithm)
        pair.m_algorithm = disp.findAlgorithm(&w0, &w1, nullptr, BT_CONTACT_POINT_ALGORITHMS);
    if (!pair.m_algorithm) return;
    Capture cap(&w0, &w1, w);
    pair.m_algorithm->processCollision(&w0, &w1, info, &cap);
    if (cap.count != 1) return; /* none, or all already handed over */
    /* Two polyhedra: GJK or EPA gave one point and the normal. When that
     * normal is a face normal (vertex-face, edge-face, face-face contact),
     * clipping the faces gives the rest of the contact polygon; an
     * edge-edge contact keeps its single point. */
    const btConvexPolyhedron *ha = polyhedron(w, cap.a), *hb = polyhedron(w, cap.b);
    if (!ha || !hb) return cap.flush();
    const btTransform &ta = cap.a->getWorldTransform(), &tb = cap.b->getWorldTransform();
    btVector3 fa, fb;
    double ca = nearest_face(*ha, ta, -cap.normal, fa), cb = nearest_face(*hb, tb, cap.normal, fb);
    const double angle = std::fabs(cap.dist) <= kTouchingDistance ? kTouchingFaceAngle : kFaceAngle;
    if (std::max(ca, cb) < std::cos(angle)) return cap.flush();
    /* Bullet's clipping takes the reference face on its first hull, the
     * normal pointing from the second hull to the first, and reports points
     * on the second hull's face with their distances to the reference
     * plane (exact when the normal is the reference face's). */
    const bool a_face = ca >= cb;
    const btCollisionObject *ref = a_face ? cap.a : cap.b, *inc = a_face ? cap.b : cap.a;
    ClipResult out(w, ref->getUserIndex(), inc->getUserIndex());
    w->clip1.resize(0);
    w->clip2.resize(0);
    btPolyhedralContactClipping::clipHullAgainstHull(
        a_face ? -fa : -fb, a_face ? *ha : *hb, a_face ? *hb : *ha, ref->getWorldTransform(),
        inc->getWorldTransform(), -BT_LARGE_FLOAT, w->threshold, w->clip1, w->clip2, out);
    /* The polygon contains GJK's deepest point; an empty clipping keeps it. */
    if (out.count == 0) cap.flush();
}

std::unique_ptr<btConvexHullShape> make_hull(const mcd_bt_shape &g)
{
    std::unique_ptr<btConvexHullShape> h(
        new btConvexHullShape(g.verts, g.nverts, (int)(3 * sizeof(double))));
    h->setMargin(0);
    h->optimizeConvexHull(); /* keep the hull's vertices only */
    h->recalcLocalAabb();
    if (h->getNumPoints() < 4) return nullptr;
    return h;
}

/* The collision shape of a geom, and for boxes and hulls a twin carrying
 * the polyhedral features (false if Bullet cannot build them). */
bool make_shape(const mcd_bt_shape &g, std::unique_ptr<btCollisionShape> &shape,
                std::unique_ptr<btPolyhedralConvexShape> &features)
{
    const double *s = g.size;
    switch (g.type) {
    case MCD_BT_SPHERE:
        shape.reset(new btSphereShape(s[0]));
        return true;
    case MCD_BT_BOX: {
        const btVector3 half(s[0], s[1], s[2]);
        std::unique_ptr<btBoxShape> box(new btBoxShape(half)), twin(new btBoxShape(half));
        box->setMargin(0); /* keeps the half extents (btBoxShape::setMargin) */
        twin->setMargin(0);
        if (!twin->initializePolyhedralFeatures()) return false;
        shape = std::move(box);
        features = std::move(twin);
        return true;
    }
    case MCD_BT_CYLINDER: {
        std::unique_ptr<btCylinderShapeZ> c(new btCylinderShapeZ(btVector3(s[0], s[0], s[1])));
        c->setMargin(0);
        shape = std::move(c);
        return true;
    }
    case MCD_BT_CAPSULE: /* margin = radius: exact */
        shape.reset(new btCapsuleShapeZ(s[0], 2.0 * s[1]));
        return true;
    case MCD_BT_PLANE:
        shape.reset(new btStaticPlaneShape(btVector3(0, 0, 1), 0));
        return true;
    case MCD_BT_HULL: {
        std::unique_ptr<btConvexHullShape> h = make_hull(g), twin = make_hull(g);
        if (!h || !twin || !twin->initializePolyhedralFeatures()) return false;
        shape = std::move(h);
        features = std::move(twin);
        return true;
    }
    default:
        return false;
    }
}

mcd_status fail_hull(mcd_error *err, int geom)
{
    if (err) {
        err->status = MCD_ERR_MODEL;
        std::snprintf(err->msg, sizeof err->msg,
                      "geom %d: Bullet cannot build its convex polyhedron", geom);
    }
    return MCD_ERR_MODEL;
}

mcd_status fail_nomem(mcd_error *err)
{
    if (err) {
        err->status = MCD_ERR_NOMEM;
        std::snprintf(err->msg, sizeof err->msg, "out of memory building the Bullet world");
    }
    return MCD_ERR_NOMEM;
}

mcd_status build(const mcd_bt_config *cfg, mcd_bt_world *w, mcd_error *err)
{
    const int n = cfg->nshape;
    w->n = n;
    w->table = cfg->pair_table;
    w->threshold = cfg->threshold;
    long npairs = 0, nactive = 0;
    std::vector<char> in_bullet((size_t)n, 0); /* has a pair through the broadphase */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            unsigned char mode = cfg->pair_table[(size_t)i * (size_t)n + (size_t)j];
            npairs += mode == MCD_PAIR_BULLET;
            if (mode == MCD_PAIR_DIRECT) w->direct.emplace_back(i, j);
            if (mode != MCD_PAIR_BULLET && mode != MCD_PAIR_ANALYTIC) continue;
            nactive++;
            in_bullet[(size_t)i] = in_bullet[(size_t)j] = 1;
        }
    w->order.reserve((size_t)nactive);
    int pool = (int)std::min<long>(kMaxPool, std::max<long>(16, npairs));

    btDefaultCollisionConstructionInfo ci;
    ci.m_defaultMaxPersistentManifoldPoolSize = pool;
    ci.m_defaultMaxCollisionAlgorithmPoolSize = pool;
    w->conf.reset(new btDefaultCollisionConfiguration(ci));
    if (cfg->plane_iterations > 0)
        w->conf->setPlaneConvexMultipointIterations(cfg->plane_iterations, 1);
    else
        w->conf->setPlaneConvexMultipointIterations(0, 0);
    w->dispatcher.reset(new Dispatcher(w->conf.get(), w));
    w->dispatcher->registerCollisionCreateFunc(
        BOX_SHAPE_PROXYTYPE, BOX_SHAPE_PROXYTYPE,
        w->conf->getCollisionAlgorithmCreateFunc(CONVEX_HULL_SHAPE_PROXYTYPE,
                                                 CONVEX_HULL_SHAPE_PROXYTYPE));
    w->broadphase.reset(new btDbvtBroadphase());
    w->filter.table = w->table;
    w->filter.n = n;
    w->broadphase->getOverlappingPairCache()->setOverlapFilterCallback(&w->filter);
    w->world.reset(new World(w->dispatcher.get(), w->broadphase.get(), w->conf.get(), w));
    w->clip1.reserve(kClipReserve);
    w->clip2.reserve(kClipReserve);

    w->shapes.reserve((size_t)n);
    w->features.reserve((size_t)n);
    w->objects.reserve((size_t)n);
    for (int i = 0; i < n; i++) {
        const mcd_bt_shape &g = cfg->shape[i];
        std::unique_ptr<btCollisionShape> shape;
        std::unique_ptr<btPolyhedralConvexShape> features;
        if (!make_shape(g, shape, features)) return fail_hull(err, i);
        std::unique_ptr<btCollisionObject> o(new btCollisionObject());
        o->setCollisionShape(shape.get());
        o->setUserIndex(i);
        btTransform t;
        t.setIdentity();
        if (g.is_static) {
            set_transform(t, g.R, g.p);
            o->setCollisionFlags(o->getCollisionFlags() | btCollisionObject::CF_STATIC_OBJECT);
        } else {
            o->setActivationState(DISABLE_DEACTIVATION);
            if (in_bullet[(size_t)i]) w->moving.push_back(i);
        }
        o->setWorldTransform(t);
        w->shapes.push_back(std::move(shape));
        w->features.push_back(std::move(features));
        w->objects.push_back(std::move(o));
        if (!in_bullet[(size_t)i]) continue;
        w->world->addCollisionObject(w->objects.back().get());
        w->world->setPaddedAabb(w->objects.back().get());
    }
    return MCD_OK;
}

long g_alloc_count = 0;

void *counting_alloc(size_t size)
{
    ++g_alloc_count;
    return std::malloc(size);
}

void counting_free(void *p)
{
    std::free(p);
}

} // namespace

extern "C" {

mcd_status mcd_bt_world_create(const mcd_bt_config *cfg, mcd_bt_world **out, mcd_error *err)
{
    *out = nullptr;
    mcd_bt_world *w = nullptr;
    try {
        w = new mcd_bt_world();
        mcd_status s = build(cfg, w, err);
        if (s != MCD_OK) {
            delete w;
            return s;
        }
    } catch (const std::bad_alloc &) {
        delete w;
        return fail_nomem(err);
    }
    *out = w;
    return MCD_OK;
}

void mcd_bt_world_free(mcd_bt_world *w)
{
    delete w;
}

void mcd_bt_set_pose(mcd_bt_world *w, int geom, const double R[9], const double p[3])
{
    set_transform(w->objects[(size_t)geom]->getWorldTransform(), R, p);
}

void mcd_bt_detect(mcd_bt_world *w, mcd_bt_pair_fn pair_fn, mcd_bt_point_fn point_fn, void *ctx)
{
    w->pair_fn = pair_fn;
    w->point_fn = point_fn;
    w->ctx = ctx;
    w->world->performDiscreteCollisionDetection();
    w->ctx = nullptr;
}

void mcd_bt_alloc_count_begin(void)
{
    g_alloc_count = 0;
    btAlignedAllocSetCustom(counting_alloc, counting_free);
}

long mcd_bt_alloc_count_end(void)
{
    btAlignedAllocSetCustom(nullptr, nullptr);
    return g_alloc_count;
}

} // extern "C"

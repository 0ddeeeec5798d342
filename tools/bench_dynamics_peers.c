/* The peer table of `mcdyn bench dynamics` (bench_dynamics_peers.h). */
#include "bench_dynamics_peers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_timer.h"
#include "mcdyn/dynamics.h"
#if defined(MCDYN_HAVE_BULLET_DYNAMICS)
#include "bench_bullet.h"
#include "bench_bullet_model.h"
#endif
#if defined(MCDYN_HAVE_MUJOCO)
#include "bench_mujoco_robot.h"
#endif

static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * rand() / (double)RAND_MAX;
}

mcd_status bench_random_state(const mcd_model *m, double *q, double *qd, double *qdd, double *tau)
{
    mcd_status st = mcd_model_neutral(m, q);
    for (int i = 0; i < m->nv; i++) {
        qd[i] = uniform(-1, 1);
        qdd[i] = uniform(-1, 1);
        tau[i] = uniform(-1, 1);
    }
    if (st == MCD_OK) st = mcd_integrate(m, q, qd, 1.0, q);
    return st;
}

double bench_peer_difference(const double *a, const double *b, int n)
{
    double diff = 0, ref = 1;
    for (int i = 0; i < n; i++) {
        diff = fmax(diff, fabs(a[i] - b[i]));
        ref = fmax(ref, fabs(b[i]));
    }
    return isnan(diff) ? INFINITY : diff / ref;
}

void bench_peers_header(void)
{
    printf("\npeers: the same quantity by mcdyn and by a peer at the same random state; the\n"
           "values agree to %.0e (max relative difference shown) before either is timed.\n"
           "mcdyn and Bullet: forward dynamics from (q, qd, tau), kinematics included; MuJoCo:\n"
           "see `mcdyn bench dynamics --help`. The two are timed in interleaved samples (one\n"
           "of each, alternated); ratio = median of the per-pair ratios mcdyn / peer.\n\n",
           BENCH_PEER_TOLERANCE);
    printf("%-32s %5s %-8s %27s %-7s %27s %7s %8s\n", "model", "nv", "quantity", "mcdyn_us", "peer",
           "peer_us", "ratio", "rel.diff");
}

/* The state and outputs of one model, and its peer. */
typedef struct peer_state {
    const mcd_model *m;
    mcd_data *d;
    double *q, *qd, *qdd, *tau, *out, *peer_out;
    void *peer;
} peer_state;

static void peer_state_free(peer_state *s)
{
    mcd_data_free(s->d);
    free(s->q);
}

static int peer_state_make(peer_state *s, const mcd_model *m, const char *label)
{
    s->m = m;
    s->peer = NULL;
    const size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    s->q = malloc(sizeof(double) * (nq + 4 * nv + 2 * nv * nv));
    mcd_error err = {0};
    mcd_status st = s->q ? mcd_data_create(m, &s->d, &err) : MCD_ERR_NOMEM;
    if (st != MCD_OK) {
        fprintf(stderr, "mcdyn bench dynamics: %s: no workspace: %s\n", label, err.msg);
        free(s->q);
        return 1;
    }
    s->qd = s->q + nq;
    s->qdd = s->qd + nv;
    s->tau = s->qdd + nv;
    s->out = s->tau + nv;
    s->peer_out = s->out + nv * nv;
    return bench_random_state(m, s->q, s->qd, s->qdd, s->tau) != MCD_OK;
}

static int call_forward_dynamics(void *ctx)
{
    peer_state *s = ctx;
    return mcd_forward_dynamics(s->m, s->d, s->q, s->qd, s->tau, NULL, s->out) != MCD_OK;
}

static int call_inverse_dynamics(void *ctx)
{
    peer_state *s = ctx;
    return mcd_inverse_dynamics(s->m, s->d, s->q, s->qd, s->qdd, NULL, s->out) != MCD_OK;
}

static int call_mass_matrix(void *ctx)
{
    peer_state *s = ctx;
    return mcd_mass_matrix(s->m, s->d, s->q, s->out) != MCD_OK;
}

/* A pair of calls whose outputs (n entries: s->out and s->peer_out after
 * peer_read) are compared, then timed, and one row printed. */
typedef struct peer_pair {
    const char *quantity, *peer_name;
    bench_call ours, peer;
    void (*peer_read)(peer_state *s);
    int n;
} peer_pair;

static int time_pair(const char *label, peer_state *s, const peer_pair *p, int samples)
{
    printf("%-32s %5d %-8s", label, s->m->nv, p->quantity);
    if (p->ours(s) || p->peer(s)) {
        printf(" a call failed: %s\n", mcd_data_error(s->d));
        return 1;
    }
    p->peer_read(s);
    const double diff = bench_peer_difference(s->out, s->peer_out, p->n);
    if (!(diff <= BENCH_PEER_TOLERANCE)) {
        printf(" cross-check failed: relative difference %.3g > %.0e, not timed\n", diff,
               BENCH_PEER_TOLERANCE);
        return 1;
    }
    bench_spread ours, peer, ratio;
    if (bench_time_pair_us(p->ours, s, p->peer, s, samples, &ours, &peer, &ratio)) {
        printf(" a timed call failed\n");
        return 1;
    }
    printf(" %9.3f [%7.3f, %7.3f] %-7s %9.3f [%7.3f, %7.3f] %7.3f %8.1e\n", ours.median, ours.min,
           ours.max, p->peer_name, peer.median, peer.min, peer.max, ratio.median, diff);
    fflush(stdout);
    return 0;
}

#if defined(MCDYN_HAVE_BULLET_DYNAMICS)
static int call_bullet(void *ctx)
{
    peer_state *s = ctx;
    bench_bullet_forward_dynamics(s->peer, s->q, s->qd, s->tau, s->peer_out);
    return 0;
}

static void read_nothing(peer_state *s)
{
    (void)s;
}

int bench_peers_bullet(const char *label, const mcd_model *m, int samples)
{
    peer_state s;
    if (peer_state_make(&s, m, label)) return 1;
    char msg[256] = "";
    bench_bullet_link *links = malloc(sizeof *links * (size_t)(m->nbody > 0 ? m->nbody : 1));
    bench_bullet_multibody *b = NULL;
    int failed = !links || bench_bullet_links_from_model(m, links, msg, sizeof msg) ||
                 bench_bullet_make(links, m->nbody, &b, msg, sizeof msg);
    free(links);
    if (failed) {
        printf("%-32s Bullet cannot take the model: %s\n", label, msg);
    } else {
        s.peer = b;
        const peer_pair p = {"fwd.dyn",   "Bullet",     call_forward_dynamics,
                             call_bullet, read_nothing, m->nv};
        failed = time_pair(label, &s, &p, samples);
    }
    bench_bullet_free(b);
    peer_state_free(&s);
    return failed;
}
#else
int bench_peers_bullet(const char *label, const mcd_model *m, int samples)
{
    (void)m, (void)samples;
    printf("%-32s skipped: built without Bullet's dynamics library (BulletDynamics-float64)\n",
           label);
    return 0;
}
#endif

#if defined(MCDYN_HAVE_MUJOCO)
static int call_mujoco_forward(void *ctx)
{
    bench_mujoco_forward_dynamics(((peer_state *)ctx)->peer);
    return 0;
}

static int call_mujoco_inverse(void *ctx)
{
    bench_mujoco_inverse_dynamics(((peer_state *)ctx)->peer);
    return 0;
}

static int call_mujoco_mass_matrix(void *ctx)
{
    bench_mujoco_mass_matrix(((peer_state *)ctx)->peer);
    return 0;
}

static void read_qdd(peer_state *s)
{
    bench_mujoco_get_qdd(s->peer, s->peer_out);
}
static void read_tau(peer_state *s)
{
    bench_mujoco_get_tau(s->peer, s->peer_out);
}
static void read_mass_matrix(peer_state *s)
{
    bench_mujoco_get_mass_matrix(s->peer, s->peer_out);
}

int bench_peers_mujoco(const char *label, const char *path, int floating_base, const mcd_model *m,
                       int samples)
{
    peer_state s;
    if (peer_state_make(&s, m, label)) return 1;
    char msg[1024] = "";
    bench_mujoco_robot *r = NULL;
    int failed = bench_mujoco_robot_load(path, floating_base, 0.0, m, &r, msg, sizeof msg);
    if (failed) {
        printf("%-32s MuJoCo cannot take the model: %s\n", label, msg);
    } else {
        s.peer = r;
        bench_mujoco_set_state(r, s.q, s.qd, s.qdd, s.tau);
        const int nv = m->nv;
        const peer_pair pairs[] = {
            {"fwd.dyn", "MuJoCo", call_forward_dynamics, call_mujoco_forward, read_qdd, nv},
            {"inv.dyn", "MuJoCo", call_inverse_dynamics, call_mujoco_inverse, read_tau, nv},
            {"M(q)", "MuJoCo", call_mass_matrix, call_mujoco_mass_matrix, read_mass_matrix,
             nv * nv},
        };
        for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
            failed |= time_pair(label, &s, &pairs[i], samples);
    }
    bench_mujoco_robot_free(r);
    peer_state_free(&s);
    return failed;
}
#else
int bench_peers_mujoco(const char *label, const char *path, int floating_base, const mcd_model *m,
                       int samples)
{
    (void)path, (void)floating_base, (void)m, (void)samples;
    printf("%-32s skipped: built without MuJoCo (libmujoco-dev)\n", label);
    return 0;
}
#endif

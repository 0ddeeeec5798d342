/* A robot's MuJoCo twin for the dynamics benchmarks (bench_mujoco_robot.h). */
#include "bench_mujoco_robot.h"

#include <mujoco/mujoco.h>

#include <stdio.h>
#include <stdlib.h>

#include "coordinate_map.h"
#include "mujoco_urdf.h"

#define MAX_POINTS 16

struct bench_mujoco_robot {
    mjModel *m;
    mjData *d;
    coordinate_map map;
    mjtNum *result; /* nv: qacc of the forward dynamics, or tau of the inverse */
    mjtNum *bias;   /* nv: C(q, qd) */
    mjtNum *M;      /* nv x nv, MuJoCo's order */
    mjtNum *J, *X;  /* 3K x nv */
    mjtNum *Lambda; /* 3K x 3K */
    int K, body[MAX_POINTS];
    mjtNum x[3 * MAX_POINTS];
};

void bench_mujoco_robot_free(bench_mujoco_robot *r)
{
    if (!r) return;
    coordinate_map_free(&r->map);
    mj_deleteData(r->d);
    mj_deleteModel(r->m);
    free(r->result);
    free(r);
}

static int allocate(bench_mujoco_robot *r)
{
    const size_t nv = (size_t)r->m->nv, rows = 3 * MAX_POINTS;
    r->result = malloc(sizeof(mjtNum) * (2 * nv + nv * nv + 2 * rows * nv + rows * rows));
    if (!r->result) return -1;
    r->bias = r->result + nv;
    r->M = r->bias + nv;
    r->J = r->M + nv * nv;
    r->X = r->J + rows * nv;
    r->Lambda = r->X + rows * nv;
    return 0;
}

int bench_mujoco_robot_load(const char *path, int floating_base, double mass_floor,
                            const mcd_model *m, bench_mujoco_robot **out, char *msg, int msglen)
{
    *out = NULL;
    bench_mujoco_robot *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(msg, (size_t)msglen, "out of memory");
        return -1;
    }
    mujoco_urdf_options opt = {floating_base, mass_floor};
    r->m = mujoco_load_urdf(path, &opt, msg, msglen);
    int status = r->m ? 0 : -1;
    if (status == 0) {
        r->m->opt.disableflags |= mjDSBL_PASSIVE | mjDSBL_CONSTRAINT;
        r->d = mj_makeData(r->m);
        status = r->d ? coordinate_map_make(&r->map, m, r->m, msg, msglen) : -1;
    }
    if (status == 0 && allocate(r) != 0) {
        snprintf(msg, (size_t)msglen, "out of memory");
        status = -1;
    }
    if (status != 0) {
        bench_mujoco_robot_free(r);
        return -1;
    }
    *out = r;
    return 0;
}

void bench_mujoco_set_state(bench_mujoco_robot *r, const double *q, const double *qd,
                            const double *qdd, const double *tau)
{
    const coordinate_map *map = &r->map;
    mjData *d = r->d;
    for (int i = 0; i < map->nq; i++) d->qpos[map->qpos[i]] = q[i];
    for (int i = 0; i < map->nv; i++) {
        d->qvel[map->dof[i]] = qd[i];
        if (qdd) d->qacc[map->dof[i]] = qdd[i];
        if (tau) d->qfrc_applied[map->dof[i]] = tau[i];
    }
}

void bench_mujoco_forward_dynamics(bench_mujoco_robot *r)
{
    const mjModel *m = r->m;
    mjData *d = r->d;
    mj_kinematics(m, d);
    mj_comPos(m, d);
    mj_crb(m, d);
    mj_factorM(m, d);
    mj_comVel(m, d);
    mj_rne(m, d, 0, r->bias);
    mju_sub(r->bias, d->qfrc_applied, r->bias, m->nv); /* tau - C */
    mj_solveM(m, d, r->result, r->bias, 1);
}

void bench_mujoco_inverse_dynamics(bench_mujoco_robot *r)
{
    const mjModel *m = r->m;
    mjData *d = r->d;
    mj_kinematics(m, d);
    mj_comPos(m, d);
    mj_comVel(m, d);
    mj_rne(m, d, 1, r->result); /* M qacc + C */
}

void bench_mujoco_mass_matrix(bench_mujoco_robot *r)
{
    const mjModel *m = r->m;
    mjData *d = r->d;
    mj_kinematics(m, d);
    mj_comPos(m, d);
    mj_crb(m, d);
    mj_fullM(m, r->M, d->qM);
}

static void get_vector(const bench_mujoco_robot *r, double *v)
{
    for (int i = 0; i < r->map.nv; i++) v[i] = r->result[r->map.dof[i]];
}

void bench_mujoco_get_qdd(const bench_mujoco_robot *r, double *qdd)
{
    get_vector(r, qdd);
}

void bench_mujoco_get_tau(const bench_mujoco_robot *r, double *tau)
{
    get_vector(r, tau);
}

void bench_mujoco_get_mass_matrix(const bench_mujoco_robot *r, double *M)
{
    const int nv = r->map.nv;
    const int *dof = r->map.dof;
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < nv; j++) M[i * nv + j] = r->M[dof[i] * nv + dof[j]];
}

int bench_mujoco_set_points(bench_mujoco_robot *r, const mcd_model *m, int K, const int *body,
                            const double *x, char *msg, int msglen)
{
    if (K < 1 || K > MAX_POINTS) {
        snprintf(msg, (size_t)msglen, "%d points (1 to %d)", K, MAX_POINTS);
        return -1;
    }
    for (int k = 0; k < K; k++) {
        const char *name = m->body_name[body[k]];
        r->body[k] = mj_name2id(r->m, mjOBJ_BODY, name);
        if (r->body[k] < 0) {
            snprintf(msg, (size_t)msglen, "MuJoCo has no body '%s'", name);
            return -1;
        }
        mju_copy3(&r->x[3 * k], &x[3 * k]);
    }
    r->K = K;
    return 0;
}

void bench_mujoco_compliance(bench_mujoco_robot *r)
{
    const mjModel *m = r->m;
    mjData *d = r->d;
    const int nv = m->nv, rows = 3 * r->K;
    mj_kinematics(m, d);
    mj_comPos(m, d);
    mj_crb(m, d);
    mj_factorM(m, d);
    for (int k = 0; k < r->K; k++) mj_jac(m, d, r->J + 3 * k * nv, NULL, &r->x[3 * k], r->body[k]);
    mj_solveM2(m, d, r->X, r->J, rows);
    mju_mulMatMatT(r->Lambda, r->X, r->X, rows, nv, rows);
}

void bench_mujoco_get_compliance(const bench_mujoco_robot *r, double *Lambda)
{
    const int n = 3 * r->K;
    for (int i = 0; i < n * n; i++) Lambda[i] = r->Lambda[i];
}

/* Per-simulation workspace (include/mcdyn/data.h). All memory is taken here,
 * once; the algorithms never allocate. */
#include "mcdyn/data.h"
#include "mcdyn/osc.h"
#include "osc_internal.h"
#include "closure_internal.h"
#include "dynamics_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

mcd_status mcd_data_create(const mcd_model *m, mcd_data **out, mcd_error *err)
{
    if (!m || !out) return mcd_fail(err, MCD_ERR_ARG, "mcd_data_create: NULL argument");
    *out = NULL;
    mcd_data *d = calloc(1, sizeof *d);
    if (!d) return mcd_fail(err, MCD_ERR_NOMEM, "out of memory creating data");
    d->model = m;
    size_t nb = (size_t)(m->nbody > 0 ? m->nbody : 1);
    size_t nq = (size_t)(m->nq > 0 ? m->nq : 1), nv = (size_t)(m->nv > 0 ? m->nv : 1);
    /* one cache-line-aligned block per body */
    size_t bytes = nb * sizeof(mcd_body_data);
    bytes = (bytes + 63) / 64 * 64;
    d->bd = aligned_alloc(64, bytes);
    d->Hstar = calloc(6 * nv, sizeof *d->Hstar);
    d->G = calloc(6 * nv, sizeof *d->G);
    d->Dinv = calloc(6 * nv, sizeof *d->Dinv); /* n x n <= 6 n per hinge */
    d->nu = calloc(nv, sizeof *d->nu);
    d->R = calloc(nb, sizeof *d->R);
    d->f = calloc(6 * nb, sizeof *d->f);
    size_t plan_bytes = (nb * sizeof *d->plan + 63) / 64 * 64;
    d->plan = aligned_alloc(64, plan_bytes); /* two cache lines per body */
    d->q = calloc(nq, sizeof *d->q);
    d->qd = calloc(nv, sizeof *d->qd);
    d->tmp_nv = calloc(nv, sizeof *d->tmp_nv);
    d->tmp_nv2 = calloc(nv, sizeof *d->tmp_nv2);
    if (!d->bd || !d->Hstar || !d->G || !d->Dinv || !d->nu || !d->R || !d->f || !d->plan || !d->q ||
        !d->qd || !d->tmp_nv || !d->tmp_nv2) {
        mcd_data_free(d);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory creating data");
    }
    memset(d->bd, 0, bytes);
    memset(d->plan, 0, plan_bytes);
    mcd_data_plan(m, d->plan);
    int *free_slots = malloc(nb * sizeof *free_slots);
    if (free_slots) {
        int nslot = mcd_aba_plan_slots(m, d->plan, free_slots);
        d->P = calloc((size_t)(nslot > 0 ? nslot : 1), sizeof *d->P);
    }
    free(free_slots);
    if (!d->P) {
        mcd_data_free(d);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory creating data");
    }
    d->use_avx2 = mcd_avx2_available();
    mcd_status s = mcd_osc_reserve(d, MCD_OSC_DEFAULT_CAPACITY);
    if (s == MCD_OK) s = mcd_closure_ws_create(d);
    if (s != MCD_OK) {
        mcd_data_free(d);
        return mcd_fail(err, s, "out of memory creating data");
    }
    mcd_model_neutral(m, d->q);
    mcd_error_clear(&d->err);
    *out = d;
    return MCD_OK;
}

int mcd_avx2_available(void)
{
#if MCD_HAVE_AVX2_PATH
    return __builtin_cpu_supports("avx2") && !getenv("MCDYN_PORTABLE");
#else
    return 0;
#endif
}

void mcd_data_free(mcd_data *d)
{
    if (!d) return;
    mcd_osc_release(d);
    mcd_closure_ws_free(d);
    free(d->bd);
    free(d->Hstar);
    free(d->G);
    free(d->Dinv);
    free(d->nu);
    free(d->P);
    free(d->R);
    free(d->f);
    free(d->plan);
    free(d->q);
    free(d->qd);
    free(d->tmp_nv);
    free(d->tmp_nv2);
    free(d);
}

const char *mcd_data_error(const mcd_data *d)
{
    return d ? d->err.msg : "";
}

void mcd_osc_release(mcd_data *d)
{
    mcd_osc_ws *w = d ? d->osc : NULL;
    if (!w) return;
    free(w->Omega), free(w->key_slot), free(w->marked), free(w->nbranch), free(w->path);
    free(w->slot_body), free(w->slot_parent), free(w->Psi_seg);
    free(w->chain_len), free(w->chain_slot), free(w->chain_Psi), free(w->chain_OmegaZ);
    free(w->chain_OmegaZ_made), free(w->points);
    free(w);
    d->osc = NULL;
}

mcd_status mcd_osc_reserve(mcd_data *d, int capacity)
{
    if (!d || capacity < 1) return MCD_ERR_ARG;
    const mcd_model *m = d->model;
    const size_t max_blocks = SIZE_MAX / (36 * sizeof(double));
    int depth_of_model = m->max_depth > 0 ? m->max_depth : 1;
    /* The largest arrays hold 36 doubles per chain entry (capacity x depth):
     * their byte counts must fit in size_t. */
    if ((size_t)capacity > max_blocks / (size_t)depth_of_model)
        return mcd_fail(&d->err, MCD_ERR_NOMEM, "%d points of depth %d: workspace size overflows",
                        capacity, depth_of_model);
    mcd_osc_release(d);
    mcd_osc_ws *w = calloc(1, sizeof *w);
    if (!w) return mcd_fail(&d->err, MCD_ERR_NOMEM, "out of memory reserving %d points", capacity);
    d->osc = w;
    size_t nb = (size_t)(m->nbody > 0 ? m->nbody : 1), nslot = 2 * (size_t)capacity;
    w->capacity = capacity;
    /* A chain has at most 2 capacity - 1 segments (in 64 bits: capacity may be INT_MAX). */
    long long chain_bound = 2LL * capacity - 1;
    w->max_chain = depth_of_model < chain_bound ? depth_of_model : (int)chain_bound;
    size_t nchain = (size_t)capacity * (size_t)w->max_chain;
    w->Omega = malloc(36 * nb * sizeof *w->Omega);
    w->key_slot = malloc(nb * sizeof *w->key_slot);
    w->marked = calloc(nb, sizeof *w->marked); /* zero between calls (osc_compliance.c) */
    w->nbranch = calloc(nb, sizeof *w->nbranch);
    w->path = malloc(nb * sizeof *w->path);
    w->slot_body = malloc(nslot * sizeof *w->slot_body);
    w->slot_parent = malloc(nslot * sizeof *w->slot_parent);
    w->Psi_seg = malloc(36 * nslot * sizeof *w->Psi_seg);
    w->chain_len = malloc((size_t)capacity * sizeof *w->chain_len);
    w->chain_slot = malloc(nchain * sizeof *w->chain_slot);
    w->chain_Psi = malloc(36 * nchain * sizeof *w->chain_Psi);
    w->chain_OmegaZ = malloc(36 * nchain * sizeof *w->chain_OmegaZ);
    w->chain_OmegaZ_made = malloc(nchain);
    w->points = malloc((size_t)capacity * sizeof *w->points);
    for (size_t k = 0; w->key_slot && k < nb; k++) w->key_slot[k] = -1;
    if (!w->Omega || !w->key_slot || !w->marked || !w->nbranch || !w->path || !w->slot_body ||
        !w->slot_parent || !w->Psi_seg || !w->chain_len || !w->chain_slot || !w->chain_Psi ||
        !w->chain_OmegaZ || !w->chain_OmegaZ_made || !w->points) {
        mcd_osc_release(d);
        return mcd_fail(&d->err, MCD_ERR_NOMEM, "out of memory reserving %d points", capacity);
    }
    return MCD_OK;
}

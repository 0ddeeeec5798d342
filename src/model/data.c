/* Per-simulation workspace (include/mcdyn/data.h). All memory is taken here,
 * once; the algorithms never allocate. */
#include "mcdyn/data.h"

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
    d->S = calloc(6 * nv, sizeof *d->S);
    d->U = calloc(6 * nv, sizeof *d->U);
    d->q = calloc(nq, sizeof *d->q);
    d->qd = calloc(nv, sizeof *d->qd);
    d->tmp_nv = calloc(nv, sizeof *d->tmp_nv);
    d->tmp_nv2 = calloc(nv, sizeof *d->tmp_nv2);
    if (!d->bd || !d->S || !d->U || !d->q || !d->qd || !d->tmp_nv || !d->tmp_nv2) {
        mcd_data_free(d);
        return mcd_fail(err, MCD_ERR_NOMEM, "out of memory creating data");
    }
    memset(d->bd, 0, bytes);
    mcd_model_neutral(m, d->q);
    mcd_error_clear(&d->err);
    *out = d;
    return MCD_OK;
}

void mcd_data_free(mcd_data *d)
{
    if (!d) return;
    free(d->bd);
    free(d->S);
    free(d->U);
    free(d->q);
    free(d->qd);
    free(d->tmp_nv);
    free(d->tmp_nv2);
    free(d);
}

const char *mcd_data_error(const mcd_data *d) { return d ? d->err.msg : ""; }

/* Input validation for the dynamics algorithms: NaN/Inf and non-unit
 * quaternions are reported, never propagated. */
#include "dynamics_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

mcd_status mcd_check_state(const mcd_model *m, mcd_data *d, const double *q)
{
    if (!m || !d) return MCD_ERR_ARG;
    if (d->model != m) return mcd_fail(&d->err, MCD_ERR_ARG, "data was made for another model");
    return mcd_model_check_q(m, q, &d->err);
}

/* 1 if all n entries are finite: x * 0 is 0 for finite x and NaN otherwise;
 * a flat, vectorizable scan for the common case. */
static int all_finite(const double *v, int n)
{
    double acc = 0.0;
    for (int i = 0; i < n; i++) acc += v[i] * 0.0;
    return acc == 0.0;
}

mcd_status mcd_check_vector_nv(const mcd_model *m, mcd_data *d, const char *what, const double *v)
{
    if (!v) return mcd_fail(&d->err, MCD_ERR_ARG, "%s is NULL", what);
    if (all_finite(v, m->nv)) return MCD_OK;
    for (int k = 0; k < m->nbody; k++) {
        const mcd_body *B = &m->body[k];
        for (int i = 0; i < B->nv; i++)
            if (!isfinite(v[B->vadr + i]))
                return mcd_fail(&d->err, MCD_ERR_NONFINITE, "%s[%d] (joint '%s') is not finite",
                                what, B->vadr + i, m->joint_name[k]);
    }
    return MCD_OK;
}

mcd_status mcd_check_fext(const mcd_model *m, mcd_data *d, const double *f_ext)
{
    if (!f_ext || all_finite(f_ext, 6 * m->nbody)) return MCD_OK;
    for (int k = 0; k < 6 * m->nbody; k++)
        if (!isfinite(f_ext[k]))
            return mcd_fail(&d->err, MCD_ERR_NONFINITE,
                            "f_ext on body '%s' (entry %d) is not finite", m->body_name[k / 6],
                            k % 6);
    return MCD_OK;
}

void mcd_warn(mcd_data *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->warn.msg, sizeof d->warn.msg, fmt, ap);
    va_end(ap);
    d->warn.status = MCD_OK;
    d->warn_count++;
}

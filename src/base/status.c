/* Status codes and error messages (include/mcdyn/status.h). */
#include "mcdyn/status.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const status_text[MCD_STATUS_COUNT] = {
    [MCD_OK] = "ok",
    [MCD_ERR_ARG] = "invalid argument",
    [MCD_ERR_NOMEM] = "out of memory",
    [MCD_ERR_MODEL] = "invalid model",
    [MCD_ERR_NONFINITE] = "non-finite value",
    [MCD_ERR_IO] = "i/o error",
    [MCD_ERR_PARSE] = "parse error",
    [MCD_ERR_UNSUPPORTED] = "unsupported",
    [MCD_ERR_SINGULAR] = "singular matrix",
    [MCD_ERR_NOT_CONVERGED] = "not converged",
    [MCD_ERR_CAPACITY] = "capacity exceeded",
    [MCD_ERR_INFEASIBLE] = "infeasible",
};

const char *mcd_status_str(mcd_status s)
{
    if ((int)s < 0 || s >= MCD_STATUS_COUNT) return "unknown status";
    return status_text[s];
}

mcd_status mcd_fail(mcd_error *err, mcd_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}

void mcd_error_clear(mcd_error *err)
{
    if (err) {
        err->status = MCD_OK;
        err->msg[0] = '\0';
    }
}

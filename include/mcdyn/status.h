/* mcdyn — status codes and error messages.
 *
 * Every public function returns an mcd_status. Functions that have an
 * mcd_data report details in mcd_data.err; functions without one (builder,
 * loaders, solvers) take an optional mcd_error* that receives the message.
 * The library never prints, exits or aborts.
 */
#ifndef MCDYN_STATUS_H
#define MCDYN_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mcd_status {
    MCD_OK = 0,
    MCD_ERR_ARG,           /* invalid argument (NULL, out of range, wrong size) */
    MCD_ERR_NOMEM,         /* allocation failed (only at creation time) */
    MCD_ERR_MODEL,         /* model violates a physical or structural rule */
    MCD_ERR_NONFINITE,     /* NaN or Inf in a state, input or parameter */
    MCD_ERR_IO,            /* file cannot be opened or read */
    MCD_ERR_PARSE,         /* file is malformed */
    MCD_ERR_UNSUPPORTED,   /* valid input this library does not handle */
    MCD_ERR_SINGULAR,      /* a matrix that must be invertible is not */
    MCD_ERR_NOT_CONVERGED, /* an iterative method stopped before its tolerance */
    MCD_ERR_CAPACITY,      /* a preallocated buffer is too small */
    MCD_ERR_INFEASIBLE,    /* the problem has no solution (detected, e.g. ray termination) */
    MCD_STATUS_COUNT
} mcd_status;

/* Short constant text for a status ("ok", "invalid argument", ...). */
const char *mcd_status_str(mcd_status s);

#define MCD_ERROR_LEN 512

/* An error message buffer. msg is "" when no error has been recorded. */
typedef struct mcd_error {
    mcd_status status;
    char msg[MCD_ERROR_LEN];
} mcd_error;

/* Records status and a printf-style message in err (err may be NULL) and
 * returns status, so that callers can write `return mcd_fail(err, ...)`. */
mcd_status mcd_fail(mcd_error *err, mcd_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Clears err (err may be NULL). */
void mcd_error_clear(mcd_error *err);

#ifdef __cplusplus
}
#endif
#endif

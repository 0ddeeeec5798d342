/* Private: the kinds of MLCP rows by their bounds (problem.h). */
#ifndef MCDYN_SOLVER_MLCP_ROWS_H
#define MCDYN_SOLVER_MLCP_ROWS_H

#include <math.h>

typedef enum mcd_mlcp_row {
    MCD_ROW_FREE,  /* lo = -inf, hi = +inf: w = 0 (equality row) */
    MCD_ROW_LOWER, /* lo finite, hi = +inf: z - lo >= 0 _|_ w >= 0 */
    MCD_ROW_UPPER, /* lo = -inf, hi finite: hi - z >= 0 _|_ -w >= 0 */
    MCD_ROW_BOX    /* both finite */
} mcd_mlcp_row;

static inline mcd_mlcp_row mcd_mlcp_row_kind(double lo, double hi)
{
    if (isinf(lo)) return isinf(hi) ? MCD_ROW_FREE : MCD_ROW_UPPER;
    return isinf(hi) ? MCD_ROW_LOWER : MCD_ROW_BOX;
}

#endif

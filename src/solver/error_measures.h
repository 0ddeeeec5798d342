/* Private: error measures shared by the solvers (the public ones are in
 * solver.h). */
#ifndef MCDYN_SOLVER_ERROR_MEASURES_H
#define MCDYN_SOLVER_ERROR_MEASURES_H

#include "mcdyn/problem.h"

/* mcd_mlcp_error with w = M z + q already computed. */
double mcd_mlcp_error_w(const mcd_mlcp *p, const double *z, const double *w);

#endif

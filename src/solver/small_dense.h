/* Private: the small dense kernels of the Levenberg-Marquardt step
 * (lm_projected.c), in plain C without LAPACK's per-call overhead: the
 * normal matrix and the stacked least-squares solution. The Cholesky
 * factorization they feed is the library's one small Cholesky,
 * base/small_cholesky.h, included here for this header's users (the LM
 * step and src/sim/sim_impact.c).
 *
 * Storage: row-major n x n, leading dimension n; the normal matrix's upper
 * triangle (j >= i) only. */
#ifndef MCDYN_SOLVER_SMALL_DENSE_H
#define MCDYN_SOLVER_SMALL_DENSE_H

#include "../base/small_cholesky.h"

/* The upper triangle of N = J^T J + lambda I for a row-major n x n J (rows
 * of J accumulated by contiguous axpys, zero entries of J skipped). */
void mcd_small_normal_matrix(int n, const double *J, double lambda, double *N);

/* The least-squares solution d of the stacked system
 *     [J; sqrt(lambda) I] d = [-top; sqrt(lambda) bottom]
 * (a NULL top or bottom standing for 0) for a row-major n x n J and
 * lambda > 0, by Householder QR (LAPACK's dgeqr2 reflectors, dlarfg's
 * convention) of the 2n x n stacked matrix, built column-major in A (2n x
 * n, leading dimension 2n), the right-hand side in rhs (2n). Reflector j
 * only meets rows j .. n + j, since the bottom rows below n + j are still
 * those of sqrt(lambda) I, zero in columns j and beyond. Returns 0 if R
 * has a zero diagonal entry (rank deficient), 1 otherwise. */
int mcd_small_stacked_least_squares(int n, const double *J, const double *top, const double *bottom,
                                    double lambda, double *A, double *rhs, double *d);

#endif

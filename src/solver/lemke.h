/* Private: Lemke's complementary pivoting method for the LCP
 *     omega = A zeta + b >= 0,  zeta >= 0,  omega . zeta = 0   (m unknowns)
 * with covering vector e = (1, ..., 1) and the lexicographic minimum-ratio
 * test (no cycling on degenerate problems). The basis inverse is kept
 * explicitly and updated in O(m^2) per pivot, or, on a large sparse LCP,
 * as KLU's factorization and the etas of the pivots since (the product
 * form, lemke_basis_lu.h), and refactorized by LU when
 * the measured error of the basic values grows (above a threshold and
 * well above its level right after the last LU); ties are judged against
 * that error (scale-aware, see lemke.c); at the end the basic values are
 * recomputed from an LU factorization of the final basis. Before a ray is
 * reported, its complementary neighbour (z0 replaced by the variable that
 * left last) is solved afresh with the true b and returned if its values
 * are >= 0 up to the shift limit below. A path that ends on a ray after
 * bound shifts beyond a limit is run again from the start with that limit
 * on the shifts. A path whose basis repeats (a cycle: bound shifts change
 * b) is run again from the start with the strict lexicographic ratio test
 * on a slightly perturbed b; a second repeat ends it. That strict path
 * also runs after a solution whose residual exceeds the rounding of the
 * bound shifts, and the point of smaller residual is kept. A ray whose
 * direction does not prove the LCP infeasible (Farkas: d >= 0, A^T d <= 0,
 * b^T d < 0) sends the strict path as well (lemke.c). */
#ifndef MCDYN_SOLVER_LEMKE_H
#define MCDYN_SOLVER_LEMKE_H

#include "lemke_basis_lu.h"
#include "mcdyn/status.h"

/* How warm starts ended (mcd_lemke with a guess; counters, incremented). */
typedef struct mcd_lemke_warm_ends {
    int at_start;  /* the guessed basis solved the LCP: no pivot */
    int by_path;   /* the warm path from it solved it */
    int fell_back; /* singular guess, a warm path that failed, or an inaccurate
                      point: the cold path ran */
} mcd_lemke_warm_ends;

typedef struct mcd_lemke_ws {
    double *Binv;      /* m x m, row-major: inverse of the current basis matrix (dense LU) */
    double *B;         /* m x m: the basis matrix (column-major) and its LU; with KLU, rows of
                          B^{-1} (lemke.c, tied_rows) */
    double *xB;        /* 2m: basic values, then the shifted right-hand side b' (lemke.c) */
    double *col;       /* m: B^{-1} times the entering column */
    double *tmp;       /* m */
    int *basis;        /* m: the variable basic in each row */
    int *ties;         /* m: rows tied in the ratio test */
    int *ipiv;         /* m */
    double *noise_x;   /* 2m: noise()'s scratch (lemke.c) */
    int *noise_col;    /* m: noise()'s scratch */
    int *noise_before; /* m: noise()'s scratch */
    double *cover;     /* m: the covering vector d, z0's column being -d (lemke.c) */
    int *refactors;    /* NULL, or incremented at each LU refactorization of the basis */
    mcd_lemke_warm_ends *warm_ends; /* NULL, or counts how warm starts ended */
    const double *basis_start;      /* NULL, or a first guess (m values, zeta_j basic where > 0):
                                       tried as it stands first, its warm path last (mcd_lemke) */

    int *sparse_factors; /* NULL, or incremented at each sparse (KLU) factorization of a basis */
    int dense_lu;        /* nonzero: the dense LU for every basis (tests, measurements) */
    mcd_lemke_basis_lu *sparse; /* set by mcd_lemke for the call (the caller's is ignored) */
} mcd_lemke_ws;

/* Solves the LCP into zeta (m). pivots receives the number of pivots of
 * every pass; max_pivots bounds each pass.
 * zeta_start (m values, or NULL: the cold path from {w} alone) guesses the
 * solution's basis: zeta_j basic where zeta_start_j > 0, else w_j. With
 * zeta_start, w->basis_start (if not NULL) is tried first: if its basis
 * solves the LCP as it stands, that is the answer (0 pivots); else the
 * zeta_start guess goes on as follows, and where its warm path does not
 * end on a solution, a warm path from w->basis_start's basis runs before
 * the cold path (the previous solution's exact basis, its degenerate
 * basic zeros included, is the better guess where the solution's basis
 * has not changed, and may be the worse start of a path where it has:
 * lemke.c, solved_from_guess). If that
 * basis is nonsingular and its point solves the LCP, it is returned with
 * 0 pivots; else its well-conditioned part (the zeta_j of a diagonally
 * pivoted elimination of A_PP, P the guessed set), if its point solves
 * the LCP, or else Lemke's path from it with the covering vector d = B e
 * (B its basis matrix). A point counts as a solution only if its residual
 * max_i |min(zeta_i, (A zeta + b)_i)| is <= 1e-10 max_i |b_i|. Any other
 * end (singular basis, ray, cycle, pivot cap, inaccurate point) runs the
 * cold path, pivots of both counted (lemke.c).
 * Returns MCD_OK, MCD_ERR_INFEASIBLE (ray termination: no admissible
 * pivot, the LCP has no solution when A is copositive-plus; a ray that
 * does not prove it is reported only after the strict path ends on one) or
 * MCD_ERR_NOT_CONVERGED (max_pivots reached, or the strict path cycled).
 * On failure zeta holds the zeta part of the current almost-complementary
 * basic point. On return w->basis holds the basis of the last path (row
 * i: w_v basic for v < m, zeta_{v-m} for m <= v < 2m, z0 for v = 2m), on
 * a solution the solution's basis ({w} when zeta = 0 solves the LCP).
 * Bases are factored by KLU (lemke_basis_lu.h) when m >
 * MCD_LEMKE_BASIS_LU_MIN_M and A is sparse (at most
 * MCD_LEMKE_BASIS_LU_MAX_FILL m^2 nonzero entries), unless w->dense_lu;
 * else by LAPACK's dgetrf. The sparse state is allocated once per call
 * (and KLU's objects at each factorization), so a call with m <=
 * MCD_LEMKE_BASIS_LU_MIN_M allocates nothing. */
mcd_status mcd_lemke(int m, const double *A, const double *b, const double *zeta_start,
                     int max_pivots, const mcd_lemke_ws *w, double *zeta, int *pivots);

#endif

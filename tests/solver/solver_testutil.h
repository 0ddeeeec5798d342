/* Helpers shared by the solver tests: a deterministic random generator,
 * problems with known solutions, and a direct check of Coulomb's law. */
#ifndef MCDYN_TESTS_SOLVER_TESTUTIL_H
#define MCDYN_TESTS_SOLVER_TESTUTIL_H

#include "mcdyn/problem_io.h"
#include "mcdyn/solver.h"

#include <stdint.h>

typedef struct tu_rng {
    uint64_t s;
} tu_rng;

/* Uniform in [a, b) (xorshift64*, reproducible across platforms). */
double tu_uniform(tu_rng *r, double a, double b);

/* M = B B^T / n + I + (C - C^T) / 2: positive definite, not symmetric, so
 * every LCP/MLCP with it has exactly one solution. */
void tu_pd_matrix(tu_rng *r, int n, double *M);
/* W = B B^T / n + shift I, symmetric positive definite. */
void tu_spd_matrix(tu_rng *r, int n, double shift, double *W);

/* Regimes of a constructed contact. */
enum { TU_STICK, TU_SLIP, TU_SEPARATE };

/* A frictional contact problem (allocated in p) whose solution is (r, u),
 * with regime[k] chosen for contact k and nb bilateral rows: W SPD, mu[k]
 * in [0.2, 0.8], q = u - W r. */
void tu_fc3d_with_solution(tu_rng *rng, int nc, int nb, const int *regime, mcd_fc3d *p, double *r,
                           double *u);

/* Largest violation of Coulomb's law (problem.h) by (r, u) with u = W r + q
 * recomputed: max over |u_b|, -r_n, -u_n, |r_n u_n|, |r_t| - mu r_n, and for
 * sliding contacts (|u_t| > slide_tol) |r_t + mu r_n u_t / |u_t||, and for
 * strictly sticking ones (|r_t| < mu r_n - slide_tol) |u_t|. */
double tu_coulomb_violation(const mcd_fc3d *p, const double *r, double slide_tol);

/* max_i |a_i - b_i| */
double tu_max_diff(int n, const double *a, const double *b);

/* The frictional-contact problem of tests/solver/data/FILE (Siconos
 * format, under $MCDYN_SOURCE); fails the test if it does not read or is
 * not an FC3D problem. Free it with mcd_problem_file_free. */
mcd_problem_file tu_read_fc3d_data(const char *file);

/* The LCP of tests/solver/data/FILE (an MLCP whose every row has bounds
 * [0, inf)) of n rows; fails the test otherwise. Free it with
 * mcd_problem_file_free. */
mcd_problem_file tu_read_lcp_data(const char *file, int n);

/* The frictional-contact problem of $MCDYN_SHARED/data/fc3d/FILE (Siconos
 * .dat or FCLIB .hdf5); fails the test if it does not read or is not an
 * FC3D problem. Free it with mcd_problem_file_free. */
mcd_problem_file tu_read_shared_fc3d(const char *file);

/* Lemke alone (mlcp-lemke, its default pivot cap, no fallback stage) on
 * the LCP of tests/solver/data/FILE of n rows: asserts MCD_OK in one
 * stage, z >= 0 and the residual tu_lcp_residual within mlcp-lemke's
 * documented tolerance. */
void tu_lemke_solves_alone(const char *file, int n);

/* ||min(z, w)||_2 / (1 + ||q||_2), w = M z + q: the natural-map residual
 * of an LCP (docs/solvers.md, "Error measures"), written out here rather
 * than taken from the library. */
double tu_lcp_residual(const mcd_mlcp *p, const double *z);

/* Unknowns in 1 x 1 blocks (bilateral rows, `singles`) then 3 x 3 blocks
 * (contacts): the partition of the sparse steps (lm_sparse.h,
 * sparse_lu.h). */
typedef struct tu_layout {
    int n, singles, blocks;
} tu_layout;

tu_layout tu_layout_make(int singles, int triples);
int tu_block_of(const tu_layout *l, int i);

/* Kinds of block pattern: groups of TU_GROUP blocks (4 contacts of a box),
 * a chain, a random graph of mean degree 3. */
enum { TU_BLOCK_DIAGONAL, TU_CHAIN, TU_RANDOM_GRAPH, TU_PATTERN_COUNT };
#define TU_GROUP 4

/* A block pattern (blocks x blocks, symmetric, diagonal set; malloc'ed). */
unsigned char *tu_block_pattern(tu_rng *rng, const tu_layout *l, int kind);

/* A random n x n row-major matrix on the block pattern B, with diagonal
 * dominance margin (row sums of |offdiagonal| + margin on the diagonal,
 * random sign): cond(J) stays around 10 whatever the pattern. */
void tu_patterned_matrix(tu_rng *rng, const tu_layout *l, const unsigned char *B, double margin,
                         double *J);

/* W symmetric on the block pattern B, positive definite by Gershgorin (each
 * diagonal entry exceeds its row's |offdiagonal| sum by 1/4): the contact
 * compliance's kind, with W's pattern exactly B. */
void tu_block_sparse_spd(tu_rng *rng, const tu_layout *l, const unsigned char *B, double *W);

/* A block-sparse frictional-contact problem (allocated in p) with known
 * solution (r, u): tu_fc3d_with_solution's contacts (regimes stick, slip,
 * separate in turn; l->singles bilateral rows) with W replaced by
 * tu_block_sparse_spd on B and q = u - W r, which keeps (r, u) a solution
 * since Coulomb's law does not involve W. */
void tu_block_sparse_fc3d(tu_rng *rng, const tu_layout *l, const unsigned char *B, mcd_fc3d *p,
                          double *r, double *u);

#endif

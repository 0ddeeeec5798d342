/* Private: the sparse LU factorization (KLU, SuiteSparse) of the basis
 * matrices of Lemke's method (lemke.c) on a block-sparse LCP, and the
 * product form of the pivots since (an eta file). A basis
 * matrix B of the tableau w - A zeta - d z0 = b has the columns e_j of
 * basic w_j, -A e_j of basic zeta_j and -d (the covering vector) of z0; on
 * the contact LCPs of piles (contacts that share no body give zero blocks
 * of A) it is sparse, and its dense LU (dgetrf, O(m^3)) and the explicit
 * B^{-1} rebuilt from it (dgetrs with m right-hand sides, O(m^3)) were a
 * third of Lemke's time (docs/solvers.md). Here B is assembled by columns
 * from A's nonzero entries (O(nnz(B))), ordered and factored by KLU
 * (BTF, AMD, partial pivoting). B^{-1} is never formed (a dense m x m
 * inverse, rebuilt in O(m nnz(L + U)) and updated in O(m^2) per pivot, was
 * the last dense part of Lemke's method on these problems): a pivot
 * appends an eta (the entering column's nonzero entries, O(m)), and
 * products with B^{-1} and B^{-T} are a sparse solve and the etas, O(nnz(L
 * + U) + nnz(etas)) (the revised simplex method's product form of the
 * inverse, Dantzig and Orchard-Hays 1954). The eta file takes at most m
 * etas and nnz(L + U) + m entries, within its room of
 * MCD_LEMKE_BASIS_LU_ETA_ROOM times nnz(A) + m; when it is full the
 * caller refactors.
 *
 * Pivoting: KLU's threshold partial pivoting with its tolerance set to 1
 * (Common.tol): in each column of a diagonal block of the block
 * triangular form the entry of largest magnitude (after KLU's row scaling
 * by the largest entry of each row) is the pivot, partial pivoting as in
 * dgetrf, on a column-permuted matrix. A basis is singular when KLU
 * reports KLU_SINGULAR: an exactly zero pivot or a structural rank below
 * m, the cases in which dgetrf reports info > 0 (lemke.c decides nothing
 * else from the LU: its noise estimate measures the accuracy).
 *
 * Allocation: mcd_lemke_basis_lu_create allocates A by columns, room
 * for a basis (nnz(A) + m entries: only z0's column is not a column of A
 * or of I) and the eta file once per solve; every factorization
 * (mcd_lemke_basis_lu_factor) allocates KLU's symbolic and numeric
 * objects, freeing the previous ones (the pattern changes with the
 * basis). Updates and solves allocate nothing. */
#ifndef MCDYN_SOLVER_LEMKE_BASIS_LU_H
#define MCDYN_SOLVER_LEMKE_BASIS_LU_H

typedef struct mcd_lemke_basis_lu mcd_lemke_basis_lu;

/* LCPs of more unknowns than this use the sparse LU (as sparse_lu.h). */
#define MCD_LEMKE_BASIS_LU_MIN_M 64
/* A may fill at most this fraction of m^2 (denser: the dense LU). */
#define MCD_LEMKE_BASIS_LU_MAX_FILL 0.3
/* Room of the eta file, in units of nnz(A) + m entries. */
#define MCD_LEMKE_BASIS_LU_ETA_ROOM 2

/* Per solve: the state for the m x m row-major A (O(m^2) scan), or NULL
 * when the dense LU is to be used: m <= MCD_LEMKE_BASIS_LU_MIN_M, A has
 * more than MCD_LEMKE_BASIS_LU_MAX_FILL m^2 nonzero entries, the sizes
 * overflow KLU's int indices, or memory runs out. */
mcd_lemke_basis_lu *mcd_lemke_basis_lu_create(int m, const double *A);

/* A by columns (CSC): column j's row indices Ai[Ap[j] .. Ap[j + 1] - 1]
 * and values Ax there, its nonzero entries in increasing row order. */
void mcd_lemke_basis_lu_columns(const mcd_lemke_basis_lu *s, const int **Ap, const int **Ai,
                                const double **Ax);

/* Frees the state (s may be NULL). */
void mcd_lemke_basis_lu_free(mcd_lemke_basis_lu *s);

/* Outcomes of a factorization. */
typedef enum mcd_lemke_basis_lu_status {
    MCD_LEMKE_BASIS_LU_FAILED = -1,  /* KLU failed otherwise (memory): no factorization */
    MCD_LEMKE_BASIS_LU_SINGULAR = 0, /* a zero pivot or a structural rank below m */
    MCD_LEMKE_BASIS_LU_OK = 1,
} mcd_lemke_basis_lu_status;

/* Factors the basis matrix whose column i is that of variable basis[i]
 * (lemke.c's numbering: w_j = j, zeta_j = m + j, z0 = 2m, whose column is
 * -cover) and empties the eta file. If it is not OK, the previous
 * factorization and its etas are kept. Solves below need one that was. */
mcd_lemke_basis_lu_status mcd_lemke_basis_lu_factor(mcd_lemke_basis_lu *s, const int *basis,
                                                    const double *cover);

/* Whether a factorization was ever OK (the solves below need one: then
 * KLU's solves cannot fail, they check their arguments only). */
int mcd_lemke_basis_lu_factored(const mcd_lemke_basis_lu *s);

/* The pivot on row r, a = B^{-1} times the entering column (m values, a_r
 * != 0): B^{-1} becomes E B^{-1} (the eta of r and a). Returns 0, changing
 * nothing, if the eta file is full. */
int mcd_lemke_basis_lu_update(mcd_lemke_basis_lu *s, int r, const double *a);

/* The number of etas since the last OK factorization. */
int mcd_lemke_basis_lu_updates(const mcd_lemke_basis_lu *s);

/* x = B^{-1} x in place (m values), B the current basis (the factored one
 * and the pivots since). */
void mcd_lemke_basis_lu_solve(mcd_lemke_basis_lu *s, double *x);

/* x = B^{-T} x in place (m values). */
void mcd_lemke_basis_lu_solve_transposed(mcd_lemke_basis_lu *s, double *x);

#endif

/* Private: the frictional contact problem (mcd_fc3d) as the nonsmooth
 * system of Todorov's parameterisation, Mylapilli & Jain Sec. 4:
 * Eq. (49)-(51) per contact, the residual Eq. (55)-(56), its Jacobian
 * Eq. (58) with dF_u/dz derived in docs/solvers.md (the table after
 * Eq. (59) is garbled in our copy of the paper).
 *
 * Ordering: the paper's contact variable is (z_f, z_o, z_n); here a contact
 * keeps Siconos' order (normal, t1, t2), i.e. (z_n, z_f, z_o), so
 * r_k = (F_n, F_f, F_o) and u_k = (nu_n, nu_f, nu_o).
 *
 * Units: Eq. (51), nu = F + z, adds velocities to impulses. The impulses
 * are therefore measured in units that make W dimensionless: r = a * rs
 * with a_k = 3 / trace(W_kk) for contact k and a_i = 1 / W_ii for a
 * bilateral row (1 where that is not positive). Coulomb's law is invariant
 * under this positive scaling, so (rs, nu) are Todorov's pair for the
 * problem (W diag(a), q); with W_kk = I it is the paper's formulation.
 * Unknown x = [p_b / a_b (nb); z (3 nc)]; r = [p_b; a_k F_u(z_k)]. */
#ifndef MCDYN_SOLVER_MNCP_TODOROV_H
#define MCDYN_SOLVER_MNCP_TODOROV_H

#include "mcdyn/problem.h"

/* One contact with friction coefficient mu: the impulse F(z) (Eq. 49-50,
 * order (n, t1, t2)) and, if dF is not NULL, its Jacobian dF/dz (3 x 3,
 * row-major, rows F_n, F_t1, F_t2, columns z_n, z_t1, z_t2). Regimes and the
 * element chosen on their borders:
 *   separation  z_n >= 0:               F = 0, dF = 0
 *   stick       |z_t| <= mu F_n, F_n > 0: F_t = -z_t
 *   slip        |z_t| >  mu F_n, F_n > 0: F_t = -mu F_n z_t / |z_t| */
void mcd_todorov_contact(double mu, const double z[3], double F[3], double dF[9]);

typedef struct mcd_mncp {
    const mcd_fc3d *p;
    const double *scale; /* n: the impulse units a (mcd_mncp_units) */
    double *r;           /* n: impulses r at the latest residual */
    double *u;           /* n: u = W r + q at the latest residual */
    double *dF;          /* 9 nc: the dF/dz blocks of the latest Jacobian */
} mcd_mncp;

/* The impulse units a (n) described above. */
void mcd_mncp_units(const mcd_fc3d *p, double *scale);

/* Phi(x) of Eq. (55)-(56) into phi: bilateral rows u_b, contact rows
 * u - (F_u(z) + z) (= nu computed from the dynamics minus nu of Eq. (51)).
 * ctx is an mcd_mncp. */
void mcd_mncp_residual(void *ctx, const double *x, double *phi);

/* mcd_fc3d_error(p, r, u) at x, which must be the x of the latest residual
 * call (its r and u are reused). */
double mcd_mncp_error(void *ctx, const double *x);

/* J = dPhi/dx of Eq. (58) (n x n, row-major) at x:
 * J = W diag(a) D - [0; D_u + I], D = diag(I, dF_1, ..., dF_nc). */
void mcd_mncp_jacobian(void *ctx, const double *x, double *J);

/* The x whose impulses are r when r solves the problem: x_b = r_b / a_b and
 * z = (W r + q) - r / a on the contact rows (Eq. 51). u_scratch (n)
 * receives W r + q. */
void mcd_mncp_start_from(const mcd_fc3d *p, const double *scale, const double *r, double *u_scratch,
                         double *x);

#endif

/* Private: NCP functions of Mylapilli & Jain Sec. 2.2 (Chen, Chen & Kanzow
 * 2000): Fischer-Burmeister Eq. (5) and penalized FB Eq. (8), with an
 * element of their generalized gradient (Eq. (45)-(47), scalar form).
 *
 * phi(a, b) = 0  <=>  a >= 0, b >= 0, a b = 0   (Eq. 4)
 */
#ifndef MCDYN_SOLVER_NCP_FUNCTIONS_H
#define MCDYN_SOLVER_NCP_FUNCTIONS_H

/* Fischer-Burmeister, Eq. (5): sqrt(a^2 + b^2) - a - b. Evaluated without
 * cancellation (rational form when a + b > 0) and without overflow. */
double mcd_ncp_fb(double a, double b);

/* Penalized FB, Eq. (8): lambda (-phi_FB(a, b)) + (1 - lambda) a_+ b_+,
 * lambda in (0, 1]; lambda = 1 gives -phi_FB. */
double mcd_ncp_pfb(double a, double b, double lambda);

/* An element (ga, gb) of the generalized gradient of mcd_ncp_pfb at (a, b).
 * Away from the kink (a, b) = (0, 0) it is the gradient, with the
 * derivative of a_+ b_+ taken as 0 where a = 0 or b = 0 (Eq. (47)). At the
 * kink it is the limit along the direction (da, db) != (0, 0), Eq. (45):
 *     ga = lambda (1 - da / |(da, db)|),  gb = lambda (1 - db / |(da, db)|),
 * the choice of De Luca, Facchinei & Kanzow used by Chen, Chen & Kanzow
 * (da = y_i = 1, db = grad f_i . y for an NCP row). */
void mcd_ncp_pfb_grad(double a, double b, double lambda, double da, double db, double *ga,
                      double *gb);

#endif

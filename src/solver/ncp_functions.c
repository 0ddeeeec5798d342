/* Fischer-Burmeister and penalized FB NCP functions (ncp_functions.h). */
#include "ncp_functions.h"

#include <math.h>

/* a + b - sqrt(a^2 + b^2) = -phi_FB(a, b). For a + b > 0 the identity
 * (a + b)^2 - (a^2 + b^2) = 2ab gives the cancellation-free 2ab / (a + b + r);
 * for a + b <= 0 both terms of the difference are <= 0. */
static double minus_fb(double a, double b)
{
    double r = hypot(a, b);
    double s = a + b;
    if (s > 0) return 2.0 * a * (b / (s + r));
    return s - r;
}

/* 1 - a / r with r = |(a, b)| > 0, without cancellation for a > 0:
 * (r - a) / r = b^2 / (r (r + a)). */
static double one_minus_ratio(double a, double b, double r)
{
    if (a > 0) return (b / r) * (b / (r + a));
    return 1.0 - a / r;
}

double mcd_ncp_fb(double a, double b)
{
    return -minus_fb(a, b);
}

double mcd_ncp_pfb(double a, double b, double lambda)
{
    double penalty = (a > 0 && b > 0) ? a * b : 0.0; /* a_+ b_+ */
    return lambda * minus_fb(a, b) + (1.0 - lambda) * penalty;
}

void mcd_ncp_pfb_grad(double a, double b, double lambda, double da, double db, double *ga,
                      double *gb)
{
    if (a == 0 && b == 0) { /* Eq. (45) */
        double rho = hypot(da, db);
        *ga = lambda * (1.0 - da / rho);
        *gb = lambda * (1.0 - db / rho);
        return;
    }
    double r = hypot(a, b); /* Eq. (46) inside the positive orthant, (47) elsewhere */
    *ga = lambda * one_minus_ratio(a, b, r) + (1.0 - lambda) * ((a > 0 && b > 0) ? b : 0.0);
    *gb = lambda * one_minus_ratio(b, a, r) + (1.0 - lambda) * ((a > 0 && b > 0) ? a : 0.0);
}

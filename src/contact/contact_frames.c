/* Contact frames (f, o, eta) and the MLCP friction directions (Mylapilli &
 * Jain, Sec. 3.1, Eq. 30-31). */
#include "contact_internal.h"

#include <math.h>

void mcd_contact_frame_from_normal(const double eta[3], double frame[9])
{
    /* f: the world x axis projected on the tangent plane (y when the normal
     * is within ~25 degrees of x), so that frames are fixed in the world */
    double ref[3] = {1, 0, 0};
    if (fabs(eta[0]) > 0.9) mcd_v3_set(ref, 0, 1, 0);
    double f[3], o[3];
    mcd_v3_copy(f, ref);
    mcd_v3_axpy(f, -mcd_v3_dot(ref, eta), eta);
    mcd_v3_scale(f, f, 1.0 / mcd_v3_norm(f));
    mcd_v3_cross(o, eta, f);
    for (int i = 0; i < 3; i++) {
        frame[i] = f[i];
        frame[3 + i] = o[i];
        frame[6 + i] = eta[i];
    }
}

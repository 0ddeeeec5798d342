/* A grid of independent free boxes resting on the plane z = 0, for the
 * capacity, grouping and timing tests: n unit-mass cubes of side
 * 2 SCENE_BOX_HALF (contact_scenes.h), box i at x = 2 i, and a contact
 * provider giving each box's bottom corners against the plane, as
 * scene_box_plane does for one box (within 1 cm, mu 0.5, restitution 0.3).
 * The provider reports the number it needs with MCD_ERR_CAPACITY. */
#ifndef MCDYN_TESTS_BOX_GRID_H
#define MCDYN_TESTS_BOX_GRID_H

#include "common/contact_scenes.h"

mcd_model *box_grid_model(int n);
/* q (7 n) of the boxes resting at height z0 above touching; qd = 0. */
void box_grid_rest(int n, double z0, double *q);
mcd_status box_grid_plane(void *user, const mcd_model *m, const mcd_data *d, const double *q,
                          mcd_contact_point *c, int capacity, int *n, mcd_error *err);

#endif

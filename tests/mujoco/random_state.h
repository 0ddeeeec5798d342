/* Reproducible random robot states for the cross-checks.
 *
 * Joint angles and displacements are uniform within the joint's position
 * limits; joints without limits (or with an empty range, lower >= upper,
 * which some URDFs write for unlimited joints) take angles uniform in
 * [-pi, pi] and displacements in [-1, 1] m. Quaternions are uniform over
 * the unit sphere; free-joint positions are uniform in [-1, 1]^3 m.
 */
#ifndef MCDYN_TESTS_RANDOM_STATE_H
#define MCDYN_TESTS_RANDOM_STATE_H

#include <stdint.h>

#include "mcdyn/model.h"

typedef struct random_stream {
    uint64_t state;
} random_stream;

void random_seed(random_stream *r, uint64_t seed);
/* Uniform in [lo, hi). */
double random_uniform(random_stream *r, double lo, double hi);
/* n entries uniform in [-scale, scale). */
void random_vector(random_stream *r, int n, double scale, double *v);
/* A valid configuration of m (m->nq entries). */
void random_configuration(random_stream *r, const mcd_model *m, double *q);

#endif

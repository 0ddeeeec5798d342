/* Test support: random models and states for identity tests. */
#ifndef MCDYN_TESTS_RANDOM_MODEL_H
#define MCDYN_TESTS_RANDOM_MODEL_H

#include "mcdyn/dynamics.h"

/* Deterministic uniform random numbers (xorshift64*). */
typedef struct test_rng {
    unsigned long long s;
} test_rng;
double test_uniform(test_rng *r, double lo, double hi);

/* Which hinge types a random tree may use. */
enum {
    TEST_TREE_REVOLUTE = 1,
    TEST_TREE_PRISMATIC = 2,
    TEST_TREE_SPHERICAL = 4,
    TEST_TREE_FREE_BASE = 8, /* the root is free-floating */
    TEST_TREE_BRANCHING = 16,
    TEST_TREE_FIXED = 32, /* some links fixed (merged) */
    TEST_TREE_ALL = 63
};

/* A random tree of n links with random origins, axes and physically valid
 * inertias. Returns NULL on failure (message printed by the test). */
mcd_model *test_random_tree(test_rng *r, int n, int flags);

/* A chain of n revolute links along -z, alternating x and y axes. */
mcd_model *test_revolute_chain(int n);

/* Random valid configuration (unit quaternions) and random vector. */
void test_random_q(test_rng *r, const mcd_model *m, double *q);
void test_random_vec(test_rng *r, double *v, int n, double scale);

/* max |a - b| / max(1, max |b|) */
double test_rel_err(const double *a, const double *b, int n);

#endif

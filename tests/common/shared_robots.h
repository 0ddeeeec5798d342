/* Test support: the robot models of ../shared/models (found through
 * MCDYN_SHARED, which tests/meson.build sets). */
#ifndef MCDYN_TESTS_SHARED_ROBOTS_H
#define MCDYN_TESTS_SHARED_ROBOTS_H

#include "mcdyn/model.h"

/* Loads example-robot-data/FILE with mimic joints ignored and inertias
 * balanced (mcd_urdf_options), a free-floating base if floating_base;
 * fails the running Check test on any error. */
mcd_model *test_load_robot(const char *file, int floating_base);

/* Loads models/PATH of the shared folder (e.g. "bullet3/humanoid.urdf")
 * with mimic joints ignored, a free-floating base if floating_base, the
 * inertias as the file gives them unless balance_inertia; fails the
 * running Check test on any error. */
mcd_model *test_load_shared_model(const char *path, int floating_base, int balance_inertia);

#endif

/* Test support: the shared robot models (shared_robots.h). */
#include "shared_robots.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "mcdyn/urdf.h"

mcd_model *test_load_robot(const char *file, int floating_base)
{
    const char *dir = getenv("MCDYN_SHARED");
    ck_assert_msg(dir != NULL, "MCDYN_SHARED is not set");
    char path[4096];
    snprintf(path, sizeof path, "%s/models/example-robot-data/%s", dir, file);
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.floating_base = floating_base;
    opt.ignore_mimic = 1;
    opt.balance_inertia = 1;
    mcd_model *m = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_urdf_load_file(path, &opt, &m, &err) == MCD_OK, "%s: %s", path, err.msg);
    return m;
}

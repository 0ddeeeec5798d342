/* Test support: the shared robot models (shared_robots.h). */
#include "shared_robots.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "mcdyn/urdf.h"

mcd_model *test_load_shared_model(const char *path, int floating_base, int balance_inertia)
{
    const char *dir = getenv("MCDYN_SHARED");
    ck_assert_msg(dir != NULL, "MCDYN_SHARED is not set");
    char full[4096];
    snprintf(full, sizeof full, "%s/models/%s", dir, path);
    mcd_urdf_options opt = mcd_urdf_default_options();
    opt.floating_base = floating_base;
    opt.ignore_mimic = 1;
    opt.balance_inertia = balance_inertia;
    mcd_model *m = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_urdf_load_file(full, &opt, &m, &err) == MCD_OK, "%s: %s", full, err.msg);
    return m;
}

mcd_model *test_load_robot(const char *file, int floating_base)
{
    char path[1024];
    snprintf(path, sizeof path, "example-robot-data/%s", file);
    return test_load_shared_model(path, floating_base, 1);
}

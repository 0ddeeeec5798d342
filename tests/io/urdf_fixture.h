/* Helpers shared by the URDF import tests. */
#ifndef MCDYN_TESTS_IO_URDF_FIXTURE_H
#define MCDYN_TESTS_IO_URDF_FIXTURE_H

#include "mcdyn/urdf.h"

#define FIXTURE_MAX_WARNINGS 64

/* Warnings received from the loader (the first FIXTURE_MAX_WARNINGS kept). */
typedef struct warnings {
    int count;
    char text[FIXTURE_MAX_WARNINGS][MCD_ERROR_LEN];
} warnings;

/* An mcd_urdf_warn_fn appending to the warnings passed as user. */
void warnings_collect(void *user, const char *msg);
/* Nonzero if some collected warning contains fragment. */
int warnings_contain(const warnings *w, const char *fragment);
/* Options with the given base and a warnings sink. */
mcd_urdf_options fixture_options(int floating_base, warnings *w);

/* $MCDYN_SHARED/models/<rel> and $MCDYN_SOURCE/<rel> (static buffers). */
const char *shared_model(const char *rel);
const char *source_file(const char *rel);

/* Sum of the <mass value="..."> of a URDF file, read without the loader. */
double urdf_file_mass_sum(const char *path);

/* Loads a string that must load; fails the test otherwise. */
mcd_model *load_string_ok(const char *xml, const mcd_urdf_options *opt);

/* Loads a string that must fail with status st and a message holding each
 * of the fragments (a NULL-terminated list). */
void expect_string_error(const char *xml, mcd_status st, ...);

#endif

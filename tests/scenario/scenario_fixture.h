/* Helpers shared by the scenario tests. */
#ifndef MCDYN_TESTS_SCENARIO_FIXTURE_H
#define MCDYN_TESTS_SCENARIO_FIXTURE_H

#include "mcdyn/scenario.h"

/* $MCDYN_SOURCE/tests/scenario/data (static buffer) and a file in it. */
const char *data_dir(void);
const char *data_file(const char *name);
/* $MCDYN_SOURCE/<rel> read whole (free with free). */
char *read_source_text(const char *rel);

/* Loads data/<name>, which must load. */
mcd_scenario *load_file_ok(const char *name);
/* Loads yaml (base directory: data/), which must load. */
mcd_scenario *load_string_ok(const char *yaml);

/* Loads yaml as "bad.yaml" (base directory: data/), which must fail with
 * status st and a message holding each of the fragments (NULL-terminated). */
void expect_error(const char *yaml, mcd_status st, ...);
/* As expect_error for the file data/<name>. */
void expect_file_error(const char *name, mcd_status st, ...);

#endif

/* Scenario files that must not load. Each case checks the status and that
 * the message names the file, the line and column, and the key path;
 * nothing crashes, leaks (run under the sanitizers) or prints. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check_main.h"
#include "scenario_fixture.h"

#define FOUR_BAR "robots:\n  - urdf: four_bar.urdf\n"

/* ---- files and YAML ------------------------------------------------------ */

START_TEST(missing_files)
{
    expect_file_error("no_such_scenario.yaml", MCD_ERR_IO, "data/no_such_scenario.yaml",
                      "cannot open", "No such file", NULL);
    expect_error("robots:\n  - urdf: nowhere.urdf\n", MCD_ERR_IO,
                 "bad.yaml:2:11: key 'robots[0].urdf': ", "data/nowhere.urdf: cannot open", NULL);
    expect_error(
        FOUR_BAR "environment:\n  - {name: t, type: mesh, file: nowhere.obj}\n", MCD_ERR_IO,
        "bad.yaml:4:33: key 'environment[0].file': ", "data/nowhere.obj: cannot open", NULL);
    mcd_scenario *s = NULL;
    mcd_error err;
    ck_assert_int_eq(mcd_scenario_load(data_dir(), &s, &err), MCD_ERR_IO);
    ck_assert_msg(strstr(err.msg, "cannot read") != NULL, "%s", err.msg);
}
END_TEST

START_TEST(malformed_yaml)
{
    expect_file_error("truncated.yaml", MCD_ERR_PARSE, "truncated.yaml:4:1: malformed YAML",
                      "did not find expected node content", NULL);
    expect_error("robots:\n  - urdf: \"four_bar.urdf\n", MCD_ERR_PARSE,
                 "bad.yaml:3:1: malformed YAML", "quoted scalar", NULL);
    expect_error("robots:\n  - urdf: a\n   prefix: b\n", MCD_ERR_PARSE,
                 "bad.yaml:3:", "malformed YAML", NULL);
    expect_error("a: \xff\n", MCD_ERR_PARSE, "bad.yaml: malformed YAML", "byte", NULL);
    expect_error("robots: []\n---\nrobots: []\n", MCD_ERR_PARSE,
                 "bad.yaml:2:1:", "more than one YAML document", NULL);
}
END_TEST

START_TEST(empty_input)
{
    expect_file_error("empty.yaml", MCD_ERR_PARSE, "data/empty.yaml: empty scenario", NULL);
    expect_file_error("comments_only.yaml", MCD_ERR_PARSE, "comments_only.yaml: empty scenario",
                      NULL);
    expect_error("---\n", MCD_ERR_PARSE, "bad.yaml: empty scenario", NULL);
    expect_error("just text\n", MCD_ERR_PARSE, "bad.yaml:1:1: expected a mapping, got 'just text'",
                 NULL);
    expect_error("name: x\n", MCD_ERR_PARSE, "bad.yaml:1:1: key 'robots': missing (required)",
                 NULL);
    expect_error("robots: []\n", MCD_ERR_PARSE, "bad.yaml:1:9: key 'robots': needs at least 1",
                 NULL);
}
END_TEST

START_TEST(unsupported_yaml)
{
    expect_error(FOUR_BAR "gravity: &g [0, 0, -1]\n", MCD_ERR_PARSE,
                 "bad.yaml:3:10:", "anchors (&g) are not supported", NULL);
    expect_error("x: &a 1\ny: *a\n", MCD_ERR_PARSE, "bad.yaml:1:4:", "anchors", NULL);
    expect_error("robots:\n  - urdf: !!str four_bar.urdf\n", MCD_ERR_PARSE,
                 "bad.yaml:2:11:", "tags (tag:yaml.org,2002:str) are not supported", NULL);
    expect_error("? [a, b]\n: 1\n", MCD_ERR_PARSE, "bad.yaml:1:3:", "keys must be scalars", NULL);
    char deep[400] = "";
    for (int i = 0; i < 70; i++) strcat(deep, "[");
    expect_error(deep, MCD_ERR_PARSE, "bad.yaml:1:", "nested deeper than 64", NULL);
    expect_error("a: \"x\\0y\"\n", MCD_ERR_PARSE, "bad.yaml:1:4:", "NUL", NULL);
}
END_TEST

/* ---- keys ---------------------------------------------------------------- */

START_TEST(unknown_keys)
{
    expect_error(FOUR_BAR "dtt: 0.1\n", MCD_ERR_PARSE, "bad.yaml:3:1: key 'dtt': unknown key",
                 "expected one of: name, gravity, robots", NULL);
    expect_error(FOUR_BAR "contact:\n  muu: 1\n", MCD_ERR_PARSE,
                 "bad.yaml:4:3: key 'contact.muu': unknown key", "mu, restitution", NULL);
    expect_error(FOUR_BAR "    based: floating\n", MCD_ERR_PARSE,
                 "bad.yaml:3:5: key 'robots[0].based': unknown key", NULL);
    expect_error(FOUR_BAR "contact: {penetration: {methd: none}}\n", MCD_ERR_PARSE,
                 "bad.yaml:3:25: key 'contact.penetration.methd'", NULL);
    expect_error(FOUR_BAR "environment: [{name: b, type: box, half_extents: [1, 1, 1], "
                          "radius: 1}]\n",
                 MCD_ERR_PARSE, "key 'environment[0].radius': unknown key",
                 "name, type, xyz, rpy, half_extents)", NULL);
    expect_error(FOUR_BAR "closures: [{name: c, type: ball, a: {link: crank, pos: [0, 0, 0]}, "
                          "b: {link: world}}]\n",
                 MCD_ERR_PARSE, "key 'closures[0].a.pos': unknown key", NULL);
    expect_error(FOUR_BAR "output: {csv: a.csv, png: a.png}\n", MCD_ERR_PARSE,
                 "bad.yaml:3:22: key 'output.png'", NULL);
    expect_error(FOUR_BAR "solver: {name: mncp-rlm, tolerance: 1}\n", MCD_ERR_PARSE,
                 "bad.yaml:3:26: key 'solver.tolerance'", NULL);
}
END_TEST

START_TEST(duplicate_keys)
{
    expect_error(FOUR_BAR "dt: 0.1\ndt: 0.2\n", MCD_ERR_PARSE,
                 "bad.yaml:4:1: key 'dt': duplicate key (first at line 3)", NULL);
    expect_error(FOUR_BAR "    q: {crank: 1, crank: 2}\n", MCD_ERR_PARSE,
                 "bad.yaml:3:19: key 'robots[0].q.crank': duplicate key", NULL);
}
END_TEST

START_TEST(missing_keys)
{
    expect_error("robots:\n  - prefix: a\n", MCD_ERR_PARSE,
                 "bad.yaml:2:5: key 'robots[0].urdf': missing (required)", NULL);
    expect_error(FOUR_BAR "closures:\n  - {name: c, a: {link: crank}, b: {link: world}}\n",
                 MCD_ERR_PARSE, "bad.yaml:4:5: key 'closures[0].type': missing", NULL);
    expect_error(FOUR_BAR "closures:\n  - {name: c, type: distance, a: {link: crank}, "
                          "b: {link: world}}\n",
                 MCD_ERR_PARSE, "key 'closures[0].length': missing", NULL);
    expect_error(FOUR_BAR "closures:\n  - {name: c, type: ball, a: {xyz: [0, 0, 0]}, "
                          "b: {link: world}}\n",
                 MCD_ERR_PARSE, "key 'closures[0].a.link': missing", NULL);
    expect_error(FOUR_BAR "environment:\n  - {name: s, type: sphere}\n", MCD_ERR_PARSE,
                 "bad.yaml:4:5: key 'environment[0].radius': missing", NULL);
    expect_error(FOUR_BAR "environment:\n  - {type: plane}\n", MCD_ERR_PARSE,
                 "key 'environment[0].name': missing", NULL);
    expect_error(FOUR_BAR "contact: {pairs: [{a: crank, mu: 1}]}\n", MCD_ERR_PARSE,
                 "key 'contact.pairs[0].b': missing", NULL);
}
END_TEST

/* ---- values -------------------------------------------------------------- */

START_TEST(wrong_types)
{
    expect_error(FOUR_BAR "dt: [1]\n", MCD_ERR_PARSE,
                 "bad.yaml:3:5: key 'dt': expected a number, got a sequence", NULL);
    expect_error(FOUR_BAR "dt: \"0.1\"\n", MCD_ERR_PARSE, "key 'dt': expected a number, got '0.1'",
                 NULL);
    expect_error(FOUR_BAR "dt: fast\n", MCD_ERR_PARSE, "key 'dt': expected a number, got 'fast'",
                 NULL);
    expect_error(FOUR_BAR "dt:\n", MCD_ERR_PARSE, "key 'dt': expected a number, got null", NULL);
    expect_error(FOUR_BAR "gravity: 9.81\n", MCD_ERR_PARSE,
                 "key 'gravity': expected a sequence of 3 numbers, got '9.81'", NULL);
    expect_error(FOUR_BAR "gravity: [0, -9.81]\n", MCD_ERR_PARSE,
                 "bad.yaml:3:10: key 'gravity': expected 3 numbers, got 2", NULL);
    expect_error(FOUR_BAR "gravity: [0, 0, x]\n", MCD_ERR_PARSE,
                 "bad.yaml:3:17: key 'gravity[2]': expected a number", NULL);
    expect_error("robots: {urdf: four_bar.urdf}\n", MCD_ERR_PARSE,
                 "key 'robots': expected a sequence, got a mapping", NULL);
    expect_error("robots: [four_bar.urdf]\n", MCD_ERR_PARSE,
                 "key 'robots[0]': expected a mapping, got 'four_bar.urdf'", NULL);
    expect_error(FOUR_BAR "contact: {self_collision: yes}\n", MCD_ERR_PARSE,
                 "key 'contact.self_collision': expected true or false, got 'yes'", NULL);
    expect_error(FOUR_BAR "contact: {directions: 4.0}\n", MCD_ERR_PARSE,
                 "key 'contact.directions': expected an integer, got '4.0'", NULL);
    expect_error(FOUR_BAR "    prefix:\n", MCD_ERR_PARSE,
                 "key 'robots[0].prefix': expected a string, got null", NULL);
    expect_error(FOUR_BAR "    q: [1, 2]\n", MCD_ERR_PARSE,
                 "key 'robots[0].q': expected a mapping, got a sequence", NULL);
    expect_error(FOUR_BAR "    q: {crank: [1]}\n", MCD_ERR_PARSE,
                 "key 'robots[0].q.crank': expected a number, got a sequence", NULL);
    expect_error(FOUR_BAR "output: {plot_columns: [a, [b]]}\n", MCD_ERR_PARSE,
                 "key 'output.plot_columns[1]': expected a string, got a sequence", NULL);
}
END_TEST

START_TEST(non_finite_numbers)
{
    expect_error(FOUR_BAR "dt: .nan\n", MCD_ERR_NONFINITE,
                 "bad.yaml:3:5: key 'dt': '.nan' is NaN, infinite or out of range", NULL);
    expect_error(FOUR_BAR "gravity: [0, 0, nan]\n", MCD_ERR_NONFINITE,
                 "bad.yaml:3:17: key 'gravity[2]': 'nan'", NULL);
    expect_error(FOUR_BAR "contact: {mu: .Inf}\n", MCD_ERR_NONFINITE, "key 'contact.mu'", NULL);
    expect_error(FOUR_BAR "duration: 1e999\n", MCD_ERR_NONFINITE, "key 'duration'", NULL);
    expect_error(FOUR_BAR "    position: [0, -inf, 0]\n", MCD_ERR_NONFINITE,
                 "key 'robots[0].position[1]'", NULL);
    expect_error(FOUR_BAR "    q: {crank: NaN}\n", MCD_ERR_NONFINITE, "key 'robots[0].q.crank'",
                 NULL);
}
END_TEST

START_TEST(out_of_range_values)
{
    expect_error(FOUR_BAR "dt: -0.001\n", MCD_ERR_ARG,
                 "bad.yaml:3:5: key 'dt': must be > 0 (got -0.001)", NULL);
    expect_error(FOUR_BAR "dt: 0\n", MCD_ERR_ARG, "key 'dt': must be > 0", NULL);
    expect_error(FOUR_BAR "dt: 0.01\nduration: 0.001\n", MCD_ERR_ARG,
                 "bad.yaml:4:11: key 'duration': must be >= dt (0.01)", NULL);
    expect_error(FOUR_BAR "dt: 2\n", MCD_ERR_ARG, "key 'dt': must be <= duration (1)", NULL);
    expect_error(FOUR_BAR "contact: {mu: -0.1}\n", MCD_ERR_ARG, "key 'contact.mu': must be >= 0",
                 NULL);
    expect_error(FOUR_BAR "contact: {restitution: 1.5}\n", MCD_ERR_ARG,
                 "key 'contact.restitution': must be in [0, 1] (got 1.5)", NULL);
    expect_error(FOUR_BAR "contact: {activation_distance: -1}\n", MCD_ERR_ARG,
                 "key 'contact.activation_distance'", NULL);
    expect_error(FOUR_BAR "contact: {resting_gap: -1e-9}\n", MCD_ERR_ARG,
                 "key 'contact.resting_gap': must be in [0, 0.001]", NULL);
    expect_error(FOUR_BAR "contact: {resting_gap: 0.01}\n", MCD_ERR_ARG,
                 "key 'contact.resting_gap': must be in [0, 0.001]", NULL);
    expect_error(FOUR_BAR "contact: {resting_gap: .nan}\n", MCD_ERR_NONFINITE,
                 "key 'contact.resting_gap'", NULL);
    expect_error(FOUR_BAR "contact: {directions: 2}\n", MCD_ERR_ARG,
                 "key 'contact.directions': must be >= 4", NULL);
    expect_error(FOUR_BAR "contact: {directions: 5}\n", MCD_ERR_ARG,
                 "key 'contact.directions': must be even", NULL);
    expect_error(FOUR_BAR "contact: {penetration: {gain: 2}}\n", MCD_ERR_ARG,
                 "key 'contact.penetration.gain'", NULL);
    /* the position step removes a fraction in (0, 1] of each depth */
    expect_error(FOUR_BAR "contact: {penetration: {gain: 0}}\n", MCD_ERR_ARG,
                 "key 'contact.penetration.gain': gain = 0: method position needs a gain in "
                 "(0, 1]",
                 NULL);
    expect_error(FOUR_BAR "contact: {penetration: {method: position, gain: -0.1}}\n", MCD_ERR_ARG,
                 "key 'contact.penetration.gain'", NULL);
    expect_error(FOUR_BAR "contact: {penetration: {method: position, gain: 1.01}}\n", MCD_ERR_ARG,
                 "key 'contact.penetration.gain': must be in [0, 1]", NULL);
    expect_error(FOUR_BAR "contact: {penetration: {method: position, max_velocity: -1}}\n",
                 MCD_ERR_ARG, "key 'contact.penetration.max_velocity'", NULL);
    expect_error(FOUR_BAR "contact: {pairs: [{a: crank, b: rocker, restitution: -1}]}\n",
                 MCD_ERR_ARG, "key 'contact.pairs[0].restitution'", NULL);
    expect_error(FOUR_BAR "solver: {pfb_lambda: 0}\n", MCD_ERR_ARG,
                 "key 'solver.pfb_lambda': must be in (0, 1]", NULL);
    expect_error(FOUR_BAR "solver: {max_iter: 0}\n", MCD_ERR_ARG,
                 "key 'solver.max_iter': must be >= 1 (got 0)", NULL);
    expect_error(FOUR_BAR "solver: {max_iter: 99999999999}\n", MCD_ERR_ARG,
                 "key 'solver.max_iter': '99999999999' is out of range", NULL);
    expect_error(FOUR_BAR "closure_tolerance: 0\n", MCD_ERR_ARG, "key 'closure_tolerance'", NULL);
    expect_error(FOUR_BAR "output: {every: 0}\n", MCD_ERR_ARG, "key 'output.every'", NULL);
    expect_error(FOUR_BAR "output: {csv: ''}\n", MCD_ERR_ARG, "key 'output.csv': must not be empty",
                 NULL);
    expect_error(FOUR_BAR "environment: [{name: b, type: box, half_extents: [1, 0, 1]}]\n",
                 MCD_ERR_ARG, "key 'environment[0].half_extents[1]': must be > 0", NULL);
    expect_error(FOUR_BAR "closures: [{name: r, type: distance, a: {link: crank}, "
                          "b: {link: world}, length: 0}]\n",
                 MCD_ERR_ARG, "key 'closures[0].length': must be > 0", NULL);
}
END_TEST

START_TEST(bad_choices)
{
    expect_error(FOUR_BAR "    base: floting\n", MCD_ERR_PARSE,
                 "bad.yaml:3:11: key 'robots[0].base': unknown value 'floting' (expected one of: "
                 "fixed, floating)",
                 NULL);
    expect_error(FOUR_BAR "integrator: rk4\n", MCD_ERR_PARSE,
                 "key 'integrator': unknown value 'rk4' (expected one of: euler, midpoint)", NULL);
    expect_error(FOUR_BAR "solver: {name: mncp-xyz}\n", MCD_ERR_PARSE,
                 "bad.yaml:3:16: key 'solver.name': unknown solver 'mncp-xyz'", "mncp-plm", NULL);
    expect_error(FOUR_BAR "solver: {on_failure: ignore}\n", MCD_ERR_PARSE,
                 "key 'solver.on_failure'", "stop, warn-and-continue", NULL);
    expect_error(FOUR_BAR "solver: {max_step_halvings: 11}\n", MCD_ERR_ARG,
                 "key 'solver.max_step_halvings'", "must be <= 10 (got 11)", NULL);
    expect_error(FOUR_BAR "solver: {max_step_halvings: -1}\n", MCD_ERR_ARG,
                 "key 'solver.max_step_halvings'", "must be >= 0", NULL);
    expect_error(FOUR_BAR "solver: {max_step_halvings: 2.5}\n", MCD_ERR_PARSE,
                 "key 'solver.max_step_halvings'", "an integer", NULL);
    expect_error(FOUR_BAR "contact: {direction_mode: random}\n", MCD_ERR_PARSE,
                 "key 'contact.direction_mode'", "aligned, fixed", NULL);
    expect_error(FOUR_BAR "contact: {penetration: {method: sideways}}\n", MCD_ERR_PARSE,
                 "key 'contact.penetration.method'", "none, velocity, position", NULL);
    expect_error(FOUR_BAR "closures: [{name: c, type: slider, a: {link: crank}, "
                          "b: {link: world}}]\n",
                 MCD_ERR_PARSE, "key 'closures[0].type': unknown value 'slider'",
                 "ball, hinge, weld, distance", NULL);
    expect_error(FOUR_BAR "environment: [{name: t, type: torus}]\n", MCD_ERR_PARSE,
                 "key 'environment[0].type': unknown value 'torus'",
                 "sphere, box, cylinder, capsule, plane, mesh", NULL);
}
END_TEST

/* ---- names --------------------------------------------------------------- */

START_TEST(unknown_joints)
{
    expect_error(FOUR_BAR "    q: {crank: 0.3, crnak: 1}\n", MCD_ERR_MODEL,
                 "bad.yaml:3:28: key 'robots[0].q.crnak': no moving joint of this robot is "
                 "named 'crnak'",
                 NULL);
    expect_error(FOUR_BAR "    qd: {coupler_tip: 1}\n", MCD_ERR_MODEL,
                 "key 'robots[0].qd.coupler_tip'", "fixed joints have no coordinates", NULL);
    /* joints are named without the robot's prefix, and only its own count */
    expect_error("robots:\n"
                 "  - {urdf: four_bar.urdf, prefix: l_}\n"
                 "  - {urdf: four_bar.urdf, prefix: r_, q: {l_crank: 1}}\n",
                 MCD_ERR_MODEL, "bad.yaml:3:52: key 'robots[1].q.l_crank'", NULL);
    expect_error("robots:\n  - {urdf: four_bar.urdf, prefix: l_, q: {l_crank: 1}}\n", MCD_ERR_MODEL,
                 "key 'robots[0].q.l_crank'", NULL);
}
END_TEST

START_TEST(wrong_coordinate_counts)
{
    expect_error("robots:\n  - {urdf: ball.urdf, base: floating, q: {ball: [0, 0, 0, 1]}}\n",
                 MCD_ERR_PARSE, "key 'robots[0].q.ball': expected 7 numbers, got 4", NULL);
    expect_error("robots:\n  - {urdf: ball.urdf, base: floating, qd: {ball: 1}}\n", MCD_ERR_PARSE,
                 "key 'robots[0].qd.ball': expected a sequence of 6 numbers", NULL);
}
END_TEST

START_TEST(non_unit_quaternion)
{
    expect_error("robots:\n"
                 "  - urdf: ball.urdf\n"
                 "    base: floating\n"
                 "    q: {ball: [0, 0, 0, 1, 0, 0, 1]}\n",
                 MCD_ERR_ARG,
                 "bad.yaml:4:15: key 'robots[0].q.ball': the quaternion [1, 0, 0, 1] is not a "
                 "unit quaternion (norm 1.41421356)",
                 NULL);
    expect_error("robots: [{urdf: ball.urdf, base: floating, q: {ball: [0, 0, 0, 0, 0, 0, 0]}}]",
                 MCD_ERR_ARG, "not a unit quaternion", NULL);
    expect_error("robots: [{urdf: ball.urdf, base: floating, q: {ball: [0, 0, 0, 1, 0, 0, 0.1]}}]",
                 MCD_ERR_ARG, "norm 1.00498756", NULL);
}
END_TEST

START_TEST(unknown_links)
{
    expect_error(FOUR_BAR "closures:\n"
                          "  - name: pin\n"
                          "    type: ball\n"
                          "    a: {link: coupler_tip}\n"
                          "    b: {link: rockr, xyz: [2, 0, 0]}\n",
                 MCD_ERR_MODEL, "bad.yaml:7:15: key 'closures[0].b.link': unknown link 'rockr'",
                 NULL);
    expect_error(FOUR_BAR "contact:\n  pairs:\n    - {a: crank, b: wal, mu: 1}\n", MCD_ERR_MODEL,
                 "bad.yaml:5:21: key 'contact.pairs[0].b': no link or environment entry is named "
                 "'wal'",
                 NULL);
    /* prefixed robots are addressed by their prefixed names */
    expect_error("robots: [{urdf: four_bar.urdf, prefix: l_}]\n"
                 "closures: [{name: c, type: ball, a: {link: crank}, b: {link: world}}]\n",
                 MCD_ERR_MODEL, "key 'closures[0].a.link': unknown link 'crank'", NULL);
}
END_TEST

START_TEST(duplicate_names)
{
    expect_error(FOUR_BAR "closures:\n"
                          "  - {name: pin, type: ball, a: {link: coupler_tip}, b: {link: rocker}}\n"
                          "  - {name: pin, type: weld, a: {link: crank}, b: {link: world}}\n",
                 MCD_ERR_MODEL,
                 "bad.yaml:5:12: key 'closures[1].name': duplicate closure name (first at line 4)",
                 NULL);
    expect_error(FOUR_BAR "environment:\n  - {name: floor, type: plane}\n"
                          "  - {name: floor, type: sphere, radius: 1}\n",
                 MCD_ERR_MODEL,
                 "bad.yaml:5:12: key 'environment[1].name': duplicate environment name (first at "
                 "line 4)",
                 NULL);
    expect_error(FOUR_BAR "environment: [{name: rocker, type: plane}]\n", MCD_ERR_MODEL,
                 "bad.yaml:3:22: key 'environment[0].name': 'rocker' is also the name of a link",
                 NULL);
    expect_error(FOUR_BAR "environment: [{name: world, type: plane}]\n", MCD_ERR_MODEL,
                 "key 'environment[0].name': 'world' is reserved", NULL);
    /* two copies of a robot need prefixes: the URDF loader's message, located */
    expect_error(FOUR_BAR "  - urdf: four_bar.urdf\n", MCD_ERR_MODEL,
                 "bad.yaml:3:11: key 'robots[1].urdf': ", "four_bar.urdf:", "duplicate link name",
                 NULL);
}
END_TEST

START_TEST(bad_closures)
{
    expect_error(FOUR_BAR "closures: [{name: c, type: ball, a: {link: world}, b: {link: world}}]\n",
                 MCD_ERR_MODEL, "bad.yaml:3:12: key 'closures[0]': both frames are on the world",
                 NULL);
    expect_error(FOUR_BAR "closures: [{name: c, type: ball, a: {link: crank}, b: {link: crank}}]\n",
                 MCD_ERR_MODEL,
                 "bad.yaml:3:12: key 'closures[0]': closure 'c': both frames are "
                 "on link 'crank'",
                 NULL);
    /* the same rigid body once the fixed coupler_tip is merged: found at build time */
    expect_error(FOUR_BAR "closures:\n  - {name: c, type: ball, a: {link: coupler_tip}, "
                          "b: {link: coupler}}\n",
                 MCD_ERR_MODEL, "bad.yaml:4:5: key 'closures[0]': closure 'c': its two frames",
                 NULL);
    expect_error(FOUR_BAR "closures: [{name: c, type: ball, a: {link: crank}, b: {link: world}, "
                          "length: 1}]\n",
                 MCD_ERR_PARSE, "key 'closures[0].length': only distance closures have a length",
                 NULL);
}
END_TEST

START_TEST(bad_pairs)
{
    expect_error(FOUR_BAR "contact: {pairs: [{a: crank, b: crank, mu: 1}]}\n", MCD_ERR_MODEL,
                 "key 'contact.pairs[0].b': a pair needs two different objects", NULL);
    expect_error(FOUR_BAR "contact: {pairs: [{a: crank, b: rocker}]}\n", MCD_ERR_PARSE,
                 "key 'contact.pairs[0]': sets nothing", NULL);
    expect_error(FOUR_BAR "environment: [{name: floor, type: plane}]\n"
                          "contact:\n"
                          "  pairs:\n"
                          "    - {a: crank, b: floor, mu: 1}\n"
                          "    - {a: floor, b: crank, enabled: false}\n",
                 MCD_ERR_MODEL,
                 "bad.yaml:7:7: key 'contact.pairs[1]': the same pair as contact.pairs[0] (line 6)",
                 NULL);
}
END_TEST

/* ---- URDF errors, passed through ------------------------------------------ */

START_TEST(urdf_errors)
{
    expect_error("robots:\n  - urdf: not_a_robot.urdf\n", MCD_ERR_PARSE,
                 "bad.yaml:2:11: key 'robots[0].urdf': ", "data/not_a_robot.urdf:", "malformed XML",
                 NULL);
    /* found when the model is built, located at the robot holding the link */
    expect_error(FOUR_BAR "  - {urdf: bad_inertia.urdf, prefix: x_}\n", MCD_ERR_MODEL,
                 "bad.yaml:3:12: key 'robots[1].urdf': link 'x_massless'", "positive mass", NULL);
}
END_TEST

START_TEST(null_arguments_and_silence)
{
    mcd_scenario *s = NULL;
    mcd_error err;
    ck_assert_int_eq(mcd_scenario_load(NULL, &s, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_scenario_load("x.yaml", NULL, &err), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_scenario_load_string(NULL, NULL, NULL, &s, NULL), MCD_ERR_ARG);
    ck_assert_int_eq(mcd_scenario_load_string("robots: []", NULL, NULL, NULL, NULL), MCD_ERR_ARG);
    /* a NULL error buffer is allowed */
    ck_assert_int_eq(mcd_scenario_load_string("robots: []", NULL, NULL, &s, NULL), MCD_ERR_PARSE);
    ck_assert_ptr_null(s);
    mcd_scenario_free(NULL);
    ck_assert_int_eq(mcd_scenario_env_index(NULL, "floor"), -1);
    /* nothing is printed on any error */
    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
    FILE *capture = tmpfile();
    ck_assert_ptr_nonnull(capture);
    dup2(fileno(capture), STDOUT_FILENO);
    dup2(fileno(capture), STDERR_FILENO);
    const char *bad[] = {"a: [", "robots:\n  - urdf: not_a_robot.urdf\n", "robots: [{urdf: x}]",
                         "a: \xff"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_int_ne(mcd_scenario_load_string(bad[i], "quiet.yaml", data_dir(), &s, &err),
                         MCD_OK);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, STDOUT_FILENO);
    dup2(saved_err, STDERR_FILENO);
    close(saved_out);
    close(saved_err);
    fseek(capture, 0, SEEK_END);
    ck_assert_int_eq(ftell(capture), 0);
    fclose(capture);
}
END_TEST

static Suite *errors_suite(void)
{
    Suite *s = suite_create("scenario-errors");
    TCase *yaml = tcase_create("yaml");
    tcase_add_test(yaml, missing_files);
    tcase_add_test(yaml, malformed_yaml);
    tcase_add_test(yaml, empty_input);
    tcase_add_test(yaml, unsupported_yaml);
    tcase_add_test(yaml, null_arguments_and_silence);
    suite_add_tcase(s, yaml);
    TCase *keys = tcase_create("keys-and-values");
    tcase_add_test(keys, unknown_keys);
    tcase_add_test(keys, duplicate_keys);
    tcase_add_test(keys, missing_keys);
    tcase_add_test(keys, wrong_types);
    tcase_add_test(keys, non_finite_numbers);
    tcase_add_test(keys, out_of_range_values);
    tcase_add_test(keys, bad_choices);
    suite_add_tcase(s, keys);
    TCase *names = tcase_create("names");
    tcase_add_test(names, unknown_joints);
    tcase_add_test(names, wrong_coordinate_counts);
    tcase_add_test(names, non_unit_quaternion);
    tcase_add_test(names, unknown_links);
    tcase_add_test(names, duplicate_names);
    tcase_add_test(names, bad_closures);
    tcase_add_test(names, bad_pairs);
    tcase_add_test(names, urdf_errors);
    suite_add_tcase(s, names);
    return s;
}

int main(void)
{
    return run_suite(errors_suite());
}

/* Scenario loading internals, shared by src/io/scenario*.c (not installed).
 *
 * The YAML file is read into a tree (yaml_tree.h), then walked section by
 * section into the mcd_scenario being filled:
 *   scenario.c              entry points, the pipeline, freeing
 *   scenario_value.c        located errors, key paths, typed value readers
 *   scenario_fields.c       tables of simple keys read into a struct
 *   scenario_settings.c     integrator, time, solver and output settings
 *   scenario_contact.c      contact parameters and per-pair overrides
 *   scenario_geom.c         one geom entry's shape (environment, robot geoms)
 *   scenario_environment.c  static geometry on the world
 *   scenario_robot.c        robots: URDF files appended to the builder
 *   scenario_robot_geom.c   collision shapes added to a robot's links
 *   scenario_closure.c      loop closures
 *   scenario_model.c        the builder: environment, robots, closures, build
 *   scenario_state.c        the initial state q0, qd0 by joint name
 *   scenario_actuator.c     the robots' actuators
 *   scenario_actuator_file.c  time series of actuator targets (CSV)
 *   scenario_override.c     scalar keys replaced by path before reading
 * Every node keeps its line and column and every reader its key path, so
 * every error reads "file:line:column: key 'a.b[0].c': what is wrong".
 */
#ifndef MCDYN_IO_SCENARIO_INTERNAL_H
#define MCDYN_IO_SCENARIO_INTERNAL_H

#include "mcdyn/scenario.h"
#include "yaml_tree.h"

#include <math.h>
#include <stddef.h>

#define SCN_KEY_LEN    256
#define SCN_MAX_FIELDS 16 /* keys of one mapping listed in an error message */

typedef struct scn_ctx {
    const char *file; /* the name used in messages */
    const char *dir;  /* directory of relative file names, NULL: current */
    mcd_error *err;
    mcd_scenario *s; /* being filled; freed by the caller on failure */
    mcd_builder *b;  /* the model's builder until it is built */
} scn_ctx;

/* A node of the document and its key path ("robots[0].q.crank", "" for the
 * document itself). */
typedef struct scn_at {
    const yt_node *node;
    char key[SCN_KEY_LEN];
} scn_at;

/* ---- schemas: the keys of a mapping ------------------------------------ */

/* Allowed range of a number: lo < v or lo <= v, v < hi or v <= hi. */
typedef struct scn_bounds {
    double lo, hi;
    int lo_open, hi_open;
} scn_bounds;

/* Initializers of common bounds (cast to scn_bounds as arguments). */
/* clang-format off */
#define SCN_ANY      {-INFINITY, INFINITY, 0, 0}
#define SCN_NONNEG   {0.0, INFINITY, 0, 0}
#define SCN_POSITIVE {0.0, INFINITY, 1, 0}
#define SCN_UNIT     {0.0, 1.0, 0, 0}
/* clang-format on */

typedef enum scn_kind {
    SCN_CUSTOM = 0, /* read by the section's own code */
    SCN_NUMBER,     /* double, within bounds */
    SCN_INT,        /* int in [bounds.lo, bounds.hi] (hi INFINITY: no upper bound) */
    SCN_BOOL,       /* int, 0 or 1 */
    SCN_TEXT        /* char *, a copy of a nonempty string */
} scn_kind;

#define SCN_COUNT(table) ((int)(sizeof(table) / sizeof((table)[0])))

/* One key of a mapping and where its value goes in the destination. */
typedef struct scn_field {
    const char *key;
    scn_kind kind;
    size_t offset; /* of the double, int or char * in the destination struct */
    scn_bounds bounds;
} scn_field;

/* ---- scenario.c: loading a file with its tree edited ------------------- */

/* Changes the parsed document *root (NULL for an empty file; may be
 * replaced) of the file path before it is read; ctx is the caller's. */
typedef mcd_status (*scn_edit)(const char *path, yt_node **root, const void *ctx, mcd_error *err);
/* mcd_scenario_load with edit (NULL: none) applied to the tree first. */
mcd_status scn_load_edited(const char *path, scn_edit edit, const void *ctx, mcd_scenario **out,
                           mcd_error *err);

/* ---- scenario_value.c: errors, navigation, values ---------------------- */

/* Records "file:line:column: key 'PATH': message" in c->err; returns st. */
mcd_status scn_fail(const scn_ctx *c, const scn_at *at, mcd_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Checks that at is a mapping without duplicate keys whose keys are all
 * among the n fields (fields NULL: any key). */
mcd_status scn_check_mapping(const scn_ctx *c, const scn_at *at, const scn_field *fields, int n);
/* Checks that at is a sequence of at least min_items items. */
mcd_status scn_check_sequence(const scn_ctx *c, const scn_at *at, int min_items);
/* The value of key in the mapping map into *child; 0 when absent. */
int scn_find(const scn_at *map, const char *key, scn_at *child);
/* As scn_find; absence is an error located at the mapping. */
mcd_status scn_require(const scn_ctx *c, const scn_at *map, const char *key, scn_at *child);
/* Item i of a sequence, or the value of entry i of a mapping. */
void scn_item(const scn_at *seq, int i, scn_at *child);
void scn_entry(const scn_at *map, int i, scn_at *child);
/* The key text of entry i of a mapping. */
const char *scn_entry_key(const scn_at *map, int i);

/* A finite number within b (plain scalar: quoted numbers are strings). */
mcd_status scn_number(const scn_ctx *c, const scn_at *at, scn_bounds b, double *out);
/* A decimal integer in [min, max]. */
mcd_status scn_int(const scn_ctx *c, const scn_at *at, int min, int max, int *out);
/* true or false (also True, TRUE, False, FALSE). */
mcd_status scn_bool(const scn_ctx *c, const scn_at *at, int *out);
/* Any scalar but null; nonempty: "" is an error too. *out points into the tree. */
mcd_status scn_string(const scn_ctx *c, const scn_at *at, int nonempty, const char **out);
/* A copy of a nonempty string in *out (the previous value freed). */
mcd_status scn_string_copy(const scn_ctx *c, const scn_at *at, char **out);
/* A sequence of exactly n finite numbers, each within b. */
mcd_status scn_vector(const scn_ctx *c, const scn_at *at, int n, scn_bounds b, double *out);
/* One of count names; *out receives its index. */
mcd_status scn_choice(const scn_ctx *c, const scn_at *at, const char *const *names, int count,
                      int *out);
/* The pose of the optional keys xyz and rpy of map (identity when absent). */
mcd_status scn_pose(const scn_ctx *c, const scn_at *map, const char *xyz_key, const char *rpy_key,
                    mcd_pose *X);
/* A file name resolved against c->dir (absolute names unchanged). */
mcd_status scn_path(const scn_ctx *c, const char *name, char **out);

/* ---- scenario_fields.c ------------------------------------------------- */

/* Checks the keys of map against the n fields, then reads every field
 * present that is not SCN_CUSTOM into dst. */
mcd_status scn_read_fields(const scn_ctx *c, const scn_at *map, const scn_field *f, int n,
                           void *dst);

/* ---- sections ---------------------------------------------------------- */

/* scenario_settings.c: integrator, dt, duration, closure_tolerance, solver,
 * output (the document's keys). */
mcd_status scn_parse_settings(const scn_ctx *c, const scn_at *doc);
/* scenario_contact.c: the contact section without its pairs; then the
 * pairs, once the model is built. */
mcd_status scn_parse_contact(const scn_ctx *c, const scn_at *doc);
mcd_status scn_parse_pairs(const scn_ctx *c, const scn_at *doc);
/* scenario_geom.c: the shape of the geom entry map into *g (type, pose,
 * size, mesh file; g->mesh_path is the caller's to free, also on failure):
 * its keys are the shape's keys and own_key, which the caller reads. */
mcd_status scn_parse_geom(const scn_ctx *c, const scn_at *map, const char *own_key, mcd_geom *g);
/* scenario_environment.c: the environment entries, added to c->b on the
 * world; their names are checked against the links by scn_check_env_names
 * once the model is built. */
mcd_status scn_add_environment(const scn_ctx *c, const scn_at *doc);
mcd_status scn_check_env_names(const scn_ctx *c, const scn_at *doc);
/* scenario_robot.c: the robots, appended to c->b; then, once the model is
 * built, the body range of each. */
mcd_status scn_add_robots(const scn_ctx *c, const scn_at *doc);
void scn_robot_bodies(const scn_ctx *c);
/* scenario_robot_geom.c: the geoms of the robot entry robot, added to the
 * links of r (loaded already). */
mcd_status scn_add_robot_geoms(const scn_ctx *c, const scn_at *robot, const mcd_scenario_robot *r);
/* scenario_closure.c: the closures, added to c->b. */
mcd_status scn_add_closures(const scn_ctx *c, const scn_at *doc);
/* scenario_nslcp.c: the nslcp section (parameters of nslcp-lemke, nslcp-judice). */
mcd_status scn_parse_nslcp(const scn_ctx *c, const scn_at *doc);
/* scenario_model.c: name, gravity, environment, robots, closures, then the
 * model in c->s->model. */
mcd_status scn_build_model(const scn_ctx *c, const scn_at *doc);
/* scenario_state.c: q0 and qd0 from the robots' q and qd. */
mcd_status scn_parse_state(const scn_ctx *c, const scn_at *doc);

/* scenario_actuator.c: the robots' actuators into c->s->actuator, once the
 * initial state is read. */
mcd_status scn_parse_actuators(const scn_ctx *c, const scn_at *doc);

/* scenario_actuator_file.c: a CSV table (header t, names...; rows of
 * numbers, t strictly increasing) read from the file name (resolved by
 * scn_path) given at key at. col: ncol columns of nrow values, column j at
 * col + j nrow (t first). The caller owns col and frees the names with
 * scn_table_free_names, on failure as on success. */
typedef struct scn_table {
    int nrow, ncol;
    char **name;
    double *col;
} scn_table;
mcd_status scn_read_table(const scn_ctx *c, const scn_at *at, const char *name, scn_table *t);
/* The index of the data column name (not t), -1 if absent. */
int scn_table_column(const scn_table *t, const char *name);
void scn_table_free_names(scn_table *t);

#endif

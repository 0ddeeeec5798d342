/* mcdyn — scenario files: one simulation described in YAML.
 *
 * A scenario names robots (URDF files, each with a base pose, a fixed or
 * floating base, an optional name prefix and an initial state by joint
 * name), loop closures, static environment geometry, gravity, contact
 * parameters, the solver and its parameters, the integrator, the time step,
 * the duration and the output files. docs/scenarios.md is the reference of
 * the format, with an annotated example.
 *
 * Loading a scenario builds the model (robots, environment geometry on the
 * world, closures; gravity applied; fixed joints merged as by
 * mcd_model_build), the initial state q0 / qd0 and the typed settings below.
 * Relative URDF, mesh and package paths are resolved against the directory
 * of the scenario file; output paths are kept as written (relative to the
 * current directory of the program that runs the scenario). The integrator,
 * the failure policy and the friction-direction mode are the simulator's
 * enums (sim.h, contact.h), written euler | midpoint, stop |
 * warn-and-continue and aligned | fixed in the file.
 *
 * The loader is strict: unknown keys, duplicate keys, values of the wrong
 * type, NaN or Inf, out-of-range values and unknown names are errors. Every
 * message names the place: "path:line:column: key 'robots[0].q.crank': what
 * is wrong". Statuses: MCD_ERR_IO (a file cannot be read; the message holds
 * its path), MCD_ERR_PARSE (malformed YAML, wrong type, unknown or missing
 * key, unknown choice such as a solver name), MCD_ERR_NONFINITE (NaN, Inf,
 * out-of-range numbers), MCD_ERR_ARG (a value outside its allowed range, a
 * non-unit quaternion), MCD_ERR_MODEL (unknown link or joint, duplicate
 * names, a model the builder rejects); URDF errors keep their status and
 * message, prefixed with the scenario location. The loader never prints.
 */
#ifndef MCDYN_SCENARIO_H
#define MCDYN_SCENARIO_H

#include "mcdyn/model.h"
#include "mcdyn/sim.h"
#include "mcdyn/solver.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Correction of penetration (depth d > 0 at a contact, time step dt). */
typedef enum mcd_penetration_method {
    MCD_PENETRATION_NONE = 0, /* "none": no correction */
    MCD_PENETRATION_VELOCITY, /* "velocity": the normal velocity target after the step is
                                 min(gain d / dt, max_velocity) instead of 0 (Baumgarte-like,
                                 a fraction gain of the depth removed per step) */
    MCD_PENETRATION_POSITION, /* "position": split correction; the velocity step gets no
                                 penetration target, and a frictionless position step then
                                 moves q (not qd) to remove the fraction gain of the depth,
                                 at most max_velocity dt per step (contact.h,
                                 position_correction) */
    MCD_PENETRATION_METHOD_COUNT
} mcd_penetration_method;

/* A contact object named in a pair override: a link (any model frame) or an
 * environment geom. Exactly one of the two indices is >= 0. */
typedef struct mcd_scenario_object {
    int frame; /* model frame index of the link, or -1 */
    int env;   /* environment index (mcd_scenario.env_name), or -1 */
} mcd_scenario_object;

/* Contact parameters of one pair of objects (the geometry of a link is the
 * geometry of the body carrying it). Values not written in the file are the
 * global ones. */
typedef struct mcd_contact_pair {
    mcd_scenario_object a, b;
    double mu;          /* friction coefficient, >= 0 */
    double restitution; /* Newton coefficient e in [0, 1] */
    int enabled;        /* 0: the two objects never touch (default 1) */
} mcd_contact_pair;

typedef struct mcd_contact_settings {
    double mu;                          /* global friction coefficient, >= 0 (default 0.5) */
    double restitution;                 /* global Newton coefficient e in [0, 1] (default 0) */
    double activation_distance;         /* contacts are made when the gap is <= delta [m], >= 0
                                           (default 0; the runner uses at least 1e-9 for
                                           the closed forms, 2 resting_gap for Bullet's
                                           pairs: collision.h, bullet_activation_distance) */
    double resting_gap;                 /* shapes rest this far apart [m], in [0, 1e-3]
                                           (contact.h, resting_gap; default
                                           MCD_CONTACT_RESTING_GAP) */
    int self_collision;                 /* 1: links of one robot may touch each other (default 0) */
    int joint_limits;                   /* 1: joint position limits enforced (sim.h, joint
                                           limits; default 1) */
    int directions;                     /* n_f, friction directions of the polyhedral cone: even,
                                           >= 4 (default 4) */
    mcd_direction_mode direction_mode;  /* aligned (first direction along -v_t, Sec. 3.1) or
                                           fixed (at direction_angle from f); default aligned */
    double direction_angle;             /* fixed mode: angle of the first direction from the
                                           contact frame's f axis [rad] (default 0) */
    mcd_impact_law impact_law;          /* newton | maxdiss | stronge (default stronge) */
    mcd_penetration_method penetration; /* default position */
    double penetration_gain;            /* in [0, 1], (0, 1] with position (default 0.2) */
    double penetration_max_velocity;    /* [m/s], >= 0 (default 1) */
    int max_points;                     /* contact.max_points: most contact points a step may
                                           have, in [1, 1e7]; 0 (default): the simulator's
                                           MCD_SIM_DEFAULT_MAX_CONTACTS (sim.h) */
    mcd_contact_pair *pair;             /* per-pair overrides, in file order */
    int npair;
} mcd_contact_settings;

typedef struct mcd_solver_settings {
    mcd_step_method kind;      /* formulation and solver, default MCD_METHOD_MNCP_PLM
                                  ("mncp-plm") */
    mcd_solver_opts opts;      /* mcd_step_method_default_opts(kind), then the file's values */
    double omega;              /* ccp-pgs over-relaxation in (0, 2); 0 (default): the
                                  solver's default 0.6 (sim.h ccp_omega) */
    mcd_on_failure on_failure; /* stop, or warn and continue; default stop */
    int max_step_halvings;     /* step halving (sim.h, mcd_sim_options.max_step_halvings),
                                  in [0, MCD_SIM_MAX_STEP_HALVINGS]; default
                                  MCD_SIM_DEFAULT_STEP_HALVINGS */
} mcd_solver_settings;

typedef struct mcd_output_settings {
    char *csv;           /* trajectory CSV file, NULL: none (default) */
    char *plot;          /* plot image file, NULL: none (default) */
    char *h5;            /* HDF5 trajectory log (log.h), NULL: none (default) */
    char *html;          /* replay page (`mcdyn view`), NULL: none (default) */
    char **plot_columns; /* CSV column names to plot (nplot_columns; none: the program's
                            choice) */
    int nplot_columns;
    int every; /* write every `every`-th step, >= 1 (default 1) */
} mcd_output_settings;

typedef struct mcd_scenario_settings {
    mcd_contact_settings contact;
    mcd_solver_settings solver;
    mcd_nslcp_options nslcp;   /* the nslcp section (mcd_nslcp_default_options) */
    mcd_integrator integrator; /* semi-implicit Euler (Eq. 25-26) or Moreau's midpoint
                                  (Eq. 27-29); default euler */
    double dt;                 /* time step [s], > 0 (default 1e-3) */
    double duration;           /* simulated time [s], >= dt (default 1) */
    double closure_tolerance;  /* loop-closure position projection tolerance [m], > 0
                                  (default 1e-10) */
    mcd_output_settings output;
} mcd_scenario_settings;

/* The defaults of every setting (no pairs, no output files). */
mcd_scenario_settings mcd_scenario_default_settings(void);

/* One robot of the scenario, in file order. */
typedef struct mcd_scenario_robot {
    char *urdf;                 /* the URDF path as resolved */
    char *prefix;               /* name prefix of its links and joints ("" for none) */
    int floating_base;          /* 1: attached by a free joint */
    mcd_pose base_pose;         /* root link (fixed) or free-joint frame in the world */
    int root_frame;             /* model frame of the root link */
    int frame_begin, frame_end; /* its links are the model frames [frame_begin, frame_end) */
    int body_begin, body_end;   /* its moving bodies are [body_begin, body_end) (empty when
                                   every link is fixed to the world) */
} mcd_scenario_robot;

typedef struct mcd_scenario {
    char *name;       /* the file's name, else the file name without directory and extension */
    mcd_model *model; /* named and with gravity as in the file */
    double *q0;       /* model->nq initial positions (neutral where not given) */
    double *qd0;      /* model->nv initial velocities (zero where not given) */
    mcd_scenario_robot *robot;
    int nrobot;
    /* Environment: static geometry on the world. Entry k is named env_name[k]
     * and is model->geom[env_geom[k]] (the environment comes first in
     * model->geom, so env_geom[k] == k). */
    int nenv;
    char **env_name;
    int *env_geom;
    mcd_scenario_settings settings;
    /* Actuators of every robot (the robots' actuators keys, docs/scenarios.md),
     * one per driven velocity coordinate, in dof order; for
     * mcd_sim_set_actuators (the runner sets them). Their time series point
     * into series (nseries blocks owned by the scenario). */
    mcd_actuator *actuator;
    int nactuator;
    double **series;
    int nseries;
    /* Warnings of the URDF loader (missing visual meshes, ignored <mimic>,
     * balanced inertias), each prefixed with the scenario location. */
    char **warning;
    int nwarning;
} mcd_scenario;

/* Loads the scenario file at path. On success *out receives a new scenario
 * (free with mcd_scenario_free); on failure *out is NULL and err (may be
 * NULL) holds the message. */
mcd_status mcd_scenario_load(const char *path, mcd_scenario **out, mcd_error *err);

/* Loads a scenario held in the NUL-terminated string yaml.
 * name_for_messages (may be NULL: "<string>") stands for the file name in
 * messages, and its file name without directory and extension is the
 * default scenario name ("scenario" when NULL); relative URDF, mesh and
 * package paths are resolved against base_dir (NULL: the current
 * directory). */
mcd_status mcd_scenario_load_string(const char *yaml, const char *name_for_messages,
                                    const char *base_dir, mcd_scenario **out, mcd_error *err);

void mcd_scenario_free(mcd_scenario *s);

/* ---- overrides: scalar keys replaced by path (src/io/scenario_override.c) ----
 *
 * A path addresses one scalar key of the scenario document: mapping keys
 * joined by '.', sequence items by [i] ("dt", "contact.mu", "solver.name",
 * "robots[0].q.joint1", "robots[1].base.xyz[2]"). Keys may not contain '.',
 * '[' or ']'. Any key of the document may be addressed, the format is not
 * listed here: the overridden document is read by the same strict loader,
 * so a misspelt key is the loader's "unknown key" error naming the whole
 * path, and a wrong value its usual error at that key. */

/* One override: the key at path gets the scalar value, read as if written
 * unquoted in the file ("0.3", "mncp-plm", "true"). */
typedef struct mcd_scenario_override {
    const char *path;
    const char *value;
} mcd_scenario_override;

/* Loads the scenario file at path as mcd_scenario_load after replacing, in
 * order, the n overrides (ov may be NULL when n is 0; later ones win). A
 * missing key is added (its missing parent mappings too); sequence items
 * must exist. Errors besides the loader's: MCD_ERR_ARG "override 'PATH':
 * ..." for a malformed path, an index past the end of a sequence, a
 * step into a scalar, or a path ending at a mapping or a sequence. */
mcd_status mcd_scenario_load_with(const char *path, const mcd_scenario_override *ov, int n,
                                  mcd_scenario **out, mcd_error *err);
/* ---- end of overrides ---- */

/* Index of an environment entry by name; -1 if absent. */
int mcd_scenario_env_index(const mcd_scenario *s, const char *name);

#ifdef __cplusplus
}
#endif
#endif

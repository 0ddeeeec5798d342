"""cffi (API mode) description of the part of libmcdyn the package uses.

Run as a program, it writes the C source of the extension module
``mcdyn._mcdyn_cffi`` (meson compiles it against include/mcdyn and libmcdyn);
imported by setup.py, it gives ``ffi`` to cffi's setuptools integration.

The declarations below are checked against the real headers when the
module is compiled: cffi fills the layout of every ``...;`` struct from the
compiler and checks each named field's type, and ``signature_checks`` adds a
``_Static_assert`` per function and callback type stating that the type
written here is the type declared in include/mcdyn (so a changed header
breaks the build instead of the call).
"""
import os
import re
import sys

import cffi

CDEF = r"""
typedef enum mcd_status {
    MCD_OK, MCD_ERR_ARG, MCD_ERR_NOMEM, MCD_ERR_MODEL, MCD_ERR_NONFINITE, MCD_ERR_IO,
    MCD_ERR_PARSE, MCD_ERR_UNSUPPORTED, MCD_ERR_SINGULAR, MCD_ERR_NOT_CONVERGED,
    MCD_ERR_CAPACITY, MCD_ERR_INFEASIBLE, MCD_STATUS_COUNT
} mcd_status;
typedef struct mcd_error { mcd_status status; char msg[512]; } mcd_error;
const char *mcd_status_str(mcd_status s);

typedef struct mcd_pose { double R[9]; double p[3]; } mcd_pose;

typedef enum mcd_joint_type { MCD_JOINT_FIXED, MCD_JOINT_REVOLUTE, MCD_JOINT_CONTINUOUS,
    MCD_JOINT_PRISMATIC, MCD_JOINT_SPHERICAL, MCD_JOINT_FREE, MCD_JOINT_TYPE_COUNT } mcd_joint_type;
typedef struct mcd_body { int parent; mcd_joint_type jtype; int qadr, vadr; int nq, nv; ...; } mcd_body;
typedef struct mcd_model {
    int nbody; int nq, nv; mcd_body *body; char **body_name; char **joint_name;
    int nframe; char **frame_name; int nnode; char **node_name; int ngeom;
    int nclosure_rows; double gravity[3]; double total_mass; char *name; ...;
} mcd_model;
void mcd_model_free(mcd_model *m);
int mcd_model_body_index(const mcd_model *m, const char *name);
int mcd_model_frame_index(const mcd_model *m, const char *name);
int mcd_model_node_index(const mcd_model *m, const char *name);
int mcd_model_joint_index(const mcd_model *m, const char *name);
mcd_status mcd_model_neutral(const mcd_model *m, double *q);
mcd_status mcd_model_check_q(const mcd_model *m, const double *q, mcd_error *err);
mcd_status mcd_model_add_node(mcd_model *m, const char *name, int body, const mcd_pose *pose,
                              int *index, mcd_error *err);

typedef void (*mcd_urdf_warn_fn)(void *user, const char *msg);
typedef struct mcd_urdf_options {
    int floating_base; const char *const *package_paths; int npackage_paths;
    int balance_inertia; int ignore_mimic; mcd_urdf_warn_fn warn; void *warn_user; ...;
} mcd_urdf_options;
mcd_urdf_options mcd_urdf_default_options(void);
mcd_status mcd_urdf_load_file(const char *path, const mcd_urdf_options *opt, mcd_model **out,
                              mcd_error *err);

typedef struct mcd_data { mcd_error err; ...; } mcd_data;
mcd_status mcd_data_create(const mcd_model *m, mcd_data **out, mcd_error *err);
void mcd_data_free(mcd_data *d);
const char *mcd_data_error(const mcd_data *d);

mcd_status mcd_inverse_dynamics(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                                const double *qdd, const double *f_ext, double *tau);
mcd_status mcd_bias_forces(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                           double *C);
mcd_status mcd_gravity_forces(const mcd_model *m, mcd_data *d, const double *q, double *G);
mcd_status mcd_mass_matrix(const mcd_model *m, mcd_data *d, const double *q, double *M);
mcd_status mcd_forward_dynamics(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                                const double *tau, const double *f_ext, double *qdd);
mcd_status mcd_minv_factor(const mcd_model *m, mcd_data *d, const double *q);
mcd_status mcd_minv_solve(const mcd_model *m, mcd_data *d, const double *x, double *y);
typedef enum mcd_reference { MCD_REF_WORLD, MCD_REF_LOCAL } mcd_reference;
mcd_status mcd_node_pose(const mcd_model *m, mcd_data *d, const double *q, int node,
                         mcd_pose *pose);
mcd_status mcd_node_jacobian(const mcd_model *m, mcd_data *d, const double *q, int node,
                             mcd_reference ref, double *J);
mcd_status mcd_point_jacobian(const mcd_model *m, mcd_data *d, const double *q, int body,
                              const double point[3], mcd_reference ref, double *J);
mcd_status mcd_node_bias_acceleration(const mcd_model *m, mcd_data *d, const double *q,
                                      const double *qd, int node, mcd_reference ref, double acc[6]);
mcd_status mcd_energy(const mcd_model *m, mcd_data *d, const double *q, const double *qd,
                      double *kinetic, double *potential);
mcd_status mcd_integrate(const mcd_model *m, const double *q, const double *qd, double dt,
                         double *q_out);
mcd_status mcd_center_of_mass(const mcd_model *m, mcd_data *d, const double *q, double com[3]);

typedef enum mcd_osc_rows { MCD_OSC_SPATIAL, MCD_OSC_LINEAR } mcd_osc_rows;
mcd_status mcd_node_compliance(const mcd_model *m, mcd_data *d, const double *q, int K,
                               const int *nodes, mcd_osc_rows rows, double *Lambda);
mcd_status mcd_node_osc_inertia(const mcd_model *m, mcd_data *d, const double *q, int K,
                                const int *nodes, mcd_osc_rows rows, double *inertia);

typedef struct mcd_mlcp { int n; double *M; double *q; double *lo; double *hi; } mcd_mlcp;
typedef struct mcd_fc3d { int nc; int nb; double *W; double *q; double *mu; } mcd_fc3d;
typedef enum mcd_solver_kind { MCD_SOLVER_MLCP_PFB_RLM, MCD_SOLVER_MLCP_PFB_PLM,
    MCD_SOLVER_MLCP_LEMKE, MCD_SOLVER_MNCP_RLM, MCD_SOLVER_MNCP_PLM, MCD_SOLVER_MNCP_NSN,
    MCD_SOLVER_MNCP_FIXPOINT, MCD_SOLVER_KIND_COUNT, ... } mcd_solver_kind;
typedef struct mcd_solver_opts { double tol; int max_iter; int warm_start; ...; } mcd_solver_opts;
typedef struct mcd_solver_stats {
    mcd_status status; int iterations; double psi; double error; double seconds; int stages;
} mcd_solver_stats;
typedef struct mcd_solver_ws mcd_solver_ws;
const char *mcd_solver_name(mcd_solver_kind k);
mcd_status mcd_solver_from_name(const char *name, mcd_solver_kind *k, mcd_error *err);
int mcd_solver_is_mlcp(mcd_solver_kind k);
mcd_solver_opts mcd_solver_default_opts(mcd_solver_kind k);
mcd_status mcd_solver_ws_create(int n, mcd_solver_ws **out, mcd_error *err);
void mcd_solver_ws_free(mcd_solver_ws *ws);
mcd_status mcd_solve_mlcp(mcd_solver_ws *ws, mcd_solver_kind k, const mcd_mlcp *p,
                          const mcd_solver_opts *opts, double *z, mcd_solver_stats *stats,
                          mcd_error *err);
mcd_status mcd_solve_fc3d(mcd_solver_ws *ws, mcd_solver_kind k, const mcd_fc3d *p,
                          const mcd_solver_opts *opts, double *r, double *u,
                          mcd_solver_stats *stats, mcd_error *err);

typedef enum mcd_problem_kind { MCD_PROBLEM_AUTO, MCD_PROBLEM_LCP, MCD_PROBLEM_MLCP,
    MCD_PROBLEM_FC3D, MCD_PROBLEM_KIND_COUNT } mcd_problem_kind;
typedef struct mcd_problem_file {
    mcd_problem_kind kind; int dimension; mcd_mlcp mlcp; mcd_fc3d fc3d; ...;
} mcd_problem_file;
mcd_status mcd_problem_kind_from_name(const char *name, mcd_problem_kind *k, mcd_error *err);
int mcd_problem_file_size(const mcd_problem_file *f);
int mcd_problem_fclib_available(void);
mcd_status mcd_problem_read_file(const char *path, mcd_problem_kind kind, mcd_problem_file *out,
                                 mcd_error *err);
mcd_status mcd_problem_read_file_isolated(const char *path, mcd_problem_kind kind,
                                          mcd_problem_file *out, mcd_error *err);
void mcd_problem_file_free(mcd_problem_file *f);

typedef struct mcd_contact_point {
    int body_a, body_b; double pos[3]; double normal[3]; double gap; double mu;
    double restitution; double resting_gap;
} mcd_contact_point;
typedef struct mcd_contact_ws mcd_contact_ws;
const double *mcd_contact_impulse(const mcd_contact_ws *ws, int k);
const double *mcd_contact_frame(const mcd_contact_ws *ws, int k);

typedef enum mcd_integrator { MCD_INTEGRATOR_EULER, MCD_INTEGRATOR_MIDPOINT } mcd_integrator;
typedef enum mcd_step_method { MCD_METHOD_MLCP_PFB_RLM, ... } mcd_step_method;
typedef enum mcd_impact_law { MCD_IMPACT_NEWTON, MCD_IMPACT_MAXDISS, MCD_IMPACT_STRONGE,
    MCD_IMPACT_LAW_COUNT } mcd_impact_law;
typedef enum mcd_on_failure { MCD_ON_FAILURE_STOP, MCD_ON_FAILURE_WARN } mcd_on_failure;
mcd_status mcd_step_method_from_name(const char *name, mcd_step_method *m, mcd_error *err);
mcd_solver_opts mcd_step_method_default_opts(mcd_step_method m);
mcd_status mcd_impact_law_from_name(const char *name, mcd_impact_law *law, mcd_error *err);
typedef mcd_status (*mcd_controller)(void *user, const mcd_model *m, mcd_data *d, double t,
                                     const double *q, const double *qd, double *tau);
typedef struct mcd_sim_options {
    double dt; mcd_integrator integrator; mcd_step_method solver; mcd_solver_opts solver_opts;
    mcd_impact_law impact_law; mcd_on_failure on_failure; int max_contacts; int joint_damping;
    double divergence_factor; ...;
} mcd_sim_options;
typedef struct mcd_step_stats {
    int ncontacts; int iterations; double residual; mcd_status solver_status;
    double t_dynamics, t_contacts, t_setup, t_solve;
    int halvings;
} mcd_step_stats;
typedef struct mcd_sim mcd_sim;
mcd_sim_options mcd_sim_default_options(void);
mcd_status mcd_sim_create(const mcd_model *m, const mcd_sim_options *opt, mcd_sim **out,
                          mcd_error *err);
void mcd_sim_free(mcd_sim *s);
void mcd_sim_set_controller(mcd_sim *s, mcd_controller f, void *user);
mcd_status mcd_sim_set_state(mcd_sim *s, const double *q, const double *qd, double t);
const double *mcd_sim_q(const mcd_sim *s);
const double *mcd_sim_qd(const mcd_sim *s);
double mcd_sim_time(const mcd_sim *s);
mcd_status mcd_sim_step(mcd_sim *s, mcd_step_stats *stats);
int mcd_sim_ncontacts(const mcd_sim *s);
const mcd_contact_point *mcd_sim_contact(const mcd_sim *s, int k);
const mcd_contact_ws *mcd_sim_contact_ws(const mcd_sim *s);
const char *mcd_sim_error(const mcd_sim *s);
long mcd_sim_solver_failures(const mcd_sim *s);
long mcd_sim_step_halvings(const mcd_sim *s);
double mcd_sim_step_size(const mcd_sim *s);

typedef struct mcd_scenario_settings { double dt; double duration; ...; } mcd_scenario_settings;
typedef struct mcd_scenario {
    char *name; mcd_model *model; double *q0; double *qd0; mcd_scenario_settings settings; ...;
} mcd_scenario;
mcd_status mcd_scenario_load(const char *path, mcd_scenario **out, mcd_error *err);
void mcd_scenario_free(mcd_scenario *s);

typedef struct mcd_log mcd_log;
typedef struct mcd_runner_overrides {
    const char *solver; double dt; double duration; int contact_slots;
} mcd_runner_overrides;
typedef struct mcd_runner mcd_runner;
mcd_runner_overrides mcd_runner_default_overrides(void);
mcd_status mcd_runner_create(const mcd_scenario *sc, const mcd_runner_overrides *ov,
                             mcd_runner **out, mcd_error *err);
void mcd_runner_free(mcd_runner *r);
mcd_status mcd_runner_step(mcd_runner *r, mcd_step_stats *stats);
mcd_sim *mcd_runner_sim(mcd_runner *r);
mcd_status mcd_runner_log_row(mcd_runner *r, const mcd_step_stats *st, mcd_log *log,
                              mcd_error *err);
mcd_status mcd_log_open(const char *path, const mcd_model *m, const char *scenario_text,
                        int contact_slots, mcd_log **out, mcd_error *err);
mcd_status mcd_log_close(mcd_log *log, mcd_error *err);
void mcd_log_discard(mcd_log *log);

extern "Python" mcd_status mcdyn_py_controller(void *user, const mcd_model *m, mcd_data *d,
                                               double t, const double *q, const double *qd,
                                               double *tau);
"""

FUNCTION = re.compile(r"^(?!typedef)([A-Za-z_][\w\s\*]*?[\s\*])(mcd_\w+)\s*\(([^;]*)\);", re.M)
FUNCTION_TYPE = re.compile(r"^typedef\s+([\w\s\*]+?)\s*\(\*\s*(mcd_\w+)\)\s*\(([^;]*)\);", re.M)


def signature_checks(cdef):
    """One _Static_assert per declared function and function-pointer type:
    the type written in the cdef is the type of the header's declaration."""
    lines = []
    for ret, name, args in FUNCTION.findall(cdef):
        lines.append(f"typedef {ret.strip()} mcdyn_sig_{name}({args});")
        lines.append(f"_Static_assert(__builtin_types_compatible_p(__typeof__({name}), "
                     f"mcdyn_sig_{name}), \"{name}: python/ffi_build.py differs from its header\");")
    for ret, name, args in FUNCTION_TYPE.findall(cdef):
        lines.append(f"typedef {ret.strip()} (*mcdyn_sig_{name})({args});")
        lines.append(f"_Static_assert(__builtin_types_compatible_p({name}, mcdyn_sig_{name}), "
                     f"\"{name}: python/ffi_build.py differs from its header\");")
    return "\n".join(lines)


def make_ffi(include_dirs=(), library_dirs=()):
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    ffi.set_source("mcdyn._mcdyn_cffi",
                   "#include <mcdyn/mcdyn.h>\n" + signature_checks(CDEF),
                   libraries=["mcdyn"], include_dirs=list(include_dirs),
                   library_dirs=list(library_dirs), runtime_library_dirs=list(library_dirs))
    return ffi


def _pkg_config(flag):
    import subprocess
    try:
        out = subprocess.run(["pkg-config", flag, "mcdyn"], check=True, capture_output=True,
                             text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    return [w[2:] for w in out.split()]


def _dirs(variable, flag):
    """The directory in the environment variable, else pkg-config's."""
    value = os.environ.get(variable)
    return [value] if value else _pkg_config(flag)


# setup.py (pip) builds against the installed library (pkg-config) or the
# folders named by MCDYN_INCLUDE_DIR and MCDYN_LIBRARY_DIR (a build tree).
ffi = make_ffi(_dirs("MCDYN_INCLUDE_DIR", "--cflags-only-I"),
               _dirs("MCDYN_LIBRARY_DIR", "--libs-only-L"))

if __name__ == "__main__":
    ffi.emit_c_code(sys.argv[1])

/* Scenario loading: integrator, time, solver and output settings, and the
 * defaults of every setting (src/io/scenario_internal.h).
 *
 * The solver's name is read first: its defaults (mcd_step_method_default_opts)
 * are then overridden by the keys written in the file.
 */
#include "scenario_internal.h"

#include <stdlib.h>
#include <string.h>

/* The most steps a scenario may ask for: MCD_RUNNER_MAX_STEPS of runner.h,
 * which this layer sits below. */
#define SCN_MAX_STEPS 1e9

/* Names of the simulator's enums (sim.h), in enum order. */
static const char *const integrator_names[] = {"euler", "midpoint"};
static const char *const on_failure_names[] = {"stop", "warn-and-continue"};

mcd_scenario_settings mcd_scenario_default_settings(void)
{
    mcd_scenario_settings s;
    memset(&s, 0, sizeof s);
    s.contact.mu = 0.5;
    /* Stronge's energetic restitution never creates energy; Newton's with
     * friction can (Kane's paradox, docs/theory/impacts.md), so a scenario
     * that wants it names it */
    s.contact.impact_law = MCD_IMPACT_STRONGE;
    s.contact.directions = 4;
    s.contact.joint_limits = 1;
    s.contact.direction_mode = MCD_DIRECTIONS_ALIGNED;
    s.contact.penetration = MCD_PENETRATION_POSITION;
    s.contact.penetration_gain = 0.2;
    s.contact.penetration_max_velocity = 1.0;
    s.contact.resting_gap = MCD_CONTACT_RESTING_GAP;
    s.solver.kind = MCD_METHOD_MNCP_PLM;
    s.solver.opts = mcd_step_method_default_opts(s.solver.kind);
    s.solver.on_failure = MCD_ON_FAILURE_STOP;
    s.solver.max_step_halvings = MCD_SIM_DEFAULT_STEP_HALVINGS;
    s.integrator = MCD_INTEGRATOR_EULER;
    s.dt = 1e-3;
    s.duration = 1.0;
    s.closure_tolerance = 1e-10;
    s.nslcp = mcd_nslcp_default_options();
    s.output.every = 1;
    return s;
}

#define OPT(field) offsetof(mcd_solver_opts, field)
static const scn_field solver_fields[] = {
    {.key = "name"},
    {"tol", SCN_NUMBER, OPT(tol), SCN_POSITIVE},
    {"psi_tol", SCN_NUMBER, OPT(psi_tol), SCN_NONNEG},
    {"max_iter", SCN_INT, OPT(max_iter), {1, INFINITY, 0, 0}},
    {"pfb_lambda", SCN_NUMBER, OPT(pfb_lambda), {0.0, 1.0, 1, 0}},
    {"lm_lambda0", SCN_NUMBER, OPT(lm_lambda0), SCN_NONNEG},
    {"warm_start", SCN_BOOL, OPT(warm_start), SCN_ANY},
    {.key = "on_failure"},
    {.key = "omega"},
    {.key = "max_step_halvings"},
};
#undef OPT

static mcd_status parse_solver_name(const scn_ctx *c, const scn_at *map, mcd_solver_settings *s)
{
    scn_at at;
    const char *name;
    if (!scn_find(map, "name", &at)) return MCD_OK;
    mcd_status st = scn_string(c, &at, 1, &name);
    if (st != MCD_OK) return st;
    mcd_error e;
    if (mcd_step_method_from_name(name, &s->kind, &e) != MCD_OK)
        return scn_fail(c, &at, MCD_ERR_PARSE, "%s", e.msg);
    s->opts = mcd_step_method_default_opts(s->kind);
    return MCD_OK;
}

static mcd_status parse_solver(const scn_ctx *c, const scn_at *doc)
{
    mcd_solver_settings *s = &c->s->settings.solver;
    scn_at map, at;
    int v;
    if (!scn_find(doc, "solver", &map)) return MCD_OK;
    mcd_status st = scn_check_mapping(c, &map, solver_fields, SCN_COUNT(solver_fields));
    if (st == MCD_OK) st = parse_solver_name(c, &map, s);
    if (st == MCD_OK)
        st = scn_read_fields(c, &map, solver_fields, SCN_COUNT(solver_fields), &s->opts);
    if (st == MCD_OK && scn_find(&map, "omega", &at)) /* ccp-pgs over-relaxation */
        st = scn_number(c, &at, (scn_bounds){0.0, 2.0, 1, 1}, &s->omega);
    if (st == MCD_OK && scn_find(&map, "max_step_halvings", &at))
        st = scn_int(c, &at, 0, MCD_SIM_MAX_STEP_HALVINGS, &s->max_step_halvings);
    if (st == MCD_OK && scn_find(&map, "on_failure", &at)) {
        st = scn_choice(c, &at, on_failure_names, SCN_COUNT(on_failure_names), &v);
        if (st == MCD_OK) s->on_failure = (mcd_on_failure)v;
    }
    return st;
}

#define OUT(field) offsetof(mcd_output_settings, field)
static const scn_field output_fields[] = {
    {"csv", SCN_TEXT, OUT(csv), SCN_ANY},
    {"plot", SCN_TEXT, OUT(plot), SCN_ANY},
    {"h5", SCN_TEXT, OUT(h5), SCN_ANY},
    {"html", SCN_TEXT, OUT(html), SCN_ANY},
    {.key = "plot_columns"},
    {"every", SCN_INT, OUT(every), {1, INFINITY, 0, 0}},
};
#undef OUT

static mcd_status parse_plot_columns(const scn_ctx *c, const scn_at *at, mcd_output_settings *o)
{
    mcd_status st = scn_check_sequence(c, at, 1);
    if (st != MCD_OK) return st;
    o->plot_columns = calloc((size_t)at->node->nitem, sizeof *o->plot_columns);
    if (!o->plot_columns) return mcd_fail(c->err, MCD_ERR_NOMEM, "%s: out of memory", c->file);
    for (int i = 0; st == MCD_OK && i < at->node->nitem; i++) {
        scn_at item;
        scn_item(at, i, &item);
        st = scn_string_copy(c, &item, &o->plot_columns[i]);
        o->nplot_columns += st == MCD_OK;
    }
    return st;
}

static mcd_status parse_output(const scn_ctx *c, const scn_at *doc)
{
    mcd_output_settings *o = &c->s->settings.output;
    scn_at map, at;
    if (!scn_find(doc, "output", &map)) return MCD_OK;
    mcd_status st = scn_read_fields(c, &map, output_fields, SCN_COUNT(output_fields), o);
    if (st == MCD_OK && scn_find(&map, "plot_columns", &at)) st = parse_plot_columns(c, &at, o);
    return st;
}

mcd_status scn_parse_settings(const scn_ctx *c, const scn_at *doc)
{
    mcd_scenario_settings *s = &c->s->settings;
    scn_at at;
    int v;
    mcd_status st = MCD_OK;
    if (scn_find(doc, "integrator", &at)) {
        st = scn_choice(c, &at, integrator_names, SCN_COUNT(integrator_names), &v);
        if (st == MCD_OK) s->integrator = (mcd_integrator)v;
    }
    if (st == MCD_OK && s->duration < s->dt && scn_find(doc, "duration", &at))
        st = scn_fail(c, &at, MCD_ERR_ARG, "must be >= dt (%g), got %g", s->dt, s->duration);
    if (st == MCD_OK && s->duration < s->dt && scn_find(doc, "dt", &at))
        st = scn_fail(c, &at, MCD_ERR_ARG, "must be <= duration (%g), got %g", s->duration, s->dt);
    if (st == MCD_OK && !(s->duration / s->dt <= SCN_MAX_STEPS) &&
        (scn_find(doc, "dt", &at) || scn_find(doc, "duration", &at)))
        st = scn_fail(c, &at, MCD_ERR_ARG,
                      "duration %g s at dt %g s needs %.3g steps, more than the limit of %.0f "
                      "(docs/scenarios.md)",
                      s->duration, s->dt, s->duration / s->dt, SCN_MAX_STEPS);
    if (st == MCD_OK) st = parse_solver(c, doc);
    if (st == MCD_OK) st = parse_output(c, doc);
    return st;
}

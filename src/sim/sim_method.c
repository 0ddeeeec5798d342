/* Names and default options of the step methods and impact laws (sim.h). */
#include "mcdyn/sim.h"

#include <string.h>

static const char *const method_names[MCD_METHOD_COUNT] = {
    [MCD_METHOD_MLCP_PFB_RLM] = "mlcp-pfb-rlm",
    [MCD_METHOD_MLCP_PFB_PLM] = "mlcp-pfb-plm",
    [MCD_METHOD_MLCP_LEMKE] = "mlcp-lemke",
    [MCD_METHOD_MNCP_RLM] = "mncp-rlm",
    [MCD_METHOD_MNCP_PLM] = "mncp-plm",
    [MCD_METHOD_MNCP_NSN] = "mncp-nsn",
    [MCD_METHOD_CCP_PGS] = "ccp-pgs",
    [MCD_METHOD_CCP_APGD] = "ccp-apgd",
    [MCD_METHOD_NSLCP_LEMKE] = "nslcp-lemke",
    [MCD_METHOD_NSLCP_JUDICE] = "nslcp-judice",
    [MCD_METHOD_MAXDISS_BGS] = "maxdiss-bgs",
    [MCD_METHOD_CCP_ADMM] = "ccp-admm",
    [MCD_METHOD_MNCP_FIXPOINT] = "mncp-fixpoint",
    [MCD_METHOD_CCP_IPM] = "ccp-ipm",
};

static const char *const impact_law_names[MCD_IMPACT_LAW_COUNT] = {
    [MCD_IMPACT_NEWTON] = "newton",
    [MCD_IMPACT_MAXDISS] = "maxdiss",
    [MCD_IMPACT_STRONGE] = "stronge",
};

/* Index of name in names[0..n), -1 if absent. */
static int find_name(const char *const *names, int n, const char *name)
{
    for (int i = 0; name && i < n; i++)
        if (strcmp(name, names[i]) == 0) return i;
    return -1;
}

/* "a, b, c" into buf. */
static const char *name_list(const char *const *names, int n, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (i) strncat(buf, ", ", size - strlen(buf) - 1);
        strncat(buf, names[i], size - strlen(buf) - 1);
    }
    return buf;
}

const char *mcd_step_method_name(mcd_step_method m)
{
    return (int)m >= 0 && m < MCD_METHOD_COUNT ? method_names[m] : NULL;
}

mcd_status mcd_step_method_from_name(const char *name, mcd_step_method *m, mcd_error *err)
{
    const int i = find_name(method_names, MCD_METHOD_COUNT, name);
    char list[256];
    if (i < 0 || !m)
        return mcd_fail(err, MCD_ERR_ARG, "unknown solver '%s'; valid: %s", name ? name : "(null)",
                        name_list(method_names, MCD_METHOD_COUNT, list, sizeof list));
    *m = (mcd_step_method)i;
    return MCD_OK;
}

/* Warm start (sim_warm.c) is off by default but for mncp-plm and the two
 * Lemke methods (below; docs/solvers.md, "Success
 * rate per scene"): it saves 70-100 % of the iterations of every method on
 * resting contacts, but its answers differ from the cold ones within the
 * tolerance, and tests that need more than the tolerance promises fail
 * with it: the PFB solvers' F_o of the analytic sphere (4e-9 against
 * 1e-9), the CCP's lift-off (its absolute complementarity term accepts
 * tol / |gamma_k| = 4e-7 m/s), and the warm trajectories of two stacked
 * boxes (mncp-plm, tol 1e-12) and of the pendulum (maxdiss-bgs) reach
 * states that neither start solves within the cap. */
mcd_solver_opts mcd_step_method_default_opts(mcd_step_method m)
{
    if ((int)m >= 0 && (int)m < MCD_SOLVER_KIND_COUNT) {
        mcd_solver_opts o = mcd_solver_default_opts((mcd_solver_kind)m);
        /* the default method warm-starts: on the piles' resting steps 1-10
         * iterations instead of ~700 (docs/solvers.md, "Warm start"); so
         * does Lemke's method, from the previous step's basis: fewer
         * pivots on every contact-rich scene, no solve failed either way
         * (docs/solvers.md, "mlcp-lemke from the previous step's basis") */
        o.warm_start = m == MCD_METHOD_MNCP_PLM || m == MCD_METHOD_MLCP_LEMKE;
        return o;
    }
    mcd_solver_opts o = mcd_solver_default_opts(MCD_SOLVER_MLCP_LEMKE);
    switch (m) {
    case MCD_METHOD_CCP_PGS:
    case MCD_METHOD_CCP_APGD: /* first-order: cheap sweeps, many of them (docs/solvers.md) */
        o.tol = 1e-9, o.max_iter = 10000;
        break;
    case MCD_METHOD_CCP_ADMM: /* linear rate on singular N: up to 2e4 iterations measured */
        o.tol = 1e-9, o.max_iter = 100000;
        break;
    case MCD_METHOD_CCP_IPM: /* 4-31 iterations measured (docs/solvers.md, ccp-ipm) */
        o.tol = 1e-9, o.max_iter = 100;
        break;
    case MCD_METHOD_MAXDISS_BGS:
        o.tol = 1e-9, o.max_iter = 1000;
        break;
    case MCD_METHOD_NSLCP_LEMKE: /* from the previous step's solution: 3-70x fewer pivots, 2-15x
                                    less time on the contact-rich scenes (docs/solvers.md) */
        o.warm_start = 1;
        break;
    default:
        break; /* nslcp: Lemke's and block pivoting's budgets (0: 50 n pivots) */
    }
    return o;
}

const char *mcd_impact_law_name(mcd_impact_law law)
{
    return (int)law >= 0 && law < MCD_IMPACT_LAW_COUNT ? impact_law_names[law] : NULL;
}

mcd_status mcd_impact_law_from_name(const char *name, mcd_impact_law *law, mcd_error *err)
{
    const int i = find_name(impact_law_names, MCD_IMPACT_LAW_COUNT, name);
    char list[128];
    if (i < 0 || !law)
        return mcd_fail(err, MCD_ERR_ARG, "unknown impact law '%s'; valid: %s",
                        name ? name : "(null)",
                        name_list(impact_law_names, MCD_IMPACT_LAW_COUNT, list, sizeof list));
    *law = (mcd_impact_law)i;
    return MCD_OK;
}

/* Scenario loading: the nslcp section, the parameters of the non-singular
 * friction LCP (include/mcdyn/nslcp.h) used by nslcp-lemke and
 * nslcp-judice (src/io/scenario_internal.h). Absent keys keep
 * mcd_nslcp_default_options. */
#include "scenario_internal.h"

#define NS(field) offsetof(mcd_nslcp_options, field)
static const scn_field nslcp_fields[] = {
    {"k_n", SCN_NUMBER, NS(k_n), SCN_NONNEG},
    {"b_n", SCN_NUMBER, NS(b_n), SCN_NONNEG},
    {"k_t", SCN_NUMBER, NS(k_t), SCN_NONNEG},
    {"b_t", SCN_NUMBER, NS(b_t), SCN_NONNEG},
    {"k_b", SCN_NUMBER, NS(k_b), SCN_NONNEG},
    {"b_b", SCN_NUMBER, NS(b_b), SCN_NONNEG},
    {"v_th", SCN_NUMBER, NS(v_th), SCN_NONNEG},
    {"rho", SCN_NUMBER, NS(rho), SCN_NONNEG},
    {"directions", SCN_INT, NS(ndir), {2, INFINITY, 0, 0}},
    {"match_distance", SCN_NUMBER, NS(match_distance), SCN_NONNEG},
};
#undef NS

mcd_status scn_parse_nslcp(const scn_ctx *c, const scn_at *doc)
{
    mcd_nslcp_options *o = &c->s->settings.nslcp;
    scn_at map;
    if (!scn_find(doc, "nslcp", &map)) return MCD_OK;
    mcd_status st = scn_read_fields(c, &map, nslcp_fields, SCN_COUNT(nslcp_fields), o);
    mcd_error e = {0};
    if (st == MCD_OK && mcd_nslcp_check_options(o, &e) != MCD_OK)
        st = scn_fail(c, &map, MCD_ERR_ARG, "%s", e.msg);
    return st;
}

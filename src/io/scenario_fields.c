/* Scenario loading: simple keys read by table (src/io/scenario_internal.h).
 *
 * A table lists every key a mapping may hold; keys of kind SCN_CUSTOM are
 * left to the section's own code, the others are read here into the
 * destination struct at the field's offset.
 */
#include "scenario_internal.h"

#include <limits.h>

static mcd_status read_field(const scn_ctx *c, const scn_at *at, const scn_field *f, void *dst)
{
    switch (f->kind) {
    case SCN_NUMBER:
        return scn_number(c, at, f->bounds, (double *)dst);
    case SCN_INT:
        return scn_int(c, at, (int)f->bounds.lo,
                       f->bounds.hi < INT_MAX ? (int)f->bounds.hi : INT_MAX, (int *)dst);
    case SCN_BOOL:
        return scn_bool(c, at, (int *)dst);
    case SCN_TEXT:
        return scn_string_copy(c, at, (char **)dst);
    case SCN_CUSTOM:
        break;
    }
    return MCD_OK;
}

mcd_status scn_read_fields(const scn_ctx *c, const scn_at *map, const scn_field *f, int n,
                           void *dst)
{
    mcd_status st = scn_check_mapping(c, map, f, n);
    for (int i = 0; st == MCD_OK && i < n; i++) {
        scn_at at;
        if (scn_find(map, f[i].key, &at)) st = read_field(c, &at, &f[i], (char *)dst + f[i].offset);
    }
    return st;
}

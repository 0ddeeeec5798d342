/* Serial revolute chains for the dynamics benchmark (chain_model.h). */
#include "chain_model.h"

#include <stdio.h>

#define LINK_MASS   1.0  /* kg */
#define LINK_LENGTH 0.2  /* m */
#define LINK_RADIUS 0.03 /* m */

static mcd_link_desc chain_link(int i, const char *name)
{
    mcd_link_desc d = mcd_link_desc_default();
    d.name = name;
    d.parent = i - 1;
    d.jtype = MCD_JOINT_REVOLUTE;
    if (i > 0) d.origin.p[2] = LINK_LENGTH;
    d.axis[0] = d.axis[1] = d.axis[2] = 0.0;
    d.axis[i % 3] = 1.0;
    d.limits.has_position_limits = 1;
    d.limits.lower = -2.5;
    d.limits.upper = 2.5;
    const double m = LINK_MASS, r = LINK_RADIUS, l = LINK_LENGTH;
    d.mass.mass = m;
    d.mass.com[0] = 0.01;
    d.mass.com[1] = -0.005;
    d.mass.com[2] = 0.5 * l;
    d.mass.inertia[0] = d.mass.inertia[4] = m * (3 * r * r + l * l) / 12.0;
    d.mass.inertia[8] = 0.5 * m * r * r;
    return d;
}

static mcd_status add_links(mcd_builder *b, int n, mcd_error *err)
{
    mcd_status s = MCD_OK;
    for (int i = 0; i < n && s == MCD_OK; i++) {
        char name[32];
        snprintf(name, sizeof name, "link%d", i + 1);
        mcd_link_desc d = chain_link(i, name);
        s = mcd_builder_add_link(b, &d, NULL, err);
    }
    return s;
}

mcd_status chain_model_make(int n, mcd_model **out, mcd_error *err)
{
    mcd_builder *b = NULL;
    mcd_status s = mcd_builder_create(&b);
    if (s != MCD_OK) return mcd_fail(err, s, "cannot create a model builder");
    char name[32];
    snprintf(name, sizeof name, "chain%d", n);
    s = mcd_builder_set_name(b, name, err);
    if (s == MCD_OK) s = add_links(b, n, err);
    if (s == MCD_OK) s = mcd_model_build(b, out, err);
    mcd_builder_free(b);
    return s;
}

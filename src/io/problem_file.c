/* Problem files: kind names, sizes, release (include/mcdyn/problem_io.h). */
#include "mcdyn/problem_io.h"

#include <string.h>

static const char *const kind_names[MCD_PROBLEM_KIND_COUNT] = {
    [MCD_PROBLEM_AUTO] = "auto",
    [MCD_PROBLEM_LCP] = "lcp",
    [MCD_PROBLEM_MLCP] = "mlcp",
    [MCD_PROBLEM_FC3D] = "fc3d",
};

const char *mcd_problem_kind_name(mcd_problem_kind k)
{
    if ((int)k < 0 || k >= MCD_PROBLEM_KIND_COUNT) return "unknown";
    return kind_names[k];
}

mcd_status mcd_problem_kind_from_name(const char *name, mcd_problem_kind *k, mcd_error *err)
{
    for (int i = 0; name && i < MCD_PROBLEM_KIND_COUNT; i++) {
        if (strcmp(name, kind_names[i]) == 0) {
            *k = (mcd_problem_kind)i;
            return MCD_OK;
        }
    }
    return mcd_fail(err, MCD_ERR_ARG, "unknown problem kind '%s' (valid: auto, lcp, mlcp, fc3d)",
                    name ? name : "(null)");
}

int mcd_problem_file_size(const mcd_problem_file *f)
{
    if (f->kind == MCD_PROBLEM_FC3D) return mcd_fc3d_size(&f->fc3d);
    return f->mlcp.n;
}

void mcd_problem_file_free(mcd_problem_file *f)
{
    if (!f) return;
    if (f->kind == MCD_PROBLEM_FC3D)
        mcd_fc3d_free(&f->fc3d);
    else if (f->kind != MCD_PROBLEM_AUTO)
        mcd_mlcp_free(&f->mlcp);
    memset(f, 0, sizeof *f);
}

/* Collision options: defaults and checks (include/mcdyn/collision.h). */
#include "collision_internal.h"

#include <math.h>

mcd_collision_options mcd_collision_options_default(void)
{
    mcd_collision_options o;
    o.activation_distance = 0.0;
    o.bullet_activation_distance = 0.0;
    o.self_collision = 1;
    o.filter_world_children = 0;
    o.exclude = NULL;
    o.nexclude = 0;
    o.capacity = 256;
    o.analytic = 1;
    o.plane_iterations = 8;
    o.merge_distance = 1e-6;
    o.flat_tolerance = 1e-5;
    return o;
}

mcd_status mcd_collision_check_options(const mcd_model *m, const mcd_collision_options *o,
                                       mcd_error *err)
{
    if (!isfinite(o->activation_distance) || o->activation_distance < 0)
        return mcd_fail(err, MCD_ERR_ARG,
                        "collision options: activation_distance must be finite and >= 0 (is %g)",
                        o->activation_distance);
    if (!isfinite(o->bullet_activation_distance) || o->bullet_activation_distance < 0)
        return mcd_fail(
            err, MCD_ERR_ARG,
            "collision options: bullet_activation_distance must be finite and >= 0 (is %g)",
            o->bullet_activation_distance);
    if (!isfinite(o->merge_distance) || o->merge_distance < 0)
        return mcd_fail(err, MCD_ERR_ARG,
                        "collision options: merge_distance must be finite and >= 0 (is %g)",
                        o->merge_distance);
    if (!isfinite(o->flat_tolerance) || o->flat_tolerance < 0)
        return mcd_fail(err, MCD_ERR_ARG,
                        "collision options: flat_tolerance must be finite and >= 0 (is %g)",
                        o->flat_tolerance);
    if (o->capacity < 0)
        return mcd_fail(err, MCD_ERR_ARG, "collision options: capacity must be >= 0 (is %d)",
                        o->capacity);
    if (o->plane_iterations < 0 || o->plane_iterations > 64)
        return mcd_fail(err, MCD_ERR_ARG,
                        "collision options: plane_iterations must be in 0..64 (is %d)",
                        o->plane_iterations);
    if (o->nexclude < 0 || (o->nexclude > 0 && !o->exclude))
        return mcd_fail(err, MCD_ERR_ARG, "collision options: %d excluded pairs but no array",
                        o->nexclude);
    for (int i = 0; i < 2 * o->nexclude; i++)
        if (o->exclude[i] < -1 || o->exclude[i] >= m->nbody)
            return mcd_fail(err, MCD_ERR_ARG,
                            "collision options: excluded pair %d names body %d (the model has "
                            "%d bodies, -1 is the world)",
                            i / 2, o->exclude[i], m->nbody);
    return MCD_OK;
}

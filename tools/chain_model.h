/* Serial revolute chains for the dynamics benchmark, made with the builder. */
#ifndef MCDYN_TOOLS_CHAIN_MODEL_H
#define MCDYN_TOOLS_CHAIN_MODEL_H

#include "mcdyn/model.h"

/* An n-link chain of revolute joints whose axes cycle through x, y and z.
 * Each link is a 1 kg aluminium-like rod, 0.2 m long and 0.03 m in radius,
 * with its centre of mass slightly off the link axis; the next joint sits
 * at the rod's end. */
mcd_status chain_model_make(int n, mcd_model **out, mcd_error *err);

#endif

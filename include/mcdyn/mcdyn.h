/* mcdyn — umbrella header: everything a program needs.
 *
 * Layers (docs/architecture.md): spatial algebra, model and data, dynamics
 * algorithms, complementarity problems and solvers, file loaders. */
#ifndef MCDYN_MCDYN_H
#define MCDYN_MCDYN_H

#include "mcdyn/status.h"
#include "mcdyn/spatial.h"
#include "mcdyn/model.h"
#include "mcdyn/data.h"
#include "mcdyn/dynamics.h"
#include "mcdyn/osc.h"
#include "mcdyn/closure.h"
#include "mcdyn/contact.h"
#include "mcdyn/sim.h"
#include "mcdyn/urdf.h"
#include "mcdyn/problem_io.h"
#include "mcdyn/problem_isolated.h"
#include "mcdyn/collision.h"
#include "mcdyn/scenario.h"
#include "mcdyn/log.h"
#include "mcdyn/runner.h"
#include "mcdyn/problem.h"
#include "mcdyn/solver.h"
#include "mcdyn/ccp.h"
#include "mcdyn/nslcp.h"
#include "mcdyn/lcp_block_pivot.h"
#include "mcdyn/impact.h"
#include "mcdyn/restitution.h"

#endif

"""Complementarity problem files solved by the library's solvers
(include/mcdyn/problem_io.h, solver.h)."""
import collections
import os

import numpy as np

from ._arrays import view
from ._errors import Error, Status, check
from ._mcdyn_cffi import ffi, lib

SolveResult = collections.namedtuple(
    "SolveResult", "kind solver status iterations error seconds stages solution velocity mu")
SolveResult.__doc__ = """The result of :func:`solve`.

kind: "lcp", "mlcp" or "fc3d"; solver: the solver's name; status: a
:class:`mcdyn.Status` (OK, ERR_NOT_CONVERGED or ERR_INFEASIBLE, with the
best iterate returned); iterations, error (the error measure of solver.h),
seconds, stages (of the fallback chain); solution: z (MLCP) or r (contact
problem); velocity: w = M z + q or u = W r + q; mu: the friction
coefficients (fc3d) or None."""

_KIND_NAMES = {lib.MCD_PROBLEM_LCP: "lcp", lib.MCD_PROBLEM_MLCP: "mlcp",
               lib.MCD_PROBLEM_FC3D: "fc3d"}
# Statuses of a solve that still returns a (best) iterate.
_REPORTED = (lib.MCD_OK, lib.MCD_ERR_NOT_CONVERGED, lib.MCD_ERR_INFEASIBLE)


def fclib_available():
    """True when libmcdyn reads FCLIB (.hdf5) files (always, through libhdf5)."""
    return bool(lib.mcd_problem_fclib_available())


def solve(problem_file, solver=None, kind="auto", tol=None, max_iter=None):
    """Reads a Siconos .dat or FCLIB .hdf5/.h5 problem file and solves it.

    solver: "mlcp-pfb-rlm", "mlcp-pfb-plm", "mlcp-lemke" for LCP/MLCP files,
    "mncp-rlm", "mncp-plm" for frictional-contact files (default
    "mlcp-lemke" and "mncp-plm", as ``mcdyn solve``); kind: "auto", "lcp", "mlcp", "fc3d";
    tol, max_iter: override the solver's defaults. Raises
    :class:`mcdyn.Error` for unreadable files and invalid problems (an FCLIB
    file is read in a child process, so one on which libhdf5 crashes raises
    too, with status ERR_PARSE); a solve
    that does not converge is reported in the result's status."""
    err = ffi.new("mcd_error *")
    kind_c = ffi.new("mcd_problem_kind *")
    check(lib.mcd_problem_kind_from_name(kind.encode(), kind_c, err), err)
    pf = ffi.new("mcd_problem_file *")
    # FCLIB files are read by libhdf5 in a child process
    # (problem_isolated.h): a crafted file that crashes libhdf5 raises
    # mcdyn.Error instead of ending Python.
    check(lib.mcd_problem_read_file_isolated(os.fsencode(problem_file), kind_c[0], pf, err), err)
    try:
        return _solve_read(pf, solver, tol, max_iter, err)
    finally:
        lib.mcd_problem_file_free(pf)


def _solve_read(pf, solver, tol, max_iter, err):
    is_fc = pf.kind == lib.MCD_PROBLEM_FC3D
    if solver is None:
        solver = "mncp-plm" if is_fc else "mlcp-lemke"
    k = ffi.new("mcd_solver_kind *")
    check(lib.mcd_solver_from_name(solver.encode(), k, err), err)
    opts = ffi.new("mcd_solver_opts *", lib.mcd_solver_default_opts(k[0]))
    if tol is not None:
        opts.tol = float(tol)
    if max_iter is not None:
        opts.max_iter = int(max_iter)
    n = lib.mcd_problem_file_size(pf)
    ws_out = ffi.new("mcd_solver_ws **")
    check(lib.mcd_solver_ws_create(max(n, 1), ws_out, err), err)
    ws = ffi.gc(ws_out[0], lib.mcd_solver_ws_free)
    x = np.zeros(n)
    v = np.zeros(n)
    stats = ffi.new("mcd_solver_stats *")
    xp = ffi.from_buffer("double[]", x, require_writable=True)
    if is_fc:
        vp = ffi.from_buffer("double[]", v, require_writable=True)
        st = lib.mcd_solve_fc3d(ws, k[0], ffi.addressof(pf, "fc3d"), opts, xp, vp, stats, err)
        mu = np.array(view(pf.fc3d.mu, pf.fc3d.nc)) if pf.fc3d.nc else np.zeros(0)
    else:
        st = lib.mcd_solve_mlcp(ws, k[0], ffi.addressof(pf, "mlcp"), opts, xp, stats, err)
        M = view(pf.mlcp.M, n * n).reshape(n, n) if n else np.zeros((0, 0))
        v = M @ x + (view(pf.mlcp.q, n) if n else 0.0)
        mu = None
    if st not in _REPORTED:
        raise Error(st, ffi.string(err.msg).decode())
    return SolveResult(_KIND_NAMES[pf.kind], solver, Status(st), stats.iterations, stats.error,
                       stats.seconds, stats.stages, x, v, mu)


__all__ = ["solve", "SolveResult", "fclib_available"]

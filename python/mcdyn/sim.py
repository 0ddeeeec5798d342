"""Time stepping with frictional contact (include/mcdyn/sim.h, runner.h),
a Python controller per step, recording to numpy arrays and to the HDF5
log (include/mcdyn/log.h)."""
import collections
import os

import numpy as np

from ._arrays import NULL, as_input, view, writable_view
from ._errors import Error, check, fail_arg
from ._mcdyn_cffi import ffi, lib

StepStats = collections.namedtuple("StepStats", "ncontacts iterations residual solver_status")
StepStats.__doc__ = """Statistics of one step (``mcd_step_stats``): contacts,
solver iterations, the solver's error measure and its status."""

_INTEGRATORS = {"euler": lib.MCD_INTEGRATOR_EULER, "midpoint": lib.MCD_INTEGRATOR_MIDPOINT}
_ON_FAILURE = {"stop": lib.MCD_ON_FAILURE_STOP, "warn": lib.MCD_ON_FAILURE_WARN}
_RECORDABLE = ("t", "q", "qd", "ncontacts", "iterations", "residual")


@ffi.def_extern()
def mcdyn_py_controller(user, m, d, t, q, qd, tau):
    """The C controller (``mcd_controller``) of every Sim with a Python
    controller: calls it with numpy views of q, qd and tau (no copies). The
    one place that knows the C callback's signature."""
    sim = ffi.from_handle(user)
    try:
        sim._controller(t, sim._view(q, sim._nq), sim._view(qd, sim._nv), sim._view(tau, sim._nv))
    except BaseException as e:  # raised again by Sim.step, with the C message
        sim._controller_exception = e
        return lib.MCD_ERR_ARG
    return lib.MCD_OK


class Sim:
    """A simulator (``mcd_sim``): the state (q, qd, t), one step at a time,
    contacts and their forces after each step, an optional Python
    controller. Made from a model (no contacts: nothing provides them) or
    from a scenario (:meth:`from_scenario`: contacts by Bullet with the
    scenario's parameters)."""

    def __init__(self, model, dt=1e-3, solver="mncp-plm", integrator="euler",
                 impact_law="newton", on_failure="stop", joint_damping=True):
        """A simulator of model without contacts; the options as in
        ``mcd_sim_options`` (solver: a step-method name of sim.h)."""
        opt = ffi.new("mcd_sim_options *", lib.mcd_sim_default_options())
        err = ffi.new("mcd_error *")
        method = ffi.new("mcd_step_method *")
        check(lib.mcd_step_method_from_name(solver.encode(), method, err), err)
        opt.solver = method[0]
        opt.solver_opts = lib.mcd_step_method_default_opts(method[0])
        law = ffi.new("mcd_impact_law *")
        check(lib.mcd_impact_law_from_name(impact_law.encode(), law, err), err)
        opt.impact_law = law[0]
        opt.integrator = _choice(_INTEGRATORS, integrator, "integrator")
        opt.on_failure = _choice(_ON_FAILURE, on_failure, "on_failure")
        opt.dt = float(dt)
        opt.joint_damping = int(bool(joint_damping))
        out = ffi.new("mcd_sim **")
        check(lib.mcd_sim_create(model._ptr, opt, out, err), err)
        self._init(model, ffi.gc(out[0], lib.mcd_sim_free), None, float(dt))

    @classmethod
    def from_scenario(cls, scenario, solver=None, dt=None, duration=None, contact_slots=None):
        """The scenario's simulation (``mcd_runner_create``); solver, dt,
        duration and contact_slots (contacts kept per step in the HDF5 log)
        override the scenario's."""
        ov = ffi.new("mcd_runner_overrides *", lib.mcd_runner_default_overrides())
        keep = ffi.new("char[]", solver.encode()) if solver is not None else NULL
        ov.solver = keep
        if dt is not None:
            ov.dt = float(dt)
        if duration is not None:
            ov.duration = float(duration)
        if contact_slots is not None:
            ov.contact_slots = int(contact_slots)
        out = ffi.new("mcd_runner **")
        err = ffi.new("mcd_error *")
        check(lib.mcd_runner_create(scenario._ptr, ov, out, err), err)
        self = cls.__new__(cls)
        runner = ffi.gc(out[0], lib.mcd_runner_free)
        self._scenario = scenario
        self._init(scenario.model, lib.mcd_runner_sim(runner), runner,
                   scenario.dt if dt is None else float(dt))
        return self

    def _init(self, model, sim, runner, dt):
        self.model = model
        model._has_data = True  # the simulator made its mcd_data: no more nodes
        self.dt = dt
        self._sim = sim
        self._runner = runner
        self._nq, self._nv = model.nq, model.nv
        self._stats = ffi.new("mcd_step_stats *")
        self._controller = None
        self._controller_exception = None
        self._handle = None
        self._views = {}
        self._log = None

    # ---- state ---------------------------------------------------------
    @property
    def q(self):
        """A copy of the positions (nq)."""
        return np.array(view(lib.mcd_sim_q(self._sim), self._nq))

    @property
    def qd(self):
        """A copy of the velocities (nv)."""
        return np.array(view(lib.mcd_sim_qd(self._sim), self._nv))

    @property
    def t(self):
        """The simulated time [s]."""
        return lib.mcd_sim_time(self._sim)

    def set_state(self, q, qd, t=None):
        """Sets (q, qd) and the time (default: unchanged); checked by C
        (``mcd_sim_set_state``)."""
        _, qp = as_input(q, (self._nq,), "q")
        _, vp = as_input(qd, (self._nv,), "qd")
        t = self.t if t is None else float(t)
        check(lib.mcd_sim_set_state(self._sim, qp, vp, t), lambda: lib.mcd_sim_error(self._sim))

    # ---- controller ----------------------------------------------------
    @property
    def controller(self):
        """A callable f(t, q, qd, tau) called before every step, which writes
        the joint forces into tau (numpy views of the C arrays: read q and qd,
        write tau in place, keep none of them after the call). None: no
        controller. An exception in it fails the step and is raised again by
        :meth:`step`, chained to a :class:`mcdyn.Error`."""
        return self._controller

    @controller.setter
    def controller(self, f):
        if f is not None and not callable(f):
            raise fail_arg("controller must be callable or None")
        self._controller = f
        if f is None:
            lib.mcd_sim_set_controller(self._sim, ffi.NULL, ffi.NULL)
            self._handle = None
        else:
            self._handle = ffi.new_handle(self)
            lib.mcd_sim_set_controller(self._sim, lib.mcdyn_py_controller, self._handle)

    def _view(self, ptr, n):
        """A writable numpy view of the C array at ptr, made once per array
        (the simulator's arrays stay where they are)."""
        v = self._views.get(ptr)
        if v is None:
            v = self._views[ptr] = writable_view(ptr, n)
        return v

    # ---- stepping ------------------------------------------------------
    def step(self):
        """One step (``mcd_sim_step``); returns :class:`StepStats`. Appends
        the step to the open HDF5 log. On failure the state is unchanged and
        :class:`mcdyn.Error` carries the C message."""
        st = lib.mcd_sim_step(self._sim, self._stats)
        if st != lib.MCD_OK:
            self._raise_step(st)
        if self._log is not None:
            self._log_row()
        s = self._stats
        return StepStats(s.ncontacts, s.iterations, s.residual, s.solver_status)

    def _raise_step(self, st):
        message = ffi.string(lib.mcd_sim_error(self._sim)).decode()
        cause, self._controller_exception = self._controller_exception, None
        if cause is not None:
            message += f": {type(cause).__name__}: {cause}"
        raise Error(st, message) from cause

    def run(self, steps, record=("t", "q", "qd")):
        """steps steps; returns a dict of numpy arrays with one row per step
        after it, for each name in record: "t", "q", "qd", "ncontacts",
        "iterations", "residual"."""
        for name in record:
            if name not in _RECORDABLE:
                raise fail_arg(f"cannot record {name!r}; choose from {_RECORDABLE}")
        steps = int(steps)
        sizes = {"q": (self._nq,), "qd": (self._nv,)}
        out = {name: np.empty((steps,) + sizes.get(name, ())) for name in record}
        q_src = view(lib.mcd_sim_q(self._sim), self._nq)
        qd_src = view(lib.mcd_sim_qd(self._sim), self._nv)
        for i in range(steps):
            s = self.step()
            for name, arr in out.items():
                if name == "q":
                    arr[i] = q_src
                elif name == "qd":
                    arr[i] = qd_src
                elif name == "t":
                    arr[i] = lib.mcd_sim_time(self._sim)
                else:
                    arr[i] = getattr(s, name)
        return out

    # ---- contacts ------------------------------------------------------
    def contacts(self):
        """The contacts of the last step as a dict of arrays (n contacts):
        body_a, body_b (-1: world), pos (n x 3, world), normal (n x 3, from B
        to A), gap, mu, frame (n x 3 x 3: rows f, o, eta), impulse (n x 3:
        F_f, F_o, F_n [N s] in the contact frame), force (impulse / dt [N])."""
        n = lib.mcd_sim_ncontacts(self._sim)
        ws = lib.mcd_sim_contact_ws(self._sim)
        c = {"body_a": np.empty(n, dtype=int), "body_b": np.empty(n, dtype=int),
             "pos": np.empty((n, 3)), "normal": np.empty((n, 3)), "gap": np.empty(n),
             "mu": np.empty(n), "frame": np.empty((n, 3, 3)), "impulse": np.empty((n, 3))}
        for k in range(n):
            p = lib.mcd_sim_contact(self._sim, k)
            c["body_a"][k], c["body_b"][k] = p.body_a, p.body_b
            c["pos"][k], c["normal"][k] = list(p.pos), list(p.normal)
            c["gap"][k], c["mu"][k] = p.gap, p.mu
            c["frame"][k] = view(lib.mcd_contact_frame(ws, k), 9).reshape(3, 3)
            c["impulse"][k] = view(lib.mcd_contact_impulse(ws, k), 3)
        c["force"] = c["impulse"] / lib.mcd_sim_step_size(self._sim)
        return c

    @property
    def solver_failures(self):
        """Steps whose solver did not converge (on_failure="warn")."""
        return lib.mcd_sim_solver_failures(self._sim)

    @property
    def step_halvings(self):
        """Steps (or halves) taken again as two halves because a solve of
        them did not converge (``mcd_sim_options.max_step_halvings``)."""
        return lib.mcd_sim_step_halvings(self._sim)

    # ---- HDF5 log ------------------------------------------------------
    def open_log(self, path):
        """Starts the HDF5 log of this run at path (``mcd_log_open``; written
        as a temporary file until :meth:`close_log`): the current state, then
        every step. Scenario simulations only (the runner writes the rows)."""
        if self._runner is None:
            raise Error(lib.MCD_ERR_UNSUPPORTED,
                        "the HDF5 log needs a simulation made from a scenario")
        if self._log is not None:
            raise fail_arg("a log is already open")
        out = ffi.new("mcd_log **")
        err = ffi.new("mcd_error *")
        check(lib.mcd_log_open(os.fsencode(path), self.model._ptr, ffi.NULL, 8, out, err), err)
        self._log = out[0]
        self._log_row(first=True)

    def _log_row(self, first=False):
        err = ffi.new("mcd_error *")
        st = lib.mcd_runner_log_row(self._runner, ffi.NULL if first else self._stats, self._log,
                                    err)
        if st != lib.MCD_OK:
            lib.mcd_log_discard(self._log)
            self._log = None
            raise Error(st, ffi.string(err.msg).decode())

    def close_log(self):
        """Writes and closes the HDF5 log (``mcd_log_close``)."""
        if self._log is None:
            raise fail_arg("no log is open")
        log, self._log = self._log, None
        err = ffi.new("mcd_error *")
        check(lib.mcd_log_close(log, err), err)

    def __del__(self):
        if getattr(self, "_log", None) is not None:
            lib.mcd_log_discard(self._log)
            self._log = None


def _choice(table, name, what):
    try:
        return table[name]
    except (KeyError, TypeError):
        raise fail_arg(f"{what} must be one of {sorted(table)}, not {name!r}") from None


__all__ = ["Sim", "StepStats"]

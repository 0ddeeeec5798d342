"""Scenario files (include/mcdyn/scenario.h): a model, its initial state
and the simulation settings, described in YAML (docs/scenarios.md)."""
import os

import numpy as np

from ._arrays import view
from ._errors import check
from ._mcdyn_cffi import ffi, lib
from .model import Model


class Scenario:
    """A loaded scenario (``mcd_scenario``). Attributes: ``model``
    (:class:`mcdyn.Model`, owned by the scenario), ``q0``, ``qd0`` (copies
    of the initial state), ``name``, ``dt``, ``duration``."""

    def __init__(self, ptr):
        self._ptr = ffi.gc(ptr, lib.mcd_scenario_free)
        self.model = Model(ptr.model, owner=self)

    @classmethod
    def load(cls, path):
        """Loads a scenario file (``mcd_scenario_load``); relative paths in it
        are resolved against its directory."""
        out = ffi.new("mcd_scenario **")
        err = ffi.new("mcd_error *")
        check(lib.mcd_scenario_load(os.fsencode(path), out, err), err)
        return cls(out[0])

    @property
    def name(self):
        return ffi.string(self._ptr.name).decode()

    @property
    def q0(self):
        return np.array(view(self._ptr.q0, self.model.nq))

    @property
    def qd0(self):
        return np.array(view(self._ptr.qd0, self.model.nv))

    @property
    def dt(self):
        return self._ptr.settings.dt

    @property
    def duration(self):
        return self._ptr.settings.duration

    def sim(self, solver=None, dt=None, duration=None, contact_slots=None):
        """A :class:`mcdyn.Sim` of this scenario, contacts by Bullet with the
        scenario's contact parameters (``mcd_runner_create``); the arguments
        override the scenario's values."""
        from .sim import Sim
        return Sim.from_scenario(self, solver=solver, dt=dt, duration=duration,
                                 contact_slots=contact_slots)

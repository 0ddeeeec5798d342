"""mcdyn: dynamics of articulated robots with frictional contact.

Python bindings (cffi, API mode) over the C library libmcdyn; numpy arrays
in and out. docs/python.md has the tour. Every failure raises
:class:`Error` with the C library's status and message.

    import mcdyn
    model = mcdyn.Model.from_urdf("panda.urdf")
    data = model.data()
    qdd = data.forward_dynamics(q, qd, tau)
"""
from ._errors import Error, Status
from .model import Data, Model
from .scenario import Scenario
from .sim import Sim, StepStats
from .solve import SolveResult, fclib_available, solve

__all__ = ["Error", "Status", "Model", "Data", "Scenario", "Sim", "StepStats", "solve",
           "SolveResult", "fclib_available"]

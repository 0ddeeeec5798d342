"""Shared fixtures: the robot models of ../shared (MCDYN_SHARED), random
states, the C reference program (MCDYN_C_REFERENCE, built by meson)."""
import os
import pathlib

import numpy as np
import pytest

import mcdyn

SOURCE = pathlib.Path(os.environ.get("MCDYN_SOURCE", pathlib.Path(__file__).parents[2]))
SHARED = pathlib.Path(os.environ.get("MCDYN_SHARED", SOURCE / ".." / "shared"))
MODELS = SHARED / "models" / "example-robot-data"
A1 = MODELS / "a1.urdf"
PANDA = MODELS / "panda_collision.urdf"


def load(name):
    """The two robots of the identity tests: the A1 on a floating base (free
    joint with a quaternion) and the Panda arm (fixed base, its mimic finger
    joint loaded as an independent joint)."""
    if name == "a1":
        return mcdyn.Model.from_urdf(A1, floating_base=True)
    return mcdyn.Model.from_urdf(PANDA, ignore_mimic=True)


@pytest.fixture(params=["a1", "panda"])
def robot(request):
    return load(request.param), request.param


def random_state(model, rng):
    """A random configuration (unit quaternions), velocity and force."""
    q = model.neutral() + rng.uniform(-1.0, 1.0, model.nq)
    for j in range(model.nbody):
        if model._ptr.body[j].jtype == mcdyn.model.lib.MCD_JOINT_FREE:
            a = model._ptr.body[j].qadr + 3
            q[a:a + 4] /= np.linalg.norm(q[a:a + 4])
    return q, rng.uniform(-1.0, 1.0, model.nv), rng.uniform(-5.0, 5.0, model.nv)

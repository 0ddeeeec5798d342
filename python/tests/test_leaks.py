"""No reference or memory leaks over 10⁵ calls: the reference counts of the
arrays passed in come back to their values, and the Python heap
(tracemalloc) does not grow with the number of calls."""
import sys
import tracemalloc

import numpy as np

import mcdyn
from conftest import load

CALLS = 100_000


def test_no_leaks_in_dynamics_calls():
    model = load("panda")
    data = model.data()
    q, qd, tau = model.neutral(), np.zeros(model.nv), np.ones(model.nv)
    out = np.empty(model.nv)
    M = np.empty((model.nv, model.nv))
    refs = [sys.getrefcount(a) for a in (q, qd, tau, out, M)]
    for _ in range(1000):  # warm caches (numpy, cffi) before measuring
        data.forward_dynamics(q, qd, tau, out=out)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(CALLS):
        data.forward_dynamics(q, qd, tau, out=out)
    for _ in range(CALLS // 10):
        data.mass_matrix(q, out=M)
        data.bias_forces(q, qd)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert [sys.getrefcount(a) for a in (q, qd, tau, out, M)] == refs
    # a leak of even one small object per call would be >= 10⁵ x 32 bytes
    assert grown < 100_000, grown


def test_no_leaks_in_failing_calls_and_steps():
    model = load("panda")
    data = model.data()
    bad = model.neutral()
    bad[0] = np.nan
    z = np.zeros(model.nv)
    sim = mcdyn.Sim(model)

    def hold(t, q, qd, tau):
        tau[:] = -qd

    sim.controller = hold
    refs = (sys.getrefcount(bad), sys.getrefcount(sim), sys.getrefcount(hold))
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(CALLS // 10):
        try:
            data.forward_dynamics(bad, z, z)
        except mcdyn.Error:
            pass
        sim.step()
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert (sys.getrefcount(bad), sys.getrefcount(sim), sys.getrefcount(hold)) == refs
    assert grown < 100_000, grown

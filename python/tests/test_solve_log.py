"""solve() on Siconos and FCLIB files equals `mcdyn solve` (the C command
on the same files); the HDF5 log of a scenario simulation holds the states
recorded to numpy."""
import json
import os
import subprocess

import h5py
import numpy as np
import pytest

import mcdyn
from conftest import SHARED, SOURCE

PROBLEMS = [SHARED / "data" / "lcp" / "lcp_CPS_1.dat",
            SHARED / "data" / "fc3d" / "FC3D_Example1.dat",
            SHARED / "data" / "fc3d" / "fclib_local_problem_test.hdf5"]


def command_solve(path):
    out = subprocess.run([os.environ["MCDYN_EXE"], "solve", str(path)], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


@pytest.mark.parametrize("path", PROBLEMS[:2], ids=lambda p: p.name)
def test_solve_equals_the_command(path):
    """Small problems with a unique solution: the same solver on the same
    problem does the same floating-point operations, so the results agree
    to the last bits (1e-12)."""
    res = mcdyn.solve(path)
    ref = command_solve(path)
    assert (res.kind, res.solver, res.iterations) == (ref["kind"], ref["solver"],
                                                      ref["iterations"])
    assert res.status == mcdyn.Status.OK and ref["status"] == "ok"
    np.testing.assert_allclose(res.solution, ref.get("z", ref.get("r")), rtol=1e-12, atol=1e-12)
    assert res.error == pytest.approx(ref["error"], rel=1e-12, abs=1e-300)
    if res.kind == "fc3d":
        np.testing.assert_allclose(res.velocity, ref["u"], rtol=1e-12, atol=1e-12)


def test_solve_fclib_file():
    """The FCLIB file (48 contacts, 144 unknowns) read by the library and
    solved as by the command: both converge to the tolerance. Its solution
    is not unique, and the iterates depend on the last bits of OpenBLAS's
    kernels (thread count, data alignment: two runs of the command with
    OPENBLAS_NUM_THREADS=1 and unset differ by 2 iterations and 1e-9 in r),
    so the solutions are not compared entry by entry."""
    res = mcdyn.solve(PROBLEMS[2])
    ref = command_solve(PROBLEMS[2])
    assert res.kind == ref["kind"] == "fc3d"
    assert res.solution.size == ref["size"] == 144 and res.mu.size == ref["contacts"] == 48
    assert res.status == mcdyn.Status.OK and ref["status"] == "ok"
    assert res.error <= 1e-10 and ref["error"] <= 1e-10


def test_crafted_fclib_file_raises():
    """A crafted file on which Debian's libhdf5 crashes (signal 11, kept
    from the fuzzing campaign in tests/fuzz/thirdparty/fclib): solve() reads
    it in a child process and raises; this process goes on."""
    crafted = SOURCE / "tests" / "fuzz" / "thirdparty" / "fclib" / "hdf5-local-heap-accum-read.hdf5"
    with pytest.raises(mcdyn.Error) as info:
        mcdyn.solve(crafted)
    assert info.value.status == mcdyn.Status.ERR_PARSE
    assert "crashed on this file (signal 11)" in str(info.value)
    assert mcdyn.fclib_available()


def test_hdf5_log_matches_recorded_arrays(tmp_path):
    sc = mcdyn.Scenario.load(SOURCE / "models" / "a1_drop_upright.yaml")
    sim = sc.sim()
    path = tmp_path / "run.h5"
    sim.open_log(path)
    rec = sim.run(100, record=("t", "q", "qd", "ncontacts"))
    sim.close_log()
    with h5py.File(path, "r") as f:
        steps = f["steps"]
        assert steps["q"].shape == (101, sc.model.nq)
        np.testing.assert_array_equal(steps["q"][0], sc.q0)
        np.testing.assert_array_equal(steps["q"][1:], rec["q"])
        np.testing.assert_array_equal(steps["qd"][1:], rec["qd"])
        np.testing.assert_array_equal(steps["t"][1:], rec["t"])
        np.testing.assert_array_equal(steps["ncontacts"][1:], rec["ncontacts"])


def test_contacts_of_the_last_step():
    """After the A1 lands, the contact forces of the last step carry its
    weight on average: the sum of the normal forces (world z components of
    F_n eta) over 0.2 s of standing still is within 10 % of m g, and every
    contact force lies in its friction cone (|F_t| <= mu F_n, up to the
    solver tolerance)."""
    sc = mcdyn.Scenario.load(SOURCE / "models" / "a1_drop_upright.yaml")
    sim = sc.sim()
    sim.run(600, record=())
    weight = sc.model.total_mass * 9.81
    total = 0.0
    for _ in range(200):
        sim.step()
        c = sim.contacts()
        world = np.einsum("kij,ki->kj", c["frame"], c["force"])  # rows f, o, eta
        total += world[:, 2].sum()
        tangent = np.hypot(c["force"][:, 0], c["force"][:, 1])
        assert np.all(tangent <= c["mu"] * c["force"][:, 2] + 1e-6)
        np.testing.assert_allclose(c["frame"][:, 2], c["normal"], atol=1e-12)
    assert total / 200 == pytest.approx(weight, rel=0.1)

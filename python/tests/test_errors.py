"""Bad input raises mcdyn.Error with the C library's status and message
(or the binding's, for shapes) and never crashes."""
import numpy as np
import pytest

import mcdyn
from conftest import A1, SHARED, load

ARG, NONFINITE, IO = mcdyn.Status.ERR_ARG, mcdyn.Status.ERR_NONFINITE, mcdyn.Status.ERR_IO


@pytest.fixture
def panda():
    model = load("panda")
    return model, model.data()


def raises(status, fn, *args, **kw):
    with pytest.raises(mcdyn.Error) as info:
        fn(*args, **kw)
    assert info.value.status == status, info.value
    assert info.value.message
    return info.value


def test_wrong_shapes(panda):
    model, data = panda
    q, z = model.neutral(), np.zeros(model.nv)
    raises(ARG, data.forward_dynamics, q[:-1], z, z)
    raises(ARG, data.forward_dynamics, q, z[:3], z)
    raises(ARG, data.forward_dynamics, q, z, np.zeros((model.nv, 1)))
    raises(ARG, data.inverse_dynamics, q, z, z, f_ext=np.zeros((model.nbody, 5)))
    raises(ARG, data.mass_matrix, q, out=np.zeros((model.nv, model.nv), dtype=np.float32))
    raises(ARG, data.mass_matrix, q, out=np.zeros((model.nv, model.nv)).T[:, ::2])
    raises(ARG, data.point_jacobian, q, 0, (1.0, 2.0))
    with pytest.raises(ValueError):  # numpy refuses text before the binding sees it
        data.forward_dynamics(["a"] * model.nq, z, z)


def test_non_finite_values(panda):
    model, data = panda
    q, z = model.neutral(), np.zeros(model.nv)
    bad = q.copy()
    bad[2] = np.nan
    e = raises(NONFINITE, data.forward_dynamics, bad, z, z)
    assert "panda_joint3" in e.message
    tau = z.copy()
    tau[0] = np.inf
    raises(NONFINITE, data.forward_dynamics, q, z, tau)
    raises(NONFINITE, data.mass_matrix, bad)
    sim = mcdyn.Sim(model)
    raises(NONFINITE, sim.set_state, bad, z)


def test_non_unit_quaternion():
    model = load("a1")
    data = model.data()
    q = model.neutral()
    q[3] = 2.0
    e = raises(ARG, data.forward_dynamics, q, np.zeros(model.nv), np.zeros(model.nv))
    assert "quaternion" in e.message


def test_names_and_indices(panda):
    model, data = panda
    q = model.neutral()
    raises(ARG, data.node_jacobian, q, "no_such_node")
    raises(ARG, data.point_jacobian, q, 99, (0, 0, 0))
    raises(ARG, data.node_jacobian, q, 0, ref="sideways")
    raises(ARG, mcdyn.Sim, model, solver="no-such-solver")
    raises(ARG, mcdyn.Sim, model, integrator="rk4")
    raises(ARG, model.add_node, "late", 0)  # after a Data was made


def test_minv_solve_without_factorization(panda):
    model, data = panda
    raises(ARG, data.minv_solve, np.ones(model.nv))


def test_missing_files(tmp_path):
    raises(IO, mcdyn.Model.from_urdf, tmp_path / "missing.urdf")
    raises(IO, mcdyn.Scenario.load, tmp_path / "missing.yaml")
    raises(IO, mcdyn.solve, tmp_path / "missing.dat")
    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot name='x'><link name='a'>")
    raises(mcdyn.Status.ERR_PARSE, mcdyn.Model.from_urdf, bad)


def test_solve_bad_requests():
    fc = SHARED / "data" / "fc3d" / "FC3D_Example1.dat"
    raises(ARG, mcdyn.solve, fc, solver="nope")
    raises(ARG, mcdyn.solve, fc, kind="nope")
    raises(mcdyn.Status.ERR_UNSUPPORTED, mcdyn.solve, fc, solver="mlcp-lemke")


def test_log_needs_a_scenario(panda, tmp_path):
    model, _ = panda
    raises(mcdyn.Status.ERR_UNSUPPORTED, mcdyn.Sim(model).open_log, tmp_path / "x.h5")


def test_controller_must_be_callable(panda):
    model, _ = panda
    sim = mcdyn.Sim(model)
    with pytest.raises(mcdyn.Error):
        sim.controller = 3


def test_controller_writing_nan_fails_the_step(panda):
    model, _ = panda
    sim = mcdyn.Sim(model)

    def nan_tau(t, q, qd, tau):
        tau[0] = np.nan

    sim.controller = nan_tau
    raises(NONFINITE, sim.step)
    assert sim.t == 0.0


def test_no_nodes_after_a_simulator():
    model = load("panda")
    mcdyn.Sim(model)
    raises(ARG, model.add_node, "late", 0)

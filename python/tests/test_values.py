"""The Python results equal the C results, and the identities of the C
suite hold through the binding, on the A1 (floating base) and the Panda."""
import os
import subprocess

import numpy as np
import pytest

from conftest import A1, PANDA, random_state

# The binding passes the caller's doubles to the same C functions, and the
# C program prints 17 significant digits (exact round trip), so the results
# agree to the last bit; 1e-12 (relative, with the same absolute floor)
# leaves room only for a copy or conversion error, not for a different path.
SAME = dict(rtol=1e-12, atol=1e-12)


def c_reference(urdf, floating, q, qd, tau, x):
    """FD, ID(FD), M, C, M⁻¹x, a point Jacobian and a node compliance from
    the C program python/tests/c_reference.c on the same input."""
    text = "\n".join(" ".join(repr(float(v)) for v in a) for a in (q, qd, tau, x))
    args = [os.environ["MCDYN_C_REFERENCE"], str(urdf)] + (["floating"] if floating else [])
    out = subprocess.run(args, input=text, capture_output=True, text=True, check=True).stdout
    return [np.array([float(v) for v in line.split()]) for line in out.splitlines()]


@pytest.mark.parametrize("urdf,floating", [(A1, True), (PANDA, False)], ids=["a1", "panda"])
def test_equal_to_c(urdf, floating):
    import mcdyn
    model = mcdyn.Model.from_urdf(urdf, floating_base=floating, ignore_mimic=True)
    node = model.add_node("probe", model.nbody - 1, position=(0.1, 0.2, 0.3))
    data = model.data()
    rng = np.random.default_rng(7)
    q, qd, tau = random_state(model, rng)
    x = rng.normal(size=model.nv)
    fd, id_, M, C, minv_x, J, lam = c_reference(urdf, floating, q, qd, tau, x)
    nv = model.nv
    qdd = data.forward_dynamics(q, qd, tau)
    np.testing.assert_allclose(qdd, fd, **SAME)
    np.testing.assert_allclose(data.inverse_dynamics(q, qd, qdd), id_, **SAME)
    np.testing.assert_allclose(data.mass_matrix(q), M.reshape(nv, nv), **SAME)
    np.testing.assert_allclose(data.bias_forces(q, qd), C, **SAME)
    data.minv_factor(q)
    np.testing.assert_allclose(data.minv_solve(x), minv_x, **SAME)
    np.testing.assert_allclose(data.point_jacobian(q, model.nbody - 1, (0.1, 0.2, 0.3)),
                               J.reshape(6, nv), **SAME)
    np.testing.assert_allclose(data.node_compliance(q, [node], rows="linear"),
                               lam.reshape(3, 3), **SAME)


# Identities against numpy's dense algebra. M of these robots has a
# condition number below 1e6 (checked below), so solving with it loses at
# most about 1e6 eps ~ 2e-10 relative to the largest entry: 1e-8 is a
# bound with margin that a wrong sign, index or frame would exceed by far.
IDENTITY = 1e-8


def test_mass_matrix_times_minv(robot):
    model, _ = robot
    data = model.data()
    rng = np.random.default_rng(1)
    for _ in range(5):
        q, _, _ = random_state(model, rng)
        M = data.mass_matrix(q)
        assert np.linalg.cond(M) < 1e6
        np.testing.assert_allclose(M, M.T, rtol=0, atol=1e-12 * np.abs(M).max())
        X = rng.normal(size=(model.nv, 4))
        data.minv_factor(q)
        Y = data.minv_solve(X)
        np.testing.assert_allclose(M @ Y, X, rtol=0, atol=IDENTITY * np.abs(X).max())


def test_inverse_of_forward_dynamics(robot):
    model, _ = robot
    data = model.data()
    rng = np.random.default_rng(2)
    for _ in range(5):
        q, qd, tau = random_state(model, rng)
        f_ext = rng.normal(size=(model.nbody, 6))
        qdd = data.forward_dynamics(q, qd, tau, f_ext=f_ext)
        scale = np.abs(tau).max() + np.abs(data.bias_forces(q, qd)).max() + np.abs(f_ext).max()
        np.testing.assert_allclose(data.inverse_dynamics(q, qd, qdd, f_ext=f_ext), tau, rtol=0,
                                   atol=IDENTITY * scale)
        # and equal to the dense solve M⁻¹(τ − C) without external forces
        qdd0 = data.forward_dynamics(q, qd, tau)
        dense = np.linalg.solve(data.mass_matrix(q), tau - data.bias_forces(q, qd))
        np.testing.assert_allclose(qdd0, dense, rtol=0, atol=IDENTITY * np.abs(dense).max())


def test_gravity_is_bias_at_rest(robot):
    model, _ = robot
    data = model.data()
    q, _, _ = random_state(model, np.random.default_rng(3))
    np.testing.assert_allclose(data.gravity_forces(q), data.bias_forces(q, np.zeros(model.nv)),
                               rtol=0, atol=1e-12 * model.total_mass * 10)


def test_jacobian_by_finite_differences(robot):
    """The linear rows of a point Jacobian times qd equal the central
    difference of the point's position along q ⊕ ±h qd (h = 1e-6: the
    truncation error h² |x'''| ~ 1e-12 and the rounding eps |x| / h ~ 1e-10
    stay far below the 1e-7 bound)."""
    model, _ = robot
    node = model.add_node("tip", model.nbody - 1, position=(0.05, -0.02, 0.1))
    data = model.data()
    rng = np.random.default_rng(4)
    q, qd, _ = random_state(model, rng)
    J = data.node_jacobian(q, node)
    h = 1e-6
    plus = data.node_pose(model.integrate(q, qd, h), node)[1]
    minus = data.node_pose(model.integrate(q, qd, -h), node)[1]
    np.testing.assert_allclose(J[3:] @ qd, (plus - minus) / (2 * h), rtol=0, atol=1e-7)


def test_compliance_is_dense_product(robot):
    """Λ = J M⁻¹ Jᵀ of two nodes, from the O(N) recursion, equals numpy's
    dense product of the node Jacobians and M."""
    model, _ = robot
    a = model.add_node("a", model.nbody - 1, position=(0.0, 0.0, 0.1))
    b = model.add_node("b", model.nbody // 2, position=(0.1, 0.0, 0.0))
    data = model.data()
    q, _, _ = random_state(model, np.random.default_rng(5))
    J = np.vstack([data.node_jacobian(q, a), data.node_jacobian(q, b)])
    dense = J @ np.linalg.solve(data.mass_matrix(q), J.T)
    lam = data.node_compliance(q, [a, b])
    np.testing.assert_allclose(lam, dense, rtol=0, atol=IDENTITY * np.abs(dense).max())


def test_output_arrays_written_in_place(robot):
    model, _ = robot
    data = model.data()
    q, qd, tau = random_state(model, np.random.default_rng(6))
    out = np.empty(model.nv)
    res = data.forward_dynamics(q, qd, tau, out=out)
    assert res is out
    np.testing.assert_array_equal(out, data.forward_dynamics(q, qd, tau))
    M = np.empty((model.nv, model.nv))
    assert data.mass_matrix(q, out=M) is M

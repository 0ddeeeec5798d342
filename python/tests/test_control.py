"""Controllers written in Python: the C examples' scenes driven through
Sim.controller (a PD stand of the A1 on the ground, an operational-space
controller of the Panda tracking a circle)."""
import numpy as np

import mcdyn
from conftest import A1, PANDA

# The A1 standing: hips 0, thighs 0.9 rad, calves -1.8 rad; the feet (radius
# 0.02 m) then hang 2 x 0.2 cos(0.9) + 0.02 = 0.269 m below the hip axes.
STAND = {"hip": 0.0, "thigh": 0.9, "calf": -1.8}
LEGS = ("FR", "FL", "RR", "RL")
BASE_HEIGHT = 0.269  # the trunk origin with the feet on the ground (hips at the origin's height)
STAND_YAML = """
name: a1_python_stand
gravity: [0, 0, -9.81]
robots:
  - urdf: {urdf}
    base: floating
    position: [0, 0, {height}]
    q: {{{q}}}
environment:
  - {{name: ground, type: plane}}
contact: {{mu: 0.8, restitution: 0.0, impact_law: newton}}
dt: 0.001
duration: 2.0
solver: {{name: mlcp-pfb-plm}}
"""


def stand_scenario(tmp_path, drop):
    q = ", ".join(f"{leg}_{j}_joint: {v}" for leg in LEGS for j, v in STAND.items())
    # trunk origin: hips 0.0 below it in the URDF's trunk frame, feet 0.269 m
    # below the hips, plus the drop height
    text = STAND_YAML.format(urdf=A1, height=BASE_HEIGHT + drop, q=q)
    path = tmp_path / "a1_stand.yaml"
    path.write_text(text)
    return mcdyn.Scenario.load(path)


def test_a1_python_pd_stand(tmp_path):
    """PD in Python on the 12 joints (kp 80 N m/rad, kd 2 N m s/rad) holds
    the A1 dropped from 5 cm above the ground: over the last 0.5 s of 2 s
    the trunk height varies by less than 1 cm, and it stands (trunk above
    0.2 m: it did not fold onto the ground)."""
    sc = stand_scenario(tmp_path, 0.05)
    sim = sc.sim()
    q_ref = sc.q0[7:].copy()
    kp, kd = 80.0, 2.0

    def pd(t, q, qd, tau):
        tau[6:] = kp * (q_ref - q[7:]) - kd * qd[6:]

    sim.controller = pd
    rec = sim.run(2000, record=("t", "q"))
    # the free joint's frame is the scenario's base pose (upright at
    # BASE_HEIGHT + drop), so the trunk height is that plus q[2]
    z = BASE_HEIGHT + 0.05 + rec["q"][:, 2]
    last = z[rec["t"] > 1.5]
    print(f"a1 stand: trunk height {last.min():.4f} .. {last.max():.4f} m over the last 0.5 s")
    assert last.max() - last.min() < 0.01, (last.min(), last.max())
    assert last.min() > 0.2
    assert sim.solver_failures == 0


def test_a1_controller_exception_fails_the_step(tmp_path):
    sim = stand_scenario(tmp_path, 0.05).sim()

    def broken(t, q, qd, tau):
        raise RuntimeError("controller bug")

    sim.controller = broken
    q0 = sim.q
    try:
        sim.step()
    except mcdyn.Error as e:
        assert isinstance(e.__cause__, RuntimeError)
        assert "controller" in e.message
    else:
        raise AssertionError("the step did not fail")
    np.testing.assert_array_equal(sim.q, q0)
    sim.controller = None
    sim.step()
    assert sim.t > 0


def _jdot_qd(data, q, qd, node, model, h=1e-6):
    """J̇q̇ of the node's linear rows by a central difference of J along q̇:
    the independent reference for Data.node_bias_acceleration."""
    Jp = data.node_jacobian(model.integrate(q, qd, h), node)[3:]
    Jm = data.node_jacobian(model.integrate(q, qd, -h), node)[3:]
    return (Jp - Jm) @ qd / (2 * h)


def test_bias_acceleration_and_inertia_match_references():
    """J̇q̇ from the library against the central difference (h = 1e-6: the
    truncation error, O(h^2) times the third derivative of the node position,
    and the rounding, eps |J| / h, both stay below 1e-8 here), and the
    operational-space inertia against the inverse of the compliance (1e-9:
    the compliance's condition number is ~1e3)."""
    model = mcdyn.Model.from_urdf(PANDA, ignore_mimic=True)
    ee = model.add_node("flange", "panda_link7", position=(0.0, 0.0, 0.107))
    data = model.data()
    rng = np.random.default_rng(7)
    for _ in range(5):
        q = np.array([0.0, -0.4, 0.0, -2.2, 0.0, 1.8, 0.8, 0.02, 0.02]) + rng.uniform(-0.3, 0.3, 9)
        qd = rng.uniform(-1, 1, model.nv)
        a = data.node_bias_acceleration(q, qd, ee)[3:]
        np.testing.assert_allclose(a, _jdot_qd(data, q, qd, ee, model), atol=1e-7)
        inertia = data.node_osc_inertia(q, [ee], rows="linear")
        compliance = data.node_compliance(q, [ee], rows="linear")
        np.testing.assert_allclose(inertia @ compliance, np.eye(3), atol=1e-9)


def test_panda_operational_space_circle():
    """Operational-space control (Khatib) of the Panda's flange point in
    Python: F = Λ(ẍ_d + K_p e + K_d ė − J̇q̇), τ = JᵀF + C + Nᵀ M(posture PD),
    Λ = (J M⁻¹ Jᵀ)⁻¹ from node_osc_inertia, J̇q̇ from node_bias_acceleration,
    tracking a circle of radius 5 cm
    (10 cm across) in 2 s. After the first second (the start transient) the
    RMS position error over the next 3 s is below 1 mm."""
    model = mcdyn.Model.from_urdf(PANDA, ignore_mimic=True)
    ee = model.add_node("flange", "panda_link7", position=(0.0, 0.0, 0.107))
    data = model.data()
    sim = mcdyn.Sim(model, dt=1e-3)
    q0 = np.array([0.0, -0.4, 0.0, -2.2, 0.0, 1.8, 0.8, 0.02, 0.02])
    sim.set_state(q0, np.zeros(model.nv), 0.0)
    center = data.node_pose(q0, ee)[1] - np.array([0.05, 0.0, 0.0])
    r, w = 0.05, 2 * np.pi / 2.0
    kp, kd, kp_null, kd_null = 400.0, 40.0, 25.0, 10.0
    errors = []

    def target(t):
        c, s = np.cos(w * t), np.sin(w * t)
        return (center + r * np.array([c, s, 0.0]), r * w * np.array([-s, c, 0.0]),
                -r * w * w * np.array([c, s, 0.0]))

    def osc(t, q, qd, tau):
        x = data.node_pose(q, ee)[1]
        J = data.node_jacobian(q, ee)[3:]
        xd, vd, ad = target(t)
        errors.append((t, np.linalg.norm(xd - x)))
        jdqd = data.node_bias_acceleration(q, qd, ee)[3:]
        Lam = data.node_osc_inertia(q, [ee], rows="linear")
        # dynamically consistent inverse M⁻¹JᵀΛ, with the factorization of M(q)
        # that node_osc_inertia leaves (the next kinematics call clears it)
        Jbar = data.minv_solve(J.T) @ Lam
        N = np.eye(model.nv) - Jbar @ J
        F = Lam @ (ad + kp * (xd - x) + kd * (vd - J @ qd) - jdqd)
        M = data.mass_matrix(q)
        tau[:] = J.T @ F + data.bias_forces(q, qd) + N.T @ (M @ (kp_null * (q0 - q) - kd_null * qd))

    sim.controller = osc
    sim.run(5000, record=())
    e = np.array(errors)
    tracked = e[e[:, 0] >= 1.0, 1]
    rms = np.sqrt(np.mean(tracked ** 2))
    print(f"panda circle: RMS error {rms:.3e} m over {len(tracked)} steps")
    assert rms < 1e-3, rms

#!/usr/bin/python3
"""self_stress.py: is a captured frictional-contact step jammed?

    /usr/bin/python3 tests/scenes/self_stress.py STEP.dat [MU_SCALE ...]
    /usr/bin/python3 tests/scenes/self_stress.py --check

STEP.dat is a step problem written by capture-problems (a dense Siconos
fc3d file: W, q = nu_free - t, mu; rows (n, f, o) per contact). A
self-stress is an impulse d != 0 in the friction cones with J^T d = 0, i.e.
W d = 0 (W = J M^-1 J^T, M positive definite). Along one, W d = 0 and
q . d = -t . d_n, so with a positive target on its support the CCP
objective 1/2 r.W r + q.r is unbounded below and the Coulomb problem has no
strictly feasible velocity (docs/contact.md, "Jams").

For each scale s of the friction coefficients (default 0, 1, 1.5, 2) it
solves, with scipy's HiGHS, the linear program

    rho(s) = min max_i |(W^1/2 d)_i|  over d with |d_t,k| <= s mu_k cos(pi/16) d_n,k
                                      (the 16-gon inscribed in each cone)
                                      and sum_k d_n,k = 1,

the distance of the unit-load cone impulses from the self-stresses, in
W^1/2 units (sqrt(m/s / (N s))); W^1/2 = V diag(sqrt(lambda)) V^T over the
eigenvalues lambda >= 1e-12 max(lambda). rho = 0 (to the LP's tolerance)
means a self-stress exists; then q . d of the LP's d is printed (< 0: the
targets load it, the CCP is unbounded along d). The inscribed polygon makes
a reported self-stress a true one of the exact cone; rho > 0 is a margin
for the 16-gon, within cos(pi/16) = 0.98 of the exact cone.

--check runs the LP on a closed form: a ball squeezed in a wedge of
half-angle alpha (two contacts, normals tilted up by alpha from opposite
horizontals, positive targets) has a self-stress, the two impulses along
the chord between the contact points, exactly when tan(alpha) <= mu (the
chord makes the angle alpha with each normal); with the 16-gon, when
tan(alpha) <= 0.98 mu. alpha = 20 deg, tan = 0.364: none at mu = 0.3, one
at mu = 0.4 with q . d = -t < 0.

Needs python3-scipy (Debian). Not run by the test suite: it documents the
measurement of docs/contact.md, "Jams".
"""
import sys

import numpy as np
from scipy.optimize import linprog

FACETS = 16
REL_NULL = 1e-12


def read_fc3d_dat(path):
    """W (n x n), q (n), mu (nc) of a dense Siconos fc3d .dat file."""
    tok = open(path).read().split()
    dim, nc, storage = int(tok[0]), int(tok[1]), int(tok[2])
    if dim != 3 or storage != 0:
        raise SystemExit("%s: not a dense 3D frictional-contact problem" % path)
    n = int(tok[3])
    at = 7
    W = np.array(tok[at:at + n * n], dtype=float).reshape(n, n)
    at += n * n
    q = np.array(tok[at:at + n], dtype=float)
    mu = np.array(tok[at + n:at + n + nc], dtype=float)
    if n != 3 * nc:
        raise SystemExit("%s: closure rows are not handled (n = %d, nc = %d)" % (path, n, nc))
    return W, q, mu


def cone_rows(mu, scale):
    """Rows a . d <= 0 of the inscribed 16-gons (d ordered (n, f, o) per contact)."""
    nc, c = len(mu), np.cos(np.pi / FACETS)
    rows = np.zeros((nc * FACETS, 3 * nc))
    for k in range(nc):
        for j in range(FACETS):
            th = 2 * np.pi * j / FACETS
            r = rows[k * FACETS + j]
            r[3 * k], r[3 * k + 1], r[3 * k + 2] = -scale * mu[k] * c, np.cos(th), np.sin(th)
    return rows


def distance_to_self_stress(W, mu, scale):
    """rho(scale) and the minimiser d (None if the LP failed)."""
    n = W.shape[0]
    lam, V = np.linalg.eigh(0.5 * (W + W.T))
    keep = lam >= REL_NULL * lam.max()
    R = np.sqrt(lam[keep])[:, None] * V[:, keep].T  # rows of W^1/2 up to the rotation V
    one = np.ones((R.shape[0], 1))
    cones = cone_rows(mu, scale)
    A = np.vstack([np.hstack([R, -one]), np.hstack([-R, -one]),
                   np.hstack([cones, np.zeros((cones.shape[0], 1))])])
    load = np.zeros(n + 1)
    load[0:n:3] = 1.0
    cost = np.zeros(n + 1)
    cost[n] = 1.0
    bounds = [(0, None) if i % 3 == 0 else (None, None) for i in range(n)] + [(0, None)]
    res = linprog(cost, A_ub=A, b_ub=np.zeros(A.shape[0]), A_eq=load[None, :], b_eq=[1.0],
                  bounds=bounds, method="highs")
    return (res.fun, res.x[:n]) if res.status == 0 else (None, None)


def wedge(mu, alpha=np.radians(20.0), radius=0.05, mass=0.1):
    """W, q, mu of a ball in a wedge (--check): J M^-1 J^T, targets 0.01 m/s."""
    inertia = 0.4 * mass * radius * radius
    Minv = np.diag([1 / mass] * 3 + [1 / inertia] * 3)
    rows = []
    for side in (1.0, -1.0):
        n = np.array([side * np.cos(alpha), 0.0, np.sin(alpha)])  # into the ball
        f = np.cross(n, [0.0, 1.0, 0.0])
        f /= np.linalg.norm(f)
        o = np.cross(n, f)
        p = -radius * n  # the contact point from the centre
        rows += [np.r_[e, np.cross(p, e)] for e in (n, f, o)]
    J = np.array(rows)
    q = np.zeros(6)
    q[0::3] = -0.01
    return J @ Minv @ J.T, q, np.array([mu, mu])


def check():
    """The closed form of wedge(): exit status 1 if the LP disagrees."""
    bad = 0
    for mu, expect in ((0.3, False), (0.4, True)):
        W, q, m = wedge(mu)
        rho, d = distance_to_self_stress(W, m, 1.0)
        found = rho is not None and rho < 1e-9 and q @ d < 0
        print("wedge, tan(alpha) = %.3f, mu = %.1f: rho = %s, self-stress %s (expected %s)" %
              (np.tan(np.radians(20.0)), mu, rho, found, expect))
        bad |= int(bool(found) != expect)
    return bad


def main(argv):
    if len(argv) == 2 and argv[1] == "--check":
        sys.exit(check())
    if len(argv) < 2:
        raise SystemExit(__doc__)
    W, q, mu = read_fc3d_dat(argv[1])
    scales = [float(a) for a in argv[2:]] or [0.0, 1.0, 1.5, 2.0]
    lam = np.linalg.eigvalsh(W)
    null = int((lam < REL_NULL * lam.max()).sum())
    print("%s: %d contacts, %d unknowns, null space of W: %d" % (argv[1], len(mu), len(q), null))
    for s in scales:
        rho, d = distance_to_self_stress(W, mu, s)
        if rho is None:
            print("  mu x %.2f: the LP failed" % s)
            continue
        tail = ""
        if rho < 1e-9:
            tail = "  self-stress: q.d = %.3e, %d loaded contacts" % (q @ d, (d[0::3] > 1e-9).sum())
        print("  mu x %.2f: rho = %.3e%s" % (s, rho, tail))


if __name__ == "__main__":
    main(sys.argv)

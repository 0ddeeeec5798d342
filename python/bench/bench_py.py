"""The Python side of the overhead benchmark (docs/performance.md,
"Python"; python/bench/bench_c.c is the C side):

    /usr/bin/python3 python/bench/bench_py.py PANDA.urdf A1_STAND.yaml [FD_CALLS STEPS]

prints, as min / median / max over 15 blocks, the time of one forward
dynamics call of the Panda through Python (with an ``out`` array, and
returning a new array), and of one step of the A1 standing under the same
PD controller written in Python. With FD_CALLS and STEPS it times nothing
and makes that many calls (with the ``out`` array) and steps, for
instruction counts under callgrind, as bench_c does."""
import statistics
import sys
import time

import numpy as np

import mcdyn

BLOCKS = 15


def report(what, times):
    times = sorted(times)
    print(f"{what}: min {1e6 * times[0]:.3f} median {1e6 * statistics.median(times):.3f} "
          f"max {1e6 * times[-1]:.3f} us")


def bench_fd(urdf, count):
    model = mcdyn.Model.from_urdf(urdf, ignore_mimic=True)
    data = model.data()
    rng = np.random.default_rng(1)
    q, qd, tau = rng.uniform(-1, 1, model.nq), rng.uniform(-1, 1, model.nv), rng.uniform(
        -5, 5, model.nv)
    out = np.empty(model.nv)
    if count >= 0:
        for _ in range(count):
            data.forward_dynamics(q, qd, tau, out=out)
        return
    for label, call in (("out array", lambda: data.forward_dynamics(q, qd, tau, out=out)),
                        ("new array", lambda: data.forward_dynamics(q, qd, tau))):
        times = []
        for _ in range(BLOCKS):
            t0 = time.perf_counter()
            for _ in range(20000):
                call()
            times.append((time.perf_counter() - t0) / 20000)
        report(f"panda forward dynamics (Python, {label})", times)


def bench_stand(yaml, count):
    sc = mcdyn.Scenario.load(yaml)
    sim = sc.sim()
    q_ref = sc.q0[7:].copy()

    def pd(t, q, qd, tau):
        tau[6:] = 80.0 * (q_ref - q[7:]) - 2.0 * qd[6:]

    sim.controller = pd
    for _ in range(1000 + max(count, 0)):
        sim.step()
    if count >= 0:
        return
    times = []
    for _ in range(BLOCKS):
        t0 = time.perf_counter()
        for _ in range(400):
            sim.step()
        times.append((time.perf_counter() - t0) / 400)
    report("a1 stand step, PD in Python", times)


if __name__ == "__main__":
    counts = [int(a) for a in sys.argv[3:5]] if len(sys.argv) == 5 else [-1, -1]
    bench_fd(sys.argv[1], counts[0])
    bench_stand(sys.argv[2], counts[1])

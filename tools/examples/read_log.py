#!/usr/bin/python3
"""Reads an mcdyn HDF5 trajectory log (docs/outputs.md) with h5py and prints
a summary; with --csv FILE, checks the log against the CSV of the same run
(`mcdyn sim ... --out FILE --h5 LOG`) and exits 1 on a mismatch.

    /usr/bin/python3 tools/examples/read_log.py run.h5 [--csv run.csv]
"""
import argparse
import csv
import sys

import h5py
import numpy as np

GEOM_TYPES = ["sphere", "box", "cylinder", "capsule", "plane", "mesh"]


def quat_rotate(q, v):
    """Rotates the vectors v (..., 3) by the unit quaternions q (..., 4) [w x y z]."""
    w, u = q[..., :1], q[..., 1:]
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def summary(f):
    m, s = f["model"], f["steps"]
    names = [n.decode() for n in m["body_name"][:]]
    print("format      ", f.attrs["format"])
    print("bodies      ", len(names), ", ".join(names))
    types = [GEOM_TYPES[t] for t in m["geom_type"][:]]
    print("geoms       ", len(types), ", ".join(types))
    t = s["t"][:]
    print("steps       ", len(t), "from t = %g to %g s" % (t[0], t[-1]))
    print("contacts    ", "at most %d per step" % s["ncontacts"][:].max())
    print("scenario    ", len(f.attrs["scenario"]), "characters")


def check_against_csv(f, path):
    """Every logged quantity the CSV also holds, to the CSV's precision (17
    significant digits: the CSV gives back the exact doubles, so the values
    must agree to rounding of the centre-of-mass formula, 1e-12 relative)."""
    with open(path) as fh:
        rows = list(csv.reader(fh))
    header, rows = rows[0], rows[1:]
    col = {name: i for i, name in enumerate(header)}
    s, m = f["steps"], f["model"]
    if len(rows) != len(s["t"]):
        return "%d CSV rows but %d logged steps" % (len(rows), len(s["t"]))
    num = lambda name: np.array([float(r[col[name]]) for r in rows])
    bad = []
    if not np.array_equal(num("t"), s["t"][:]):
        bad.append("t")
    if not np.array_equal(num("ncontacts"), s["ncontacts"][:]):
        bad.append("ncontacts")
    pose, com = s["body_pose"][:], m["body_com"][:]
    for k, name in enumerate(n.decode() for n in m["body_name"][:]):
        c = pose[:, k, :3] + quat_rotate(pose[:, k, 3:], com[k])
        for i, axis in enumerate("xyz"):
            if not np.allclose(num(name + "." + axis), c[:, i], rtol=1e-12, atol=1e-12):
                bad.append(name + "." + axis)
        for i, part in enumerate(["qw", "qx", "qy", "qz"]):
            if not np.array_equal(num(name + "." + part), pose[:, k, 3 + i]):
                bad.append(name + "." + part)
    force, nc = s["contact_force"][:], s["ncontacts"][:]
    for slot in range(force.shape[1]):
        used = nc > slot
        for i, part in enumerate(["Fn", "Ff", "Fo"]):
            name = "c%d.%s" % (slot, part)
            if name not in col:
                continue
            text = np.array([r[col[name]] for r in rows])
            if np.any(text[~used] != "") or not np.array_equal(
                    text[used].astype(float), force[used, slot, i]):
                bad.append(name)
    return ", ".join(bad)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("--csv")
    a = ap.parse_args()
    try:
        f = h5py.File(a.log, "r")
    except OSError as e:
        print("read_log.py: %s: not an HDF5 file (%s)" % (a.log, e), file=sys.stderr)
        return 1
    with f:
        if f.attrs.get("format") != "mcdyn-log 1":
            print("read_log.py: %s: not an mcdyn log" % a.log, file=sys.stderr)
            return 1
        summary(f)
        if a.csv:
            bad = check_against_csv(f, a.csv)
            if bad:
                print("read_log.py: log and CSV differ: " + bad, file=sys.stderr)
                return 1
            print("csv          agrees with", a.csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())

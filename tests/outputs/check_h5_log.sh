#!/usr/bin/env bash
# The HDF5 trajectory log of `mcdyn sim --h5`: read by h5py through
# tools/examples/read_log.py, every value the CSV of the same run holds
# agrees with it (read_log.py --csv); bad paths fail with a message and leave
# no file. Exit 77 (skip) only when Debian's python3-h5py is missing.
#   check_h5_log.sh MCDYN_EXE SOURCE_ROOT
set -uo pipefail
exe=$1
src=$2
python=/usr/bin/python3
if ! "$python" -c 'import h5py, numpy' 2>/dev/null; then
  echo "python3-h5py not installed: $python cannot import h5py"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# 1.5 s of the pendulum: falls, hits the floor (contacts), two blocks of steps.
"$exe" sim "$src/models/pendulum12.yaml" --duration 1.5 --out "$dir/run.csv" \
  --plot "$dir/run.png" --h5 "$dir/run.h5" --quiet >"$dir/out.txt" 2>&1 ||
  fail "mcdyn sim: $(cat "$dir/out.txt")"
grep -q "log               $dir/run.h5" "$dir/out.txt" || fail "summary lacks the log line"
"$python" "$src/tools/examples/read_log.py" "$dir/run.h5" --csv "$dir/run.csv" >"$dir/read.txt" 2>&1 ||
  fail "read_log.py: $(cat "$dir/read.txt")"
grep -q "steps        1501" "$dir/read.txt" || fail "expected 1501 steps: $(cat "$dir/read.txt")"
grep -q "bodies       12" "$dir/read.txt" || fail "expected 12 bodies: $(cat "$dir/read.txt")"
# the log of a run with contacts has contacts
"$python" - "$dir/run.h5" <<'PY' || fail "contacts or model tree missing"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1]) as f:
    s, m = f["steps"], f["model"]
    assert s["ncontacts"][:].max() >= 1
    k = int(np.argmax(s["ncontacts"][:] > 0))
    assert np.all(np.isfinite(s["contact_point"][k, 0])) and s["contact_force"][k, 0, 0] > 0
    assert abs(np.linalg.norm(s["contact_normal"][k, 0]) - 1) < 1e-12
    assert list(m["body_parent"][:]) == list(range(-1, 11)), m["body_parent"][:]
    assert "pendulum" in f.attrs["scenario"].lower() or len(f.attrs["scenario"]) > 100
    # /contacts holds every contact; its first rows of each step are the slots
    nc, c = s["ncontacts"][:], f["contacts"]
    first = np.concatenate([[0], np.cumsum(nc)])
    assert len(c["point"]) == first[-1] and nc.max() >= 1, (len(c["point"]), first[-1])
    slots = s["contact_point"].shape[1]
    for k in np.nonzero(nc)[0]:
        n = min(nc[k], slots)
        for name in ("body", "point", "normal", "force"):
            assert np.array_equal(c[name][first[k]:first[k] + n], s["contact_" + name][k, :n]), name
    # the world force is the contact-frame force in an orthonormal frame
    # whose normal is the logged normal: same length, same normal part
    F, W, N = c["force"][:], c["force_world"][:], c["normal"][:]
    scale = np.linalg.norm(F, axis=1) + 1e-300
    assert np.allclose(np.linalg.norm(W, axis=1), np.linalg.norm(F, axis=1), rtol=1e-12, atol=1e-9)
    assert np.all(np.abs(np.sum(W * N, axis=1) - F[:, 0]) <= 1e-12 * scale + 1e-9)
PY
# A box sliding on a plane (mu = 0.5, v0 = 2 m/s along y, no spin) stops at
# v0 / (mu g) = 0.41 s; until then every loaded contact is sliding, so with
# the exact Coulomb cone (mncp-plm) its force lies on the cone's surface,
# tilted from the normal by atan(mu) against the motion (-y), and the normal
# forces carry the weight m g (no vertical acceleration). Tolerances: the
# solver's 1e-10 residual and its iterate's rounding, 1e-7 relative.
cat >"$dir/run.slide.yaml" <<YAML
name: slide
gravity: [0, 0, -9.81]
robots:
  - {urdf: $src/models/box_ground.urdf, base: floating, position: [0, 0, 0.5],
     qd: {box: [0, 2, 0, 0, 0, 0]}}
environment: [{name: ground, type: plane}]
contact: {mu: 0.5, restitution: 0.0}
solver: {name: mncp-plm, tol: 1e-10}
dt: 0.001
duration: 0.3
YAML
"$exe" sim "$dir/run.slide.yaml" --h5 "$dir/run.slide.h5" --quiet >"$dir/run.slide.txt" 2>&1 ||
  fail "mcdyn sim slide.yaml: $(cat "$dir/run.slide.txt")"
"$python" - "$dir/run.slide.h5" <<'PY' || fail "the sliding box's forces are not tilted by atan(mu)"
import math, sys, h5py, numpy as np
mu, g = 0.5, 9.81
with h5py.File(sys.argv[1]) as f:
    s, c = f["steps"], f["contacts"]
    nc, t = s["ncontacts"][:], s["t"][:]
    first = np.concatenate([[0], np.cumsum(nc)])
    W, N = c["force_world"][:], c["normal"][:]
    checked = 0
    for k in np.nonzero((t > 0.01) & (t < 0.3))[0]:
        w, n = W[first[k]:first[k + 1]], N[first[k]:first[k + 1]]
        assert len(w) >= 1 and abs(w[:, 2].sum() - g) < 1e-7 * g, (t[k], w[:, 2].sum())
        for fw, nw in zip(w, n):
            fn = fw @ nw
            if fn < 1e-3 * g:
                continue
            ft = fw - fn * nw
            tilt = math.atan2(np.linalg.norm(ft), fn)
            assert abs(tilt - math.atan(mu)) < 1e-7, (t[k], tilt, math.atan(mu))
            assert ft[1] < 0 and abs(ft[0]) < 1e-7 * fn, (t[k], ft)
            checked += 1
    assert checked > 200, checked
    print("sliding contacts checked:", checked)
PY
# a log in a directory that does not exist: exit 1, a message, no file
"$exe" sim "$src/models/pendulum12.yaml" --duration 0.01 --h5 "$dir/none/run.h5" --quiet \
  >"$dir/bad.txt" 2>&1 && fail "an unwritable log path succeeded"
grep -q "$dir/none/run.h5" "$dir/bad.txt" || fail "no message naming the path: $(cat "$dir/bad.txt")"
[ -z "$(ls "$dir" | grep -v -e '^run\.' -e '\.txt$')" ] || fail "stray files: $(ls "$dir")"
# read_log.py refuses a file that is not an mcdyn log
"$python" "$src/tools/examples/read_log.py" "$dir/run.csv" >/dev/null 2>&1 && fail "read a CSV as a log"
ls "$dir"/*.tmp-* >/dev/null 2>&1 && fail "temporary files left: $(ls "$dir")"
echo "ok"

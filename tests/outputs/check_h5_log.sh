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

#!/usr/bin/env bash
# tools/fuzz.sh's triage of fclib crash reports (docs/reliability.md): the
# real AddressSanitizer reports of the two kept libhdf5 crashes
# (tests/fuzz/triage/hdf5-*.txt, from fuzz_fclib on
# tests/fuzz/thirdparty/fclib) must be told libhdf5's, and each ours-*.txt
# ours: made from them by putting a frame of ours above libhdf5's, taking
# libhdf5's frames out, calling libhdf5 from the HDF5 log writer instead of
# the FCLIB reader, or cutting the stack before the caller; and an
# out-of-memory report without a stack and an undefined-behaviour report
# in the reader.
set -euo pipefail
source=${MCDYN_SOURCE:?MCDYN_SOURCE is not set}
fuzz=$source/tools/fuzz.sh
failed=0 hdf5=0 ours=0
for report in "$source"/tests/fuzz/triage/*.txt; do
  name=$(basename "$report")
  if verdict=$("$fuzz" triage "$report"); then told=libhdf5; else told=ours; fi
  case $name in
    hdf5-*) expected=libhdf5 hdf5=$((hdf5 + 1)) ;;
    ours-*) expected=ours ours=$((ours + 1)) ;;
    *) echo "unexpected report name: $name"; exit 1 ;;
  esac
  if [ "$told" != "$expected" ]; then
    echo "FAIL $verdict (expected $expected)"
    failed=1
  else
    echo "ok   $verdict"
  fi
done
[ "$hdf5" -ge 2 ] && [ "$ours" -ge 6 ] || { echo "reports missing: $hdf5 libhdf5, $ours ours"; exit 1; }
exit $failed

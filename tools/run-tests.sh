#!/usr/bin/env bash
# Builds mcdyn with warnings as errors and runs the whole test suite.
#   tools/run-tests.sh              release build in build-test/
#   tools/run-tests.sh --sanitize   AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  opts=(-Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false
        -Dc_args=-fno-sanitize-recover=all -Dcpp_args=-fno-sanitize-recover=all)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  # Leaks inside third-party libraries only (tests/lsan.supp says which and why).
  export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
else
  dir=build-test
  opts=(-Dbuildtype=release)
fi
if [ -d "$dir" ]; then
  meson setup --reconfigure "$dir" --werror "${opts[@]}" >/dev/null
else
  meson setup "$dir" --werror "${opts[@]}" >/dev/null
fi
ninja -C "$dir"
status=0
meson test -C "$dir" --print-errorlogs --num-processes 2 || status=$?
# One closing line for whoever reads the log: counts from meson's test log.
log="$dir/meson-logs/testlog.json"
passed=$(grep -c '"result": "OK"' "$log" || true)
skipped=$(grep -c '"result": "SKIP"' "$log" || true)
total=$(grep -c '"result":' "$log" || true)
echo "$passed passed, $((total - passed - skipped)) failed, $skipped skipped"
exit $status

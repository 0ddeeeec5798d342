#!/usr/bin/env bash
# Fuzzes one input reader with libFuzzer (Debian's clang), under
# AddressSanitizer and UndefinedBehaviorSanitizer:
#   tools/fuzz.sh TARGET SECONDS [libFuzzer options...]
#   tools/fuzz.sh all SECONDS      every target in turn
# Targets (tests/fuzz/fuzz_TARGET.c): urdf, scenario, siconos, fclib, args.
# Seeds: the repository's models/ and ../shared (models, data), read at run
# time, and tests/fuzz/corpus/TARGET (fclib: that corpus alone, five small
# FCLIB files written by libfclib); the inputs of past crashes in
# tests/fuzz/regressions/TARGET are run first and must pass. The growing
# corpus is kept in build-fuzz/corpus/TARGET; a crash leaves its input in
# build-fuzz/crash/ (keep it under tests/fuzz/regressions/TARGET once
# fixed) and makes the script exit non-zero. docs/reliability.md.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  sed -n '2,13p' "$0" >&2
  exit 2
fi
target=$1 seconds=$2
shift 2
targets=(urdf scenario siconos fclib args)
if [ "$target" = all ]; then
  for t in "${targets[@]}"; do "$0" "$t" "$seconds" "$@"; done
  exit 0
fi
case " ${targets[*]} " in
  *" $target "*) ;;
  *) echo "fuzz.sh: unknown target '$target' (one of: ${targets[*]} all)" >&2; exit 2 ;;
esac
shared=../shared
build=build-fuzz
san=(-fsanitize=address,undefined -fno-sanitize-recover=all)

# The library, static, instrumented for coverage and the sanitizers.
if [ ! -d "$build" ]; then
  CC=clang CXX=clang++ meson setup "$build" -Dtests=false -Ddefault_library=static \
    -Dbuildtype=debugoptimized -Db_lundef=false \
    -Dc_args="-fsanitize=fuzzer-no-link ${san[*]}" -Dcpp_args="-fsanitize=fuzzer-no-link ${san[*]}" \
    -Dc_link_args="${san[*]}" -Dcpp_link_args="${san[*]}" >/dev/null
fi
ninja -C "$build" libmcdyn.a >/dev/null

extra=()
[ "$target" = args ] && extra=(tools/args.c)
exe="$build/fuzz_$target"
clang -std=c11 -D_DEFAULT_SOURCE -g -O1 -fsanitize=fuzzer "${san[@]}" -Iinclude \
  "tests/fuzz/fuzz_$target.c" "${extra[@]}" "$build/libmcdyn.a" \
  $(pkg-config --libs lapack libxml-2.0 yaml-0.1 assimp hdf5) -lspqr -lcholmod \
  -lBulletCollision-float64 -lLinearMath-float64 -lstdc++ -lm -o "$exe"

# Seeds for each target.
seeds=()
case $target in
  urdf) seeds=(models/*.urdf "$shared"/models/*/*.urdf) ;;
  scenario) seeds=(models/*.yaml) ;;
  siconos) seeds=("$shared"/data/*/*.dat) ;;
  fclib) ;; # tests/fuzz/corpus/fclib only: docs/reliability.md, fuzzing
esac
[ -d "tests/fuzz/corpus/$target" ] && seeds+=("tests/fuzz/corpus/$target"/*)
corpus="$build/corpus/$target"
mkdir -p "$corpus" "$build/crash"
seeddir="$build/seeds/$target"
rm -rf "$seeddir" && mkdir -p "$seeddir"
for f in "${seeds[@]}"; do [ -f "$f" ] && cp "$f" "$seeddir/"; done

export MCDYN_FUZZ_MODELS="$PWD/models"
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
# Leaks inside third-party libraries only (tests/lsan.supp says which and why).
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
regressions="tests/fuzz/regressions/$target"
if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
  "$exe" -runs=0 "$regressions"/* >/dev/null 2>"$build/regressions-$target.log" || {
    cat "$build/regressions-$target.log" >&2
    echo "fuzz.sh: $target: a regression input fails again" >&2
    exit 1
  }
fi
max_len=4096
[ "$target" = fclib ] && max_len=32768
[ "$target" = urdf ] && max_len=65536
echo "fuzz.sh: $target for $seconds s" >&2
"$exe" -max_total_time="$seconds" -max_len="$max_len" -timeout=25 -rss_limit_mb=2048 \
  -artifact_prefix="$build/crash/$target-" -print_final_stats=1 "$@" "$corpus" "$seeddir"

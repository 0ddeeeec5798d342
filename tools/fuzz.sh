#!/usr/bin/env bash
# Fuzzes one input reader with libFuzzer (Debian's clang), under
# AddressSanitizer and UndefinedBehaviorSanitizer:
#   tools/fuzz.sh TARGET SECONDS [libFuzzer options...]
#   tools/fuzz.sh all SECONDS      every target in turn
#   tools/fuzz.sh triage REPORT... tells libhdf5's crashes from ours (below)
# Targets (tests/fuzz/fuzz_TARGET.c): urdf, scenario, siconos, fclib,
# fclib_stream, args. Seeds: the repository's models/ and ../shared (models,
# data), read at run time, and tests/fuzz/corpus/TARGET (fclib: that corpus
# alone, five small FCLIB files written by libfclib); the inputs of past
# crashes in tests/fuzz/regressions/TARGET are run first and must pass. The
# growing corpus is kept in build-fuzz/corpus/TARGET; a crash leaves its
# input in build-fuzz/crash/ (keep it under tests/fuzz/regressions/TARGET
# once fixed) and makes the script exit non-zero.
# fclib reads through libhdf5, which crafted files crash by itself: it runs
# in fork mode, past crashes, and each crash input is run again and its
# stack triaged. A crash whose frames, below the sanitizer's and libc's,
# are libhdf5's down to a call from src/io/problem_fclib.c is libhdf5's:
# its input is kept in tests/fuzz/thirdparty/fclib and printed, and does not
# fail the run; any other crash (a frame of ours above libhdf5, no libhdf5
# frame, no stack) fails it. The kept inputs are triaged first: each must
# still be told libhdf5's. An out-of-memory input is run again with
# -malloc_limit_mb, which reports the stack of the allocation above the
# limit: libhdf5's (triaged as above) is reported and not kept; any other,
# or a resident set grown without one such allocation, fails the run.
# docs/reliability.md.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,26p' "$0" >&2
  exit 2
fi

# The origin of one sanitizer report, from the first stack trace after the
# first error line: prints "libhdf5" (returns 0) or "ours: why" (returns 1).
triage_report() {
  local verdict
  verdict=$(awk '
    !started && /ERROR: (Address|Leak)Sanitizer|runtime error:|ERROR: libFuzzer/ { started = 1; next }
    !started { next }
    /^ *#[0-9]+ 0x[0-9a-f]+ / {
      in_stack = 1
      fn = ($3 == "in") ? $4 : ""
      if (fn ~ /^(__interceptor_|___interceptor_|__asan|__sanitizer|__ubsan|__lsan|__mem|fuzzer::)/) next
      if (fn ~ /^(malloc|calloc|realloc)$/) next
      if ($0 ~ /\/libhdf5[_a-z]*\.so/) { hdf5++; next }
      sub(/^ */, "")
      if (hdf5 && $0 ~ /src\/io\/problem_fclib\.c:/) print "libhdf5"
      else if (hdf5) print "ours: libhdf5 called from outside src/io/problem_fclib.c: " $0
      else print "ours: a frame outside libhdf5: " $0
      done = 1
      exit
    }
    in_stack { print "ours: the stack ends in libhdf5"; done = 1; exit }
    END { if (!done) print "ours: no sanitizer stack in the report" }
  ' "$1")
  echo "$verdict"
  [ "$verdict" = libhdf5 ]
}

if [ "$1" = triage ]; then
  shift
  status=0
  for report in "$@"; do
    verdict=$(triage_report "$report") || status=1
    echo "$report: $verdict"
  done
  exit $status
fi
cd "$(dirname "$0")/.."
target=$1 seconds=$2
shift 2
targets=(urdf scenario siconos fclib fclib_stream args)
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
clang -std=c11 -D_DEFAULT_SOURCE -g -O1 -fsanitize=fuzzer "${san[@]}" -Iinclude -Isrc \
  "tests/fuzz/fuzz_$target.c" "${extra[@]}" "$build/libmcdyn.a" \
  $(pkg-config --libs lapack libxml-2.0 yaml-0.1 assimp hdf5) -lspqr -lcholmod -lklu \
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
limits=(-max_len="$max_len" -timeout=25 -rss_limit_mb=2048)
echo "fuzz.sh: $target for $seconds s" >&2
if [ "$target" != fclib ]; then
  exec "$exe" -max_total_time="$seconds" "${limits[@]}" -artifact_prefix="$build/crash/$target-" \
    -print_final_stats=1 "$@" "$corpus" "$seeddir"
fi

# fclib: libhdf5's crashes told from ours (top of this file).
thirdparty=tests/fuzz/thirdparty/fclib
for input in "$thirdparty"/*; do
  log="$build/thirdparty-$(basename "$input").log"
  if "$exe" "${limits[@]}" "$input" >"$log" 2>&1; then
    echo "fuzz.sh: fclib: $input no longer crashes libhdf5" >&2
  elif ! verdict=$(triage_report "$log"); then
    cat "$log" >&2
    echo "fuzz.sh: fclib: the triage does not tell the kept $input as libhdf5's ($verdict)" >&2
    exit 1
  fi
done
run=$(mktemp -d "$build/crash/fclib-XXXXXX")
status=0
"$exe" -fork=1 -ignore_crashes=1 -ignore_ooms=0 -ignore_timeouts=0 -max_total_time="$seconds" \
  "${limits[@]}" -artifact_prefix="$run/" -print_final_stats=1 "$@" "$corpus" "$seeddir" || status=$?
shopt -s nullglob
found=("$run"/*)
ours=0
for input in "${found[@]}"; do
  log="$input.log"
  # -malloc_limit_mb: an out-of-memory input then reports the stack of the
  # allocation above the limit (libhdf5 asks for sizes read from damaged
  # headers, e.g. 16 GB in H5C_protect under H5HL_protect).
  "$exe" "${limits[@]}" -malloc_limit_mb=2048 "$input" >"$log" 2>&1 || true
  if verdict=$(triage_report "$log") && [[ $(basename "$input") == oom-* ]]; then
    # Not kept: the release reader refuses these files with an error (no
    # crash), and tests/fuzz/thirdparty/fclib holds inputs that crash it.
    echo "fuzz.sh: fclib: libhdf5 ran out of memory on $input (third-party allocation; not kept)" >&2
    rm -f "$input" "$log"
  elif [ "$verdict" = libhdf5 ]; then
    kept="$thirdparty/$(basename "$input").hdf5"
    for k in "$thirdparty"/*; do cmp -s "$k" "$input" && kept=$k; done
    [ -f "$kept" ] || cp "$input" "$kept"
    echo "fuzz.sh: fclib: libhdf5 crashed on $input (third-party, kept as $kept)" >&2
    rm -f "$input" "$log"
  else
    cat "$log" >&2
    echo "fuzz.sh: fclib: a crash in our code on $input ($verdict)" >&2
    ours=$((ours + 1))
  fi
done
rmdir "$run" 2>/dev/null || true
[ "$ours" -eq 0 ] || exit 1
[ "${#found[@]}" -gt 0 ] || exit "$status"
